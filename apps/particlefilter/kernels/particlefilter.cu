// Rodinia's particlefilter on the GPU, in double precision as both of
// Rodinia's programs are: the original kernels (particlefilter_float's
// likelihood, sum, normalize, cumulative sum and find-index; the naive
// program runs only find-index here), the likelihood with its threads
// renumbered (the RCM baseline), and the SPAC-scheduled likelihood
// (motion, sample terms, weights).
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary
// (apps/particlefilter/gpu.go). Parameters are device pointers and ints
// (the Go side passes every argument in an 8-byte slot).
//
// The arithmetic is the CPU reference's (apps/particlefilter/filter.go)
// in the same order. Additions and products that nvcc would contract into
// fused multiply-adds are written with __dadd_rn/__dmul_rn, which it does
// not contract, so that the two differ only where the math library does
// (exp, log, cos: an ulp at times).
//
// Layouts: the video I[x*Y*frames + y*frames + k], a byte per pixel;
// objxy[2j] and objxy[2j+1] the y and x offsets of sample j (Rodinia's
// order); ind[i*countOnes + j] the pixel of particle i's sample j.

#define LCG_A 1103515245
#define LCG_C 12345
#define LCG_M 2147483647

// (I - 100)^2 - (I - 228)^2 = TERM_SCALE*I - TERM_SHIFT, exact in ints.
#define TERM_SCALE 256
#define TERM_SHIFT 41984

// Dynamic shared memory: a block's partial sums (doubles) or a SPAC
// block's staged terms and particle sums (ints).
extern __shared__ __align__(8) unsigned char pf_smem[];

// Rodinia's generator with C's int arithmetic: the product wraps to 32
// bits (computed unsigned, where wrapping is defined), % truncates toward
// zero. A state of 0 returns 1/M instead of 0 (the CPU's randu says why).
__device__ __forceinline__ double pf_randu(int* seed, int i) {
    int num = (int)((unsigned)LCG_A * (unsigned)seed[i] + (unsigned)LCG_C);
    int s = num % LCG_M;
    seed[i] = s;
    if (s == 0) return 1.0 / (double)LCG_M;
    return fabs((double)s / (double)LCG_M);
}

// Box-Muller, as the CPU's randn.
__device__ __forceinline__ double pf_randn(int* seed, int i) {
    double u = pf_randu(seed, i);
    double v = pf_randu(seed, i);
    double cosine = cos(__dmul_rn(2.0 * 3.14159265358979323846, v));
    double rt = __dmul_rn(-2.0, log(u));
    return __dmul_rn(sqrt(rt), cosine);
}

// The motion model: particle i moves from its drawn position (xj, yj).
__device__ __forceinline__ void pf_move(int i, const double* xj, const double* yj, double* ax, double* ay, int* seed,
                                        double& x, double& y) {
    x = __dadd_rn(__dadd_rn(xj[i], 1.0), __dmul_rn(5.0, pf_randn(seed, i)));
    y = __dadd_rn(__dadd_rn(yj[i], -2.0), __dmul_rn(2.0, pf_randn(seed, i)));
    ax[i] = x;
    ay[i] = y;
}

// Rodinia's pixel of a sample: |x*Y*frames + y*frames + k| in 32-bit
// arithmetic, 0 past the video's end (or, never at valid sizes, still
// negative after wrapping).
__device__ __forceinline__ int pf_sample(int cx, int cy, int dx, int dy, int yf, int frames, int k, int size) {
    int ind = (int)((unsigned)(cx + dx) * (unsigned)yf + (unsigned)(cy + dy) * (unsigned)frames + (unsigned)k);
    if (ind < 0) ind = (int)(0u - (unsigned)ind);
    if (ind < 0 || ind >= size) ind = 0;
    return ind;
}

__device__ __forceinline__ int pf_term(unsigned char v) { return TERM_SCALE * (int)v - TERM_SHIFT; }

// The block's sum of w into partial[blockIdx.x]: Rodinia's tree over
// shared memory, padded with zeros to pow2 (a power of two of at least
// blockDim.x and less than twice it) so that any block size adds up.
__device__ __forceinline__ void pf_block_sum(double w, double* partial, int pow2) {
    double* buf = (double*)pf_smem;
    int t = threadIdx.x;
    buf[t] = w;
    if (t + (int)blockDim.x < pow2) buf[t + blockDim.x] = 0.0;
    for (int s = pow2 / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (t < s) buf[t] += buf[t + s];
    }
    if (t == 0) partial[blockIdx.x] = buf[0];
}

// particlefilter_float's likelihood kernel: a thread per particle moves it,
// writes its samples' pixels to ind, sums their likelihood ratios in
// sample order, and weighs it (1/n) exp(mean ratio); the block adds its
// weights up. With PERM, thread t runs particle perm[t].
template <bool PERM>
__device__ __forceinline__ void pf_likelihood_body(int n, const int* __restrict__ perm, const double* xj, const double* yj,
                                                   double* ax, double* ay, int* ind, const int* __restrict__ objxy,
                                                   double* lik, const unsigned char* __restrict__ I, double* weights,
                                                   int countOnes, int size, int k, int yf, int frames, int* seed,
                                                   double* partial, int pow2) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    double w = 0.0;
    if (tid < n) {
        int i = PERM ? perm[tid] : tid;
        double x, y;
        pf_move(i, xj, yj, ax, ay, seed, x, y);
        int cx = (int)x, cy = (int)y;  // Rodinia's roundDouble truncates
        for (int j = 0; j < countOnes; j++)
            ind[i * countOnes + j] = pf_sample(cx, cy, objxy[2 * j + 1], objxy[2 * j], yf, frames, k, size);
        double sum = 0.0;
        for (int j = 0; j < countOnes; j++)
            sum = __dadd_rn(sum, (double)pf_term(I[ind[i * countOnes + j]]) / 50.0);
        double l = sum / (double)countOnes;
        lik[i] = l;
        w = __dmul_rn(1.0 / (double)n, exp(l));
        weights[i] = w;
    }
    pf_block_sum(w, partial, pow2);
}

extern "C" __global__ void pf_likelihood(int n, const double* xj, const double* yj, double* ax, double* ay, int* ind,
                                         const int* __restrict__ objxy, double* lik, const unsigned char* __restrict__ I,
                                         double* weights, int countOnes, int size, int k, int yf, int frames, int* seed,
                                         double* partial, int pow2) {
    pf_likelihood_body<false>(n, nullptr, xj, yj, ax, ay, ind, objxy, lik, I, weights, countOnes, size, k, yf, frames, seed,
                              partial, pow2);
}

extern "C" __global__ void pf_likelihood_perm(int n, const int* __restrict__ perm, const double* xj, const double* yj,
                                              double* ax, double* ay, int* ind, const int* __restrict__ objxy, double* lik,
                                              const unsigned char* __restrict__ I, double* weights, int countOnes, int size,
                                              int k, int yf, int frames, int* seed, double* partial, int pow2) {
    pf_likelihood_body<true>(n, perm, xj, yj, ax, ay, ind, objxy, lik, I, weights, countOnes, size, k, yf, frames, seed,
                             partial, pow2);
}

// sum_kernel: one thread adds the blocks' partial sums in block order
// (scal[0]) and draws the resampling's offset u1 = (1/n) randu from
// particle 0's generator (scal[1]), which Rodinia's normalize kernel
// draws.
extern "C" __global__ void pf_sum(int blocks, const double* partial, double* scal, int* seed, int n) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    double sum = 0.0;
    for (int b = 0; b < blocks; b++) sum = __dadd_rn(sum, partial[b]);
    scal[0] = sum;
    scal[1] = __dmul_rn(1.0 / (double)n, pf_randu(seed, 0));
}

// normalize_weights_kernel without its cross-block race: every particle's
// weight over the sum, and the resampling points u[i] = u1 + i/n. The
// cumulative sum, which Rodinia's kernel has one thread compute while
// other blocks may still be normalizing, is pf_cdf, launched after.
extern "C" __global__ void pf_normalize(int n, double* weights, const double* scal, double* u) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        weights[i] = weights[i] / scal[0];
        u[i] = __dadd_rn(scal[1], (double)i / (double)n);
    }
}

// cdfCalc: one thread, in particle order.
extern "C" __global__ void pf_cdf(int n, const double* weights, double* cdf) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    double c = weights[0];
    cdf[0] = c;
    for (int x = 1; x < n; x++) {
        c = __dadd_rn(weights[x], c);
        cdf[x] = c;
    }
}

// find_index_kernel (the naive program's only kernel): a thread per
// particle searches the cumulative weights linearly for the first that
// reaches its point, the last particle when none does, and draws that
// particle's position.
extern "C" __global__ void pf_find_index(int n, const double* ax, const double* ay, const double* cdf, const double* u,
                                         double* xj, double* yj) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int index = -1;
        for (int x = 0; x < n; x++) {
            if (cdf[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1) index = n - 1;
        xj[i] = ax[index];
        yj[i] = ay[index];
    }
}

// SPAC, step 1: a thread per particle moves it, clears its sum, and checks
// that it landed in the cell the frame's schedule was built for (the
// reference run's); a particle elsewhere is counted in *mismatch, and the
// Go side then refuses the run's result.
extern "C" __global__ void pf_motion(int n, const double* xj, const double* yj, double* ax, double* ay, int* seed,
                                     const int* __restrict__ cellX, const int* __restrict__ cellY, int* lsum, int* mismatch) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x, y;
        pf_move(i, xj, yj, ax, ay, seed, x, y);
        if ((int)x != cellX[i] || (int)y != cellY[i]) atomicAdd(mismatch, 1);
        lsum[i] = 0;
    }
}

// SPAC, step 2: block b runs part b of the frame's schedule, a thread per
// sample. It stages the ratio of every pixel its samples read (an int:
// exact) in shared memory, adds each sample's ratio into its particle's
// shared sum, and writes the sums out: stored for particles no other
// block touches, added atomically for the others. The schedule's arrays
// are package schedule's (sched: slot -> sample, -1 for padding;
// xlocal/ylocal: slot -> shared address; xoff/yoff: block -> range of
// xpix (pixels) and yuniq (particles); yshared: 1 where other blocks add
// to the particle too).
extern "C" __global__ void pf_spac_terms(const int* __restrict__ sched, const int* __restrict__ xlocal,
                                         const int* __restrict__ ylocal, const int* __restrict__ xoff,
                                         const int* __restrict__ xpix, const int* __restrict__ yoff,
                                         const int* __restrict__ yuniq, const unsigned char* __restrict__ yshared,
                                         const unsigned char* __restrict__ I, int* lsum) {
    int b = blockIdx.x, t = threadIdx.x, B = blockDim.x;
    int x0 = xoff[b], nx = xoff[b + 1] - x0;
    int y0 = yoff[b], ny = yoff[b + 1] - y0;
    int* xs = (int*)pf_smem;
    int* ys = xs + nx;
    for (int u = t; u < nx; u += B) xs[u] = pf_term(I[xpix[x0 + u]]);
    for (int u = t; u < ny; u += B) ys[u] = 0;
    __syncthreads();
    int s = b * B + t;
    if (sched[s] >= 0) atomicAdd(&ys[ylocal[s]], xs[xlocal[s]]);
    __syncthreads();
    for (int u = t; u < ny; u += B) {
        int r = yuniq[y0 + u];
        if (yshared[y0 + u])
            atomicAdd(&lsum[r], ys[u]);
        else
            lsum[r] = ys[u];
    }
}

// SPAC, step 3: a thread per particle turns its exact sum of ratios into
// the likelihood (sum/50 over the sample count) and the weight, and the
// block adds its weights up as the original's likelihood kernel does.
extern "C" __global__ void pf_spac_weight(int n, const int* __restrict__ lsum, double* lik, double* weights, int countOnes,
                                          double* partial, int pow2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double w = 0.0;
    if (i < n) {
        double l = ((double)lsum[i] / 50.0) / (double)countOnes;
        lik[i] = l;
        w = __dmul_rn(1.0 / (double)n, exp(l));
        weights[i] = w;
    }
    pf_block_sum(w, partial, pow2);
}
