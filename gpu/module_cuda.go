//go:build cuda

package gpu

import (
	"fmt"
	"strings"

	"gorgonia.org/cu"
)

// Module is a PTXModule loaded into the device's context.
type Module struct {
	d      *Device
	name   string
	source string
	mod    cu.Module
	fns    map[string]cu.Function
}

// LoadModule compiles m's PTX for the device (the driver's JIT) and finds
// every entry point; the device unloads it when it closes.
func (d *Device) LoadModule(m PTXModule) (*Module, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	return d.loadModule(m)
}

func (d *Device) loadModule(m PTXModule) (*Module, error) {
	ptx, source, err := m.Source()
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	logBuf := &cu.JITErrorLogBuffer{Buffer: make([]byte, 16<<10)}
	mod, err := cu.LoadDataEx(ptx, logBuf)
	if err != nil {
		log := strings.TrimRight(string(logBuf.Buffer), "\x00 \n")
		return nil, fmt.Errorf("gpu: loading the PTX of module %s (%s) for %s (sm_%d%d): %w%s", m.Name, source, d.info.Name, d.info.Major, d.info.Minor, err, jitHint(err, log))
	}
	mo := &Module{d: d, name: m.Name, source: source, mod: mod, fns: map[string]cu.Function{}}
	for _, name := range m.Entries {
		fn, err := mod.Function(name)
		if err != nil {
			mod.Unload()
			return nil, fmt.Errorf("gpu: the PTX of module %s (%s) has no kernel %s: %w (regenerate it with 'make ptx')", m.Name, source, name, err)
		}
		mo.fns[name] = fn
	}
	d.modules = append(d.modules, mo)
	return mo, nil
}

// Source says where the module's PTX came from.
func (m *Module) Source() string { return m.source }

// Launch is a kernel launch with its arguments, ready to be run many times.
type Launch struct{ l *launch }

// Launch prepares a launch of kernel name with grid blocks of block threads
// and shared bytes of dynamic shared memory. Arguments are 8-byte slots
// made by Ptr and Int (a 4-byte parameter reads the low half of its slot).
func (m *Module) Launch(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	fn, err := m.function(name)
	if err != nil {
		return nil, err
	}
	return m.prepare(fn, name, grid, block, shared, m.d.info.SharedPerBlock, args)
}

// function finds one of the module's entries.
func (m *Module) function(name string) (cu.Function, error) {
	fn, ok := m.fns[name]
	if !ok {
		return fn, fmt.Errorf("gpu: module %s has no kernel %s (not among its entries)", m.name, name)
	}
	return fn, nil
}

// prepare is Device.prepare for a kernel of the module.
func (m *Module) prepare(fn cu.Function, name string, grid, block, shared, maxShared int, args []uint64) (*Launch, error) {
	l, err := m.d.prepare(fn, name, grid, block, shared, maxShared, args)
	if err != nil {
		return nil, err
	}
	return &Launch{l: l}, nil
}

// Run enqueues the launch on the device's launch stream (the default
// stream, or Capture's); errors of the kernel itself show at the next
// synchronization.
func (l *Launch) Run() error {
	unbind, err := l.l.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	return l.l.run()
}

// Ptr is a device pointer argument.
func Ptr(b *Buffer) uint64 { return uint64(b.b.ptr) }

// Buffer is device memory that the caller owns and frees.
type Buffer struct {
	d *Device
	b buffer
}

// Alloc allocates bytes of device memory; what names it in errors.
func (d *Device) Alloc(bytes int64, what string) (*Buffer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	b, err := d.alloc(bytes, what)
	if err != nil {
		return nil, err
	}
	return &Buffer{d: d, b: b}, nil
}

// Upload copies s into new device memory.
func Upload[T any](d *Device, s []T, what string) (*Buffer, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	b, err := upload(d, s, what)
	if err != nil {
		return nil, err
	}
	return &Buffer{d: d, b: b}, nil
}

// Download waits for the queued work and copies the start of b into s.
func Download[T any](b *Buffer, s []T, what string) error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := b.d.sync(what); err != nil {
		return err
	}
	return download(b.b, s, what)
}

// Bytes is the buffer's size.
func (b *Buffer) Bytes() int64 { return b.b.bytes }

// Zero fills the buffer with zero bytes (on the default stream).
func (b *Buffer) Zero() error {
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if b.b.bytes == 0 {
		return nil
	}
	if err := cu.MemsetD8Async(b.b.ptr, 0, b.b.bytes, cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: clearing %d bytes: %w", b.b.bytes, err)
	}
	return nil
}

// CopyFrom copies src's content into b (on the default stream); b must be
// at least as large.
func (b *Buffer) CopyFrom(src *Buffer) error {
	if src.b.bytes > b.b.bytes {
		return fmt.Errorf("gpu: copying %d bytes into a buffer of %d", src.b.bytes, b.b.bytes)
	}
	unbind, err := b.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if src.b.bytes == 0 {
		return nil
	}
	if err := cu.MemcpyDtoDAsync(b.b.ptr, src.b.ptr, src.b.bytes, cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: device-to-device copy of %d bytes: %w", src.b.bytes, err)
	}
	return nil
}

// Free releases the memory; a freed buffer may be freed again.
func (b *Buffer) Free() {
	if b == nil || b.b.ptr == 0 {
		return
	}
	if unbind, err := b.d.bind(); err == nil {
		b.b.free()
		unbind()
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

// Time runs op warmup times, then reps times back to back between CUDA
// events, and returns the spread of the per-repetition device times (see
// the package doc); op enqueues work and must not synchronize.
func (d *Device) Time(op func() error, warmup, reps int, what string) (Timing, error) {
	unbind, err := d.bind()
	if err != nil {
		return Timing{}, err
	}
	defer unbind()
	return d.timeOps(op, warmup, reps, what)
}

func (m *Module) unload() error {
	if err := m.mod.Unload(); err != nil {
		return fmt.Errorf("gpu: unloading module %s: %w", m.name, err)
	}
	return nil
}
