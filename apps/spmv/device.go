package spmv

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/gpu/cusparse"
	"github.com/spac-gpu/spac/order"
)

// SpMV holds one matrix on a device in one precision, with x, y, the
// schedules uploaded for it, and the cuSPARSE state.
type SpMV struct {
	d                     *gpu.Device
	mod                   *gpu.Module
	m                     *Matrix
	p                     Precision
	rowptr, row, col, val *gpu.Buffer
	x, y                  *gpu.Buffer
	scheds                []*DeviceSchedule
	ops                   []*Op
	cs                    *cusparse.Handle // made by the first cuSPARSE op
	seg8Ahead             int              // tests: the prefetch distance of spac-seg8-pf and -lbpf in blocks (0: seg8PrefetchDistance)
	d16Early              int              // tests: spac-d16's fp32 row list loaded early (1) or at the stores (-1); 0: d16EarlyRows decides
}

// DeviceSchedule is a schedule's arrays on the device.
type DeviceSchedule struct {
	a                                   *ScheduleArrays
	meta, xUnique, yUniq                *gpu.Buffer
	yShared, val, xLocal, col, rowStart *gpu.Buffer
	zeroRows, desc, yRow, xFlag         *gpu.Buffer
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
	// FormatBytes is what the kernel reads of its matrix format (values,
	// indices, offsets, per-block lists; not x and y): CSR's for the CSR
	// kernels, the slots and lists of a schedule, a library format's
	// arrays with their padding.
	FormatBytes int64
	steps       []func() error
	cs          *cusparse.SpMV
	sched       *DeviceSchedule // the schedule a SPAC op runs; nil for the others
	bufs        []*gpu.Buffer   // device copies of a library format the op owns
}

// NewSpMV loads the SpMV kernels into d (once per device) and uploads m
// with values of precision p, and x and y.
func NewSpMV(d *gpu.Device, m *Matrix, p Precision) (_ *SpMV, err error) {
	s := &SpMV{d: d, m: m, p: p}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if s.mod, err = d.LoadModule(Module); err != nil {
		return nil, err
	}
	if s.rowptr, err = gpu.Upload(d, m.RowPtr, "the row offsets"); err != nil {
		return nil, err
	}
	if s.row, err = gpu.Upload(d, m.Row, "the row indices"); err != nil {
		return nil, err
	}
	if s.col, err = gpu.Upload(d, m.Col, "the column indices"); err != nil {
		return nil, err
	}
	if s.val, err = UploadValues(d, m.Val, p, "the values"); err != nil {
		return nil, err
	}
	if s.x, err = d.Alloc(int64(m.NCols*p.Bytes()), "x"); err != nil {
		return nil, err
	}
	if s.y, err = d.Alloc(int64(m.NRows*p.Bytes()), "y"); err != nil {
		return nil, err
	}
	return s, nil
}

// UploadValues copies v, rounded to precision p, into new device memory
// (as the SpMV stores its values and vectors); what names it in errors.
func UploadValues(d *gpu.Device, v []float64, p Precision, what string) (*gpu.Buffer, error) {
	if p == FP64 {
		return gpu.Upload(d, v, what)
	}
	return gpu.Upload(d, narrow(v), what)
}

// narrow rounds v to float32.
func narrow(v []float64) []float32 {
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	return f
}

// VectorArgs returns the device addresses of x and y, as kernel arguments
// (like gpu.Ptr), so that kernels of other modules can write the x an Op
// multiplies and read the y it produces: a solver keeps its direction
// vector in x and A times it in y, and copies nothing. The SpMV owns the
// memory; it is valid until Close.
func (s *SpMV) VectorArgs() (x, y uint64) { return gpu.Ptr(s.x), gpu.Ptr(s.y) }

// SetX copies x (rounded to the precision) to the device.
func (s *SpMV) SetX(x []float64) error {
	if len(x) != s.m.NCols {
		return fmt.Errorf("spmv: x has %d entries, the matrix %d columns", len(x), s.m.NCols)
	}
	if s.p == FP64 {
		return gpu.Write(s.x, x, "x")
	}
	return gpu.Write(s.x, narrow(x), "x")
}

// Y waits for the queued work and returns y as float64.
func (s *SpMV) Y() ([]float64, error) {
	out := make([]float64, s.m.NRows)
	if s.p == FP64 {
		return out, gpu.Download(s.y, out, "y")
	}
	f := make([]float32, s.m.NRows)
	if err := gpu.Download(s.y, f, "y"); err != nil {
		return nil, err
	}
	for i, v := range f {
		out[i] = float64(v)
	}
	return out, nil
}

// poisonY fills y with NaN (all bits set), so that a row no kernel writes
// shows up in the check.
func (s *SpMV) poisonY() error { return s.y.Fill32(0xffffffff) }

// Upload copies a schedule's arrays to the device for this matrix.
func (s *SpMV) Upload(a *ScheduleArrays) (*DeviceSchedule, error) {
	if err := s.checkArrays(a); err != nil {
		return nil, err
	}
	ds := &DeviceSchedule{a: a}
	if err := ds.upload(s.d, nil, s.p); err != nil {
		ds.free()
		return nil, err
	}
	s.scheds = append(s.scheds, ds)
	return ds, nil
}

// checkArrays says whether a schedule was made for the SpMV's matrix.
func (s *SpMV) checkArrays(a *ScheduleArrays) error {
	if a == nil {
		return errors.New("spmv: no schedule to upload")
	}
	if a.NRows != s.m.NRows || a.NCols != s.m.NCols || a.NNZ != s.m.NNZ() {
		return fmt.Errorf("spmv: schedule %s is for a %d x %d matrix with %d entries, not %d x %d with %d",
			a.Label, a.NRows, a.NCols, a.NNZ, s.m.NRows, s.m.NCols, s.m.NNZ())
	}
	return nil
}

// upload copies the schedule's arrays, with the values in precision p: at
// once, or queued on t where t is not nil.
func (ds *DeviceSchedule) upload(d *gpu.Device, t *gpu.Transfer, p Precision) error {
	a := ds.a
	var err error
	send(&err, &ds.meta, d, t, a.Meta, "block offsets")
	send(&err, &ds.xUnique, d, t, a.XUnique, "unique x")
	send(&err, &ds.yUniq, d, t, a.YUnique, "unique y")
	send(&err, &ds.yShared, d, t, a.YShared, "shared flags")
	if p == FP32 {
		send(&err, &ds.val, d, t, narrow(a.Val), "schedule values")
	} else {
		send(&err, &ds.val, d, t, a.Val, "schedule values")
	}
	send(&err, &ds.xLocal, d, t, a.XLocal, "local x addresses")
	send(&err, &ds.col, d, t, a.Col, "slot columns")
	send(&err, &ds.rowStart, d, t, a.RowStart, "row starts")
	send(&err, &ds.zeroRows, d, t, a.ZeroRows, "rows to clear")
	send(&err, &ds.desc, d, t, a.Desc, "spac-seg descriptors")
	send(&err, &ds.yRow, d, t, a.YRow, "spac-seg rows")
	send(&err, &ds.xFlag, d, t, a.XFlag, "spac-seg8 x addresses and row starts")
	return err
}

// send uploads s into *dst at once, or queues it on t; after an error
// (*err) it does nothing.
func send[T any](err *error, dst **gpu.Buffer, d *gpu.Device, t *gpu.Transfer, s []T, what string) {
	if *err != nil {
		return
	}
	if t == nil {
		*dst, *err = gpu.Upload(d, s, what)
	} else {
		*dst, *err = gpu.UploadAsync(t, s, what)
	}
}

func (ds *DeviceSchedule) free() {
	for _, b := range []*gpu.Buffer{ds.meta, ds.xUnique, ds.yUniq, ds.yShared,
		ds.val, ds.xLocal, ds.col, ds.rowStart, ds.zeroRows, ds.desc, ds.yRow, ds.xFlag} {
		b.Free()
	}
}

// PendingSchedule is a schedule whose upload runs on a stream of its own.
type PendingSchedule struct {
	s       *SpMV
	ds      *DeviceSchedule
	t       *gpu.Transfer
	adopted bool
}

// UploadAsync copies a schedule's arrays to the device with a
// gpu.Transfer, so that products queued on the default stream keep
// running while it copies. It is meant to be called from a goroutine other
// than the one running the products: it reads nothing the SpMV's other
// methods change. Ready reports when the copies are done; Adopt then hands
// the schedule to the SpMV (call that from the goroutine running the
// products), Discard frees it instead.
func (s *SpMV) UploadAsync(a *ScheduleArrays) (*PendingSchedule, error) {
	if err := s.checkArrays(a); err != nil {
		return nil, err
	}
	t, err := s.d.NewTransfer()
	if err != nil {
		return nil, err
	}
	ps := &PendingSchedule{s: s, t: t, ds: &DeviceSchedule{a: a}}
	if err := ps.ds.upload(s.d, t, s.p); err != nil {
		ps.release()
		return nil, err
	}
	return ps, nil
}

// Ready reports, without waiting, whether the copies have finished.
func (ps *PendingSchedule) Ready() (bool, error) { return ps.t.Ready() }

// Adopt waits for the copies (Ready says whether that blocks), makes the
// schedule the SpMV's (Close frees it) and returns it for Op.
func (ps *PendingSchedule) Adopt() (*DeviceSchedule, error) {
	if err := ps.t.Close(); err != nil {
		return nil, err
	}
	ps.adopted = true
	ps.s.scheds = append(ps.s.scheds, ps.ds)
	return ps.ds, nil
}

// Discard frees a schedule that was not adopted (after its copies end).
func (ps *PendingSchedule) Discard() {
	if !ps.adopted {
		ps.release()
	}
}

func (ps *PendingSchedule) release() {
	_ = ps.t.Close() // the copies must end before the memory is freed
	ps.ds.free()
}

// Op prepares kernel k: blockSize threads per block for the plain kernels,
// the schedule (made for that block size) for the SPAC kernels; cuSPARSE
// takes neither.
func (s *SpMV) Op(k Kernel, blockSize int, sched *DeviceSchedule) (*Op, error) {
	m, p := s.m, s.p
	op := &Op{Kernel: k, BlockSize: blockSize}
	if k.IsCuSPARSE() {
		op.BlockSize = 0
		cs, err := s.newCuSPARSE(k, op)
		if err != nil {
			freeAll(op.bufs)
			return nil, err
		}
		op.cs = cs
		op.steps = []func() error{cs.Run}
		s.ops = append(s.ops, op)
		return op, nil
	}
	if k.UsesSchedule() {
		if sched == nil {
			return nil, fmt.Errorf("spmv: %s needs a schedule", k)
		}
		blockSize = sched.a.BlockSize
		op.BlockSize = blockSize
	}
	if err := CheckBlockSize(blockSize); err != nil {
		return nil, err
	}
	if blockSize > k.MaxBlockSize() {
		return nil, fmt.Errorf("%w: %s runs blocks of at most %d tasks, and the block size is %d (spac-d16 and spac-d16-own run parts of up to %d)", ErrUnsupported, k, k.MaxBlockSize(), blockSize, MaxBlockSize)
	}
	var err error
	add := func(l *gpu.Launch, e error) error {
		if e != nil {
			return e
		}
		op.steps = append(op.steps, l.Run)
		return nil
	}
	launch := func(base string, grid, block, shared int, args ...uint64) (*gpu.Launch, error) {
		return s.mod.Launch(entryName(base, p), grid, block, shared, args...)
	}
	ceil := func(a, b int) int { return (a + b - 1) / b }
	x, y, rowptr, row, col, val := gpu.Ptr(s.x), gpu.Ptr(s.y), gpu.Ptr(s.rowptr), gpu.Ptr(s.row), gpu.Ptr(s.col), gpu.Ptr(s.val)
	op.FormatBytes = int64(CSRBytesPerNNZ(m.NRows, m.NNZ(), p)*float64(m.NNZ()) + 0.5)
	switch k {
	case CSRScalar:
		op.Blocks = ceil(m.NRows, blockSize)
		err = add(launch(k.entryBase(), op.Blocks, blockSize, 0, gpu.Int(m.NRows), rowptr, col, val, x, y))
	case CSRVector:
		op.Blocks = ceil(m.NRows, blockSize/32)
		err = add(launch(k.entryBase(), op.Blocks, blockSize, 0, gpu.Int(m.NRows), rowptr, col, val, x, y))
	case COOAtomic:
		op.steps = append(op.steps, s.clearY)
		op.Blocks = ceil(m.NNZ(), blockSize)
		op.FormatBytes = int64(m.NNZ()) * int64(p.Bytes()+8)
		err = add(launch(k.entryBase(), op.Blocks, blockSize, 0, gpu.Int(m.NNZ()), row, col, val, x, y))
	case CSRD16:
		err = s.d16Op(op, blockSize)
	case CSRD16Hot:
		err = s.d16HotOp(op, blockSize)
	case CSRD16RCM:
		err = s.d16RCMOp(op, blockSize)
	case SPACD16, SPACD16Own:
		err = s.spacD16Op(op, sched, k == SPACD16Own)
	case SPACD16Ord, SPACD16Hot:
		err = s.spacD16OrdOp(op, sched, k)
	case SPACShared, SPACReadOnly, SPACSharedX4, SPACReadOnlyX4, SPACSeg, SPACSegLdg, SPACSeg8, SPACSeg8LB, SPACSeg8PF, SPACSeg8LBPF:
		a := sched.a
		if k.IsSeg() && a.Desc == nil {
			return nil, fmt.Errorf("%w: %s runs B/4 threads in whole warps, and schedule %s has block size %d, not a multiple of 128", ErrUnsupported, k, a.Label, a.BlockSize)
		}
		if k.IsSeg8() && a.XFlag == nil && a.XStaged {
			return nil, fmt.Errorf("%w: %s runs B/8 threads in whole warps, and schedule %s has block size %d, not a multiple of 256", ErrUnsupported, k, a.Label, a.BlockSize)
		}
		if k.StagesX() && !a.XStaged {
			return nil, fmt.Errorf("%w: %s needs x in shared memory, but schedule %s (block size %d) reads x through the read-only cache: its blocks' x and y exceed the shared-memory budget (use spac-ldg, or --overflow split)", ErrUnsupported, k, a.Label, a.BlockSize)
		}
		per := k.TasksPerThread()
		threads := blockSize / per
		if threads < 32 || threads%32 != 0 {
			return nil, fmt.Errorf("%w: %s runs %d tasks per thread: block size %d gives %d threads, want a multiple of 32", ErrUnsupported, k, per, blockSize, threads)
		}
		if err := s.clearRows(op, len(a.ZeroRows), sched.zeroRows, s.y); err != nil {
			return nil, err
		}
		op.sched = sched
		op.Blocks = a.Blocks
		op.Threads = threads
		op.Shared = a.SharedBytes(k, p)
		op.FormatBytes = a.FormatBytes(k, p)
		if k.IsSeg8() {
			args := []uint64{gpu.Ptr(sched.meta), gpu.Ptr(sched.xUnique), gpu.Ptr(sched.yRow), gpu.Ptr(sched.val),
				gpu.Ptr(sched.xFlag), x, y}
			if k.Prefetches() {
				ahead := s.seg8Ahead
				if ahead == 0 {
					ahead = seg8PrefetchDistance(s.d.Info(), a.BlockSize, p)
				}
				args = append(args, gpu.Int(ahead))
			}
			err = add(launch(k.entryBase(), a.Blocks, threads, op.Shared, args...))
			break
		}
		if k.IsSeg() {
			err = add(launch(k.entryBase(), a.Blocks, threads, op.Shared,
				gpu.Ptr(sched.meta), gpu.Ptr(sched.xUnique), gpu.Ptr(sched.yRow), gpu.Ptr(sched.val),
				gpu.Ptr(sched.xLocal), gpu.Ptr(sched.col), gpu.Ptr(sched.desc), x, y))
			break
		}
		err = add(launch(k.entryBase(), a.Blocks, threads, op.Shared,
			gpu.Ptr(sched.meta), gpu.Ptr(sched.xUnique), gpu.Ptr(sched.yUniq), gpu.Ptr(sched.yShared),
			gpu.Ptr(sched.val), gpu.Ptr(sched.xLocal), gpu.Ptr(sched.col), gpu.Ptr(sched.rowStart), x, y))
	default:
		return nil, fmt.Errorf("spmv: unknown kernel %q", k)
	}
	if err != nil {
		return nil, err
	}
	s.ops = append(s.ops, op)
	return op, nil
}

// d16Op builds csr-d16's format for blockSize slots a block and adds it
// to op.
func (s *SpMV) d16Op(op *Op, blockSize int) error {
	d, err := NewD16(s.m, blockSize)
	if err != nil {
		return err
	}
	if err := s.addD16(op, d, nil, false, s.x, s.y); err != nil {
		freeAll(op.bufs)
		return err
	}
	return nil
}

// d16HotOp builds csr-d16-hot: x gathered into its hottest-first copy,
// then csr-d16 on the matrix with its columns renumbered so.
func (s *SpMV) d16HotOp(op *Op, blockSize int) error {
	hot, from := s.m.hotColumns()
	d, err := NewD16(hot, blockSize)
	if err != nil {
		return err
	}
	return s.addD16Ordered(op, d, from, nil, "csr-d16-hot")
}

// d16RCMOp builds csr-d16-rcm: x gathered into the reverse Cuthill-McKee
// order, csr-d16 on the matrix renumbered so into a y of its own, and
// that y gathered back into the user's order.
func (s *SpMV) d16RCMOp(op *Op, blockSize int) error {
	if s.m.NRows != s.m.NCols {
		return fmt.Errorf("%w: csr-d16-rcm renumbers rows and columns alike, and the matrix is %d x %d", ErrUnsupported, s.m.NRows, s.m.NCols)
	}
	rcm, perm := s.m.rcmOrdered()
	d, err := NewD16(rcm, blockSize)
	if err != nil {
		return err
	}
	return s.addD16Ordered(op, d, perm, order.Inverse(perm), "csr-d16-rcm")
}

// spacD16OrdOp builds spac-d16-ord (k): x gathered into the order of the
// schedule's parts (SPACOrder), csr-d16 on the matrix renumbered so, rows
// and columns, into a y of its own, and that y gathered back; or
// spac-d16-hot, the same with the columns grouped by degree first, the
// highest first, each group in the parts' order (usedColumns).
func (s *SpMV) spacD16OrdOp(op *Op, sched *DeviceSchedule, k Kernel) error {
	f, err := sched.a.d16Format(k, func() (*d16Format, error) {
		rowFrom, colFrom, err := SPACOrder(sched.a)
		if err != nil {
			return nil, err
		}
		colFrom = usedColumns(s.m, colFrom, k == SPACD16Hot)
		d, err := NewD16(renumbered(s.m, rowFrom, colFrom), min(sched.a.BlockSize, d16MaxSlots))
		return &d16Format{d: d, rowTo: order.Inverse(rowFrom), colFrom: colFrom}, err
	})
	if err != nil {
		return err
	}
	if err := s.addD16Ordered(op, f.d, f.colFrom, f.rowTo, string(k)); err != nil {
		return err
	}
	op.sched = sched
	return nil
}

// spacD16Op builds spac-d16: csr-d16's format over the schedule's
// blocks (NewSPACD16, or with its rows whole, NewSPACD16Owned), storing
// into y through its row map.
func (s *SpMV) spacD16Op(op *Op, sched *DeviceSchedule, owned bool) (err error) {
	k, build := SPACD16, NewSPACD16
	if owned {
		k, build = SPACD16Own, NewSPACD16Owned
	}
	f, err := sched.a.d16Format(k, func() (*d16Format, error) {
		d, rowMap, err := build(sched.a)
		return &d16Format{d: d, rowMap: rowMap}, err
	})
	if err != nil {
		return err
	}
	d, rowMap := f.d, f.rowMap
	var mapBuf *gpu.Buffer
	send(&err, &mapBuf, s.d, nil, rowMap, "spac-d16 row map")
	op.bufs = append(op.bufs, mapBuf)
	if err == nil {
		wide := d.wideBlocks > 0
		early := d16EarlyRows(s.d.Info(), s.m.NRows, s.m.NCols, s.p, wide)
		if s.d16Early != 0 { // tests: either form, where a narrow fp32 format has both
			early = s.d16Early > 0 && s.p == FP32 && !wide
		}
		err = s.addD16(op, d, mapBuf, early, s.x, s.y)
	}
	if err != nil {
		freeAll(op.bufs)
		return err
	}
	op.sched = sched
	op.FormatBytes += 4 * int64(len(rowMap))
	return nil
}

// addD16Ordered adds the steps of d, a csr-d16 format of the matrix whose
// column j is the user's column xFrom[j]: x gathered into that order, d's
// kernel, and, where its rows are renumbered too (yTo: the user's row u is
// d's row yTo[u]; nil: they are not), its y gathered back into the user's
// order through yTo. The op's buffers are freed if a step fails.
//
// y goes back by a gather, not by a scatter through yTo's inverse: scattered
// stores leave partly written sectors that the L2 reads and writes back
// more than once (Nsight Compute: 126 MB written for a y of 32 MB, round
// 17 of docs/gpu-bench-h100/issue20.md), where a gather's reads are whole
// sectors, mostly still in the L2, and its stores are in order. On the
// random-order 3-D meshes it made csr-d16-rcm 1.31x-1.53x faster than the
// scatter (round 18).
func (s *SpMV) addD16Ordered(op *Op, d *D16, xFrom, yTo []int32, name string) (err error) {
	defer func() {
		if err != nil {
			freeAll(op.bufs)
		}
	}()
	var xp *gpu.Buffer
	yp := s.y
	xp, err = s.d.Alloc(int64(len(xFrom)*s.p.Bytes()), name+" x")
	op.bufs = append(op.bufs, xp)
	if err == nil && yTo != nil {
		yp, err = s.d.Alloc(int64(len(yTo)*s.p.Bytes()), name+" y")
		op.bufs = append(op.bufs, yp)
	}
	if err == nil {
		err = s.addGather(op, xFrom, s.x, xp, name+" column order")
	}
	if err == nil {
		err = s.addD16(op, d, nil, false, xp, yp)
	}
	if err == nil && yTo != nil {
		err = s.addGather(op, yTo, yp, s.y, name+" row order")
	}
	// After addD16, which sets FormatBytes to d's: the orders' indices are
	// read each product too.
	op.FormatBytes += 4 * int64(len(xFrom)+len(yTo))
	return err
}

// addGather adds to op the launch dst[i] = src[from[i]], with from
// uploaded into a buffer of op's.
func (s *SpMV) addGather(op *Op, from []int32, src, dst *gpu.Buffer, name string) (err error) {
	var fromBuf *gpu.Buffer
	send(&err, &fromBuf, s.d, nil, from, name)
	op.bufs = append(op.bufs, fromBuf)
	if err != nil {
		return err
	}
	n := len(from)
	l, err := s.mod.Launch(entryName("gather", s.p), max(1, (n+255)/256), 256, 0, gpu.Int(n), gpu.Ptr(fromBuf), gpu.Ptr(src), gpu.Ptr(dst))
	if err != nil {
		return err
	}
	op.steps = append(op.steps, l.Run)
	return nil
}

// addD16 uploads d into op's own buffers and adds its steps: the rows
// that cross blocks cleared, then the kernel, gathering from x into y;
// with a row map (spac-d16), the kernel stores its row i into y's row
// rowMap[i], and early (a narrow format in fp32 only) picks its kernel
// that loads the map's first entries before x (d16EarlyRows).
func (s *SpMV) addD16(op *Op, d *D16, rowMap *gpu.Buffer, early bool, x, y *gpu.Buffer) (err error) {
	var meta, val, off, high, starts, esc, zero *gpu.Buffer
	send(&err, &meta, s.d, nil, d.Meta, "csr-d16 block data")
	if err == nil {
		val, err = UploadValues(s.d, d.Val, s.p, "csr-d16 values")
	}
	send(&err, &off, s.d, nil, d.Offset, "csr-d16 column offsets")
	send(&err, &high, s.d, nil, d.High, "csr-d16 wide columns' high bytes")
	send(&err, &starts, s.d, nil, d.RowStarts, "csr-d16 row starts")
	send(&err, &esc, s.d, nil, d.Esc, "csr-d16 escaped columns")
	send(&err, &zero, s.d, nil, d.ZeroRows, "csr-d16 rows to clear")
	op.bufs = append(op.bufs, meta, val, off, high, starts, esc, zero) // nil where not uploaded: Free skips those
	if err != nil {
		return err
	}
	if err = s.clearRows(op, len(d.ZeroRows), zero, y); err != nil {
		return err
	}
	op.Blocks, op.Threads = d.Blocks, d.BlockSize/d16Slots
	op.FormatBytes = d.FormatBytes(s.p)
	entry := CSRD16.entryBase()
	args := []uint64{gpu.Ptr(meta), gpu.Ptr(val), gpu.Ptr(off), gpu.Ptr(high), gpu.Ptr(starts), gpu.Ptr(esc)}
	if rowMap != nil {
		entry = SPACD16.entryBase()
		args = append(args, gpu.Ptr(rowMap))
	}
	if d.wideBlocks > 0 {
		entry += "_wide" // a matrix of mostly wide blocks
	}
	if early {
		entry += d16EarlySuffix
	}
	l, err := s.mod.Launch(entryName(entry, s.p), d.Blocks, op.Threads, 0, append(args, gpu.Ptr(x), gpu.Ptr(y))...)
	if err != nil {
		return err
	}
	op.steps = append(op.steps, l.Run)
	return nil
}

// clearRows adds to op the step that clears the n rows of y (the SpMV's,
// or csr-d16-rcm's renumbered copy) listed in rows, which the kernel adds
// to: one scattered write of a 32-byte sector (and a 4-byte index) per
// row, or all of y with a memset where that moves fewer bytes.
func (s *SpMV) clearRows(op *Op, n int, rows, y *gpu.Buffer) error {
	switch {
	case n*36 > s.m.NRows*s.p.Bytes():
		op.steps = append(op.steps, func() error { return y.Fill32(0) })
	case n > 0:
		l, err := s.mod.Launch(entryName("zero_rows", s.p), (n+255)/256, 256, 0, gpu.Int(n), gpu.Ptr(rows), gpu.Ptr(y))
		if err != nil {
			return err
		}
		op.steps = append(op.steps, l.Run)
	}
	return nil
}

// newCuSPARSE prepares cuSPARSE's SpMV for kernel k on the SpMV's matrix,
// x and y; the sliced ELL and BSR forms are built here and uploaded into
// op.bufs, and op.FormatBytes is set.
func (s *SpMV) newCuSPARSE(k Kernel, op *Op) (*cusparse.SpMV, error) {
	if s.cs == nil {
		h, err := cusparse.New(s.d)
		if err != nil {
			return nil, err
		}
		s.cs = h
	}
	m := s.m
	if m.Duplicates > 0 {
		return nil, fmt.Errorf("%w: cuSPARSE takes distinct entries, and %s has %d duplicates", ErrUnsupported, m.Name, m.Duplicates)
	}
	a := cusparse.Matrix{Format: cusparse.CSR, Rows: m.NRows, Cols: m.NCols, NNZ: m.NNZ(), RowPtr: s.rowptr, Row: s.row, Col: s.col, Val: s.val, Type: cusparse.R64F}
	if s.p == FP32 {
		a.Type = cusparse.R32F
	}
	alg := cusparse.AlgDefault
	w := int64(s.p.Bytes())
	op.FormatBytes = int64(CSRBytesPerNNZ(m.NRows, m.NNZ(), s.p)*float64(m.NNZ()) + 0.5)
	switch k {
	case CuSPARSECSR:
	case CuSPARSECSRAlg2:
		alg = cusparse.CSRAlg2
	case CuSPARSECOO:
		a.Format = cusparse.COO
		op.FormatBytes = int64(m.NNZ()) * (w + 8)
	case CuSPARSESELL:
		sell, err := m.SELL()
		if err != nil {
			return nil, err
		}
		a.Format, a.ValuesSize, a.SliceSize = cusparse.SELL, len(sell.Col), sell.SliceSize
		op.FormatBytes = int64(len(sell.Col))*(w+4) + int64(len(sell.Offsets))*4
		if err := op.keep(&a.RowPtr)(gpu.Upload(s.d, sell.Offsets, "sliced ELL offsets")); err != nil {
			return nil, err
		}
		if err := op.keep(&a.Col)(gpu.Upload(s.d, sell.Col, "sliced ELL columns")); err != nil {
			return nil, err
		}
		if err := op.keep(&a.Val)(UploadValues(s.d, sell.Val, s.p, "sliced ELL values")); err != nil {
			return nil, err
		}
	case CuSPARSEBSR:
		bsr, err := m.BSR()
		if err != nil {
			return nil, err
		}
		a.Format, a.BlockDim, a.Blocks = cusparse.BSR, bsr.Dim, bsr.NNZ
		op.FormatBytes = int64(len(bsr.Val))*w + int64(len(bsr.Col)+len(bsr.RowPtr))*4
		if err := op.keep(&a.RowPtr)(gpu.Upload(s.d, bsr.RowPtr, "BSR block row offsets")); err != nil {
			return nil, err
		}
		if err := op.keep(&a.Col)(gpu.Upload(s.d, bsr.Col, "BSR block columns")); err != nil {
			return nil, err
		}
		if err := op.keep(&a.Val)(UploadValues(s.d, bsr.Val, s.p, "BSR values")); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("spmv: %s is not a cuSPARSE kernel", k)
	}
	cs, err := s.cs.NewSpMV(a, s.x, s.y, alg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k, err)
	}
	return cs, nil
}

// clearY is a step that zeroes y on the device's launch stream.
func (s *SpMV) clearY() error { return s.y.Fill32(0) }

// run enqueues the op.
func (op *Op) run() error {
	for _, st := range op.steps {
		if err := st(); err != nil {
			return err
		}
	}
	return nil
}

// Run enqueues y = A x with op on the device's launch stream (the default
// stream, or a gpu.Device.Capture's) and returns without waiting (unlike
// Product, which also fills y with NaN first and waits). Each step makes
// the context current itself, so Run adds no binding of its own.
func (s *SpMV) Run(op *Op) error { return op.run() }

// Drop frees a schedule the SpMV holds (uploaded or adopted) and forgets
// the ops made on it, which must not run again. It first waits for the
// work queued so far, which may still read the schedule.
func (s *SpMV) Drop(ds *DeviceSchedule) error {
	if err := s.d.Sync("dropping a schedule"); err != nil {
		return err
	}
	s.ops = slices.DeleteFunc(s.ops, func(op *Op) bool {
		if op.sched != ds {
			return false
		}
		freeAll(op.bufs) // spac-d16's format, built from the schedule
		return true
	})
	s.scheds = slices.DeleteFunc(s.scheds, func(x *DeviceSchedule) bool { return x == ds })
	ds.free()
	return nil
}

// Product fills y with NaN, runs op once and returns y.
func (s *SpMV) Product(op *Op) ([]float64, error) {
	if err := s.poisonY(); err != nil {
		return nil, err
	}
	if err := s.Run(op); err != nil {
		return nil, err
	}
	y, err := s.Y()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op.Kernel, err)
	}
	return y, nil
}

// Time runs op warmup times, then reps times between CUDA events
// (gpu.Device.Time).
func (s *SpMV) Time(op *Op, warmup, reps int) (gpu.Timing, error) {
	return s.d.Time(op.run, warmup, reps, string(op.Kernel))
}

// Close frees everything on the device.
func (s *SpMV) Close() error {
	for _, op := range s.ops {
		if op.cs != nil {
			op.cs.Close()
		}
		freeAll(op.bufs)
	}
	s.ops = nil
	s.cs.Close()
	s.cs = nil
	for _, ds := range s.scheds {
		ds.free()
	}
	s.scheds = nil
	for _, b := range []*gpu.Buffer{s.rowptr, s.row, s.col, s.val, s.x, s.y} {
		b.Free()
	}
	return nil
}

// keep returns a function that takes an upload's result and, on success,
// puts the buffer in *dst and among the op's own (Close frees them).
func (op *Op) keep(dst **gpu.Buffer) func(*gpu.Buffer, error) error {
	return func(b *gpu.Buffer, err error) error {
		if err != nil {
			return err
		}
		*dst = b
		op.bufs = append(op.bufs, b)
		return nil
	}
}

func freeAll(bufs []*gpu.Buffer) {
	for _, b := range bufs {
		b.Free()
	}
}
