// Per-level adaptive BFS (issue 17): the implementations of Verstraaten,
// Varbanescu and de Laat ("mix-and-match", 2018) as engine strategies,
// direction-optimizing BFS with Beamer's alpha/beta rule decided on the
// device, the per-level counters the adaptive model reads, and the state
// copies and checks of the oracle sweep.
//
// Every kernel here speaks traversal.cu's protocol on the same arrays: the
// control block (its words below must equal traversal.cu's, which a test
// checks), depth as the frontier's stamp (depth[v] == L: v is in the
// frontier of level L), the visited bitmap in mark, parent, the two
// queues swapped by the level's parity, the last block's ticket closing
// the level (output count to input count, level + 1), and a kernel that
// finds an empty frontier returning at once. So a level of any strategy
// here may follow a level of any strategy there and the reverse, which is
// what the adaptive loop and the sweep do.
//
// The paper's implementations are topology-driven: a level reads the
// frontier from the stamps and writes no queue.
//   edge list        a thread per arc of the COO list: active when its
//                    source is in the frontier
//   reverse edge     a thread per in-arc (the COO list of the in-arcs):
//   list             active when its destination is unvisited and its
//                    source in the frontier
//   vertex push      a thread per vertex in the frontier, over its out-arcs
//   vertex pull      a thread per unvisited vertex, over its in-arcs up to
//                    the first in the frontier (bottom-up; no atomics)
//   virtual-warp     W lanes per vertex (W = 2 ... 32), the lanes striding
//   push             over its out-arcs
// Each counts the vertices it discovers (the next frontier's size) in one
// of three ways, which the paper compares: a plain atomicAdd per vertex
// (CNT_ATOMIC), a per-thread count reduced over the warp, one atomic per
// warp (CNT_WARP), or reduced over the block, one atomic per block
// (CNT_BLOCK).
//
// Counters (count != 0, and do-beamer's always): with each vertex it
// discovers a kernel also counts its out-degree, into the sum (C_MF) and
// the maximum (C_MAXD), by the same method; the level's closer then posts
// the next frontier's vertices, out-arcs and largest out-degree to a ring
// of slots in mapped host memory (close_counters), tagged with the
// search's epoch and the level. For traversal.cu's strategies, whose
// kernels do not count, the engine appends a counter step after the level:
// queue_counters over the queue the level wrote (O(frontier)), or
// frontier_rebuild, which also rebuilds the queue from the stamps (O(n)),
// after a level that wrote none.

#include <stdint.h>

#define THREADS 256
#define AD_MINB 4 // ad_level's and ad_persist's blocks an SM (ondevice.go: adBlocksPerSM)
typedef unsigned long long u64;

// The control block: these words are traversal.cu's (same values).
#define C_IN 0
#define C_LEVEL 1
#define C_POSTS 3
#define C_CAP 4
#define C_OVERFLOW 5
#define C_OUT 32
#define C_TICKET 64
#define C_INSPECTED 96 // int64
#define CTL_WORDS 160
// Words of this file only (free in traversal.cu): written by abegin.
#define C_EPOCH 11  // the search's epoch: the ring's tags
#define C_BU 12     // do-beamer: the last level it ran pulled
#define C_RLEVEL 13 // the last level whose counters are posted
#define C_NPULL 14  // do-beamer: levels pulled in this search
#define C_DARCS 130 // u64: out-arcs of the vertices discovered so far, the frontier's included
#define C_CURMF 132 // u64: out-arcs of the current frontier
#define C_MF 136    // u64: out-arcs of the next frontier (accumulating)
#define C_MAXD 138  // the next frontier's largest out-degree (accumulating)
#define C_QCOUNT 140 // frontier_rebuild: entries written
#define C_BIG 15    // do_push: entries in the big list (do_finish empties it)

// The counters' ring: RING_SLOTS slots of 4 words (tag, vertices, arcs,
// largest degree); the slot of level L is L % RING_SLOTS.
#define RING_SLOTS 4096
#define RING_WORDS 4

#define CNT_ATOMIC 0
#define CNT_WARP 1
#define CNT_BLOCK 2

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }
__device__ __forceinline__ int ctl_word(const int* ctl, int i) { return ((volatile const int*)ctl)[i]; }
__device__ __forceinline__ u64 ctl_u64(const int* ctl, int i) { return *(volatile const u64*)&ctl[i]; }

// visit claims v for level L + 1 from u: the visited bit first (a clear
// bit proves nothing, it lags the depth), the depth reread, then the CAS
// that makes the claim unique; the bit and the parent follow.
__device__ __forceinline__ bool visit(int* depth, int* parent, unsigned* visited, int u, int v, int L) {
    unsigned bit = 1u << (v & 31);
    if (visited[v >> 5] & bit) return false;
    if (((volatile int*)depth)[v] != -1) return false;
    if (atomicCAS(&depth[v], -1, L + 1) != -1) return false;
    atomicOr(&visited[v >> 5], bit);
    parent[v] = u;
    return true;
}

// Tally is a thread's count of what it found this level.
struct Tally {
    u64 found;   // vertices discovered (CNT_WARP, CNT_BLOCK)
    u64 arcs;    // their out-arcs (with counters)
    unsigned maxd; // their largest out-degree (with counters)
    u64 insp;    // arcs inspected
    bool touched; // discovered a vertex (its counts may be in atomics already)
};

// found counts a discovered vertex v by the method CNT: at once (one
// atomic per counter) or in the thread's tally.
template <int CNT>
__device__ __forceinline__ void found(int* ctl, const long long* off, int v, bool count, Tally& t) {
    unsigned d = 0;
    if (count) d = (unsigned)(off[v + 1] - off[v]);
    t.touched = true;
    if (CNT == CNT_ATOMIC) {
        atomicAdd(&ctl[C_OUT], 1);
        if (count) {
            atomicAdd((u64*)&ctl[C_MF], (u64)d);
            atomicMax((unsigned*)&ctl[C_MAXD], d);
        }
    } else {
        t.found++;
        t.arcs += d;
        t.maxd = max(t.maxd, d);
    }
}

__device__ __forceinline__ u64 warp_sum(u64 x) {
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

// close_counters posts the counters of the frontier of level `level` (nf
// vertices) and moves them on: the next frontier's sums start from zero,
// the current frontier's arcs and the discovered arcs (Beamer's rule)
// take them. The closer's thread runs it, after every block's atomics.
__device__ void close_counters(int* ctl, u64* ring, int level, int nf) {
    volatile int* c = ctl;
    volatile u64* mf_w = (volatile u64*)&ctl[C_MF];
    volatile u64* cur_w = (volatile u64*)&ctl[C_CURMF];
    volatile u64* dis_w = (volatile u64*)&ctl[C_DARCS];
    u64 mf = *mf_w;
    unsigned mx = (unsigned)c[C_MAXD];
    *mf_w = 0;
    c[C_MAXD] = 0;
    *cur_w = mf;
    *dis_w = *dis_w + mf;
    c[C_RLEVEL] = level;
    if (ring) {
        volatile u64* s = ring + (long long)(level & (RING_SLOTS - 1)) * RING_WORDS;
        s[1] = (u64)(unsigned)nf;
        s[2] = mf;
        s[3] = (u64)mx;
        __threadfence_system();
        s[0] = ((u64)(unsigned)c[C_EPOCH] << 32) | (u64)(unsigned)level;
    }
}

// flush_tally adds a block's tallies into the control block: reduced by
// the method CNT (the warp's or the block's, one atomic each), the
// inspected arcs by the block; nothing for a block that did nothing. finish_level ends a block's part of a
// level: its tallies flushed, then the block's ticket; the last block closes the
// level as traversal.cu's close_level does, moves the counters on when
// count is set (close_counters: to the ring too where ring is not null)
// and, for do-beamer (bu >= 0), records the direction this level ran.
// Every thread of the block calls it, with no thread gone before.
template <int CNT>
__device__ void flush_tally(int* ctl, Tally t, bool count) {
    __shared__ u64 s_found, s_arcs, s_insp;
    __shared__ unsigned s_max;
    // a block that found and inspected nothing has nothing to add or to
    // order before its ticket: most of the grid on a small level
    if (!__syncthreads_or(t.touched || t.insp)) return;
    if (CNT == CNT_WARP) {
        u64 f = warp_sum(t.found);
        u64 a = count ? warp_sum(t.arcs) : 0;
        unsigned mx = count ? __reduce_max_sync(0xffffffffu, t.maxd) : 0;
        if (lane_id() == 0) {
            if (f) atomicAdd(&ctl[C_OUT], (int)f);
            if (a) atomicAdd((u64*)&ctl[C_MF], a);
            if (mx) atomicMax((unsigned*)&ctl[C_MAXD], mx);
        }
    }
    if (threadIdx.x == 0) {
        s_found = 0;
        s_arcs = 0;
        s_insp = 0;
        s_max = 0;
    }
    __syncthreads();
    u64 insp = warp_sum(t.insp);
    if (lane_id() == 0 && insp) atomicAdd(&s_insp, insp);
    if (CNT == CNT_BLOCK) {
        u64 f = warp_sum(t.found);
        u64 a = count ? warp_sum(t.arcs) : 0;
        unsigned mx = count ? __reduce_max_sync(0xffffffffu, t.maxd) : 0;
        if (lane_id() == 0) {
            if (f) atomicAdd(&s_found, f);
            if (a) atomicAdd(&s_arcs, a);
            if (mx) atomicMax(&s_max, mx);
        }
    }
    __threadfence(); // every thread's claims and counts, before the ticket
    __syncthreads();
    if (threadIdx.x != 0) return;
    if (CNT == CNT_BLOCK) {
        if (s_found) atomicAdd(&ctl[C_OUT], (int)s_found);
        if (s_arcs) atomicAdd((u64*)&ctl[C_MF], s_arcs);
        if (s_max) atomicMax((unsigned*)&ctl[C_MAXD], s_max);
    }
    if (s_insp) atomicAdd((u64*)&ctl[C_INSPECTED], s_insp);
    __threadfence();
}

// advance moves the control block to the next level, as traversal.cu's
// close_level does (the output count becomes the input, 0 with the
// overflow flag when it overflowed), and for do-beamer (bu >= 0) records
// the direction the level ran; it returns the new level, and its
// frontier's size in *out. The closer's thread runs it.
__device__ __forceinline__ int advance(int* ctl, int bu, int* out) {
    volatile int* c = ctl;
    int o = c[C_OUT];
    if (o > c[C_CAP]) { c[C_OVERFLOW] = 1; o = 0; } // stop: the host reports it
    c[C_IN] = o;
    c[C_OUT] = 0;
    int level = c[C_LEVEL] + 1;
    c[C_LEVEL] = level;
    if (bu >= 0) {
        c[C_BU] = bu;
        if (bu) c[C_NPULL] = c[C_NPULL] + 1;
        c[C_BIG] = 0;
    }
    *out = o;
    return level;
}

template <int CNT>
__device__ void finish_level(int* ctl, Tally t, bool count, u64* ring, int bu) {
    flush_tally<CNT>(ctl, t, count);
    if (threadIdx.x != 0) return;
    if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) != gridDim.x - 1) return;
    __threadfence();
    ((volatile int*)ctl)[C_TICKET] = 0;
    int out, level = advance(ctl, bu, &out);
    if (count) close_counters(ctl, ring, level, out);
    __threadfence();
}

// Every kernel of the paper's implementations takes the same arguments.
#define PARGS const long long *off, const int *adj, const int *src, const long long *ioff, const int *iadj, \
              const int *isrc, int n, long long m, long long mi, int *depth, int *parent, unsigned *visited,  \
              int *ctl, int count, u64 *ring
#define PASS off, adj, src, ioff, iadj, isrc, n, m, mi, depth, parent, visited, ctl, count, ring

// In ad_level and ad_persist the edge list's and the vertex pull's
// grid-stride loops take BODY_U items a thread a round, the loads of all
// of them issued before any is used (U, 1 in the standalone kernels, which
// have a thread per item and keep their registers low): their grid is
// what is resident (4 blocks an SM at their registers, half the threads a
// standalone kernel keeps in flight), and rounds of one item were a
// thread's chain of dependent loads after another (the device's clock: a
// Kronecker scale 23 pull level of 53 us in ad_persist against 38 us
// alone).
#define BODY_U 4

// edge list: a thread per arc of the COO list (src, adj).
template <int CNT, int U = 1>
__device__ __forceinline__ Tally edge_list_t(PARGS, int L) {
    Tally t{};
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long k0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; k0 < m; k0 += U * stride) {
        int u[U], d[U], v[U];
#pragma unroll
        for (int j = 0; j < U; j++) u[j] = k0 + j * stride < m ? src[k0 + j * stride] : -1;
#pragma unroll
        for (int j = 0; j < U; j++) d[j] = u[j] >= 0 ? depth[u[j]] : -1;
#pragma unroll
        for (int j = 0; j < U; j++) v[j] = u[j] >= 0 && d[j] == L ? adj[k0 + j * stride] : -1;
#pragma unroll
        for (int j = 0; j < U; j++) {
            if (v[j] < 0) continue;
            t.insp++;
            if (visit(depth, parent, visited, u[j], v[j], L)) found<CNT>(ctl, off, v[j], count, t);
        }
    }
    return t;
}
template <int CNT>
__device__ void edge_list(PARGS) {
    if (ctl_word(ctl, C_IN) == 0) return;
    Tally t = edge_list_t<CNT>(PASS, ctl_word(ctl, C_LEVEL));
    finish_level<CNT>(ctl, t, count, ring, -1);
}

// reverse edge list: a thread per in-arc (isrc the destinations, iadj the
// sources, mi of them); an arc into a visited vertex is skipped on its
// bit, without reading its source.
template <int CNT>
__device__ __forceinline__ Tally rev_edge_list_t(PARGS, int L) {
    Tally t{};
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < mi; k += (long long)gridDim.x * blockDim.x) {
        int v = isrc[k];
        if (visited[v >> 5] & (1u << (v & 31))) continue;
        t.insp++;
        int u = iadj[k];
        if (depth[u] != L) continue;
        if (visit(depth, parent, visited, u, v, L)) found<CNT>(ctl, off, v, count, t);
    }
    return t;
}
template <int CNT>
__device__ void rev_edge_list(PARGS) {
    if (ctl_word(ctl, C_IN) == 0) return;
    Tally t = rev_edge_list_t<CNT>(PASS, ctl_word(ctl, C_LEVEL));
    finish_level<CNT>(ctl, t, count, ring, -1);
}

// vertex push: a thread per vertex of the frontier, over its out-arcs.
template <int CNT>
__device__ __forceinline__ Tally vertex_push_t(PARGS, int L) {
    Tally t{};
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x) {
        if (depth[u] != L) continue;
        long long b = off[u], e = off[u + 1];
        t.insp += e - b;
        for (long long k = b; k < e; k++) {
            int v = adj[k];
            if (visit(depth, parent, visited, u, v, L)) found<CNT>(ctl, off, v, count, t);
        }
    }
    return t;
}
template <int CNT>
__device__ void vertex_push(PARGS) {
    if (ctl_word(ctl, C_IN) == 0) return;
    Tally t = vertex_push_t<CNT>(PASS, ctl_word(ctl, C_LEVEL));
    finish_level<CNT>(ctl, t, count, ring, -1);
}

// pull_claim: v, unvisited and its thread's alone in a pull, joins level
// L + 1 from frontier vertex u.
template <int CNT>
__device__ __forceinline__ void pull_claim(const long long* off, int* depth, int* parent, unsigned* visited, int* ctl,
                                           int v, int u, int L, bool count, Tally& t) {
    depth[v] = L + 1;
    atomicOr(&visited[v >> 5], 1u << (v & 31));
    parent[v] = u;
    found<CNT>(ctl, off, v, count, t);
}

// pull_serial scans v's in-arcs [b, e) in turn to the first whose source
// is in the frontier of level L, and claims v from it: v is the calling
// thread's alone, so no atomics but the visited bit's. With U > 1, U
// in-arcs' sources and their depths are loaded together (the inspected
// count stops at the first hit, as with one at a time).
template <int CNT, int U = 1>
__device__ __forceinline__ void pull_serial(const long long* off, const int* iadj, int* depth, int* parent,
                                            unsigned* visited, int* ctl, int v, long long b, long long e, int L,
                                            bool count, Tally& t) {
    if (U == 1) {
        for (long long k = b; k < e; k++) {
            int u = iadj[k];
            t.insp++;
            if (depth[u] == L) {
                pull_claim<CNT>(off, depth, parent, visited, ctl, v, u, L, count, t);
                return;
            }
        }
    } else {
        for (long long k = b; k < e; k += U) {
            int u[U], d[U];
#pragma unroll
            for (int j = 0; j < U; j++) u[j] = k + j < e ? iadj[k + j] : -1;
#pragma unroll
            for (int j = 0; j < U; j++) d[j] = u[j] >= 0 ? depth[u[j]] : -1;
#pragma unroll
            for (int j = 0; j < U; j++) {
                if (u[j] < 0) break;
                t.insp++;
                if (d[j] == L) {
                    pull_claim<CNT>(off, depth, parent, visited, ctl, v, u[j], L, count, t);
                    return;
                }
            }
        }
    }
}

// vertex pull: a thread per unvisited vertex (its bit clear: in a pull
// only v's own thread sets it), over its in-arcs up to the first whose
// source is in the frontier; v is the thread's alone, so no atomics but
// the bit's. Of U vertices a round, the bits, the in-arcs' bounds and the
// first in-arc's source and its depth are loaded together.
template <int CNT, int U = 1>
__device__ __forceinline__ Tally vertex_pull_t(PARGS, int L) {
    Tally t{};
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; v0 < n; v0 += U * stride) {
        unsigned w[U];
        long long b[U], e[U];
        int u[U], d[U];
#pragma unroll
        for (int j = 0; j < U; j++) {
            const long long v = v0 + j * stride;
            w[j] = v < n ? visited[v >> 5] : ~0u;
        }
#pragma unroll
        for (int j = 0; j < U; j++) {
            const long long v = v0 + j * stride;
            const bool open = v < n && !(w[j] & (1u << (v & 31)));
            b[j] = open ? ioff[v] : 0;
            e[j] = open ? ioff[v + 1] : 0;
        }
#pragma unroll
        for (int j = 0; j < U; j++) u[j] = e[j] > b[j] ? iadj[b[j]] : -1;
#pragma unroll
        for (int j = 0; j < U; j++) d[j] = u[j] >= 0 ? depth[u[j]] : -1;
#pragma unroll
        for (int j = 0; j < U; j++) {
            if (u[j] < 0) continue;
            const int v = (int)(v0 + j * stride);
            t.insp++;
            if (d[j] == L) {
                pull_claim<CNT>(off, depth, parent, visited, ctl, v, u[j], L, count, t);
            } else {
                pull_serial<CNT, U>(off, iadj, depth, parent, visited, ctl, v, b[j] + 1, e[j], L, count, t);
            }
        }
    }
    return t;
}
template <int CNT>
__device__ void vertex_pull(PARGS) {
    if (ctl_word(ctl, C_IN) == 0) return;
    Tally t = vertex_pull_t<CNT>(PASS, ctl_word(ctl, C_LEVEL));
    finish_level<CNT>(ctl, t, count, ring, -1);
}

// virtual-warp push: groups of W lanes (W divides 32, so a group never
// straddles a warp), a vertex per group, the lanes striding over its arcs.
template <int W, int CNT>
__device__ __forceinline__ Tally vw_push_t(PARGS, int L) {
    Tally t{};
    long long tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    int lane = threadIdx.x & (W - 1);
    long long groups = (long long)gridDim.x * blockDim.x / W;
    for (long long u = tid / W; u < n; u += groups) {
        if (depth[u] != L) continue;
        long long b = off[u], e = off[u + 1];
        if (lane == 0) t.insp += e - b;
        for (long long k = b + lane; k < e; k += W) {
            int v = adj[k];
            if (visit(depth, parent, visited, (int)u, v, L)) found<CNT>(ctl, off, v, count, t);
        }
    }
    return t;
}
template <int W, int CNT>
__device__ void vw_push(PARGS) {
    if (ctl_word(ctl, C_IN) == 0) return;
    Tally t = vw_push_t<W, CNT>(PASS, ctl_word(ctl, C_LEVEL));
    finish_level<CNT>(ctl, t, count, ring, -1);
}

#define PAPER_ENTRY(name, body)                                                 \
    extern "C" __global__ void __launch_bounds__(THREADS) name(PARGS) {         \
        body(off, adj, src, ioff, iadj, isrc, n, m, mi, depth, parent, visited, \
             ctl, count, ring);                                                 \
    }
#define PAPER_CNT(prefix, fn)                        \
    PAPER_ENTRY(prefix##_atomic, fn<CNT_ATOMIC>)     \
    PAPER_ENTRY(prefix##_warp, fn<CNT_WARP>)         \
    PAPER_ENTRY(prefix##_block, fn<CNT_BLOCK>)

PAPER_CNT(el, edge_list)
PAPER_CNT(rel, rev_edge_list)
PAPER_CNT(vpush, vertex_push)
PAPER_CNT(vpull, vertex_pull)

#define VW_ENTRY(w)                                                                     \
    extern "C" __global__ void __launch_bounds__(THREADS) vw##w##_warp(PARGS) {         \
        vw_push<w, CNT_WARP>(off, adj, src, ioff, iadj, isrc, n, m, mi, depth, parent, \
                             visited, ctl, count, ring);                                \
    }
VW_ENTRY(2)
VW_ENTRY(4)
VW_ENTRY(8)
VW_ENTRY(16)
VW_ENTRY(32)

// ------------------------------------------------------ direction-optimizing

// qpush appends v to q (warp-aggregated: one atomic per batch of lanes
// that push together) on C_OUT, as traversal.cu's push_agg.
__device__ __forceinline__ void qpush(int* ctl, int* q, int v) {
    unsigned act = __activemask();
    int leader = __ffs(act) - 1;
    int rank = __popc(act & ((1u << lane_id()) - 1));
    int base = 0;
    if (lane_id() == leader) base = atomicAdd(&ctl[C_OUT], __popc(act));
    base = __shfl_sync(act, base, leader);
    if (base + rank < ctl[C_CAP]) q[base + rank] = v; else ctl[C_OVERFLOW] = 1;
}

// do_found: a vertex do_push discovered: queued, its degree tallied.
__device__ __forceinline__ void do_found(int* ctl, const long long* off, int* q, int v, Tally& t) {
    qpush(ctl, q, v);
    t.touched = true;
    unsigned d = (unsigned)(off[v + 1] - off[v]);
    t.arcs += d;
    t.maxd = max(t.maxd, d);
}

// do_range: the arcs [b, e) of frontier vertex u, stride step.
__device__ __forceinline__ void do_range(const long long* off, const int* adj, int* depth, int* parent, unsigned* visited,
                                         int* ctl, int* q, int u, long long b, long long e, int step, int L, Tally& t) {
    for (long long k = b; k < e; k += step) {
        int v = adj[k];
        if (visit(depth, parent, visited, u, v, L)) do_found(ctl, off, q, v, t);
    }
}

// claim_batch: of U targets v (-1: none), those whose visited bit is clear
// are tried by a CAS on their depth, the visited words and the CASes each
// issued together; old[j] is -1 where target j joined level L + 1, whose
// bit and parent the caller sets.
template <int U>
__device__ __forceinline__ void claim_batch(int* depth, const unsigned* visited, const int (&v)[U], int L,
                                            int (&old)[U]) {
    unsigned w[U];
#pragma unroll
    for (int j = 0; j < U; j++) w[j] = v[j] >= 0 ? visited[v[j] >> 5] : ~0u;
#pragma unroll
    for (int j = 0; j < U; j++) {
        old[j] = 0;
        if (v[j] >= 0 && !(w[j] & (1u << (v[j] & 31)))) old[j] = atomicCAS(&depth[v[j]], -1, L + 1);
    }
}

// do_serial: the arcs [b, e) of frontier vertex u by its own thread, four
// at a time: a batch's targets, their visited words, the CASes and the
// discovered vertices' degrees each loaded together (a road graph's vertex
// has 2 to 4 arcs; taken one arc at a time they were a chain of dependent
// round trips per thread, most of a small level). No reread of the depth
// before the CAS: the CAS decides.
__device__ __forceinline__ void do_serial(const long long* off, const int* adj, int* depth, int* parent,
                                          unsigned* visited, int* ctl, int* q, int u, long long b, long long e, int L,
                                          Tally& t) {
    for (long long k = b; k < e; k += 4) {
        int v[4];
#pragma unroll
        for (int j = 0; j < 4; j++) v[j] = k + j < e ? adj[k + j] : -1;
        int old[4];
        claim_batch<4>(depth, visited, v, L, old);
        long long lo[4] = {}, hi[4] = {};
#pragma unroll
        for (int j = 0; j < 4; j++) {
            if (old[j] == -1) {
                lo[j] = off[v[j]];
                hi[j] = off[v[j] + 1];
            }
        }
#pragma unroll
        for (int j = 0; j < 4; j++) {
            if (old[j] != -1) continue;
            atomicOr(&visited[v[j] >> 5], 1u << (v[j] & 31));
            parent[v[j]] = u;
            qpush(ctl, q, v[j]);
            t.touched = true;
            unsigned d = (unsigned)(hi[j] - lo[j]);
            t.arcs += d;
            t.maxd = max(t.maxd, d);
        }
    }
}

// Direction-optimizing BFS (Beamer, Asanovic and Patterson, SC 2012): two
// launches a level, do_push then do_finish. Both choose the level's
// direction alike, every block from the frontier's counters, which no
// block changes before the level closes (do_read): after a top-down level,
// pull when the frontier's out-arcs exceed the undiscovered vertices'
// out-arcs / alpha; after a bottom-up level, push again once the frontier
// holds fewer than n / beta vertices. Top-down, do_push expands the
// frontier's vertices of fewer than DO_BIG arcs and lists the others,
// whose arcs do_finish deals over the whole grid; bottom-up, do_push
// returns at once and do_finish pulls. do_finish closes the level and
// records its direction (C_BU) and the big list emptied.

// DoLevel is what every thread of a do-beamer kernel needs of the control
// block; do_read has one thread per block read it into shared memory
// (with every thread of the grid loading the same volatile words, a
// do_push that returned at once took 15.6 us against 5.3 us for a launch
// with nothing to do: Nsight Compute, Kronecker 22).
struct DoLevel {
    int nin, L, prevBU, bu;
};
__device__ __forceinline__ DoLevel do_read(const int* ctl, int n, long long m, float alpha, float beta) {
    __shared__ DoLevel s_lv;
    if (threadIdx.x == 0) {
        DoLevel lv;
        lv.nin = ctl_word(ctl, C_IN);
        lv.L = ctl_word(ctl, C_LEVEL);
        lv.prevBU = ctl_word(ctl, C_BU);
        u64 dis = ctl_u64(ctl, C_DARCS), cur = ctl_u64(ctl, C_CURMF);
        double mu = dis >= (u64)m ? 0.0 : (double)((u64)m - dis);
        lv.bu = lv.prevBU ? !((double)lv.nin * (double)beta < (double)n) : (double)cur * (double)alpha > mu;
        s_lv = lv;
    }
    __syncthreads();
    return s_lv;
}

// do_push: the top-down level's vertices of fewer than DO_BIG arcs, TWC's
// thread and warp grouping (a warp from twarp arcs); the others go to the
// big list. The frontier is the queue, or, after a pulled level (which
// writes none), the stamps, a thread per vertex. Discovered vertices are
// queued and their out-arcs counted for the rule (and the ring).
#define DO_BIG 128
__device__ __forceinline__ Tally do_push_t(const long long* off, const int* adj, int n, int* depth, int* parent,
                                           unsigned* visited, int* ctl, const int* qin, int* qout, int* big, int twarp,
                                           int L, int nin, bool stamps) {
    int items = stamps ? n : nin;
    Tally t{};
    for (int base = blockIdx.x * blockDim.x; base < items; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        int u = -1;
        long long b = 0, e = 0;
        if (i < items) {
            u = stamps ? (depth[i] == L ? i : -1) : qin[i];
            if (u >= 0) {
                b = off[u];
                e = off[u + 1];
            }
        }
        bool isbig = e - b >= DO_BIG;
        unsigned act = __ballot_sync(0xffffffffu, isbig);
        if (act) { // warp-aggregated append to the big list
            int leader = __ffs(act) - 1;
            int at = 0;
            if (lane_id() == leader) at = atomicAdd(&ctl[C_BIG], __popc(act));
            at = __shfl_sync(0xffffffffu, at, leader);
            if (isbig) {
                big[at + __popc(act & ((1u << lane_id()) - 1))] = u;
                b = e;
            }
        }
        t.insp += e - b;
        while (true) { // warp: at least twarp arcs
            unsigned want = __ballot_sync(0xffffffffu, e - b >= twarp);
            if (!want) break;
            int leader = __ffs(want) - 1;
            int wu = __shfl_sync(0xffffffffu, u, leader);
            long long wb = __shfl_sync(0xffffffffu, b, leader);
            long long we = __shfl_sync(0xffffffffu, e, leader);
            if (lane_id() == leader) b = e;
            do_range(off, adj, depth, parent, visited, ctl, qout, wu, wb + lane_id(), we, 32, L, t);
            __syncwarp();
        }
        if (e > b) do_serial(off, adj, depth, parent, visited, ctl, qout, u, b, e, L, t);
    }
    return t;
}
extern "C" __global__ void __launch_bounds__(THREADS, 8) do_push(const long long* off, const int* adj, int n, long long m,
                                                              int* depth, int* parent, unsigned* visited, int* ctl,
                                                              int* q0, int* q1, int* big, int twarp, float alpha,
                                                              float beta) {
    const DoLevel lv = do_read(ctl, n, m, alpha, beta);
    if (lv.nin == 0 || lv.bu) return;
    const int L = lv.L;
    Tally t = do_push_t(off, adj, n, depth, parent, visited, ctl, (L & 1) ? q1 : q0, (L & 1) ? q0 : q1, big, twarp, L,
                        lv.nin, lv.prevBU);
    flush_tally<CNT_BLOCK>(ctl, t, true);
}


#define DO_SMALL 1024
#define DO_CHUNKS 16
#define DO_PULL_WARP 128
// do_big_part: the big list's arcs over the grid; U consecutive arcs a
// thread a round in ad_persist (BODY_U: their targets, visited words and
// CASes each loaded together), 1 in do_finish.
template <int U>
__device__ __forceinline__ void do_big_part(const long long* off, const int* adj, int* depth, int* parent,
                                            unsigned* visited, int* ctl, int* qout, const int* big, int L, Tally& t) {
    __shared__ int s_nb;
    if (threadIdx.x == 0) s_nb = ctl_word(ctl, C_BIG);
    __syncthreads();
    const int nb = s_nb;
    if (nb == 0) return;
    if (nb <= DO_CHUNKS * DO_SMALL) {
        __shared__ long long s_end[DO_SMALL];
        __shared__ long long s_warp[THREADS / 32];
        const int per = DO_SMALL / THREADS;
        for (int c0 = 0; c0 < nb; c0 += DO_SMALL) { // a chunk of the list at a time
            const int cn = min(DO_SMALL, nb - c0);
            long long sum = 0, mine[DO_SMALL / THREADS];
            for (int j = 0; j < per; j++) {
                int i = threadIdx.x * per + j;
                if (i < cn) {
                    int u = big[c0 + i];
                    sum += off[u + 1] - off[u];
                }
                mine[j] = sum;
            }
            long long x = sum; // inclusive scan of the threads' sums
            for (int o = 1; o < 32; o <<= 1) {
                long long y = __shfl_up_sync(0xffffffffu, x, o);
                if (lane_id() >= o) x += y;
            }
            __syncthreads(); // the last chunk's readers are done with s_end
            if (lane_id() == 31) s_warp[threadIdx.x >> 5] = x;
            __syncthreads();
            long long before = x - sum;
            for (int w = 0; w < (threadIdx.x >> 5); w++) before += s_warp[w];
            for (int j = 0; j < per; j++) s_end[threadIdx.x * per + j] = before + mine[j];
            __syncthreads();
            long long total = s_end[DO_SMALL - 1];
            if (blockIdx.x == 0 && threadIdx.x == 0) t.insp += total;
            int last = -1, u = 0;
            long long b = 0;
            // the first i >= last with s_end[i] > k, the vertex of arc k
#define DO_BIG_FIND(k)                                                  \
    if (last < 0 || (k) >= s_end[last]) {                               \
        int lo = last + 1, hi = cn - 1;                                 \
        while (lo < hi) {                                               \
            int mid = (lo + hi) >> 1;                                   \
            if (s_end[mid] > (k)) hi = mid; else lo = mid + 1;          \
        }                                                               \
        last = lo;                                                      \
        u = big[c0 + lo];                                               \
        b = off[u] - (lo ? s_end[lo - 1] : 0);                          \
    }
            if (U == 1) {
                for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < total; k += (long long)gridDim.x * blockDim.x) {
                    DO_BIG_FIND(k)
                    int v = adj[b + k];
                    if (visit(depth, parent, visited, u, v, L)) do_found(ctl, off, qout, v, t);
                }
            } else {
                const long long stride = (long long)gridDim.x * blockDim.x * U;
                for (long long k0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * U; k0 < total; k0 += stride) {
                    int v[U], from[U];
#pragma unroll
                    for (int j = 0; j < U; j++) {
                        v[j] = -1;
                        from[j] = 0;
                        if (k0 + j >= total) continue;
                        DO_BIG_FIND(k0 + j)
                        from[j] = u;
                        v[j] = adj[b + k0 + j];
                    }
                    int old[U];
                    claim_batch<U>(depth, visited, v, L, old);
#pragma unroll
                    for (int j = 0; j < U; j++) {
                        if (old[j] != -1) continue;
                        atomicOr(&visited[v[j] >> 5], 1u << (v[j] & 31));
                        parent[v[j]] = from[j];
                        do_found(ctl, off, qout, v[j], t);
                    }
                }
            }
#undef DO_BIG_FIND
        }
    } else {
        for (int i = blockIdx.x; i < nb; i += gridDim.x) {
            int u = big[i];
            long long b = off[u], e = off[u + 1];
            if (threadIdx.x == 0) t.insp += e - b;
            do_range(off, adj, depth, parent, visited, ctl, qout, u, b + threadIdx.x, e, blockDim.x, L, t);
        }
    }
}

// do_pull_part: the bottom-up level; a vertex of fewer than DO_PULL_WARP
// in-arcs scanned by its own thread, U in-arcs at a time (BODY_U in
// ad_persist, 1 in do_finish).
template <int U>
__device__ __forceinline__ void do_pull_part(const long long* off, const long long* ioff, const int* iadj, int n,
                                             int* depth, int* parent, unsigned* visited, int* ctl, int L, Tally& t) {
    // whole warps per round, for the ballots
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int v = base + threadIdx.x;
        unsigned bit = 1u << (v & 31);
        long long b = 0, e = 0;
        if (v < n && !(visited[v >> 5] & bit)) {
            b = ioff[v];
            e = ioff[v + 1];
        }
        unsigned want = __ballot_sync(0xffffffffu, e - b >= DO_PULL_WARP);
        while (want) {
            int leader = __ffs(want) - 1;
            want &= want - 1;
            int wv = __shfl_sync(0xffffffffu, v, leader);
            long long wb = __shfl_sync(0xffffffffu, b, leader);
            long long we = __shfl_sync(0xffffffffu, e, leader);
            for (long long c = wb; c < we; c += 32) {
                long long k = c + lane_id();
                int u = k < we ? iadj[k] : -1;
                unsigned hit = __ballot_sync(0xffffffffu, u >= 0 && depth[u] == L);
                if (lane_id() == leader) t.insp += min(32LL, we - c);
                if (hit) {
                    int first = __ffs(hit) - 1;
                    if (lane_id() == first) {
                        depth[wv] = L + 1;
                        atomicOr(&visited[wv >> 5], 1u << (wv & 31));
                        parent[wv] = u;
                        found<CNT_BLOCK>(ctl, off, wv, true, t);
                    }
                    break;
                }
            }
        }
        if (e - b < DO_PULL_WARP) pull_serial<CNT_BLOCK, U>(off, iadj, depth, parent, visited, ctl, v, b, e, L, true, t);
    }
}

// do_finish: top-down, the big list's arcs over the whole grid: a list of
// up to DO_CHUNKS chunks of DO_SMALL vertices has each chunk's arcs dealt
// evenly, each block scanning their degrees in shared memory and each
// thread finding the vertex of its arcs by binary search (a Kronecker
// graph's second level is a hundred hubs holding a million arcs, which a
// grouping by vertex leaves to the few blocks that own them: 1 ms against
// lb-cull's 0.13 on scale 22); a longer one, a block per vertex in turn.
// Bottom-up: a thread per unvisited vertex over its in-arcs to the first
// in the frontier, or, from DO_PULL_WARP in-arcs, its warp 32 in-arcs at a
// time (a circuit's hub scanned by one thread took a level ten times a
// push's); no queue (the stamps are the next frontier), the discovered
// vertices counted with their out-arcs. Then the level closed.
extern "C" __global__ void __launch_bounds__(THREADS, 8) do_finish(const long long* off, const int* adj, const long long* ioff,
                                                                const int* iadj, int n, long long m, int* depth,
                                                                int* parent, unsigned* visited, int* ctl, int* q0,
                                                                int* q1, const int* big, float alpha, float beta,
                                                                u64* ring) {
    const DoLevel lv = do_read(ctl, n, m, alpha, beta);
    if (lv.nin == 0) return;
    const int bu = lv.bu, L = lv.L;
    Tally t{};
    if (bu) {
        do_pull_part<1>(off, ioff, iadj, n, depth, parent, visited, ctl, L, t);
    } else {
        do_big_part<1>(off, adj, depth, parent, visited, ctl, (L & 1) ? q0 : q1, big, L, t);
    }
    finish_level<CNT_BLOCK>(ctl, t, true, ring, bu);
}

// ------------------------------------------------- adaptive, decided on the device

// ad_level runs BFS levels whose implementation a decision tree picks on
// the device: the closer of each level (the last block's first thread)
// describes the next level from the counters it has just closed (the
// features of package adaptive, as its Tracker computes them) and walks
// the tree, whose leaves name a body; the next launch runs that body. No
// host round trip decides anything, so a captured graph holds LevelsPerGraph
// launches of ad_level as it holds a fixed strategy's levels. The bodies
// are the paper's implementations (the name_t functions above, the same
// code as their own kernels) and do-beamer's: a top-down do-beamer level
// whose big list is empty closes in its first launch, one with big
// vertices in a second (C_PHASE), a pulled one in one. The frontier of a
// level is the queue when the level before wrote one (C_QOK: do-beamer's
// push) and the stamps otherwise.
#define C_CHOICE 16 // the body of the current level
#define C_PHASE 17  // 1: the current level's big list waits for its second launch
#define C_QOK 18    // the current level's queue is whole
#define C_STOP 19   // ad_level runs no level from this one on (the sweep's one level)
#define C_YIELD 20  // ad_persist leaves the current level (or pass) to ad_heavy (yield_ok)
#define C_GEN 128   // ad_persist's barrier generation (traversal.cu's persistent kernel's word)
#define C_DISC 142  // u64: vertices discovered so far, the frontier's included

// The bodies (the host's deviceBody): the paper's implementations by
// counting method, the virtual warps, do-beamer.
#define B_EL 0
#define B_REL 3
#define B_VPUSH 6
#define B_VPULL 9
#define B_VW 12 // 12 to 16: 2 to 32 lanes
#define B_DO 17
#define B_SOLO 18 // ad_persist's one block for a small queued frontier (ad_solo)

// A queued frontier of at most SOLO_V vertices and soloArcs out-arcs is
// ad_persist's one block's (ad_solo): see there.
#define SOLO_V 2048
__device__ __forceinline__ bool solo_ok(int soloArcs, bool queued, int nin, u64 mf) {
    return soloArcs > 0 && queued && nin > 0 && nin <= SOLO_V && mf <= (u64)soloArcs;
}

// The device's log of a search: LOG_WORDS words a level: its frontier's
// vertices, out-arcs and largest degree, the body that runs it, then the
// global timer (ns) when the level was opened (its control words written
// and its body chosen) and when its last block finished it (0 where not
// known: the levels handed to the persistent kernel), and 1 where ad_heavy
// ran the level (or its second pass).
#define LOG_WORDS 8
#define LOG_OPEN 4
#define LOG_END 5
#define LOG_HEAVY 6
__device__ __forceinline__ u64 global_ns() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The tree as the host uploads it (adaptive.Tree with each leaf's
// candidate mapped to its body), after an AdGraph header.
#define AD_MAXNODES 256
struct AdNode {
    double thr;
    int feature, left, right, body; // feature < 0: a leaf
};
struct AdGraph { // the graph's features (adaptive.GraphStats)
    double n, m, maxdeg, cv;
    long long nodes, pad[3];
};

// B_HANDOFF: ad_persist returns and traversal.cu's persistent kernel, the
// next launch of the search's graph, runs the levels left (it resumes from
// the control block and the queue). A level of ad_persist's grid costs
// about twice the persistent kernel's (528 blocks meet its barrier against
// 132, and the closer walks the tree), which decides a search of
// thousands of levels whose frontiers outgrow the one block (a large road
// grid, a 3-D mesh); so from level `handoff` on, a queued frontier too
// large for the one block, on a graph of at most HANDOFF_MAXDEG out-arcs a
// vertex (the persistent kernel gives a vertex's arcs to one thread), goes
// there.
// Where a level can be handed off, the one block keeps it only up to
// HANDOFF_SOLO out-arcs: its level costs about 4 us + 15 ns a vertex, the
// persistent kernel's about 10 us (a 3000x3000 road grid: 22 us for the
// block's levels of 1000 to 1500 vertices).
#define B_HANDOFF 19
#define HANDOFF_MAXDEG 32
#define HANDOFF_SOLO 1024
__device__ __forceinline__ bool handoff_ok(int handoff, const AdGraph& g, bool queued, int level, int nin) {
    return handoff > 0 && queued && nin > 0 && level >= handoff && g.maxdeg <= HANDOFF_MAXDEG;
}

// C_YIELD: ad_persist returns before a heavy level, ad_heavy (a
// standalone kernel's occupancy: 8 blocks an SM against ad_persist's 4,
// whose registers its bodies need) runs it and closes it, and the next
// ad_persist goes on. Heavy: a vertex-pull level or a do-beamer pull of at
// least heavyArcs unexplored arcs (a scan of every unvisited vertex's
// in-arcs), or the second pass of a do-beamer push whose frontier has at
// least heavyArcs out-arcs (the big list's arcs); latency-bound at half the threads
// (the device's clock, Kronecker scale 23: a pull level of 496 us in
// ad_persist against 268 us in the vertex pull's own kernel, a push of
// hubs 912 us against do-beamer's 604). A yield costs two launches.
__device__ __forceinline__ bool yield_ok(long long heavyArcs, const AdGraph& g, int body, double darcs) {
    return heavyArcs > 0 && body >= B_VPULL && body < B_VPULL + 3 && g.m - darcs >= (double)heavyArcs;
}

// The features' indices (adaptive.Feature).
enum {
    F_LEVEL, F_VERTICES, F_ARCS, F_AVGDEG, F_MAXDEG, F_DEGCV, F_NF, F_MF, F_FFRAC, F_DFRAC, F_UAFRAC, F_FMEANDEG,
    F_FMAXDEG, F_UMEANDEG, F_PREVNF, F_GROWTH, F_F2U, F_COUNT
};

__device__ __forceinline__ double ad_ratio(double a, double b) { return b == 0 ? 0 : a / b; }

// ad_choose is the tree's body for the level whose frontier has nf
// vertices, mf out-arcs and largest degree mx, with disc vertices and darcs
// out-arcs discovered so far (the frontier's included) and prev vertices in
// the frontier before: adaptive.Tracker.Next's features, then the walk.
__device__ int ad_choose(const AdGraph& g, const AdNode* tree, int level, double nf, double mf, double mx, double disc,
                         double darcs, double prev) {
    double f[F_COUNT];
    double unexplored = fmax(g.m - darcs, 0.0), unvisited = fmax(g.n - disc, 0.0);
    f[F_LEVEL] = level;
    f[F_VERTICES] = g.n;
    f[F_ARCS] = g.m;
    f[F_AVGDEG] = ad_ratio(g.m, g.n);
    f[F_MAXDEG] = g.maxdeg;
    f[F_DEGCV] = g.cv;
    f[F_NF] = nf;
    f[F_MF] = mf;
    f[F_FFRAC] = ad_ratio(nf, g.n);
    f[F_DFRAC] = ad_ratio(disc, g.n);
    f[F_UAFRAC] = ad_ratio(unexplored, g.m);
    f[F_FMEANDEG] = ad_ratio(mf, nf);
    f[F_FMAXDEG] = mx;
    f[F_UMEANDEG] = ad_ratio(unexplored, unvisited);
    f[F_PREVNF] = prev;
    f[F_GROWTH] = nf / fmax(prev, 1.0);
    f[F_F2U] = mf / fmax(unexplored, 1.0);
    int i = 0;
    for (int step = 0; tree[i].feature >= 0 && step < AD_MAXNODES; step++) // (the host checked the tree: the bound is a guard)
        i = f[tree[i].feature] <= tree[i].thr ? tree[i].left : tree[i].right;
    return tree[i].body;
}

// ad_open writes the control words of level `level` (nin vertices, mf
// out-arcs; darcs and disc discovered so far, its own included) after the
// level before ran in direction bu and wrote a queue or not (queued):
// ad_close's and ad_solo's, the words written without waiting for any.
__device__ __forceinline__ void ad_open(int* ctl, int level, int nin, u64 mf, u64 darcs, u64 disc, int bu,
                                        bool queued) {
    volatile int* c = ctl;
    c[C_IN] = nin;
    c[C_OUT] = 0;
    c[C_LEVEL] = level;
    c[C_BU] = bu;
    c[C_BIG] = 0;
    c[C_PHASE] = 0;
    c[C_QOK] = queued;
    c[C_YIELD] = 0; // the closer sets it once the body is chosen
    c[C_MAXD] = 0;
    c[C_RLEVEL] = level;
    *(volatile u64*)&ctl[C_MF] = 0;
    *(volatile u64*)&ctl[C_CURMF] = mf;
    *(volatile u64*)&ctl[C_DARCS] = darcs;
    *(volatile u64*)&ctl[C_DISC] = disc;
}

// ad_close is finish_level for ad_level, run by the closer: the level
// closed as advance and close_counters do, but read from s, a snapshot of
// the control block that the closing block loaded at once (every block's
// atomics done: the ticket), and written back word by word without waiting
// for any: the closer's chain of dependent reads of the control block was
// most of a small level's time (Nsight Compute, a 30-vertex graph: 10.8 us
// a level against 7.0 for the edge list's own kernel). Then the next
// level's body chosen and the level's row of the log written (its
// frontier's counters and the body that runs it); with a ring (the
// sweep's) the counters are posted there too.
__device__ void ad_close(int* ctl, const int* s, const AdGraph& g, const AdNode* tree, int bu, bool queued, u64* ring,
                         u64* log, int logCap, int soloArcs, int handoff, long long heavyArcs, u64 ended) {
    volatile int* c = ctl;
    const u64* s64 = (const u64*)s;
    int prev = s[C_IN];
    int out = s[C_OUT];
    if (out > s[C_CAP]) { c[C_OVERFLOW] = 1; out = 0; } // stop: the host reports it
    int level = s[C_LEVEL] + 1;
    if (level - 1 < logCap) log[(long long)(level - 1) * LOG_WORDS + LOG_END] = ended;
    unsigned mx = (unsigned)s[C_MAXD];
    u64 mf = s64[C_MF / 2];
    u64 darcs = s64[C_DARCS / 2] + mf, disc = s64[C_DISC / 2] + (u64)out;
    ad_open(ctl, level, out, mf, darcs, disc, bu, queued);
    if (bu) c[C_NPULL] = s[C_NPULL] + 1;
    if (ring) {
        volatile u64* r = ring + (long long)(level & (RING_SLOTS - 1)) * RING_WORDS;
        r[1] = (u64)(unsigned)out;
        r[2] = mf;
        r[3] = (u64)mx;
        __threadfence_system();
        r[0] = ((u64)(unsigned)s[C_EPOCH] << 32) | (u64)(unsigned)level;
    }
    if (out > 0) {
        // a level the one block takes (ad_solo) or the persistent kernel
        // needs no walk of the tree
        const bool hand = handoff_ok(handoff, g, queued, level, out);
        int body = solo_ok(soloArcs, queued, out, mf) && !(hand && mf > HANDOFF_SOLO)
                       ? B_SOLO
                   : hand ? B_HANDOFF
                          : ad_choose(g, tree, level, out, (double)mf, mx, (double)disc, (double)darcs, prev);
        c[C_CHOICE] = body;
        c[C_YIELD] = yield_ok(heavyArcs, g, body, (double)darcs);
        if (level < logCap) {
            volatile u64* r = log + (long long)level * LOG_WORDS;
            r[0] = (u64)(unsigned)out;
            r[1] = mf;
            r[2] = mx;
            r[3] = (u64)body;
            r[LOG_OPEN] = global_ns();
            r[LOG_HEAVY] = 0;
        }
    }
    // (no fence: the next level is the next launch, which sees every write)
}

// ad_finish ends a block's part of an ad_level level: its tallies flushed
// by the body's counting method, the ticket, and for the last block either
// the close (ad_close) or, after a do-beamer push with big vertices, the
// second phase. Only the last block reads the tree, all its threads
// loading it into shared memory at once: a tree loaded by every block
// would delay every block's exit on the small levels where the launch is
// all the cost. Every thread of the block calls it.
struct AdShared { // ad_finish's shared memory, one copy for every body
    AdGraph g;
    AdNode tree[AD_MAXNODES];
    int ctl[CTL_WORDS]; // the closer's snapshot of the control block
    int last;
    int blocks;  // the blocks taking part in the level (ad_run sets it)
    int split;   // the closing block leaves the level to a second pass (do-beamer's big list)
    int persist; // ad_persist: a grid barrier ends each level, not the launch
    int gen;     // ad_persist: the barrier's generation this block waits past
    int haveTree; // g and tree hold the tree (ad_persist loads it once, at its start)
    int solo;     // ad_persist: ad_solo's arc bound (0: never)
    int handoff;  // ad_persist: the first level it may hand to the persistent kernel (0: never)
    long long heavyArcs; // ad_persist: it yields a level of this many arcs to ad_heavy (yield_ok; 0: never)
};
extern __shared__ AdShared ad_shared[]; // ad_level's and ad_persist's dynamic shared memory
// ad_load_tree loads the tree into the block's shared memory (every
// thread calls it; the caller's barrier orders it before its use).
__device__ __forceinline__ void ad_load_tree(const AdGraph* tg) {
    AdShared& sh = ad_shared[0];
    if (threadIdx.x == 0) sh.g = *tg;
    const AdNode* gtree = (const AdNode*)(tg + 1);
    for (int i = threadIdx.x; i < AD_MAXNODES; i += blockDim.x) sh.tree[i] = gtree[i];
}

// ad_wait has thread 0 of a block of ad_persist wait for the closer's
// release (as cooperative groups' grid sync: thread 0 fences, the block's
// barrier after it orders its threads' loads); sleeping between polls
// while one block runs levels alone (ad_solo), whose loads the polls of
// every other block would slow.
__device__ __forceinline__ void ad_wait(int* ctl, bool sleep) {
    AdShared& sh = ad_shared[0];
    volatile int* c = ctl;
    long long t0 = clock64();
    while (c[C_GEN] == sh.gen) {
        if (sleep) __nanosleep(200);
        if (clock64() - t0 > (1LL << 33)) { // about 4 s: a grid not all resident
            c[C_OVERFLOW] = 2;
            c[C_IN] = 0;
            break;
        }
    }
    __threadfence();
    sh.gen++;
}

template <int CNT>
__device__ void ad_finish(int* ctl, Tally t, const AdGraph* tg, int bu, bool queued, bool split, u64* ring, u64* log,
                          int logCap) {
    AdShared& sh = ad_shared[0];
    volatile int* c = ctl;
    flush_tally<CNT>(ctl, t, true);
    u64 ended = 0; // thread 0's: when the level's last block finished it
    if (threadIdx.x == 0) {
        sh.last = atomicAdd((unsigned*)&ctl[C_TICKET], 1u) == sh.blocks - 1;
        if (sh.last) {
            ended = global_ns();
            __threadfence();
            sh.split = split && c[C_BIG] > 0;
        }
    }
    __syncthreads();
    if (sh.last) {
        if (sh.split) {
            if (threadIdx.x == 0) {
                c[C_TICKET] = 0;
                c[C_PHASE] = 1;
                // the big list's arcs (the frontier's, most of them) to ad_heavy
                c[C_YIELD] = sh.heavyArcs > 0 && ctl_u64(ctl, C_CURMF) >= (u64)sh.heavyArcs;
            }
        } else {
            if (!sh.haveTree) ad_load_tree(tg);
            for (int i = threadIdx.x; i < CTL_WORDS; i += blockDim.x) sh.ctl[i] = c[i];
            __syncthreads();
            if (threadIdx.x == 0) {
                c[C_TICKET] = 0;
                ad_close(ctl, sh.ctl, sh.g, sh.tree, bu, queued, ring, log, logCap, sh.solo, sh.handoff, sh.heavyArcs,
                         ended);
            }
        }
        if (sh.persist && threadIdx.x == 0) { // release the others
            __threadfence();
            c[C_GEN] = ++sh.gen;
        }
    } else if (sh.persist && threadIdx.x == 0) {
        ad_wait(ctl, false);
    }
    if (sh.persist) __syncthreads();
}

// ad_solo: a small frontier's levels in one block. A level of the grid
// costs ad_persist about 10 us whatever its size (a ticket from every
// block, the closer's reads, the barrier; a road graph's 2000 levels of a
// thousand vertices are all that), so while the queued frontier is at most
// SOLO_V vertices and soloArcs out-arcs, block 0 runs its levels alone, a
// block barrier between them, and the other blocks wait at the grid's. A
// level: the frontier's vertices and degrees into shared memory, a scan of
// the degrees, then the arcs dealt SOLO_U consecutive ones a thread, each
// thread's loads of targets, of their visited words and its CASes issued
// together (one block has few loads in flight: issued one arc at a time, a
// level of a thousand arcs was a chain of dependent round trips per
// thread). Each level's row of the log is written as a closer would (its
// counters, body B_SOLO); when the frontier outgrows the bounds (or after
// SOLO_LEVELS levels, which keeps the waiting blocks' timeout far), the
// block closes the level as ad_close does, the tree picking the next body,
// and releases the grid.
#define SOLO_U 4
#define SOLO_LEVELS 512
struct SoloShared {
    int u[SOLO_V];
    long long b[SOLO_V]; // off[u]
    int end[SOLO_V];     // the degrees, then their inclusive prefix sums (a level the block runs has < 2^30 arcs)
    int warp[THREADS / 32];
    u64 total;
    unsigned maxd;
    int out, over;
};

__device__ void ad_solo(const long long* off, const int* adj, int* depth, int* parent, unsigned* visited, int* ctl,
                        int* q0, int* q1, u64* log, int logCap, int level, int cur) {
    __shared__ SoloShared s;
    AdShared& sh = ad_shared[0];
    volatile int* c = ctl;
    const int t = threadIdx.x, per = SOLO_V / THREADS;
    const int cap = ctl_word(ctl, C_CAP);
    u64 darcs = ctl_u64(ctl, C_DARCS), disc = ctl_u64(ctl, C_DISC), insp = 0; // thread 0's
    int prev = 0;
    for (int step = 0;; step++) {
        const int* qin = (level & 1) ? q1 : q0;
        int* qout = (level & 1) ? q0 : q1;
        if (t == 0) {
            s.total = 0;
            s.maxd = 0;
            s.out = 0;
            s.over = 0;
        }
        __syncthreads();
        // the frontier: its vertices, arcs' starts and degrees, four
        // vertices' loads a thread at once (degree 0 past the frontier);
        // of a frontier too large to hold, the counters only (the close)
        long long dsum = 0;
        unsigned mx = 0;
        if (cur <= SOLO_V) {
#pragma unroll
            for (int h = 0; h < per; h += 4) {
                int u[4];
                long long b[4], e[4];
#pragma unroll
                for (int j = 0; j < 4; j++) u[j] = (h + j) * THREADS + t < cur ? qin[(h + j) * THREADS + t] : -1;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    b[j] = u[j] >= 0 ? off[u[j]] : 0;
                    e[j] = u[j] >= 0 ? off[u[j] + 1] : 0;
                }
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int i = (h + j) * THREADS + t;
                    s.u[i] = u[j];
                    s.b[i] = b[j];
                    s.end[i] = (int)(e[j] - b[j]);
                    dsum += e[j] - b[j];
                    mx = max(mx, (unsigned)(e[j] - b[j]));
                }
            }
        } else {
            for (int i = t; i < cur; i += THREADS) {
                int u = qin[i];
                long long d = off[u + 1] - off[u];
                dsum += d;
                mx = max(mx, (unsigned)d);
            }
        }
        u64 ws = warp_sum((u64)dsum);
        mx = __reduce_max_sync(0xffffffffu, mx);
        if (lane_id() == 0) {
            if (ws) atomicAdd(&s.total, ws);
            if (mx) atomicMax(&s.maxd, mx);
        }
        __syncthreads();
        const long long total = (long long)s.total;
        mx = s.maxd;
        // step 0's frontier was closed (and counted) by the closer before;
        // after SOLO_LEVELS the grid's barrier is met once, and the next
        // level is the block's again
        const bool hand = handoff_ok(sh.handoff, sh.g, true, level, cur);
        const bool ok = solo_ok(sh.solo, true, cur, (u64)total) && !(hand && total > HANDOFF_SOLO);
        const bool go = cur > 0 && (step == 0 || (ok && step < SOLO_LEVELS));
        int body = B_SOLO; // thread 0's
        if (t == 0 && cur > 0) {
            if (step > 0) {
                darcs += (u64)total;
                disc += (u64)cur;
            }
            if (!ok)
                body = hand ? B_HANDOFF
                            : ad_choose(sh.g, sh.tree, level, cur, (double)total, mx, (double)disc, (double)darcs, prev);
            if (level < logCap) {
                volatile u64* r = log + (long long)level * LOG_WORDS;
                r[0] = (u64)(unsigned)cur;
                r[1] = (u64)total;
                r[2] = mx;
                r[3] = (u64)body;
                r[LOG_HEAVY] = 0;
            }
        }
        if (!go) { // the level closed as ad_close does; the grid goes on
            if (t == 0) {
                c[C_CHOICE] = body;
                c[C_YIELD] = yield_ok(sh.heavyArcs, sh.g, body, (double)darcs);
                ad_open(ctl, level, cur, (u64)total, darcs, disc, 0, true);
                if (level < logCap) log[(long long)level * LOG_WORDS + LOG_OPEN] = global_ns();
                *(volatile u64*)&ctl[C_INSPECTED] = ctl_u64(ctl, C_INSPECTED) + insp;
                __threadfence();
                c[C_GEN] = ++sh.gen;
            }
            return;
        }
        { // the degrees' inclusive scan: thread t owns entries [t*per, t*per+per)
            int sum = 0;
#pragma unroll
            for (int j = 0; j < per; j++) sum += s.end[t * per + j];
            int x = sum;
            for (int o = 1; o < 32; o <<= 1) {
                int y = __shfl_up_sync(0xffffffffu, x, o);
                if (lane_id() >= o) x += y;
            }
            if (lane_id() == 31) s.warp[t >> 5] = x;
            __syncthreads();
            int before = x - sum;
            for (int w = 0; w < (t >> 5); w++) before += s.warp[w];
#pragma unroll
            for (int j = 0; j < per; j++) {
                before += s.end[t * per + j];
                s.end[t * per + j] = before;
            }
            __syncthreads();
        }
        // the level: SOLO_U consecutive arcs a thread, SOLO_U * THREADS a round
        for (int base = 0; base < total; base += SOLO_U * THREADS) {
            const int k0 = base + t * SOLO_U;
            int v[SOLO_U], from[SOLO_U] = {};
            int i = 0;
            if (k0 < total) { // the vertex of arc k0: the first i with end[i] > k0
                int lo = 0, hi = cur - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >> 1;
                    if (s.end[mid] > k0) hi = mid; else lo = mid + 1;
                }
                i = lo;
            }
#pragma unroll
            for (int j = 0; j < SOLO_U; j++) {
                const int k = k0 + j;
                v[j] = -1;
                if (k < total) {
                    while (k >= s.end[i]) i++;
                    from[j] = s.u[i];
                    v[j] = adj[s.b[i] + k - (i ? s.end[i - 1] : 0)];
                }
            }
            int old[SOLO_U];
            claim_batch<SOLO_U>(depth, visited, v, level, old);
#pragma unroll
            for (int j = 0; j < SOLO_U; j++) {
                if (old[j] != -1) continue;
                atomicOr(&visited[v[j] >> 5], 1u << (v[j] & 31));
                parent[v[j]] = from[j];
                int at = atomicAdd(&s.out, 1);
                if (at < cap) qout[at] = v[j]; else s.over = 1;
            }
        }
        __syncthreads(); // the queue and its count, the block's stores seen by the block
        const int next = s.out, over = s.over;
        __syncthreads(); // read by all before thread 0 clears them
        if (t == 0) {
            insp += (u64)total;
            const u64 now = global_ns(); // the level's end, the next one's opening
            if (level < logCap) log[(long long)level * LOG_WORDS + LOG_END] = now;
            if (level + 1 < logCap) log[(long long)(level + 1) * LOG_WORDS + LOG_OPEN] = now;
        }
        if (over && t == 0) c[C_OVERFLOW] = 1; // stop: the host reports it
        prev = cur;
        cur = over ? 0 : next;
        level++;
    }
}

// ad_run runs one level (or do-beamer's first pass of one) of ad_level or
// ad_persist; false when there is none (the search is over, or the
// sweep's one level is done). ad_level: the paper's arguments (count
// ignored: always counted; ring, where not null, gets the counters of
// every level closed), do-beamer's, the tree (header and nodes) and the log (LOG_WORDS words a
// level: vertices, out-arcs and largest degree of its frontier, its body;
// logCap levels).
#define ADARGS                                                                                                   \
    PARGS, int *q0, int *q1, int *big, int twarp, float alpha, float beta, const AdGraph *tg, u64 *log, int logCap, \
        int soloArcs, int handoff, long long heavyArcs
template <int CNT>
__device__ __forceinline__ Tally edge_list_ad(PARGS, int L) { return edge_list_t<CNT, BODY_U>(PASS, L); }
template <int CNT>
__device__ __forceinline__ Tally vertex_pull_ad(PARGS, int L) { return vertex_pull_t<CNT, BODY_U>(PASS, L); }
template <bool PERSIST>
__device__ __forceinline__ bool ad_run(ADARGS) {
    __shared__ int s_nin, s_L, s_body, s_phase, s_qok, s_bu, s_solo, s_yield;
    if (threadIdx.x == 0) {
        s_nin = ctl_word(ctl, C_LEVEL) >= ctl_word(ctl, C_STOP) ? 0 : ctl_word(ctl, C_IN);
        s_L = ctl_word(ctl, C_LEVEL);
        if (blockIdx.x == 0 && s_L == 0 && logCap > 0 && ((volatile u64*)log)[LOG_OPEN] == 0) log[LOG_OPEN] = global_ns();
        s_body = ctl_word(ctl, C_CHOICE);
        s_yield = PERSIST && ad_shared[0].heavyArcs > 0 && ctl_word(ctl, C_YIELD);
        s_phase = ctl_word(ctl, C_PHASE);
        s_qok = ctl_word(ctl, C_QOK);
        s_bu = 0;
        if (s_body == B_DO && !s_phase) { // Beamer's rule, as do_read
            u64 dis = ctl_u64(ctl, C_DARCS), cur = ctl_u64(ctl, C_CURMF);
            double mu = dis >= (u64)m ? 0.0 : (double)((u64)m - dis);
            s_bu = ctl_word(ctl, C_BU) ? !((double)s_nin * (double)beta < (double)n) : (double)cur * (double)alpha > mu;
            // a pull over heavyArcs unexplored arcs or more: ad_heavy's
            // (every block decides alike from the same words)
            if (PERSIST && s_bu && ad_shared[0].heavyArcs > 0 && mu >= (double)ad_shared[0].heavyArcs) {
                s_yield = 1;
                if (blockIdx.x == 0) ((volatile int*)ctl)[C_YIELD] = 1;
            }
        }
        // A top-down do-beamer level deals its queue (or the stamps) a
        // thread an item: the blocks past the items have nothing to do,
        // and leave without a ticket (on a road graph's levels, nearly all
        // of them; 528 tickets on one word are a good part of a small
        // level). The others take part in every level.
        int blocks = gridDim.x;
        if (s_body == B_DO && !s_phase && !s_bu && !ad_shared[0].persist) { // (every block meets ad_persist's barrier)
            int items = s_qok ? s_nin : n;
            blocks = min(blocks, (items + (int)blockDim.x - 1) / (int)blockDim.x);
        }
        ad_shared[0].blocks = blocks;
        s_solo = PERSIST && !s_phase && solo_ok(ad_shared[0].solo, s_qok, s_nin, ctl_u64(ctl, C_CURMF));
    }
    __syncthreads();
    const int nin = s_nin, L = s_L;
    if (nin == 0 || s_body == B_HANDOFF || s_yield) return false; // over, the persistent kernel's, or ad_heavy's
    if (PERSIST && s_solo) { // block 0 alone, the others at the grid's barrier
        if (blockIdx.x == 0) {
            ad_solo(off, adj, depth, parent, visited, ctl, q0, q1, log, logCap, L, nin);
        } else if (threadIdx.x == 0) {
            ad_wait(ctl, true);
        }
        __syncthreads();
        return true;
    }
    if ((int)blockIdx.x >= ad_shared[0].blocks) return true;
    count = 1;
    int* qout = (L & 1) ? q0 : q1;
    if (s_phase) { // do-beamer's big list
        Tally t{};
        do_big_part<BODY_U>(off, adj, depth, parent, visited, ctl, qout, big, L, t);
        ad_finish<CNT_BLOCK>(ctl, t, tg, 0, true, false, ring, log, logCap);
        return true;
    }
    switch (s_body) {
#define AD_CNT(base, fn)                                                                                          \
    case base + CNT_ATOMIC: ad_finish<CNT_ATOMIC>(ctl, fn<CNT_ATOMIC>(PASS, L), tg, 0, false, false, ring, log, logCap); break; \
    case base + CNT_WARP: ad_finish<CNT_WARP>(ctl, fn<CNT_WARP>(PASS, L), tg, 0, false, false, ring, log, logCap); break;       \
    case base + CNT_BLOCK: ad_finish<CNT_BLOCK>(ctl, fn<CNT_BLOCK>(PASS, L), tg, 0, false, false, ring, log, logCap); break;
        AD_CNT(B_EL, edge_list_ad)
        AD_CNT(B_REL, rev_edge_list_t)
        AD_CNT(B_VPUSH, vertex_push_t)
        AD_CNT(B_VPULL, vertex_pull_ad)
#undef AD_CNT
#define AD_VW(i, w) \
    case B_VW + i: ad_finish<CNT_WARP>(ctl, vw_push_t<w, CNT_WARP>(PASS, L), tg, 0, false, false, ring, log, logCap); break;
        AD_VW(0, 2)
        AD_VW(1, 4)
        AD_VW(2, 8)
        AD_VW(3, 16)
        AD_VW(4, 32)
#undef AD_VW
    default: // B_DO
        if (s_bu) {
            Tally t{};
            do_pull_part<BODY_U>(off, ioff, iadj, n, depth, parent, visited, ctl, L, t);
            ad_finish<CNT_BLOCK>(ctl, t, tg, 1, false, false, ring, log, logCap);
        } else {
            Tally t = do_push_t(off, adj, n, depth, parent, visited, ctl, (L & 1) ? q1 : q0, qout, big, twarp, L, nin,
                                !s_qok);
            ad_finish<CNT_BLOCK>(ctl, t, tg, 0, true, true, ring, log, logCap);
        }
    }
    return true;
}
#define ADPASS PASS, q0, q1, big, twarp, alpha, beta, tg, log, logCap, soloArcs, handoff, heavyArcs

// ad_level runs one launch's worth: a level, or a do-beamer level's first
// pass (the sweep, and a search of captured launches).
extern "C" __global__ void __launch_bounds__(THREADS, AD_MINB) ad_level(ADARGS) {
    if (threadIdx.x == 0) {
        ad_shared[0].persist = ad_shared[0].haveTree = ad_shared[0].solo = ad_shared[0].handoff = 0;
        ad_shared[0].heavyArcs = 0;
    }
    ad_run<false>(ADPASS);
}

// ad_persist runs the whole search in one launch: after each level a grid
// barrier whose last arrival closes the level and decides the next (the
// closer of ad_finish), the others waiting on C_GEN. Its grid must be all
// resident (AD_MINB blocks an SM where the device allows; the host asks the driver how many): a grid
// that is not times out in about 4 s with C_OVERFLOW = 2.
extern "C" __global__ void __launch_bounds__(THREADS, AD_MINB) ad_persist(ADARGS) {
    __shared__ int s_idle;
    if (threadIdx.x == 0) { // a launch after the search's end, a hand-off or a yield: no tree to load
        const int body = ctl_word(ctl, C_CHOICE);
        s_idle = ctl_word(ctl, C_IN) == 0 || ctl_word(ctl, C_LEVEL) >= ctl_word(ctl, C_STOP) || body == B_HANDOFF ||
                 (heavyArcs > 0 && ctl_word(ctl, C_YIELD));
    }
    __syncthreads();
    if (s_idle) return;
    ad_load_tree(tg); // once: whichever block closes a level has it
    if (threadIdx.x == 0) {
        ad_shared[0].persist = ad_shared[0].haveTree = 1;
        ad_shared[0].solo = soloArcs;
        ad_shared[0].handoff = handoff;
        ad_shared[0].heavyArcs = heavyArcs;
        ad_shared[0].gen = ctl_word(ctl, C_GEN);
    }
    __syncthreads();
    while (ad_run<true>(ADPASS)) {
    }
}

// ad_heavy runs the level (or do-beamer's second pass) ad_persist
// yielded (C_YIELD) at a standalone kernel's occupancy, and closes it as
// ad_level's closer does, with ad_persist's rules for the next level
// (heavyArcs, solo, handoff): a later ad_persist goes on from there.
// Without a yielded level it returns at once.
extern "C" __global__ void __launch_bounds__(THREADS, 8) ad_heavy(ADARGS) {
    __shared__ int s_go, s_body, s_L, s_phase;
    if (threadIdx.x == 0) {
        AdShared& sh = ad_shared[0];
        sh.persist = sh.haveTree = 0;
        sh.solo = soloArcs;
        sh.handoff = handoff;
        sh.heavyArcs = heavyArcs;
        sh.blocks = gridDim.x;
        s_L = ctl_word(ctl, C_LEVEL);
        s_body = ctl_word(ctl, C_CHOICE);
        s_phase = ctl_word(ctl, C_PHASE);
        s_go = ctl_word(ctl, C_YIELD) && ctl_word(ctl, C_IN) > 0 && s_L < ctl_word(ctl, C_STOP);
    }
    __syncthreads();
    if (!s_go) return;
    if (blockIdx.x == 0 && threadIdx.x == 0 && s_L < logCap) log[(long long)s_L * LOG_WORDS + LOG_HEAVY] = 1;
    count = 1;
    if (s_phase) { // do-beamer's big list, as do_finish takes it
        Tally t{};
        do_big_part<1>(off, adj, depth, parent, visited, ctl, (s_L & 1) ? q0 : q1, big, s_L, t);
        ad_finish<CNT_BLOCK>(ctl, t, tg, 0, true, false, ring, log, logCap);
        return;
    }
    switch (s_body) {
    case B_DO: { // a do-beamer pull (ad_run's rule), as do_finish pulls
        Tally t{};
        do_pull_part<1>(off, ioff, iadj, n, depth, parent, visited, ctl, s_L, t);
        ad_finish<CNT_BLOCK>(ctl, t, tg, 1, false, false, ring, log, logCap);
        break;
    }
    case B_VPULL + CNT_ATOMIC:
        ad_finish<CNT_ATOMIC>(ctl, vertex_pull_t<CNT_ATOMIC>(PASS, s_L), tg, 0, false, false, ring, log, logCap);
        break;
    case B_VPULL + CNT_WARP:
        ad_finish<CNT_WARP>(ctl, vertex_pull_t<CNT_WARP>(PASS, s_L), tg, 0, false, false, ring, log, logCap);
        break;
    default:
        ad_finish<CNT_BLOCK>(ctl, vertex_pull_t<CNT_BLOCK>(PASS, s_L), tg, 0, false, false, ring, log, logCap);
    }
}

// ad_begin: ad_level's control words for a search (after init and
// abegin): the root's level runs body `body` (the host's choice from
// RootCounters), from the queue init wrote, with the root discovered.
extern "C" __global__ void ad_begin(int* ctl, int body, u64* log) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    ctl[C_CHOICE] = body;
    log[3] = body; // level 0's row: its body (ad_solo's, where the one block runs it)
    log[LOG_OPEN] = 0; // the first launch of the search's kernel stamps it
    log[LOG_HEAVY] = 0;
    ctl[C_PHASE] = 0;
    ctl[C_QOK] = 1;
    ctl[C_STOP] = 0x7fffffff;
    ctl[C_YIELD] = 0;
    *(u64*)&ctl[C_DISC] = 1;
    __threadfence();
}

// ad_set: the oracle sweep's level of body `body` from a saved state: the
// next ad_level runs it, and no level after; it reads the queue (whole in
// the saved state) only with qok, as a search decided on the device does
// only after a level that wrote one.
extern "C" __global__ void ad_set(int* ctl, int body, int qok) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    ctl[C_CHOICE] = body;
    ctl[C_PHASE] = 0;
    ctl[C_QOK] = qok;
    ctl[C_STOP] = ctl[C_LEVEL] + 1;
    __threadfence();
}

// ------------------------------------------------------------ counter steps

// block_counts adds the block's arcs and largest degree into C_MF and
// C_MAXD, then takes the block's ticket: true for the last block.
__device__ bool block_counts(int* ctl, u64 arcs, unsigned mx) {
    __shared__ u64 s_arcs;
    __shared__ unsigned s_max;
    if (threadIdx.x == 0) {
        s_arcs = 0;
        s_max = 0;
    }
    __syncthreads();
    u64 a = warp_sum(arcs);
    unsigned x = __reduce_max_sync(0xffffffffu, mx);
    if (lane_id() == 0) {
        if (a) atomicAdd(&s_arcs, a);
        if (x) atomicMax(&s_max, x);
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x != 0) return false;
    if (s_arcs) atomicAdd((u64*)&ctl[C_MF], s_arcs);
    if (s_max) atomicMax((unsigned*)&ctl[C_MAXD], s_max);
    __threadfence();
    if (atomicAdd((unsigned*)&ctl[C_TICKET], 1u) != gridDim.x - 1) return false;
    __threadfence();
    ((volatile int*)ctl)[C_TICKET] = 0;
    return true;
}

// queue_counters: the counters of the frontier a level queued (the queue
// of the level now current, C_IN entries, each vertex once), posted to
// the ring; nothing where they are posted already (a level that did not
// run) or the frontier is empty (the search is over).
extern "C" __global__ void __launch_bounds__(THREADS) queue_counters(const long long* off, int* ctl, const int* q0,
                                                                     const int* q1, u64* ring) {
    int nin = ctl_word(ctl, C_IN);
    int level = ctl_word(ctl, C_LEVEL);
    if (nin == 0 || ctl_word(ctl, C_RLEVEL) == level) return;
    const int* q = (level & 1) ? q1 : q0;
    u64 arcs = 0;
    unsigned mx = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nin; i += gridDim.x * blockDim.x) {
        int v = q[i];
        unsigned d = (unsigned)(off[v + 1] - off[v]);
        arcs += d;
        mx = max(mx, d);
    }
    if (block_counts(ctl, arcs, mx)) {
        close_counters(ctl, ring, level, nin);
        __threadfence();
    }
}

// frontier_rebuild writes the queue of the current level from the stamps
// (every v with depth[v] == level, once) and sets C_IN to their number
// (a level of lb, which queues duplicates, gets its count without them);
// with count, the frontier's counters too, posted to the ring unless they
// are already. Nothing for an empty frontier.
extern "C" __global__ void __launch_bounds__(THREADS) frontier_rebuild(const long long* off, const int* depth, int n,
                                                                       int* ctl, int* q0, int* q1, u64* ring, int count) {
    if (ctl_word(ctl, C_IN) == 0) return;
    int level = ctl_word(ctl, C_LEVEL);
    bool counting = count && ctl_word(ctl, C_RLEVEL) != level;
    int* q = (level & 1) ? q1 : q0;
    u64 arcs = 0;
    unsigned mx = 0;
    // whole warps per round, for the ballot
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int v = base + threadIdx.x;
        bool in = v < n && depth[v] == level;
        unsigned act = __ballot_sync(0xffffffffu, in);
        if (!act) continue;
        int leader = __ffs(act) - 1;
        int at = 0;
        if (lane_id() == leader) at = atomicAdd(&ctl[C_QCOUNT], __popc(act));
        at = __shfl_sync(0xffffffffu, at, leader);
        if (in) {
            q[at + __popc(act & ((1u << lane_id()) - 1))] = v;
            if (counting) {
                unsigned d = (unsigned)(off[v + 1] - off[v]);
                arcs += d;
                mx = max(mx, d);
            }
        }
    }
    if (block_counts(ctl, arcs, mx)) {
        volatile int* c = ctl;
        int nf = c[C_QCOUNT];
        c[C_QCOUNT] = 0;
        c[C_IN] = nf;
        if (counting) close_counters(ctl, ring, level, nf);
        __threadfence();
    }
}

// abegin: this file's control words for a new search (after traversal.cu's
// init): the ring's epoch, no direction pulled, level 0's counters the
// host's (RootCounters), the root's arcs discovered and in the frontier.
extern "C" __global__ void abegin(int* ctl, int epoch, long long rootArcs) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    ctl[C_EPOCH] = epoch;
    ctl[C_BU] = 0;
    ctl[C_RLEVEL] = 0;
    ctl[C_NPULL] = 0;
    ctl[C_MAXD] = 0;
    ctl[C_QCOUNT] = 0;
    ctl[C_BIG] = 0;
    *(u64*)&ctl[C_MF] = 0;
    *(u64*)&ctl[C_DARCS] = (u64)rootArcs;
    *(u64*)&ctl[C_CURMF] = (u64)rootArcs;
    __threadfence();
}

// ------------------------------------------------------------------ sweep

// ring_clear clears the ring's slot of a level, so that the next post
// there is known to be new.
extern "C" __global__ void ring_clear(u64* ring, int level) {
    if (threadIdx.x < RING_WORDS) ring[(long long)(level & (RING_SLOTS - 1)) * RING_WORDS + threadIdx.x] = 0;
}

// copy_words copies words 32-bit words from src to dst.
extern "C" __global__ void __launch_bounds__(THREADS) copy_words(int* dst, const int* src, long long words) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// ctl_copy copies a control block but its post count, which only grows
// (the host numbers the posts it awaits by it). One block.
extern "C" __global__ void ctl_copy(int* dst, const int* src) {
    for (int i = threadIdx.x; i < CTL_WORDS; i += blockDim.x)
        if (i != C_POSTS) dst[i] = src[i];
}

// level_check counts into *bad the vertices whose depth after a level
// differs from the reference's (ref, cut at level `upto`: deeper vertices
// unreached) and the new frontier's vertices whose parent is not at the
// level before in the reference.
extern "C" __global__ void __launch_bounds__(THREADS) level_check(const int* depth, const int* parent, const int* ref,
                                                                  int n, int upto, u64* bad) {
    u64 wrong = 0;
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        int r = ref[v];
        int want = (r >= 0 && r <= upto) ? r : -1;
        int d = depth[v];
        if (d != want) {
            wrong++;
        } else if (d == upto && upto > 0) {
            int p = parent[v];
            if (p < 0 || p >= n || ref[p] != upto - 1) wrong++;
        }
    }
    wrong = warp_sum(wrong);
    if (lane_id() == 0 && wrong) atomicAdd(bad, wrong);
}
