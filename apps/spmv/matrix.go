package spmv

import (
	"fmt"
	"math"
	"sync"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

// Matrix is a sparse matrix in the forms the plain kernels and cuSPARSE
// take: CSR (RowPtr, Col, Val) and COO in the same entry order (Row, Col,
// Val). Entries are in CSR order: rows ascending, columns ascending within
// a row, ties (duplicate entries, which add up) by entry index.
type Matrix struct {
	Name         string
	NRows, NCols int
	RowPtr       []int32 // NRows+1 offsets into Col and Val
	Row, Col     []int32 // row and column of every entry
	Val          []float64
	MaxRowNNZ    int // entries in the longest row
	Duplicates   int // entries at the position of the entry before them (they add up)

	// The library formats, built on first use for every precision
	// (libformats.go).
	sellOnce, bsrOnce sync.Once
	sell              *SELL
	bsr               *BSR
	sellErr, bsrErr   error

	// The renumbered forms csr-d16-hot and csr-d16-rcm run, made on first
	// use for every precision and block size (d16.go).
	hotOnce, rcmOnce sync.Once
	hot, rcm         *Matrix
	hotFrom, rcmPerm []int32
}

// NNZ is the number of stored entries.
func (m *Matrix) NNZ() int { return len(m.Col) }

// NewMatrix puts the entries of coo (as they are: expand a symmetric matrix
// first) into CSR order. A pattern matrix gets the value 1 everywhere; a
// complex matrix is refused.
func NewMatrix(coo *matrices.COO) (*Matrix, error) {
	vals, err := coo.RealValues()
	if err != nil {
		return nil, err
	}
	nnz := coo.NNZ()
	if nnz > math.MaxInt32 || coo.NRows > math.MaxInt32-1 || coo.NCols > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d x %d with %d entries: the GPU kernels index with int32 (at most 2^31-1 entries and rows)", coo.Name, coo.NRows, coo.NCols, nnz)
	}
	if len(coo.Col) != nnz || len(vals) != nnz {
		return nil, fmt.Errorf("%s: inconsistent entry arrays", coo.Name)
	}
	for e := range nnz {
		if r, c := coo.Row[e], coo.Col[e]; r < 0 || int(r) >= coo.NRows || c < 0 || int(c) >= coo.NCols {
			return nil, fmt.Errorf("%s: entry %d at (%d,%d) is outside the %d x %d matrix", coo.Name, e, r+1, c+1, coo.NRows, coo.NCols)
		}
	}
	// Counting sort by column, then stably by row: CSR order.
	order := matrices.RowMajor(coo.Row, coo.Col, coo.NRows, coo.NCols)
	m := &Matrix{Name: coo.Name, NRows: coo.NRows, NCols: coo.NCols,
		RowPtr: make([]int32, coo.NRows+1), Row: make([]int32, nnz), Col: make([]int32, nnz), Val: make([]float64, nnz)}
	for i, e := range order {
		m.Row[i], m.Col[i], m.Val[i] = coo.Row[e], coo.Col[e], vals[e]
		m.RowPtr[coo.Row[e]+1]++
	}
	for r := range coo.NRows {
		m.MaxRowNNZ = max(m.MaxRowNNZ, int(m.RowPtr[r+1]))
		m.RowPtr[r+1] += m.RowPtr[r]
	}
	for i := 1; i < nnz; i++ {
		if m.Row[i] == m.Row[i-1] && m.Col[i] == m.Col[i-1] {
			m.Duplicates++
		}
	}
	return m, nil
}

// Reference computes y = A x on the CPU in float64, and for every row the
// sum of |a_ij x_j|, the scale its rounding error is measured against. With
// FP32 the values and x are first rounded to float32, as the GPU sees them,
// so that the reference is the exact product of the data the kernel gets.
func (m *Matrix) Reference(x []float64, p Precision) (y, abs []float64, err error) {
	if len(x) != m.NCols {
		return nil, nil, fmt.Errorf("%s: x has %d entries, the matrix %d columns", m.Name, len(x), m.NCols)
	}
	xr := x
	if p == FP32 {
		xr = make([]float64, len(x))
		for i, v := range x {
			xr[i] = float64(float32(v))
		}
	}
	y = make([]float64, m.NRows)
	abs = make([]float64, m.NRows)
	for r := range m.NRows {
		var s, a float64
		for j := m.RowPtr[r]; j < m.RowPtr[r+1]; j++ {
			v := m.Val[j]
			if p == FP32 {
				v = float64(float32(v))
			}
			t := v * xr[m.Col[j]]
			s += t
			a += math.Abs(t)
		}
		y[r], abs[r] = s, a
	}
	return y, abs, nil
}

// MaxRelError is the largest error of y against the reference ref, each
// row's error relative to abs[i] = sum_j |a_ij x_j|: the scale of the
// rounding error of any summation order, which stays meaningful where the
// sum cancels. A row with abs[i] = 0 must be exactly 0. NaN or a wrong
// length is +Inf.
func MaxRelError(y, ref, abs []float64) float64 {
	if len(y) != len(ref) || len(abs) != len(ref) {
		return math.Inf(1)
	}
	worst := 0.0
	for i := range y {
		d := math.Abs(y[i] - ref[i])
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		if d == 0 {
			continue
		}
		if abs[i] == 0 {
			return math.Inf(1)
		}
		worst = max(worst, d/abs[i])
	}
	return worst
}

// Tolerance is the largest MaxRelError a correct kernel may show: a few
// thousand units of rounding, ample for any summation order (rows of a
// million entries included) and far below what a lost or doubled entry
// costs on the inputs the tests use.
func Tolerance(p Precision) float64 {
	if p == FP32 {
		return 1e-3
	}
	return 1e-9
}

// ScheduleArrays is a SPAC schedule (package schedule) in the form the
// spac-smem and spac-ldg kernels read: per-slot arrays of NumBlocks*BlockSize
// entries indexed by thread id, per-block offsets, and the unique x and y
// lists with the shared flags. Local addresses are uint16; an idle padding
// slot has the y address PaddingSlot. The kernels read RowStart (one bit per
// slot) instead of YLocal, and Meta instead of the offset arrays.
type ScheduleArrays struct {
	Label             string // what the schedule was made with, e.g. the partitioning method
	NRows, NCols, NNZ int
	BlockSize, Blocks int
	XStaged           bool // x is in shared memory (false: the schedule applied the read-only policy)
	BlockOffsets      []int32
	Meta              []int32 // per block x0, nx, y0, ny, tasks, and for spac-seg8 the rows started before slots 256, 512, 768: what the kernels read of the offsets
	XOffsets, XUnique []int32
	YOffsets, YUnique []int32
	YShared           []uint8
	Val               []float64
	XLocal, YLocal    []uint16
	RowStart          []uint32 // bit s%32 of word s/32: slot s starts a row of its block (the kernels derive YLocal from it)
	Col               []int32  // global column of every slot, 0 for padding (spac-ldg)
	ZeroRows          []int32  // rows no block stores plainly (shared or empty), ascending: cleared before every product
	Desc              []uint32 // spac-seg: a descriptor per thread of four slots (seg.go); nil where the block size is not a multiple of 128
	YRow              []int32  // spac-seg: YUnique with bit 31 set on the rows other blocks share (flushed with atomicAdd)
	XFlag             []uint16 // spac-seg8: XLocal with bit 15 set where a slot starts a row (seg8.go); nil where the block size is not a multiple of 256 or x is not staged
	MaxX, MaxY        int      // the most unique x and y of any block
	MaxXY             int      // the most unique x plus y of any block

	// formats, where set (KeepFormats), keeps what the spac-d16 kernels
	// build from these arrays for the next precision's op.
	formats *formatCache
}

// KeepFormats makes the ops built from a keep the formats the spac-d16
// kernels build on the host, which do not depend on the precision, for
// the ops of the other precisions to take as they are: on the 20.1M-row
// mesh spac-d16-ord's setup took 20-21 s a precision (issue20.md, round
// 17). They stay as long as a does.
func (a *ScheduleArrays) KeepFormats() {
	if a.formats == nil {
		a.formats = &formatCache{}
	}
}

// formatCache holds kernel k's format of a schedule's arrays once built.
type formatCache struct {
	mu  sync.Mutex
	d16 map[Kernel]*d16Format
}

// d16Format is a spac-d16 kernel's host format: csr-d16's, with spac-d16's
// and spac-d16-own's row map or spac-d16-ord's orders (colFrom: format
// column j is the user's column colFrom[j]; rowTo: the user's row u is
// format row rowTo[u]), each in the direction its gather reads it.
type d16Format struct {
	d                      *D16
	rowMap, rowTo, colFrom []int32
}

// d16Format returns kernel k's format of a: built by build, or, where a
// keeps its formats, as built the first time.
func (a *ScheduleArrays) d16Format(k Kernel, build func() (*d16Format, error)) (*d16Format, error) {
	c := a.formats
	if c == nil {
		return build()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.d16[k]; ok {
		return f, nil
	}
	f, err := build()
	if err != nil {
		return nil, err
	}
	if c.d16 == nil {
		c.d16 = make(map[Kernel]*d16Format)
	}
	c.d16[k] = f
	return f, nil
}

// PaddingSlot is the local y address of an idle slot.
const PaddingSlot = math.MaxUint16

// MaxBlockSize is the most tasks of a block of a schedule (a part) that a
// kernel runs: spac-d16 runs parts of up to 16384 as thread blocks of 1024.
const MaxBlockSize = schedule.MaxBlockSize

// MaxThreads is the largest thread block a kernel launches, and the most
// tasks a block of any kernel but spac-d16's runs (Kernel.MaxBlockSize).
const MaxThreads = schedule.MaxThreads

// CheckBlockSize says whether some kernel can run blocks of b tasks: a
// multiple of the warp size (the SPAC kernels reduce whole warps), at most
// MaxBlockSize. Which kernels do is each kernel's to say.
func CheckBlockSize(b int) error {
	if b < 32 || b > MaxBlockSize || b%32 != 0 {
		return fmt.Errorf("block size %d: the GPU kernels need a multiple of 32 from 32 to %d", b, MaxBlockSize)
	}
	return nil
}

// SharedBytes is the dynamic shared memory a launch of kernel k on this
// schedule asks for with values of p: the block's y slots, its x slots when
// the kernel stages x, and the row counts of up to 32 warps; spac-seg needs
// its x slots alone (its carries are static), spac-seg-ldg nothing,
// spac-seg8 its x slots and its rows' indices.
func (a *ScheduleArrays) SharedBytes(k Kernel, p Precision) int {
	switch {
	case k.IsSeg8():
		return a.seg8Shared(p)
	case k == SPACSeg:
		return a.MaxX * p.Bytes()
	case k == SPACSegLdg:
		return 0
	case k.StagesX():
		return a.MaxXY*p.Bytes() + 128
	}
	return a.MaxY*p.Bytes() + 128
}

// NewScheduleArrays converts a schedule and checks what the kernels rely
// on: a block size they can launch, values, local addresses below 65,536,
// at most BlockSize tasks per block, and every block's tasks sorted by
// local y address (the warp reduction adds neighbours with equal
// addresses). schedule.Build makes schedules that hold all of it.
func NewScheduleArrays(s *schedule.Schedule, label string) (*ScheduleArrays, error) {
	if err := CheckBlockSize(s.BlockSize); err != nil {
		return nil, err
	}
	if s.Vals == nil {
		return nil, fmt.Errorf("schedule %s has no values (the matrix had no real values)", label)
	}
	B, nb := s.BlockSize, s.NumBlocks()
	n := nb * B
	if len(s.Vals) != n || len(s.XLocal) != n || len(s.YLocal) != n || len(s.Cols) != n ||
		len(s.BlockOffsets) != nb+1 || len(s.XOffsets) != nb+1 || len(s.YOffsets) != nb+1 || len(s.YShared) != len(s.YUnique) {
		return nil, fmt.Errorf("schedule %s: inconsistent array lengths", label)
	}
	a := &ScheduleArrays{Label: label, NRows: s.NRows, NCols: s.NCols, NNZ: s.NNZ, BlockSize: B, Blocks: nb,
		XStaged: !s.XReadOnly(), BlockOffsets: s.BlockOffsets, XOffsets: s.XOffsets, XUnique: s.XUnique,
		YOffsets: s.YOffsets, YUnique: s.YUnique, YShared: s.YShared, Val: s.Vals,
		XLocal: make([]uint16, n), YLocal: make([]uint16, n), Col: make([]int32, n), Meta: make([]int32, 8*nb),
		RowStart: make([]uint32, (n+31)/32)}
	for i := range a.YLocal {
		a.YLocal[i] = PaddingSlot
	}
	for b := range nb {
		tasks, nx, ny := s.Tasks(b), s.UniqueX(b), s.UniqueY(b)
		// A block touches at most as many columns and rows as it has tasks;
		// the kernels stage and flush one of each per thread.
		if tasks < 0 || tasks > B || nx < 0 || ny < 0 || nx > tasks || ny > tasks {
			return nil, fmt.Errorf("schedule %s: block %d has %d tasks, %d unique x, %d unique y: out of range for blocks of %d threads", label, b, tasks, nx, ny, B)
		}
		a.MaxX, a.MaxY, a.MaxXY = max(a.MaxX, nx), max(a.MaxY, ny), max(a.MaxXY, nx+ny)
		a.Meta[8*b], a.Meta[8*b+1], a.Meta[8*b+2], a.Meta[8*b+3], a.Meta[8*b+4] = s.XOffsets[b], int32(nx), s.YOffsets[b], int32(ny), int32(tasks)
		prev := int32(-1)
		for t := range tasks {
			slot := b*B + t
			xl, yl, c := s.XLocal[slot], s.YLocal[slot], s.Cols[slot]
			if yl < prev || yl < 0 || int(yl) >= ny || (a.XStaged && (xl < 0 || int(xl) >= nx)) || c < 0 || int(c) >= s.NCols {
				return nil, fmt.Errorf("schedule %s: block %d, task %d: local addresses x %d, y %d (after %d), column %d: not a valid schedule for the kernels", label, b, t, xl, yl, prev, c)
			}
			if yl != prev {
				a.RowStart[slot/32] |= 1 << (slot % 32)
			}
			prev = yl
			a.XLocal[slot], a.YLocal[slot], a.Col[slot] = uint16(xl), uint16(yl), c
		}
	}
	// Rows a block stores with a plain write need no clearing; every other
	// row (shared between blocks, or in no block: an empty row) does.
	stored := make([]bool, s.NRows)
	count := s.NRows
	for i, f := range s.YShared {
		if r := s.YUnique[i]; f == 0 && !stored[r] {
			stored[r] = true
			count--
		}
	}
	a.ZeroRows = make([]int32, 0, count)
	for r, ok := range stored {
		if !ok {
			a.ZeroRows = append(a.ZeroRows, int32(r))
		}
	}
	if err := a.segDescriptors(); err != nil {
		return nil, err
	}
	a.seg8Format()
	return a, nil
}

// MinimumBytes is the fewest bytes one y = A x must move through device
// memory with int32 indices: every value and column index once, the row
// offsets, x and y once each. It is the model behind the GB/s columns (the
// one DESIGN.md's cuSPARSE figures use), the same for every kernel of a
// matrix and precision, so a kernel's GB/s is its speed in a common unit.
func MinimumBytes(nrows, ncols, nnz int, p Precision) int64 {
	w := int64(p.Bytes())
	return int64(nnz)*(w+4) + int64(nrows+1)*4 + int64(ncols)*w + int64(nrows)*w
}
