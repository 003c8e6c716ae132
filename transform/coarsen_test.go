package transform

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// Coarsening keeps the graph's total vertex weight and edge weight outside
// the merged pairs: a coarse edge weighs the sum of the fine edges it
// stands for, Map sends every fine vertex to a coarse one of at most
// maxWeight (or to a single vertex), and the coarse graph is valid CSR. A
// partition projected back cuts exactly what it cut on the coarse graph.
func TestCoarsenProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		w := randomContracted(t, r, Walk)
		var weight []int32
		for level := 0; level < 3; level++ {
			n := w.NumVertices()
			maxWeight := int32(2 + r.IntN(6))
			lv, err := (&Coarsener{Across: trial%2 == 1}).Coarsen(w, weight, maxWeight, nil)
			if err != nil {
				t.Fatal(err)
			}
			cw := lv.Graph
			checkCSR(t, cw)
			nc := cw.NumVertices()
			if len(lv.Map) != n || len(lv.Weight) != nc {
				t.Fatalf("trial %d: map of %d for %d vertices, %d weights for %d coarse", trial, len(lv.Map), n, len(lv.Weight), nc)
			}
			sum := make([]int32, nc)
			members := make([]int, nc)
			for v, c := range lv.Map {
				if c < 0 || int(c) >= nc {
					t.Fatalf("trial %d: vertex %d maps to %d of %d", trial, v, c, nc)
				}
				sum[c] += vertexWeight(weight, int32(v))
				members[c]++
			}
			for c := range sum {
				if sum[c] != lv.Weight[c] || members[c] < 1 || members[c] > 2 || (members[c] == 2 && sum[c] > maxWeight) {
					t.Fatalf("trial %d: coarse vertex %d: %d members weighing %d, recorded %d (max %d)", trial, c, members[c], sum[c], lv.Weight[c], maxWeight)
				}
			}
			// Any coarse partition cuts the same on both graphs.
			coarsePart := make([]int32, nc)
			for i := range coarsePart {
				coarsePart[i] = int32(r.IntN(3))
			}
			finePart := make([]int32, n)
			for v, c := range lv.Map {
				finePart[v] = coarsePart[c]
			}
			if a, b := cut(cw, coarsePart), cut(w, finePart); a != b {
				t.Fatalf("trial %d: coarse cut %d, projected fine cut %d", trial, a, b)
			}
			w, weight = cw, lv.Weight
		}
	}
}

// Reserve is told, before the next level is allocated, at least its
// adjacency's and weights' 8 bytes an entry and 4 a vertex of the map (the
// room a level is built in: the finer entries less two a pair); its error
// stops Coarsen.
func TestCoarsenReserve(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		w := randomContracted(t, r, Walk)
		var asked int64
		cs := &Coarsener{Across: trial%2 == 1, Reserve: func(b int64) error { asked = b; return nil }}
		lv, err := cs.Coarsen(w, nil, int32(2+r.IntN(6)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if need := 8*int64(len(lv.Graph.Adjncy)) + 4*int64(w.NumVertices()); asked < need {
			t.Fatalf("trial %d: %d bytes reserved, the level takes at least %d", trial, asked, need)
		}
		stop := errors.New("no room")
		cs.Reserve = func(int64) error { return stop }
		if _, err := cs.Coarsen(w, nil, 4, nil); !errors.Is(err, stop) {
			t.Fatalf("trial %d: Reserve's error not returned: %v", trial, err)
		}
	}
}

// The result depends on the graph alone, not on how many cores run it.
func TestCoarsenDeterministic(t *testing.T) {
	for _, across := range []bool{false, true} {
		coarsenDeterministic(t, across)
	}
}

func coarsenDeterministic(t *testing.T, across bool) {
	w := cantContracted(t, 0.05)
	first, err := (&Coarsener{Across: across}).Coarsen(w, nil, 64, nil)
	if err != nil {
		t.Fatal(err)
	}
	if 10*first.Graph.NumVertices() > 6*w.NumVertices() {
		t.Errorf("one level kept %d of %d vertices", first.Graph.NumVertices(), w.NumVertices())
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	again, err := (&Coarsener{Across: across}).Coarsen(w, nil, 64, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.Map, again.Map) || !slices.Equal(first.Graph.Adjncy, again.Graph.Adjncy) || !slices.Equal(first.Graph.Adjwgt, again.Graph.Adjwgt) {
		t.Errorf("across %v: coarsening on one core differs from coarsening on all", across)
	}
}

// BenchmarkCoarsen: one level of a cant-sized contracted graph (2M vertices).
func BenchmarkCoarsen(b *testing.B) {
	w := cantContracted(b, 1)
	var cs Coarsener
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.Coarsen(w, nil, 64, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkContract: the cant stand-in's SpMV locality graph (4M tasks)
// contracted in walk order.
func BenchmarkContract(b *testing.B) {
	m, err := matrices.Preset("cant", 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(m, matrices.ModelSpMV)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Contract(g, inc, Walk); err != nil {
			b.Fatal(err)
		}
	}
}

// cantContracted builds the cant preset at scale, its SpMV locality graph
// and the walk-ordered contraction of that graph.
func cantContracted(tb testing.TB, scale float64) *WeightedGraph {
	tb.Helper()
	m, err := matrices.Preset("cant", scale, 1)
	if err != nil {
		tb.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(m, matrices.ModelSpMV)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := Contract(g, inc, Walk)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// TestReleaseKeepsTheRest: giving back the pages of a tail leaves the rest
// of the array as it was, whatever the alignment, and reads back as zeros.
func TestReleaseKeepsTheRest(t *testing.T) {
	for _, n := range []int{0, 1, 3000, 1 << 20} {
		s := bigInt32s(n)
		for i := range s {
			s[i] = int32(i) + 1
		}
		keep := n / 3
		release(s[keep:])
		for i := range keep {
			if s[i] != int32(i)+1 {
				t.Fatalf("n=%d: s[%d] = %d after releasing s[%d:]", n, i, s[i], keep)
			}
		}
		for i := keep; i < n; i++ {
			if s[i] != 0 && s[i] != int32(i)+1 {
				t.Fatalf("n=%d: released s[%d] = %d, want 0 or what was there", n, i, s[i])
			}
		}
	}
}

// With Across, pairs that the ranges cut are still made: a graph whose every
// edge joins the two halves of the vertices (a ring numbered at random is
// mostly such), coarsened in one level to half its vertices.
func TestCoarsenPairsAcrossRanges(t *testing.T) {
	const n = 64 // eight ranges of eight: i and i+32 always lie in different ones
	w := &WeightedGraph{Xadj: make([]int32, n+1)}
	for v := int32(0); v < n; v++ {
		w.Adjncy = append(w.Adjncy, (v+n/2)%n)
		w.Adjwgt = append(w.Adjwgt, 3)
		w.Xadj[v+1] = int32(len(w.Adjncy))
	}
	lv, err := new(Coarsener).Coarsen(w, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nc := lv.Graph.NumVertices(); nc != n { // without Across the ranges pair alone, as before
		t.Fatalf("without Across: %d coarse vertices, want %d", nc, n)
	}
	lv, err = (&Coarsener{Across: true}).Coarsen(w, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nc := lv.Graph.NumVertices(); nc != n/2 {
		t.Fatalf("%d coarse vertices, want %d", nc, n/2)
	}
	for v := 0; v < n/2; v++ {
		if lv.Map[v] != lv.Map[v+n/2] {
			t.Fatalf("vertices %d and %d not merged", v, v+n/2)
		}
	}

	// A ring of 80,000 numbered at random: heavy-edge matching pairs about
	// every vertex whatever the numbering.
	r := rand.New(rand.NewPCG(7, 8))
	const m = 80_000
	label := r.Perm(m)
	adj := make([][]int32, m)
	for i := range m {
		a, b := int32(label[i]), int32(label[(i+1)%m])
		adj[a] = append(adj[a], b)
		adj[b] = append(adj[b], a)
	}
	ring := &WeightedGraph{Xadj: make([]int32, m+1)}
	for v := range m {
		ring.Adjncy = append(ring.Adjncy, adj[v]...)
		ring.Xadj[v+1] = int32(len(ring.Adjncy))
	}
	ring.Adjwgt = make([]int32, len(ring.Adjncy))
	for i := range ring.Adjwgt {
		ring.Adjwgt[i] = 1
	}
	lv, err = (&Coarsener{Across: true}).Coarsen(ring, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCSR(t, lv.Graph)
	if nc := lv.Graph.NumVertices(); nc > m*60/100 {
		t.Fatalf("a ring numbered at random: %d of %d vertices left after one level", nc, m)
	}
}
