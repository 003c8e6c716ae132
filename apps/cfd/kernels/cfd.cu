// Rodinia's cfd (euler3d) on the GPU, fp32 and fp64: the original
// element-centric kernels and the SPAC-scheduled face-centric flux.
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary
// (apps/cfd/gpu.go); the driver compiles it for the device when the module
// loads. Parameters are device pointers and ints (the Go side passes every
// argument in an 8-byte slot; an int reads its low 4 bytes).
//
// The arithmetic is the CPU solver's (apps/cfd/solver.go), expression for
// expression and in the same order, which is euler3d.cu's: the two agree
// to rounding (nvcc contracts a*b+c into fused multiply-adds, Go on amd64
// does not), within cfd.Tolerance.
//
// Layouts (structure of arrays, n elements): vars[i + v*n] for density,
// momentum x/y/z, energy; neighbours nb[i + j*n]; normals
// normal[i + (j + k*4)*n], pointing into element i. The far-field state and
// its flux contributions come in ff (FF_* below), computed on the host
// exactly as the CPU solver computes them.

#define NNB 4
#define NVAR 5
#define RK 3
#define WING -1

// ff[]: the free stream.
#define FF_D 0
#define FF_M 1    // 1..3
#define FF_E 4
#define FF_FCM 5  // 5..13: fcM[r][k] at 5 + 3r + k
#define FF_FCE 14 // 14..16
#define FF_LEN 17

// euler3d's constants, rounded once from the decimal (as Go's T(0.4) does).
template <typename T>
struct Const;
template <>
struct Const<float> {
    static constexpr float gamma = 1.4f, gm1 = 0.4f, smoothing = 0.2f, half = 0.5f;
};
template <>
struct Const<double> {
    static constexpr double gamma = 1.4, gm1 = 0.4, smoothing = 0.2, half = 0.5;
};

// An element's variables and what every face of it needs: velocity,
// pressure, speed of sound, speed. The flux contribution tensor is formed
// from them per face (fc, fce) instead of being stored: that keeps a SPAC
// block's shared memory at 16 values per element.
template <typename T>
struct Cell {
    T d, m[3], e, v[3], p, c, s;
};

template <typename T>
__device__ __forceinline__ void load(Cell<T>& q, const T* __restrict__ vars, int i, int n) {
    q.d = vars[i];
    q.m[0] = vars[i + n];
    q.m[1] = vars[i + 2 * n];
    q.m[2] = vars[i + 3 * n];
    q.e = vars[i + 4 * n];
}

// The CPU's cell.derive.
template <typename T>
__device__ __forceinline__ void derive(Cell<T>& q) {
#pragma unroll
    for (int k = 0; k < 3; ++k) q.v[k] = q.m[k] / q.d;
    const T ssq = q.v[0] * q.v[0] + q.v[1] * q.v[1] + q.v[2] * q.v[2];
    q.p = Const<T>::gm1 * (q.e - Const<T>::half * q.d * ssq);
    q.c = sqrt(Const<T>::gamma * q.p / q.d);
    q.s = sqrt(ssq);
}

// Flux contribution fcM[r][k]: v[r] m[k] (+ p on the diagonal); the CPU
// fills the lower triangle from the upper, so fc(r, k) = v[min] m[max].
template <typename T>
__device__ __forceinline__ T fc(const Cell<T>& q, int r, int k) {
    if (k < r) return q.v[k] * q.m[r];
    T x = q.v[r] * q.m[k];
    if (k == r) x += q.p;
    return x;
}
template <typename T>
__device__ __forceinline__ T fce(const Cell<T>& q, int k) {
    return q.v[k] * (q.e + q.p);
}

// Adds the flux of an interior face with normal nrm (into a) between a and
// b to acc (density, momentum x/y/z, energy), term by term as the CPU does.
template <typename T>
__device__ __forceinline__ void interior(T (&acc)[NVAR], const T (&nrm)[3], const Cell<T>& a, const Cell<T>& b) {
    const T nl = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    const T g = -nl * Const<T>::smoothing * Const<T>::half * (a.s + b.s + a.c + b.c);
    acc[0] += g * (a.d - b.d);
    acc[4] += g * (a.e - b.e);
#pragma unroll
    for (int r = 0; r < 3; ++r) acc[1 + r] += g * (a.m[r] - b.m[r]);
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const T h = Const<T>::half * nrm[k];
        acc[0] += h * (b.m[k] + a.m[k]);
        acc[4] += h * (fce(b, k) + fce(a, k));
#pragma unroll
        for (int r = 0; r < 3; ++r) acc[1 + r] += h * (fc(b, r, k) + fc(a, r, k));
    }
}

template <typename T>
__device__ __forceinline__ void wing(T (&acc)[NVAR], const T (&nrm)[3], const Cell<T>& a) {
#pragma unroll
    for (int r = 0; r < 3; ++r) acc[1 + r] += nrm[r] * a.p;
}

// The central flux with the free stream.
template <typename T>
__device__ __forceinline__ void far_field(T (&acc)[NVAR], const T (&nrm)[3], const Cell<T>& a, const T* __restrict__ ff) {
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        const T h = Const<T>::half * nrm[k];
        acc[0] += h * (__ldg(&ff[FF_M + k]) + a.m[k]);
        acc[4] += h * (__ldg(&ff[FF_FCE + k]) + fce(a, k));
#pragma unroll
        for (int r = 0; r < 3; ++r) acc[1 + r] += h * (__ldg(&ff[FF_FCM + 3 * r + k]) + fc(a, r, k));
    }
}

// initialize_variables: every element gets the free stream.
template <typename T>
__device__ __forceinline__ void init(int n, const T* __restrict__ ff, T* __restrict__ vars) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    vars[i] = __ldg(&ff[FF_D]);
#pragma unroll
    for (int k = 0; k < 3; ++k) vars[i + (1 + k) * n] = __ldg(&ff[FF_M + k]);
    vars[i + 4 * n] = __ldg(&ff[FF_E]);
}

// compute_step_factor: 0.5 / (sqrt(area) (|v| + c)).
template <typename T>
__device__ __forceinline__ void step_factor(int n, const T* __restrict__ vars, const T* __restrict__ area, T* __restrict__ step) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Cell<T> q;
    load(q, vars, i, n);
    derive(q);
    step[i] = Const<T>::half / (sqrt(area[i]) * (q.s + q.c));
}

// The original compute_flux: a thread per element sums its four faces,
// loading and deriving each neighbour anew (so every interior face is
// evaluated twice, once from each side).
template <typename T>
__device__ __forceinline__ void flux(int n, const int* __restrict__ nb, const T* __restrict__ normal, const T* __restrict__ vars,
                                     const T* __restrict__ ff, T* __restrict__ fluxes) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Cell<T> a;
    load(a, vars, i, n);
    derive(a);
    T acc[NVAR] = {T(0), T(0), T(0), T(0), T(0)};
#pragma unroll
    for (int j = 0; j < NNB; ++j) {
        const int b = nb[i + j * n];
        const T nrm[3] = {normal[i + j * n], normal[i + (j + NNB) * n], normal[i + (j + 2 * NNB) * n]};
        if (b >= 0) {
            Cell<T> q;
            load(q, vars, b, n);
            derive(q);
            interior(acc, nrm, a, q);
        } else if (b == WING) {
            wing(acc, nrm, a);
        } else {
            far_field(acc, nrm, a, ff);
        }
    }
#pragma unroll
    for (int v = 0; v < NVAR; ++v) fluxes[i + v * n] = acc[v];
}

// time_step of Runge-Kutta round j: vars = old + step/(RK+1-j) * flux.
// CLEAR (the SPAC schedule) also zeroes the fluxes of the elements that
// several blocks add to, for the next flux evaluation.
template <typename T, bool CLEAR>
__device__ __forceinline__ void time_step(int j, int n, const T* __restrict__ old, const T* __restrict__ step, T* __restrict__ fluxes,
                                          T* __restrict__ vars, const unsigned char* __restrict__ shared) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const T factor = step[i] / T(RK + 1 - j);
    const bool clear = CLEAR && shared[i];
#pragma unroll
    for (int v = 0; v < NVAR; ++v) {
        vars[i + v * n] = old[i + v * n] + factor * fluxes[i + v * n];
        if (clear) fluxes[i + v * n] = T(0);
    }
}

// Shared memory of a SPAC block: value q of slot l at sh[q*ns + l], ns the
// part's slot count.
#define SH_D 0
#define SH_M 1  // 1..3
#define SH_E 4
#define SH_V 5  // 5..7
#define SH_P 8
#define SH_C 9
#define SH_S 10
#define SH_ACC 11 // 11..15: density, momentum x/y/z, energy
#define SH_LEN 16

template <typename T>
__device__ __forceinline__ void get(Cell<T>& q, const T* sh, int l, int ns) {
    q.d = sh[SH_D * ns + l];
#pragma unroll
    for (int k = 0; k < 3; ++k) {
        q.m[k] = sh[(SH_M + k) * ns + l];
        q.v[k] = sh[(SH_V + k) * ns + l];
    }
    q.e = sh[SH_E * ns + l];
    q.p = sh[SH_P * ns + l];
    q.c = sh[SH_C * ns + l];
    q.s = sh[SH_S * ns + l];
}

// The SPAC compute_flux (apps/cfd/schedule.go's Schedule; the CPU's
// faceFlux): block p runs part p. Its slots are its unique elements, the
// home range [home_start[p], home_start[p+1]) first (contiguous ids, so
// coalesced loads and stores), then copies of other parts' elements
// (slots[]). It stages every slot's variables and derived quantities in
// shared memory, evaluates each face once, adding the flux to face_a's
// accumulator and subtracting it from face_b's (shared-memory atomics:
// faces of one element run on several threads), then writes the
// accumulators out: a plain store for the leading home elements no other
// part touches (up to shared_start[p]), an atomicAdd for the rest, whose
// fluxes time_step<CLEAR> zeroed. Faces beyond the block size (boundary
// faces of home elements) are taken by a second pass of the threads.
template <typename T>
__device__ __forceinline__ void spac_flux(int n, int nf, const int* __restrict__ home_start, const int* __restrict__ shared_start,
                                          const int* __restrict__ slot_start, const int* __restrict__ slots,
                                          const int* __restrict__ face_start, const int* __restrict__ face_a,
                                          const int* __restrict__ face_b, const T* __restrict__ face_normal,
                                          const T* __restrict__ vars, const T* __restrict__ ff, T* __restrict__ fluxes) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* sh = reinterpret_cast<T*>(smem_raw);
    const int p = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
    const int h0 = home_start[p], nh = home_start[p + 1] - h0, excl = shared_start[p] - h0;
    const int s0 = slot_start[p], ns = slot_start[p + 1] - s0;
    const int f0 = face_start[p], f1 = face_start[p + 1];

    for (int l = t; l < ns; l += nt) {
        const int e = l < nh ? h0 + l : slots[s0 + l];
        Cell<T> q;
        load(q, vars, e, n);
        derive(q);
        sh[SH_D * ns + l] = q.d;
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            sh[(SH_M + k) * ns + l] = q.m[k];
            sh[(SH_V + k) * ns + l] = q.v[k];
        }
        sh[SH_E * ns + l] = q.e;
        sh[SH_P * ns + l] = q.p;
        sh[SH_C * ns + l] = q.c;
        sh[SH_S * ns + l] = q.s;
#pragma unroll
        for (int v = 0; v < NVAR; ++v) sh[(SH_ACC + v) * ns + l] = T(0);
    }
    __syncthreads();

    for (int f = f0 + t; f < f1; f += nt) {
        const int a = face_a[f], b = face_b[f];
        const T nrm[3] = {face_normal[f], face_normal[f + nf], face_normal[f + 2 * nf]};
        Cell<T> qa;
        get(qa, sh, a, ns);
        T F[NVAR] = {T(0), T(0), T(0), T(0), T(0)};
        if (b >= 0) {
            Cell<T> qb;
            get(qb, sh, b, ns);
            interior(F, nrm, qa, qb);
#pragma unroll
            for (int v = 0; v < NVAR; ++v) atomicAdd(&sh[(SH_ACC + v) * ns + b], -F[v]);
        } else if (b == WING) {
            wing(F, nrm, qa);
        } else {
            far_field(F, nrm, qa, ff);
        }
#pragma unroll
        for (int v = 0; v < NVAR; ++v) atomicAdd(&sh[(SH_ACC + v) * ns + a], F[v]);
    }
    __syncthreads();

    for (int l = t; l < ns; l += nt) {
        const int e = l < nh ? h0 + l : slots[s0 + l];
#pragma unroll
        for (int v = 0; v < NVAR; ++v) {
            const T x = sh[(SH_ACC + v) * ns + l];
            if (l < excl) {
                fluxes[e + v * n] = x;
            } else {
                atomicAdd(&fluxes[e + v * n], x);
            }
        }
    }
}

// Every kernel is bounded for 1024 threads, the largest block size swept,
// so that one compiled form serves every block size (at most 64 registers).
#define CFD_KERNELS(T, SUFFIX)                                                                                          \
    extern "C" __global__ void __launch_bounds__(1024) cfd_init_##SUFFIX(int n, const T* ff, T* vars) {                 \
        init<T>(n, ff, vars);                                                                                           \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(1024)                                                                  \
        cfd_step_factor_##SUFFIX(int n, const T* vars, const T* area, T* step) {                                        \
        step_factor<T>(n, vars, area, step);                                                                            \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(1024)                                                                  \
        cfd_flux_##SUFFIX(int n, const int* nb, const T* normal, const T* vars, const T* ff, T* fluxes) {               \
        flux<T>(n, nb, normal, vars, ff, fluxes);                                                                       \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(1024)                                                                  \
        cfd_time_step_##SUFFIX(int j, int n, const T* old, const T* step, T* fluxes, T* vars) {                         \
        time_step<T, false>(j, n, old, step, fluxes, vars, nullptr);                                                    \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(1024) cfd_time_step_clear_##SUFFIX(                                    \
        int j, int n, const T* old, const T* step, T* fluxes, T* vars, const unsigned char* shared) {                   \
        time_step<T, true>(j, n, old, step, fluxes, vars, shared);                                                      \
    }                                                                                                                   \
    extern "C" __global__ void __launch_bounds__(1024) cfd_spac_flux_##SUFFIX(                                          \
        int n, int nf, const int* home_start, const int* shared_start, const int* slot_start, const int* slots,         \
        const int* face_start, const int* face_a, const int* face_b, const T* face_normal, const T* vars, const T* ff,  \
        T* fluxes) {                                                                                                    \
        spac_flux<T>(n, nf, home_start, shared_start, slot_start, slots, face_start, face_a, face_b, face_normal, vars, \
                     ff, fluxes);                                                                                       \
    }

CFD_KERNELS(float, f32)
CFD_KERNELS(double, f64)
