package order

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
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

// otherOracle is, for each of n vertices, the lowest part other than
// home[v] holding one of v's entries, -1 for none.
func otherOracle(n int, vertex, part []int32, home []int) []int {
	other := make([]int, n)
	for v := range other {
		other[v] = -1
	}
	for e, v := range vertex {
		if p := int(part[e]); p != home[v] && (other[v] < 0 || p < other[v]) {
			other[v] = p
		}
	}
	return other
}

// checkByParts checks one side's ordering against the oracle: the
// vertices sorted by home part under label (nil: the partition's
// numbering; vertices without entries last), then by the other part under
// label (none first), then by their place in within.
func checkByParts(t *testing.T, side string, perm []int32, n int, vertex, part []int32, k int, label, within []int32) {
	t.Helper()
	checkPerm(t, perm, n)
	home := homeOracle(n, vertex, part, k)
	other := otherOracle(n, vertex, part, home)
	relabel := func(p int) int {
		if label == nil || p < 0 || p >= k {
			return p
		}
		return int(label[p])
	}
	place := Inverse(within)
	want := make([]int32, n)
	for v := range want {
		want[v] = int32(v)
	}
	slices.SortFunc(want, func(a, b int32) int {
		if d := relabel(home[a]) - relabel(home[b]); d != 0 {
			return d
		}
		if d := relabel(other[a]) - relabel(other[b]); d != 0 {
			return d
		}
		return int(place[a] - place[b])
	})
	if !slices.Equal(perm, want) {
		for i := range perm {
			if perm[i] != want[i] {
				t.Fatalf("%s: place %d holds %d (home %d, other %d), want %d (home %d, other %d)", side, i, perm[i], home[perm[i]], other[perm[i]], want[i], home[want[i]], other[want[i]])
			}
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
	// Columns: 0 has both its entries in part 1; 1 one in each (tie: 0),
	// so part 1 touches it too and it comes after 2 and 3, which only part
	// 0 touches; 4 is empty.
	if want := []int32{2, 3, 1, 0, 4}; !slices.Equal(cols, want) {
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
			byPart := matrices.CountingSort(part, k, nil)
			sw := newSweep(nr, nc, row, col)
			label := sw.partLabels(row, col, part, k, homes(nr, row, part, k, byPart).home, homes(nc, col, part, k, byPart).home)
			checkByParts(t, "rows", rows, nr, row, part, k, label, sw.rows)
			checkByParts(t, "columns", cols, nc, col, part, k, label, sw.cols)
		})
	}
}

// TestByPartsChain: parts that form a chain but are numbered out of it
// (as a partitioner growing parts from random seeds numbers them) are
// renumbered along the chain; parts numbered along it keep their numbers.
// The matrix is the path graph's, 8 vertices a part.
func TestByPartsChain(t *testing.T) {
	const k, per = 6, 8
	for _, tc := range []struct {
		name    string
		chain   []int32 // the part of each stretch of the path, in path order
		renamed bool
	}{
		{"in order", []int32{0, 1, 2, 3, 4, 5}, false},
		{"scattered", []int32{3, 0, 5, 1, 4, 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := k * per
			var row, col, part []int32
			for v := 0; v < n; v++ {
				for _, u := range []int{v - 1, v, v + 1} {
					if u >= 0 && u < n {
						row, col = append(row, int32(v)), append(col, int32(u))
						part = append(part, tc.chain[v/per])
					}
				}
			}
			rows, cols, err := ByParts(n, n, row, col, part, k)
			if err != nil {
				t.Fatal(err)
			}
			// Along the chain, each stretch's rows and columns stay
			// consecutive, and consecutive stretches are numbered next to
			// each other: |place of v - place of v+1| is small everywhere.
			for _, perm := range [][]int32{rows, cols} {
				place := Inverse(perm)
				worst := int32(0)
				for v := 0; v+1 < n; v++ {
					worst = max(worst, place[v+1]-place[v], place[v]-place[v+1])
				}
				if worst > 2*per {
					t.Errorf("neighbours on the path numbered %d apart, want at most %d", worst, 2*per)
				}
			}
			byPart := matrices.CountingSort(part, k, nil)
			label := newSweep(n, n, row, col).partLabels(row, col, part, k, homes(n, row, part, k, byPart).home, homes(n, col, part, k, byPart).home)
			if (label != nil) != tc.renamed {
				t.Errorf("parts renumbered: %v, want %v", label != nil, tc.renamed)
			}
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
			perm, err := ND(context.Background(), tc.n, ptr, adj, 1)
			if err != nil {
				t.Fatal(err)
			}
			checkPerm(t, perm, tc.n)
			// One direction per edge, or both: the same graph to METIS.
			bptr, badj := edges(tc.n, both(tc.arcs))
			if again, err := ND(context.Background(), tc.n, bptr, badj, 1); err != nil || !slices.Equal(again, perm) {
				t.Errorf("both directions give %v (%v), one gives %v", again, err, perm)
			}
		})
	}
}

// TestNDCancel: METIS cannot be interrupted, so ND must return when its
// context is done while the call still runs (stop 53: a --reorder nd of a
// 20M-row mesh outlived its timeout's TERM), with the context's error.
func TestNDCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	real := nodeND
	nodeND = func(g *metis.Graph, opts metis.Options) ([]int32, []int32, error) {
		close(started)
		<-release // a call that runs until the test ends
		return real(g, opts)
	}
	defer func() { nodeND = real }()
	ptr, adj := edges(400, gridArcs(20, 20))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	type result struct {
		perm []int32
		err  error
	}
	got := make(chan result, 1)
	go func() {
		perm, err := ND(ctx, 400, ptr, adj, 1)
		got <- result{perm, err}
	}()
	select {
	case r := <-got:
		if !errors.Is(r.err, context.Canceled) || r.perm != nil {
			t.Errorf("cancelled during METIS: %d entries, error %v; want none and %v", len(r.perm), r.err, context.Canceled)
		}
	case <-time.After(time.Minute): // generous: the answer is at once or never
		t.Fatal("cancelled during METIS: ND waits for the call to end")
	}
	if _, err := ND(ctx, 400, ptr, adj, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error %v, want %v", err, context.Canceled)
	}
}
