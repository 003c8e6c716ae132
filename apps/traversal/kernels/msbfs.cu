// Many-source BFS (MS-BFS, Then et al., VLDB 2015) on the GPU: the
// searches of up to 64 roots run together, bit i of a vertex's 64-bit
// words standing for root i. Per vertex: seen (the roots that reached it),
// visit (the roots whose frontier holds it this level) and next (the roots
// that reach it in the level being built). Root-major depths: depth[i*n+v]
// (int32, -1 unreached), written once, when bit i first reaches v.
//
// A level is three kernels, each returning at once when the frontier is
// empty (the search is over) or when the level is not its direction's:
//   msbfs_push  top-down over the frontier queue with TWC's thread / warp /
//               CTA grouping (Gunrock): a frontier vertex u ORs
//               visit[u] & ~seen[w] into next[w] for every out-arc (an
//               atomicOr, skipped when next[w] already holds those bits).
//   msbfs_pull  bottom-up, a thread per vertex (a warp per vertex of at
//               least twarp in-arcs): w ORs the visit words of its
//               in-neighbours, wanting only the roots still searching that
//               have not reached it, and stops once it has them all; no
//               atomics, as each vertex is its own thread's (its warp's).
//   msbfs_settle a thread per vertex, in order (so that a warp's depth
//               writes for one root are 32 consecutive words): the bits of
//               next[w] not in seen[w] join seen[w], become w's visit word
//               (which clears the old frontier's), give w's depths, and
//               queue w for the next level's push. It counts what the
//               direction rule reads, and the last block's ticket closes
//               the level.
//
// Direction (Beamer et al.'s rule on the batch's words): after a level,
// the next one pulls when the new frontier's out-arcs exceed 1/alpha of
// the in-arcs of the vertices that some root still searching has not
// reached (the pull's work, at most), and pushes again once the frontier
// holds fewer than n/beta vertices. mode forces push (1) or pull (2).
//
// Control: as traversal.cu's level loop: the host launches captured graphs
// of k levels and reads a post in mapped memory after each; a graph runs
// empty levels once the search is over.

#include <stdint.h>

#define THREADS 256
typedef unsigned long long u64;

// The control block (160 int32 words): the words every thread reads first,
// each atomic's target in a 128-byte line of its own.
#define M_IN 0      // the frontier's queue entries
#define M_LEVEL 1   // the level being expanded (depth of its frontier)
#define M_POSTS 2   // posts written (kept across searches)
#define M_BU 3      // this level pulls
#define M_PULLS 4   // levels pulled so far
#define M_ACT 8     // u64: the roots whose frontier is not empty (the union of the visit words)
#define M_TICKET 32
#define M_OUT 64    // the next frontier's queue entries
#define M_INSP 96   // u64: arcs inspected
#define M_NACT 128  // u64: the next frontier's roots
#define M_FARCS 130 // u64: the next frontier's out-arcs
#define M_UARCS 132 // u64: in-arcs of the vertices some searching root has not reached
#define MAIL_SLOTS 4
#define MAIL_WORDS 4

#define MODE_AUTO 0
#define MODE_PUSH 1
#define MODE_PULL 2

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }
__device__ __forceinline__ int ctl_word(const int* ctl, int i) { return ((volatile const int*)ctl)[i]; }
__device__ __forceinline__ u64 ctl_u64(const int* ctl, int i) { return *(volatile const u64*)&ctl[i]; }

// warp_or is the OR of x over the warp (all 32 lanes present).
__device__ __forceinline__ u64 warp_or(u64 x) {
    unsigned lo = __reduce_or_sync(0xffffffffu, (unsigned)x);
    unsigned hi = __reduce_or_sync(0xffffffffu, (unsigned)(x >> 32));
    return ((u64)hi << 32) | lo;
}

// block_add adds x over the block into *dst with one atomic (thread 0's).
__device__ __forceinline__ void block_add(u64* dst, u64 x) {
    __shared__ u64 s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    if (x) atomicAdd(&s, x);
    __syncthreads();
    if (threadIdx.x == 0 && s) atomicAdd(dst, s);
}

// ------------------------------------------------------------------ push

// push_range ORs f's bits that w has not seen into next[w] for the arcs
// [b, e) of a frontier vertex, stride step. seen is read-only during the
// push; next only grows, so a stale read of it only costs an atomic.
__device__ __forceinline__ void push_range(const int* __restrict__ adj, const u64* __restrict__ seen, u64* next,
                                           u64 f, long long b, long long e, int step) {
    for (long long k = b; k < e; k += step) {
        int w = __ldg(&adj[k]);
        u64 d = f & ~__ldg(&seen[w]);
        if (d && (((volatile u64*)next)[w] & d) != d) atomicOr(&next[w], d);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) msbfs_push(const long long* __restrict__ off,
                                                                 const int* __restrict__ adj,
                                                                 const u64* __restrict__ seen, u64* next,
                                                                 const u64* __restrict__ visit, int* ctl,
                                                                 const int* q0, const int* q1, int twarp, int tcta) {
    int nin = ctl_word(ctl, M_IN);
    if (nin == 0 || ctl_word(ctl, M_BU)) return;
    int L = ctl_word(ctl, M_LEVEL);
    const int* qin = (L & 1) ? q1 : q0;
    // Only the blocks the frontier needs: a small frontier costs a few
    // blocks, not the grid.
    unsigned active = min(gridDim.x, (unsigned)((nin + blockDim.x - 1) / blockDim.x));
    if (blockIdx.x >= active) return;
    u64 insp = 0;
    __shared__ int s_owner;
    __shared__ u64 s_f;
    __shared__ long long s_b, s_e;
    for (int base = blockIdx.x * blockDim.x; base < nin; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        u64 f = 0;
        long long b = 0, e = 0;
        if (i < nin) {
            int u = qin[i];
            b = off[u];
            e = off[u + 1];
            f = visit[u];
            insp += e - b;
        }
        // CTA: vertices of at least tcta arcs, one at a time, by the block
        while (true) {
            if (threadIdx.x == 0) s_owner = -1;
            __syncthreads();
            if (e - b >= tcta) s_owner = threadIdx.x;
            __syncthreads();
            int owner = s_owner;
            if (owner < 0) break;
            if (threadIdx.x == owner) {
                s_f = f;
                s_b = b;
                s_e = e;
                b = e; // done
            }
            __syncthreads();
            push_range(adj, seen, next, s_f, s_b + threadIdx.x, s_e, blockDim.x);
            __syncthreads();
        }
        // warp: at least twarp arcs
        while (true) {
            unsigned want = __ballot_sync(0xffffffffu, e - b >= twarp);
            if (!want) break;
            int leader = __ffs(want) - 1;
            u64 wf = __shfl_sync(0xffffffffu, f, leader);
            long long wb = __shfl_sync(0xffffffffu, b, leader);
            long long we = __shfl_sync(0xffffffffu, e, leader);
            if (lane_id() == leader) b = e;
            push_range(adj, seen, next, wf, wb + lane_id(), we, 32);
        }
        // thread: the rest
        if (e > b) push_range(adj, seen, next, f, b, e, 1);
        __syncthreads();
    }
    block_add((u64*)&ctl[M_INSP], insp);
}

// ------------------------------------------------------------------ pull

extern "C" __global__ void __launch_bounds__(THREADS) msbfs_pull(const long long* __restrict__ ioff,
                                                                 const int* __restrict__ iadj, int n,
                                                                 const u64* __restrict__ seen, u64* next,
                                                                 const u64* __restrict__ visit, int* ctl, int twarp) {
    if (ctl_word(ctl, M_IN) == 0 || !ctl_word(ctl, M_BU)) return;
    u64 act = ctl_u64(ctl, M_ACT);
    u64 insp = 0;
    // base is the same for every thread of the block, so whole warps run
    // each round (the warp phase's collectives need them).
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int w = base + threadIdx.x;
        u64 need = 0;
        long long b = 0, e = 0;
        if (w < n) {
            need = act & ~seen[w];
            if (need) {
                b = ioff[w];
                e = ioff[w + 1];
            }
        }
        // warp: vertices of at least twarp in-arcs, 32 arcs a step, until
        // the warp's OR holds every root wanted
        while (true) {
            unsigned want = __ballot_sync(0xffffffffu, need != 0 && e - b >= twarp);
            if (!want) break;
            int leader = __ffs(want) - 1;
            u64 wn = __shfl_sync(0xffffffffu, need, leader);
            long long wb = __shfl_sync(0xffffffffu, b, leader);
            long long we = __shfl_sync(0xffffffffu, e, leader);
            int ww = __shfl_sync(0xffffffffu, w, leader);
            if (lane_id() == leader) need = 0; // done
            u64 got = 0;
            for (long long k0 = wb; k0 < we; k0 += 32) {
                long long k = k0 + lane_id();
                u64 x = 0;
                if (k < we) {
                    x = __ldg(&visit[__ldg(&iadj[k])]);
                    insp++;
                }
                got |= warp_or(x);
                if ((got & wn) == wn) break; // got is the warp's: the same on every lane
            }
            if (lane_id() == leader && (got & wn)) next[ww] = got & wn;
        }
        // thread: the rest, in-arc by in-arc
        if (need) {
            u64 got = 0;
            for (long long k = b; k < e; k++) {
                got |= __ldg(&visit[__ldg(&iadj[k])]);
                insp++;
                if ((got & need) == need) break;
            }
            if (got & need) next[w] = got & need;
        }
    }
    block_add((u64*)&ctl[M_INSP], insp);
}

// ---------------------------------------------------------------- settle

// push_agg appends v to q and counts it, one atomic per warp's batch.
__device__ __forceinline__ void push_agg(int* ctl, int* q, int v) {
    unsigned act = __activemask();
    int leader = __ffs(act) - 1;
    int rank = __popc(act & ((1u << lane_id()) - 1));
    int base = 0;
    if (lane_id() == leader) base = atomicAdd(&ctl[M_OUT], __popc(act));
    base = __shfl_sync(act, base, leader);
    q[base + rank] = v; // unique per level: at most n entries
}

extern "C" __global__ void __launch_bounds__(THREADS) msbfs_settle(const long long* __restrict__ off,
                                                                   const long long* __restrict__ ioff, int n,
                                                                   u64* seen, u64* next, u64* visit, int* depth,
                                                                   int* ctl, int* q0, int* q1, int mode,
                                                                   float alpha, float beta) {
    if (ctl_word(ctl, M_IN) == 0) return;
    int L = ctl_word(ctl, M_LEVEL);
    int* qout = (L & 1) ? q0 : q1;
    u64 act = ctl_u64(ctl, M_ACT);
    // the pull's work is counted only where the rule may pull
    bool count = mode == MODE_AUTO && ioff != nullptr;
    u64 farcs = 0, uarcs = 0, nact = 0;
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int w = base + threadIdx.x;
        u64 b = 0;
        if (w < n) {
            u64 nx = next[w], vis = visit[w];
            u64 s = (nx || count) ? seen[w] : 0;
            if (nx) {
                b = nx & ~s;
                s |= b;
                seen[w] = s;
                next[w] = 0;
            }
            if (vis != b) visit[w] = b;
            if (b) {
                push_agg(ctl, qout, w);
                farcs += off[w + 1] - off[w];
                nact |= b;
            }
            if (count && (act & ~s)) uarcs += ioff[w + 1] - ioff[w];
        }
        // Depths: for each root new to any vertex of the warp, the lanes
        // that have it write 32 consecutive words of its row at most.
        u64 wb = warp_or(b);
        while (wb) {
            int r = __ffsll((long long)wb) - 1;
            wb &= wb - 1;
            if ((b >> r) & 1) depth[(long long)r * n + w] = L + 1;
        }
    }
    // The block's counts, then its ticket; the last closes the level.
    __shared__ u64 s_f, s_u, s_a;
    if (threadIdx.x == 0) s_f = s_u = s_a = 0;
    __syncthreads();
    if (farcs) atomicAdd(&s_f, farcs);
    if (uarcs) atomicAdd(&s_u, uarcs);
    if (nact) atomicOr(&s_a, nact);
    __syncthreads();
    if (threadIdx.x != 0) return;
    if (s_f) atomicAdd((u64*)&ctl[M_FARCS], s_f);
    if (s_u) atomicAdd((u64*)&ctl[M_UARCS], s_u);
    if (s_a) atomicOr((u64*)&ctl[M_NACT], s_a);
    __threadfence();
    if (atomicAdd((unsigned*)&ctl[M_TICKET], 1u) != gridDim.x - 1) return;
    __threadfence();
    volatile int* c = ctl;
    volatile u64* c64 = (volatile u64*)ctl;
    c[M_TICKET] = 0;
    int out = c[M_OUT];
    u64 fa = c64[M_FARCS / 2], ua = c64[M_UARCS / 2];
    c[M_IN] = out;
    c[M_OUT] = 0;
    c[M_LEVEL] = L + 1;
    c64[M_ACT / 2] = c64[M_NACT / 2];
    c64[M_NACT / 2] = 0;
    c64[M_FARCS / 2] = 0;
    c64[M_UARCS / 2] = 0;
    int bu = c[M_BU];
    if (mode == MODE_PUSH) bu = 0;
    else if (mode == MODE_PULL) bu = 1;
    else if (!count) bu = 0;
    else if (!bu && (double)fa * alpha > (double)ua) bu = 1;
    else if (bu && (double)out * beta < (double)n) bu = 0;
    c[M_BU] = bu;
    if (bu && out) c[M_PULLS] = c[M_PULLS] + 1;
    __threadfence();
}

// ------------------------------------------------------------ init, post

// msbfs_roots starts a batch of k roots (one block of at least k threads;
// seen, visit and next zero, depths -1): bit i at roots[i], its depth 0,
// each distinct root queued once; the control words reset (posts kept).
extern "C" __global__ void msbfs_roots(const int* roots, int k, int n, u64* seen, u64* visit, int* depth, int* q0,
                                       int* ctl, int mode) {
    __shared__ int s_count;
    if (threadIdx.x == 0) s_count = 0;
    __syncthreads();
    int i = threadIdx.x;
    if (i < k) {
        int r = roots[i];
        u64 bit = 1ull << i;
        atomicOr(&seen[r], bit);
        if (atomicOr(&visit[r], bit) == 0) q0[atomicAdd(&s_count, 1)] = r;
        depth[(long long)i * n + r] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int bu = mode == MODE_PULL;
        ctl[M_IN] = s_count;
        ctl[M_LEVEL] = 0;
        ctl[M_BU] = bu;
        ctl[M_PULLS] = bu;
        ctl[M_TICKET] = 0;
        ctl[M_OUT] = 0;
        *(u64*)&ctl[M_ACT] = k >= 64 ? ~0ull : (1ull << k) - 1;
        *(u64*)&ctl[M_INSP] = 0;
        *(u64*)&ctl[M_NACT] = 0;
        *(u64*)&ctl[M_FARCS] = 0;
        *(u64*)&ctl[M_UARCS] = 0;
    }
}

// msbfs_post: the graph's report to mapped memory, slot posts % MAIL_SLOTS:
// level (low 32 bits) and levels pulled (high), the frontier's entries,
// the arcs inspected, then the post's number.
extern "C" __global__ void msbfs_post(int* ctl, u64* mail) {
    volatile int* c = ctl;
    int p = c[M_POSTS] + 1;
    c[M_POSTS] = p;
    volatile u64* slot = mail + (p % MAIL_SLOTS) * MAIL_WORDS;
    slot[0] = (u64)(unsigned)c[M_LEVEL] | ((u64)(unsigned)c[M_PULLS] << 32);
    slot[1] = (u64)(unsigned)c[M_IN];
    slot[2] = *(volatile u64*)&ctl[M_INSP];
    __threadfence_system();
    slot[3] = (u64)p;
}
