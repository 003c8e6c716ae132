//go:build cuda

package gpu

// What iterative solvers (apps/cg) need beyond a timed product: running an
// Op on the SpMV's own x and y from kernels of another module, timing single
// products inside a loop, and uploading a schedule on a second stream while
// the default stream keeps computing, and reading a solver's scalars some
// iterations after they were computed (Mapped), so that the device never
// waits for the host. Nothing here changes how the rest of the package behaves.

/*
#include <cuda.h>
// cuda.h maps these names to their _v2 entry points with macros, which
// cgo cannot call.
static CUresult spac_host_alloc_mapped(void **p, size_t bytes) {
	return cuMemHostAlloc(p, bytes, CU_MEMHOSTALLOC_DEVICEMAP);
}
static CUresult spac_host_device_ptr(CUdeviceptr *d, void *p) { return cuMemHostGetDevicePointer(d, p, 0); }
*/
import "C"

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"

	"gorgonia.org/cu"
)

// VectorArgs returns the device addresses of x and y, as kernel arguments
// (like Ptr), so that kernels of other modules can write the x an Op
// multiplies and read the y it produces: a solver keeps its direction vector
// in x and A times it in y, and copies nothing. The SpMV owns the memory; it
// is valid until Close.
func (s *SpMV) VectorArgs() (x, y uint64) { return ptrArg(s.x), ptrArg(s.y) }

// Run enqueues y = A x with op on the device's launch stream (the default
// stream, or Capture's) and returns without
// waiting (unlike Product, which also fills y with NaN first and waits).
func (s *SpMV) Run(op *Op) error {
	unbind, err := s.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	return op.run()
}

// Interval times work on the default stream between two CUDA events.
type Interval struct {
	d          *Device
	start, end cu.Event
}

// NewInterval creates the two events of an interval.
func (d *Device) NewInterval() (*Interval, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	start, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return nil, fmt.Errorf("gpu: creating an event: %w", err)
	}
	end, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		cu.DestroyEvent(&start)
		return nil, fmt.Errorf("gpu: creating an event: %w", err)
	}
	return &Interval{d: d, start: start, end: end}, nil
}

func (iv *Interval) record(e cu.Event) error {
	unbind, err := iv.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := e.Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Start marks the beginning of the timed work on the default stream.
func (iv *Interval) Start() error { return iv.record(iv.start) }

// Stop marks its end.
func (iv *Interval) Stop() error { return iv.record(iv.end) }

// Elapsed waits for the end mark and returns the device time between the
// marks.
func (iv *Interval) Elapsed() (time.Duration, error) {
	unbind, err := iv.d.bind()
	if err != nil {
		return 0, err
	}
	defer unbind()
	if err := iv.end.Synchronize(); err != nil {
		return 0, fmt.Errorf("gpu: waiting for an event: %w", err)
	}
	v, err := iv.start.Elapsed(iv.end)
	if err != nil {
		return 0, fmt.Errorf("gpu: reading an event: %w", err)
	}
	return ms(v), nil
}

// Close destroys the events.
func (iv *Interval) Close() {
	if unbind, err := iv.d.bind(); err == nil {
		cu.DestroyEvent(&iv.start)
		cu.DestroyEvent(&iv.end)
		unbind()
	}
}

// PendingSchedule is a schedule whose upload runs on a stream of its own.
type PendingSchedule struct {
	s       *SpMV
	ds      *DeviceSchedule
	stream  cu.Stream
	done    cu.Event
	adopted bool
}

// UploadAsync copies a schedule's arrays to the device on a new
// non-blocking stream, which does not wait for the default stream, so that
// products queued there keep running while it copies. It is meant to be
// called from a goroutine other than the one running the products: it only
// allocates device memory and queues copies, and reads nothing the SpMV's
// other methods change. The copies are from pageable memory, so the call
// returns once the driver has staged the data (the caller's thread waits
// for that, the device does not). Ready reports when the copies are done;
// Adopt then hands the schedule to the SpMV (call that from the goroutine
// running the products), Discard frees it instead.
func (s *SpMV) UploadAsync(a *ScheduleArrays) (*PendingSchedule, error) {
	if err := s.checkArrays(a); err != nil {
		return nil, err
	}
	unbind, err := s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	stream, err := cu.MakeStream(cu.NonBlocking)
	if err != nil {
		return nil, fmt.Errorf("gpu: creating a stream for the schedule upload: %w", err)
	}
	ps := &PendingSchedule{s: s, stream: stream, ds: &DeviceSchedule{a: a, nZero: len(a.ZeroRows)}}
	fail := func(err error) (*PendingSchedule, error) {
		ps.release()
		return nil, err
	}
	for _, st := range ps.ds.parts(s.p) {
		b, err := s.d.alloc(st.bytes, st.what)
		if err != nil {
			return fail(err)
		}
		*st.dst = b
		if st.bytes > 0 {
			if err := cu.MemcpyHtoDAsync(b.ptr, st.ptr, st.bytes, stream); err != nil {
				return fail(fmt.Errorf("gpu: queueing the copy of %s: %w", st.what, err))
			}
		}
	}
	if ps.done, err = cu.MakeEvent(cu.DisableTiming); err != nil {
		return fail(fmt.Errorf("gpu: creating an event: %w", err))
	}
	if err := ps.done.Record(stream); err != nil {
		return fail(fmt.Errorf("gpu: recording an event: %w", err))
	}
	return ps, nil
}

// Ready reports, without waiting, whether the copies have finished.
func (ps *PendingSchedule) Ready() (bool, error) {
	unbind, err := ps.s.d.bind()
	if err != nil {
		return false, err
	}
	defer unbind()
	done, err := queried(ps.done.Query())
	if err != nil {
		return false, fmt.Errorf("gpu: schedule upload: %w", err)
	}
	return done, nil
}

// queried reads a Query's result: the work is done, not yet, or failed.
func queried(err error) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, cu.NotReady):
		return false, nil
	}
	return false, err
}

// Adopt waits for the copies (Ready says whether that blocks), makes the
// schedule the SpMV's (Close frees it) and returns it for Op.
func (ps *PendingSchedule) Adopt() (*DeviceSchedule, error) {
	unbind, err := ps.s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if err := ps.done.Synchronize(); err != nil {
		return nil, fmt.Errorf("gpu: schedule upload: %w", err)
	}
	ps.adopted = true
	ps.s.scheds = append(ps.s.scheds, ps.ds)
	ps.releaseStream()
	return ps.ds, nil
}

// Discard frees a schedule that was not adopted (after its copies end).
func (ps *PendingSchedule) Discard() {
	if ps.adopted {
		return
	}
	if unbind, err := ps.s.d.bind(); err == nil {
		ps.release()
		unbind()
	}
}

// release frees everything; the context is current.
func (ps *PendingSchedule) release() {
	if ps.stream != (cu.Stream{}) {
		ps.stream.Synchronize()
	}
	ps.ds.free()
	ps.releaseStream()
}

func (ps *PendingSchedule) releaseStream() {
	if ps.done != (cu.Event{}) {
		cu.DestroyEvent(&ps.done)
	}
	if ps.stream != (cu.Stream{}) {
		ps.stream.Destroy()
	}
}

// ReadBack copies the start of b into s once the work queued on the
// default stream is done; unlike Download it does not wait for the other
// streams, so a solver can read its scalars while UploadAsync's copies go
// on.
func ReadBack[T any](b *Buffer, s []T, what string) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	// A synchronous copy on the legacy default stream is ordered after the
	// work queued there, and a non-blocking stream does not join it.
	return download(b.b, s, what)
}

// UploadValues copies v, rounded to precision p, into new device memory
// (as the SpMV stores its values and vectors); what names it in errors.
func UploadValues(d *Device, v []float64, p Precision, what string) (*Buffer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	b, err := uploadValues(d, v, p, what)
	if err != nil {
		return nil, err
	}
	return &Buffer{d: d, b: b}, nil
}

// Mapped is page-locked host memory mapped into the device's address
// space: kernels write it directly (Arg is its device address) and the
// host reads it without a copy or an event. A solver's kernels post their
// scalars there after every iteration, each post ending with its number in
// a word of its own, which the host awaits (Await): the host needs no
// driver call per iteration to read them, and the device none to send
// them.
type Mapped struct {
	d     *Device
	host  unsafe.Pointer
	dev   cu.DevicePtr
	words int
}

// NewMapped allocates words 8-byte words of mapped memory, zeroed.
func (d *Device) NewMapped(words int) (*Mapped, error) {
	if words < 1 {
		return nil, fmt.Errorf("gpu: mapped memory of %d words", words)
	}
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	var p unsafe.Pointer
	bytes := C.size_t(8 * words)
	if r := C.spac_host_alloc_mapped(&p, bytes); r != C.CUDA_SUCCESS {
		return nil, fmt.Errorf("gpu: allocating %d bytes of mapped page-locked host memory: CUresult %d", 8*words, int(r))
	}
	var dp C.CUdeviceptr
	if r := C.spac_host_device_ptr(&dp, p); r != C.CUDA_SUCCESS {
		cu.MemFreeHost(p)
		return nil, fmt.Errorf("gpu: the device address of mapped host memory: CUresult %d", int(r))
	}
	clear(unsafe.Slice((*uint64)(p), words))
	return &Mapped{d: d, host: p, dev: cu.DevicePtr(dp), words: words}, nil
}

// Arg is the memory's device address, as a kernel argument.
func (m *Mapped) Arg() uint64 { return uint64(m.dev) }

func (m *Mapped) word(i int) (*uint64, error) {
	if i < 0 || i >= m.words {
		return nil, fmt.Errorf("gpu: word %d of mapped memory of %d", i, m.words)
	}
	return (*uint64)(unsafe.Add(m.host, 8*i)), nil
}

// Await waits until word i holds want, spinning (a post takes a few
// microseconds); every few thousand spins it asks the driver whether the
// default stream has failed or has finished without posting want.
func (m *Mapped) Await(i int, want uint64) error {
	w, err := m.word(i)
	if err != nil {
		return err
	}
	for spin := 1; atomic.LoadUint64(w) != want; spin++ {
		if spin%4096 != 0 {
			continue
		}
		idle, err := m.d.streamIdle()
		if err != nil {
			return fmt.Errorf("gpu: waiting for a post: %w", err)
		}
		if idle && atomic.LoadUint64(w) != want {
			return fmt.Errorf("gpu: the device finished its work without posting %d (word %d holds %d)", want, i, atomic.LoadUint64(w))
		}
	}
	return nil
}

// Float64s copies words [from, from+len(out)) into out; read them after
// Await has seen the post that wrote them.
func (m *Mapped) Float64s(from int, out []float64) error {
	if from < 0 || from+len(out) > m.words {
		return fmt.Errorf("gpu: words %d..%d of mapped memory of %d", from, from+len(out), m.words)
	}
	copy(out, unsafe.Slice((*float64)(unsafe.Add(m.host, 8*from)), len(out)))
	return nil
}

// Close frees the memory (after the device's work is done).
func (m *Mapped) Close() {
	if m.host == nil {
		return
	}
	if unbind, err := m.d.bind(); err == nil {
		_ = m.d.sync("freeing mapped memory") // no post may land after the free; Close reports no error
		cu.MemFreeHost(m.host)
		m.host = nil
		unbind()
	}
}

// streamIdle reports whether the default stream has finished its work, or
// the error of that work.
func (d *Device) streamIdle() (bool, error) {
	unbind, err := d.bind()
	if err != nil {
		return false, err
	}
	defer unbind()
	return queried((cu.Stream{}).Query())
}
