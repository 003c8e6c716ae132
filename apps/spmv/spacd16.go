package spmv

import (
	"fmt"
	"math"
	"slices"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/order"
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
	sr, err := newStoredRows(a, "spac-d16")
	if err != nil {
		return nil, nil, err
	}
	rowMap = make([]int32, len(a.YUnique))
	for i, r := range a.YUnique {
		sr.take(int32(i))
		sr.endRow()
		rowMap[i] = r
		if a.YShared[i] != 0 {
			rowMap[i] |= -1 << 31
		}
	}
	// The rows the schedule shares or leaves out are cleared, as are those
	// of the format's own shared rows (none where its blocks are cut at
	// rows, d16Layout).
	return sr.format(a, rowMap, a.ZeroRows, "spac-d16")
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
	sr, err := newStoredRows(a, "spac-d16-own")
	if err != nil {
		return nil, nil, err
	}
	// The owner of each shared row: its stored row with the most tasks.
	owner := make([]int32, a.NRows)
	for r := range owner {
		owner[r] = -1
	}
	for i, r := range a.YUnique {
		if o := owner[r]; o < 0 || sr.count[i] > sr.count[o] {
			owner[r] = int32(i)
		}
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
	rowMap = make([]int32, 0, a.NRows)
	for i, r := range a.YUnique {
		switch {
		case a.YShared[i] == 0:
			sr.take(int32(i))
		case owner[r] == int32(i):
			for _, j := range parts[start[r]:start[r+1]] {
				sr.take(j)
			}
		default:
			continue // its tasks went to the owner
		}
		sr.endRow()
		rowMap = append(rowMap, r)
	}
	for r := range a.NRows {
		if owner[r] < 0 { // an empty row of y: a slot that stores 0
			sr.endRow()
			rowMap = append(rowMap, int32(r))
		}
	}
	// Only the format's own shared rows (none where its blocks are cut at
	// rows) are cleared.
	return sr.format(a, rowMap, nil, "spac-d16-own")
}

// storedRows builds the matrix whose rows are a schedule's stored rows
// (its blocks' unique y) in the order a builder takes them, for NewD16,
// which reads its RowPtr, Col and Val.
type storedRows struct {
	a            *ScheduleArrays
	first, count []int32 // stored row i's tasks: count[i] slots from first[i]
	m            *Matrix
}

// newStoredRows finds each stored row's slots: a block's tasks come first,
// sorted by row, so a stored row's tasks are consecutive slots.
func newStoredRows(a *ScheduleArrays, kernel string) (*storedRows, error) {
	if len(a.YLocal) != a.Blocks*a.BlockSize || len(a.YOffsets) != a.Blocks+1 || len(a.YShared) != len(a.YUnique) {
		return nil, fmt.Errorf("%s: schedule %s: inconsistent array lengths", kernel, a.Label)
	}
	n := len(a.YUnique)
	sr := &storedRows{a: a, first: make([]int32, n), count: make([]int32, n),
		m: &Matrix{Name: a.Label, NCols: a.NCols, RowPtr: make([]int32, 1, n+1),
			Col: make([]int32, 0, a.NNZ), Val: make([]float64, 0, a.NNZ)}}
	for b := range a.Blocks {
		y0 := a.YOffsets[b]
		for t := a.BlockSize - 1; t >= 0; t-- {
			slot := b*a.BlockSize + t
			if yl := a.YLocal[slot]; yl != PaddingSlot {
				sr.first[y0+int32(yl)] = int32(slot)
				sr.count[y0+int32(yl)]++
			}
		}
	}
	return sr, nil
}

// take appends stored row i's tasks to the row being built.
func (sr *storedRows) take(i int32) {
	s, n := sr.first[i], sr.count[i]
	sr.m.Col = append(sr.m.Col, sr.a.Col[s:s+n]...)
	sr.m.Val = append(sr.m.Val, sr.a.Val[s:s+n]...)
}

// endRow ends the row being built (without tasks: an empty row).
func (sr *storedRows) endRow() { sr.m.RowPtr = append(sr.m.RowPtr, int32(len(sr.m.Col))) }

// format builds csr-d16's format over the rows taken, in blocks of at most
// d16MaxSlots (a larger part runs as several blocks). Its ZeroRows are rows
// of y: zero and the format's own shared rows, whose row i is y's
// rowMap[i] (bit 31 aside).
func (sr *storedRows) format(a *ScheduleArrays, rowMap, zero []int32, kernel string) (*D16, []int32, error) {
	m := sr.m
	m.NRows = len(m.RowPtr) - 1
	if len(m.Col) != a.NNZ {
		return nil, nil, fmt.Errorf("%s: schedule %s holds %d tasks, the matrix %d entries", kernel, a.Label, len(m.Col), a.NNZ)
	}
	d, err := NewD16(m, min(a.BlockSize, d16MaxSlots))
	if err != nil {
		return nil, nil, fmt.Errorf("%s (csr-d16's format over the schedule's rows): %w", kernel, err)
	}
	zero = slices.Clone(zero)
	for _, r := range d.ZeroRows {
		zero = append(zero, rowMap[r]&math.MaxInt32)
	}
	slices.Sort(zero)
	d.ZeroRows = slices.Compact(zero)
	return d, rowMap, nil
}

// d16EarlyRows reports whether spac-d16's kernels should load each
// thread's first row-list entries before gathering x (the kernel's EARLY):
// in fp32, where x and y together exceed the device's L2, whose list
// entries then come from DRAM, and where the format is narrow (wide: the
// matrix runs the wide kernel, its blocks' columns too scattered for
// 16-bit offsets). Measured (issue20.md, rounds 20 and 21): spac-d16-own on
// the 20M-row circuit (narrow), 160 MB of x and y in fp32, 381.3-382.8 us
// early against 404.3 at the stores; on circuit5M and in-2004 (44 and 11
// MB) 192.7 and 57.3 early against 187.4 and 53.4; in fp64 on the circuit
// 742.3 early against 614.7, so fp64 has no such kernel. On a 3-D mesh in a
// random order (64 MB of x and y, wide: its gathers of x are scattered, and
// the list's latency hides behind them) the early form took 890.4 and 890.6
// us against 884.9 and 884.7 at the stores (round 21).
func d16EarlyRows(info gpu.DeviceInfo, nRows, nCols int, p Precision, wide bool) bool {
	return p == FP32 && !wide && info.L2Bytes > 0 && int64(nRows+nCols)*int64(p.Bytes()) > int64(info.L2Bytes)
}

// SPACOrder returns the order of the rows and of the columns that schedule
// a induces, perm[new] = old, for spac-d16-ord: each row and column goes
// to the block holding most of its tasks, the first of equals; the blocks
// one after the other, in the order partsNear gives them; inside a block,
// and for the rows and columns without tasks, after every block, the
// original order. (order.ByParts, the order of spac reorder, also groups a
// part's shared vertices by the part they face, in RCM's sweep: here, on
// the H200, it made spac-d16-ord and spac-d16-hot 1-3% faster in fp32 but
// 9-10% slower in fp64 on a mesh and a circuit numbered at random;
// docs/gpu-bench-h200, stop 50, call c.)
// Numbered so, a block's rows and the columns they read are mostly one run
// each: csr-d16's format then needs no 24-bit wide form where the input's
// own order has no locality (a mesh numbered at random), and a sector of x
// serves several of a block's tasks. The price is two passes a product, x
// gathered into the order and y gathered back out of it.
//
// It walks the schedule's slots three times (the blocks' neighbours, then
// the rows and the columns, a core each) and keeps four int32 a row and column,
// never a copy of the tasks: the schedule holds its blocks' tasks block
// after block, so each row's and column's tasks come in block order.
func SPACOrder(a *ScheduleArrays) (rowFrom, colFrom []int32, err error) {
	if len(a.YLocal) != a.Blocks*a.BlockSize || len(a.YOffsets) != a.Blocks+1 || len(a.Col) != len(a.YLocal) {
		return nil, nil, fmt.Errorf("spac-d16-ord: schedule %s: inconsistent array lengths", a.Label)
	}
	near, tasks := partsNear(a)
	if tasks != a.NNZ {
		return nil, nil, fmt.Errorf("spac-d16-ord: schedule %s holds %d tasks, the matrix %d entries", a.Label, tasks, a.NNZ)
	}
	// Rows and columns are independent: a walk of the slots each, on two
	// cores.
	par.Do(2, func(side int) {
		if side == 0 {
			rows := newHomes(a.NRows, a.Blocks)
			eachTask(a, func(b, r, _ int32) { rows.add(r, b, near[b]) })
			rowFrom = matrices.CountingSort(rows.home, a.Blocks+1, nil)
		} else {
			cols := newHomes(a.NCols, a.Blocks)
			eachTask(a, func(b, _, c int32) { cols.add(c, b, near[b]) })
			colFrom = matrices.CountingSort(cols.home, a.Blocks+1, nil)
		}
	})
	return rowFrom, colFrom, nil
}

// eachTask calls f with every task of schedule a, block after block: its
// block, row and column.
func eachTask(a *ScheduleArrays, f func(b, r, c int32)) {
	for b := range a.Blocks {
		y0 := a.YOffsets[b]
		for slot := b * a.BlockSize; slot < (b+1)*a.BlockSize; slot++ {
			if yl := a.YLocal[slot]; yl != PaddingSlot {
				f(int32(b), a.YUnique[y0+int32(yl)], a.Col[slot])
			}
		}
	}
}

// homes finds, for each of n rows or columns, the block holding most of its
// tasks as the tasks arrive block after block: home[v] is that block's new
// number (k for a vertex without tasks), the lowest of equals.
type homes struct {
	last, run, best, home []int32
}

func newHomes(n, k int) *homes {
	h := &homes{last: make([]int32, n), run: make([]int32, n), best: make([]int32, n), home: make([]int32, n)}
	for v := range n {
		h.last[v], h.home[v] = -1, int32(k)
	}
	return h
}

// add counts a task of vertex v in block b, numbered nb.
func (h *homes) add(v, b, nb int32) {
	if h.last[v] != b {
		h.last[v], h.run[v] = b, 0
	}
	h.run[v]++
	if r := h.run[v]; r > h.best[v] || (r == h.best[v] && nb < h.home[v]) {
		h.best[v], h.home[v] = r, nb
	}
}

// partsNear returns a new number for each block of schedule a, and the
// tasks it holds: the blocks' reverse Cuthill-McKee order over the graph
// that joins two blocks holding tasks of the same row or column, so that a
// block's columns from its neighbours fall within 16-bit offsets of its own
// more often than in the schedule's numbering. Tasks come block after
// block, so joining each block to the last other block that held a task of
// the same row or column gives every block its neighbours without a pair
// per two tasks, and the graph's lists come out by block: block b's are
// the earlier blocks it joins (order.RCM counts each the other way too).
func partsNear(a *ScheduleArrays) (near []int32, tasks int) {
	k := a.Blocks
	lastRow, lastCol := make([]int32, a.NRows), make([]int32, a.NCols)
	for i := range lastRow {
		lastRow[i] = -1
	}
	for i := range lastCol {
		lastCol[i] = -1
	}
	// joined[l] == b: l is in block b's list already.
	joined := make([]int32, k)
	for i := range joined {
		joined[i] = -1
	}
	ptr, adj := make([]int64, k+1), []int32(nil)
	join := func(last []int32, v, b int32) {
		if l := last[v]; l >= 0 && l != b && joined[l] != b {
			joined[l] = b
			adj = append(adj, l)
		}
		last[v] = b
	}
	eachTask(a, func(b, r, c int32) {
		tasks++
		join(lastRow, r, b)
		join(lastCol, c, b)
		ptr[b+1] = int64(len(adj))
	})
	for b := range k { // a block without tasks: an empty list
		ptr[b+1] = max(ptr[b+1], ptr[b])
	}
	return order.Inverse(order.RCM(k, ptr, adj)), tasks
}
