// All-pairs shortest paths by Floyd-Warshall: the naive form (a launch per
// k over the whole matrix) and the blocked form (Venkataraman et al.'s
// three phases per round of T values of k: the diagonal tile, then its row
// and column of tiles, then every other tile, tiles staged in shared
// memory). Distances are float (every sum rounded to float, __fadd_rn) or
// unsigned (int32 distances: every finite value and the +infinity
// INT32_MAX are below 2^31, so the unsigned sum of two never wraps and the
// min keeps INT32_MAX for an unreachable pair). With P, nx holds the next
// hop: nx[i][j] is the vertex after i on a shortest path to j, replaced by
// nx[i][k] when going through k is strictly shorter.
//
// Why the tiles may be updated in place without races: the diagonal is 0
// and stays 0 (weights are non-negative), and x + 0 == x exactly, so at
// step k no relaxation changes row k or column k (d[i][k] + d[k][k] ==
// d[i][k]); the values every thread reads in step k are final for that
// step. A __syncthreads between steps orders step k's writes before step
// k+1's reads. Blocks of one launch write disjoint tiles and read only
// tiles that no block of that launch writes.
//
// Operation order: per element, the candidates d[i][k] + d[k][j] are tried
// in increasing k with a strict comparison, and each sum reads the same
// values as the CPU references (apsp.FloydWarshall for the naive kernel,
// apsp.FloydWarshallBlocked with the same tile for the blocked ones): the
// results, next hops included, are the same bits.
//
// On an sm_90 device ptxas fuses the unsigned min(acc, a + b) of phase 3
// into Hopper's DPX add-then-min (VIADDMNMX, one instruction per
// relaxation), from this compute_80 PTX as from sm_90 code: the int32
// kernels use the GPU's min-plus instructions with no intrinsic (an
// intrinsic needs CUDA 12 and compiles to the same instruction). Floats
// have no DPX form.
//
// Layout: row-major with a pitch of `pitch` elements; the blocked kernels
// need n padded to a multiple of T (isolated padding vertices: +infinity
// off the diagonal), a pitch that is a multiple of 4 and a 16-byte aligned
// matrix (vector loads).

#include <stdint.h>

#define THREADS 256

template <typename V>
struct Ops;

template <>
struct Ops<float> {
    typedef float2 V2;
    typedef float4 V4;
    static __device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
    // fminf equals (b < a ? b : a) here: no NaN, and no -0 (the host
    // stores zero weights as +0 and sums of +0 are +0).
    static __device__ __forceinline__ float min2(float a, float b) { return fminf(a, b); }
};

template <>
struct Ops<unsigned> {
    typedef uint2 V2;
    typedef uint4 V4;
    static __device__ __forceinline__ unsigned add(unsigned a, unsigned b) { return a + b; }
    static __device__ __forceinline__ unsigned min2(unsigned a, unsigned b) { return min(a, b); }
};

// Vector loads and stores of R consecutive 4-byte elements (R = 1, 2, or a
// multiple of 4), from 4R-byte aligned addresses (16 for R >= 4).
template <int R, typename E, typename E2, typename E4>
struct Vec {
    static __device__ __forceinline__ void load(E (&dst)[R], const E* p) {
        if constexpr (R % 4 == 0) {
#pragma unroll
            for (int q = 0; q < R / 4; q++) {
                E4 v = reinterpret_cast<const E4*>(p)[q];
                dst[4 * q] = v.x;
                dst[4 * q + 1] = v.y;
                dst[4 * q + 2] = v.z;
                dst[4 * q + 3] = v.w;
            }
        } else if constexpr (R == 2) {
            E2 v = *reinterpret_cast<const E2*>(p);
            dst[0] = v.x;
            dst[1] = v.y;
        } else {
            dst[0] = p[0];
        }
    }
    static __device__ __forceinline__ void store(E* p, const E (&src)[R]) {
        if constexpr (R % 4 == 0) {
#pragma unroll
            for (int q = 0; q < R / 4; q++) {
                E4 v;
                v.x = src[4 * q];
                v.y = src[4 * q + 1];
                v.z = src[4 * q + 2];
                v.w = src[4 * q + 3];
                reinterpret_cast<E4*>(p)[q] = v;
            }
        } else if constexpr (R == 2) {
            E2 v;
            v.x = src[0];
            v.y = src[1];
            *reinterpret_cast<E2*>(p) = v;
        } else {
            p[0] = src[0];
        }
    }
};

// ------------------------------------------------------------------ naive

// Step k over the n x n matrix: a thread per element, blocks of 32
// columns x 8 rows (a warp reads one row's 32 consecutive elements and its
// d[i][k] once). Only strict improvements are written.
template <typename V, bool P>
__device__ __forceinline__ void naive(V* d, int* nx, int n, long long pitch, int k) {
    const int colBlocks = (n + 31) / 32;
    const int j = (blockIdx.x % colBlocks) * 32 + (threadIdx.x & 31);
    const int i = (blockIdx.x / colBlocks) * 8 + (threadIdx.x >> 5);
    if (i >= n || j >= n) {
        return;
    }
    const long long ij = (long long)i * pitch + j;
    const V s = Ops<V>::add(d[(long long)i * pitch + k], d[(long long)k * pitch + j]);
    if (s < d[ij]) {
        d[ij] = s;
        if constexpr (P) {
            nx[ij] = nx[(long long)i * pitch + k];
        }
    }
}

// ---------------------------------------------------------------- blocked

// The T steps of a round on the tile O in shared memory, k-outer, for
// phases 1 and 2: a warp per row (8 warps, rows ty + 8r), 32 consecutive
// columns per warp (tx + 32c), so that a warp's accesses to a row are
// conflict-free and A(i,k) is a broadcast. Step k sets
// O(i,j) = A(i,k) + B(k,j) where strictly shorter, A and B being O itself
// or the diagonal tile. With P the next hop becomes NA(i,k), A's next hop:
// written to NA itself when A is O (phase 1, a column tile), to the
// registers ON (ON[r][c] is element (ty + 8r, tx + 32c)) for a row tile,
// whose A is the diagonal tile. Step k writes neither row k nor column k
// of O (the diagonal is 0), so a step reads only final values; the
// barrier orders a step's writes before the next step's reads.
template <typename V, int T, bool P, bool RegNext, typename ONT>
__device__ __forceinline__ void steps(const V* A, const V* B, V* O, int* NA, ONT& ON) {
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    for (int k = 0; k < T; k++) {
#pragma unroll
        for (int r = 0; r < T / 8; r++) {
            const int i = ty + 8 * r;
            const V a = A[i * T + k];
            const int via = P ? NA[i * T + k] : 0;
#pragma unroll
            for (int c = 0; c < T / 32; c++) {
                const int j = tx + 32 * c;
                const V s = Ops<V>::add(a, B[k * T + j]);
                if (s < O[i * T + j]) {
                    O[i * T + j] = s;
                    if constexpr (P && RegNext) {
                        ON[r][c] = via;
                    } else if constexpr (P) {
                        NA[i * T + j] = via;
                    }
                }
            }
        }
        __syncthreads();
    }
}

// Phase 1: the diagonal tile (kb, kb) alone, in place.
template <typename V, int T, bool P>
__device__ __forceinline__ void phase1(V* d, int* nx, long long pitch, int kb) {
    extern __shared__ __align__(16) unsigned char smem[];
    V* D = reinterpret_cast<V*>(smem);
    int* N = reinterpret_cast<int*>(D + T * T);
    const long long base = (long long)kb * T * pitch + (long long)kb * T;
    for (int e = threadIdx.x; e < T * T; e += THREADS) {
        const long long g = base + (long long)(e / T) * pitch + e % T;
        D[e] = d[g];
        if constexpr (P) {
            N[e] = nx[g];
        }
    }
    __syncthreads();
    int unused[1][1];
    steps<V, T, P, false>(D, D, D, N, unused);
    for (int e = threadIdx.x; e < T * T; e += THREADS) {
        const long long g = base + (long long)(e / T) * pitch + e % T;
        d[g] = D[e];
        if constexpr (P) {
            nx[g] = N[e];
        }
    }
}

// Phase 2: block b < nt is the row tile (kb, b), block nt + b the column
// tile (b, kb); the diagonal tile's block returns. A row tile's element
// (i, j) takes d[i][k] from the (final) diagonal tile and d[k][j] from its
// own tile; a column tile's takes d[i][k] from its own tile and d[k][j]
// from the diagonal tile. Shared: the diagonal tile, the block's tile and,
// with P, the next hops that the steps read (the diagonal tile's for a row
// tile, whose own next hops stay in registers; the block's own for a
// column tile).
template <typename V, int T, bool P>
__device__ __forceinline__ void phase2(V* d, int* nx, long long pitch, int kb, int nt) {
    extern __shared__ __align__(16) unsigned char smem[];
    const bool row = (int)blockIdx.x < nt;
    const int t = row ? blockIdx.x : blockIdx.x - nt;
    if (t == kb) {
        return;
    }
    V* D = reinterpret_cast<V*>(smem);
    V* O = D + T * T;
    int* N = reinterpret_cast<int*>(O + T * T);
    const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
    const long long dbase = (long long)kb * T * pitch + (long long)kb * T;
    const long long obase = row ? (long long)kb * T * pitch + (long long)t * T : (long long)t * T * pitch + (long long)kb * T;
    for (int e = threadIdx.x; e < T * T; e += THREADS) {
        const long long off = (long long)(e / T) * pitch + e % T;
        D[e] = d[dbase + off];
        O[e] = d[obase + off];
        if constexpr (P) {
            N[e] = nx[(row ? dbase : obase) + off];
        }
    }
    // A row tile's own next hops: ON[r][c] is element (ty + 8r, tx + 32c).
    int ON[P ? T / 8 : 1][P ? T / 32 : 1];
    if constexpr (P) {
        if (row) {
#pragma unroll
            for (int r = 0; r < T / 8; r++) {
#pragma unroll
                for (int c = 0; c < T / 32; c++) {
                    ON[r][c] = nx[obase + (long long)(ty + 8 * r) * pitch + tx + 32 * c];
                }
            }
        }
    }
    __syncthreads();
    if (row) {
        steps<V, T, P, true>(D, O, O, N, ON);
    } else {
        steps<V, T, P, false>(O, D, O, N, ON);
    }
    for (int e = threadIdx.x; e < T * T; e += THREADS) {
        const long long g = obase + (long long)(e / T) * pitch + e % T;
        d[g] = O[e];
        if constexpr (P) {
            if (!row) {
                nx[g] = N[e];
            }
        }
    }
    if constexpr (P) {
        if (row) {
#pragma unroll
            for (int r = 0; r < T / 8; r++) {
#pragma unroll
                for (int c = 0; c < T / 32; c++) {
                    nx[obase + (long long)(ty + 8 * r) * pitch + tx + 32 * c] = ON[r][c];
                }
            }
        }
    }
}

// Phase 3: block (ib, jb) = (blockIdx.x / nt, blockIdx.x % nt), every tile
// off row and column kb (the others return). Its column tile (ib, kb) and
// row tile (kb, jb) are final for the round and read only, so the block's
// own elements live in registers: 16 x 16 threads, each R x R elements
// (rows ty*R + r, columns tx*R + c, R = T/16), and a step k costs two
// vector loads from shared memory (R values of column k of the column
// tile, stored transposed, and R of row k of the row tile) per R*R
// relaxations, as an SGEMM's register tile.
template <typename V, int T, bool P>
__device__ __forceinline__ void phase3(V* d, int* nx, long long pitch, int kb, int nt) {
    constexpr int R = T / 16;
    typedef Vec<R, V, typename Ops<V>::V2, typename Ops<V>::V4> VV;
    typedef Vec<R, int, int2, int4> VI;
    typedef typename Ops<V>::V4 V4;
    extern __shared__ __align__(16) unsigned char smem[];
    const int ib = blockIdx.x / nt, jb = blockIdx.x % nt;
    if (ib == kb || jb == kb) {
        return;
    }
    V* At = reinterpret_cast<V*>(smem); // At[k*T + i] = d(ib*T + i, kb*T + k)
    V* B = At + T * T;                  // B[k*T + j] = d(kb*T + k, jb*T + j)
    int* NA = reinterpret_cast<int*>(B + T * T); // NA[k*T + i] = nx(ib*T + i, kb*T + k)
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    const long long abase = (long long)ib * T * pitch + (long long)kb * T;
    const long long bbase = (long long)kb * T * pitch + (long long)jb * T;
    // The column tile, transposed: a thread reads 4 consecutive k of row i
    // (consecutive lanes: consecutive rows) and writes them to 4 rows of At
    // (consecutive lanes: consecutive banks).
    for (int e = threadIdx.x; e < T * T / 4; e += THREADS) {
        const int i = e % T, q = e / T;
        const long long g = abase + (long long)i * pitch + 4 * q;
        const V4 v = *reinterpret_cast<const V4*>(d + g);
        At[(4 * q) * T + i] = v.x;
        At[(4 * q + 1) * T + i] = v.y;
        At[(4 * q + 2) * T + i] = v.z;
        At[(4 * q + 3) * T + i] = v.w;
        if constexpr (P) {
            const int4 w = *reinterpret_cast<const int4*>(nx + g);
            NA[(4 * q) * T + i] = w.x;
            NA[(4 * q + 1) * T + i] = w.y;
            NA[(4 * q + 2) * T + i] = w.z;
            NA[(4 * q + 3) * T + i] = w.w;
        }
    }
    for (int e = threadIdx.x; e < T * T / 4; e += THREADS) {
        const int k = e / (T / 4), q = e % (T / 4);
        *reinterpret_cast<V4*>(B + k * T + 4 * q) = *reinterpret_cast<const V4*>(d + bbase + (long long)k * pitch + 4 * q);
    }
    const long long obase = (long long)ib * T * pitch + (long long)jb * T + (long long)(ty * R) * pitch + tx * R;
    V acc[R][R];
    int nxt[P ? R : 1][P ? R : 1];
#pragma unroll
    for (int r = 0; r < R; r++) {
        VV::load(acc[r], d + obase + (long long)r * pitch);
        if constexpr (P) {
            VI::load(nxt[r], nx + obase + (long long)r * pitch);
        }
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < T; k++) {
        V a[R], b[R];
        int na[P ? R : 1];
        VV::load(a, At + k * T + ty * R);
        VV::load(b, B + k * T + tx * R);
        if constexpr (P) {
            VI::load(na, NA + k * T + ty * R);
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
#pragma unroll
            for (int c = 0; c < R; c++) {
                const V s = Ops<V>::add(a[r], b[c]);
                if constexpr (P) {
                    if (s < acc[r][c]) {
                        acc[r][c] = s;
                        nxt[r][c] = na[r];
                    }
                } else {
                    acc[r][c] = Ops<V>::min2(acc[r][c], s);
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        VV::store(d + obase + (long long)r * pitch, acc[r]);
        if constexpr (P) {
            VI::store(nx + obase + (long long)r * pitch, nxt[r]);
        }
    }
}

// ---------------------------------------------------------------- entries
// fw_naive_<f32|i32>[_paths] and fw_p<1|2|3>_t<T>_<f32|i32>[_paths].

#define NAIVE(V, VN, P, PN)                                                                                      \
    extern "C" __global__ void __launch_bounds__(THREADS) fw_naive_##VN##PN(V* d, int* nx, int n, long long pitch, \
                                                                            int k) {                              \
        naive<V, P>(d, nx, n, pitch, k);                                                                          \
    }

#define BLOCKED(T, V, VN, P, PN)                                                                                  \
    extern "C" __global__ void __launch_bounds__(THREADS) fw_p1_t##T##_##VN##PN(V* d, int* nx, long long pitch,  \
                                                                                int kb, int nt) {                 \
        phase1<V, T, P>(d, nx, pitch, kb);                                                                        \
    }                                                                                                             \
    extern "C" __global__ void __launch_bounds__(THREADS) fw_p2_t##T##_##VN##PN(V* d, int* nx, long long pitch,  \
                                                                                int kb, int nt) {                 \
        phase2<V, T, P>(d, nx, pitch, kb, nt);                                                                    \
    }                                                                                                             \
    extern "C" __global__ void __launch_bounds__(THREADS) fw_p3_t##T##_##VN##PN(V* d, int* nx, long long pitch,  \
                                                                                int kb, int nt) {                 \
        phase3<V, T, P>(d, nx, pitch, kb, nt);                                                                    \
    }


NAIVE(float, f32, false, )
NAIVE(float, f32, true, _paths)
NAIVE(unsigned, i32, false, )
NAIVE(unsigned, i32, true, _paths)

#define TILE(T)                          \
    BLOCKED(T, float, f32, false, )      \
    BLOCKED(T, float, f32, true, _paths) \
    BLOCKED(T, unsigned, i32, false, )   \
    BLOCKED(T, unsigned, i32, true, _paths)

TILE(32)
TILE(64)
TILE(128)
