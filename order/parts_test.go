package order

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// homeOracle is the part of each of n vertices by direct counting: the part
// with the most entries, the lowest on ties, k for a vertex without any.
func homeOracle(n int, vertex, part []int32, k int) []int {
	count := make([]map[int]int, n)
	for e, v := range vertex {
		if count[v] == nil {
			count[v] = map[int]int{}
		}
		count[v][int(part[e])]++
	}
	home := make([]int, n)
	for v := range home {
		home[v] = k
		best := 0
		for p := 0; p < k; p++ {
			if c := count[v][p]; c > best {
				best, home[v] = c, p
			}
		}
	}
	return home
}

// checkByParts checks one side's ordering against the oracle: a
// permutation, vertices by home part, original order within a part.
func checkByParts(t *testing.T, side string, perm []int32, n int, vertex, part []int32, k int) {
	t.Helper()
	checkPerm(t, perm, n)
	home := homeOracle(n, vertex, part, k)
	for i := 1; i < n; i++ {
		a, b := perm[i-1], perm[i]
		if home[a] > home[b] || (home[a] == home[b] && a > b) {
			t.Fatalf("%s: %d (part %d) before %d (part %d)", side, a, home[a], b, home[b])
		}
	}
}

func TestByParts(t *testing.T) {
	// A 4 x 5 matrix in two parts: row 0 has two entries in part 1 and one
	// in part 0; row 2 one in each (tie: part 0); row 3 is empty; column 4
	// is empty.
	row := []int32{0, 0, 0, 1, 2, 2}
	col := []int32{0, 1, 2, 3, 1, 0}
	part := []int32{1, 1, 0, 0, 0, 1}
	rows, cols, err := ByParts(4, 5, row, col, part, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Rows: part 0 holds 1 and 2, part 1 holds 0, then the empty row 3.
	if want := []int32{1, 2, 0, 3}; !slices.Equal(rows, want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
	// Columns: 0 has both its entries in part 1; 1 one in each (tie: 0);
	// 2 and 3 are in part 0; 4 is empty.
	if want := []int32{1, 2, 3, 0, 4}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}

	for seed := uint64(0); seed < 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		nr, nc, k := 1+rng.IntN(300), 1+rng.IntN(300), 1+rng.IntN(20)
		nnz := rng.IntN(2000)
		row, col, part := make([]int32, nnz), make([]int32, nnz), make([]int32, nnz)
		for e := range nnz {
			row[e], col[e], part[e] = int32(rng.IntN(nr)), int32(rng.IntN(nc)), int32(rng.IntN(k))
		}
		t.Run(fmt.Sprintf("random %dx%d nnz=%d k=%d", nr, nc, nnz, k), func(t *testing.T) {
			rows, cols, err := ByParts(nr, nc, row, col, part, k)
			if err != nil {
				t.Fatal(err)
			}
			checkByParts(t, "rows", rows, nr, row, part, k)
			checkByParts(t, "columns", cols, nc, col, part, k)
		})
	}
}

func TestByPartsErrors(t *testing.T) {
	for _, tc := range []struct {
		name            string
		row, col, part  []int32
		nRows, nCols, k int
	}{
		{"lengths", []int32{0}, []int32{0, 1}, []int32{0}, 2, 2, 1},
		{"part out of range", []int32{0}, []int32{0}, []int32{1}, 2, 2, 1},
		{"negative part", []int32{0}, []int32{0}, []int32{-1}, 2, 2, 1},
		{"row out of range", []int32{2}, []int32{0}, []int32{0}, 2, 2, 1},
		{"column out of range", []int32{0}, []int32{-1}, []int32{0}, 2, 2, 1},
	} {
		if _, _, err := ByParts(tc.nRows, tc.nCols, tc.row, tc.col, tc.part, tc.k); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestND(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, tc := range []struct {
		name string
		n    int
		arcs [][2]int32
	}{
		{"empty", 0, nil},
		{"single vertex", 1, [][2]int32{{0, 0}}},
		{"grid 20x20 shuffled", 400, relabel(gridArcs(20, 20), shuffled(rng, 400))},
		{"disconnected", 8, [][2]int32{{0, 2}, {2, 4}, {1, 3}, {3, 5}, {5, 7}, {6, 6}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptr, adj := edges(tc.n, tc.arcs)
			perm, err := ND(tc.n, ptr, adj, 1)
			if err != nil {
				t.Fatal(err)
			}
			checkPerm(t, perm, tc.n)
			// One direction per edge, or both: the same graph to METIS.
			bptr, badj := edges(tc.n, both(tc.arcs))
			if again, err := ND(tc.n, bptr, badj, 1); err != nil || !slices.Equal(again, perm) {
				t.Errorf("both directions give %v (%v), one gives %v", again, err, perm)
			}
		})
	}
}
