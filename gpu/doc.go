// Package gpu runs sparse matrix-vector products on an NVIDIA GPU through
// the CUDA driver API (gorgonia.org/cu v0.9.6), with the kernels of
// gpu/kernels and, for comparison, cuSPARSE's generic SpMV.
//
// # Builds
//
// The CUDA layer sits behind the build tag "cuda". Without it (the default,
// and what CI builds) the package still compiles: Open returns ErrNoCUDA,
// whose message says how to build a binary with CUDA support, and the
// host-side preparation (NewMatrix, NewScheduleArrays) works as usual, so
// callers can check and test everything but the device itself.
//
// With the tag, cgo compiles against cuda.h and links libcuda by its soname
// libcuda.so.1 (scripts/cuda-kit.sh fetches CUDA 11.8's cuda.h and a libcuda
// to link against into .kit/; scripts/gpu-build.sh builds). cuSPARSE is not
// linked: a small C shim opens it at run time (libcusparse.so.12, then .so.11,
// then .so, also under /usr/local/cuda/lib64; SPAC_CUSPARSE names a file), so
// one binary serves CUDA 11, 12 and 13 and a machine without cuSPARSE still
// runs the other kernels and is told why cuSPARSE is missing.
//
// # Kernels
//
// The kernels are CUDA C in gpu/kernels/spmv.cu. Their PTX, made by nvcc for
// the virtual architecture compute_80 (make ptx; scripts/cuda-kit.sh --nvcc
// unpacks an nvcc where CUDA is not installed), is
// embedded in the binary and compiled for the device by the driver when the
// module loads, so a user needs no nvcc. compute_80 because the kernels use
// nothing newer (fp64 atomicAdd is sm_60), so the same PTX also loads on
// Ampere, and the driver's compiler still generates sm_90 code on an H100;
// the PTX's ISA version is nvcc's, so a driver older than the nvcc that made
// it cannot load it (13.0 here: driver R580 or newer). SPAC_PTX_DIR names a folder
// whose <module>.ptx files are loaded instead (for trying a kernel change
// without rebuilding).
//
//   - csr-scalar: one thread per row of the CSR matrix.
//   - csr-vector: one warp per row, a shuffle reduction at the end.
//   - coo-atomic: one thread per nonzero in CSR order, atomicAdd into y (the
//     edge-based baseline; the "default kernel" of schedule.Traffic).
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
//   - cusparse-csr, cusparse-csr-alg2, cusparse-coo: cusparseSpMV with the
//     CSR default algorithm, CSR_ALG2, and COO (preprocessed once where the
//     library has cusparseSpMV_preprocess, CUDA 12.4 on).
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
// # Kernels of other packages
//
// Applications with kernels of their own (apps/cfd, apps/cg) embed their
// PTX as a PTXModule and load it with Device.LoadModule; Alloc, Upload,
// Download and Buffer manage their device memory, Module.Launch prepares a
// launch (arguments by Ptr and Int) and Device.Time times a sequence of
// launches as the SpMV kernels are timed. Their tests check the embedded
// PTX against the source with PTXModule.CheckSource. Device.Capture
// records a sequence of launches and SpMV runs (cuSPARSE's too) as a CUDA
// graph, which Graph.Launch queues with one driver call: an iterative
// solver's loop costs the host one launch per graph instead of a few
// microseconds per kernel.
//
// # Devices and threads
//
// A Device holds the device's primary context (which cuSPARSE's runtime
// shares); each method makes it current on the calling goroutine's thread
// for its duration, so a Device may be used from any goroutine, one at a
// time. Timing runs the operation back to back between CUDA events, after a
// one-thread spinning kernel that lets the host queue every repetition
// first, and reports the median.
//
// Values are fp32 or fp64; indices are int32 and local shared-memory
// addresses uint16, so a matrix may have at most 2^31-1 nonzeros.
package gpu
