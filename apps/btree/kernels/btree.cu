// Rodinia's b+tree queries on the GPU: findK (a record per key) and
// findRangeK (where a key range's records start, and how many), as the
// original kernels run them and as SPAC-scheduled blocks run them.
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary
// (apps/btree/gpu.go). Parameters are device pointers and ints (the Go side
// passes every argument in an 8-byte slot; an int reads its low 4 bytes).
//
// The tree (apps/btree/tree.go): node n is a record of 2*S ints at
// nodes + n*2*S, S = order + 1 slots: keys[0..S) then idx[0..S). Thread t
// of a block of `order` threads owns slot t: at an internal node it tests
// keys[t] <= x < keys[t+1] (exactly one thread succeeds) and idx[t] is the
// child; at a leaf the thread with keys[t] == x holds the record position
// idx[t]. Every kernel takes `height` steps down from `root`, then looks
// at the leaf.

#define MAX_LEVELS 32

__device__ __forceinline__ const int* node_at(const int* nodes, int n, int slots) {
    return nodes + (long long)n * 2 * slots;
}

// The original findK: one block per query. Like Rodinia's, the block keeps
// its current node (cur) and the next one (nxt) in global memory: thread
// 0 moves down a level between two barriers. ans must hold -1 where no
// record is found (the kernel writes only the records it finds).
extern "C" __global__ void btree_findk(int height, int root, int slots, const int* __restrict__ nodes,
                                       const int* __restrict__ records, int* cur, int* nxt,
                                       const int* __restrict__ keys, int* ans) {
    const int q = blockIdx.x, t = threadIdx.x;
    if (t == 0) cur[q] = nxt[q] = root;
    __syncthreads();
    const int x = keys[q];
    for (int l = 0; l < height; ++l) {
        const int* n = node_at(nodes, cur[q], slots);
        if (n[t] <= x && x < n[t + 1]) nxt[q] = n[slots + t];
        __syncthreads();
        if (t == 0) cur[q] = nxt[q];
        __syncthreads();
    }
    const int* leaf = node_at(nodes, cur[q], slots);
    if (leaf[t] == x) ans[q] = records[leaf[slots + t]];
}

// The original findRangeK: one block per query walks the paths of start
// and end side by side. recstart and reclen must hold 0 where no record is
// found: recstart is the start key's record position, reclen the end
// key's minus recstart plus one.
extern "C" __global__ void btree_findrange(int height, int root, int slots, const int* __restrict__ nodes,
                                           int* cur, int* nxt, int* last, int* nxt2,
                                           const int* __restrict__ start, const int* __restrict__ end,
                                           int* recstart, int* reclen) {
    const int q = blockIdx.x, t = threadIdx.x;
    if (t == 0) {
        cur[q] = nxt[q] = root;
        last[q] = nxt2[q] = root;
    }
    __syncthreads();
    const int s = start[q], e = end[q];
    for (int l = 0; l < height; ++l) {
        const int* a = node_at(nodes, cur[q], slots);
        if (a[t] <= s && s < a[t + 1]) nxt[q] = a[slots + t];
        const int* b = node_at(nodes, last[q], slots);
        if (b[t] <= e && e < b[t + 1]) nxt2[q] = b[slots + t];
        __syncthreads();
        if (t == 0) {
            cur[q] = nxt[q];
            last[q] = nxt2[q];
        }
        __syncthreads();
    }
    const int* a = node_at(nodes, cur[q], slots);
    if (a[t] == s) recstart[q] = a[slots + t];
    __syncthreads();
    const int* b = node_at(nodes, last[q], slots);
    if (b[t] == e) reclen[q] = b[slots + t] - recstart[q] + 1;
}

// A SPAC block's cache of the path its last query walked, per path and
// level, tagged by node number (the tags are the same in every thread, so
// every branch on them is uniform). The levels above the leaves are staged
// whole, keys and child numbers, in shared memory (2*slots ints a level):
// every thread compares two of a node's keys and one thread then reads the
// child the block follows, so both halves are read across threads. The
// leaf is not staged: at a leaf thread t reads only its own slot (key t,
// record position t), so each thread keeps the last leaf's slot in two
// registers, read from global memory with no barrier. Round 2 staged only
// the keys and read the picked child number from global memory, a
// dependent load at every level that cost more on the H100 than the bytes
// it saved (findK at order 256 on the 16M-key tree: 902 us against 749 us
// staging whole records).
//
// stage copies node n into level l of the shared cache when the tag
// differs and returns whether it did, so that the caller places one
// barrier after all of a step's staging. Each thread loads a key and its
// child number together, one round trip for both halves.
__device__ __forceinline__ bool stage(int* cache, int* tag, int l, int n, const int* nodes, int slots) {
    if (tag[l] == n) return false;
    const int* g = node_at(nodes, n, slots);
    int* c = cache + l * 2 * slots;
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        const int k = g[i], child = g[slots + i];
        c[i] = k;
        c[slots + i] = child;
    }
    tag[l] = n;
    return true;
}

// A leaf's slot t in registers: the cached leaf's number, key t and
// record position t.
struct leaf_slot {
    int node, key, pos;
};

__device__ __forceinline__ void load_leaf(leaf_slot& s, int n, const int* nodes, int slots) {
    if (s.node == n) return;
    const int* g = node_at(nodes, n, slots);
    s.key = g[threadIdx.x];
    s.pos = g[slots + threadIdx.x];
    s.node = n;
}

// The SPAC findK: block p runs queries pstart[p]..pstart[p+1]-1 of the
// schedule one after another (keys and query numbers qid in schedule
// order, sorted by key within a block), searching every node as the
// original does, but from its cache: consecutive queries share their
// paths' upper nodes, and a node is read from global memory once per
// block. Dynamic shared memory: height node records.
//
// The chosen child passes between threads through nxt, two slots used
// alternately step after step (a step is a level of a query; the count
// runs on across queries): a thread writes step s+2's child only after the
// barrier of step s+1, which every thread reaches after reading step s's.
// So no barrier is needed between queries: after a query's last level
// barrier no thread reads the shared cache again for that query, and the
// leaf and its record are each thread's own, so the thread that found a
// record waits for its load while the others start the next query.
extern "C" __global__ void btree_spac_findk(int height, int root, int slots, const int* __restrict__ nodes,
                                            const int* __restrict__ records, const int* __restrict__ pstart,
                                            const int* __restrict__ keys, const int* __restrict__ qid, int* ans) {
    extern __shared__ int cache[];
    __shared__ int nxt[2];
    int tag[MAX_LEVELS];
    for (int l = 0; l < height; ++l) tag[l] = -1;
    leaf_slot leaf = {-1, 0, 0};
    const int t = threadIdx.x;
    const int end = pstart[blockIdx.x + 1];
    unsigned step = 0;
    for (int i = pstart[blockIdx.x]; i < end; ++i) {
        const int x = keys[i];
        int n = root;
        for (int l = 0; l < height; ++l, ++step) {
            if (stage(cache, tag, l, n, nodes, slots)) __syncthreads();
            const int* c = cache + l * 2 * slots;
            if (c[t] <= x && x < c[t + 1]) nxt[step & 1] = c[slots + t];
            __syncthreads();
            n = nxt[step & 1];
        }
        load_leaf(leaf, n, nodes, slots);
        if (leaf.key == x) ans[qid[i]] = records[leaf.pos];
    }
}

// The SPAC findRangeK: as btree_spac_findk with two cached paths (start's
// levels first, then end's; a leaf slot each). Dynamic shared memory:
// 2*height node records. The range's length needs the start's record
// position, which only the thread that found it holds: it passes through
// rs, two slots alternating by query, and one barrier that also tells
// whether any thread found it (else the start is 0, as the original's
// recstart stays). A thread writes query i+2's slot only after the
// barrier of query i+1, which every thread reaches after reading query
// i's.
extern "C" __global__ void btree_spac_findrange(int height, int root, int slots, const int* __restrict__ nodes,
                                                const int* __restrict__ pstart, const int* __restrict__ start,
                                                const int* __restrict__ end, const int* __restrict__ qid,
                                                int* recstart, int* reclen) {
    extern __shared__ int cache[];
    __shared__ int nxt[2][2];
    __shared__ int rs[2];
    int tag[2 * MAX_LEVELS];
    for (int l = 0; l < 2 * height; ++l) tag[l] = -1;
    leaf_slot ls = {-1, 0, 0}, le = {-1, 0, 0};
    const int t = threadIdx.x;
    const int stop = pstart[blockIdx.x + 1];
    unsigned step = 0;
    for (int i = pstart[blockIdx.x]; i < stop; ++i) {
        const int s = start[i], e = end[i];
        int ns = root, ne = root;
        for (int l = 0; l < height; ++l, ++step) {
            const bool a = stage(cache, tag, l, ns, nodes, slots);
            const bool b = stage(cache, tag, height + l, ne, nodes, slots);
            if (a || b) __syncthreads();
            const int* cs = cache + l * 2 * slots;
            const int* ce = cache + (height + l) * 2 * slots;
            if (cs[t] <= s && s < cs[t + 1]) nxt[step & 1][0] = cs[slots + t];
            if (ce[t] <= e && e < ce[t + 1]) nxt[step & 1][1] = ce[slots + t];
            __syncthreads();
            ns = nxt[step & 1][0];
            ne = nxt[step & 1][1];
        }
        load_leaf(ls, ns, nodes, slots);
        load_leaf(le, ne, nodes, slots);
        const int q = qid[i];
        const bool found = ls.key == s;
        if (found) {
            rs[i & 1] = ls.pos;
            recstart[q] = ls.pos;
        }
        const int r = __syncthreads_or(found) ? rs[i & 1] : 0;
        if (le.key == e) reclen[q] = le.pos - r + 1;
    }
}
