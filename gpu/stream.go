package gpu

// Beyond launches and timed sequences: intervals timed between two events
// inside a loop, uploads on a stream of their own while the default stream
// keeps computing (Transfer), and page-locked memory the device writes and
// the host reads without a copy (Mapped), so that an iterative solver's
// device never waits for its host.

import (
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"
)

// Interval times work on the default stream between two CUDA events.
type Interval struct {
	d          *Device
	start, end uintptr
}

// NewInterval creates the two events of an interval.
func (d *Device) NewInterval() (*Interval, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	start, err := d.drv.newEvent(true)
	if err != nil {
		return nil, fmt.Errorf("gpu: creating an event: %w", err)
	}
	end, err := d.drv.newEvent(true)
	if err != nil {
		d.drv.destroyEvent(start)
		return nil, fmt.Errorf("gpu: creating an event: %w", err)
	}
	return &Interval{d: d, start: start, end: end}, nil
}

func (iv *Interval) record(ev uintptr) error {
	unbind, err := iv.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := iv.d.drv.record(ev, 0); err != nil {
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
	if err := iv.d.drv.waitEvent(iv.end); err != nil {
		return 0, fmt.Errorf("gpu: waiting for an event: %w", err)
	}
	v, err := iv.d.drv.elapsed(iv.start, iv.end)
	if err != nil {
		return 0, fmt.Errorf("gpu: reading an event: %w", err)
	}
	return v, nil
}

// Close destroys the events.
func (iv *Interval) Close() {
	if unbind, err := iv.d.bind(); err == nil {
		iv.d.drv.destroyEvent(iv.start)
		iv.d.drv.destroyEvent(iv.end)
		unbind()
	}
}

// Transfer copies host arrays into new device memory on a non-blocking
// stream of its own, which does not wait for the default stream: work
// queued there keeps running while it copies. It is meant for another
// goroutine than the one queueing that work: it only allocates device
// memory and queues copies. The copies are from pageable memory, so each
// UploadAsync returns once the driver has staged the data (the caller's
// thread waits for that, the device does not).
type Transfer struct {
	d      *Device
	stream uintptr
}

// NewTransfer creates a transfer's stream.
func (d *Device) NewTransfer() (*Transfer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	s, err := d.drv.newStream()
	if err != nil {
		return nil, fmt.Errorf("gpu: creating a stream for an upload: %w", err)
	}
	return &Transfer{d: d, stream: s}, nil
}

// UploadAsync allocates device memory for s and queues its copy on t's
// stream; the buffer holds s once t is Ready.
func UploadAsync[T any](t *Transfer, s []T, what string) (*Buffer, error) {
	unbind, err := t.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	ptr, bytes := slicePtr(s)
	b, err := t.d.alloc(bytes, what)
	if err != nil {
		return nil, err
	}
	if bytes > 0 {
		if err := t.d.drv.copyInAsync(b.ptr, ptr, bytes, t.stream); err != nil {
			b.free()
			return nil, fmt.Errorf("gpu: queueing the copy of %s: %w", what, err)
		}
	}
	return b, nil
}

// Ready reports, without waiting, whether the copies have finished.
func (t *Transfer) Ready() (bool, error) {
	unbind, err := t.d.bind()
	if err != nil {
		return false, err
	}
	defer unbind()
	done, err := t.d.drv.query(t.stream)
	if err != nil {
		return false, fmt.Errorf("gpu: upload: %w", err)
	}
	return done, nil
}

// Close waits for the copies and destroys the stream; the buffers stay
// the caller's.
func (t *Transfer) Close() error {
	if t == nil || t.stream == 0 {
		return nil
	}
	unbind, err := t.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	werr := t.d.drv.waitStream(t.stream)
	t.d.drv.destroyStream(t.stream)
	t.stream = 0
	if werr != nil {
		return fmt.Errorf("gpu: upload: %w", werr)
	}
	return nil
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
	dev   uint64
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
	host, dev, err := d.drv.hostAlloc(8 * words)
	if err != nil {
		return nil, fmt.Errorf("gpu: allocating %d bytes of mapped page-locked host memory: %w", 8*words, err)
	}
	clear(unsafe.Slice((*uint64)(host), words))
	return &Mapped{d: d, host: host, dev: dev, words: words}, nil
}

// Arg is the memory's device address, as a kernel argument.
func (m *Mapped) Arg() uint64 { return m.dev }

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
		m.d.drv.hostFree(m.host)
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
	return d.drv.query(0)
}
