// GPU BFS and SSSP: one operator per algorithm (the visit of BFS, the relax
// of SSSP), many policies (how frontier edges map to threads), as Gunrock
// separates them. A policy is a kernel template over the operator; a new
// policy touches no operator and a new operator reuses every policy.
//
// Control: the level loop runs on the device. Every level ends in the last
// block of its last kernel (a ticket, close_level), which moves the output
// count to the input count, clears the output count and advances the
// level; a kernel that finds an empty input returns at once, so a captured
// graph of k levels costs k empty launches once the traversal is done. A
// post kernel at the end of each graph writes the level, the frontier size
// and the edges inspected to mapped host memory (4 slots of 4 words, the
// post's number last), which the host reads a graph behind.
//
// Frontier: a stamp per vertex, mark[v] == L when v is in the frontier of
// level L (BFS: the depth itself, and mark a visited bitmap), and, for
// data-driven policies, two queues of vertex ids swapped by the level's
// parity. Pushing v into level L+1 is unique where the operator culls
// (BFS: the CAS on the depth; SSSP: atomicExch on the stamp), so the
// queues never exceed n entries there.

#include <stdint.h>

#define THREADS 256

// The control block (ctl, 160 int32 words): incount first, so that the
// primitives read it as a device length; the words every thread reads
// (incount, level) in the first 128-byte line, the output count, the
// ticket and the inspected count each in a line of its own, so that their
// atomics do not serialize the reads.
#define C_IN 0
#define C_LEVEL 1
#define C_SKIP 2
#define C_POSTS 3
#define C_CAP 4      // the queues' capacity
#define C_OVERFLOW 5 // set when a push found a queue full
#define C_TILES 6    // LB's tile-start capacity
#define C_OUT 32
#define C_TICKET 64
#define C_INSPECTED 96 // int64
#define C_GEN 128      // the persistent kernel's barrier generation
#define C_THR 7        // near-far: the threshold (float bits)
#define C_FEPOCH 8     // near-far: the far pile's epoch (its parity picks the pile)
#define C_HEAVY 9      // delta-stepping: this level relaxes the heavy arcs of the bucket's vertices
#define C_REPOCH 10    // delta-stepping: the bucket list's epoch (its stamps)
#define C_R 120        // delta-stepping: the bucket list's length
#define C_FAR 144      // near-far: the far pile's length
#define C_FARN 152     // near-far: the next pile's length (during a refill)
#define MAIL_SLOTS 4
#define MAIL_WORDS 4

#define INF_BITS 0x7f800000u
#define NO_PRED 0xffffffffu

struct Graph {
    const long long* off;
    const int* adj;
    const float* w;
    const int* src; // COO sources (edge policies)
    int n;
    long long m;
};

// ---------------------------------------------------------------- operators

// BFS: depth is the stamp. Cull: the CAS on depth makes the push unique;
// without it (lb), a check-then-write whose duplicates are benign (every
// writer is of the same level). mark holds a visited bitmap (a bit per
// vertex, set after the depth): most arcs of a big level lead to visited
// vertices, and the bitmap answers them from n/8 bytes, which stay in the
// caches where the depths (4n bytes) do not. A clear bit proves nothing (it
// lags the depth), so the depth stays the truth. Recheck: read the depth
// before the CAS, which filters the arcs to vertices found earlier in the
// same level (policies that run many arcs per thread at once: the edge
// ranges of LB, edge, node splitting); without, an arc to an unvisited
// vertex waits on no more loads than before the bitmap (policies that walk
// a vertex's arcs one after the other: thread, TWC, persistent, whose
// chains of dependent loads the bitmap would lengthen). Measured per
// policy on Kronecker and road graphs: docs/traverse-h100.
template <bool Cull, bool Recheck>
struct BfsOp {
    int* depth;
    int* parent;
    unsigned* visited;
    static __device__ BfsOp make(void* s1, void* s2, int* mark, int*, int) {
        return BfsOp{(int*)s1, (int*)s2, (unsigned*)mark};
    }
    struct Src {};
    __device__ Src source(int u) const { return Src{}; }
    __device__ bool active(int v, int L) const { return depth[v] == L; }
    __device__ bool relax(Src, const Graph&, int u, int v, long long e, int L) const {
        unsigned bit = 1u << (v & 31);
        if (visited[v >> 5] & bit) return false;
        if (Recheck && ((volatile int*)depth)[v] != -1) return false;
        if (Cull) {
            if (atomicCAS(&depth[v], -1, L + 1) != -1) return false;
        } else {
            depth[v] = L + 1;
        }
        atomicOr(&visited[v >> 5], bit);
        parent[v] = u;
        return true;
    }
};

__device__ __forceinline__ unsigned long long pack(float d, unsigned p) {
    return ((unsigned long long)__float_as_uint(d) << 32) | p;
}
__device__ __forceinline__ float dist_of(unsigned long long x) { return __uint_as_float((unsigned)(x >> 32)); }

// decrease replaces dp[v] by (d, u) when d is strictly below its distance
// (a CAS loop) and says whether it did.
__device__ __forceinline__ bool decrease(unsigned long long* dp, int v, float d, int u) {
    unsigned long long old = ((volatile unsigned long long*)dp)[v];
    unsigned long long want = pack(d, (unsigned)u);
    while (d < dist_of(old)) {
        unsigned long long prev = atomicCAS(&dp[v], old, want);
        if (prev == old) return true;
        old = prev;
    }
    return false;
}

// SSSP: dp[v] packs dist (high word, fp32 bits) and pred (low word); a CAS
// loop replaces it only on a strict decrease of the distance (a tie never
// replaces: zero-weight edges would otherwise form predecessor cycles).
// atomicExch on the stamp pushes v once per level.
struct SsspOp {
    unsigned long long* dp;
    int* unused;
    int* mark;
    static __device__ SsspOp make(void* s1, void* s2, int* mark, int*, int) { return SsspOp{(unsigned long long*)s1, (int*)s2, mark}; }
    struct Src { float d; };
    __device__ Src source(int u) const { return Src{dist_of(((volatile unsigned long long*)dp)[u])}; }
    __device__ bool active(int v, int L) const { return ((volatile int*)mark)[v] == L; }
    __device__ bool relax(Src s, const Graph& g, int u, int v, long long e, int L) const {
        float nd = __fadd_rn(s.d, g.w[e]);
        if (!decrease(dp, v, nd, u)) return false;
        return atomicExch(&mark[v], L + 1) != L + 1;
    }
};

// ---------------------------------------------------------------- pushes

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

// push appends v to q (when q is not null) and counts it, with one atomic
// per warp's batch of pushes (the lanes that push together).
__device__ __forceinline__ void push_agg(int* ctl, int* q, int v) {
    unsigned act = __activemask();
    int leader = __ffs(act) - 1;
    int rank = __popc(act & ((1u << lane_id()) - 1));
    int base = 0;
    if (lane_id() == leader) base = atomicAdd(&ctl[C_OUT], __popc(act));
    base = __shfl_sync(act, base, leader);
    if (q) {
        if (base + rank < ctl[C_CAP]) q[base + rank] = v; else ctl[C_OVERFLOW] = 1;
    }
}

// push_one: one atomic per push (the plain edge-based policy).
__device__ __forceinline__ void push_one(int* ctl, int* q, int v) {
    int at = atomicAdd(&ctl[C_OUT], 1);
    if (q) {
        if (at < ctl[C_CAP]) q[at] = v; else ctl[C_OVERFLOW] = 1;
    }
}

// close_level: thread 0 of every block of the level's last kernel takes a
// ticket (after the block's writes); the last closes the level: the output
// count becomes the input count and the level advances. Every block of
// the grid takes one, idle or not: a block that started after the level
// closed would otherwise read the next level's state.
__device__ __forceinline__ void close_level(int* ctl) {
    if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) != gridDim.x - 1) return;
    volatile int* c = ctl;
    c[C_TICKET] = 0;
    int out = c[C_OUT];
    if (out > c[C_CAP]) { c[C_OVERFLOW] = 1; out = 0; } // stop: the host reports it
    c[C_IN] = out;
    c[C_OUT] = 0;
    c[C_LEVEL] = c[C_LEVEL] + 1;
    __threadfence();
}

// end_level: the block's inspected edges to ctl, then its ticket.
__device__ void end_level(int* ctl, unsigned long long insp) {
    __shared__ unsigned long long s_insp;
    if (threadIdx.x == 0) s_insp = 0;
    __syncthreads();
    if (insp) atomicAdd(&s_insp, insp);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (s_insp) atomicAdd((unsigned long long*)&ctl[C_INSPECTED], s_insp);
        __threadfence();
        close_level(ctl);
    }
}

// idle_level: the ticket of a block with no work this level.
__device__ __forceinline__ void idle_level(int* ctl) {
    if (threadIdx.x == 0) close_level(ctl);
}

__device__ __forceinline__ int in_count(const int* ctl) { return ((volatile const int*)ctl)[C_IN]; }
__device__ __forceinline__ int level_of(const int* ctl) { return ((volatile const int*)ctl)[C_LEVEL]; }

// SSSP near-far (Davidson et al.): the same relax, but a vertex whose new
// distance is at least the threshold goes to the far pile instead of the
// next frontier (once per pile epoch: a stamp in farmark). The pile and
// its stamps live in s2: two piles of n entries, then farmark.
struct SsspNFOp {
    unsigned long long* dp;
    int* piles;
    int* mark;
    int* ctl;
    int n;
    static __device__ SsspNFOp make(void* s1, void* s2, int* mark, int* ctl, int n) {
        return SsspNFOp{(unsigned long long*)s1, (int*)s2, mark, ctl, n};
    }
    using Src = SsspOp::Src;
    __device__ Src source(int u) const { return Src{dist_of(((volatile unsigned long long*)dp)[u])}; }
    __device__ bool active(int v, int L) const { return ((volatile int*)mark)[v] == L; }
    __device__ bool relax(Src s, const Graph& g, int u, int v, long long e, int L) const {
        float nd = __fadd_rn(s.d, g.w[e]);
        if (!decrease(dp, v, nd, u)) return false;
        volatile int* c = ctl;
        if (nd < __int_as_float(c[C_THR])) return atomicExch(&mark[v], L + 1) != L + 1;
        int ep = c[C_FEPOCH];
        if (atomicExch(&piles[2 * (long long)n + v], ep) != ep) {
            int at = atomicAdd(&ctl[C_FAR], 1);
            if (at < n) piles[(long long)(ep & 1) * n + at] = v; else ctl[C_OVERFLOW] = 1;
        }
        return false;
    }
};

// nf_refill: where the frontier is empty and the far pile is not, raise the
// threshold by delta and split the pile: vertices now below it become the
// level's frontier, the others go to the next pile (stamped with the next
// epoch). The last block's ticket swaps the piles and moves the count.
extern "C" __global__ void __launch_bounds__(THREADS) nf_refill(const unsigned long long* dp, int* piles, int* mark, int* ctl,
                                                                int* q0, int* q1, int n, float delta) {
    volatile int* c = ctl;
    if (c[C_IN] != 0) return;
    int nfar = c[C_FAR];
    if (nfar == 0) return;
    int ep = c[C_FEPOCH], L = c[C_LEVEL];
    float old = __int_as_float(c[C_THR]), thr = old + delta;
    if (!(thr > old)) thr = __uint_as_float(INF_BITS); // delta below the threshold's precision: take the whole pile
    const int* pile = piles + (long long)(ep & 1) * n;
    int* next = piles + (long long)((ep + 1) & 1) * n;
    int* farmark = piles + 2 * (long long)n;
    int* qin = (L & 1) ? q1 : q0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < min(nfar, n); i += gridDim.x * blockDim.x) {
        int v = pile[i];
        if (dist_of(((volatile const unsigned long long*)dp)[v]) < thr) {
            if (atomicExch(&mark[v], L) != L) push_agg(ctl, qin, v); // C_OUT: read as the level's input below
        } else if (atomicExch(&farmark[v], ep + 1) != ep + 1) {
            next[atomicAdd(&ctl[C_FARN], 1)] = v;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) == gridDim.x - 1) {
            c[C_TICKET] = 0;
            c[C_IN] = c[C_OUT];
            c[C_OUT] = 0;
            c[C_FAR] = c[C_FARN];
            c[C_FARN] = 0;
            c[C_FEPOCH] = ep + 1;
            c[C_THR] = __float_as_int(thr);
            __threadfence();
        }
    }
}

// --------------------------------------------------------------- policies

// expand_range relaxes u's arcs [b, e) with stride step from lane.
template <class Op>
__device__ __forceinline__ void expand_range(const Op& op, const Graph& g, int* ctl, int* qout, int u,
                                             typename Op::Src s, long long b, long long e, int L, int step) {
    for (long long k = b; k < e; k += step) {
        int v = g.adj[k];
        if (op.relax(s, g, u, v, k, L)) push_agg(ctl, qout, v);
    }
}

// thread: a thread per frontier vertex (Gunrock's ThreadExpand; the queue
// BFS of the CUDA slides).
template <class Op>
__device__ void thread_expand(Op op, Graph g, int* ctl, int* q0, int* q1, int qfixed) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    int L = level_of(ctl);
    const int* qin = qfixed ? q0 : ((L & 1) ? q1 : q0);
    int* qout = qfixed ? nullptr : ((L & 1) ? q0 : q1);
    // Only the blocks the frontier needs work; the others take their
    // ticket and leave (a small frontier costs a few blocks, not the grid).
    unsigned active = min(gridDim.x, (unsigned)((nin + blockDim.x - 1) / blockDim.x));
    if (blockIdx.x >= active) {
        idle_level(ctl);
        return;
    }
    unsigned long long insp = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
        int u = qin[i];
        long long b = g.off[u], e = g.off[u + 1];
        insp += e - b;
        expand_range(op, g, ctl, qout, u, op.source(u), b, e, L, 1);
    }
    end_level(ctl, insp);
}

// topo: a thread per vertex, active when its stamp is the level
// (topology-driven; the parallel level-synchronous BFS of the CUDA slides).
template <class Op>
__device__ void topo_expand(Op op, Graph g, int* ctl) {
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    unsigned long long insp = 0;
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < g.n; u += gridDim.x * blockDim.x) {
        if (!op.active(u, L)) continue;
        long long b = g.off[u], e = g.off[u + 1];
        insp += e - b;
        expand_range(op, g, ctl, (int*)nullptr, u, op.source(u), b, e, L, 1);
    }
    end_level(ctl, insp);
}

// edge: a thread per arc of the COO list, active when its source is
// (topology-driven). Chunked: each thread takes CHUNK arcs of its block's
// tile (coalesced), reads its source's state once per run of equal
// sources, and its pushes are counted one atomic per warp batch; plain:
// one atomic per push.
template <class Op, int CHUNK>
__device__ void edge_expand(Op op, Graph g, int* ctl) {
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    unsigned long long insp = 0;
    long long tile = (long long)blockDim.x * CHUNK;
    for (long long t0 = (long long)blockIdx.x * tile; t0 < g.m; t0 += (long long)gridDim.x * tile) {
        int last = -1;
        bool act = false;
        typename Op::Src s{};
        for (int j = 0; j < CHUNK; j++) {
            long long k = t0 + threadIdx.x + (long long)j * blockDim.x;
            if (k >= g.m) break;
            int u = g.src[k];
            if (u != last) {
                last = u;
                act = op.active(u, L);
                if (act) s = op.source(u);
            }
            if (!act) continue;
            insp++;
            int v = g.adj[k];
            if (op.relax(s, g, u, v, k, L)) {
                if (CHUNK == 1) push_one(ctl, nullptr, v); else push_agg(ctl, nullptr, v);
            }
        }
    }
    end_level(ctl, insp);
}

// lb_degrees: deg[i] = the arcs of frontier entry i past the first skip
// (ctl's C_SKIP when useSkip), the input of the scan of workload
// decomposition / LB.
__device__ void lb_degrees(Graph g, const int* ctl, const int* q0, const int* q1, int* deg, int useSkip) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    int L = level_of(ctl);
    const int* qin = (L & 1) ? q1 : q0;
    long long skip = useSkip ? ((volatile const int*)ctl)[C_SKIP] : 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
        int u = qin[i];
        long long d = g.off[u + 1] - g.off[u] - skip;
        deg[i] = d > 0 ? (int)d : 0;
    }
}

// lb: equal ranges of the frontier's edges per block (LBTILE per block and
// round), each edge finding its frontier entry by binary search over the
// exclusive scan of the degrees (merge-path): the block finds the entries
// its range spans and stages their offsets, vertices and arc bases in
// shared memory, where its threads search (global memory where the span
// is wider, which only entries without arcs cause).
#define LBTILE (THREADS * 4)
#define LBSPAN (LBTILE + 1)
// lb_partition: the first frontier entry of every LB tile (the last i
// with scan[i] <= tile * LBTILE), all tiles' searches at once, for the
// first C_TILES tiles; lb_expand searches itself beyond.
extern "C" __global__ void __launch_bounds__(THREADS) lb_partition(const int* ctl, const long long* scan, const long long* total, int* tstart) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    long long T = *(volatile const long long*)total;
    long long ntiles = min((T + LBTILE - 1) / LBTILE, (long long)ctl[C_TILES]);
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < ntiles; t += (long long)gridDim.x * blockDim.x) {
        long long r = t * LBTILE;
        int lo = 0, hi = nin - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >> 1;
            if (scan[mid] <= r) lo = mid; else hi = mid - 1;
        }
        tstart[t] = lo;
    }
}

// split (delta-stepping, else null): each vertex's arcs sorted by weight,
// the light ones (below delta) in [off[u], split[u]); a level relaxes the
// light arcs of its frontier, or with C_HEAVY the heavy ones.
template <class Op>
__device__ void lb_expand(Op op, Graph g, int* ctl, int* q0, int* q1, const long long* scan,
                          const long long* total, int useSkip, const int* tstart, const long long* split) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    int L = level_of(ctl);
    const int* qin = (L & 1) ? q1 : q0;
    int* qout = (L & 1) ? q0 : q1;
    long long T = *(volatile const long long*)total;
    unsigned active = (unsigned)max(1LL, min((long long)gridDim.x, (T + LBTILE - 1) / LBTILE));
    if (blockIdx.x >= active) {
        idle_level(ctl);
        return;
    }
    long long skip = useSkip ? ((volatile const int*)ctl)[C_SKIP] : 0;
    bool heavy = split && ((volatile const int*)ctl)[C_HEAVY];
    // the first arc of frontier vertex u this level relaxes
    auto first = [&](int u) -> long long { return split ? (heavy ? split[u] : g.off[u]) : g.off[u] + skip; };
    unsigned long long insp = 0;
    __shared__ int s_lo, s_hi;
    __shared__ long long s_scan[LBSPAN], s_base[LBSPAN];
    __shared__ int s_u[LBSPAN];
    for (long long r0 = (long long)blockIdx.x * LBTILE; r0 < T; r0 += (long long)gridDim.x * LBTILE) {
        long long r1 = min(r0 + (long long)LBTILE, T);
        long long tile = r0 / LBTILE, ntiles = (T + LBTILE - 1) / LBTILE, tcap = ctl[C_TILES];
        if (tile < tcap && threadIdx.x < 2) {
            // the next tile's first entry bounds this one's (it may own
            // none of this tile's edges: the search then never picks it)
            if (threadIdx.x == 0) s_lo = tstart[tile];
            else s_hi = tile + 1 < ntiles && tile + 1 < tcap ? tstart[tile + 1] : nin - 1;
        } else if (threadIdx.x < 2) {
            long long r = threadIdx.x == 0 ? r0 : r1 - 1;
            int lo = 0, hi = nin - 1; // last i with scan[i] <= r
            while (lo < hi) {
                int mid = (lo + hi + 1) >> 1;
                if (scan[mid] <= r) lo = mid; else hi = mid - 1;
            }
            if (threadIdx.x == 0) s_lo = lo; else s_hi = lo;
        }
        __syncthreads();
        int blo = s_lo, bhi = s_hi, span = bhi - blo + 1;
        if (span <= LBSPAN) {
            for (int i = threadIdx.x; i < span; i += blockDim.x) {
                long long sc = scan[blo + i];
                int u = qin[blo + i];
                s_scan[i] = sc;
                s_u[i] = u;
                s_base[i] = first(u) - sc;
            }
            __syncthreads();
            for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
                int lo = 0, hi = span - 1;
                while (lo < hi) {
                    int mid = (lo + hi + 1) >> 1;
                    if (s_scan[mid] <= r) lo = mid; else hi = mid - 1;
                }
                int u = s_u[lo];
                long long k = s_base[lo] + r;
                int v = g.adj[k];
                insp++;
                if (op.relax(op.source(u), g, u, v, k, L)) push_agg(ctl, qout, v);
            }
        } else {
            for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
                int lo = blo, hi = bhi;
                while (lo < hi) {
                    int mid = (lo + hi + 1) >> 1;
                    if (scan[mid] <= r) lo = mid; else hi = mid - 1;
                }
                int u = qin[lo];
                long long k = first(u) + (r - scan[lo]);
                int v = g.adj[k];
                insp++;
                if (op.relax(op.source(u), g, u, v, k, L)) push_agg(ctl, qout, v);
            }
        }
        __syncthreads();
    }
    end_level(ctl, insp);
}

// twc: Gunrock's thread/warp/CTA grouping: a tile of blockDim frontier
// entries; vertices of degree >= tcta are expanded by the whole block, one
// at a time, those of degree >= twarp by a warp, the rest by their thread.
template <class Op>
__device__ unsigned long long twc_tiles(Op op, const Graph& g, int* ctl, const int* qin, int* qout, int nin, int L,
                                        int twarp, int tcta) {
    unsigned long long insp = 0;
    __shared__ int s_owner, s_u;
    __shared__ long long s_b, s_e;
    for (int base = blockIdx.x * blockDim.x; base < nin; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        int u = -1;
        long long b = 0, e = 0;
        if (i < nin) {
            u = ((volatile const int*)qin)[i]; // volatile: the persistent kernel's queue was written this launch
            b = g.off[u];
            e = g.off[u + 1];
            insp += e - b;
        }
        // CTA
        while (true) {
            if (threadIdx.x == 0) s_owner = -1;
            __syncthreads();
            if (e - b >= tcta) s_owner = threadIdx.x;
            __syncthreads();
            int owner = s_owner;
            if (owner < 0) break;
            if (threadIdx.x == owner) {
                s_u = u; s_b = b; s_e = e;
                b = e; // done
            }
            __syncthreads();
            int cu = s_u;
            expand_range(op, g, ctl, qout, cu, op.source(cu), s_b + threadIdx.x, s_e, L, blockDim.x);
            __syncthreads();
        }
        // warp
        while (true) {
            unsigned want = __ballot_sync(0xffffffffu, e - b >= twarp);
            if (!want) break;
            int leader = __ffs(want) - 1;
            int wu = __shfl_sync(0xffffffffu, u, leader);
            long long wb = __shfl_sync(0xffffffffu, b, leader);
            long long we = __shfl_sync(0xffffffffu, e, leader);
            if (lane_id() == leader) b = e;
            expand_range(op, g, ctl, qout, wu, op.source(wu), wb + lane_id(), we, L, 32);
            __syncwarp();
        }
        // thread
        if (e > b) expand_range(op, g, ctl, qout, u, op.source(u), b, e, L, 1);
        __syncthreads();
    }
    return insp;
}

template <class Op>
__device__ void twc_expand(Op op, Graph g, int* ctl, int* q0, int* q1, int twarp, int tcta, int pushBelow) {
    int nin = in_count(ctl);
    if (nin == 0 || nin >= pushBelow) return; // pushBelow: the pull's turn (direction-optimizing BFS)
    int L = level_of(ctl);
    const int* qin = (L & 1) ? q1 : q0;
    int* qout = (L & 1) ? q0 : q1;
    unsigned active = min(gridDim.x, (unsigned)((nin + blockDim.x - 1) / blockDim.x));
    if (blockIdx.x >= active) {
        idle_level(ctl);
        return;
    }
    end_level(ctl, twc_tiles(op, g, ctl, qin, qout, nin, L, twarp, tcta));
}

// ns: node splitting: a thread per piece of at most MDT arcs (pstart,
// powner), a vertex's pieces reading its state (parent-to-child
// propagation), topology-driven.
template <class Op>
__device__ void ns_expand(Op op, Graph g, int* ctl, const long long* pstart, const int* powner, int np) {
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    unsigned long long insp = 0;
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < np; p += gridDim.x * blockDim.x) {
        int u = powner[p];
        if (!op.active(u, L)) continue;
        long long b = pstart[p], e = pstart[p + 1];
        insp += e - b;
        expand_range(op, g, ctl, (int*)nullptr, u, op.source(u), b, e, L, 1);
    }
    end_level(ctl, insp);
}

// hp_first: hierarchical processing's first sub-iteration: below a
// frontier of wdBelow entries it leaves everything to workload
// decomposition (skip 0); otherwise a thread per frontier vertex relaxes
// its first mdt arcs and the decomposition the rest (skip mdt).
template <class Op>
__device__ void hp_first(Op op, Graph g, int* ctl, int* q0, int* q1, int mdt, int wdBelow) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    if (nin < wdBelow) {
        if (blockIdx.x == 0 && threadIdx.x == 0) ctl[C_SKIP] = 0;
        return;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) ctl[C_SKIP] = mdt;
    int L = level_of(ctl);
    const int* qin = (L & 1) ? q1 : q0;
    int* qout = (L & 1) ? q0 : q1;
    unsigned long long insp = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
        int u = qin[i];
        long long b = g.off[u], e = min(g.off[u + 1], b + mdt);
        insp += e - b;
        expand_range(op, g, ctl, qout, u, op.source(u), b, e, L, 1);
    }
    if (insp) atomicAdd((unsigned long long*)&ctl[C_INSPECTED], insp);
}

// scan_flags: the scan BFS of the CUDA slides: flag the frontier (stamp ==
// level), then a compaction (the primitives' Select) makes the queue.
template <class Op>
__device__ void scan_flags(Op op, Graph g, const int* ctl, int* flags) {
    // Written even for an empty frontier: the compaction after reads them.
    bool any = in_count(ctl) != 0;
    int L = level_of(ctl);
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < g.n; v += gridDim.x * blockDim.x)
        flags[v] = any && op.active(v, L);
}

// Every entry takes the graph and the operator's state as flat arguments
// (8-byte slots), then the control block, then its policy's own.
#define GARGS const long long *off, const int *adj, const float *w, const int *src, int n, long long m, void *s1, \
              void *s2, int *mark, int *ctl
#define MAKE(OP)                   \
    Graph g{off, adj, w, src, n, m}; \
    OP op = OP::make(s1, s2, mark, ctl, n)

// Delta-stepping (Meyer and Sanders) on near-far's machinery: arcs of
// weight below delta are light, the others heavy. A frontier relaxes only
// its light arcs, and every vertex it held joins the bucket list (once per
// list epoch: rmark). When a bucket's frontier runs dry its vertices are
// settled, and one level relaxes their heavy arcs, once each, instead of
// once per time a vertex re-entered the frontier; those arcs land beyond
// the threshold (far pile) but for rounding, which the relax handles like
// any other. R and rmark live in one buffer of 2n words.
//
// lh_degrees: the frontier's light (heavy, with C_HEAVY) arc counts, the
// input of the LB scan; on a light level each entry joins the bucket list.
extern "C" __global__ void __launch_bounds__(THREADS) lh_degrees(GARGS, const int* q0, const int* q1, int* deg,
                                                                 const long long* split, int* R) {
    int nin = in_count(ctl);
    if (nin == 0) return;
    int L = level_of(ctl);
    const int* qin = (L & 1) ? q1 : q0;
    volatile int* c = ctl;
    bool heavy = c[C_HEAVY];
    int ep = c[C_REPOCH];
    int* rmark = R + n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
        int u = qin[i];
        long long d = heavy ? off[u + 1] - split[u] : split[u] - off[u];
        deg[i] = (int)d;
        if (!heavy && atomicExch(&rmark[u], ep) != ep) R[atomicAdd(&ctl[C_R], 1)] = u;
    }
}

// lh_switch: after a light level that left the frontier empty, the bucket
// list becomes the next level's frontier, marked heavy (a new list epoch
// begins); after any other level the next is light. The last block's
// ticket sets the counts, as nf_refill's does.
extern "C" __global__ void __launch_bounds__(THREADS) lh_switch(int* ctl, const int* R, int* q0, int* q1) {
    volatile int* c = ctl;
    int nr = c[C_R];
    bool toHeavy = c[C_IN] == 0 && nr > 0 && !c[C_HEAVY];
    if (toHeavy) {
        int* qin = (c[C_LEVEL] & 1) ? q1 : q0;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nr; i += gridDim.x * blockDim.x) qin[i] = R[i];
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) == gridDim.x - 1) {
            c[C_TICKET] = 0;
            if (toHeavy) {
                c[C_IN] = nr;
                c[C_R] = 0;
                c[C_REPOCH] = c[C_REPOCH] + 1;
            }
            c[C_HEAVY] = toHeavy;
            __threadfence();
        }
    }
}

// pull_bfs: a bottom-up level of direction-optimizing BFS (Beamer et al.),
// run where the frontier holds at least pullFrom vertices: every
// unreached vertex scans its in-arcs (ioff, iadj) for one in the frontier
// and stops at the first; each vertex is its own thread's, so the visit
// needs no atomics, and the vertices found are queued for the next level.
extern "C" __global__ void __launch_bounds__(THREADS) pull_bfs(const long long* ioff, const int* iadj, int n, int* depth,
                                                               int* parent, unsigned* visited, int* ctl, int* q0, int* q1,
                                                               int pullFrom) {
    int nin = in_count(ctl);
    if (nin == 0 || nin < pullFrom) return;
    int L = level_of(ctl);
    int* qout = (L & 1) ? q0 : q1;
    unsigned long long insp = 0;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        if (depth[v] != -1) continue;
        for (long long k = ioff[v]; k < ioff[v + 1]; k++) {
            int u = iadj[k];
            insp++;
            if (((volatile int*)depth)[u] == L) {
                depth[v] = L + 1;
                atomicOr(&visited[v >> 5], 1u << (v & 31)); // for the top-down levels after
                parent[v] = u;
                push_agg(ctl, qout, v);
                break;
            }
        }
    }
    end_level(ctl, insp);
}

// persist: the whole search in one kernel (a persistent grid of one block
// per multiprocessor, all resident): a thread per frontier vertex (twarp
// 0) or TWC's grouping (twc_tiles), levels
// separated by a software grid barrier whose last arrival closes the level
// (close_level's work) and releases the others by a generation word. A
// barrier that waits longer than about 4 s (a grid not all resident)
// gives up and flags C_OVERFLOW = 2, which the host reports.
// On a road graph the barrier is most of a level, so it keeps its chain of
// dependent memory trips short: every block counts the generations and
// levels itself (each passes every barrier) and knows the queue capacity,
// so thread 0 reads nothing before it arrives; the last arrival takes the
// output count with one atomicExch; the count reaches the block's threads
// through shared memory.
__device__ int grid_barrier_close(int* ctl, int gen, int L, int cap) {
    __shared__ int s_nin;
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile int* c = ctl;
        int nin;
        __threadfence();
        if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) == gridDim.x - 1) {
            c[C_TICKET] = 0;
            nin = atomicExch(&ctl[C_OUT], 0);
            if (nin > cap) { c[C_OVERFLOW] = 1; nin = 0; }
            c[C_IN] = nin;
            c[C_LEVEL] = L + 1;
            __threadfence();
            c[C_GEN] = gen + 1;
        } else {
            long long t0 = clock64();
            while (c[C_GEN] == gen) {
                if (clock64() - t0 > (1LL << 33)) {
                    c[C_OVERFLOW] = 2;
                    c[C_IN] = 0;
                    break;
                }
            }
            __threadfence();
            nin = c[C_IN];
        }
        s_nin = nin;
    }
    __syncthreads();
    return s_nin;
}

template <class Op>
__device__ void persist_run(Op op, Graph g, int* ctl, int* q0, int* q1, int twarp, int tcta) {
    volatile int* c = ctl;
    unsigned long long insp = 0;
    int nin = c[C_IN], L = c[C_LEVEL], gen = c[C_GEN], cap = c[C_CAP];
    while (nin != 0) {
        const int* qin = (L & 1) ? q1 : q0;
        int* qout = (L & 1) ? q0 : q1;
        if (twarp > 0) {
            insp += twc_tiles(op, g, ctl, qin, qout, nin, L, twarp, tcta);
        } else {
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
                int u = ((volatile const int*)qin)[i];
                long long b = g.off[u], e = g.off[u + 1];
                insp += e - b;
                expand_range(op, g, ctl, qout, u, op.source(u), b, e, L, 1);
            }
        }
        nin = grid_barrier_close(ctl, gen, L, cap);
        gen++;
        L++;
    }
    if (insp) atomicAdd((unsigned long long*)&ctl[C_INSPECTED], insp);
}

// ------------------------------------------------------- two-phase SSSP

// Harish and Narayanan's two-phase SSSP: phase 1 relaxes the arcs of the
// masked (stamped) vertices into the updating costs U, phase 2 moves
// improved U into the costs C and stamps those vertices. The atomic version
// packs (cost, pred) in 64 bits and updates by the strict-decrease CAS; the
// racy one is the original check-then-write on separate cost and pred
// words, kept as the negative test the validator must catch.
extern "C" __global__ void __launch_bounds__(THREADS) tp1_sssp(GARGS) {
    Graph g{off, adj, w, src, n, m};
    unsigned long long *C = (unsigned long long*)s1, *U = (unsigned long long*)s2;
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < g.n; u += gridDim.x * blockDim.x) {
        if (((volatile int*)mark)[u] != L) continue;
        float du = dist_of(C[u]);
        for (long long k = g.off[u]; k < g.off[u + 1]; k++) {
            int v = g.adj[k];
            decrease(U, v, __fadd_rn(du, g.w[k]), u);
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) tp2_sssp(GARGS) {
    Graph g{off, adj, w, src, n, m};
    unsigned long long *C = (unsigned long long*)s1, *U = (unsigned long long*)s2;
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    unsigned long long insp = 0;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < g.n; v += gridDim.x * blockDim.x) {
        if (mark[v] == L) insp += g.off[v + 1] - g.off[v];
        unsigned long long u = U[v];
        if (dist_of(u) < dist_of(C[v])) {
            C[v] = u;
            mark[v] = L + 1;
            push_agg(ctl, nullptr, v);
        }
    }
    end_level(ctl, insp);
}

// The racy pair: C holds (cost, pred) as two words written one after the
// other; Uc and Up are the updating cost and pred, written without atomics.
extern "C" __global__ void __launch_bounds__(THREADS) tp1_sssp_racy(GARGS) {
    Graph g{off, adj, w, src, n, m};
    unsigned* C = (unsigned*)s1;
    float* Uc = (float*)s2;
    int* Up = (int*)s2 + n;
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < g.n; u += gridDim.x * blockDim.x) {
        if (((volatile int*)mark)[u] != L) continue;
        float du = __uint_as_float(C[2 * u + 1]);
        for (long long k = g.off[u]; k < g.off[u + 1]; k++) {
            int v = g.adj[k];
            float nd = __fadd_rn(du, g.w[k]);
            if (((volatile float*)Uc)[v] > nd) {
                ((volatile float*)Uc)[v] = nd;
                ((volatile int*)Up)[v] = u;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) tp2_sssp_racy(GARGS) {
    Graph g{off, adj, w, src, n, m};
    unsigned* C = (unsigned*)s1;
    float* Uc = (float*)s2;
    int* Up = (int*)s2 + n;
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    unsigned long long insp = 0;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < g.n; v += gridDim.x * blockDim.x) {
        if (mark[v] == L) insp += g.off[v + 1] - g.off[v];
        float uc = Uc[v];
        if (uc < __uint_as_float(C[2 * v + 1])) {
            C[2 * v + 1] = __float_as_uint(uc);
            C[2 * v] = (unsigned)Up[v];
            mark[v] = L + 1;
            push_agg(ctl, nullptr, v);
        }
    }
    end_level(ctl, insp);
}

// ------------------------------------------------------------ entries

// (names for the macros, which split template arguments at their commas)
typedef BfsOp<true, true> BfsCull;
typedef BfsOp<false, true> BfsNoCull;
typedef BfsOp<true, false> BfsDirect;
#define OPS(X) X(bfs, BfsCull) X(bfs_nc, BfsNoCull) X(bfsd, BfsDirect) X(sssp, SsspOp) X(ssspnf, SsspNFOp)

#define ENTRIES(name, OP)                                                                                         \
    extern "C" __global__ void __launch_bounds__(THREADS) thread_##name(GARGS, int* q0, int* q1, int qfixed) {  \
        MAKE(OP);                                                                                                \
        thread_expand(op, g, ctl, q0, q1, qfixed);                                                               \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS) topo_##name(GARGS) {                                  \
        MAKE(OP);                                                                                                \
        topo_expand(op, g, ctl);                                                                                 \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS) edge_##name(GARGS) {                                  \
        MAKE(OP);                                                                                                \
        edge_expand<OP, 1>(op, g, ctl);                                                                          \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS) edgechunk_##name(GARGS) {                             \
        MAKE(OP);                                                                                                \
        edge_expand<OP, 8>(op, g, ctl);                                                                          \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                        \
        lb_##name(GARGS, int* q0, int* q1, const long long* scan, const long long* total, int useSkip,          \
                  const int* tstart, const long long* split) {                                                   \
        MAKE(OP);                                                                                                \
        lb_expand(op, g, ctl, q0, q1, scan, total, useSkip, tstart, split);                                      \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                        \
        twc_##name(GARGS, int* q0, int* q1, int twarp, int tcta, int pushBelow) {                               \
        MAKE(OP);                                                                                                \
        twc_expand(op, g, ctl, q0, q1, twarp, tcta, pushBelow);                                                  \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                        \
        ns_##name(GARGS, const long long* pstart, const int* powner, int np) {                                  \
        MAKE(OP);                                                                                                \
        ns_expand(op, g, ctl, pstart, powner, np);                                                               \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                        \
        hp_##name(GARGS, int* q0, int* q1, int mdt, int wdBelow) {                                              \
        MAKE(OP);                                                                                                \
        hp_first(op, g, ctl, q0, q1, mdt, wdBelow);                                                              \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS) persist_##name(GARGS, int* q0, int* q1, int twarp, int tcta) { \
        MAKE(OP);                                                                                                \
        persist_run(op, g, ctl, q0, q1, twarp, tcta);                                                            \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS) flags_##name(GARGS, int* flags) {                     \
        MAKE(OP);                                                                                                \
        scan_flags(op, g, ctl, flags);                                                                           \
    }

OPS(ENTRIES)

extern "C" __global__ void __launch_bounds__(THREADS) lb_degrees_k(GARGS, const int* q0, const int* q1, int* deg, int useSkip) {
    Graph g{off, adj, w, src, n, m};
    lb_degrees(g, ctl, q0, q1, deg, useSkip);
}

// coo_sources writes the COO source of every arc (once per graph).
extern "C" __global__ void __launch_bounds__(THREADS) coo_sources(const long long* off, int n, int* src) {
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x)
        for (long long k = off[u]; k < off[u + 1]; k++) src[k] = u;
}

// init: every vertex unreached and unstamped (BFS: the visited bitmap in
// mark cleared but for the root's bit), the root reached at level 0 and
// alone in queue q0; the level's counters cleared (posts kept).
// state64: SSSP's packed (dist, pred) words or null; depth/parent: BFS's
// or null; u64b: a second packed array (two-phase U) or null.
extern "C" __global__ void __launch_bounds__(THREADS) init(int n, int root, int* ctl, int* mark, int* q0, int* depth,
                                                           int* parent, unsigned long long* state64,
                                                           unsigned long long* u64b, int thr0) {
    unsigned long long unreached = ((unsigned long long)INF_BITS << 32) | NO_PRED;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        bool r = v == root;
        if (mark && depth) { // BFS: the visited bitmap, n/32 words
            if (v <= (n - 1) >> 5) mark[v] = v == root >> 5 ? (int)(1u << (root & 31)) : 0;
        } else if (mark) {
            mark[v] = r ? 0 : -1;
        }
        if (depth) depth[v] = r ? 0 : -1;
        if (parent) parent[v] = r ? root : -1;
        unsigned long long s = r ? (unsigned long long)(unsigned)root : unreached;
        if (state64) state64[v] = s;
        if (u64b) u64b[v] = s;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        q0[0] = root;
        ctl[C_IN] = 1;
        ctl[C_OUT] = 0;
        ctl[C_LEVEL] = 0;
        ctl[C_TICKET] = 0;
        ctl[C_SKIP] = 0;
        ctl[C_OVERFLOW] = 0;
        ctl[C_THR] = thr0;
        ctl[C_FEPOCH] = 0;
        ctl[C_FAR] = 0;
        ctl[C_FARN] = 0;
        ctl[C_HEAVY] = 0;
        ctl[C_REPOCH] = 0;
        ctl[C_R] = 0;
        *(unsigned long long*)&ctl[C_INSPECTED] = 0;
    }
}

// init_racy: the racy two-phase SSSP's arrays: C as (pred, cost bits) word
// pairs, the updating cost and pred (Uc, then Up, in one buffer of n words
// each).
extern "C" __global__ void __launch_bounds__(THREADS) init_racy(int n, int root, unsigned* C, float* Uc) {
    int* Up = (int*)Uc + n;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        bool r = v == root;
        C[2 * v] = r ? (unsigned)root : NO_PRED;
        C[2 * v + 1] = r ? 0u : INF_BITS;
        Uc[v] = r ? 0.0f : __uint_as_float(INF_BITS);
        Up[v] = r ? root : -1;
    }
}

// post: the graph's report to mapped memory, slot posts % MAIL_SLOTS:
// level (and bit 32: a queue overflowed), input count, inspected edges,
// then the post's number.
extern "C" __global__ void post(int* ctl, unsigned long long* mail) {
    volatile int* c = ctl;
    int p = c[C_POSTS] + 1;
    c[C_POSTS] = p;
    volatile unsigned long long* slot = mail + (p % MAIL_SLOTS) * MAIL_WORDS;
    slot[0] = (unsigned long long)(unsigned)c[C_LEVEL] | ((unsigned long long)(c[C_OVERFLOW] != 0) << 32);
    slot[1] = (unsigned long long)c[C_IN] + (unsigned long long)c[C_FAR]; // near-far: done when both are empty
    slot[2] = *(volatile unsigned long long*)&ctl[C_INSPECTED];
    __threadfence_system();
    slot[3] = (unsigned long long)p;
}

// ------------------------------------------------------- spac-schedule
//
// SPAC's static edge schedule (spac.go): the adjacency as a matrix (row =
// source, column = target, the arcs in CSR order its entries) partitioned
// by SPAC into parts of at most B arcs, one part per schedule block. A
// level is a masked product over the schedule: schedule block b stages
// its unique sources (yuni[yoff[b]:yoff[b+1]]) in shared memory, the
// inactive ones masked, then slot t of the block runs the arc to tgt[slot]
// from source sloc[slot] (a block-local address) through the operator
// (ws: the weights in slot order). A schedule block is skipped unless its
// stamp (bstamp) is at least the level: a thread that pushes v writes L+1
// to the stamps of the blocks where v is a source (vblk[vboff[v]:vboff[v+1]]),
// so the stamps only grow and a block with a source in the frontier of
// level L has a stamp of L or L+1. The CUDA blocks (B threads each, a
// fixed grid) stride over the schedule blocks, a chunk of B at a time:
// every thread reads one stamp, the active blocks are listed in shared
// memory and run one after the other, so a skipped block costs a load.
#define SPAC_MAXB 1024

template <class Op>
__device__ void spac_expand(Op op, Graph g, int* ctl, const int* yoff, const int* yuni, const int* tgt,
                            const unsigned short* sloc, int* bstamp, const long long* vboff, const int* vblk, int nb) {
    if (in_count(ctl) == 0) return;
    int L = level_of(ctl);
    __shared__ typename Op::Src s_src[SPAC_MAXB];
    __shared__ int s_u[SPAC_MAXB];    // the source's id, -1 when it is not in the frontier
    __shared__ int s_list[SPAC_MAXB]; // the schedule blocks of this chunk to run
    __shared__ int s_n;
    unsigned long long insp = 0;
    // A chunk is blockDim.x schedule blocks, one stamp read per thread:
    // b0 + t * gridDim.x for thread t.
    for (long long b0 = blockIdx.x; b0 < nb; b0 += (long long)gridDim.x * blockDim.x) {
        __syncthreads(); // the previous chunk's list is done with
        if (threadIdx.x == 0) s_n = 0;
        __syncthreads();
        long long bb = b0 + (long long)threadIdx.x * gridDim.x;
        if (bb < nb && ((volatile int*)bstamp)[bb] >= L) s_list[atomicAdd(&s_n, 1)] = (int)bb;
        __syncthreads();
        int cnt = s_n;
        for (int j = 0; j < cnt; j++) {
            int b = s_list[j];
            __syncthreads(); // the previous block's sources are done with
            int y0 = yoff[b], ny = yoff[b + 1] - y0;
            for (int i = threadIdx.x; i < ny; i += blockDim.x) {
                int u = yuni[y0 + i];
                bool a = op.active(u, L);
                s_u[i] = a ? u : -1;
                if (a) s_src[i] = op.source(u);
            }
            __syncthreads();
            long long slot = (long long)b * blockDim.x + threadIdx.x;
            int v = tgt[slot];
            if (v < 0) continue;
            int i = sloc[slot];
            int u = s_u[i];
            if (u < 0) continue;
            insp++;
            if (op.relax(s_src[i], g, u, v, slot, L)) {
                push_agg(ctl, (int*)nullptr, v);
                for (long long k = vboff[v]; k < vboff[v + 1]; k++) bstamp[vblk[k]] = L + 1;
            }
        }
    }
    end_level(ctl, insp);
}

// g.w is the weights in slot order (ws), so the operator's g.w[e] with e =
// the slot reads the arc's weight.
#define SPAC_ENTRY(name, OP)                                                                                      \
    extern "C" __global__ void __launch_bounds__(SPAC_MAXB)                                                      \
        spac_##name(GARGS, const int* yoff, const int* yuni, const int* tgt, const unsigned short* sloc,         \
                    int* bstamp, const long long* vboff, const int* vblk, int nb) {                             \
        MAKE(OP);                                                                                                \
        spac_expand(op, g, ctl, yoff, yuni, tgt, sloc, bstamp, vboff, vblk, nb);                                 \
    }
SPAC_ENTRY(bfs, BfsCull)
SPAC_ENTRY(sssp, SsspOp)

// spac_seed: the root's schedule blocks stamped with level 0 (the others
// hold -1).
extern "C" __global__ void spac_seed(int* bstamp, const long long* vboff, const int* vblk, int root) {
    for (long long j = vboff[root] + threadIdx.x; j < vboff[root + 1]; j += blockDim.x) bstamp[vblk[j]] = 0;
}
