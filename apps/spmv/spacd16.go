package spmv

import (
	"fmt"
	"slices"
)

// NewSPACD16 builds spac-d16's format: csr-d16's (d16.go) over the blocks
// of a SPAC schedule instead of CSR's rows. Each block's rows (its unique
// y, whose tasks the schedule keeps together and sorted) become rows of
// their own, numbered block after block, so that a thread block of the
// kernel multiplies one part of the partition: the few columns SPAC gave
// that part, read through the L1 as csr-d16 reads them, with 16-bit
// offsets from a block base, and nothing staged. Such a row is the
// schedule's row rowMap[i] & 0x7fffffff of y; bit 31 is set where other
// parts add to the same row (the kernel adds atomically).
//
// A schedule of parts larger than csr-d16's largest block (1024 slots:
// B up to 16384) runs each part as several thread blocks of 1024 slots, cut
// at its rows where they fit. Larger parts share fewer rows: in-2004's
// schedule at B=4096 flushes 528,230 rows atomically against 1,159,630 at
// B=1024, circuit5M's 3,301,581 against 4,573,517. And blocks of 1024 slots
// stay csr-d16's fastest: in blocks of 4096 slots (512 threads) csr-d16
// ran 5-37% slower than in blocks of 1024 on the stand-ins (a throwaway
// build, issue20.md round 14).
//
// ZeroRows of the result are rows of y: those the schedule does not store
// with a plain write (shared between parts, or in none) and those of a
// part whose run crosses one of the format's block boundaries (a part
// that did not fill its block lets the next one begin in it).
func NewSPACD16(a *ScheduleArrays) (d *D16, rowMap []int32, err error) {
	if len(a.YLocal) != a.Blocks*a.BlockSize || len(a.YOffsets) != a.Blocks+1 {
		return nil, nil, fmt.Errorf("spac-d16: schedule %s: inconsistent array lengths", a.Label)
	}
	rows := len(a.YUnique)
	// What NewD16 reads of a matrix: RowPtr, Col and Val.
	m := &Matrix{Name: a.Label, NRows: rows, NCols: a.NCols, RowPtr: make([]int32, rows+1),
		Col: make([]int32, 0, a.NNZ), Val: make([]float64, 0, a.NNZ)}
	for b := range a.Blocks {
		y0 := a.YOffsets[b]
		for t := range a.BlockSize {
			slot := b*a.BlockSize + t
			yl := a.YLocal[slot]
			if yl == PaddingSlot {
				break // a block's tasks come first, sorted by row
			}
			m.RowPtr[y0+int32(yl)+1]++
			m.Col = append(m.Col, a.Col[slot])
			m.Val = append(m.Val, a.Val[slot])
		}
	}
	for r := range rows {
		m.MaxRowNNZ = max(m.MaxRowNNZ, int(m.RowPtr[r+1]))
		m.RowPtr[r+1] += m.RowPtr[r]
	}
	if int(m.RowPtr[rows]) != a.NNZ {
		return nil, nil, fmt.Errorf("spac-d16: schedule %s holds %d tasks, the matrix %d entries", a.Label, m.RowPtr[rows], a.NNZ)
	}
	if d, err = NewD16(m, min(a.BlockSize, d16MaxSlots)); err != nil {
		return nil, nil, fmt.Errorf("spac-d16 (csr-d16's format over the schedule's rows): %w", err)
	}
	rowMap = make([]int32, rows)
	for i, r := range a.YUnique {
		rowMap[i] = r
		if a.YShared[i] != 0 {
			rowMap[i] |= -1 << 31
		}
	}
	// The format's own shared rows (none where its blocks are cut at rows,
	// d16Layout) are rows of the schedule's numbering: cleared as y's rows.
	zero := slices.Clone(a.ZeroRows)
	for _, r := range d.ZeroRows {
		zero = append(zero, a.YUnique[r])
	}
	slices.Sort(zero)
	d.ZeroRows = slices.Compact(zero)
	return d, rowMap, nil
}
