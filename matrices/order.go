package matrices

import (
	"sync/atomic"

	"github.com/spac-gpu/spac/internal/par"
)

// CountingSort returns the entry indices 0 to len(key)-1 stably sorted by
// key[e], which must lie in [0, n); order, when not nil, is the permutation
// of the entries whose relative order ties keep (nil: index order). It is linear in len(key) + n: sorting nonzeros
// by row or column index never needs a comparison sort.
func CountingSort(key []int32, n int, order []int32) []int32 {
	cnt := make([]int32, n+1)
	for _, k := range key {
		cnt[k+1]++
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	out := make([]int32, len(key))
	if order == nil {
		for e, k := range key {
			out[cnt[k]] = int32(e)
			cnt[k]++
		}
		return out
	}
	for _, e := range order {
		k := key[e]
		out[cnt[k]] = e
		cnt[k]++
	}
	return out
}

// RowMajor returns the entry indices sorted by (row, col), ties by index:
// the order of the nonzeros in CSR with sorted column indices. Rows lie in
// [0, nRows) and columns in [0, nCols).
//
// Entries already in that order, as a file written row by row has them,
// are recognised in one pass and cost no sort.
func RowMajor(row, col []int32, nRows, nCols int) []int32 {
	if InRowMajor(row, col) {
		out := make([]int32, len(row))
		for e := range out {
			out[e] = int32(e)
		}
		return out
	}
	return CountingSort(row, nRows, CountingSort(col, nCols, nil))
}

// InRowMajor reports whether the entries are sorted by (row, col). Ranges
// of the entries are checked in parallel, each stopping once any has found
// a pair out of order.
func InRowMajor(row, col []int32) bool {
	m := len(row)
	var unsorted atomic.Bool
	par.DoRanges(m, rowMajorRun, func(lo, hi int) {
		for e := max(lo, 1); e < hi && !unsorted.Load(); e++ {
			if r, q := row[e], row[e-1]; r < q || (r == q && col[e] < col[e-1]) {
				unsorted.Store(true)
			}
		}
	})
	return !unsorted.Load()
}

// rowMajorRun is the entries InRowMajor checks as one task.
const rowMajorRun = 1 << 20
