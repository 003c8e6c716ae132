// Package gpu is the toolkit's CUDA runtime: what an application needs to
// run its own kernels on an NVIDIA GPU, through the CUDA driver API
// (gorgonia.org/cu v0.9.6), and nothing about any application. The
// applications (apps/spmv, apps/cg, apps/cfd) carry their kernels and use
// only this API:
//
//   - Open, Device: a device's primary context and what it is (Info).
//   - PTXModule, Device.LoadModule, Module: kernels as PTX embedded in the
//     binary, compiled for the device by its driver when loaded (once per
//     device), checked against their .cu source by the packages' tests
//     (PTXModule.CheckSource).
//   - Module.Launch, LaunchOptIn, Launch.Run: a launch prepared once and run
//     many times; arguments are 8-byte slots made by Ptr and Int.
//     LaunchOptIn lets a kernel use more dynamic shared memory than a block
//     gets by default (up to 227 KiB on Hopper).
//   - Buffer: device memory with Upload, Download, Write, ReadBack (a read
//     ordered after the default stream only), Zero, Fill32 and CopyFrom.
//   - Device.Time, Interval, CopyBandwidth: device times between CUDA
//     events. Time runs an operation back to back after a one-thread
//     spinning kernel (kernels/runtime.cu) that lets the host queue every
//     repetition first, and reports the median.
//   - Transfer: uploads on a stream of their own while the default stream
//     keeps computing.
//   - Device.Capture, Graph: work recorded once as a CUDA graph and queued
//     by one driver call, so that an iterative solver's host makes one
//     launch per graph instead of one per kernel.
//   - Mapped: page-locked host memory the device writes and the host reads
//     without a copy: a solver's kernels post their scalars there.
//   - Device.Do and Device.Stream: the hooks by which a binding to a CUDA
//     library (gpu/cusparse) runs with the context current and queues on
//     the launch stream, so that Capture records its work too.
//
// # Builds
//
// The CUDA backend sits behind the build tag "cuda"; the exported API is
// defined once, in files without a tag, on top of an unexported backend
// interface (backend.go). With the tag, backend_cuda.go implements it with
// the driver; without it (the default, and what CI tests), nocuda.go's one
// small type answers Open with ErrNoCUDA, whose message says how to build a
// binary with CUDA support, and since no Device exists in such a build,
// every other call answers ErrNoCUDA too. The compiler checks that each
// backend implements the interface, and CI compiles and vets both builds
// ('make test' ends with scripts/gpu-build.sh --vet). Host-side work of the
// applications (matrices, schedules, references) runs in both builds.
//
// With the tag, cgo compiles against cuda.h and links libcuda by its soname
// libcuda.so.1 (scripts/cuda-kit.sh fetches CUDA 11.8's cuda.h and a libcuda
// to link against into .kit/; scripts/gpu-build.sh builds).
//
// # PTX
//
// Kernels are CUDA C (kernels/*.cu of each package) whose PTX, made by nvcc
// for the virtual architecture compute_80 (make ptx; scripts/cuda-kit.sh
// --nvcc unpacks an nvcc where CUDA is not installed), is embedded in the
// binary and compiled for the device by the driver when the module loads, so
// a user needs no nvcc. compute_80 keeps the PTX loadable on Ampere, and the
// driver's compiler still generates sm_90 code on an H100; the PTX's ISA
// version is nvcc's, so a driver older than the nvcc that made it cannot
// load it. SetPTXDir (the spac command: $SPAC_PTX_DIR) names a folder whose
// <module>.ptx files are loaded instead (for trying a kernel change without rebuilding).
//
// # Devices, threads and streams
//
// A Device holds the device's primary context (which the CUDA runtime of
// libraries such as cuSPARSE shares); each method makes it current on the
// calling goroutine's thread for its duration, so a Device may be used from
// any goroutine, one at a time (a Transfer's uploads excepted: they are
// meant for another goroutine). Launches, Zero, Fill32 and CopyFrom queue on
// the launch stream: the legacy default stream, or Capture's stream while a
// capture records. Events, graph launches and ReadBack use the default
// stream.
//
// # Device-wide primitives
//
// Prims (NewPrims, prim.go, kernels/prim.cu) runs what every irregular GPU
// program needs on buffers already on the device: ExclusiveScan and
// InclusiveScan (int32/uint32 into the same width, int32 into int64,
// uint32 into uint64, with an optional total), Select (stream compaction by
// uint8 or 32-bit flags, of values or of indices; the count goes to a
// device int32 and Selected reads it back), Reduce (sum, min, max),
// Histogram (linear or log2 bins) and Sort (stable LSD radix sort of int32
// or uint32 keys, with optional 32-bit values). A length is a host number
// (HostLen) or an int32 on the device (DeviceLen) that the kernels read
// themselves, so a loop needs no host round trip. A Prims owns its scratch,
// sized once for MaxN elements, and needs no clearing between calls (the
// look-back status carries an epoch; tickets wrap), so repeated calls
// allocate no device memory and may be captured (Capture). The module loads
// on a device's first primitive. Scan and select are single-pass
// (decoupled look-back over tiles of 8192 elements); the package knows
// nothing of the programs that use them.
package gpu
