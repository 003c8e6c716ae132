// Package spmv is the toolkit's first application: sparse matrix-vector
// products, y = A x, on the CPU (the reference, and the SPAC schedule's
// executor) and, in a binary built with CUDA support, on the GPU with the
// kernels of kernels/spmv.cu and, for comparison, cuSPARSE's generic SpMV
// (package gpu/cusparse). RunSpMV checks every kernel against the reference
// and times it with CUDA events; the tables, CSV, JSON and the report of
// scripts/gpu-bench.sh are written here too.
//
// The device side runs on package gpu's runtime: NewSpMV loads the kernels
// (once per device) and uploads a Matrix, Upload and UploadAsync a
// schedule's ScheduleArrays, Op prepares a kernel and Run, Product and Time
// run it. The host-side preparation (NewMatrix, NewScheduleArrays, the
// reference) works in every build, so callers can check and test
// everything but the device itself.
//
// # Kernels
//
// The kernels are CUDA C in kernels/spmv.cu. Their PTX, made by nvcc for
// the virtual architecture compute_80 (make ptx), is embedded in the binary
// and compiled for the device by the driver when the module loads (see
// package gpu); SPAC_PTX_DIR/spmv.ptx (gpu.SetPTXDir) replaces it for trying a change
// without rebuilding.
//
//   - csr-scalar: one thread per row of the CSR matrix.
//   - csr-vector: one warp per row, a shuffle reduction at the end.
//   - coo-atomic: one thread per nonzero in CSR order, atomicAdd into y (the
//     edge-based baseline; the "default kernel" of schedule.Traffic).
//   - csr-d16: CSR's entries in their order, eight a thread in blocks of
//     B (B/8 threads), each column a uint16 offset from its block's base
//     (escaped to an int32 where it lies farther), rows from one bit per
//     entry, the sums as spac-seg8's, x not staged (d16.go): w + 2 bytes
//     and a bit per nonzero where CSR reads w + 4, and 4 per row; where
//     most blocks' columns are scattered, those read them as int32 (its
//     wide form). A narrow block of at most 256 rows stages its row sums
//     in shared memory and stores them in one coalesced pass (the
//     per-run stores in the threads diverged: 21-42% of the lanes idle;
//     staged, the SPAC kernel issues fewer instructions a nonzero than
//     cuSPARSE's CSR kernel, docs/gpu-bench-h200). Its
//     locality is the matrix's order; on a matrix numbered part by part
//     (spac reorder, --renumber spac) that is SPAC's.
//   - csr-d16-hot: csr-d16 on the matrix with its columns numbered hottest
//     first (HotColumns: groups of degree, a power of two each, the
//     highest first, in their order within a group), x gathered into that
//     order by one more launch each product. For a power-law matrix whose
//     order has no locality (R-MAT as generated): there its gathers are
//     bound by the L2's throughput of scattered sectors, and numbered
//     together the hot entries of x share sectors and stay in the L1.
//   - csr-d16-rcm: csr-d16 on the square matrix renumbered by reverse
//     Cuthill-McKee, rows and columns alike (RCMOrdered); each product
//     gathers x into that order and y back out of it, two more launches.
//     For a matrix given in an order without locality (a mesh numbered at
//     random), where the gathers of x miss every cache.
//   - spac-d16: csr-d16's format and kernel over a SPAC schedule
//     (NewSPACD16): each part's rows, in the schedule's order, are rows of
//     their own, so a thread block multiplies one part and gathers the few
//     columns SPAC gave it through the L1, with 16-bit offsets and nothing
//     staged; its rows are stored into y through the schedule's row list
//     (4 bytes a row; in fp32, where x and y exceed the L2 and the format
//     is narrow, a thread loads its first two rows' entries before it
//     gathers x: d16EarlyRows), with
//     atomicAdd for the rows other parts share. A
//     part of more than 1024 tasks (schedules up to 16384) runs as thread
//     blocks of 1024 slots: larger parts share fewer rows. Its loads and
//     stores carry L2 eviction hints (y evict-first, a quarter of x
//     evict-last), so that y's stores do not push x out of the L2 on
//     inputs larger than it.
//   - spac-d16-own: spac-d16 with each row the parts share made whole in
//     the part holding most of it, and each empty row of y given a slot
//     (NewSPACD16Owned): every row of y is stored once, plainly; nothing
//     is cleared where no row crosses a block of 1024 slots.
//   - spac-d16-ord: csr-d16 on the matrix numbered in the order of a SPAC
//     schedule's parts (SPACOrder: each row and column in the part holding
//     most of its tasks, the parts one after the other), with x gathered
//     into that order and y gathered back each product, as csr-d16-rcm
//     does with its order. Where the input's own order has no locality, a
//     block's columns become one run: 16-bit offsets instead of the wide
//     form, and a sector of x read once for several tasks.
//   - spac-d16-hot: spac-d16-ord with the columns grouped by degree first,
//     a group per power of two and the highest first, each group in the
//     parts' order (as csr-d16-hot groups them in the input's order): on a
//     power-law matrix the hot columns, which most tasks read, share
//     sectors and stay in the L1, and the cold ones keep SPAC's locality.
//   - spac-smem: the SPAC schedule (package schedule), a thread per task:
//     block b runs part b; it stages its unique x in shared memory,
//     accumulates its rows in shared memory (a thread's run of equal rows,
//     then a segmented warp scan, then one shared atomicAdd per row and
//     warp), and flushes them with a plain store for the rows it owns and
//     atomicAdd for the rows other blocks share (YShared).
//   - spac-ldg: the same with x read through the read-only cache (__ldg) at
//     the slot's global column; only y is in shared memory.
//   - spac-smem-x4, spac-ldg-x4: the same schedules with four consecutive
//     tasks per thread (B/4 threads for a schedule of block size B), whose
//     slot data comes in 16-byte loads.
//   - spac-seg: the SPAC schedule with four tasks per thread that reads, per
//     slot, only the value and the uint16 block-local x address, and per
//     thread one precomputed descriptor of its rows (seg.go: the format, and a
//     CPU emulation of the kernel the unit tests check); runs summed in the
//     thread, one segmented warp scan with precomputed segment starts, the
//     warps' carries combined once per block, every row stored once per
//     block, plainly where the block owns it.
//   - spac-seg8: the same reduction with eight tasks per thread (B/8
//     threads) and no descriptor: per slot the value and one uint16 that
//     holds the local x address and a row-start bit (seg8.go: the format
//     and the kernel's CPU emulation), from which warp scans and one
//     ballot give the rows; the block's x and its rows' indices staged in
//     shared memory together; values and addresses loaded with the
//     streaming hint, so that the L2 keeps x and y.
//   - spac-seg8-lb, spac-seg8-pf, spac-seg8-lbpf: spac-seg8's code with
//     more loads in flight (issue 20, round 4): -lb caps its registers
//     for more resident blocks per SM, -pf prefetches into the L2 the slots
//     of the block a wave ahead (seg8PrefetchDistance), -lbpf both.
//   - cusparse-csr, cusparse-csr-alg2, cusparse-coo, cusparse-sell,
//     cusparse-bsr: cusparseSpMV with the CSR default algorithm, CSR_ALG2,
//     COO, sliced ELL (32 rows a slice) and BSR (libformats.go; the last two
//     where their padding stays under 3x), preprocessed once where the
//     library has cusparseSpMV_preprocess (CUDA 12.4 on). Speedups are over
//     the fastest of them.
//
// The SPAC kernels read the schedule's arrays as ScheduleArrays lays them
// out: per slot the value and the uint16 local x address (or the int32
// column), and instead of the uint16 local y address one bit per slot that
// marks where a row starts within the block (tasks are sorted by row, so the
// address is a prefix count); per block its offsets and counts; per unique
// row its global index and shared flag.
//
// Every kernel computes all of y = A x from any prior content of y: kernels
// that accumulate with atomics clear y first (coo-atomic all of it; spac-*
// the rows they do not store plainly, shared or empty, or all of y with a
// memset where that moves fewer bytes), and the clearing is part of the
// timed operation.
//
// Values are fp32 or fp64; indices are int32 and local shared-memory
// addresses uint16, so a matrix may have at most 2^31-1 nonzeros.
//
// # Solvers
//
// An SpMV is also the product of an iterative solver (apps/cg): VectorArgs
// gives its x and y to the solver's own kernels, Run queues a product
// without waiting (and is recorded by gpu.Device.Capture, cuSPARSE's
// included), and UploadAsync brings a schedule in while products run.
package spmv
