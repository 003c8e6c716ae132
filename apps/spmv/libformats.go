package spmv

import (
	"fmt"
	"math"
	"slices"
)

// The cuSPARSE formats besides CSR and COO that the honest baseline runs:
// sliced ELL (cusparse-sell) and BSR (cusparse-bsr), built on the host from
// a Matrix. Each applies only where its padding stays moderate: a format
// that stores several times the nonzeros cannot be the library's best path
// on a memory-bound product, and building it could exhaust memory (a dense
// row of a million entries pads a slice of 32 rows to 32 million slots).

// SELLSliceSize is the rows per slice of cusparse-sell: a warp's worth, the
// slice size cuSPARSE's samples use.
const SELLSliceSize = 32

// MaxPadding is the most stored slots per nonzero a blocked or sliced
// format may have to be run.
const MaxPadding = 3.0

// SELL is a matrix in cuSPARSE's sliced ELL layout: slice s holds rows
// s*SliceSize.., padded to the slice's longest row, column-major within the
// slice (slot Offsets[s] + j*SliceSize + i is entry j of the slice's row
// i); a padding slot has column -1 and value 0.
type SELL struct {
	SliceSize int
	Offsets   []int32 // slices+1
	Col       []int32
	Val       []float64
}

// NewSELL builds the sliced ELL form of m, or says why it does not apply
// (ErrUnsupported): more than MaxPadding slots per nonzero, or more slots
// than int32 indexes.
func NewSELL(m *Matrix, sliceSize int) (*SELL, error) {
	if sliceSize < 1 {
		return nil, fmt.Errorf("spmv: slice size %d", sliceSize)
	}
	slices := (m.NRows + sliceSize - 1) / sliceSize
	s := &SELL{SliceSize: sliceSize, Offsets: make([]int32, slices+1)}
	var total int64
	for sl := range slices {
		width := 0
		for r := sl * sliceSize; r < min(m.NRows, (sl+1)*sliceSize); r++ {
			width = max(width, int(m.RowPtr[r+1]-m.RowPtr[r]))
		}
		total += int64(width * sliceSize)
		if total > math.MaxInt32 {
			return nil, fmt.Errorf("%w: sliced ELL needs over 2^31 slots", ErrUnsupported)
		}
		s.Offsets[sl+1] = int32(total)
	}
	if nnz := m.NNZ(); nnz == 0 || float64(total) > MaxPadding*float64(nnz) {
		return nil, fmt.Errorf("%w: sliced ELL of %d rows per slice stores %d slots for %d nonzeros (over %.0fx)", ErrUnsupported, sliceSize, total, nnz, MaxPadding)
	}
	s.Col = make([]int32, total)
	s.Val = make([]float64, total)
	for i := range s.Col {
		s.Col[i] = -1
	}
	for r := range m.NRows {
		sl, i := r/sliceSize, r%sliceSize
		for j, e := 0, m.RowPtr[r]; e < m.RowPtr[r+1]; j, e = j+1, e+1 {
			slot := int(s.Offsets[sl]) + j*sliceSize + i
			s.Col[slot], s.Val[slot] = m.Col[e], m.Val[e]
		}
	}
	return s, nil
}

// BSR is a matrix in blocks of Dim x Dim (row-major inside a block): block
// row i's blocks are RowPtr[i]..RowPtr[i+1], at block columns Col, values
// Val[k*Dim*Dim:].
type BSR struct {
	Dim            int
	RowPtr, Col    []int32
	Val            []float64
	BlockRows, NNZ int
}

// bsrDims are the block sizes NewBSR tries.
var bsrDims = []int{2, 3, 4, 5, 6, 8}

// NewBSR builds the BSR form of m with the block size (among 2 to 8, one
// that divides both dimensions) that stores the fewest bytes, or says why
// none applies (ErrUnsupported): no block size divides both dimensions, or
// every one stores more than MaxPadding slots per nonzero. m must have no
// duplicate entries.
func NewBSR(m *Matrix) (*BSR, error) {
	best, bestBlocks := 0, 0
	for _, d := range bsrDims {
		if m.NRows%d != 0 || m.NCols%d != 0 {
			continue
		}
		n := bsrBlocks(m, d, nil)
		if n < 0 || float64(n*d*d) > MaxPadding*float64(m.NNZ()) || int64(n)*int64(d*d) > math.MaxInt32 {
			continue
		}
		// Bytes of the values and one int32 column per block; the block
		// row offsets are the same few for every size.
		if best == 0 || n*(d*d*8+4) < bestBlocks*(best*best*8+4) {
			best, bestBlocks = d, n
		}
	}
	if best == 0 || m.NNZ() == 0 {
		return nil, fmt.Errorf("%w: no block size of %v divides %d x %d with at most %.0f slots per nonzero", ErrUnsupported, bsrDims, m.NRows, m.NCols, MaxPadding)
	}
	d := best
	b := &BSR{Dim: d, BlockRows: m.NRows / d, NNZ: bestBlocks, RowPtr: make([]int32, m.NRows/d+1)}
	bsrBlocks(m, d, b)
	return b, nil
}

// bsrBlocks counts the nonzero blocks of size d; with b not nil it also
// fills b's arrays (b.RowPtr allocated, the others made here). Counting
// alone gives up (-1) once a sixteenth of the entries shows more than
// MaxPadding slots per entry, so that a large matrix without blocks costs
// little per block size tried.
func bsrBlocks(m *Matrix, d int, b *BSR) int {
	total := 0
	probe := m.NNZ() / 16
	var cols []int32
	if b != nil {
		b.Col = make([]int32, 0, b.NNZ)
		b.Val = make([]float64, b.NNZ*d*d)
	}
	for br := 0; br < m.NRows/d; br++ {
		cols = cols[:0]
		for r := br * d; r < (br+1)*d; r++ {
			for e := m.RowPtr[r]; e < m.RowPtr[r+1]; e++ {
				cols = append(cols, m.Col[e]/int32(d))
			}
		}
		slices.Sort(cols)
		cols = slices.Compact(cols)
		if b != nil {
			base := total
			b.Col = append(b.Col, cols...)
			for r := br * d; r < (br+1)*d; r++ {
				for e := m.RowPtr[r]; e < m.RowPtr[r+1]; e++ {
					k, _ := slices.BinarySearch(cols, m.Col[e]/int32(d))
					b.Val[(base+k)*d*d+(r%d)*d+int(m.Col[e])%d] = m.Val[e]
				}
			}
			b.RowPtr[br+1] = int32(base + len(cols))
		}
		total += len(cols)
		if seen := int(m.RowPtr[(br+1)*d]); b == nil && seen >= probe && float64(total*d*d) > MaxPadding*float64(seen) {
			return -1
		}
	}
	return total
}

// SELL is m's sliced ELL form (SELLSliceSize rows a slice), built on the
// first call and kept for the next precision.
func (m *Matrix) SELL() (*SELL, error) {
	m.sellOnce.Do(func() { m.sell, m.sellErr = NewSELL(m, SELLSliceSize) })
	return m.sell, m.sellErr
}

// BSR is m's BSR form (NewBSR), built on the first call and kept.
func (m *Matrix) BSR() (*BSR, error) {
	m.bsrOnce.Do(func() { m.bsr, m.bsrErr = NewBSR(m) })
	return m.bsr, m.bsrErr
}
