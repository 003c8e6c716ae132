package matrices

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRowMajor(t *testing.T) {
	row := []int32{2, 0, 2, 1, 0, 2}
	col := []int32{1, 3, 0, 2, 3, 1}
	// (0,3)#1 (0,3)#4 (1,2)#3 (2,0)#2 (2,1)#0 (2,1)#5: ties keep index order.
	if got, want := RowMajor(row, col, 3, 4), []int32{1, 4, 3, 2, 0, 5}; !slices.Equal(got, want) {
		t.Fatalf("RowMajor = %v, want %v", got, want)
	}
	// Ties follow the given order: entries 5, 2, 0 of row 2 in reverse.
	if got, want := CountingSort(row, 3, []int32{5, 4, 3, 2, 1, 0}), []int32{4, 1, 3, 5, 2, 0}; !slices.Equal(got, want) {
		t.Fatalf("CountingSort in reverse order = %v, want %v", got, want)
	}
}

// TestRowMajorOracle checks RowMajor against a stable comparison sort of the
// entry indices, on entries in no order, already in row-major order (ties
// included: the pass that recognises them must keep index order), and in
// that order but for one pair of entries.
func TestRowMajorOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n, rows, cols = 5000, 60, 40
	random := func() ([]int32, []int32) {
		row, col := make([]int32, n), make([]int32, n)
		for e := range row {
			row[e], col[e] = int32(r.IntN(rows)), int32(r.IntN(cols))
		}
		return row, col
	}
	sorted := func() ([]int32, []int32) {
		row, col := random()
		o := oracle(row, col)
		sr, sc := make([]int32, n), make([]int32, n)
		for i, e := range o {
			sr[i], sc[i] = row[e], col[e]
		}
		return sr, sc
	}
	for _, tc := range []struct {
		name string
		make func() ([]int32, []int32)
	}{
		{"in no order", random},
		{"in row-major order", sorted},
		{"in row-major order but the last two", func() ([]int32, []int32) {
			row, col := sorted()
			for row[n-1] == row[n-2] && col[n-1] == col[n-2] {
				row, col = sorted()
			}
			row[n-1], row[n-2] = row[n-2], row[n-1]
			col[n-1], col[n-2] = col[n-2], col[n-1]
			return row, col
		}},
	} {
		row, col := tc.make()
		if got, want := RowMajor(row, col, rows, cols), oracle(row, col); !slices.Equal(got, want) {
			t.Errorf("%s: RowMajor differs from a stable sort", tc.name)
		}
	}
}

// oracle is the entry indices stably sorted by (row, col).
func oracle(row, col []int32) []int32 {
	o := make([]int32, len(row))
	for e := range o {
		o[e] = int32(e)
	}
	slices.SortStableFunc(o, func(a, b int32) int {
		if row[a] != row[b] {
			return int(row[a] - row[b])
		}
		return int(col[a] - col[b])
	})
	return o
}
