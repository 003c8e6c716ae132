package schedule

import (
	"fmt"
	"math"
)

// Validate checks every invariant a kernel relies on, so that a schedule
// read from a file can never make a kernel (or the CPU executor) read out
// of bounds: consistent lengths, every entry in exactly one slot, tasks
// first in each block and sorted by (row, column), local addresses that
// point at the right global index, sorted unique lists with no unused
// element, correct shared flags, the budget held, and a fingerprint that
// matches the structure the slots describe. On the way it rebuilds Slot
// from NewSchedule, which is how a decoded schedule gets it.
func (s *Schedule) Validate() error {
	B, nb := s.BlockSize, s.NumBlocks()
	if s.NRows < 0 || s.NCols < 0 || s.NRows > math.MaxInt32 || s.NCols > math.MaxInt32 {
		return fmt.Errorf("dimensions %d x %d out of range", s.NRows, s.NCols)
	}
	if B < 1 || nb < 1 || s.NNZ < 1 || int64(nb)*int64(B) > math.MaxInt32 {
		return fmt.Errorf("%d blocks of %d threads for %d entries: out of range", nb, B, s.NNZ)
	}
	n := nb * B
	if s.NNZ > n {
		return fmt.Errorf("%d entries do not fit %d blocks of %d threads", s.NNZ, nb, B)
	}
	if s.Parts < 1 || s.Parts > nb {
		return fmt.Errorf("%d parts for %d blocks", s.Parts, nb)
	}
	if s.ValueBytes != 4 && s.ValueBytes != 8 {
		return fmt.Errorf("value size %d", s.ValueBytes)
	}
	if s.Budget < 1 || s.Budget > MaxBudget {
		return fmt.Errorf("shared-memory budget %d bytes", s.Budget)
	}
	switch s.Applied {
	case None, ReadOnly:
		if nb != s.Parts || s.SplitBlocks != 0 {
			return fmt.Errorf("%d blocks for %d parts without splitting", nb, s.Parts)
		}
	case Split:
		if s.SplitBlocks != nb-s.Parts {
			return fmt.Errorf("%d split blocks, but %d blocks for %d parts", s.SplitBlocks, nb, s.Parts)
		}
	default:
		return fmt.Errorf("applied overflow handling %v", s.Applied)
	}
	if s.Policy != Auto && s.Policy != Split && s.Policy != ReadOnly {
		return fmt.Errorf("overflow policy %v", s.Policy)
	}
	if len(s.NewSchedule) != n || len(s.Rows) != n || len(s.Cols) != n || len(s.XLocal) != n || len(s.YLocal) != n ||
		(s.Vals != nil && len(s.Vals) != n) {
		return fmt.Errorf("per-slot arrays do not all have %d slots", n)
	}
	if len(s.BlockOffsets) != nb+1 || len(s.XOffsets) != nb+1 || len(s.YOffsets) != nb+1 {
		return fmt.Errorf("offset arrays do not all have %d entries", nb+1)
	}
	if len(s.YShared) != len(s.YUnique) {
		return fmt.Errorf("%d shared flags for %d unique rows", len(s.YShared), len(s.YUnique))
	}
	lastPart := int32(-1)
	for b, q := range s.BlockPart {
		if q < 0 || int(q) >= s.Parts || q < lastPart || (s.Applied != Split && int(q) != b) {
			return fmt.Errorf("block %d runs part %d: parts must be in order and in [0,%d)", b, q, s.Parts)
		}
		lastPart = q
	}
	if err := checkOffsets("block", s.BlockOffsets, s.NNZ, B); err != nil {
		return err
	}
	if err := checkOffsets("unique-x", s.XOffsets, len(s.XUnique), -1); err != nil {
		return err
	}
	if err := checkOffsets("unique-y", s.YOffsets, len(s.YUnique), -1); err != nil {
		return err
	}
	if len(s.Slot) != s.NNZ {
		s.Slot = make([]int32, s.NNZ)
	}
	seen := make([]bool, s.NNZ)
	xUsed := make([]bool, len(s.XUnique))
	yUsed := make([]bool, len(s.YUnique))
	for b := range nb {
		cnt := s.Tasks(b)
		xs := s.XUnique[s.XOffsets[b]:s.XOffsets[b+1]]
		ys := s.YUnique[s.YOffsets[b]:s.YOffsets[b+1]]
		if err := checkSorted(xs, s.NCols); err != nil {
			return fmt.Errorf("block %d: unique columns: %v", b, err)
		}
		if err := checkSorted(ys, s.NRows); err != nil {
			return fmt.Errorf("block %d: unique rows: %v", b, err)
		}
		if s.XReadOnly() {
			if len(xs) != 0 {
				return fmt.Errorf("block %d lists unique columns though x is read-only", b)
			}
		} else if s.SharedBytes(b, s.ValueBytes) > s.Budget {
			return fmt.Errorf("block %d needs %d bytes of shared memory, over the budget of %d", b, s.SharedBytes(b, s.ValueBytes), s.Budget)
		}
		if len(ys)*s.ValueBytes > s.Budget {
			return fmt.Errorf("block %d needs %d bytes of shared memory, over the budget of %d", b, len(ys)*s.ValueBytes, s.Budget)
		}
		for t := range B {
			tid := b*B + t
			e := s.NewSchedule[tid]
			if t >= cnt {
				if e != -1 || s.Rows[tid] != -1 || s.Cols[tid] != -1 || s.XLocal[tid] != 0 || s.YLocal[tid] != 0 || (s.Vals != nil && s.Vals[tid] != 0) {
					return fmt.Errorf("padding slot %d (block %d) is not empty", tid, b)
				}
				continue
			}
			if e < 0 || int(e) >= s.NNZ || seen[e] {
				return fmt.Errorf("slot %d runs entry %d: out of range or run twice", tid, e)
			}
			seen[e] = true
			s.Slot[e] = int32(tid)
			r, c := s.Rows[tid], s.Cols[tid]
			if r < 0 || int(r) >= s.NRows || c < 0 || int(c) >= s.NCols {
				return fmt.Errorf("slot %d: entry (%d,%d) outside the %d x %d matrix", tid, r, c, s.NRows, s.NCols)
			}
			if t > 0 {
				pr, pc := s.Rows[tid-1], s.Cols[tid-1]
				if r < pr || (r == pr && c < pc) {
					return fmt.Errorf("block %d: tasks not sorted by (row, column) at slot %d", b, tid)
				}
			}
			if s.Vals != nil && (math.IsNaN(s.Vals[tid]) || math.IsInf(s.Vals[tid], 0)) {
				return fmt.Errorf("slot %d: value %v", tid, s.Vals[tid])
			}
			yl := s.YLocal[tid]
			if yl < 0 || int(yl) >= len(ys) || ys[yl] != r {
				return fmt.Errorf("slot %d: local y address %d does not hold row %d", tid, yl, r)
			}
			yUsed[int(s.YOffsets[b])+int(yl)] = true
			xl := s.XLocal[tid]
			if s.XReadOnly() {
				if xl != 0 {
					return fmt.Errorf("slot %d: local x address %d though x is read-only", tid, xl)
				}
				continue
			}
			if xl < 0 || int(xl) >= len(xs) || xs[xl] != c {
				return fmt.Errorf("slot %d: local x address %d does not hold column %d", tid, xl, c)
			}
			xUsed[int(s.XOffsets[b])+int(xl)] = true
		}
	}
	for i, u := range xUsed {
		if !u {
			return fmt.Errorf("unique column %d (position %d) is used by no task", s.XUnique[i], i)
		}
	}
	for i, u := range yUsed {
		if !u {
			return fmt.Errorf("unique row %d (position %d) is used by no task", s.YUnique[i], i)
		}
	}
	blocksOfRow := make([]int32, s.NRows)
	for _, r := range s.YUnique {
		blocksOfRow[r]++
	}
	for i, r := range s.YUnique {
		if want := blocksOfRow[r] > 1; s.YShared[i] > 1 || (s.YShared[i] == 1) != want {
			return fmt.Errorf("row %d is in %d blocks but its shared flag is %d", r, blocksOfRow[r], s.YShared[i])
		}
	}
	row, col := s.structure()
	if fp := structureHash(s.NRows, s.NCols, row, col); fp != s.Fingerprint {
		return fmt.Errorf("the entries describe a matrix with fingerprint %016x, the schedule claims %016x", fp, s.Fingerprint)
	}
	return nil
}

// checkOffsets checks a prefix-sum array: starts at 0, ends at total, never
// decreases, and (when maxRun >= 0) no run longer than maxRun.
func checkOffsets(what string, off []int32, total, maxRun int) error {
	if off[0] != 0 || int(off[len(off)-1]) != total {
		return fmt.Errorf("%s offsets run from %d to %d, want 0 to %d", what, off[0], off[len(off)-1], total)
	}
	for i := 1; i < len(off); i++ {
		d := off[i] - off[i-1]
		if d < 0 || (maxRun >= 0 && int(d) > maxRun) {
			return fmt.Errorf("%s offsets: block %d has %d elements", what, i-1, d)
		}
	}
	return nil
}

// checkSorted checks a strictly increasing list of indices in [0, n).
func checkSorted(a []int32, n int) error {
	for i, v := range a {
		if v < 0 || int(v) >= n {
			return fmt.Errorf("index %d outside [0,%d)", v, n)
		}
		if i > 0 && v <= a[i-1] {
			return fmt.Errorf("not strictly increasing at position %d", i)
		}
	}
	return nil
}
