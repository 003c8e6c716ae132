// Vector kernels of the conjugate gradient solver of package apps/cg, in
// fp32 and fp64; the products q = A p are package gpu's SpMV kernels.
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary,
// as gpu/kernels/spmv.cu is. Parameters are device pointers and ints only
// (8-byte slots on the Go side; an int reads the low 4 bytes).
//
// The scalars of the iteration stay on the device, in double (S):
//   S[0], S[1]  r.r of two consecutive iterations (the slot alternates, so
//               that no kernel reads a scalar another block of the same
//               launch overwrites)
//   S[2]        p.Ap
//   S[3], S[4]  ||b|| and the tolerance on ||r|| / ||b|| (set by the host)
//   S[5]        the state: 0 going on, then why the solve stopped: 1
//               converged, 2 breakdown (p.Ap <= 0 or not finite), 3 r.r not
//               finite; the rule is apps/cg's stopPQ and stopRR
// alpha and beta are computed from them by every thread, and the device
// itself stops: once S[5] is set every kernel here returns at once, so the
// host may queue iterations before it has read whether the previous ones
// stopped, and x and r stay those of the iteration that stopped.
//
// An iteration is the product and three launches (a launch costs the host
// about 4 us on the GPU machine, more than most of these kernels take on
// the device): cg_dot_pq and cg_update end their dot product in the block
// that stores its partial sum last (W counts the arrivals), and
// cg_update posts a copy of S to the host, into page-locked host memory
// mapped for the device (mail): the host reads it without a copy or an
// event. W (zeroed once): W[0], W[1] count the blocks of the two fused
// reductions that have stored their partial sum; W[2] counts the posts. A
// mail slot is S[0..5], a spare word, and the post's number, written last.
//
// Dot products accumulate in double whatever the vectors' precision, with
// a fixed grid and a fixed reduction order: the result does not depend on
// timing. Updates use fma, as the CPU reference (math.FMA) does.

#define FULL_MASK 0xffffffffu
#define THREADS 256  // threads per block of every kernel here (the Go side launches this many)
#define PQ 2
#define BNORM 3
#define TOL 4
#define STATE 5
#define CONVERGED 1.0
#define BREAKDOWN 2.0
#define NONFINITE 3.0
#define ARRIVED_PQ 0
#define ARRIVED_RR 1
#define POSTED 2
#define SLOT 8  // doubles per mail slot
#define SEQ 7   // the slot's post number

// stopped is uniform over a launch: a block that returns returns whole, and
// a kernel writes S[STATE] only from its last-arriving block, after every
// block has read it.
__device__ __forceinline__ bool stopped(const double* S) { return S[STATE] != 0.0; }

// Sum of a double over the block (THREADS threads), valid in thread 0.
__device__ __forceinline__ double block_sum(double s) {
    __shared__ double warp_sums[THREADS / 32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    s = 0;
    if (warp == 0) {
        s = lane < THREADS / 32 ? warp_sums[lane] : 0.0;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
    }
    return s;
}

// partials[block] = the block's share of a.b (grid-stride over n). Its
// callers run it only while the solve goes on: dot_pq checks the state,
// and Init's r.r comes right after the host has reset it.
template <typename T>
__device__ __forceinline__ void dot_partial(int n, const T* __restrict__ a, const T* __restrict__ b,
                                            double* __restrict__ partials) {
    double s = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        s = fma(double(a[i]), double(b[i]), s);
    s = block_sum(s);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
}

// x = 0, r = b, p = b: the start from x0 = 0.
template <typename T>
__device__ __forceinline__ void init(int n, const T* __restrict__ b, T* __restrict__ x, T* __restrict__ r,
                                     T* __restrict__ p) {
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        const T v = b[i];
        x[i] = T(0);
        r[i] = v;
        p[i] = v;
    }
}

// last_arrival is called by every thread of a block once thread 0 has
// stored the block's partial sum; it is true, in every thread, in the block
// that stores last, which alone reads all the partial sums, and resets the
// count for the next launch.
__device__ __forceinline__ bool last_arrival(unsigned long long* count) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();  // the partial sum is visible before the count says so
        last = atomicAdd(count, 1ull) == gridDim.x - 1;
        if (last) *count = 0;
    }
    __syncthreads();
    return last;
}

// The sum of partials[0..nparts) in a fixed order (one block), valid in
// thread 0; the loads bypass L1, which may hold what other blocks of the
// launch have since overwritten.
__device__ __forceinline__ double final_sum(int nparts, const double* partials) {
    double s = 0;
    for (int i = threadIdx.x; i < nparts; i += THREADS) s += __ldcg(partials + i);
    return block_sum(s);
}

// S[slot] = r.r; a residual that is not finite, or at most the tolerance,
// stops the solve. The relative residual is computed as the host computes
// it (sqrt and division are correctly rounded in double on both), so that
// both stop at the same iteration.
__device__ __forceinline__ void set_rr(double* S, int slot, double rr) {
    S[slot] = rr;
    const double bnorm = S[BNORM];
    if (isnan(rr) || isinf(rr))
        S[STATE] = NONFINITE;
    else if ((bnorm == 0 ? 0.0 : sqrt(rr) / bnorm) <= S[TOL])
        S[STATE] = CONVERGED;
}

// post copies S into the next mail slot: the values, then (after a
// system-wide fence) the post's number, which tells the host they are
// complete. One thread.
__device__ __forceinline__ void post(const double* S, unsigned long long* W, double* mail, int nslots) {
    const unsigned long long k = ++W[POSTED];
    volatile double* slot = mail + (k % nslots) * SLOT;
    for (int j = 0; j <= STATE; j++) slot[j] = S[j];
    __threadfence_system();
    *reinterpret_cast<volatile unsigned long long*>(slot + SEQ) = k;
}

// S[PQ] = p.Ap (p.q); a breakdown stops the solve.
template <typename T>
__device__ __forceinline__ void dot_pq(int n, double* S, const T* __restrict__ p, const T* __restrict__ q,
                                       double* partials, unsigned long long* W) {
    if (stopped(S)) return;
    dot_partial<T>(n, p, q, partials);
    if (!last_arrival(&W[ARRIVED_PQ])) return;
    const double pq = final_sum(gridDim.x, partials);
    if (threadIdx.x == 0) {
        S[PQ] = pq;
        if (!(pq > 0) || isinf(pq)) S[STATE] = BREAKDOWN;
    }
}

// alpha = S[rr] / S[PQ]; x += alpha p; r -= alpha q; S[1 - rr] = r.r with
// its stop rule; then S is posted. A breakdown (p.Ap <= 0 or not finite:
// the matrix is not SPD) has stopped the solve before: x and r keep the
// last good iterate. A stopped iteration posts S as it is, so that the host
// reads one post per iteration it queued.
template <typename T>
__device__ __forceinline__ void update(int n, double* S, int rr, T* __restrict__ x, T* __restrict__ r,
                                       const T* __restrict__ p, const T* __restrict__ q, double* partials,
                                       unsigned long long* W, double* mail, int nslots) {
    if (stopped(S)) {
        if (blockIdx.x == 0 && threadIdx.x == 0) post(S, W, mail, nslots);
        return;
    }
    const T a = T(S[rr] / S[PQ]);
    double s = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        x[i] = fma(a, p[i], x[i]);
        const T ri = fma(-a, q[i], r[i]);
        r[i] = ri;
        s = fma(double(ri), double(ri), s);
    }
    s = block_sum(s);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
    if (!last_arrival(&W[ARRIVED_RR])) return;
    const double rr_new = final_sum(gridDim.x, partials);
    if (threadIdx.x == 0) {
        set_rr(S, 1 - rr, rr_new);
        post(S, W, mail, nslots);
    }
}

// p = r + beta p with beta = S[rr_new] / S[rr_old].
template <typename T>
__device__ __forceinline__ void xpay(int n, const double* __restrict__ S, int rr_old, int rr_new,
                                     const T* __restrict__ r, T* __restrict__ p) {
    if (stopped(S)) return;
    const T beta = T(S[rr_new] / S[rr_old]);
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) p[i] = fma(beta, p[i], r[i]);
}

// S[slot] = r.r from its partial sums, with its stop rule (Init's r.r, on
// the state the host has just reset).
extern "C" __global__ void __launch_bounds__(THREADS) cg_final_rr(int nparts, const double* __restrict__ partials,
                                                                  double* __restrict__ S, int slot) {
    const double rr = final_sum(nparts, partials);
    if (threadIdx.x == 0) set_rr(S, slot, rr);
}

#define CG_ENTRIES(T, SUFFIX)                                                                                      \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                          \
        cg_dot_partial_##SUFFIX(int n, const T* a, const T* b, double* partials) {                                 \
        dot_partial<T>(n, a, b, partials);                                                                         \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(THREADS) cg_init_##SUFFIX(int n, const T* b, T* x, T* r, T* p) { \
        init<T>(n, b, x, r, p);                                                                                    \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                          \
        cg_dot_pq_##SUFFIX(int n, double* S, const T* p, const T* q, double* partials, unsigned long long* W) {   \
        dot_pq<T>(n, S, p, q, partials, W);                                                                        \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                          \
        cg_update_##SUFFIX(int n, double* S, int rr, T* x, T* r, const T* p, const T* q, double* partials,        \
                           unsigned long long* W, double* mail, int nslots) {                                      \
        update<T>(n, S, rr, x, r, p, q, partials, W, mail, nslots);                                                \
    }                                                                                                              \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                          \
        cg_xpay_##SUFFIX(int n, const double* S, int rr_old, int rr_new, const T* r, T* p) {                      \
        xpay<T>(n, S, rr_old, rr_new, r, p);                                                                       \
    }

CG_ENTRIES(float, f32)
CG_ENTRIES(double, f64)
