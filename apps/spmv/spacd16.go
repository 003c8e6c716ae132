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

// NewSPACD16Owned builds spac-d16-own's format: spac-d16's, with every row
// that the schedule shares between parts made whole in one of them (the
// part holding the most of its tasks; ties go to the first), and every
// empty row of y given a slot without an entry, so that each row of y is
// stored once and plainly: no atomics, and no clearing launch where the
// format's blocks are cut at rows. The moved tasks cost copies of their
// columns in the parts they join, and those parts grow by them; the
// format's blocks of at most 1024 slots take the parts as they come. Its
// rowMap has no bit 31 set.
func NewSPACD16Owned(a *ScheduleArrays) (d *D16, rowMap []int32, err error) {
	if len(a.YLocal) != a.Blocks*a.BlockSize || len(a.YOffsets) != a.Blocks+1 || len(a.YShared) != len(a.YUnique) {
		return nil, nil, fmt.Errorf("spac-d16-own: schedule %s: inconsistent array lengths", a.Label)
	}
	stored := len(a.YUnique)
	// first[i]: the first slot of stored row i (a block's tasks come first,
	// sorted by row, so a stored row's tasks are consecutive slots).
	first, count := make([]int32, stored), make([]int32, stored)
	for b := range a.Blocks {
		y0 := a.YOffsets[b]
		for t := a.BlockSize - 1; t >= 0; t-- {
			slot := b*a.BlockSize + t
			if yl := a.YLocal[slot]; yl != PaddingSlot {
				first[y0+int32(yl)] = int32(slot)
				count[y0+int32(yl)]++
			}
		}
	}
	// The owner of each shared row: its stored row with the most tasks.
	owner := make([]int32, a.NRows)
	for r := range owner {
		owner[r] = -1
	}
	for i, r := range a.YUnique {
		if o := owner[r]; o < 0 || count[i] > count[o] {
			owner[r] = int32(i)
		}
	}
	m := &Matrix{Name: a.Label, NCols: a.NCols, RowPtr: make([]int32, 1, stored+1),
		Col: make([]int32, 0, a.NNZ), Val: make([]float64, 0, a.NNZ)}
	addRow := func(r int32) {
		m.RowPtr = append(m.RowPtr, int32(len(m.Col)))
		rowMap = append(rowMap, r)
		m.MaxRowNNZ = max(m.MaxRowNNZ, int(m.RowPtr[len(m.RowPtr)-1]-m.RowPtr[len(m.RowPtr)-2]))
	}
	// The stored rows of each shared row, listed by row (a counting sort),
	// for its owner to take all their tasks.
	start := make([]int32, a.NRows+1)
	for i, r := range a.YUnique {
		if a.YShared[i] != 0 {
			start[r+1]++
		}
	}
	for r := range a.NRows {
		start[r+1] += start[r]
	}
	parts := make([]int32, start[a.NRows])
	next := slices.Clone(start[:a.NRows])
	for i, r := range a.YUnique {
		if a.YShared[i] != 0 {
			parts[next[r]] = int32(i)
			next[r]++
		}
	}
	take := func(i int32) {
		s := first[i]
		m.Col = append(m.Col, a.Col[s:s+count[i]]...)
		m.Val = append(m.Val, a.Val[s:s+count[i]]...)
	}
	for i, r := range a.YUnique {
		switch {
		case a.YShared[i] == 0:
			take(int32(i))
		case owner[r] == int32(i):
			for _, j := range parts[start[r]:start[r+1]] {
				take(j)
			}
		default:
			continue // its tasks went to the owner
		}
		addRow(r)
	}
	for r := range a.NRows {
		if owner[r] < 0 { // an empty row of y: a slot that stores 0
			addRow(int32(r))
		}
	}
	m.NRows = len(rowMap)
	if len(m.Col) != a.NNZ {
		return nil, nil, fmt.Errorf("spac-d16-own: schedule %s holds %d tasks, the matrix %d entries", a.Label, len(m.Col), a.NNZ)
	}
	if d, err = NewD16(m, min(a.BlockSize, d16MaxSlots)); err != nil {
		return nil, nil, fmt.Errorf("spac-d16-own (csr-d16's format over the schedule's rows): %w", err)
	}
	// Only the format's own shared rows (none where its blocks are cut at
	// rows) are cleared.
	for i, r := range d.ZeroRows {
		d.ZeroRows[i] = rowMap[r]
	}
	slices.Sort(d.ZeroRows)
	return d, rowMap, nil
}
