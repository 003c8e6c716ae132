package gpu

import (
	"time"
	"unsafe"
)

// backend is what a build of the package provides to reach a GPU: the CUDA
// driver API through gorgonia.org/cu (backend_cuda.go, build tag cuda), or
// nothing (nocuda.go). Opening a device is its only entry point; everything
// else goes through the driver of an open Device, which a build without
// CUDA never hands out. The exported API is defined once, in the files
// without a build tag, on top of these two interfaces; the compiler checks
// that each build implements them (the var _ lines beside each
// implementation).
type backend interface {
	// open retains device ordinal's primary context, makes it current on
	// the calling thread (locked by the caller) and describes the device
	// (clockKHz is its clock rate).
	open(ordinal int) (drv driver, info DeviceInfo, clockKHz int, err error)
}

// driver is one open device's context. Handles (modules, functions,
// events, streams, graphs) are the driver's own, as uintptr; stream 0 is
// the legacy default stream. Every method but current runs with the
// context current on the calling thread (Device.bind), and errors are the
// driver's, which the callers wrap with what they were doing.
type driver interface {
	current() error // makes the context current on the calling thread
	release() error // releases the primary context

	alloc(bytes int64) (uint64, error)
	free(ptr uint64)
	memInfo() (free, total int64)
	copyIn(dst uint64, src unsafe.Pointer, bytes int64) error                      // synchronous
	copyInAsync(dst uint64, src unsafe.Pointer, bytes int64, stream uintptr) error // from pageable memory: returns once staged
	copyOut(dst unsafe.Pointer, src uint64, bytes int64) error                     // synchronous, on the default stream
	copyDevice(dst, src uint64, bytes int64, stream uintptr) error                 // queued
	memset8(ptr uint64, v uint8, bytes int64, stream uintptr) error                // queued
	memset32(ptr uint64, v uint32, words int64, stream uintptr) error              // queued
	synchronize() error                                                            // the whole context

	// loadModule JIT-compiles PTX; detail is the JIT's log and a hint
	// where it failed.
	loadModule(ptx string) (mod uintptr, detail string, err error)
	function(mod uintptr, name string) (uintptr, error)
	unload(mod uintptr) error
	launch(fn uintptr, grid, block, shared int, stream uintptr, params []unsafe.Pointer) error
	optInShared() (int, error)                           // the most dynamic shared memory a block may opt in to
	allowShared(fn uintptr, bytes int) error             // lets fn use that much dynamic shared memory
	preferShared(fn uintptr) error                       // asks for the largest shared memory carveout for fn
	resident(fn uintptr, block, shared int) (int, error) // fn's blocks an SM holds at once
	newEvent(timing bool) (uintptr, error)
	record(event, stream uintptr) error
	waitEvent(event uintptr) error
	elapsed(start, end uintptr) (time.Duration, error)
	destroyEvent(event uintptr)
	newStream() (uintptr, error)                 // non-blocking: it does not join the default stream
	query(stream uintptr) (done bool, err error) // without waiting: the stream's work is done, not yet, or failed
	waitStream(stream uintptr) error
	destroyStream(stream uintptr) error

	// Graph capture (relaxed mode: other threads may allocate and copy
	// meanwhile), instantiation and launch on the default stream.
	beginCapture(stream uintptr) error
	endCapture(stream uintptr) (graph uintptr, err error)
	instantiate(graph uintptr) (exec uintptr, err error)
	destroyGraph(graph uintptr)
	launchGraph(exec uintptr) error
	destroyExec(exec uintptr)

	// hostAlloc allocates page-locked host memory mapped into the device's
	// address space.
	hostAlloc(bytes int) (host unsafe.Pointer, dev uint64, err error)
	hostFree(host unsafe.Pointer)
}
