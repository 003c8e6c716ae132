//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	// Starts the driver before gorgonia.org/cu does, with a clear message
	// where it cannot start.
	_ "github.com/spac-gpu/spac/gpu/internal/cudacheck"
)

// Built reports whether this binary has CUDA support.
const Built = true

// Device is an open GPU: its primary context and the kernels' module. Every
// method makes the context current on the calling goroutine's thread for
// its duration, so a Device may be used from any goroutine, one at a time.
type Device struct {
	info     DeviceInfo
	dev      cu.Device
	ctx      cu.CUContext
	modules  []*Module // loaded modules, the SpMV kernels' first
	spmv     *Module   // the SpMV kernels
	clockKHz int
	closed   bool
	// stream is where launches, the ops' memsets and cuSPARSE queue: the
	// legacy default stream, or capture while Capture records a graph.
	stream, capture cu.Stream
}

// Open makes device ordinal's primary context current and loads the
// kernels (the driver compiles their PTX for the device).
func Open(ordinal int) (*Device, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return open(ordinal)
}

// bind locks the calling goroutine to its thread and makes the context
// current there; the returned function unlocks.
func (d *Device) bind() (func(), error) {
	if d == nil || d.closed {
		return nil, errors.New("gpu: the device is closed")
	}
	runtime.LockOSThread()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("gpu: making the device's context current: %w", err)
	}
	return runtime.UnlockOSThread, nil
}

func open(ordinal int) (*Device, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("gpu: counting CUDA devices: %w", err)
	}
	if n == 0 {
		return nil, errors.New("gpu: the driver sees no CUDA device")
	}
	if ordinal < 0 || ordinal >= n {
		return nil, fmt.Errorf("gpu: device %d does not exist (%d device(s): 0 to %d)", ordinal, n, n-1)
	}
	dev, err := cu.GetDevice(ordinal)
	if err != nil {
		return nil, fmt.Errorf("gpu: device %d: %w", ordinal, err)
	}
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return nil, fmt.Errorf("gpu: device %d: retaining its primary context: %w", ordinal, err)
	}
	d := &Device{dev: dev, ctx: ctx}
	if err := cu.SetCurrentContext(ctx); err != nil {
		d.release()
		return nil, fmt.Errorf("gpu: device %d: making its context current: %w", ordinal, err)
	}
	if err := d.readInfo(ordinal); err != nil {
		d.release()
		return nil, err
	}
	if err := d.load(); err != nil {
		d.release()
		return nil, err
	}
	return d, nil
}

func (d *Device) readInfo(ordinal int) error {
	name, err := d.dev.Name()
	if err != nil {
		return fmt.Errorf("gpu: device %d: name: %w", ordinal, err)
	}
	mem, err := d.dev.TotalMem()
	if err != nil {
		return fmt.Errorf("gpu: device %d: memory size: %w", ordinal, err)
	}
	attr := func(a cu.DeviceAttribute, what string) (int, error) {
		v, err := d.dev.Attribute(a)
		if err != nil {
			return 0, fmt.Errorf("gpu: device %d: %s: %w", ordinal, what, err)
		}
		return v, nil
	}
	info := DeviceInfo{Ordinal: ordinal, Name: strings.TrimRight(name, "\x00"), MemBytes: mem, DriverVersion: cu.Version()}
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
		{cu.ClockRate, "clock rate", &d.clockKHz},
	} {
		v, err := attr(a.attr, a.what)
		if err != nil {
			return err
		}
		*a.dst = v
	}
	d.info = info
	return nil
}

// load compiles the SpMV kernels for the device.
func (d *Device) load() error {
	m, err := d.loadModule(spmvModule)
	if err != nil {
		return err
	}
	d.spmv = m
	return nil
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

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// PTXSource says where the loaded kernels came from.
func (d *Device) PTXSource() string { return d.spmv.source }

// Close unloads the kernels and releases the primary context.
func (d *Device) Close() error {
	unbind, err := d.bind()
	if err != nil {
		return nil // closed already
	}
	defer unbind()
	d.closed = true
	var errs []error
	if d.capture != (cu.Stream{}) {
		if err := d.capture.Destroy(); err != nil {
			errs = append(errs, fmt.Errorf("gpu: destroying the capture stream: %w", err))
		}
	}
	for _, m := range d.modules {
		if err := m.unload(); err != nil {
			errs = append(errs, err)
		}
	}
	d.modules = nil
	if err := d.release(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (d *Device) release() error {
	if err := d.dev.ReleasePrimaryCtx(); err != nil {
		return fmt.Errorf("gpu: releasing the primary context: %w", err)
	}
	return nil
}

// buffer is device memory.
type buffer struct {
	ptr   cu.DevicePtr
	bytes int64
}

// alloc allocates bytes of device memory (at least 256, so that empty
// arrays still have an address).
func (d *Device) alloc(bytes int64, what string) (buffer, error) {
	n := max(bytes, 256)
	p, err := cu.MemAlloc(n)
	if err != nil {
		free, total, _ := cu.MemInfo()
		return buffer{}, fmt.Errorf("gpu: allocating %d bytes for %s (%d of %d bytes free): %w", bytes, what, free, total, err)
	}
	return buffer{ptr: p, bytes: bytes}, nil
}

func (b *buffer) free() {
	if b.ptr != 0 {
		cu.MemFree(b.ptr)
		b.ptr = 0
	}
}

// upload copies a host slice into new device memory.
func upload[T any](d *Device, s []T, what string) (buffer, error) {
	ptr, bytes := slicePtr(s)
	return d.uploadBytes(ptr, bytes, what)
}

// slicePtr returns the address and size in bytes of s's elements (nil and
// 0 when it is empty).
func slicePtr[T any](s []T) (unsafe.Pointer, int64) {
	if len(s) == 0 {
		return nil, 0
	}
	var zero T
	return unsafe.Pointer(&s[0]), int64(len(s)) * int64(unsafe.Sizeof(zero))
}

// uploadBytes copies bytes bytes at ptr into new device memory.
func (d *Device) uploadBytes(ptr unsafe.Pointer, bytes int64, what string) (buffer, error) {
	b, err := d.alloc(bytes, what)
	if err != nil {
		return b, err
	}
	if bytes > 0 {
		if err := cu.MemcpyHtoD(b.ptr, ptr, bytes); err != nil {
			b.free()
			return buffer{}, fmt.Errorf("gpu: copying %s to the device (%d bytes): %w", what, bytes, err)
		}
	}
	return b, nil
}

// download copies device memory into a host slice of the same size.
func download[T any](b buffer, s []T, what string) error {
	var zero T
	bytes := int64(len(s)) * int64(unsafe.Sizeof(zero))
	if bytes > b.bytes {
		return fmt.Errorf("gpu: reading %s: %d bytes wanted, %d on the device", what, bytes, b.bytes)
	}
	if bytes == 0 {
		return nil
	}
	if err := cu.MemcpyDtoH(unsafe.Pointer(&s[0]), b.ptr, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s from the device: %w", what, err)
	}
	return nil
}

// launch is one kernel launch with its arguments, kept in 8-byte slots as
// gorgonia.org/cu's Launch reads them.
type launch struct {
	d           *Device
	fn          cu.Function
	name        string
	grid, block int
	shared      int
	args        []uint64
	params      []unsafe.Pointer
}

func (d *Device) newLaunch(name string, grid, block, shared int, args ...uint64) (*launch, error) {
	fn, ok := d.spmv.fns[name]
	if !ok {
		return nil, fmt.Errorf("gpu: no kernel %s", name)
	}
	return d.prepare(fn, name, grid, block, shared, d.info.SharedPerBlock, args)
}

// prepare checks a launch against the grid's limit and maxShared (the
// device's default per-block shared memory, or the opted-in limit).
func (d *Device) prepare(fn cu.Function, name string, grid, block, shared, maxShared int, args []uint64) (*launch, error) {
	if grid > 1<<31-1 {
		return nil, fmt.Errorf("gpu: %s needs %d blocks, more than a grid holds", name, grid)
	}
	if shared > maxShared {
		return nil, fmt.Errorf("gpu: %s needs %d bytes of shared memory per block, the device gives %d without opting in (use a smaller --smem-budget)", name, shared, d.info.SharedPerBlock)
	}
	l := &launch{d: d, fn: fn, name: name, grid: grid, block: block, shared: shared, args: args}
	l.params = make([]unsafe.Pointer, len(args))
	for i := range args {
		l.params[i] = unsafe.Pointer(&l.args[i])
	}
	return l, nil
}

// run enqueues the launch on the device's launch stream (nothing when the
// grid is empty).
func (l *launch) run() error {
	if l.grid == 0 {
		return nil
	}
	if err := l.fn.Launch(l.grid, 1, 1, l.block, 1, 1, l.shared, l.d.stream, l.params); err != nil {
		return fmt.Errorf("gpu: launching %s (%d blocks of %d threads, %d bytes shared): %w", l.name, l.grid, l.block, l.shared, err)
	}
	return nil
}

func ptrArg(b buffer) uint64 { return uint64(b.ptr) }

// sync waits for the device and reports any error of the work queued.
func (d *Device) sync(what string) error {
	if err := cu.Synchronize(); err != nil {
		return fmt.Errorf("gpu: %s: %w", what, err)
	}
	return nil
}

// timeOps runs op warmup times, then reps times back to back between CUDA
// events, and returns the spread of the per-repetition times. A spinning
// one-thread kernel goes first so that the host queues every repetition
// before the GPU starts them: no launch gap is timed.
func (d *Device) timeOps(op func() error, warmup, reps int, what string) (Timing, error) {
	if reps < 1 {
		return Timing{}, fmt.Errorf("gpu: timing %s: need at least one repetition", what)
	}
	for range warmup {
		if err := op(); err != nil {
			return Timing{}, err
		}
	}
	if err := d.sync(what + " (warm-up)"); err != nil {
		return Timing{}, err
	}
	events := make([]cu.Event, reps+1)
	defer func() {
		for i := range events {
			if events[i] != (cu.Event{}) {
				cu.DestroyEvent(&events[i])
			}
		}
	}()
	for i := range events {
		ev, err := cu.MakeEvent(cu.DefaultEvent)
		if err != nil {
			return Timing{}, fmt.Errorf("gpu: creating an event: %w", err)
		}
		events[i] = ev
	}
	// About 25 us of queueing per repetition, at most 100 ms.
	wait := min(time.Duration(reps)*25*time.Microsecond+time.Millisecond, 100*time.Millisecond)
	spin, err := d.newLaunch("spmv_spin", 1, 1, 0, uint64(wait.Microseconds()*int64(d.clockKHz)/1000))
	if err != nil {
		return Timing{}, err
	}
	if err := spin.run(); err != nil {
		return Timing{}, err
	}
	if err := events[0].Record(cu.Stream{}); err != nil {
		return Timing{}, fmt.Errorf("gpu: recording an event: %w", err)
	}
	for i := range reps {
		if err := op(); err != nil {
			return Timing{}, err
		}
		if err := events[i+1].Record(cu.Stream{}); err != nil {
			return Timing{}, fmt.Errorf("gpu: recording an event: %w", err)
		}
	}
	if err := events[reps].Synchronize(); err != nil {
		return Timing{}, fmt.Errorf("gpu: %s: %w", what, err)
	}
	samples := make([]time.Duration, reps)
	for i := range reps {
		v, err := events[i].Elapsed(events[i+1])
		if err != nil {
			return Timing{}, fmt.Errorf("gpu: reading an event: %w", err)
		}
		samples[i] = ms(v)
	}
	return Summarize(samples), nil
}

// CopyBandwidth times a device-to-device copy of bytes bytes and returns
// its timing and the bandwidth in bytes per second, counting the bytes
// read and written: the ceiling of a memory-bound kernel.
func (d *Device) CopyBandwidth(bytes int64, reps int) (Timing, float64, error) {
	unbind, err := d.bind()
	if err != nil {
		return Timing{}, 0, err
	}
	defer unbind()
	bytes &^= 255
	if bytes <= 0 {
		return Timing{}, 0, fmt.Errorf("gpu: copy bandwidth: size %d", bytes)
	}
	src, err := d.alloc(bytes, "the copy source")
	if err != nil {
		return Timing{}, 0, err
	}
	defer src.free()
	dst, err := d.alloc(bytes, "the copy target")
	if err != nil {
		return Timing{}, 0, err
	}
	defer dst.free()
	if err := cu.MemsetD32(src.ptr, 0x3f800000, bytes/4); err != nil {
		return Timing{}, 0, fmt.Errorf("gpu: filling the copy source: %w", err)
	}
	op := func() error {
		if err := cu.MemcpyDtoDAsync(dst.ptr, src.ptr, bytes, cu.Stream{}); err != nil {
			return fmt.Errorf("gpu: device-to-device copy: %w", err)
		}
		return nil
	}
	t, err := d.timeOps(op, 3, reps, "the device-to-device copy")
	if err != nil {
		return t, 0, err
	}
	return t, 2 * float64(bytes) / t.Median.Seconds(), nil
}
