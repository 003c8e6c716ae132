package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Device is an open GPU: its primary context and the modules loaded into
// it. Every method makes the context current on the calling goroutine's
// thread for its duration, so a Device may be used from any goroutine, one
// at a time.
type Device struct {
	drv      driver
	info     DeviceInfo
	clockKHz int
	closed   bool
	modules  []*Module // loaded modules, the runtime's first
	runtime  *Module   // the runtime's own kernels (kernels/runtime.cu)
	// stream is where launches, memsets and the libraries that ask
	// (Stream) queue: the legacy default stream (0), or capture while
	// Capture records a graph.
	stream, capture uintptr
}

// Open makes device ordinal's primary context current and loads the
// runtime's kernels. Without CUDA support it returns ErrNoCUDA.
func Open(ordinal int) (*Device, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	drv, info, clock, err := impl.open(ordinal)
	if err != nil {
		return nil, err
	}
	d := &Device{drv: drv, info: info, clockKHz: clock}
	if d.runtime, err = d.loadModule(runtimeModule); err != nil {
		drv.release()
		return nil, err
	}
	return d, nil
}

// bind locks the calling goroutine to its thread and makes the context
// current there; the returned function unlocks. Every method goes through
// it: in a build without CUDA, where no Device exists, each answers
// ErrNoCUDA.
func (d *Device) bind() (func(), error) {
	if d == nil && !Built {
		return nil, ErrNoCUDA
	}
	if d == nil || d.closed {
		return nil, errors.New("gpu: the device is closed")
	}
	runtime.LockOSThread()
	if err := d.drv.current(); err != nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("gpu: making the device's context current: %w", err)
	}
	return runtime.UnlockOSThread, nil
}

// Do runs f with the device's context current on the calling thread: for
// bindings to CUDA libraries (package gpu/cusparse) that call the driver
// themselves.
func (d *Device) Do(f func() error) error {
	unbind, err := d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	return f()
}

// Stream is the driver's handle of the stream the device's launches queue
// on now, for libraries that queue work of their own (cuSPARSE's
// cusparseSetStream): 0, the legacy default stream, or Capture's stream
// while a capture records.
func (d *Device) Stream() uintptr { return d.stream }

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// ClockKHz is the multiprocessors' peak clock rate in kHz: with Info's SMs,
// what a kernel's fraction of the device's arithmetic peak is computed from.
func (d *Device) ClockKHz() int { return d.clockKHz }

// MemInfo returns the device memory free now and in all, as the driver
// reports them: for a caller that sizes one large allocation by the
// problem (an n x n matrix) to refuse it up front with a message that
// names what it needs.
func (d *Device) MemInfo() (free, total int64, err error) {
	unbind, err := d.bind()
	if err != nil {
		return 0, 0, err
	}
	defer unbind()
	free, total = d.drv.memInfo()
	return free, total, nil
}

// Close unloads the modules and releases the primary context.
func (d *Device) Close() error {
	unbind, err := d.bind()
	if err != nil {
		return nil // closed already
	}
	defer unbind()
	d.closed = true
	var errs []error
	if d.capture != 0 {
		if err := d.drv.destroyStream(d.capture); err != nil {
			errs = append(errs, fmt.Errorf("gpu: destroying the capture stream: %w", err))
		}
	}
	for _, m := range d.modules {
		if err := d.drv.unload(m.mod); err != nil {
			errs = append(errs, fmt.Errorf("gpu: unloading module %s: %w", m.name, err))
		}
	}
	d.modules = nil
	if err := d.drv.release(); err != nil {
		errs = append(errs, fmt.Errorf("gpu: releasing the primary context: %w", err))
	}
	return errors.Join(errs...)
}

// Buffer is device memory that the caller owns and frees.
type Buffer struct {
	d     *Device
	ptr   uint64
	bytes int64
}

// Ptr is a device pointer kernel argument: b's address.
func Ptr(b *Buffer) uint64 { return b.ptr }

// Bytes is the buffer's size.
func (b *Buffer) Bytes() int64 { return b.bytes }

// Alloc allocates bytes of device memory (at least 256, so that empty
// arrays still have an address); what names it in errors.
func (d *Device) Alloc(bytes int64, what string) (*Buffer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	return d.alloc(bytes, what)
}

func (d *Device) alloc(bytes int64, what string) (*Buffer, error) {
	p, err := d.drv.alloc(max(bytes, 256))
	if err != nil {
		free, total := d.drv.memInfo()
		return nil, fmt.Errorf("gpu: allocating %d bytes for %s (%d of %d bytes free): %w", bytes, what, free, total, err)
	}
	return &Buffer{d: d, ptr: p, bytes: bytes}, nil
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

// Upload copies s into new device memory.
func Upload[T any](d *Device, s []T, what string) (*Buffer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	ptr, bytes := slicePtr(s)
	b, err := d.alloc(bytes, what)
	if err != nil {
		return nil, err
	}
	if err := b.copyIn(ptr, bytes, what); err != nil {
		b.free()
		return nil, err
	}
	return b, nil
}

// Write copies s into the start of b, which must be large enough; it
// returns once the copy is done.
func Write[T any](b *Buffer, s []T, what string) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	ptr, bytes := slicePtr(s)
	if bytes > b.bytes {
		return fmt.Errorf("gpu: writing %s: %d bytes into a buffer of %d", what, bytes, b.bytes)
	}
	return b.copyIn(ptr, bytes, what)
}

func (b *Buffer) copyIn(ptr unsafe.Pointer, bytes int64, what string) error {
	if bytes == 0 {
		return nil
	}
	if err := b.d.drv.copyIn(b.ptr, ptr, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s to the device (%d bytes): %w", what, bytes, err)
	}
	return nil
}

// Download waits for the queued work (every stream's) and copies the start
// of b into s.
func Download[T any](b *Buffer, s []T, what string) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := b.d.sync(what); err != nil {
		return err
	}
	return download(b, s, what)
}

// ReadBack copies the start of b into s once the work queued on the
// default stream is done; unlike Download it does not wait for the other
// streams, so a solver can read its scalars while a Transfer's copies go
// on.
func ReadBack[T any](b *Buffer, s []T, what string) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	// A synchronous copy on the legacy default stream is ordered after the
	// work queued there, and a non-blocking stream does not join it.
	return download(b, s, what)
}

func download[T any](b *Buffer, s []T, what string) error {
	ptr, bytes := slicePtr(s)
	if bytes > b.bytes {
		return fmt.Errorf("gpu: reading %s: %d bytes wanted, %d on the device", what, bytes, b.bytes)
	}
	if bytes == 0 {
		return nil
	}
	if err := b.d.drv.copyOut(ptr, b.ptr, bytes); err != nil {
		return fmt.Errorf("gpu: copying %s from the device: %w", what, err)
	}
	return nil
}

// Zero queues filling the buffer with zero bytes on the launch stream (the
// default stream, or Capture's, which records it).
func (b *Buffer) Zero() error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if b.bytes == 0 {
		return nil
	}
	if err := b.d.drv.memset8(b.ptr, 0, b.bytes, b.d.stream); err != nil {
		return fmt.Errorf("gpu: clearing %d bytes: %w", b.bytes, err)
	}
	return nil
}

// Fill32 queues filling the buffer's whole 4-byte words with v on the
// launch stream (the default stream, or Capture's, which records it).
func (b *Buffer) Fill32(v uint32) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if words := b.bytes / 4; words > 0 {
		if err := b.d.drv.memset32(b.ptr, v, words, b.d.stream); err != nil {
			return fmt.Errorf("gpu: filling %d words with %#x: %w", words, v, err)
		}
	}
	return nil
}

// CopyFrom queues copying src's content into b on the launch stream; b
// must be at least as large.
func (b *Buffer) CopyFrom(src *Buffer) error {
	if src.bytes > b.bytes {
		return fmt.Errorf("gpu: copying %d bytes into a buffer of %d", src.bytes, b.bytes)
	}
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if src.bytes == 0 {
		return nil
	}
	if err := b.d.drv.copyDevice(b.ptr, src.ptr, src.bytes, b.d.stream); err != nil {
		return fmt.Errorf("gpu: device-to-device copy of %d bytes: %w", src.bytes, err)
	}
	return nil
}

// Free releases the memory; a freed buffer (or nil) may be freed again.
func (b *Buffer) Free() {
	if b == nil || b.ptr == 0 {
		return
	}
	if unbind, err := b.d.bind(); err == nil {
		b.free()
		unbind()
	}
}

func (b *Buffer) free() {
	if b.ptr != 0 {
		b.d.drv.free(b.ptr)
		b.ptr = 0
	}
}

// Sync waits for every queued operation and reports the first error.
func (d *Device) Sync(what string) error {
	unbind, err := d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	return d.sync(what)
}

func (d *Device) sync(what string) error {
	if err := d.drv.synchronize(); err != nil {
		return fmt.Errorf("gpu: %s: %w", what, err)
	}
	return nil
}

// Time runs op warmup times, then reps times back to back between CUDA
// events on the default stream, and returns the spread of the
// per-repetition device times; op enqueues work and must not synchronize.
// A spinning one-thread kernel goes first so that the host queues every
// repetition before the GPU starts them: no launch gap is timed.
func (d *Device) Time(op func() error, warmup, reps int, what string) (Timing, error) {
	unbind, err := d.bind()
	if err != nil {
		return Timing{}, err
	}
	defer unbind()
	return d.time(op, warmup, reps, what)
}

func (d *Device) time(op func() error, warmup, reps int, what string) (Timing, error) {
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
	events := make([]uintptr, reps+1)
	defer func() {
		for _, ev := range events {
			if ev != 0 {
				d.drv.destroyEvent(ev)
			}
		}
	}()
	for i := range events {
		ev, err := d.drv.newEvent(true)
		if err != nil {
			return Timing{}, fmt.Errorf("gpu: creating an event: %w", err)
		}
		events[i] = ev
	}
	// About 25 us of queueing per repetition, at most 100 ms.
	wait := min(time.Duration(reps)*25*time.Microsecond+time.Millisecond, 100*time.Millisecond)
	spin, err := d.runtime.prepare("gpu_spin", 1, 1, 0, d.info.SharedPerBlock, []uint64{uint64(wait.Microseconds() * int64(d.clockKHz) / 1000)})
	if err != nil {
		return Timing{}, err
	}
	if err := spin.run(); err != nil {
		return Timing{}, err
	}
	if err := d.drv.record(events[0], 0); err != nil {
		return Timing{}, fmt.Errorf("gpu: recording an event: %w", err)
	}
	for i := range reps {
		if err := op(); err != nil {
			return Timing{}, err
		}
		if err := d.drv.record(events[i+1], 0); err != nil {
			return Timing{}, fmt.Errorf("gpu: recording an event: %w", err)
		}
	}
	if err := d.drv.waitEvent(events[reps]); err != nil {
		return Timing{}, fmt.Errorf("gpu: %s: %w", what, err)
	}
	samples := make([]time.Duration, reps)
	for i := range reps {
		v, err := d.drv.elapsed(events[i], events[i+1])
		if err != nil {
			return Timing{}, fmt.Errorf("gpu: reading an event: %w", err)
		}
		samples[i] = v
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
	if err := d.drv.memset32(src.ptr, 0x3f800000, bytes/4, 0); err != nil {
		return Timing{}, 0, fmt.Errorf("gpu: filling the copy source: %w", err)
	}
	op := func() error {
		if err := d.drv.copyDevice(dst.ptr, src.ptr, bytes, 0); err != nil {
			return fmt.Errorf("gpu: device-to-device copy: %w", err)
		}
		return nil
	}
	t, err := d.time(op, 3, reps, "the device-to-device copy")
	if err != nil {
		return t, 0, err
	}
	return t, 2 * float64(bytes) / t.Median.Seconds(), nil
}
