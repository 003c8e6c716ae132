package order

import (
	"fmt"

	"github.com/spac-gpu/spac/matrices"
)

// ByParts returns the orderings of the rows and of the columns of a sparse
// matrix that an edge partition of its nonzeros induces (the SPAC order):
// every row and every column goes to the part holding most of its entries
// (ties to the lowest part), the parts are numbered one after the other,
// and within a part the original order is kept; rows and columns without
// entries come last, in their original order. Both are perm[new] = old.
//
// Numbered this way, the rows a thread block of a row-wise CSR kernel
// (ours, or any library's) multiplies, and the x entries they read, lie
// mostly in one part's contiguous range: the locality of the SPAC schedule
// without a SPAC kernel. Rows and columns are ordered apart (the locality
// model has a vertex for each), so a square matrix gets two different
// permutations: P A Q^T, with y = P^T (P A Q^T)(Q x).
//
// row, col and part hold entry e's row, column and part, in [0, nRows),
// [0, nCols) and [0, k). Cost: O(nnz + nRows + nCols + k) time and memory
// (counting sorts).
func ByParts(nRows, nCols int, row, col, part []int32, k int) (rowPerm, colPerm []int32, err error) {
	if len(col) != len(row) || len(part) != len(row) {
		return nil, nil, fmt.Errorf("order: %d rows, %d columns and %d parts for the entries", len(row), len(col), len(part))
	}
	for e, p := range part {
		if p < 0 || int(p) >= k {
			return nil, nil, fmt.Errorf("order: entry %d is in part %d, outside [0, %d)", e, p, k)
		}
		if r, c := row[e], col[e]; r < 0 || int(r) >= nRows || c < 0 || int(c) >= nCols {
			return nil, nil, fmt.Errorf("order: entry %d at (%d, %d) is outside the %d x %d matrix", e, r, c, nRows, nCols)
		}
	}
	return byParts(nRows, row, part, k), byParts(nCols, col, part, k), nil
}

// byParts orders the n vertices of one side: vertex[e] is entry e's vertex.
func byParts(n int, vertex, part []int32, k int) []int32 {
	// Entries sorted by (vertex, part): each vertex's entries come as runs
	// of equal parts, the longest run's part is the vertex's.
	sorted := matrices.CountingSort(vertex, n, matrices.CountingSort(part, k, nil))
	home := make([]int32, n)
	for i := range home {
		home[i] = int32(k) // no entries: after every part
	}
	best := make([]int, n)
	for i := 0; i < len(sorted); {
		v, p := vertex[sorted[i]], part[sorted[i]]
		j := i
		for j < len(sorted) && vertex[sorted[j]] == v && part[sorted[j]] == p {
			j++
		}
		// Runs of a vertex come in increasing part order, so a strictly
		// longer run is needed to move it: ties keep the lowest part.
		if j-i > best[v] {
			best[v], home[v] = j-i, p
		}
		i = j
	}
	// A stable counting sort by home part keeps the original order inside.
	return matrices.CountingSort(home, k+1, nil)
}
