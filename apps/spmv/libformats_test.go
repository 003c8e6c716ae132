package spmv

import (
	"errors"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// sellProduct and bsrProduct multiply as cuSPARSE reads the layouts, so
// that a wrong slot is caught on the host.
func sellProduct(s *SELL, nRows int, x []float64) []float64 {
	y := make([]float64, nRows)
	for r := range nRows {
		sl, i := r/s.SliceSize, r%s.SliceSize
		width := int(s.Offsets[sl+1]-s.Offsets[sl]) / s.SliceSize
		for j := range width {
			slot := int(s.Offsets[sl]) + j*s.SliceSize + i
			if c := s.Col[slot]; c >= 0 {
				y[r] += s.Val[slot] * x[c]
			} else if s.Val[slot] != 0 {
				panic("a padding slot with a value")
			}
		}
	}
	return y
}

func bsrProduct(b *BSR, x []float64) []float64 {
	d := b.Dim
	y := make([]float64, b.BlockRows*d)
	for br := range b.BlockRows {
		for k := b.RowPtr[br]; k < b.RowPtr[br+1]; k++ {
			for i := range d {
				for j := range d {
					y[br*d+i] += b.Val[int(k)*d*d+i*d+j] * x[int(b.Col[k])*d+j]
				}
			}
		}
	}
	return y
}

func TestLibraryFormats(t *testing.T) {
	cases := testCases()
	// A matrix of dense 3x3 blocks, where BSR applies.
	blocks := &matrices.COO{Name: "blocks", NRows: 300, NCols: 300, Field: matrices.Real}
	for br := range 100 {
		for _, bc := range []int{br, (br + 7) % 100, (br * 13) % 100} {
			for i := range 3 {
				for j := range 3 {
					blocks.Row = append(blocks.Row, int32(br*3+i))
					blocks.Col = append(blocks.Col, int32(bc*3+j))
					blocks.Val = append(blocks.Val, float64(1+i+j*br%5))
				}
			}
		}
	}
	cases = append(cases, testCase{"blocks", blocks})
	ranSELL, ranBSR := 0, 0
	for _, tc := range cases {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 3)
		ref, abs, _ := m.Reference(x, FP64)
		if s, err := NewSELL(m, SELLSliceSize); err == nil {
			ranSELL++
			if e := MaxRelError(sellProduct(s, m.NRows, x), ref, abs); e > Tolerance(FP64) {
				t.Errorf("%s: sliced ELL off by %.3g", tc.name, e)
			}
		} else if !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: sliced ELL: %v", tc.name, err)
		}
		if m.Duplicates > 0 {
			continue
		}
		if b, err := NewBSR(m); err == nil {
			ranBSR++
			if e := MaxRelError(bsrProduct(b, x), ref, abs); e > Tolerance(FP64) {
				t.Errorf("%s: BSR (blocks of %d) off by %.3g", tc.name, b.Dim, e)
			}
			if tc.name == "blocks" && (b.Dim != 3 || b.NNZ != 300) {
				t.Errorf("blocks: BSR of %d with %d blocks, want 3 with 300", b.Dim, b.NNZ)
			}
		} else if !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: BSR: %v", tc.name, err)
		}
	}
	// The banded and the block matrix take both, the dense row neither.
	if ranSELL < 3 || ranBSR < 2 {
		t.Errorf("sliced ELL applied to %d cases, BSR to %d: too few to test the layouts", ranSELL, ranBSR)
	}
	dense, _ := NewMatrix(testCases()[2].coo)
	if _, err := NewSELL(dense, SELLSliceSize); !errors.Is(err, ErrUnsupported) {
		t.Errorf("a dense row among short ones: sliced ELL %v, want ErrUnsupported", err)
	}
}
