// Device-wide primitives of the spac toolkit: scan, stream compaction
// (select by flag), reduce, histogram and an LSD radix sort of 32-bit keys,
// for programs whose work list lives on the device (graph traversal's
// frontiers, prefix sums over degrees, degree histograms).
//
// Compiled to PTX for compute_80 (make ptx) and embedded in the Go binary
// (gpu/prim.go), like spmv.cu. Parameters are pointers and ints in 8-byte
// slots (gorgonia.org/cu's Launch); an int reads the low 4 bytes.
//
// Lengths: every kernel takes nptr and nmax. nptr == 0: the length is nmax;
// else it is *nptr (an int32 on the device, e.g. a count an earlier kernel
// wrote) clamped to [0, nmax], and the grid is sized by the host for nmax.
//
// Scratch (u64 words, zero when allocated): [0] the epoch, [1] two u32
// tickets (tiles of the single-pass kernels, the reduce's last block), [2..7]
// spare, then for cap tiles: status[cap], aggregate[cap], inclusive[cap],
// then the reduce's partials[REDUCE_MAX_GRID]. Nothing is cleared between
// calls: the tickets wrap back to zero (atomicInc with the grid's size), and
// a status word holds the epoch of the call that wrote it, which the tile of
// the last ticket advances, so a stale word never reads as valid.

#define FULL 0xffffffffu
#define THREADS 256
#define WARPS (THREADS / 32)
#define ROUNDS 8                       // 16-byte loads per thread and tile
#define WARP_ITEMS (ROUNDS * 128)      // 1024 consecutive elements per warp
#define TILE (WARPS * WARP_ITEMS)      // 8192 elements per tile
#define REDUCE_MAX_GRID 1024
#define SORT_ROUNDS 16                 // keys per thread and tile in the sort
#define SORT_WARP_ITEMS (SORT_ROUNDS * 32)
#define SORT_TILE (WARPS * SORT_WARP_ITEMS)  // 4096
#define RADIX 256

typedef unsigned int u32;
typedef unsigned long long u64;

// ---- memory-model helpers (PTX ISA 6.0, sm_70+) ----

__device__ __forceinline__ u64 ld_acquire(const u64* p) {
    u64 v;
    asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ u64 ld_relaxed(const u64* p) {
    u64 v;
    asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_release(u64* p, u64 v) {
    asm volatile("st.release.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed(u64* p, u64 v) {
    asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ int length(const int* nptr, int nmax) {
    if (nptr == 0) return nmax;
    const int v = *nptr;
    return v < 0 ? 0 : (v > nmax ? nmax : v);
}

__device__ __forceinline__ u32 lanemask_lt() { return (1u << (threadIdx.x & 31)) - 1u; }

template <typename T>
__device__ __forceinline__ T warp_incl_scan(T v) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const T u = __shfl_up_sync(FULL, v, o);
        if (lane >= o) v += u;
    }
    return v;
}

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    return v;
}

// ---- the single-pass tile protocol (decoupled look-back) ----

struct Status {
    u64* epoch;
    u32* ticket;
    u64* flag;
    u64* agg;
    u64* incl;
};

__device__ __forceinline__ Status status_of(u64* scratch, int cap) {
    Status s;
    s.epoch = scratch;
    s.ticket = (u32*)(scratch + 1);
    s.flag = scratch + 8;
    s.agg = s.flag + cap;
    s.incl = s.agg + cap;
    return s;
}

// take_tile (thread 0) reads the call's epoch, then takes the next tile in
// the order blocks start, so every tile's predecessors belong to blocks
// already running: the look-back cannot wait on a block that never runs.
// The last tile advances the epoch for the next call; every other block has
// read it before taking its ticket.
__device__ __forceinline__ void take_tile(const Status& s, u64* epoch, int* tile) {
    const u64 e = ld_relaxed(s.epoch);
    __threadfence();
    const u32 t = atomicInc(s.ticket, gridDim.x - 1);
    if (t == gridDim.x - 1) {
        __threadfence();
        st_relaxed(s.epoch, e + 1);
    }
    *epoch = e;
    *tile = (int)t;
}

// A tile's status word: epoch<<2 | 1 (its aggregate is posted) or | 2 (its
// inclusive prefix is posted).
__device__ __forceinline__ void post(const Status& s, int tile, u64 epoch, u64 v, bool inclusive) {
    if (inclusive) {
        st_relaxed(s.incl + tile, v);
        st_release(s.flag + tile, epoch << 2 | 2);
    } else {
        st_relaxed(s.agg + tile, v);
        st_release(s.flag + tile, epoch << 2 | 1);
    }
}

// look_back (one whole warp) returns the sum of the tiles before tile,
// modulo 2^64: lane l waits on tile base-l, then the warp adds the
// aggregates up to the nearest tile whose inclusive prefix is posted, 32
// tiles a step.
__device__ u64 look_back(const Status& s, int tile, u64 epoch) {
    const int lane = threadIdx.x & 31;
    const u64 want_agg = epoch << 2 | 1, want_incl = epoch << 2 | 2;
    u64 prefix = 0;
    for (int base = tile - 1;; base -= 32) {
        const int j = base - lane;
        u64 v = 0;
        bool incl = true;  // before tile 0: an inclusive prefix of zero
        if (j >= 0) {
            u64 f;
            do {
                f = ld_acquire(s.flag + j);
            } while (f != want_agg && f != want_incl);
            incl = f == want_incl;
            v = incl ? ld_relaxed(s.incl + j) : ld_relaxed(s.agg + j);
        }
        const u32 done = __ballot_sync(FULL, incl);
        const int stop = done ? __ffs(done) - 1 : 31;
        prefix += warp_sum(lane <= stop ? v : 0ull);
        if (done) return prefix;
    }
}

// tile_prefix publishes the tile's aggregate, looks back (warp 0) and
// returns the sum of the tiles before it to every thread. Call with every
// thread of the block.
__device__ __forceinline__ u64 tile_prefix(const Status& s, int tile, u64 epoch, u64 agg) {
    __shared__ u64 s_prefix;
    if (threadIdx.x < 32) {
        if (threadIdx.x == 0) post(s, tile, epoch, agg, tile == 0);
        u64 p = 0;
        if (tile > 0) p = look_back(s, tile, epoch);
        if (threadIdx.x == 0) {
            if (tile > 0) post(s, tile, epoch, p + agg, true);
            s_prefix = p;
        }
    }
    __syncthreads();
    return s_prefix;
}

// block_offsets stores each warp's total, then gives the calling warp's
// exclusive prefix among the warps and the block's total.
template <typename T>
__device__ __forceinline__ void block_offsets(T warp_total, T* warp_prefix, T* total) {
    __shared__ u64 s_warp[WARPS];
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) s_warp[warp] = (u64)warp_total;
    __syncthreads();
    T p = 0, t = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        const T v = (T)s_warp[w];
        if (w < warp) p += v;
        t += v;
    }
    *warp_prefix = p;
    *total = t;
}

// Tile is where a block of a single-pass kernel works: its tile (taken in
// start order), the call's epoch, the length, and its warp's first element
// and whether the warp's WARP_ITEMS elements are all in range.
struct Tile {
    Status st;
    int tile;
    u64 epoch;
    long long n, base;
    bool full;
};

__device__ __forceinline__ Tile begin_tile(u64* scratch, int cap, const int* nptr, int nmax) {
    __shared__ u64 s_epoch;
    __shared__ int s_tile;
    Tile t;
    t.st = status_of(scratch, cap);
    if (threadIdx.x == 0) take_tile(t.st, &s_epoch, &s_tile);
    __syncthreads();
    t.tile = s_tile;
    t.epoch = s_epoch;
    t.n = length(nptr, nmax);
    t.base = (long long)t.tile * TILE + (threadIdx.x >> 5) * WARP_ITEMS;
    t.full = t.base + WARP_ITEMS <= t.n;
    return t;
}

// ---- scan ----

// Each warp scans WARP_ITEMS consecutive elements: ROUNDS rounds of a 16-byte
// load per lane (the warp reads 512 contiguous bytes a round), a running
// sum within the four, a warp scan of the lanes' sums, and a carry across
// rounds. In is the input's type (int sign-extends into a 64-bit Acc,
// unsigned zero-extends); Acc is the output's.
// widen converts a scan's 32-bit input to its accumulator. The sign
// extension is inline assembly so that it stays where the value is used
// (the compiler would otherwise widen at the load and hold 64 bits).
template <typename In, typename Acc>
__device__ __forceinline__ Acc widen(In x) {
    if (sizeof(Acc) == 8 && (In)-1 < (In)0) {
        long long w;
        asm("cvt.s64.s32 %0, %1;" : "=l"(w) : "r"((int)x));
        return (Acc)w;
    }
    return (Acc)x;
}

template <typename In, typename Acc, bool Inclusive>
__device__ __forceinline__ void scan(const u32* __restrict__ src, Acc* __restrict__ dst, const int* nptr, int nmax,
                                     u64* scratch, int cap, Acc* total) {
    const Tile tl = begin_tile(scratch, cap, nptr, nmax);
    const Status st = tl.st;
    const int tile = tl.tile, lane = threadIdx.x & 31;
    const u64 epoch = tl.epoch;
    const long long n = tl.n, base = tl.base;
    const bool full = tl.full;

    In a[ROUNDS][4];  // 32-bit, widened where used: half the registers of a 64-bit scan
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const long long i = base + (r * 32 + lane) * 4;
        if (full) {
            const uint4 v = __ldg((const uint4*)(src + i));
            a[r][0] = (In)v.x;
            a[r][1] = (In)v.y;
            a[r][2] = (In)v.z;
            a[r][3] = (In)v.w;
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) a[r][j] = i + j < n ? (In)src[i + j] : (In)0;
        }
    }
    Acc off[ROUNDS];
    Acc carry = 0;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        const Acc sum = widen<In, Acc>(a[r][0]) + widen<In, Acc>(a[r][1]) + widen<In, Acc>(a[r][2]) + widen<In, Acc>(a[r][3]);
        const Acc incl = warp_incl_scan(sum);
        off[r] = carry + incl - sum;
        carry += __shfl_sync(FULL, incl, 31);
    }
    Acc wp, agg;
    block_offsets(carry, &wp, &agg);
    const Acc prefix = (Acc)tile_prefix(st, tile, epoch, (u64)agg) + wp;
    if (total != 0 && tile == (int)gridDim.x - 1 && threadIdx.x == 0) *total = prefix - wp + agg;

#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) {
        Acc o[4];
        Acc run = prefix + off[r];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if (Inclusive) {
                run += widen<In, Acc>(a[r][j]);
                o[j] = run;
            } else {
                o[j] = run;
                run += widen<In, Acc>(a[r][j]);
            }
        }
        const long long i = base + (r * 32 + lane) * 4;
        if (full) {
            if (sizeof(Acc) == 4) {
                *(uint4*)(dst + i) = make_uint4((u32)o[0], (u32)o[1], (u32)o[2], (u32)o[3]);
            } else {
                *(ulonglong2*)(dst + i) = make_ulonglong2((u64)o[0], (u64)o[1]);
                *(ulonglong2*)(dst + i + 2) = make_ulonglong2((u64)o[2], (u64)o[3]);
            }
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j)
                if (i + j < n) dst[i + j] = o[j];
        }
    }
}

#define SCAN_ENTRY(name, In, Acc, Incl)                                                                   \
    extern "C" __global__ void __launch_bounds__(THREADS) name(const u32* src, Acc* dst, const int* nptr, \
                                                               int nmax, u64* scratch, int cap, Acc* total) { \
        scan<In, Acc, Incl>(src, dst, nptr, nmax, scratch, cap, total);                                   \
    }
SCAN_ENTRY(prim_scan_ex_32, u32, u32, false)
SCAN_ENTRY(prim_scan_in_32, u32, u32, true)
SCAN_ENTRY(prim_scan_ex_i32_64, int, u64, false)
SCAN_ENTRY(prim_scan_in_i32_64, int, u64, true)
SCAN_ENTRY(prim_scan_ex_u32_64, u32, u64, false)
SCAN_ENTRY(prim_scan_in_u32_64, u32, u64, true)

// ---- select (stream compaction by flag) ----

// cp.async (sm_80+): 16 bytes from global to shared memory without passing
// through registers (and bypassing L1); wait_all waits for the thread's own.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
    const u32 s = (u32)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

// swz is where element e of a warp's stage lives: its 16-byte chunk moves
// within its 128-byte row (chunk ^= bits 3-4 of the chunk's index), so that
// lanes reading 16 consecutive elements each (uint8 flags) and lanes
// reading consecutive chunks both hit distinct banks.
__device__ __forceinline__ int swz(int e) { return e ^ ((e >> 3) & 12); }

// byte_bits returns bit k set where byte k of w is not zero.
__device__ __forceinline__ u32 byte_bits(u32 w) {
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return ((w & 0x01010101u) * 0x10204080u) >> 28;  // bit 8k -> bit 28+k
}

// Each warp owns WARP_ITEMS consecutive elements and a WARP_ITEMS-word part
// of the stage. The values go to the stage with cp.async (no registers held
// while they load) as the flags load: a lane holds E consecutive flags in G
// groups (uint8 flags: one 16-byte load per group). The warp scans the
// groups' counts and posts the tile's aggregate; then, group by group, each
// lane reads its E values from the stage and (after a __syncwarp) writes
// the kept ones back at their rank: a rank is never above its element's
// index, and a group's ranks end before the next group's elements begin, so
// the warp compacts its part in place. After the look-back each warp copies
// its run to dst. values == 0 keeps the indices (nothing staged before the
// compaction). The last tile writes the number kept to count and, where
// mapped is not 0, there too (mapped host memory).
template <typename F>
__device__ __forceinline__ void select(const u32* __restrict__ values, const F* __restrict__ flags, u32* __restrict__ dst,
                                       const int* nptr, int nmax, u64* scratch, int cap, int* count, u64* mapped) {
    constexpr int E = sizeof(F) == 1 ? 16 : 4;  // consecutive elements of a lane's group
    constexpr int G = WARP_ITEMS / (32 * E);     // groups per lane
    static_assert(G * E == 32, "keep is one 32-bit word");
    __shared__ __align__(16) u32 stage[TILE];
    __shared__ u64 s_prefix;
    const Tile tl = begin_tile(scratch, cap, nptr, nmax);
    const Status st = tl.st;
    const int tile = tl.tile, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const u64 epoch = tl.epoch;
    const long long n = tl.n, base = tl.base;
    const bool full = tl.full;
    u32* ws = stage + warp * WARP_ITEMS;

    if (values != 0) {
        if (full) {
#pragma unroll
            for (int r = 0; r < ROUNDS; ++r) {
                const int e = (r * 32 + lane) * 4;
                cp_async16(ws + swz(e), values + base + e);
            }
            cp_async_commit();
        } else {
            for (int e = lane; e < WARP_ITEMS; e += 32) ws[swz(e)] = base + e < n ? values[base + e] : 0u;
        }
    }
    u32 keep = 0;  // bit g*E+b: element b of the lane's group g is kept
#pragma unroll
    for (int g = 0; g < G; ++g) {
        const long long i = base + (g * 32 + lane) * E;
        if (full) {
            const uint4 w = __ldg((const uint4*)(flags + i));
            if (sizeof(F) == 1) {
                keep |= (byte_bits(w.x) | byte_bits(w.y) << 4 | byte_bits(w.z) << 8 | byte_bits(w.w) << 12) << (g * E);
            } else {
                keep |= (u32(w.x != 0) | u32(w.y != 0) << 1 | u32(w.z != 0) << 2 | u32(w.w != 0) << 3) << (g * E);
            }
        } else {
#pragma unroll
            for (int b = 0; b < E; ++b)
                if (i + b < n && flags[i + b] != 0) keep |= 1u << (g * E + b);
        }
    }
    u32 off[G];
    u32 carry = 0;
#pragma unroll
    for (int g = 0; g < G; ++g) {
        const u32 c = __popc((keep >> (g * E)) & ((1u << E) - 1u));
        const u32 incl = warp_incl_scan(c);
        off[g] = carry + incl - c;
        carry += __shfl_sync(FULL, incl, 31);
    }
    u32 wp, agg;
    block_offsets(carry, &wp, &agg);
    if (threadIdx.x == 0) post(st, tile, epoch, (u64)agg, tile == 0);

    if (values != 0) {
        if (full) cp_async_wait_all();
        __syncwarp();
    }
#pragma unroll
    for (int g = 0; g < G; ++g) {
        const int e0 = (g * 32 + lane) * E;
        u32 v[E];
        if (values != 0) {
#pragma unroll
            for (int q = 0; q < E / 4; ++q) {
                const uint4 x = *(const uint4*)(ws + swz(e0 + 4 * q));
                v[4 * q] = x.x, v[4 * q + 1] = x.y, v[4 * q + 2] = x.z, v[4 * q + 3] = x.w;
            }
            __syncwarp();
        } else {
#pragma unroll
            for (int b = 0; b < E; ++b) v[b] = (u32)(base + e0 + b);
        }
        int at = (int)off[g];
#pragma unroll
        for (int b = 0; b < E; ++b)
            if (keep >> (g * E + b) & 1) ws[swz(at++)] = v[b];
    }

    if (warp == 0) {
        u64 p = 0;
        if (tile > 0) p = look_back(st, tile, epoch);
        if (lane == 0) {
            if (tile > 0) post(st, tile, epoch, p + agg, true);
            s_prefix = p;
        }
    }
    __syncthreads();  // orders the stage too
    const u32 prefix = (u32)s_prefix;
    u32* out = dst + prefix + wp;
    for (int k = lane; k < (int)carry; k += 32) out[k] = ws[swz(k)];
    if (tile == (int)gridDim.x - 1 && threadIdx.x == 0) {
        const u32 total = prefix + agg;
        if (count != 0) *count = (int)total;
        if (mapped != 0) *(volatile u64*)mapped = total;
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, 6)
    prim_select_f8(const u32* values, const unsigned char* flags, u32* dst, const int* nptr, int nmax, u64* scratch,
                   int cap, int* count, u64* post) {
    select<unsigned char>(values, flags, dst, nptr, nmax, scratch, cap, count, post);
}
extern "C" __global__ void __launch_bounds__(THREADS, 6)
    prim_select_f32(const u32* values, const u32* flags, u32* dst, const int* nptr, int nmax, u64* scratch, int cap,
                    int* count, u64* post) {
    select<u32>(values, flags, dst, nptr, nmax, scratch, cap, count, post);
}

// ---- reduce ----

#define OP_SUM 0
#define OP_MIN 1
#define OP_MAX 2

template <typename Acc, int Op>
__device__ __forceinline__ Acc identity() {
    if (Op == OP_SUM) return (Acc)0;
    if (Op == OP_MIN) return (Acc)(Acc(-1) > Acc(0) ? ~0ull : 0x7fffffffull);  // UINT_MAX, INT_MAX
    return (Acc)(Acc(-1) > Acc(0) ? 0ull : 0x80000000ull);                    // 0, INT_MIN
}

template <typename Acc, int Op>
__device__ __forceinline__ Acc combine(Acc a, Acc b) {
    if (Op == OP_SUM) return a + b;
    if (Op == OP_MIN) return b < a ? b : a;
    return b > a ? b : a;
}

template <typename Acc, int Op>
__device__ __forceinline__ Acc block_reduce(Acc v) {
    __shared__ u64 s_red[WARPS];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = combine<Acc, Op>(v, __shfl_xor_sync(FULL, v, o));
    if ((threadIdx.x & 31) == 0) s_red[threadIdx.x >> 5] = (u64)v;
    __syncthreads();
    Acc r = (Acc)s_red[0];
#pragma unroll
    for (int w = 1; w < WARPS; ++w) r = combine<Acc, Op>(r, (Acc)s_red[w]);
    __syncthreads();
    return r;
}

// Blocks stride over tiles (the scan's loads), reduce, post a partial; the
// block that finishes last reduces the partials into dst. The result is
// exact and the same every run: integer operations in any order.
template <typename In, typename Acc, int Op>
__device__ __forceinline__ void reduce(const u32* __restrict__ src, Acc* dst, const int* nptr, int nmax, u64* scratch,
                                       int cap) {
    __shared__ bool s_last;
    const long long n = length(nptr, nmax);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    Acc acc = identity<Acc, Op>();
    for (long long t = blockIdx.x; t * TILE < n; t += gridDim.x) {
        const long long base = t * TILE + warp * WARP_ITEMS;
        if (base + WARP_ITEMS <= n) {
#pragma unroll
            for (int r = 0; r < ROUNDS; ++r) {
                const uint4 v = __ldg((const uint4*)(src + base + (r * 32 + lane) * 4));
                acc = combine<Acc, Op>(acc, (Acc)(In)v.x);
                acc = combine<Acc, Op>(acc, (Acc)(In)v.y);
                acc = combine<Acc, Op>(acc, (Acc)(In)v.z);
                acc = combine<Acc, Op>(acc, (Acc)(In)v.w);
            }
        } else {
            for (long long i = base + lane; i < base + WARP_ITEMS && i < n; i += 32)
                acc = combine<Acc, Op>(acc, (Acc)(In)src[i]);
        }
    }
    acc = block_reduce<Acc, Op>(acc);
    u64* partial = scratch + 8 + 3 * (long long)cap;
    if (threadIdx.x == 0) {
        st_relaxed(partial + blockIdx.x, (u64)acc);
        __threadfence();
        const u32 t = atomicInc((u32*)(scratch + 1) + 1, gridDim.x - 1);
        s_last = t == gridDim.x - 1;
        if (s_last) __threadfence();
    }
    __syncthreads();
    if (!s_last) return;
    acc = identity<Acc, Op>();
    for (int b = threadIdx.x; b < (int)gridDim.x; b += THREADS) acc = combine<Acc, Op>(acc, (Acc)ld_relaxed(partial + b));
    acc = block_reduce<Acc, Op>(acc);
    if (threadIdx.x == 0) *dst = acc;
}

#define REDUCE_ENTRY(name, In, Acc, Op)                                                                          \
    extern "C" __global__ void __launch_bounds__(THREADS) name(const u32* src, Acc* dst, const int* nptr, int nmax, \
                                                               u64* scratch, int cap) {                          \
        reduce<In, Acc, Op>(src, dst, nptr, nmax, scratch, cap);                                                 \
    }
REDUCE_ENTRY(prim_reduce_sum_32, u32, u32, OP_SUM)
REDUCE_ENTRY(prim_reduce_sum_i32_64, int, u64, OP_SUM)
REDUCE_ENTRY(prim_reduce_sum_u32_64, u32, u64, OP_SUM)
REDUCE_ENTRY(prim_reduce_min_i32, int, int, OP_MIN)
REDUCE_ENTRY(prim_reduce_max_i32, int, int, OP_MAX)
REDUCE_ENTRY(prim_reduce_min_u32, u32, u32, OP_MIN)
REDUCE_ENTRY(prim_reduce_max_u32, u32, u32, OP_MAX)

// ---- histogram ----

// bin_of returns v's bin, or -1 where it falls outside [0, bins). mode 0:
// (v - lo) >> shift; mode 1: 0 for v <= 0, else the bit length of v (1 for
// 1, 2 for 2-3, 3 for 4-7, ...). uns reads v and lo as unsigned.
__device__ __forceinline__ int bin_of(u32 v, int bins, int lo, int shift, int mode, int uns) {
    long long b;
    if (mode == 1) {
        b = (uns ? v == 0 : (int)v <= 0) ? 0 : 32 - __clz(v);
    } else {
        const long long d = uns ? (long long)v - (long long)(u32)lo : (long long)(int)v - (long long)lo;
        if (d < 0) return -1;
        b = d >> shift;
    }
    return b < bins ? (int)b : -1;
}

// Counts go to shared memory (dynamic, bins words) where use_shared, else
// straight to counts, which prim_fill cleared first. A thread's run of
// equal bins within a 16-byte load is one atomic.
extern "C" __global__ void __launch_bounds__(THREADS)
    prim_histogram(const u32* __restrict__ values, const int* nptr, int nmax, u32* counts, int bins, int lo, int shift,
                   int mode, int uns, int use_shared) {
    extern __shared__ u32 s_bins[];
    u32* h = use_shared ? s_bins : counts;
    if (use_shared) {
        for (int b = threadIdx.x; b < bins; b += THREADS) s_bins[b] = 0;
        __syncthreads();
    }
    const long long n = length(nptr, nmax);
    const long long nvec = n / 4;
    const long long stride = (long long)gridDim.x * THREADS;
    for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < nvec; i += stride) {
        const uint4 w = __ldg((const uint4*)values + i);
        const u32 x[4] = {w.x, w.y, w.z, w.w};
        int cur = -1;
        u32 run = 0;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int b = bin_of(x[j], bins, lo, shift, mode, uns);
            if (b != cur) {
                if (cur >= 0) atomicAdd(&h[cur], run);
                cur = b;
                run = 0;
            }
            ++run;
        }
        if (cur >= 0) atomicAdd(&h[cur], run);
    }
    if (blockIdx.x == 0 && nvec * 4 + threadIdx.x < n) {
        const int b = bin_of(values[nvec * 4 + threadIdx.x], bins, lo, shift, mode, uns);
        if (b >= 0) atomicAdd(&h[b], 1u);
    }
    if (use_shared) {
        __syncthreads();
        for (int b = threadIdx.x; b < bins; b += THREADS)
            if (s_bins[b] != 0) atomicAdd(&counts[b], s_bins[b]);
    }
}

// p[0..n) = v.
extern "C" __global__ void prim_fill(u32* p, int n, u32 v) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = v;
}

// dst[0..len) = src[0..len), len as in length().
extern "C" __global__ void prim_copy(u32* __restrict__ dst, const u32* __restrict__ src, const int* nptr, int nmax) {
    const long long n = length(nptr, nmax);
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) dst[i] = src[i];
}

// ---- radix sort (least significant digit first, stable) ----

__device__ __forceinline__ u32 digit_of(u32 key, u32 flip, int shift, int dbits) {
    return ((key ^ flip) >> shift) & ((1u << dbits) - 1u);
}

// prim_radix_count: per tile, how many keys have each digit, written
// digit-major (counts[d * tiles + tile]) so that an exclusive scan of counts
// gives every tile its first position for every digit.
extern "C" __global__ void __launch_bounds__(THREADS)
    prim_radix_count(const u32* __restrict__ keys, const int* nptr, int nmax, u32* counts, int shift, int dbits,
                     u32 flip) {
    __shared__ u32 h[RADIX];
    h[threadIdx.x] = 0;
    __syncthreads();
    const long long n = length(nptr, nmax);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const long long base = (long long)blockIdx.x * SORT_TILE + warp * SORT_WARP_ITEMS;
#pragma unroll 4
    for (int r = 0; r < SORT_ROUNDS; ++r) {
        const long long i = base + r * 32 + lane;
        const u32 d = i < n ? digit_of(__ldg(keys + i), flip, shift, dbits) : RADIX;
        const u32 peers = __match_any_sync(FULL, d);
        if (d < RADIX && (peers & lanemask_lt()) == 0) atomicAdd(&h[d], __popc(peers));
    }
    __syncthreads();
    counts[(long long)threadIdx.x * gridDim.x + blockIdx.x] = h[threadIdx.x];
}

// prim_radix_scatter: ranks the tile's keys stably (per warp, in index
// order, with __match_any_sync), orders them by digit in shared memory, and
// writes each digit's run to its place: offsets (the scanned counts) plus
// the rank within the tile. vals_in == 0 sorts keys alone.
extern "C" __global__ void __launch_bounds__(THREADS)
    prim_radix_scatter(const u32* __restrict__ keys_in, const u32* __restrict__ vals_in, u32* __restrict__ keys_out,
                       u32* __restrict__ vals_out, const int* nptr, int nmax, const u32* __restrict__ offsets,
                       int shift, int dbits, u32 flip) {
    __shared__ u32 wh[WARPS][RADIX];
    __shared__ u32 s_keys[SORT_TILE];
    __shared__ u32 s_vals[SORT_TILE];
    __shared__ u32 s_start[RADIX];
    __shared__ u32 s_glob[RADIX];
    __shared__ u32 s_wsum[WARPS];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int k = threadIdx.x; k < WARPS * RADIX; k += THREADS) (&wh[0][0])[k] = 0;
    __syncthreads();
    const long long n = length(nptr, nmax);
    const long long tile0 = (long long)blockIdx.x * SORT_TILE;
    const long long base = tile0 + warp * SORT_WARP_ITEMS;
    const u32 lt = lanemask_lt();
    u32 key[SORT_ROUNDS], val[SORT_ROUNDS], rank[SORT_ROUNDS];
#pragma unroll
    for (int r = 0; r < SORT_ROUNDS; ++r) {
        const long long i = base + r * 32 + lane;
        const bool in = i < n;
        key[r] = in ? __ldg(keys_in + i) : 0u;
        val[r] = in && vals_in != 0 ? __ldg(vals_in + i) : 0u;
        const u32 d = in ? digit_of(key[r], flip, shift, dbits) : RADIX;
        const u32 peers = __match_any_sync(FULL, d);
        u32 before = 0;
        if (in) before = wh[warp][d];
        rank[r] = before + __popc(peers & lt);
        __syncwarp();
        if (in && (peers & lt) == 0) wh[warp][d] = before + __popc(peers);
        __syncwarp();
    }
    __syncthreads();
    // Digit d = threadIdx.x: the warps' exclusive offsets, then the tile's
    // start of the digit (a block scan over digits).
    const int d = threadIdx.x;
    u32 run = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) {
        const u32 c = wh[w][d];
        wh[w][d] = run;
        run += c;
    }
    const u32 incl = warp_incl_scan(run);
    if (lane == 31) s_wsum[warp] = incl;
    __syncthreads();
    u32 start = incl - run;
    for (int w = 0; w < warp; ++w) start += s_wsum[w];
    s_start[d] = start;
    s_glob[d] = offsets[(long long)d * gridDim.x + blockIdx.x];
    __syncthreads();
#pragma unroll
    for (int r = 0; r < SORT_ROUNDS; ++r) {
        if (base + r * 32 + lane < n) {
            const u32 dg = digit_of(key[r], flip, shift, dbits);
            const u32 at = s_start[dg] + wh[warp][dg] + rank[r];
            s_keys[at] = key[r];
            s_vals[at] = val[r];
        }
    }
    __syncthreads();
    const long long rest = n - tile0;
    const int count = rest <= 0 ? 0 : (rest < SORT_TILE ? (int)rest : SORT_TILE);
    for (int k = threadIdx.x; k < count; k += THREADS) {
        const u32 kk = s_keys[k];
        const u32 dg = digit_of(kk, flip, shift, dbits);
        const u32 at = s_glob[dg] + (k - s_start[dg]);
        keys_out[at] = kk;
        if (vals_in != 0) vals_out[at] = s_vals[k];
    }
}
