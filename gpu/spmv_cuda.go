//go:build cuda

package gpu

/*
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"gorgonia.org/cu"
)

// SpMV holds one matrix on the device in one precision, with x, y, the
// schedules uploaded for it, and the cuSPARSE state.
type SpMV struct {
	d                     *Device
	m                     *Matrix
	p                     Precision
	rowptr, row, col, val buffer
	x, y                  buffer
	scheds                []*DeviceSchedule
	ops                   []*Op
	csHandle              C.uintptr_t
	csStream              cu.Stream // the stream csHandle queues on
}

// DeviceSchedule is a schedule's arrays on the device.
type DeviceSchedule struct {
	a                                   *ScheduleArrays
	meta, xUnique, yUniq                buffer
	yShared, val, xLocal, col, rowStart buffer
	zeroRows                            buffer
	nZero                               int
}

// Arrays returns the host form the schedule was uploaded from.
func (ds *DeviceSchedule) Arrays() *ScheduleArrays { return ds.a }

// Op is one ready-to-run y = A x: a kernel with its launch configuration
// (and, for cuSPARSE, its descriptors and buffer).
type Op struct {
	Kernel    Kernel
	BlockSize int // 0 for cuSPARSE; a SPAC kernel's schedule's tasks per block
	Threads   int // threads per block of the main launch (BlockSize unless a SPAC kernel runs several tasks per thread)
	Shared    int // dynamic shared memory per block, bytes
	Blocks    int // blocks of the main launch
	steps     []func() error
	cs        *cusparseOp
	sched     *DeviceSchedule // the schedule a SPAC op runs; nil for the others
}

// NewSpMV uploads m with values of precision p, and x and y.
func (d *Device) NewSpMV(m *Matrix, p Precision) (*SpMV, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	s := &SpMV{d: d, m: m, p: p}
	if s.rowptr, err = upload(d, m.RowPtr, "the row offsets"); err != nil {
		return nil, err
	}
	if s.row, err = upload(d, m.Row, "the row indices"); err != nil {
		s.Close()
		return nil, err
	}
	if s.col, err = upload(d, m.Col, "the column indices"); err != nil {
		s.Close()
		return nil, err
	}
	if s.val, err = uploadValues(d, m.Val, p, "the values"); err != nil {
		s.Close()
		return nil, err
	}
	if s.x, err = d.alloc(int64(m.NCols*p.Bytes()), "x"); err != nil {
		s.Close()
		return nil, err
	}
	if s.y, err = d.alloc(int64(m.NRows*p.Bytes()), "y"); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func uploadValues(d *Device, v []float64, p Precision, what string) (buffer, error) {
	if p == FP64 {
		return upload(d, v, what)
	}
	return upload(d, narrow(v), what)
}

// narrow rounds v to float32.
func narrow(v []float64) []float32 {
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	return f
}

// SetX copies x (rounded to the precision) to the device.
func (s *SpMV) SetX(x []float64) error {
	unbind, err := s.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if len(x) != s.m.NCols {
		return fmt.Errorf("gpu: x has %d entries, the matrix %d columns", len(x), s.m.NCols)
	}
	b, err := uploadValues(s.d, x, s.p, "x")
	if err != nil {
		return err
	}
	defer b.free()
	if b.bytes > 0 {
		if err := cu.MemcpyDtoD(s.x.ptr, b.ptr, b.bytes); err != nil {
			return fmt.Errorf("gpu: setting x: %w", err)
		}
	}
	return nil
}

// Y waits for the queued work and returns y as float64.
func (s *SpMV) Y() ([]float64, error) {
	unbind, err := s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if err := s.d.sync("SpMV"); err != nil {
		return nil, err
	}
	out := make([]float64, s.m.NRows)
	if s.p == FP64 {
		return out, download(s.y, out, "y")
	}
	f := make([]float32, s.m.NRows)
	if err := download(s.y, f, "y"); err != nil {
		return nil, err
	}
	for i, v := range f {
		out[i] = float64(v)
	}
	return out, nil
}

// poisonY fills y with NaN (all bits set), so that a row no kernel writes
// shows up in the check.
func (s *SpMV) poisonY() error {
	if words := s.y.bytes / 4; words > 0 {
		if err := cu.MemsetD32(s.y.ptr, 0xffffffff, words); err != nil {
			return fmt.Errorf("gpu: filling y with NaN: %w", err)
		}
	}
	return nil
}

// Upload copies a schedule's arrays to the device for this matrix.
func (s *SpMV) Upload(a *ScheduleArrays) (*DeviceSchedule, error) {
	unbind, err := s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if err := s.checkArrays(a); err != nil {
		return nil, err
	}
	ds := &DeviceSchedule{a: a, nZero: len(a.ZeroRows)}
	for _, st := range ds.parts(s.p) {
		b, err := s.d.uploadBytes(st.ptr, st.bytes, st.what)
		if err != nil {
			ds.free()
			return nil, err
		}
		*st.dst = b
	}
	s.scheds = append(s.scheds, ds)
	return ds, nil
}

// checkArrays says whether a schedule was made for the SpMV's matrix.
func (s *SpMV) checkArrays(a *ScheduleArrays) error {
	if a.NRows != s.m.NRows || a.NCols != s.m.NCols || a.NNZ != s.m.NNZ() {
		return fmt.Errorf("gpu: schedule %s is for a %d x %d matrix with %d entries, not %d x %d with %d",
			a.Label, a.NRows, a.NCols, a.NNZ, s.m.NRows, s.m.NCols, s.m.NNZ())
	}
	return nil
}

// schedulePart is one of a schedule's host arrays (its address and size in
// bytes) and the buffer it goes to.
type schedulePart struct {
	dst   *buffer
	ptr   unsafe.Pointer
	bytes int64
	what  string
}

// part is the schedulePart copying s to dst.
func part[T any](dst *buffer, s []T, what string) schedulePart {
	ptr, bytes := slicePtr(s)
	return schedulePart{dst: dst, ptr: ptr, bytes: bytes, what: what}
}

// parts lists the arrays of ds's schedule that Upload and UploadAsync copy,
// with the values in precision p.
func (ds *DeviceSchedule) parts(p Precision) []schedulePart {
	a := ds.a
	vals := part(&ds.val, a.Val, "schedule values")
	if p == FP32 {
		vals = part(&ds.val, narrow(a.Val), "schedule values")
	}
	return []schedulePart{
		part(&ds.meta, a.Meta, "block offsets"), part(&ds.xUnique, a.XUnique, "unique x"), part(&ds.yUniq, a.YUnique, "unique y"),
		part(&ds.yShared, a.YShared, "shared flags"), vals, part(&ds.xLocal, a.XLocal, "local x addresses"),
		part(&ds.col, a.Col, "slot columns"), part(&ds.rowStart, a.RowStart, "row starts"), part(&ds.zeroRows, a.ZeroRows, "rows to clear"),
	}
}

func (ds *DeviceSchedule) free() {
	for _, b := range []*buffer{&ds.meta, &ds.xUnique, &ds.yUniq, &ds.yShared,
		&ds.val, &ds.xLocal, &ds.col, &ds.rowStart, &ds.zeroRows} {
		b.free()
	}
}

// Op prepares kernel k: blockSize threads per block for the plain kernels,
// the schedule (made for that block size) for the SPAC kernels; cuSPARSE
// takes neither.
func (s *SpMV) Op(k Kernel, blockSize int, sched *DeviceSchedule) (*Op, error) {
	unbind, err := s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	m, d, p := s.m, s.d, s.p
	op := &Op{Kernel: k, BlockSize: blockSize}
	if k.IsCuSPARSE() {
		op.BlockSize = 0
		cs, err := s.newCuSPARSEOp(k)
		if err != nil {
			return nil, err
		}
		op.cs = cs
		op.steps = []func() error{cs.run}
		s.ops = append(s.ops, op)
		return op, nil
	}
	if k.UsesSchedule() {
		if sched == nil {
			return nil, fmt.Errorf("gpu: %s needs a schedule", k)
		}
		blockSize = sched.a.BlockSize
		op.BlockSize = blockSize
	}
	if err := CheckBlockSize(blockSize); err != nil {
		return nil, err
	}
	add := func(l *launch, err error) error {
		if err != nil {
			return err
		}
		op.steps = append(op.steps, l.run)
		return nil
	}
	ceil := func(a, b int) int { return (a + b - 1) / b }
	switch k {
	case CSRScalar:
		op.Blocks = ceil(m.NRows, blockSize)
		err = add(d.newLaunch(entryName("csr_scalar", p), op.Blocks, blockSize, 0,
			Int(m.NRows), ptrArg(s.rowptr), ptrArg(s.col), ptrArg(s.val), ptrArg(s.x), ptrArg(s.y)))
	case CSRVector:
		op.Blocks = ceil(m.NRows, blockSize/32)
		err = add(d.newLaunch(entryName("csr_vector", p), op.Blocks, blockSize, 0,
			Int(m.NRows), ptrArg(s.rowptr), ptrArg(s.col), ptrArg(s.val), ptrArg(s.x), ptrArg(s.y)))
	case COOAtomic:
		op.steps = append(op.steps, clearY(d, s.y))
		op.Blocks = ceil(m.NNZ(), blockSize)
		err = add(d.newLaunch(entryName("coo_atomic", p), op.Blocks, blockSize, 0,
			Int(m.NNZ()), ptrArg(s.row), ptrArg(s.col), ptrArg(s.val), ptrArg(s.x), ptrArg(s.y)))
	case SPACShared, SPACReadOnly, SPACSharedX4, SPACReadOnlyX4:
		a := sched.a
		if k.StagesX() && !a.XStaged {
			return nil, fmt.Errorf("%w: %s needs x in shared memory, but schedule %s (block size %d) reads x through the read-only cache: its blocks' x and y exceed the shared-memory budget (use spac-ldg, or --overflow split)", ErrUnsupported, k, a.Label, a.BlockSize)
		}
		per := k.TasksPerThread()
		threads := blockSize / per
		if threads < 32 || threads%32 != 0 {
			return nil, fmt.Errorf("%w: %s runs %d tasks per thread: block size %d gives %d threads, want a multiple of 32", ErrUnsupported, k, per, blockSize, threads)
		}
		// Clear the rows the flush adds to: one scattered write of a 32-byte
		// sector (and a 4-byte index) per row, or all of y with a memset
		// where that moves fewer bytes.
		switch {
		case sched.nZero*36 > m.NRows*p.Bytes():
			op.steps = append(op.steps, clearY(d, s.y))
		case sched.nZero > 0:
			if err := add(d.newLaunch(entryName("zero_rows", p), ceil(sched.nZero, 256), 256, 0,
				Int(sched.nZero), ptrArg(sched.zeroRows), ptrArg(s.y))); err != nil {
				return nil, err
			}
		}
		base := strings.ReplaceAll(strings.TrimPrefix(string(k), "spac-"), "-", "_")
		op.sched = sched
		op.Blocks = a.Blocks
		op.Threads = threads
		op.Shared = a.SharedBytes(k, p)
		err = add(d.newLaunch(entryName("spac_"+base, p), a.Blocks, threads, op.Shared,
			ptrArg(sched.meta), ptrArg(sched.xUnique), ptrArg(sched.yUniq), ptrArg(sched.yShared),
			ptrArg(sched.val), ptrArg(sched.xLocal), ptrArg(sched.col), ptrArg(sched.rowStart),
			ptrArg(s.x), ptrArg(s.y)))
	default:
		return nil, fmt.Errorf("gpu: unknown kernel %q", k)
	}
	if err != nil {
		return nil, err
	}
	s.ops = append(s.ops, op)
	return op, nil
}

// Drop frees a schedule the SpMV holds (uploaded or adopted) and forgets
// the ops made on it, which must not run again. It first waits for the
// work queued so far, which may still read the schedule.
func (s *SpMV) Drop(ds *DeviceSchedule) error {
	unbind, err := s.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if err := s.d.sync("dropping a schedule"); err != nil {
		return err
	}
	s.ops = slices.DeleteFunc(s.ops, func(op *Op) bool { return op.sched == ds })
	s.scheds = slices.DeleteFunc(s.scheds, func(x *DeviceSchedule) bool { return x == ds })
	ds.free()
	return nil
}

// clearY is a step that zeroes y on the device's launch stream.
func clearY(d *Device, y buffer) func() error {
	return func() error {
		if y.bytes == 0 {
			return nil
		}
		if err := cu.MemsetD32Async(y.ptr, 0, y.bytes/4, d.stream); err != nil {
			return fmt.Errorf("gpu: clearing y: %w", err)
		}
		return nil
	}
}

// run enqueues the op.
func (op *Op) run() error {
	for _, st := range op.steps {
		if err := st(); err != nil {
			return err
		}
	}
	return nil
}

// Product fills y with NaN, runs op once and returns y.
func (s *SpMV) Product(op *Op) ([]float64, error) {
	unbind, err := s.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if err := s.poisonY(); err != nil {
		return nil, err
	}
	if err := op.run(); err != nil {
		return nil, err
	}
	y, err := s.Y()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op.Kernel, err)
	}
	return y, nil
}

// Time runs op warmup times, then reps times between CUDA events.
func (s *SpMV) Time(op *Op, warmup, reps int) (Timing, error) {
	unbind, err := s.d.bind()
	if err != nil {
		return Timing{}, err
	}
	defer unbind()
	return s.d.timeOps(op.run, warmup, reps, string(op.Kernel))
}

// Close frees everything on the device.
func (s *SpMV) Close() error {
	unbind, err := s.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	for _, op := range s.ops {
		if op.cs != nil {
			op.cs.close()
		}
	}
	s.ops = nil
	destroyCuSPARSE(s.csHandle)
	s.csHandle = 0
	for _, ds := range s.scheds {
		ds.free()
	}
	s.scheds = nil
	for _, b := range []*buffer{&s.rowptr, &s.row, &s.col, &s.val, &s.x, &s.y} {
		b.free()
	}
	return nil
}
