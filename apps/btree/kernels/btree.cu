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

// A block's software cache: the keys of the last node it read at every
// level of a path, in shared memory (slots ints a level), tagged by node
// number in registers (every thread computes the same tags). Only the keys
// are staged: every thread compares them, while a node's child or record
// numbers are read by the one thread whose key matched, from global memory
// as the original reads them (staging whole records doubled the DRAM
// traffic of a block on the H100 for no reuse). It stages node n at level l
// only when the tag differs, and returns whether it staged, so that the
// caller places one barrier after all of a step's staging.
__device__ __forceinline__ bool stage(int* cache, int* tag, int l, int n, const int* nodes, int slots) {
    if (tag[l] == n) return false;
    const int* g = node_at(nodes, n, slots);
    int* c = cache + l * slots;
    for (int i = threadIdx.x; i < slots; i += blockDim.x) c[i] = g[i];
    tag[l] = n;
    return true;
}

// idx is slot t of node n's child or record numbers, from global memory.
__device__ __forceinline__ int idx(const int* nodes, int n, int slots, int t) { return node_at(nodes, n, slots)[slots + t]; }

// The SPAC findK: block p runs queries pstart[p]..pstart[p+1]-1 of the
// schedule one after another (keys and query numbers qid in schedule
// order, sorted by key within a block), searching every node as the
// original does, but with the keys in shared memory: consecutive queries
// share their paths' upper nodes, and a node's keys are read from global
// memory once per block. Dynamic shared memory: (height+1) * slots ints.
extern "C" __global__ void btree_spac_findk(int height, int root, int slots, const int* __restrict__ nodes,
                                            const int* __restrict__ records, const int* __restrict__ pstart,
                                            const int* __restrict__ keys, const int* __restrict__ qid, int* ans) {
    extern __shared__ int cache[];
    __shared__ int nxt[2];
    int tag[MAX_LEVELS];
    for (int l = 0; l <= height; ++l) tag[l] = -1;
    const int t = threadIdx.x;
    const int end = pstart[blockIdx.x + 1];
    for (int i = pstart[blockIdx.x]; i < end; ++i) {
        const int x = keys[i];
        int n = root;
        for (int l = 0;; ++l) {
            if (stage(cache, tag, l, n, nodes, slots)) __syncthreads();
            const int* c = cache + l * slots;
            if (l == height) {
                if (c[t] == x) ans[qid[i]] = records[idx(nodes, n, slots, t)];
                break;
            }
            // Two slots alternate by level: a thread writes level l+2's
            // child only after the barrier of level l+1, when every thread
            // has read level l's.
            if (c[t] <= x && x < c[t + 1]) nxt[l & 1] = idx(nodes, n, slots, t);
            __syncthreads();
            n = nxt[l & 1];
        }
        // The next query may stage a level that others still read.
        __syncthreads();
    }
}

// The SPAC findRangeK: as btree_spac_findk with two cached paths (start's
// levels first, then end's). Dynamic shared memory: 2 * (height+1) * slots
// ints.
extern "C" __global__ void btree_spac_findrange(int height, int root, int slots, const int* __restrict__ nodes,
                                                const int* __restrict__ pstart, const int* __restrict__ start,
                                                const int* __restrict__ end, const int* __restrict__ qid,
                                                int* recstart, int* reclen) {
    extern __shared__ int cache[];
    __shared__ int nxt[2][2];
    __shared__ int rs;
    int tag[2 * MAX_LEVELS];
    for (int l = 0; l < 2 * (height + 1); ++l) tag[l] = -1;
    const int t = threadIdx.x, levels = height + 1;
    const int stop = pstart[blockIdx.x + 1];
    for (int i = pstart[blockIdx.x]; i < stop; ++i) {
        const int s = start[i], e = end[i];
        int ns = root, ne = root;
        for (int l = 0;; ++l) {
            const bool a = stage(cache, tag, l, ns, nodes, slots);
            const bool b = stage(cache, tag, levels + l, ne, nodes, slots);
            if (a || b) __syncthreads();
            const int* cs = cache + l * slots;
            const int* ce = cache + (levels + l) * slots;
            if (l == height) {
                if (t == 0) rs = 0;
                __syncthreads();
                if (cs[t] == s) rs = idx(nodes, ns, slots, t);
                __syncthreads();
                const int q = qid[i];
                if (ce[t] == e) reclen[q] = idx(nodes, ne, slots, t) - rs + 1;
                if (t == 0) recstart[q] = rs;
                break;
            }
            if (cs[t] <= s && s < cs[t + 1]) nxt[l & 1][0] = idx(nodes, ns, slots, t);
            if (ce[t] <= e && e < ce[t + 1]) nxt[l & 1][1] = idx(nodes, ne, slots, t);
            __syncthreads();
            ns = nxt[l & 1][0];
            ne = nxt[l & 1][1];
        }
        __syncthreads();
    }
}
