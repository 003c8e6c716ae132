// SpMV kernels of the spac toolkit: y = A x in fp32 and fp64.
//
// Compiled to PTX for the virtual architecture compute_80 (make ptx) and
// embedded in the Go binary; the driver compiles the PTX for the GPU it
// runs on (sm_90 on an H100) when the module loads. Nothing here needs more
// than sm_60 (fp64 atomicAdd); compute_80 keeps the PTX loadable on Ampere
// too, and the driver's compiler still optimizes for the real device.
//
// Parameters are device pointers and ints only: the Go side passes every
// argument in an 8-byte slot (gorgonia.org/cu's Launch), and a kernel's int
// takes the low 4 bytes of it (little-endian).
//
// Every kernel computes all of y from any prior content of y, together with
// the clearing launch the host issues first where a kernel accumulates with
// atomics (coo-atomic: all of y; spac-*: the rows shared between blocks).

#define FULL_MASK 0xffffffffu

// One thread per row.
template <typename T>
__device__ __forceinline__ void csr_scalar(int nrows, const int* __restrict__ rowptr, const int* __restrict__ col,
                                           const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows) return;
    const int lo = rowptr[r], hi = rowptr[r + 1];
    T s = T(0);
    for (int j = lo; j < hi; ++j) s += val[j] * __ldg(&x[col[j]]);
    y[r] = s;
}

// One warp per row: lanes stride over the row, then a shuffle reduction.
template <typename T>
__device__ __forceinline__ void csr_vector(int nrows, const int* __restrict__ rowptr, const int* __restrict__ col,
                                           const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
    const int row = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= nrows) return;  // uniform across the warp
    const int lo = rowptr[row], hi = rowptr[row + 1];
    T s = T(0);
    for (int j = lo + lane; j < hi; j += 32) s += val[j] * __ldg(&x[col[j]]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(FULL_MASK, s, o);
    if (lane == 0) y[row] = s;
}

// One thread per nonzero, atomicAdd into y (cleared by the host first).
template <typename T>
__device__ __forceinline__ void coo_atomic(int nnz, const int* __restrict__ row, const int* __restrict__ col,
                                           const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y) {
    const int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= nnz) return;
    atomicAdd(&y[row[e]], val[e] * __ldg(&x[col[e]]));
}

// y[rows[i]] = 0: clears the rows the SPAC kernels flush with atomics.
template <typename T>
__device__ __forceinline__ void zero_rows(int n, const int* __restrict__ rows, T* __restrict__ y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[rows[i]] = T(0);
}

// A vector moved into another order, dst[i] = src[from[i]]: x into the
// column order of csr-d16-hot, csr-d16-rcm and spac-d16-ord, and the
// latter two's y back into the user's order (apps/spmv/device.go,
// addD16Ordered: why y is gathered, not scattered). The index and the
// stores stream through the L2 evict-first, so that they push out less of
// src, read at random: csr-d16-rcm 349 -> 337 us (fp32) on the
// random-order 200^3 mesh, 0.3-1.3% elsewhere (issue20.md, round 18);
// also marking src's loads evict-last gained nothing more.
template <typename T>
__device__ __forceinline__ void gather(int n, const int* __restrict__ from, const T* __restrict__ src,
                                       T* __restrict__ dst) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) __stcs(&dst[i], __ldg(&src[__ldcs(&from[i])]));
}

// Loads of K consecutive slots (K = 1 or 4), 16 bytes wide where they can
// be: slot offsets are multiples of K and device arrays 256-byte aligned.
template <int K>
__device__ __forceinline__ void load_slots(const float* __restrict__ p, float (&v)[K]) {
    if constexpr (K == 4) {
        const float4 a = *reinterpret_cast<const float4*>(p);
        v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    } else {
        v[0] = *p;
    }
}
template <int K>
__device__ __forceinline__ void load_slots(const double* __restrict__ p, double (&v)[K]) {
    if constexpr (K == 4) {
        const double2 a = *reinterpret_cast<const double2*>(p);
        const double2 b = *reinterpret_cast<const double2*>(p + 2);
        v[0] = a.x, v[1] = a.y, v[2] = b.x, v[3] = b.y;
    } else {
        v[0] = *p;
    }
}
template <int K>
__device__ __forceinline__ void load_slots(const unsigned short* __restrict__ p, int (&v)[K]) {
    if constexpr (K == 4) {
        const ushort4 a = *reinterpret_cast<const ushort4*>(p);
        v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    } else {
        v[0] = *p;
    }
}
template <int K>
__device__ __forceinline__ void load_slots(const int* __restrict__ p, int (&v)[K]) {
    if constexpr (K == 4) {
        const int4 a = *reinterpret_cast<const int4*>(p);
        v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    } else {
        v[0] = *p;
    }
}

// The SPAC schedule: block b runs the tasks of part b, the B = K*blockDim.x
// slots from b*B; thread t runs slots b*B + K*t .. + K-1 (K = 1: a thread per
// task, the paper's mapping; K = 4: four consecutive tasks, 16-byte loads).
// Per block, meta[2b] = {x0, nx, y0, ny} and meta[2b+1].x = its task count:
// its unique x are x_unique[x0 .. x0+nx), its rows y_unique[y0 .. y0+ny)
// with their shared flags; nx, ny <= B. Per slot: the value and the local x
// address (STAGE_X) or the global column (!STAGE_X). A block's tasks are
// sorted by row, so a slot's local y address is the number of rows started
// up to it, less one: row_start holds one bit per slot (bit s%32 of word
// s/32), set where a task's row differs from the previous task's in the
// block. That costs 1/8 byte a slot where a uint16 address costs 2. Shared
// memory holds the block's y slots, then (STAGE_X) its x slots, then the
// rows started in each warp.
//
// Every load that does not depend on another is issued first, so a block
// waits on at most meta -> x_unique -> x before its barrier. A thread sums
// its run of equal rows and adds a finished run to shared memory; the run
// it ends with goes through a segmented warp scan, so that only the last
// lane of each row's run does a shared atomicAdd. The flush stores the rows
// the block owns and atomically adds the rows other blocks share (the host
// cleared those).
template <typename T, bool STAGE_X, int K>
__device__ __forceinline__ void spac(const int4* __restrict__ meta, const int* __restrict__ x_unique,
                                     const int* __restrict__ y_unique, const unsigned char* __restrict__ y_shared,
                                     const T* __restrict__ val, const unsigned short* __restrict__ x_local,
                                     const int* __restrict__ col, const unsigned* __restrict__ row_start,
                                     const T* __restrict__ x, T* __restrict__ y) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* ys = reinterpret_cast<T*>(smem_raw);
    const int t = threadIdx.x;
    const int nt = blockDim.x;
    const int lane = t & 31;
    const int local = t * K;  // the thread's first slot within the block
    const size_t slot = (size_t)blockIdx.x * nt * K + local;

    int xa[K];
    T v[K], xv[K];
    load_slots<K>(val + slot, v);
    const unsigned bits = (__ldg(&row_start[slot >> 5]) >> (slot & 31)) & ((1u << K) - 1);
    const int4 m = __ldg(&meta[2 * blockIdx.x]);  // x0, nx, y0, ny
    const int tasks = __ldg(&meta[2 * blockIdx.x + 1]).x;
    if (STAGE_X) {
        load_slots<K>(x_local + slot, xa);
    } else {
        load_slots<K>(col + slot, xa);
#pragma unroll
        for (int j = 0; j < K; ++j) xv[j] = __ldg(&x[xa[j]]);  // padding slots read x[0]
    }
    int row[K];
    unsigned char shared_row[K];
#pragma unroll
    for (int j = 0; j < K; ++j) {
        const int i = t + j * nt;
        row[j] = 0;
        shared_row[j] = 0;
        if (i < m.w) {
            row[j] = y_unique[m.z + i];
            shared_row[j] = y_shared[m.z + i];
            ys[i] = T(0);
        }
    }
    T* xs = ys + m.w;
    if (STAGE_X) {
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int i = t + j * nt;
            if (i < m.y) xs[i] = __ldg(&x[x_unique[m.x + i]]);
        }
    }
    // Rows started before this thread within its warp, and per warp.
    const int count = __popc(bits);
    int before = count;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int q = __shfl_up_sync(FULL_MASK, before, d);
        if (lane >= d) before += q;
    }
    int* warp_rows = reinterpret_cast<int*>(STAGE_X ? xs + m.y : xs);
    if (lane == 31) warp_rows[t >> 5] = before;
    before -= count;
    __syncthreads();
    for (int w = 0; w < (t >> 5); ++w) before += warp_rows[w];

    // The thread's runs: finished ones go to shared memory directly.
    int key = -1;
    T p = T(0);
#pragma unroll
    for (int j = 0; j < K; ++j) {
        if (local + j >= tasks) break;
        const T prod = v[j] * (STAGE_X ? xs[xa[j]] : xv[j]);
        const int yl = before + __popc(bits & ((2u << j) - 1)) - 1;
        if (yl != key) {
            if (key >= 0) atomicAdd(&ys[key], p);
            key = yl;
            p = T(0);
        }
        p += prod;
    }
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const T q = __shfl_up_sync(FULL_MASK, p, d);
        const int k = __shfl_up_sync(FULL_MASK, key, d);
        if (lane >= d && k == key) p += q;
    }
    const int next = __shfl_down_sync(FULL_MASK, key, 1);
    if (key >= 0 && (lane == 31 || next != key)) atomicAdd(&ys[key], p);
    __syncthreads();

#pragma unroll
    for (int j = 0; j < K; ++j) {
        const int i = t + j * nt;
        if (i < m.w) {
            const T acc = ys[i];
            if (shared_row[j]) {
                atomicAdd(&y[row[j]], acc);
            } else {
                y[row[j]] = acc;
            }
        }
    }
}

// y[g] = v for a row the block owns, atomicAdd for a row other blocks share
// (bit 31 of its y_row entry; the host cleared those rows).
template <typename T>
__device__ __forceinline__ void seg_store(const int* __restrict__ y_row, int r, T v, T* __restrict__ y) {
    const int g = __ldg(&y_row[r]);
    if (g < 0) {
        atomicAdd(&y[g & 0x7fffffff], v);
    } else {
        y[g] = v;
    }
}

// spac-seg: the SPAC schedule with four slots per thread and every row
// boundary precomputed (apps/spmv/seg.go describes the format and checks it
// with a CPU emulation of this kernel). Per slot it reads the value and the
// uint16 block-local x address, per thread one descriptor: the local row
// of its first slot (bits 0-9), which slots start a row (10-13), the lane
// where its last row starts in the warp (14-18), and flags (19-23: the last
// row ends here; the first or the last row ends here but began in an
// earlier warp, so its sum is the warp's head carry; the warp is one row
// throughout; the thread has tasks). A thread sums its runs and stores a
// run that starts and ends inside it; the last run goes through one
// segmented warp scan whose segments start at the precomputed lanes, and
// the lane where a row ends stores it. Rows that cross a warp leave carries
// in shared memory, which thread 0 adds up in warp order after the second
// barrier. Each row reaches y once per block: a plain store where the block
// owns it. Dynamic shared memory holds the block's x (STAGE_X); without
// it (spac-seg-ldg) a slot reads x through the read-only cache at its
// int32 column instead of its uint16 address, and the first barrier goes.
template <typename T, bool STAGE_X>
__device__ __forceinline__ void spac_seg(const int4* __restrict__ meta, const int* __restrict__ x_unique,
                                         const int* __restrict__ y_row, const T* __restrict__ val,
                                         const unsigned short* __restrict__ x_local, const int* __restrict__ col,
                                         const unsigned* __restrict__ desc, const T* __restrict__ x,
                                         T* __restrict__ y) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* xs = reinterpret_cast<T*>(smem_raw);
    // The warps' carries: at most 8 warps (blocks of 1024 tasks, 256 threads).
    __shared__ T head[8], tail[8];
    __shared__ int row_t[8], flags[8];
    const int t = threadIdx.x;
    const int nt = blockDim.x;
    const int lane = t & 31, w = t >> 5;

    const size_t slot = ((size_t)blockIdx.x * nt + t) * 4;
    T v[4], xv[4];
    int xa[4];
    load_slots<4>(val + slot, v);
    const unsigned d = __ldg(&desc[(size_t)blockIdx.x * nt + t]);
    const int4 m = __ldg(&meta[2 * blockIdx.x]);  // x0, nx, y0, ny
    const int tasks = __ldg(&meta[2 * blockIdx.x + 1]).x;
    if (STAGE_X) {
        load_slots<4>(x_local + slot, xa);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int i = t + j * nt;
            if (i < m.y) xs[i] = __ldg(&x[__ldg(&x_unique[m.x + i])]);
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < 4; ++j) xv[j] = xs[xa[j]];
    } else {
        load_slots<4>(col + slot, xa);
#pragma unroll
        for (int j = 0; j < 4; ++j) xv[j] = __ldg(&x[xa[j]]);  // padding slots read x[0]
    }
    const int* yr = y_row + m.z;

    // Only the block's last thread with tasks may have padding slots: the
    // others take the path without a test per slot.
    const int valid = tasks - 4 * t;
    T prod[4];
    if (valid >= 4) {
#pragma unroll
        for (int j = 0; j < 4; ++j) prod[j] = v[j] * xv[j];
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) prod[j] = j < valid ? v[j] * xv[j] : T(0);
    }
    int row = d & 1023;
    T sum = T(0), first = T(0);
    bool multi = false;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        if (j > 0 && ((d >> (10 + j)) & 1u)) {
            if (multi) {
                seg_store(yr, row, sum, y);  // a run inside the thread
            } else {
                first = sum;
            }
            multi = true;
            ++row;
            sum = T(0);
        }
        sum += prod[j];
    }
    const int seg = (d >> 14) & 31;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const T q = __shfl_up_sync(FULL_MASK, sum, o);
        if (lane - o >= seg) sum += q;
    }
    const T prev = __shfl_up_sync(FULL_MASK, sum, 1);
    if (multi) {
        const T f = (lane > 0 && !(d & (1u << 10))) ? first + prev : first;
        if (d & (1u << 20)) {
            head[w] = f;
        } else {
            seg_store(yr, (int)(d & 1023), f, y);
        }
    }
    const bool active = d & (1u << 23), tail_end = d & (1u << 19);
    if (tail_end) {
        if (d & (1u << 21)) {
            head[w] = sum;
        } else {
            seg_store(yr, row, sum, y);
        }
    } else if (lane == 31 && active) {
        tail[w] = sum;
        row_t[w] = row;
    }
    if (lane == 31) flags[w] = (active && !tail_end) ? (1 | ((d >> 21) & 2)) : 0;
    __syncthreads();
    if (t == 0) {
        const int warps = (tasks + 127) >> 7;
        bool open = false;
        T c = T(0);
        int r = 0;
        for (int k = 0; k < warps; ++k) {
            const int f = flags[k];
            if (open) {
                if (f & 2) {
                    c += tail[k];
                    continue;
                }
                seg_store(yr, r, c + head[k], y);
                open = false;
            }
            if (f & 1) {
                c = tail[k];
                r = row_t[k];
                open = true;
            }
        }
    }
}

// Eight consecutive slots of streamed data (values, local x addresses),
// loaded 16 bytes at a time with the streaming hint (ld.global.cs: evict
// first from L1 and L2). Every slot is read once per product; marking it
// so leaves the L2 to what is reused, x and y.
__device__ __forceinline__ void load8_stream(const float* __restrict__ p, float (&v)[8]) {
    const float4 a = __ldcs(reinterpret_cast<const float4*>(p));
    const float4 b = __ldcs(reinterpret_cast<const float4*>(p) + 1);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w, v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
}
__device__ __forceinline__ void load8_stream(const double* __restrict__ p, double (&v)[8]) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const double2 a = __ldcs(reinterpret_cast<const double2*>(p) + k);
        v[2 * k] = a.x, v[2 * k + 1] = a.y;
    }
}

// Asks the L2 to fetch the sector at p; nothing waits for it.
__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

// y[g] = v for a row the block owns, atomicAdd for a row other blocks share
// (bit 31 of its entry; the host cleared those rows); the block's rows are
// in shared memory.
template <typename T>
__device__ __forceinline__ void row_store(const int* rows, int r, T v, T* __restrict__ y) {
    const int g = rows[r];
    T* const p = y + (unsigned)(g & 0x7fffffff);  // one address for both paths
    if (g < 0) {
        atomicAdd(p, v);
    } else {
        *p = v;
    }
}

// One round of staging: R of the block's unique x and R of its rows' global
// indices per thread, all R pairs of loads in flight before the first
// store to shared memory.
template <typename T, int R>
__device__ __forceinline__ void stage_round(int i, int nt, const int4& m, const int* __restrict__ x_unique,
                                            const int* __restrict__ y_row, const T* __restrict__ x, T* xs,
                                            int* rows) {
    int c[R], r[R];
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const int k = i + j * nt;
        c[j] = k < m.y ? __ldg(&x_unique[m.x + k]) : 0;
        r[j] = k < m.w ? __ldg(&y_row[m.z + k]) : 0;
    }
#pragma unroll
    for (int j = 0; j < R; ++j) {
        const int k = i + j * nt;
        if (k < m.y) xs[k] = __ldg(&x[c[j]]);
        if (k < m.w) rows[k] = r[j];
    }
}

// seg8_scan is the segmented warp scan of seg8_sums and seg8_stage over
// the threads' last runs (sum): a thread's segment starts at the highest
// lane at or below it with a row start (any: the lanes whose slots start
// one), and seg8_scan returns that lane, -1 for none (the row began in an
// earlier warp). prev is then the scanned sum of the lane below.
template <typename T>
__device__ __forceinline__ int seg8_scan(unsigned any, int lane, T& sum, T& prev) {
    const unsigned le = any & (FULL_MASK >> (31 - lane));
    const int seg = le ? 31 - __clz(le) : -1;
    const int segc = max(seg, 0);
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const T u = __shfl_up_sync(FULL_MASK, sum, d);
        if (lane - d >= segc) sum += u;
    }
    prev = __shfl_up_sync(FULL_MASK, sum, 1);
    return seg;
}

// seg8_last_runs ends seg8_sums and seg8_stage: the lane where a thread's
// last run (scanned: sum) ends its row stores it, or leaves it to thread 0
// as its warp's head or tail where the row crosses warps; thread 0 then
// adds those rows up in warp order. carry: this thread ends the warp's
// first row, begun in an earlier warp. store(r, s) writes local row r.
template <typename T, typename Store>
__device__ __forceinline__ void seg8_last_runs(int t, int lane, int w, T sum, int row, int seg, int valid,
                                               unsigned starts, int tasks, bool carry, T (&head)[4], T (&tail)[4],
                                               int (&row_t)[4], int (&info)[4], Store store) {
    if (valid > 0) {
        const bool last = valid <= 8;  // the block's last thread with tasks
        if (last || (lane < 31 && ((starts >> (lane + 1)) & 1u))) {
            if (seg < 0) {
                head[w] = sum;
                carry = true;
            } else {
                store(row, sum);
            }
        } else if (lane == 31) {
            tail[w] = sum;
            row_t[w] = row;
        }
    }
    if (tasks <= 32 * 8) return;  // one warp of tasks: no row crosses a warp (uniform per block)
    const unsigned carried = __ballot_sync(FULL_MASK, carry);
    if (lane == 0) info[w] = (int)(starts & 1u) | (carried ? 2 : 0) | (tasks > 256 * (w + 1) ? 4 : 0);
    __syncthreads();
    if (t == 0) {
        // Warp k: bit 0, its first slot starts a row; bit 1, a row begun
        // before it ends in it (head); bit 2, its last row goes on (tail).
        bool open = false;
        T c = T(0);
        int r = 0;
        for (int k = 0; k < (tasks + 255) >> 8; ++k) {
            const int fl = info[k];
            if (open) {
                if (fl & 1) {
                    store(r, c);
                    open = false;
                } else if (fl & 2) {
                    store(r, c + head[k]);
                    open = false;
                } else {
                    c += tail[k];  // the row runs through warp k
                    continue;
                }
            }
            if (fl & 4) {
                c = tail[k];
                r = row_t[k];
                open = true;
            }
        }
    }
}

// The sums of eight slots per thread (spac-seg8's, and csr-d16's, whose
// slots and row starts have the same layout): v and xv the thread's values
// and x entries, f its row starts (bit j: slot j starts a row), row0 the
// local row of its first slot, tasks the block's slots with tasks. A thread
// sums its runs and stores a run that starts and ends in it; its last run
// goes through the warp's segmented scan, and the lane where the row ends
// stores it. A row that crosses warps leaves carries in shared memory,
// which thread 0 adds up in warp order. store(r, s) writes local row r.
// csr-d16's narrow kernels use seg8_stage below instead wherever a block
// has at most D16_STAGE_ROWS rows: these stores are divergent (a warp runs
// a slot's store wherever any lane ends a run there).
template <typename T, typename Store>
__device__ __forceinline__ void seg8_sums(const T (&v)[8], const T (&xv)[8], unsigned f, int row0, int tasks,
                                          Store store) {
    __shared__ T head[4], tail[4];
    __shared__ int row_t[4], info[4];
    const int t = threadIdx.x;
    const int lane = t & 31, w = t >> 5;
    const unsigned any = __ballot_sync(FULL_MASK, f != 0u);
    const unsigned starts = __ballot_sync(FULL_MASK, f & 1u);
    const int valid = tasks - 8 * t;  // slots with tasks; only the block's last thread has padding
    int row = row0;
    T sum = T(0), first = T(0);
    bool multi = false;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        if (j > 0 && ((f >> j) & 1u)) {
            if (multi) {
                store(row, sum);  // a run inside the thread
            } else {
                first = sum;
            }
            multi = true;
            ++row;
            sum = T(0);
        }
        sum += v[j] * xv[j];
    }

    T prev;
    const int seg = seg8_scan(any, lane, sum, prev);
    bool carry = false;  // this thread ends the warp's first row, begun in an earlier warp
    if (multi) {
        if (f & 1u) {
            store(row0, first);
        } else if (any & ((1u << lane) - 1u)) {
            store(row0, first + prev);
        } else {
            head[w] = lane > 0 ? first + prev : first;
            carry = true;
        }
    }
    seg8_last_runs(t, lane, w, sum, row, seg, valid, starts, tasks, carry, head, tail, row_t, info, store);
}

// A store to shared memory at a 32-bit shared address.
__device__ __forceinline__ void st_shared(unsigned a, float v) {
    asm volatile("st.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
}
__device__ __forceinline__ void st_shared(unsigned a, double v) {
    asm volatile("st.shared.f64 [%0], %1;" ::"r"(a), "d"(v) : "memory");
}

// seg8_sums' staged form (csr-d16's narrow kernels, a block of at most
// D16_STAGE_ROWS rows): every row's sum goes to ys[r] in shared memory, the
// carries too (thread 0, after a barrier), and it ends with a barrier; the
// caller then stores ys[0..last] to y in one coalesced pass. In seg8_sums a
// run's store is a branch that a warp takes wherever any lane ends a run
// there: seven times in the 8-slot loop, each with the atomic/plain branch
// and, in spac-d16, a row_map load inside, most lanes idle. Here a thread
// stores each run that ends inside it as it ends, its first run too (where
// that run continues a row begun before the thread, its partial sum, which
// the thread completes after the scan): per slot a predicated shared store,
// a predicated address increment and the product, no branch.
//
// H200, ncu (docs/gpu-bench-h200/README.md, stop 48 variants): warp
// instructions x 32 a nonzero of csr-d16 62.9 -> 51.0 (fp32) and 68.2 ->
// 54.0 (fp64) on in-2004, 58.5 -> 51.5 and 63.5 -> 54.5 on circuit5M;
// spac-d16-own 73.1 -> 52.9, 79.0 -> 55.9, 63.9 -> 53.4, 69.4 -> 56.4, all
// below cuSPARSE's csrmv (stop 48's counters); active lanes of an average
// warp instruction 58-71% -> 84-86%. Plain medians: in-2004 csr-d16
// 45.0-45.4 -> 38.6-38.9 us (fp32), 60.8-61.6 -> 60.5-60.9 (fp64);
// spac-d16-own 52.2-52.7 -> 40.0-40.1, 72.5-74.4 -> 64.3-64.6; circuit5M
// csr-d16 144.5-144.9 -> 135.0-135.5, 230.7-230.9 -> 230.4-230.6;
// spac-d16-own 162.5-164.1 -> 146.3-146.4, 259.6-260.6 -> 244.3-244.5.
// Tried: every block staged in 1024 rows (no seg8_sums fallback) had the
// fewest instructions (49.1-54.1), but the driver gave its blocks of 4 and
// 8 KB a 132 KB shared-memory carveout, and fp32 csr-d16 40 registers:
// 66.0 us on in-2004 in fp64 and 257.1 on circuit5M, slower than main;
// 128 rows with thread 0's carries without branches (1.3-2.0 instructions
// a nonzero fewer) sped spac-d16-own up by 1-3% more, but the driver gave
// csr-d16 40 and 47 registers: 145.9 and 251.2 us on circuit5M. 256 rows
// take 1152 and 2240 bytes a block: a 64 KB carveout in fp32, 100 KB in
// fp64 (32 KB before).
template <typename T>
__device__ __forceinline__ void seg8_stage(const T (&v)[8], const T (&xv)[8], unsigned f, int row0, int tasks,
                                           T* ys) {
    __shared__ T head[4], tail[4];
    __shared__ int row_t[4], info[4];
    const int t = threadIdx.x;
    const int lane = t & 31, w = t >> 5;
    const unsigned any = __ballot_sync(FULL_MASK, f != 0u);
    const unsigned starts = __ballot_sync(FULL_MASK, f & 1u);
    const int valid = tasks - 8 * t;  // slots with tasks; only the block's last thread has padding
    unsigned a = (unsigned)__cvta_generic_to_shared(ys + row0);
    T sum = v[0] * xv[0];
#pragma unroll
    for (int j = 1; j < 8; ++j) {
        if ((f >> j) & 1u) {
            st_shared(a, sum);  // the run that ends at slot j - 1
            a += sizeof(T);
            sum = T(0);
        }
        sum += v[j] * xv[j];
    }
    const bool multi = f & 0xfeu;
    const int row = row0 + __popc(f & 0xfeu);  // the row of the thread's last run
    T prev;
    const int seg = seg8_scan(any, lane, sum, prev);
    bool carry = false;  // this thread ends the warp's first row, begun in an earlier warp
    if (multi && !(f & 1u)) {
        // The first run continues a row begun in an earlier lane or warp:
        // its partial sum is at ys[row0].
        const T first = ys[row0];
        if (any & ((1u << lane) - 1u)) {
            ys[row0] = first + prev;
        } else {
            head[w] = lane > 0 ? first + prev : first;
            carry = true;
        }
    }
    seg8_last_runs(t, lane, w, sum, row, seg, valid, starts, tasks, carry, head, tail, row_t, info,
                   [&](int r, T x) { ys[r] = x; });
    __syncthreads();
}

// spac-seg8: the SPAC schedule with eight slots per thread (B/8 threads, at
// most four warps) and no per-thread descriptor (apps/spmv/seg8.go
// describes the format and checks it with a CPU emulation of this kernel).
// Per slot it reads the value and one uint16: the block-local x address in
// bits 0-14 and, in bit 15, whether the slot starts a row. The ranks come
// from those bits: a thread's first local row is the rows started before
// its warp (meta, per warp) plus a warp scan of its count of row starts;
// the segment of the warp's segmented scan starts at the highest lane at
// or below the thread's with a row start (one ballot). The block's x and
// its rows' global indices are staged in shared memory together (one
// dependent round for most blocks), so a row's store waits on no global
// load. The sums are seg8_sums'. Each row reaches y once per block.
//
// PREFETCH (spac-seg8-pf, -lbpf): after its own streamed loads, each thread
// asks the L2 for its slots of the part dist blocks ahead (prefetch.global.L2:
// no register, no scoreboard, nothing waits on it). A block spends most of
// its life on the dependent staging chain (meta -> x_unique -> x), the
// barrier and the sums, with none of its streamed bytes in flight; the
// prefetches keep DRAM busy in those phases, and the later block finds its
// slots in the L2. dist is about a wave of resident blocks (the host
// bounds the bytes it keeps in the L2, seg8PrefetchDistance).
template <typename T, bool PREFETCH>
__device__ __forceinline__ void spac_seg8(const int4* __restrict__ meta, const int* __restrict__ x_unique,
                                          const int* __restrict__ y_row, const T* __restrict__ val,
                                          const unsigned short* __restrict__ x_flag, const T* __restrict__ x,
                                          T* __restrict__ y, int dist) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T* xs = reinterpret_cast<T*>(smem_raw);
    const int t = threadIdx.x;
    const int nt = blockDim.x;
    const int lane = t & 31, w = t >> 5;

    const size_t slot = ((size_t)blockIdx.x * nt + t) * 8;
    T v[8];
    load8_stream(val + slot, v);
    const uint4 q = __ldcs(reinterpret_cast<const uint4*>(x_flag + slot));
    if constexpr (PREFETCH) {
        if (dist > 0 && blockIdx.x + (unsigned)dist < gridDim.x) {
            // One prefetch per 32-byte sector: the thread's values (32 or
            // 64 bytes), and its 16 bytes of addresses from every other lane.
            const size_t ahead = slot + (size_t)dist * nt * 8;
            prefetch_l2(val + ahead);
            if constexpr (sizeof(T) == 8) prefetch_l2(val + ahead + 4);
            if ((lane & 1) == 0) prefetch_l2(x_flag + ahead);
        }
    }
    const int4 m = __ldg(&meta[2 * blockIdx.x]);      // x0, nx, y0, ny
    const int4 m2 = __ldg(&meta[2 * blockIdx.x + 1]);  // tasks, rows started before warps 1, 2, 3
    int* rows = reinterpret_cast<int*>(xs + m.y);

    // Stage x and the rows in one round where two of each per thread do
    // (predicated slots cost instructions), else in rounds of four.
    const int stage = max(m.y, m.w);
    if (stage <= 2 * nt) {
        stage_round<T, 2>(t, nt, m, x_unique, y_row, x, xs, rows);
    } else {
        for (int i = t; i < stage; i += 4 * nt) stage_round<T, 4>(i, nt, m, x_unique, y_row, x, xs, rows);
    }

    // Row starts: bit j of f is bit 15 of slot j's uint16 (little-endian
    // halves of q). Padding slots start nothing.
    const unsigned f = ((q.x >> 15) & 1u) | ((q.x >> 30) & 2u) | ((q.y >> 13) & 4u) | ((q.y >> 28) & 8u) |
                       ((q.z >> 11) & 16u) | ((q.z >> 26) & 32u) | ((q.w >> 9) & 64u) | ((q.w >> 24) & 128u);
    const int count = __popc(f);
    int before = count;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int u = __shfl_up_sync(FULL_MASK, before, d);
        if (lane >= d) before += u;
    }
    const int wbase = w == 0 ? 0 : w == 1 ? m2.y : w == 2 ? m2.z : m2.w;
    const int row0 = wbase + before - count + (int)(f & 1u) - 1;  // the local row of the first slot
    const int tasks = m2.x;
    const int valid = tasks - 8 * t;  // slots with tasks; only the block's last thread has padding
    __syncthreads();

    T xv[8];
    const unsigned qa[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int j = 0; j < 8; ++j) xv[j] = xs[(qa[j >> 1] >> (16 * (j & 1))) & 0x7fffu];
    if (valid < 8) {
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            if (j >= valid) xv[j] = T(0);
        }
    }
    seg8_sums(v, xv, f, row0, tasks, [&](int r, T s) { row_store(rows, r, s, y); });
}

// spac-d16's gathers of x and plain stores of y carry L2 eviction hints.
// Beyond the L2 (circuit5M in fp64: x and y 89 MB, the H100's L2 50 MB) the
// format's streams already load evict-first (__ldcs), but y was stored with
// plain writes, so its lines, written once and never read, pushed x's out.
// y now stores evict-first (st.global.cs), and a quarter of x's lines
// (chosen by address, createpolicy.fractional) load evict-last, so that
// part of x stays resident through the product. spac-d16-own on circuit5M
// at B=16384, the same schedule: fp32 194.6-194.8 -> 188.3 us, fp64
// 321.9-322.6 -> 317.4 (issue20.md, round 16). Marking x alone, with y's
// stores plain, was slower (fp32 205.6-208.9 us): y then evicts the rest of
// x sooner; marking all of x or half of it gained less in fp64 (319.4-320.8
// us). csr-d16 and its orders keep plain loads and stores: there the hints
// cost csr-d16 4% in fp32 on circuit5M, and csr-d16-rcm 6% in fp64, whose y
// is read back at once by the gather that puts y in the user's order.
__device__ __forceinline__ unsigned long long x_keep_policy() {
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 0f3E800000;" : "=l"(policy));  // 0.25
    return policy;
}
__device__ __forceinline__ float ldg_keep(const float* p, unsigned long long policy) {
    float v;
    asm volatile("ld.global.nc.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(v) : "l"(p), "l"(policy));
    return v;
}
__device__ __forceinline__ double ldg_keep(const double* p, unsigned long long policy) {
    double v;
    asm volatile("ld.global.nc.L2::cache_hint.f64 %0, [%1], %2;" : "=d"(v) : "l"(p), "l"(policy));
    return v;
}
template <bool KEEP, typename T>
__device__ __forceinline__ T ldg_x(const T* p, unsigned long long policy) {
    if constexpr (KEEP) {
        return ldg_keep(p, policy);
    } else {
        return __ldg(p);
    }
}

// csr-d16: CSR's entries in their own order, cut into blocks of B slots
// (B/8 threads of eight consecutive slots, as spac-seg8's), each entry's
// column a uint16 offset from its block's column base (apps/spmv/d16.go:
// the format). Per slot it reads the value and the uint16, per thread one
// byte of row starts; nothing is staged, so x is gathered as soon as the
// offsets arrive. Offset 0xffff escapes: the column is the next of the
// block's escaped columns, whose rank comes from the same warp scan as the
// rows' (both counts packed in one int); 0xfffe is a slot without an entry
// (an empty row's, or padding), whose x is not read. In the wide form
// (WIDE, csr_d16_wide), a wide block (flag 4: its columns too scattered for
// offsets) has 24-bit columns from its base (the least): the offsets are
// their low 16 bits, high their high 8, read once the flag is known;
// 0xffffff is a slot without an entry. Rows are consecutive: local row r is
// global row0 + r (an empty row has its slot), stored once per block with
// seg8_sums, by atomicAdd where the row crosses the block's first or last
// slot (the host cleared those rows), plainly elsewhere. spac-d16 (MAPPED)
// runs the same format over a SPAC schedule's rows, block by block: its
// row row0 + r is an index into row_map, which holds the row of y, with
// bit 31 set where other blocks add to it too (atomicAdd; cleared first).
// The narrow forms stage the sums of a block of at most D16_STAGE_ROWS rows
// in shared memory (seg8_stage) and store them to y in one coalesced pass,
// thread r storing row r (spac-d16: row_map read there, coalesced); a block
// of more rows, and the wide forms (not measured with staging), store with
// seg8_sums as before.
#define D16_STAGE_ROWS 256
template <typename T, bool WIDE, bool MAPPED, bool EARLY = false>
__device__ __forceinline__ void csr_d16(const int4* __restrict__ meta, const T* __restrict__ val,
                                        const unsigned short* __restrict__ delta,
                                        const unsigned char* __restrict__ high,
                                        const unsigned char* __restrict__ row_starts, const int* __restrict__ esc,
                                        const int* __restrict__ row_map, const T* __restrict__ x,
                                        T* __restrict__ y) {
    const int t = threadIdx.x;
    const int lane = t & 31, w = t >> 5;
    const size_t thread = (size_t)blockIdx.x * blockDim.x + t;
    T v[8];
    load8_stream(val + thread * 8, v);
    const uint4 q = __ldcs(reinterpret_cast<const uint4*>(delta + thread * 8));
    const unsigned f = __ldcs(row_starts + thread);
    const int4 m = __ldg(&meta[2 * blockIdx.x]);       // row0, column base, first escape, tasks
    const int4 m2 = __ldg(&meta[2 * blockIdx.x + 1]);  // flags and last row; rows | escapes << 16 before warps 1-3
    const unsigned qa[4] = {q.x, q.y, q.z, q.w};
    // Slot j's offset: the narrow form decodes all eight now; the wide form
    // again where it is used (eight registers fewer across the scan: 40
    // without spilling in fp32).
    unsigned d[8], e = 0;
    auto offset = [&](int j) -> unsigned {
        if constexpr (WIDE) {
            return (qa[j >> 1] >> (16 * (j & 1))) & 0xffffu;
        } else {
            return d[j];
        }
    };
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        if constexpr (!WIDE) d[j] = (qa[j >> 1] >> (16 * (j & 1))) & 0xffffu;
        e |= (offset(j) == 0xffffu ? 1u : 0u) << j;
    }
    // A wide block (the same for the whole block): the offsets are its
    // columns' low 16 bits from the base, and it escapes nothing.
    bool wide = false;
    if constexpr (WIDE) {
        wide = m2.x & 4;
        if (wide) e = 0;
    }
    const int count = __popc(f) | (__popc(e) << 16);
    int before = count;
#pragma unroll
    for (int k = 1; k < 32; k <<= 1) {
        const int u = __shfl_up_sync(FULL_MASK, before, k);
        if (lane >= k) before += u;
    }
    before += (w == 0 ? 0 : w == 1 ? m2.y : w == 2 ? m2.z : m2.w) - count;  // rows and escapes before the thread
    // EARLY (spac-d16's narrow fp32 kernel where x and y exceed the L2: the
    // host chooses, d16EarlyRows): the row list's entries of the thread's first
    // two rows are loaded now, before x, instead of at their stores. On the
    // 20M-row circuit's SPAC schedule (B=16384) spac-d16-own took 381.3-382.8
    // us against 404.3; but on circuit5M and in-2004, whose x and y fit
    // the L2, 192.7 and 57.3 against 187.4 and 53.4, and in fp64 on the
    // circuit 742.3-743.1 against 614.7 (issue20.md, rounds 20 and 21). r0
    // is row0 below, computed here again: row0 declared up here changed the
    // PTX of every csr-d16 kernel, which were tested and timed as they are.
    // A block staged (D16_STAGE_ROWS) reads the row list in its coalesced
    // pass, where the early form loads nothing early (not timed on the
    // 20M-row circuit).
    static_assert((MAPPED && !WIDE) || !EARLY, "only a narrow format's row list is loaded early");
    int first_entry = 0, second_entry = 0;
    if constexpr (EARLY) {
        if ((m2.x >> 3) >= D16_STAGE_ROWS) {
            const int r0 = (before & 0xffff) + (int)(f & 1u) - 1;
            first_entry = __ldg(&row_map[m.x + max(r0, 0)]);
            if (f & 0xfeu) second_entry = __ldg(&row_map[m.x + r0 + 1]);
        }
    }
    T xv[8];
    const unsigned long long keep = MAPPED ? x_keep_policy() : 0;
    if (wide) {
        const uint2 h = __ldcs(reinterpret_cast<const uint2*>(high + thread * 8));
        const unsigned ha[2] = {h.x, h.y};
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const unsigned rel = (((ha[j >> 2] >> (8 * (j & 3))) & 0xffu) << 16) | offset(j);
            xv[j] = rel == 0xffffffu ? T(0) : ldg_x<MAPPED>(&x[m.y + (int)rel], keep);
        }
    } else {
        int next = m.z + (before >> 16);
#pragma unroll
        for (int j = 0; j < 8; ++j) {
            const unsigned o = offset(j);
            int c = m.y + (int)o;
            if (o == 0xffffu) c = __ldg(&esc[next++]);
            xv[j] = o == 0xfffeu ? T(0) : ldg_x<MAPPED>(&x[c], keep);
        }
    }
    const int row0 = (before & 0xffff) + (int)(f & 1u) - 1;  // the local row of the first slot
    const int last = m2.x >> 3;                              // the block's last local row
    // Local row r's sum s to y; g is its row_map entry (spac-d16).
    auto store = [&](int r, T s, int g) {
        int to = m.x + r;
        bool add = (r == 0 && (m2.x & 1)) || (r == last && (m2.x & 2));
        if constexpr (MAPPED) {
            to = g & 0x7fffffff;
            add |= g < 0;
        }
        T* const p = y + to;
        if (add) {
            atomicAdd(p, s);
        } else if constexpr (MAPPED) {
            __stcs(p, s);
        } else {
            *p = s;
        }
    };
    if (!WIDE && last < D16_STAGE_ROWS) {  // uniform per block
        __shared__ T ys[D16_STAGE_ROWS];
        seg8_stage(v, xv, f, row0, m.w, ys);
        for (int r = t; r <= last; r += blockDim.x) {
            int g = 0;
            if constexpr (MAPPED) g = __ldg(&row_map[m.x + r]);
            store(r, ys[r], g);
        }
        return;
    }
    seg8_sums(v, xv, f, row0, m.w, [&](int r, T s) {
        int g = 0;
        if constexpr (MAPPED) {
            const int to = m.x + r;
            if constexpr (EARLY) {
                g = r == row0 ? first_entry : (r == row0 + 1 && (f & 0xfeu)) ? second_entry : __ldg(&row_map[to]);
            } else {
                g = __ldg(&row_map[to]);
            }
        }
        store(r, s, g);
    });
}

// csr-d16's wide form asks for the resident blocks of 128 threads per SM
// the narrow form gets (48 registers in fp64, 40 in fp32): its wide
// path's columns would otherwise take fp64 to 54 registers and 9 blocks.
// (With both paths it is still about a quarter slower on narrow blocks
// than the narrow form: only a matrix of mostly wide blocks runs it.)
#define D16_BLOCKS_f32 12
#define D16_BLOCKS_f64 10

// spac-seg8-lb and -lbpf ask for this many resident blocks of 128 threads
// per SM, which caps the registers: 65,536 / (128 x 12) -> 40 in fp64 (plain
// spac-seg8 takes 56, 9 blocks, 36 of 64 warps), 65,536 / (128 x 16) -> 32
// in fp32 (from 40, 12 blocks). ptxas spills a few words for it (40 and 16
// bytes a thread with CUDA 11.8's ptxas), to the L1.
#define SEG8_LB_BLOCKS_f32 16
#define SEG8_LB_BLOCKS_f64 12

#define SPAC_SEG8_KERNEL(T, SUFFIX, NAME, BOUNDS)                                                                    \
    extern "C" __global__ void BOUNDS spmv_spac_##NAME##_##SUFFIX(const int4* meta, const int* x_unique,            \
                                                                  const int* y_row, const T* val,                   \
                                                                  const unsigned short* x_flag, const T* x, T* y) { \
        spac_seg8<T, false>(meta, x_unique, y_row, val, x_flag, x, y, 0);                                            \
    }
#define SPAC_SEG8_PF_KERNEL(T, SUFFIX, NAME, BOUNDS)                                                                 \
    extern "C" __global__ void BOUNDS spmv_spac_##NAME##_##SUFFIX(const int4* meta, const int* x_unique,            \
                                                                  const int* y_row, const T* val,                   \
                                                                  const unsigned short* x_flag, const T* x, T* y,   \
                                                                  int dist) {                                       \
        spac_seg8<T, true>(meta, x_unique, y_row, val, x_flag, x, y, dist);                                          \
    }

#define SPAC_SEG_KERNEL(T, SUFFIX, NAME, STAGE_X)                                                                    \
    extern "C" __global__ void __launch_bounds__(256) spmv_spac_##NAME##_##SUFFIX(                                   \
        const int4* meta, const int* x_unique, const int* y_row, const T* val, const unsigned short* x_local,        \
        const int* col, const unsigned* desc, const T* x, T* y) {                                                    \
        spac_seg<T, STAGE_X>(meta, x_unique, y_row, val, x_local, col, desc, x, y);                                  \
    }

#define SPAC_KERNEL(T, SUFFIX, NAME, STAGE_X, K)                                                                      \
    extern "C" __global__ void __launch_bounds__(1024) spmv_spac_##NAME##_##SUFFIX(                                  \
        const int4* meta, const int* x_unique, const int* y_unique, const unsigned char* y_shared, const T* val,     \
        const unsigned short* x_local, const int* col, const unsigned* row_start, const T* x, T* y) {                \
        spac<T, STAGE_X, K>(meta, x_unique, y_unique, y_shared, val, x_local, col, row_start, x, y);                 \
    }

#define SPMV_KERNELS(T, SUFFIX)                                                                                      \
    extern "C" __global__ void __launch_bounds__(1024)                                                               \
        spmv_csr_scalar_##SUFFIX(int nrows, const int* rowptr, const int* col, const T* val, const T* x, T* y) {     \
        csr_scalar<T>(nrows, rowptr, col, val, x, y);                                                                \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(1024)                                                               \
        spmv_csr_vector_##SUFFIX(int nrows, const int* rowptr, const int* col, const T* val, const T* x, T* y) {     \
        csr_vector<T>(nrows, rowptr, col, val, x, y);                                                                \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(1024)                                                               \
        spmv_coo_atomic_##SUFFIX(int nnz, const int* row, const int* col, const T* val, const T* x, T* y) {          \
        coo_atomic<T>(nnz, row, col, val, x, y);                                                                     \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(1024) spmv_zero_rows_##SUFFIX(int n, const int* rows, T* y) {       \
        zero_rows<T>(n, rows, y);                                                                                    \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(256)                                                                \
        spmv_gather_##SUFFIX(int n, const int* from, const T* src, T* dst) {                                         \
        gather<T>(n, from, src, dst);                                                                                \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(128)                                                                \
        spmv_csr_d16_##SUFFIX(const int4* meta, const T* val, const unsigned short* delta, const unsigned char* high,  \
                              const unsigned char* row_starts, const int* esc, const T* x, T* y) {                   \
        csr_d16<T, false, false>(meta, val, delta, high, row_starts, esc, nullptr, x, y);                            \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(128, D16_BLOCKS_##SUFFIX)                                           \
        spmv_csr_d16_wide_##SUFFIX(const int4* meta, const T* val, const unsigned short* delta,                      \
                                   const unsigned char* high, const unsigned char* row_starts, const int* esc,       \
                                   const T* x, T* y) {                                                               \
        csr_d16<T, true, false>(meta, val, delta, high, row_starts, esc, nullptr, x, y);                             \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(128)                                                                \
        spmv_spac_d16_##SUFFIX(const int4* meta, const T* val, const unsigned short* delta, const unsigned char* high, \
                               const unsigned char* row_starts, const int* esc, const int* row_map, const T* x,      \
                               T* y) {                                                                               \
        csr_d16<T, false, true>(meta, val, delta, high, row_starts, esc, row_map, x, y);                             \
    }                                                                                                                \
    extern "C" __global__ void __launch_bounds__(128, D16_BLOCKS_##SUFFIX)                                           \
        spmv_spac_d16_wide_##SUFFIX(const int4* meta, const T* val, const unsigned short* delta,                     \
                                    const unsigned char* high, const unsigned char* row_starts, const int* esc,      \
                                    const int* row_map, const T* x, T* y) {                                          \
        csr_d16<T, true, true>(meta, val, delta, high, row_starts, esc, row_map, x, y);                              \
    }                                                                                                                \
    SPAC_KERNEL(T, SUFFIX, smem, true, 1)                                                                            \
    SPAC_KERNEL(T, SUFFIX, ldg, false, 1)                                                                            \
    SPAC_KERNEL(T, SUFFIX, smem_x4, true, 4)                                                                         \
    SPAC_KERNEL(T, SUFFIX, ldg_x4, false, 4)                                                                         \
    SPAC_SEG_KERNEL(T, SUFFIX, seg, true)                                                                            \
    SPAC_SEG_KERNEL(T, SUFFIX, seg_ldg, false)                                                                       \
    SPAC_SEG8_KERNEL(T, SUFFIX, seg8, __launch_bounds__(128))                                                         \
    SPAC_SEG8_KERNEL(T, SUFFIX, seg8_lb, __launch_bounds__(128, SEG8_LB_BLOCKS_##SUFFIX))                             \
    SPAC_SEG8_PF_KERNEL(T, SUFFIX, seg8_pf, __launch_bounds__(128))                                                   \
    SPAC_SEG8_PF_KERNEL(T, SUFFIX, seg8_lbpf, __launch_bounds__(128, SEG8_LB_BLOCKS_##SUFFIX))

SPMV_KERNELS(float, f32)
SPMV_KERNELS(double, f64)

// spac-d16's fp32 kernel with the row list's first entries loaded early
// (csr_d16's EARLY), for narrow formats whose x and y exceed the L2. A wide
// format keeps the stores' form: its scattered gathers of x hide the list's
// latency, and the early form was slower there (d16EarlyRows). It asks for
// 16 resident blocks of 128 threads an SM, every warp slot: it fits in 32
// registers without spilling (40 and 12 blocks before), and the extra warps
// hide the list's and x's latency: spac-d16-own on the 20M-row circuit at
// B=16384, 367.1-368.5 us against 382.3-382.5. The stores' forms spill at
// 32 registers (fp32) and 40 (fp64) and were slower so: circuit5M 191.4
// against 187.2 us in fp32, 418.4 against 318.7 in fp64 (issue20.md, round
// 22).
extern "C" __global__ void __launch_bounds__(128, 16)
    spmv_spac_d16_early_f32(const int4* meta, const float* val, const unsigned short* delta, const unsigned char* high,
                            const unsigned char* row_starts, const int* esc, const int* row_map, const float* x,
                            float* y) {
    csr_d16<float, false, true, true>(meta, val, delta, high, row_starts, esc, row_map, x, y);
}

// Spins one thread for the given number of clock cycles. The timing loop
// launches it first, so the host can queue all timed launches while the
// GPU waits, and no launch gap falls between two timing events.
extern "C" __global__ void spmv_spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}
