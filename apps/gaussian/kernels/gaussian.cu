// Rodinia's gaussian (forward elimination without pivoting) on the GPU,
// fp32 and fp64: the original Fan1/Fan2 kernels and a SPAC-scheduled Fan2.
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary
// (apps/gaussian/gpu.go). Parameters are device pointers and ints (the Go
// side passes every argument in an 8-byte slot; an int reads its low 4
// bytes). a and m are n x n row-major, b has n entries.
//
// Arithmetic is the CPU's (apps/gaussian/solve.go, Forward): the multiplier
// a correctly rounded division, every update one fused multiply-add. Each
// value is updated once per pivot step, so every variant and the CPU give
// the same bits.

template <typename T>
__device__ __forceinline__ T fused(T x, T y, T z);
template <>
__device__ __forceinline__ float fused(float x, float y, float z) { return fmaf(x, y, z); }
template <>
__device__ __forceinline__ double fused(double x, double y, double z) { return fma(x, y, z); }

// Fan1 of pivot step t: m[r][t] = a[r][t] / a[t][t] for the n-1-t rows
// below the pivot, a thread a row.
template <typename T>
__device__ void fan1(int n, int t, const T* __restrict__ a, T* __restrict__ m) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1 - t) return;
    const long long r = i + t + 1;
    m[r * n + t] = a[r * n + t] / a[(long long)t * n + t];
}

// The original Fan2 of pivot step t, as Rodinia launches it: a 2D block of
// bx x by threads (here linearized: x = threadIdx % bx varies fastest,
// as threadIdx.x does) on a grid of gx x gy blocks covering the whole
// n x n matrix at every step; thread (x, y) updates row x+1+t, column y+t
// if that lies in the active part. x, the fastest index, runs down rows:
// a warp's accesses to a are a column's, one sector a row.
template <typename T>
__device__ void fan2(int n, int t, int bx, int by, int gx, const T* __restrict__ m, T* a, T* b) {
    const int tx = threadIdx.x % bx, ty = threadIdx.x / bx;
    const int x = (blockIdx.x % gx) * bx + tx, y = (blockIdx.x / gx) * by + ty;
    if (x >= n - 1 - t || y >= n - t) return;
    const long long r = x + 1 + t, c = y + t;
    const T mr = m[r * n + t];
    a[r * n + c] = fused(-mr, a[(long long)t * n + c], a[r * n + c]);
    if (y == 0) b[r] = fused(-mr, b[t], b[r]);
}

// The SPAC Fan2 of pivot step t. The matrix is tiled by W x W windows, and
// every window runs the template's K blocks (apps/gaussian/schedule.go):
// this launch covers the windows of rows wr0.. and columns wc0.. (nwc of
// them a row), block p of a window running part p. The block stages its
// rows' multipliers and its columns' pivot-row values in shared memory,
// with their global row and column numbers, then each thread runs its
// task: one load and one store of a, consecutive threads along a row.
// Shared memory: (maxr + maxc) * (sizeof(T) + 4) bytes.
template <typename T>
__device__ void spac_fan2(int n, int t, int W, int K, int wr0, int wc0, int nwc, const int* __restrict__ rstart,
                          const int* __restrict__ rows, const int* __restrict__ cstart, const int* __restrict__ cols,
                          const int* __restrict__ lastrow, const int* __restrict__ lastcol,
                          const unsigned* __restrict__ task, int maxr, int maxc, const T* __restrict__ m, T* a, T* b) {
    extern __shared__ __align__(8) unsigned char smem[];
    T* mv = reinterpret_cast<T*>(smem);
    T* pv = mv + maxr;
    int* grow = reinterpret_cast<int*>(pv + maxc);
    int* gcol = grow + maxr;
    const int p = blockIdx.x % K, w = blockIdx.x / K;
    const int R = (wr0 + w / nwc) * W, C = (wc0 + w % nwc) * W;
    // Nothing to do when every row lies on or above the pivot or every
    // column left of it (the same for all threads of the block).
    if (R + lastrow[p] <= t || C + lastcol[p] < t) return;
    const int r0 = rstart[p], nr = rstart[p + 1] - r0, c0 = cstart[p], nc = cstart[p + 1] - c0;
    for (int i = threadIdx.x; i < nr; i += blockDim.x) {
        const int r = R + rows[r0 + i];
        grow[i] = r;
        mv[i] = (r > t && r < n) ? m[(long long)r * n + t] : T(0);
    }
    for (int j = threadIdx.x; j < nc; j += blockDim.x) {
        const int c = C + cols[c0 + j];
        gcol[j] = c;
        pv[j] = (c >= t && c < n) ? a[(long long)t * n + c] : T(0);
    }
    __syncthreads();
    const unsigned k = task[p * blockDim.x + threadIdx.x];
    if (k == 0xffffffffu) return;
    const int i = k & 0xffff, j = k >> 16;
    const int r = grow[i], c = gcol[j];
    if (r <= t || r >= n || c < t || c >= n) return;
    const long long e = (long long)r * n + c;
    a[e] = fused(-mv[i], pv[j], a[e]);
    if (c == t) b[r] = fused(-mv[i], b[t], b[r]);
}

// The entry points, one per kernel and precision:
// gaussian_<kernel>_<f32|f64>.
#define GAUSS_KERNELS(T, S)                                                                                          \
    extern "C" __global__ void gaussian_fan1_##S(int n, int t, const T* __restrict__ a, T* __restrict__ m) {          \
        fan1<T>(n, t, a, m);                                                                                         \
    }                                                                                                                \
    extern "C" __global__ void gaussian_fan2_##S(int n, int t, int bx, int by, int gx, const T* __restrict__ m, T* a, \
                                                 T* b) {                                                             \
        fan2<T>(n, t, bx, by, gx, m, a, b);                                                                          \
    }                                                                                                                \
    extern "C" __global__ void gaussian_spac_fan2_##S(                                                               \
        int n, int t, int W, int K, int wr0, int wc0, int nwc, const int* __restrict__ rstart,                       \
        const int* __restrict__ rows, const int* __restrict__ cstart, const int* __restrict__ cols,                  \
        const int* __restrict__ lastrow, const int* __restrict__ lastcol, const unsigned* __restrict__ task,         \
        int maxr, int maxc, const T* __restrict__ m, T* a, T* b) {                                                   \
        spac_fan2<T>(n, t, W, K, wr0, wc0, nwc, rstart, rows, cstart, cols, lastrow, lastcol, task, maxr, maxc, m,   \
                     a, b);                                                                                          \
    }

GAUSS_KERNELS(float, f32)
GAUSS_KERNELS(double, f64)
