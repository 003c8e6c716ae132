//go:build cuda

package gpu

// What iterative solvers (apps/cg) need beyond a timed product: running an
// Op on the SpMV's own x and y from kernels of another module, timing single
// products inside a loop, and uploading a schedule on a second stream while
// the default stream keeps computing, and reading a solver's scalars some
// iterations after they were computed, so that the device never waits for
// the host. Nothing here changes how the rest of the package behaves.

/*
#include <cuda.h>
// cuda.h maps the name to its _v2 entry point with a macro, which cgo
// cannot call.
static CUresult spac_alloc_host(void **p, size_t bytes) { return cuMemAllocHost(p, bytes); }
*/
import "C"

import (
	"errors"
	"fmt"
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

// Run enqueues y = A x with op on the default stream and returns without
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
	switch err := ps.done.Query(); {
	case err == nil:
		return true, nil
	case errors.Is(err, cu.NotReady):
		return false, nil
	default:
		return false, fmt.Errorf("gpu: schedule upload: %w", err)
	}
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
// streams, so a solver can read its scalars every iteration while
// UploadAsync's copies go on.
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

// Mailbox carries copies of a small device buffer to the host without
// waiting: Post queues a copy into one of its slots on the default stream,
// after the work queued there so far; Read waits for that copy alone. A
// solver posts its scalars after every iteration it queues and reads them a
// few iterations later, so the device keeps computing while the host
// decides. The slots are page-locked host memory: a copy into pageable
// memory would make Post wait for the device.
type Mailbox struct {
	d      *Device
	src    buffer
	host   unsafe.Pointer // len(events) slots of src.bytes each
	events []cu.Event
}

// NewMailbox makes a mailbox of slots slots for src (the caller keeps src
// alive until Close).
func (d *Device) NewMailbox(src *Buffer, slots int) (*Mailbox, error) {
	if slots < 1 {
		return nil, fmt.Errorf("gpu: a mailbox of %d slots", slots)
	}
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	m := &Mailbox{d: d, src: src.b}
	var p unsafe.Pointer
	if r := C.spac_alloc_host(&p, C.size_t(max(src.b.bytes, 8)*int64(slots))); r != C.CUDA_SUCCESS {
		return nil, fmt.Errorf("gpu: allocating %d bytes of page-locked host memory: CUresult %d", src.b.bytes*int64(slots), int(r))
	}
	m.host = p
	for range slots {
		e, err := cu.MakeEvent(cu.DisableTiming)
		if err != nil {
			m.release()
			return nil, fmt.Errorf("gpu: creating an event: %w", err)
		}
		m.events = append(m.events, e)
	}
	return m, nil
}

func (m *Mailbox) slot(i int) (unsafe.Pointer, error) {
	if i < 0 || i >= len(m.events) {
		return nil, fmt.Errorf("gpu: mailbox slot %d of %d", i, len(m.events))
	}
	return unsafe.Add(m.host, int64(i)*m.src.bytes), nil
}

// Post queues the copy of the buffer into slot i on the default stream.
func (m *Mailbox) Post(i int) error {
	dst, err := m.slot(i)
	if err != nil {
		return err
	}
	unbind, err := m.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := cu.MemcpyDtoHAsync(dst, m.src.ptr, m.src.bytes, cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: queueing a copy to the host: %w", err)
	}
	if err := m.events[i].Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Read waits for the last copy posted to slot i and copies it into out
// (len(out) float64s from the start of the buffer).
func (m *Mailbox) Read(i int, out []float64) error {
	src, err := m.slot(i)
	if err != nil {
		return err
	}
	if int64(len(out))*8 > m.src.bytes {
		return fmt.Errorf("gpu: reading %d values from a mailbox of %d bytes", len(out), m.src.bytes)
	}
	unbind, err := m.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := m.events[i].Synchronize(); err != nil {
		return fmt.Errorf("gpu: waiting for a copy to the host: %w", err)
	}
	copy(out, unsafe.Slice((*float64)(src), len(out)))
	return nil
}

// Close frees the slots and events (after the copies posted are done).
func (m *Mailbox) Close() {
	if unbind, err := m.d.bind(); err == nil {
		m.release()
		unbind()
	}
}

// release frees everything; the context is current.
func (m *Mailbox) release() {
	for i := range m.events {
		m.events[i].Synchronize()
		cu.DestroyEvent(&m.events[i])
	}
	m.events = nil
	if m.host != nil {
		cu.MemFreeHost(m.host)
		m.host = nil
	}
}
