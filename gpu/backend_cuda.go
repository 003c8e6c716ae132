//go:build cuda

package gpu

// The CUDA backend: the driver API through gorgonia.org/cu v0.9.6, and
// through cgo where cu does not reach (graphs, mapped memory, function
// attributes). Handles are cu's one-pointer structs seen as uintptr.

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
// cuda.h maps some names to their _v2 entry points with macros, which cgo
// cannot call.
static CUresult spac_host_alloc_mapped(void **p, size_t bytes) {
	return cuMemHostAlloc(p, bytes, CU_MEMHOSTALLOC_DEVICEMAP);
}
static CUresult spac_host_device_ptr(CUdeviceptr *d, void *p) { return cuMemHostGetDevicePointer(d, p, 0); }
// Relaxed: a capture on the solver's thread must not forbid what other
// threads do meanwhile (a schedule's upload allocates and copies).
static CUresult spac_begin_capture(CUstream s) { return cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED); }
static CUresult spac_end_capture(CUstream s, CUgraph *g) { return cuStreamEndCapture(s, g); }
static CUresult spac_graph_instantiate(CUgraphExec *e, CUgraph g) { return cuGraphInstantiateWithFlags(e, g, 0); }
static CUresult spac_graph_destroy(CUgraph g) { return cuGraphDestroy(g); }
static CUresult spac_graph_launch(CUgraphExec e) { return cuGraphLaunch(e, 0); }
static CUresult spac_graph_exec_destroy(CUgraphExec e) { return cuGraphExecDestroy(e); }
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	// Starts the driver before gorgonia.org/cu does, with a clear message
	// where it cannot start.
	_ "github.com/spac-gpu/spac/gpu/internal/cudacheck"
)

const built = true

var impl backend = cudaBackend{}

var (
	_ backend = cudaBackend{}
	_ driver  = (*cudaDriver)(nil)
)

type cudaBackend struct{}

// cudaDriver is one device's primary context.
type cudaDriver struct {
	dev cu.Device
	ctx cu.CUContext
}

// handle and fromHandle convert between cu's one-pointer handle structs
// (Stream, Event, Function, Module) and uintptr.
func handle[T any](h T) uintptr { return *(*uintptr)(unsafe.Pointer(&h)) }

func fromHandle[T any](h uintptr) T { return *(*T)(unsafe.Pointer(&h)) }

func (cudaBackend) open(ordinal int) (driver, DeviceInfo, int, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, DeviceInfo{}, 0, fmt.Errorf("gpu: counting CUDA devices: %w", err)
	}
	if n == 0 {
		return nil, DeviceInfo{}, 0, errors.New("gpu: the driver sees no CUDA device")
	}
	if ordinal < 0 || ordinal >= n {
		return nil, DeviceInfo{}, 0, fmt.Errorf("gpu: device %d does not exist (%d device(s): 0 to %d)", ordinal, n, n-1)
	}
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: %w", ordinal, err)
	}
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return nil, DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: retaining its primary context: %w", ordinal, err)
	}
	d := &cudaDriver{dev: dev, ctx: ctx}
	if err := cu.SetCurrentContext(ctx); err != nil {
		d.release()
		return nil, DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: making its context current: %w", ordinal, err)
	}
	info, clock, err := d.readInfo(ordinal)
	if err != nil {
		d.release()
		return nil, DeviceInfo{}, 0, err
	}
	return d, info, clock, nil
}

func (d *cudaDriver) readInfo(ordinal int) (DeviceInfo, int, error) {
	name, err := d.dev.Name()
	if err != nil {
		return DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: name: %w", ordinal, err)
	}
	mem, err := d.dev.TotalMem()
	if err != nil {
		return DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: memory size: %w", ordinal, err)
	}
	info := DeviceInfo{Ordinal: ordinal, Name: strings.TrimRight(name, "\x00"), MemBytes: mem, DriverVersion: cu.Version()}
	var clock int
	for _, a := range []struct {
		attr cu.DeviceAttribute
		what string
		dst  *int
	}{
		{cu.ComputeCapabilityMajor, "compute capability", &info.Major},
		{cu.ComputeCapabilityMinor, "compute capability", &info.Minor},
		{cu.MultiprocessorCount, "multiprocessors", &info.SMs},
		{cu.L2CacheSize, "L2 size", &info.L2Bytes},
		{cu.MaxSharedMemoryPerBlock, "shared memory per block", &info.SharedPerBlock},
		{cu.ClockRate, "clock rate", &clock},
	} {
		v, err := d.dev.Attribute(a.attr)
		if err != nil {
			return DeviceInfo{}, 0, fmt.Errorf("gpu: device %d: %s: %w", ordinal, a.what, err)
		}
		*a.dst = v
	}
	return info, clock, nil
}

func (d *cudaDriver) current() error { return cu.SetCurrentContext(d.ctx) }
func (d *cudaDriver) release() error { return d.dev.ReleasePrimaryCtx() }

func (d *cudaDriver) alloc(bytes int64) (uint64, error) {
	p, err := cu.MemAlloc(bytes)
	return uint64(p), err
}
func (d *cudaDriver) free(ptr uint64) { cu.MemFree(cu.DevicePtr(ptr)) }
func (d *cudaDriver) memInfo() (int64, int64) {
	free, total, _ := cu.MemInfo()
	return free, total
}
func (d *cudaDriver) copyIn(dst uint64, src unsafe.Pointer, bytes int64) error {
	return cu.MemcpyHtoD(cu.DevicePtr(dst), src, bytes)
}
func (d *cudaDriver) copyInAsync(dst uint64, src unsafe.Pointer, bytes int64, stream uintptr) error {
	return cu.MemcpyHtoDAsync(cu.DevicePtr(dst), src, bytes, fromHandle[cu.Stream](stream))
}
func (d *cudaDriver) copyOut(dst unsafe.Pointer, src uint64, bytes int64) error {
	return cu.MemcpyDtoH(dst, cu.DevicePtr(src), bytes)
}
func (d *cudaDriver) copyDevice(dst, src uint64, bytes int64, stream uintptr) error {
	return cu.MemcpyDtoDAsync(cu.DevicePtr(dst), cu.DevicePtr(src), bytes, fromHandle[cu.Stream](stream))
}
func (d *cudaDriver) memset8(ptr uint64, v uint8, bytes int64, stream uintptr) error {
	return cu.MemsetD8Async(cu.DevicePtr(ptr), v, bytes, fromHandle[cu.Stream](stream))
}
func (d *cudaDriver) memset32(ptr uint64, v uint32, words int64, stream uintptr) error {
	return cu.MemsetD32Async(cu.DevicePtr(ptr), uint(v), words, fromHandle[cu.Stream](stream))
}
func (d *cudaDriver) synchronize() error { return cu.Synchronize() }

func (d *cudaDriver) loadModule(ptx string) (uintptr, string, error) {
	logBuf := &cu.JITErrorLogBuffer{Buffer: make([]byte, 16<<10)}
	mod, err := cu.LoadDataEx(ptx, logBuf)
	if err != nil {
		return 0, jitHint(err, strings.TrimRight(string(logBuf.Buffer), "\x00 \n")), err
	}
	return handle(mod), "", nil
}

func jitHint(err error, log string) string {
	s := ""
	if log != "" {
		s = "\n" + log
	}
	// CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222), which cu v0.9.6 does not name.
	if errors.Is(err, cu.InvalidPtx) || strings.HasSuffix(err.Error(), ":222") {
		s += "\n(a PTX newer than the driver: 'make ptx' with an nvcc no newer than the driver's CUDA version, or a newer driver)"
	}
	return s
}

func (d *cudaDriver) function(mod uintptr, name string) (uintptr, error) {
	fn, err := fromHandle[cu.Module](mod).Function(name)
	return handle(fn), err
}
func (d *cudaDriver) unload(mod uintptr) error { return fromHandle[cu.Module](mod).Unload() }

func (d *cudaDriver) launch(fn uintptr, grid, block, shared int, stream uintptr, params []unsafe.Pointer) error {
	return fromHandle[cu.Function](fn).Launch(grid, 1, 1, block, 1, 1, shared, fromHandle[cu.Stream](stream), params)
}

func (d *cudaDriver) optInShared() (int, error) {
	// gorgonia.org/cu v0.9.6 does not name the opt-in attribute.
	return d.dev.Attribute(cu.DeviceAttribute(C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
}

func (d *cudaDriver) allowShared(fn uintptr, bytes int) error {
	// Nor does it wrap cuFuncSetAttribute.
	return result(C.cuFuncSetAttribute(fromHandle[C.CUfunction](fn), C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(bytes)))
}

func (d *cudaDriver) preferShared(fn uintptr) error {
	return result(C.cuFuncSetAttribute(fromHandle[C.CUfunction](fn), C.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, C.CU_SHAREDMEM_CARVEOUT_MAX_SHARED))
}

func (d *cudaDriver) resident(fn uintptr, block, shared int) (int, error) {
	var n C.int
	err := result(C.cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fromHandle[C.CUfunction](fn), C.int(block), C.size_t(shared)))
	return int(n), err
}

func (d *cudaDriver) newEvent(timing bool) (uintptr, error) {
	flags := cu.DefaultEvent
	if !timing {
		flags = cu.DisableTiming
	}
	ev, err := cu.MakeEvent(flags)
	return handle(ev), err
}
func (d *cudaDriver) record(event, stream uintptr) error {
	return fromHandle[cu.Event](event).Record(fromHandle[cu.Stream](stream))
}
func (d *cudaDriver) waitEvent(event uintptr) error { return fromHandle[cu.Event](event).Synchronize() }
func (d *cudaDriver) elapsed(start, end uintptr) (time.Duration, error) {
	v, err := fromHandle[cu.Event](start).Elapsed(fromHandle[cu.Event](end))
	return ms(v), err
}
func (d *cudaDriver) destroyEvent(event uintptr) {
	ev := fromHandle[cu.Event](event)
	cu.DestroyEvent(&ev)
}

func (d *cudaDriver) newStream() (uintptr, error) {
	s, err := cu.MakeStream(cu.NonBlocking)
	return handle(s), err
}
func (d *cudaDriver) query(stream uintptr) (bool, error) {
	switch err := fromHandle[cu.Stream](stream).Query(); {
	case err == nil:
		return true, nil
	case errors.Is(err, cu.NotReady):
		return false, nil
	default:
		return false, err
	}
}
func (d *cudaDriver) waitStream(stream uintptr) error {
	return fromHandle[cu.Stream](stream).Synchronize()
}
func (d *cudaDriver) destroyStream(stream uintptr) error {
	s := fromHandle[cu.Stream](stream)
	return s.Destroy()
}

func (d *cudaDriver) beginCapture(stream uintptr) error {
	return result(C.spac_begin_capture(fromHandle[C.CUstream](stream)))
}
func (d *cudaDriver) endCapture(stream uintptr) (uintptr, error) {
	var g C.CUgraph
	err := result(C.spac_end_capture(fromHandle[C.CUstream](stream), &g))
	return handle(g), err
}
func (d *cudaDriver) instantiate(graph uintptr) (uintptr, error) {
	var e C.CUgraphExec
	err := result(C.spac_graph_instantiate(&e, fromHandle[C.CUgraph](graph)))
	return handle(e), err
}
func (d *cudaDriver) destroyGraph(graph uintptr) { C.spac_graph_destroy(fromHandle[C.CUgraph](graph)) }
func (d *cudaDriver) launchGraph(exec uintptr) error {
	return result(C.spac_graph_launch(fromHandle[C.CUgraphExec](exec)))
}
func (d *cudaDriver) destroyExec(exec uintptr) {
	C.spac_graph_exec_destroy(fromHandle[C.CUgraphExec](exec))
}

func (d *cudaDriver) hostAlloc(bytes int) (unsafe.Pointer, uint64, error) {
	var p unsafe.Pointer
	if err := result(C.spac_host_alloc_mapped(&p, C.size_t(bytes))); err != nil {
		return nil, 0, err
	}
	var dp C.CUdeviceptr
	if err := result(C.spac_host_device_ptr(&dp, p)); err != nil {
		cu.MemFreeHost(p)
		return nil, 0, fmt.Errorf("its device address: %w", err)
	}
	return p, uint64(dp), nil
}
func (d *cudaDriver) hostFree(host unsafe.Pointer) { cu.MemFreeHost(host) }

// ms converts milliseconds, as CUDA events give them, to a Duration.
func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// result is nil or the driver's description of a CUresult.
func result(r C.CUresult) error {
	if r == C.CUDA_SUCCESS {
		return nil
	}
	var msg *C.char
	if C.cuGetErrorString(r, &msg) != C.CUDA_SUCCESS || msg == nil {
		return fmt.Errorf("CUresult %d", int(r))
	}
	return fmt.Errorf("%s (CUresult %d)", C.GoString(msg), int(r))
}
