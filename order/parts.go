package order

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// ByParts returns the orderings of the rows and of the columns of a sparse
// matrix that an edge partition of its nonzeros induces (the SPAC order):
// every row and every column goes to the part holding most of its entries
// (ties to the lowest part), and the parts are numbered one after the
// other. Rows and columns without entries come last, in their original
// order. Both are perm[new] = old.
//
// Numbered this way, the rows a thread block of a row-wise CSR kernel
// (ours, or any library's) multiplies, and the x entries they read, lie
// mostly in one part's contiguous range: the locality of the SPAC schedule
// without a SPAC kernel. The rest of a part's reads fall on the vertices
// its neighbouring parts share with it, which three rules keep close, all
// by reverse Cuthill-McKee's sweep of the matrix (RCM):
//   - The parts keep the partition's numbering, or follow the sweep (each
//     part placed by the mean place of its entries' rows in it), whichever
//     numbers the parts that read each other's vertices closer (the smaller
//     sum of |p - q| over the entries read across parts). A partitioner
//     that grows parts one after another from random seeds, as
//     neighbourhood expansion does, numbers neighbours far apart, and the x
//     entries a part shares are then read long after its neighbour loaded
//     them, out of the cache; METIS's recursive bisection numbers them
//     close, and the sweep of a circuit, whose hubs make its levels wide,
//     would not.
//   - Inside a part, the vertices no other part touches come first, then
//     the shared ones grouped by the lowest other part touching them: part
//     q's reads of part p's columns fall on one run of p's, a few 32-byte
//     sectors instead of one a column.
//   - Within those groups the vertices follow the sweep, so that the rows
//     of a warp or a slice read neighbouring x.
//
// (scripts/xsectors counts what an order costs in sectors of x.)
//
// Rows and columns are ordered apart (the locality model has a vertex for
// each), so a square matrix gets two different permutations: P A Q^T, with
// y = P^T (P A Q^T)(Q x).
//
// row, col and part hold entry e's row, column and part, in [0, nRows),
// [0, nCols) and [0, k). Cost: O(nnz + nRows + nCols + k) time and memory
// (counting sorts) and RCM's (its symmetrized copy of the pattern).
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
	byPart := matrices.CountingSort(part, k, nil)
	// The two sides are independent, each a core's: R-MAT 20's SPAC order
	// in 10.5-12.3 s against 11.4-14.7 on two cores, the same peak.
	var sides [2]side
	par.Do(2, func(t int) {
		sides[t] = homes([2]int{nRows, nCols}[t], [2][]int32{row, col}[t], part, k, byPart)
	})
	rows, cols := sides[0], sides[1]
	sw := newSweep(nRows, nCols, row, col)
	label := sw.partLabels(row, col, part, k, rows.home, cols.home)
	return rows.order(k, label, sw.rows), cols.order(k, label, sw.cols), nil
}

// side is where the vertices of one side (rows or columns) go: home[v] is
// the part holding most of v's entries (k: none), other[v] the lowest
// other part holding one of them (-1: none).
type side struct{ home, other []int32 }

// homes finds the home and other part of each of n vertices; vertex[e] is
// entry e's, byPart the entries sorted by part.
func homes(n int, vertex, part []int32, k int, byPart []int32) side {
	// Entries sorted by (vertex, part): each vertex's entries come as runs
	// of equal parts, the longest run's part is the vertex's.
	sorted := matrices.CountingSort(vertex, n, byPart)
	s := side{home: make([]int32, n), other: make([]int32, n)}
	first, second := s.other, make([]int32, n)
	for v := range s.home {
		s.home[v], first[v], second[v] = int32(k), -1, -1
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
			best[v], s.home[v] = j-i, p
		}
		if first[v] < 0 {
			first[v] = p
		} else if second[v] < 0 {
			second[v] = p
		}
		i = j
	}
	for v, h := range s.home {
		if first[v] == h { // the lowest part is v's own: the next one is the other
			s.other[v] = second[v]
		}
	}
	return s
}

// order is the side's permutation under the part numbering label (nil:
// the partition's): by home part, then by other part, then in the order
// within (all the side's vertices, perm[new] = old).
func (s side) order(k int, label, within []int32) []int32 {
	home, other := s.home, make([]int32, len(s.other))
	if label != nil {
		home = make([]int32, len(s.home))
		for v, h := range s.home {
			home[v] = int32(k)
			if int(h) < k {
				home[v] = label[h]
			}
		}
	}
	for v, o := range s.other {
		other[v] = 0 // touched by no other part: first
		if o >= 0 {
			other[v] = 1 + o
			if label != nil {
				other[v] = 1 + label[o]
			}
		}
	}
	return matrices.CountingSort(home, k+1, matrices.CountingSort(other, k+1, within))
}

// sweep is RCM's order of a matrix's pattern: rows and cols list the rows
// and the columns in it, place[r] is row r's place.
type sweep struct{ rows, cols, place []int32 }

func newSweep(nRows, nCols int, row, col []int32) sweep {
	n, ptr, adj := Pattern(nRows, nCols, row, col)
	perm := RCM(n, ptr, adj)
	rows, cols := Sides(perm, nRows, nCols)
	return sweep{rows: rows, cols: cols, place: Inverse(perm)[:nRows]}
}

// Sides splits an ordering of Pattern's graph into the orderings of the
// rows and of the columns (both perm[new] = old): for a square matrix the
// one ordering serves both, else the bipartite graph's vertices are the
// rows, then the columns.
func Sides(perm []int32, nRows, nCols int) (rows, cols []int32) {
	if nRows == nCols {
		return perm, perm
	}
	rows, cols = make([]int32, 0, nRows), make([]int32, 0, nCols)
	for _, v := range perm {
		if int(v) < nRows {
			rows = append(rows, v)
		} else {
			cols = append(cols, v-int32(nRows))
		}
	}
	return rows, cols
}

// partLabels returns the parts numbered along the sweep (label[p] is part
// p's new number) where that puts the parts that read each other's rows
// and columns closer than the partition's numbering, else nil.
func (sw sweep) partLabels(row, col, part []int32, k int, rowHome, colHome []int32) []int32 {
	// Each part at the mean place of its entries' rows.
	sum, count := make([]float64, k), make([]float64, k)
	for e, p := range part {
		sum[p] += float64(sw.place[row[e]])
		count[p]++
	}
	mean := func(p int32) float64 { return sum[p] / max(count[p], 1) }
	parts := make([]int32, k)
	for p := range parts {
		parts[p] = int32(p)
	}
	slices.SortStableFunc(parts, func(a, b int32) int { return cmp.Compare(mean(a), mean(b)) })
	label := Inverse(parts)
	// The span of the reads across parts under a numbering (nil: the
	// partition's own).
	span := func(label []int32) int64 {
		var sum int64
		for e, p := range part {
			for _, q := range [2]int32{rowHome[row[e]], colHome[col[e]]} {
				if q != p {
					a, b := p, q
					if label != nil {
						a, b = label[p], label[q]
					}
					sum += int64(max(a-b, b-a))
				}
			}
		}
		return sum
	}
	if span(label) < span(nil) {
		return label
	}
	return nil
}

// Pattern is the nonzero pattern of a matrix with entries (row[e], col[e])
// as a CSR graph for RCM and ND: the rows as vertices for a square matrix
// (RCM and ND symmetrize it), else the bipartite graph of rows and columns,
// columns numbered after the rows.
func Pattern(nRows, nCols int, row, col []int32) (n int, ptr []int64, adj []int32) {
	n, shift := nRows, int32(0)
	if nRows != nCols {
		n, shift = nRows+nCols, int32(nRows)
	}
	ptr = make([]int64, n+1)
	for _, r := range row {
		ptr[r+1]++
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	adj = make([]int32, len(row))
	fill := slices.Clone(ptr[:n])
	for e, r := range row {
		adj[fill[r]] = col[e] + shift
		fill[r]++
	}
	return n, ptr, adj
}
