package gpu

import (
	"fmt"
	"unsafe"
)

// Module is a PTXModule loaded into the device's context.
type Module struct {
	d      *Device
	name   string
	ptx    string
	source string
	mod    uintptr
	fns    map[string]uintptr
}

// LoadModule compiles m's PTX for the device (the driver's JIT) and finds
// every entry point; the device unloads it when it closes. A module loaded
// before (the same name and PTX) is returned again, not compiled twice.
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
	for _, mo := range d.modules {
		if mo.name == m.Name && mo.ptx == ptx {
			return mo, nil
		}
	}
	mod, detail, err := d.drv.loadModule(ptx)
	if err != nil {
		return nil, fmt.Errorf("gpu: loading the PTX of module %s (%s) for %s (sm_%d%d): %w%s", m.Name, source, d.info.Name, d.info.Major, d.info.Minor, err, detail)
	}
	mo := &Module{d: d, name: m.Name, ptx: ptx, source: source, mod: mod, fns: map[string]uintptr{}}
	for _, name := range m.Entries {
		fn, err := d.drv.function(mod, name)
		if err != nil {
			d.drv.unload(mod)
			return nil, fmt.Errorf("gpu: the PTX of module %s (%s) has no kernel %s: %w (regenerate it with 'make ptx')", m.Name, source, name, err)
		}
		mo.fns[name] = fn
	}
	d.modules = append(d.modules, mo)
	return mo, nil
}

// Source says where the module's PTX came from: embedded, or a file under
// SPAC_PTX_DIR.
func (m *Module) Source() string { return m.source }

// Launch is a kernel launch with its arguments, ready to be run many times.
type Launch struct {
	d           *Device
	fn          uintptr
	name        string
	grid, block int
	shared      int
	args        []uint64
	params      []unsafe.Pointer
}

// Launch prepares a launch of kernel name with grid blocks of block threads
// and shared bytes of dynamic shared memory (at most what a block gets
// without opting in: see LaunchOptIn). Arguments are 8-byte slots made by
// Ptr and Int (a 4-byte parameter reads the low half of its slot).
func (m *Module) Launch(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	return m.prepare(name, grid, block, shared, m.d.info.SharedPerBlock, args)
}

// LaunchOptIn is Launch for a kernel that may need more dynamic shared
// memory than a block gets without opting in (48 KiB): it raises the
// kernel's limit to shared first, which the device allows up to its opt-in
// limit (227 KiB on Hopper).
func (m *Module) LaunchOptIn(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	if shared <= m.d.info.SharedPerBlock {
		return m.Launch(name, grid, block, shared, args...)
	}
	fn, err := m.function(name)
	if err != nil {
		return nil, err
	}
	unbind, err := m.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	limit, err := m.d.drv.optInShared()
	if err != nil {
		return nil, fmt.Errorf("gpu: reading the opt-in shared memory per block: %w", err)
	}
	if shared > limit {
		return nil, fmt.Errorf("gpu: %s needs %d bytes of shared memory per block, the device gives at most %d", name, shared, limit)
	}
	if err := m.d.drv.allowShared(fn, shared); err != nil {
		return nil, fmt.Errorf("gpu: letting %s use %d bytes of shared memory: %w", name, shared, err)
	}
	return m.prepare(name, grid, block, shared, limit, args)
}

// Resident is how many blocks of kernel name, of block threads and shared
// bytes of dynamic shared memory each, one SM holds at once (the driver's
// occupancy calculator: registers, shared memory, threads). A kernel whose
// blocks wait for each other (a grid barrier) must launch at most this
// many blocks per SM, or it never finishes. With preferShared the
// kernel's L1/shared split is set to the most shared memory first, so
// that the count is one the driver will honour at launch.
func (m *Module) Resident(name string, block, shared int, preferShared bool) (int, error) {
	fn, err := m.function(name)
	if err != nil {
		return 0, err
	}
	unbind, err := m.d.bind()
	if err != nil {
		return 0, err
	}
	defer unbind()
	if preferShared {
		if err := m.d.drv.preferShared(fn); err != nil {
			return 0, fmt.Errorf("gpu: asking the most shared memory for %s: %w", name, err)
		}
	}
	n, err := m.d.drv.resident(fn, block, shared)
	if err != nil {
		return 0, fmt.Errorf("gpu: the resident blocks of %s (%d threads, %d bytes of shared memory): %w", name, block, shared, err)
	}
	return n, nil
}

// function finds one of the module's entries.
func (m *Module) function(name string) (uintptr, error) {
	fn, ok := m.fns[name]
	if !ok {
		return 0, fmt.Errorf("gpu: module %s has no kernel %s (not among its entries)", m.name, name)
	}
	return fn, nil
}

// prepare checks a launch against the grid's limit and maxShared (the
// device's default per-block shared memory, or the opted-in limit).
func (m *Module) prepare(name string, grid, block, shared, maxShared int, args []uint64) (*Launch, error) {
	fn, err := m.function(name)
	if err != nil {
		return nil, err
	}
	if grid > 1<<31-1 {
		return nil, fmt.Errorf("gpu: %s needs %d blocks, more than a grid holds", name, grid)
	}
	if shared > maxShared {
		return nil, fmt.Errorf("gpu: %s needs %d bytes of shared memory per block, the device gives %d without opting in (use a smaller --smem-budget)", name, shared, m.d.info.SharedPerBlock)
	}
	l := &Launch{d: m.d, fn: fn, name: name, grid: grid, block: block, shared: shared, args: args}
	l.params = make([]unsafe.Pointer, len(args))
	for i := range args {
		l.params[i] = unsafe.Pointer(&l.args[i])
	}
	return l, nil
}

// Run enqueues the launch on the device's launch stream (the default
// stream, or Capture's); errors of the kernel itself show at the next
// synchronization. An empty grid launches nothing.
func (l *Launch) Run() error {
	unbind, err := l.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	return l.run()
}

func (l *Launch) run() error {
	if l.grid == 0 {
		return nil
	}
	if err := l.d.drv.launch(l.fn, l.grid, l.block, l.shared, l.d.stream, l.params); err != nil {
		return fmt.Errorf("gpu: launching %s (%d blocks of %d threads, %d bytes shared): %w", l.name, l.grid, l.block, l.shared, err)
	}
	return nil
}
