package transform

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Unpack gives back exactly the graph and vertex weights packed, row order
// included, with and without edge and vertex weights, on contracted and
// coarsened random graphs and on a graph whose neighbours lie as far from
// their vertex as int32 allows.
func TestPackRoundTrip(t *testing.T) {
	defer func(c int) { packChunk = c }(packChunk)
	r := rand.New(rand.NewPCG(9, 10))
	check := func(what string, w *WeightedGraph, weight []int32) {
		t.Helper()
		p := Pack(w, weight)
		got, gotWeight := p.Unpack()
		if !slices.Equal(got.Xadj, w.Xadj) || !slices.Equal(got.Adjncy, w.Adjncy) || !slices.Equal(got.Adjwgt, w.Adjwgt) ||
			(got.Adjwgt == nil) != (w.Adjwgt == nil) || !slices.Equal(gotWeight, weight) || (gotWeight == nil) != (weight == nil) {
			t.Fatalf("%s: unpacked graph differs from the one packed", what)
		}
		if p.Bytes() <= 0 {
			t.Fatalf("%s: %d bytes", what, p.Bytes())
		}
		got, gotWeight = p.Drain()
		if !slices.Equal(got.Xadj, w.Xadj) || !slices.Equal(got.Adjncy, w.Adjncy) || !slices.Equal(got.Adjwgt, w.Adjwgt) ||
			!slices.Equal(gotWeight, weight) || (gotWeight == nil) != (weight == nil) {
			t.Fatalf("%s: drained graph differs from the one packed", what)
		}
		if p.Bytes() != 0 {
			t.Fatalf("%s: %d bytes left after Drain", what, p.Bytes())
		}
	}
	for trial := 0; trial < 200; trial++ {
		packChunk = 1 + r.IntN(100)
		g, inc := randomGraph(r)
		w, err := Contract(g, inc, Order(r.IntN(4)))
		if err != nil {
			t.Fatal(err)
		}
		check("contracted", w, nil)
		lv, err := new(Coarsener).Coarsen(w, nil, int32(2+r.IntN(6)), nil)
		if err != nil {
			t.Fatal(err)
		}
		check("coarsened", lv.Graph, lv.Weight)
		s, err := SplitConnect(g, inc, Cycle, int32(1+r.IntN(1<<16)))
		if err != nil {
			t.Fatal(err)
		}
		check("split", s, nil)
	}
	const far = 1<<31 - 2
	w := &WeightedGraph{Xadj: []int32{0, 1, 1, 2}, Adjncy: []int32{far, 0}, Adjwgt: []int32{1 << 30, 1 << 30}}
	weight := []int32{7, 1, 1<<31 - 1}
	// Only the arrays are read: a graph of far+1 vertices need not exist.
	p := &Packed{n: 3, entries: 2, weighted: true, vertexWeighted: true, chunks: []packedChunk{{data: make([]byte, 50)}}}
	p.chunks[0].data = p.chunks[0].data[:p.encode(w, weight, 0, 3, p.chunks[0].data)]
	got, gotWeight := p.Unpack()
	if !slices.Equal(got.Adjncy, w.Adjncy) || !slices.Equal(got.Adjwgt, w.Adjwgt) || !slices.Equal(got.Xadj, w.Xadj) || !slices.Equal(gotWeight, weight) {
		t.Fatalf("far neighbours: got %v %v %v %v", got.Xadj, got.Adjncy, got.Adjwgt, gotWeight)
	}
	check("empty", &WeightedGraph{Xadj: []int32{0}}, nil)
}

// UnpackMap gives back exactly the map packed: coarsening maps, and maps
// of every shape (empty, decreasing, far jumps, int32's extremes).
func TestPackMapRoundTrip(t *testing.T) {
	defer func(c int) { packChunk = c }(packChunk)
	r := rand.New(rand.NewPCG(11, 12))
	check := func(what string, m []int32) {
		t.Helper()
		p := PackMap(m)
		if got := p.Unpack(); !slices.Equal(got, m) {
			t.Fatalf("%s: unpacked %v, packed %v", what, got, m)
		}
		if got := p.Drain(); !slices.Equal(got, m) || len(p.chunks) != 0 {
			t.Fatalf("%s: drained %v (%d chunks left), packed %v", what, got, len(p.chunks), m)
		}
	}
	for trial := 0; trial < 200; trial++ {
		packChunk = 1 + r.IntN(100)
		w := randomContracted(t, r, Walk)
		lv, err := new(Coarsener).Coarsen(w, nil, int32(2+r.IntN(6)), nil)
		if err != nil {
			t.Fatal(err)
		}
		check("coarsening map", lv.Map)
		m := make([]int32, r.IntN(300))
		for i := range m {
			m[i] = r.Int32N(int32(min(1<<uint(r.IntN(32)), 1<<31-1)))
		}
		check("random", m)
	}
	check("empty", nil)
	check("extremes", []int32{1<<31 - 1, 0, 1<<31 - 1, 5, 0})
}

// Drain gives the pages of each chunk back once decoded: with chunks of
// many pages the graph and map still come back whole, and the room given
// back serves the next arrays (read again, it is zero, not stale).
func TestDrainLargeChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	const n = 1 << 19
	xadj := make([]int32, n+1)
	adj := make([]int32, 0, 8*n)
	for v := range n {
		for range 1 + r.IntN(15) {
			adj = append(adj, int32(r.IntN(n)))
		}
		xadj[v+1] = int32(len(adj))
	}
	w := &WeightedGraph{Xadj: xadj, Adjncy: adj}
	p := Pack(w, nil)
	if len(p.chunks) < 2 || len(p.chunks[0].data) < 4<<13 {
		t.Fatalf("%d chunks of %d bytes: want several of many pages", len(p.chunks), len(p.chunks[0].data))
	}
	got, _ := p.Drain()
	if !slices.Equal(got.Xadj, w.Xadj) || !slices.Equal(got.Adjncy, w.Adjncy) {
		t.Fatal("drained graph differs from the one packed")
	}
	pm := PackMap(adj)
	if m := pm.Drain(); !slices.Equal(m, adj) {
		t.Fatal("drained map differs from the one packed")
	}
	for range 3 { // the room given back, reused
		q := Pack(w, nil)
		if again, _ := q.Unpack(); !slices.Equal(again.Adjncy, w.Adjncy) {
			t.Fatal("a graph packed after a drain differs")
		}
	}
}

// packLevels are the graphs the pack benchmarks pack: the cant stand-in's
// contracted graph (4M vertices, no weights) and its first coarse level
// (edge and vertex weights), as the multilevel scheme packs them.
func packLevels(b *testing.B) map[string]struct {
	w      *WeightedGraph
	weight []int32
} {
	w := cantContracted(b, 1)
	lv, err := new(Coarsener).Coarsen(w, nil, 1<<20, nil)
	if err != nil {
		b.Fatal(err)
	}
	return map[string]struct {
		w      *WeightedGraph
		weight []int32
	}{"finest": {w, nil}, "coarse": {lv.Graph, lv.Weight}}
}

func BenchmarkPack(b *testing.B) {
	for _, name := range []string{"finest", "coarse"} {
		g := packLevels(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * int64(len(g.w.Adjncy)))
			for b.Loop() {
				Pack(g.w, g.weight)
			}
		})
	}
}

func BenchmarkUnpack(b *testing.B) {
	for _, name := range []string{"finest", "coarse"} {
		g := packLevels(b)[name]
		p := Pack(g.w, g.weight)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * int64(len(g.w.Adjncy)))
			for b.Loop() {
				p.Unpack()
			}
		})
	}
}
