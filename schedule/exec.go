package schedule

import "fmt"

// SpMV computes y = A x the way the GPU kernel does, block by block: stage
// the block's unique x in a scratch slice (its shared memory), or read x
// directly when x is read-only; accumulate every task's product into a
// scratch y at its local address, in slot order; then flush: a plain store
// for rows the block owns, an add for rows other blocks share. y is zeroed
// first, since shared rows are flushed with adds. Blocks run in order, so
// the result is deterministic (a GPU may add shared rows in any order).
func (s *Schedule) SpMV(x, y []float64) error { return spmv(s, x, y) }

// SpMV32 is SpMV in float32 arithmetic: values are rounded to float32 and
// every product and sum is a float32 operation, as in an fp32 kernel.
func (s *Schedule) SpMV32(x, y []float32) error { return spmv(s, x, y) }

func spmv[T float32 | float64](s *Schedule, x, y []T) error {
	if s.Vals == nil {
		return fmt.Errorf("the schedule has no values (the matrix had none that are real): it can only be used for its structure")
	}
	if len(x) != s.NCols || len(y) != s.NRows {
		return fmt.Errorf("SpMV of a %d x %d matrix needs len(x) = %d and len(y) = %d, got %d and %d", s.NRows, s.NCols, s.NCols, s.NRows, len(x), len(y))
	}
	clear(y)
	maxX, maxY := 0, 0
	for b := range s.NumBlocks() {
		maxX, maxY = max(maxX, s.UniqueX(b)), max(maxY, s.UniqueY(b))
	}
	xs := make([]T, maxX) // the block's shared memory
	ys := make([]T, maxY)
	B := s.BlockSize
	readOnly := s.XReadOnly()
	for b := range s.NumBlocks() {
		xu := s.XUnique[s.XOffsets[b]:s.XOffsets[b+1]]
		yu := s.YUnique[s.YOffsets[b]:s.YOffsets[b+1]]
		sh := s.YShared[s.YOffsets[b]:s.YOffsets[b+1]]
		bx, by := xs[:len(xu)], ys[:len(yu)]
		for i, c := range xu {
			bx[i] = x[c]
		}
		clear(by)
		lo := b * B
		hi := lo + s.Tasks(b)
		// The conversion around each product forbids fusing it with the add
		// (Go may emit FMA on some platforms), so results match everywhere.
		if readOnly {
			for tid := lo; tid < hi; tid++ {
				by[s.YLocal[tid]] += T(T(s.Vals[tid]) * x[s.Cols[tid]])
			}
		} else {
			for tid := lo; tid < hi; tid++ {
				by[s.YLocal[tid]] += T(T(s.Vals[tid]) * bx[s.XLocal[tid]])
			}
		}
		for i, r := range yu {
			if sh[i] != 0 {
				y[r] += by[i]
			} else {
				y[r] = by[i]
			}
		}
	}
	return nil
}
