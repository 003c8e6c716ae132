// Shortest paths from every source, B sources at a time (apsp.AllSourcesGPU):
// a label-correcting search (Bellman-Ford over a frontier) run for the B
// sources of a batch together.
//
// Layout: the batch's distances are vertex-major, d[v*B + s] for source s
// of the batch, so that the 32 sources of a group (s = 32g .. 32g+31) of one
// vertex sit in one 128-byte line. A slot is a (vertex, group) pair,
// slot = v*G + g (G = B/32 groups), and pair (v, s) is d[slot*32 + lane].
//
// Frontier: a list of slots per round, with a 32-bit mask per slot (bit
// lane: source 32g+lane improved v last round). A warp takes a slot: lane
// s of the group is active when its bit is set; the warp loads 32 of the
// vertex's arcs at a time (a lane each, then shuffles) and every active lane
// relaxes every arc for its own source, an atomicMin on its own distance:
// the 32 lanes write one line, and an arc is read once for 32 sources. The
// lanes that improved a target set their bits in the target slot's mask for
// the next round (one atomicOr per arc, by the lane that loaded the arc);
// the atomicOr that finds the mask empty pushes the slot, so a slot is
// listed once per round. The reader of a slot clears its mask as it takes
// it (atomicExch), so the masks are clean again when their parity comes
// back. No queue can overflow: a round lists each slot at most once.
//
// Control: a ticket per block closes a round (the last block moves the
// output count to the input count, clears it and advances the round; the
// round's parity picks queue and mask arrays), and a kernel that finds an
// empty frontier returns at once, so the host queues captured graphs of
// several rounds and reads a post (mapped host memory) a few rounds behind,
// never waiting on a round. As in package apps/traversal.
//
// Exactness: distances are 32-bit patterns compared as unsigned: float32
// distances are non-negative (the host stores -0 weights as +0), whose bits
// order as the values, +Inf (0x7f800000) above every finite one; int32
// distances are non-negative with INT32_MAX for unreachable, and no sum
// overflows (the host bounds the longest simple path below INT32_MAX, and
// every value held is a simple path's weight or an arc beyond one). Every
// float sum is __fadd_rn, rounded to float32 as the CPU's Dijkstra rounds
// it; the search converges to min over paths of those left-to-right sums,
// which is unique, so the distances are Dijkstra's bit for bit.
//
// Paths (P): the pair's state is a 64-bit key, distance << 32 | hops,
// lowered by a 64-bit atomicMin, in two searches. The first settles the
// distances (an arc adds C_HOPS = 0 hops: the low word stays 0). The second
// (init with keep) keeps them and searches again from the sources, each
// arc adding one hop: with the distances final, a relaxation can only win
// through a tight arc, d(u) + w == d(v), so it is a breadth-first search
// of the tight arcs, and it reaches every reached vertex (the arcs of
// Dijkstra's tree are tight). Its keys, (d(v), H(v)) with H the fewest
// hops of a tight path, depend on the graph alone; had one search tracked
// both, float32's rounding (a < b does not make a + w < b + w) would let
// the hops depend on the order of the relaxations. Then a pass over every
// arc (msssp_pred) gives each pair its predecessor, the smallest u
// (atomicMin) with key(u) + (w, 1) == key(v): the same on every run. Hops
// grow by one along predecessors, so they form a tree, zero-weight cycles
// included; the host turns each source's tree into next hops. Each next
// hop starts a shortest path of the fewest hops, so with int32 distances
// the hop count to the target drops by one at every next hop of the
// matrix, and walking it never loops.

#include <stdint.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

// The control block (ctl, CTL_WORDS int32 words): the words every thread
// reads first, the output count, the ticket and the counters each in a
// line of their own.
#define C_IN 0
#define C_LEVEL 1
#define C_POSTS 3
#define C_CAP 4
#define C_OVERFLOW 5
#define C_HOPS 6 // P: what an arc adds to the hops, 0 in the first search, 1 in the second
#define C_OUT 32
#define C_TICKET 64
#define C_RELAXED 96  // uint64: (source, arc) relaxations, active lanes x arcs
#define C_WALKED 112  // uint64: arcs walked by a warp for its 32 lanes
#define MAIL_SLOTS 4
#define MAIL_WORDS 4

#define NO_PRED 0x7fffffff

typedef unsigned long long u64;

// The distance types: add is the relaxation's sum (bits in, bits out),
// INF the distance of an unreachable pair.
struct F32 {
    static constexpr unsigned INF = 0x7f800000u;
    static __device__ __forceinline__ unsigned add(unsigned d, unsigned w) {
        return __float_as_uint(__fadd_rn(__uint_as_float(d), __uint_as_float(w)));
    }
};
struct I32 {
    static constexpr unsigned INF = 0x7fffffffu;
    static __device__ __forceinline__ unsigned add(unsigned d, unsigned w) { return d + w; }
};

// Dist<D, P> is a pair's state: a 32-bit distance, or with P the 64-bit key
// (distance high, hops low; hops all ones when unreachable); next is the
// candidate an arc of weight w offers, the hops growing by hop.
template <class D, bool P>
struct Dist;

template <class D>
struct Dist<D, false> {
    typedef unsigned T;
    static __device__ __forceinline__ T unreached() { return D::INF; }
    static __device__ __forceinline__ unsigned dist(T x) { return x; }
    static __device__ __forceinline__ T next(T du, unsigned w, unsigned) { return D::add(du, w); }
};

template <class D>
struct Dist<D, true> {
    typedef u64 T;
    static __device__ __forceinline__ T unreached() { return ((u64)D::INF << 32) | 0xffffffffull; }
    static __device__ __forceinline__ unsigned dist(T x) { return (unsigned)(x >> 32); }
    static __device__ __forceinline__ T next(T du, unsigned w, unsigned hop) {
        return ((u64)D::add((unsigned)(du >> 32), w) << 32) | (u64)((unsigned)du + hop);
    }
};

// GROUP is how many arcs a lane relaxes at once: their reads, then their
// atomics, are independent, so each group waits for one read and one
// atomic rather than GROUP of each in turn.
#define GROUP 8

// RELAX_BLOCKS blocks of the relaxation kernel fit a multiprocessor (at most
// 64 registers a thread): with GROUP reads and atomics in flight per lane,
// 32 resident warps hide the latency of L2. The 64-bit keys of P take more
// registers: 3 blocks (80 registers) spill nothing.
#define RELAX_BLOCKS 4
#define RELAX_BLOCKS_P 3

// fresh reads a distance from L2 (the atomics' copy): a value read there
// may be stale, but only ever too high, since distances only drop, so a
// relaxation it turns down could not have won.
__device__ __forceinline__ unsigned fresh(const unsigned* p) { return __ldcg(p); }
__device__ __forceinline__ u64 fresh(const u64* p) { return __ldcg(p); }

// load_chunk loads a chunk of cnt arcs from arc c0 (at most 32), lane j the
// arc c0 + j: its target av and weight aw (0 beyond cnt), which the warp
// then passes around by shuffles.
__device__ __forceinline__ void load_chunk(const int* adj, const unsigned* wt, long long c0, int cnt, int lane, int& av,
                                           unsigned& aw) {
    av = 0;
    aw = 0;
    if (lane < cnt) {
        av = adj[c0 + lane];
        aw = wt[c0 + lane];
    }
}

// end_round: the block's counters to ctl, then its ticket; the last block
// to take one closes the round. Every block takes one, idle or not: a
// block that started after the round closed would read the next round's
// state otherwise.
__device__ void end_round(int* ctl, u64 relaxed, u64 walked) {
    __shared__ u64 s_relaxed, s_walked;
    if (threadIdx.x == 0) {
        s_relaxed = 0;
        s_walked = 0;
    }
    __syncthreads();
    if (relaxed) atomicAdd(&s_relaxed, relaxed);
    if (walked) atomicAdd(&s_walked, walked);
    __syncthreads();
    if (threadIdx.x != 0) return;
    if (s_relaxed) atomicAdd((u64*)&ctl[C_RELAXED], s_relaxed);
    if (s_walked) atomicAdd((u64*)&ctl[C_WALKED], s_walked);
    __threadfence();
    if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) != gridDim.x - 1) return;
    volatile int* c = ctl;
    c[C_TICKET] = 0;
    int out = c[C_OUT];
    if (out > c[C_CAP]) { // cannot happen (a slot is listed once a round); stop, and the host reports it
        c[C_OVERFLOW] = 1;
        out = 0;
    }
    c[C_IN] = out;
    c[C_OUT] = 0;
    c[C_LEVEL] = c[C_LEVEL] + 1;
    __threadfence();
}

// init: the batch of sources base .. base+b-1 (lanes s >= b stay idle): every
// pair unreachable but (base+s, s), at 0, or with keep (P, the second
// search) every pair's distance kept and its hops unknown but a source's;
// the sources' slots in the first frontier with their bits; the other
// masks clear; predecessors none but a source's own.
template <class D, bool P>
__device__ __forceinline__ void init(int n, int G, int base, int b, int keep, typename Dist<D, P>::T* d, int* pred,
                                     unsigned* m0, unsigned* m1, int* q0, int* ctl) {
    typedef Dist<D, P> S;
    const long long B = 32LL * G, stride = (long long)gridDim.x * blockDim.x;
    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (long long i = tid; i < (long long)n * B; i += stride) {
        const int v = (int)(i / B), s = (int)(i - v * B);
        const bool self = s < b && v == base + s;
        if (P && keep) {
            d[i] = self ? (typename S::T)0 : d[i] | 0xffffffffu;
        } else {
            d[i] = self ? (typename S::T)0 : S::unreached();
        }
        if (P) pred[i] = self ? v : NO_PRED;
    }
    for (long long i = tid; i < (long long)n * G; i += stride) {
        const int v = (int)(i / G), g = (int)(i - (long long)v * G), s = v - base;
        m0[i] = (s >= 0 && s < b && (s >> 5) == g) ? 1u << (s & 31) : 0u;
        m1[i] = 0;
    }
    for (long long s = tid; s < b; s += stride) {
        q0[s] = (base + (int)s) * G + (int)(s >> 5);
    }
    if (tid == 0) {
        ctl[C_IN] = b;
        ctl[C_LEVEL] = 0;
        ctl[C_OUT] = 0;
        ctl[C_TICKET] = 0;
        ctl[C_OVERFLOW] = 0;
        ctl[C_HOPS] = keep;
    }
}

// relax: one round. A warp per listed slot (grid-stride); see the top of
// the file.
template <class D, bool P>
__device__ __forceinline__ void relax(const long long* off, const int* adj, const unsigned* wt, int G,
                                      typename Dist<D, P>::T* d, unsigned* m0, unsigned* m1, int* q0, int* q1,
                                      int* ctl) {
    typedef Dist<D, P> S;
    typedef typename S::T T;
    volatile int* c = ctl;
    const int nin = c[C_IN];
    if (nin == 0) return;
    const int L = c[C_LEVEL], cap = c[C_CAP];
    const unsigned hop = (unsigned)c[C_HOPS];
    const int* qin = (L & 1) ? q1 : q0;
    int* qout = (L & 1) ? q0 : q1;
    unsigned* mcur = (L & 1) ? m1 : m0;
    unsigned* mnext = (L & 1) ? m0 : m1;
    const int lane = threadIdx.x & 31;
    const int warp = (int)((blockIdx.x * (unsigned)THREADS + threadIdx.x) >> 5);
    const int nwarps = gridDim.x * WARPS;
    T* const dl = d + lane; // the lane's source: pair (v, 32g + lane) is dl[(v*G + g) * 32]
    u64 relaxed = 0, walked = 0; // lane 0's
    for (int i = warp; i < nin; i += nwarps) {
        const int slot = qin[i];
        unsigned mask = 0;
        if (lane == 0) mask = atomicExch(&mcur[slot], 0u);
        mask = __shfl_sync(FULL, mask, 0);
        if (mask == 0) continue; // never: a listed slot has a bit
        const bool act = (mask >> lane) & 1u;
        const int u = slot / G, grp = slot - u * G;
        const T du = act ? ((volatile T*)dl)[(long long)slot * 32] : S::unreached();
        const long long b = off[u], e = off[u + 1];
        if (lane == 0) {
            relaxed += (u64)__popc(mask) * (u64)(e - b);
            walked += (u64)(e - b);
        }
        for (long long c0 = b; c0 < e; c0 += 32) {
            const int cnt = (int)min(32LL, e - c0);
            int av;
            unsigned aw;
            load_chunk(adj, wt, c0, cnt, lane, av, aw);
            // Every lane relaxes the chunk's arcs for its source, GROUP at
            // a time (bit j of improved: arc j lowered this lane's pair);
            // the plain read first spares the atomic where it cannot win,
            // most relaxations of a converging search.
            unsigned improved = 0;
            for (int j0 = 0; j0 < cnt; j0 += GROUP) {
                int vs[GROUP];
                T cand[GROUP], cur[GROUP];
#pragma unroll
                for (int k = 0; k < GROUP; k++) {
                    vs[k] = __shfl_sync(FULL, av, j0 + k) * G + grp;
                    cand[k] = S::next(du, __shfl_sync(FULL, aw, j0 + k), hop);
                    cur[k] = act && j0 + k < cnt ? fresh(&dl[(long long)vs[k] * 32]) : cand[k];
                }
#pragma unroll
                for (int k = 0; k < GROUP; k++) {
                    if (cand[k] < cur[k] && cand[k] < atomicMin(&dl[(long long)vs[k] * 32], cand[k])) improved |= 1u << (j0 + k);
                }
            }
            // Lane j gathers arc j's improved sources and marks them in
            // the target's mask; the first marker lists the slot.
            unsigned mine = 0;
            for (int j = 0; j < cnt; j++) {
                const unsigned bits = __ballot_sync(FULL, (improved >> j) & 1u);
                if (lane == j) mine = bits;
            }
            const int vslot = av * G + grp;
            const bool push = mine != 0 && atomicOr(&mnext[vslot], mine) == 0u;
            const unsigned pm = __ballot_sync(FULL, push);
            if (pm) {
                int at = 0;
                if (lane == 0) at = atomicAdd(&ctl[C_OUT], __popc(pm));
                at = __shfl_sync(FULL, at, 0) + __popc(pm & ((1u << lane) - 1u));
                if (push) {
                    if (at < cap) qout[at] = vslot;
                    else ctl[C_OVERFLOW] = 1;
                }
            }
        }
    }
    end_round(ctl, relaxed, walked);
}

// preds (P): after the second search, every arc u->v of every reached pair
// (u, s) offers u as v's predecessor for s where key(u) + (w, 1) ==
// key(v); the smallest u is kept. A warp per slot, every slot
// (grid-stride).
template <class D>
__device__ __forceinline__ void preds(const long long* off, const int* adj, const unsigned* wt, int n, int G,
                                      const u64* key, int* pred) {
    const int lane = threadIdx.x & 31;
    const int warp = (int)((blockIdx.x * (unsigned)THREADS + threadIdx.x) >> 5);
    const long long nwarps = (long long)gridDim.x * WARPS;
    for (long long slot = warp; slot < (long long)n * G; slot += nwarps) {
        const u64 ku = key[slot * 32 + lane];
        const bool reached = ku != Dist<D, true>::unreached();
        if (!__any_sync(FULL, reached)) continue;
        const int u = (int)(slot / G), grp = (int)(slot - (long long)u * G);
        const long long b = off[u], e = off[u + 1];
        for (long long c0 = b; c0 < e; c0 += 32) {
            const int cnt = (int)min(32LL, e - c0);
            int av;
            unsigned aw;
            load_chunk(adj, wt, c0, cnt, lane, av, aw);
            for (int j0 = 0; j0 < cnt; j0 += GROUP) {
                long long q[GROUP];
                unsigned w[GROUP];
                u64 kv[GROUP];
#pragma unroll
                for (int k = 0; k < GROUP; k++) {
                    q[k] = ((long long)__shfl_sync(FULL, av, j0 + k) * G + grp) * 32 + lane;
                    w[k] = __shfl_sync(FULL, aw, j0 + k);
                    kv[k] = reached && j0 + k < cnt ? key[q[k]] : Dist<D, true>::unreached();
                }
#pragma unroll
                for (int k = 0; k < GROUP; k++) {
                    if (kv[k] == Dist<D, true>::next(ku, w[k], 1u)) atomicMin(&pred[q[k]], u);
                }
            }
        }
    }
}

// out: the batch's rows, row-major for the host (row s = source base+s, b
// rows of n): a 32 x 32 tile of (vertex, source) through shared memory, so
// that both the read of the vertex-major state and the write of the rows
// are coalesced. With P, the predecessors too (-1 for none).
template <class D, bool P>
__device__ __forceinline__ void out(int n, int G, int b, const typename Dist<D, P>::T* d, const int* pred,
                                    unsigned* od, int* op) {
    typedef Dist<D, P> S;
    __shared__ unsigned td[32][33];
    __shared__ int tp[P ? 32 : 1][33];
    const int vtiles = (n + 31) / 32;
    const int vt = blockIdx.x % vtiles, st = blockIdx.x / vtiles;
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const long long B = 32LL * G;
    for (int r = ty; r < 32; r += WARPS) {
        const int v = vt * 32 + r;
        if (v < n) {
            const long long p = (long long)v * B + st * 32 + tx;
            td[r][tx] = S::dist(d[p]);
            if (P) {
                const int x = pred[p];
                tp[r][tx] = x == NO_PRED ? -1 : x;
            }
        }
    }
    __syncthreads();
    for (int r = ty; r < 32; r += WARPS) {
        const int s = st * 32 + r, v = vt * 32 + tx;
        if (s < b && v < n) {
            od[(long long)s * n + v] = td[tx][r];
            if (P) op[(long long)s * n + v] = tp[tx][r];
        }
    }
}

// post: the graph's report to mapped memory, slot posts % MAIL_SLOTS: the
// round (overflow in the high word), the frontier's size, the relaxations
// so far, then the post's number.
extern "C" __global__ void msssp_post(int* ctl, u64* mail) {
    volatile int* c = ctl;
    const int p = c[C_POSTS] + 1;
    c[C_POSTS] = p;
    volatile u64* slot = mail + (p % MAIL_SLOTS) * MAIL_WORDS;
    slot[0] = (u64)(unsigned)c[C_LEVEL] | ((u64)(c[C_OVERFLOW] != 0) << 32);
    slot[1] = (u64)(unsigned)c[C_IN];
    slot[2] = *(volatile u64*)&ctl[C_RELAXED];
    __threadfence_system();
    slot[3] = (u64)p;
}

// ---------------------------------------------------------------- entries
// msssp_<init|relax|out>_<f32|i32>[_paths] and msssp_pred_<f32|i32>.

#define ENTRIES(D, DN, P, PN, MB)                                                                                        \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                            \
        msssp_init_##DN##PN(int n, int G, int base, int b, int keep, Dist<D, P>::T* d, int* pred, unsigned* m0,     \
                            unsigned* m1, int* q0, int* ctl) {                                                       \
        init<D, P>(n, G, base, b, keep, d, pred, m0, m1, q0, ctl);                                                   \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(THREADS, MB)                                                        \
        msssp_relax_##DN##PN(const long long* off, const int* adj, const unsigned* wt, int G, Dist<D, P>::T* d,     \
                             unsigned* m0, unsigned* m1, int* q0, int* q1, int* ctl) {                               \
        relax<D, P>(off, adj, wt, G, d, m0, m1, q0, q1, ctl);                                                        \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                            \
        msssp_out_##DN##PN(int n, int G, int b, const Dist<D, P>::T* d, const int* pred, unsigned* od, int* op) {   \
        out<D, P>(n, G, b, d, pred, od, op);                                                                         \
    }

ENTRIES(F32, f32, false, , RELAX_BLOCKS)
ENTRIES(F32, f32, true, _paths, RELAX_BLOCKS_P)
ENTRIES(I32, i32, false, , RELAX_BLOCKS)
ENTRIES(I32, i32, true, _paths, RELAX_BLOCKS_P)

extern "C" __global__ void __launch_bounds__(THREADS)
    msssp_pred_f32(const long long* off, const int* adj, const unsigned* wt, int n, int G, const u64* key, int* pred) {
    preds<F32>(off, adj, wt, n, G, key, pred);
}
extern "C" __global__ void __launch_bounds__(THREADS)
    msssp_pred_i32(const long long* off, const int* adj, const unsigned* wt, int n, int G, const u64* key, int* pred) {
    preds<I32>(off, adj, wt, n, G, key, pred);
}
