package spac

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// The methods this file tests (SPAC itself has its own tests).
var blMethods = []string{"default", "random", "greedy", "wvp-random", "wvp-greedy", "hdrf", "dbh", "ne", "hep"}

// blBipartite is an SpMV-like locality graph: rows x cols, nnz random
// entries (repeats allowed), with a few dense rows and columns.
func blBipartite(rng *rand.Rand, rows, cols, nnz int) *matrices.Graph {
	g := &matrices.Graph{NumVertices: rows + cols, NumRowVertices: rows, Model: matrices.ModelSpMV}
	for i := 0; i < nnz; i++ {
		r, c := rng.IntN(rows), rng.IntN(cols)
		if rng.IntN(8) == 0 {
			r = rng.IntN(1 + rows/16) // skew: some heavy rows
		}
		if rng.IntN(8) == 0 {
			c = rng.IntN(1 + cols/16)
		}
		g.U = append(g.U, int32(r))
		g.V = append(g.V, int32(rows+c))
	}
	return g
}

// blLoopy is a square-matrix graph with self-loops, repeats and isolated
// vertices; with loops=1 every edge is a self-loop.
func blLoopy(rng *rand.Rand, n, m int, loops float64) *matrices.Graph {
	g := &matrices.Graph{NumVertices: n, NumRowVertices: n, Model: matrices.ModelGraph}
	for i := 0; i < m; i++ {
		u := rng.IntN(n - n/10) // the last tenth stays isolated
		v := rng.IntN(n - n/10)
		if rng.Float64() < loops {
			v = u
		}
		g.U = append(g.U, int32(u))
		g.V = append(g.V, int32(v))
	}
	return g
}

// blBA is a Barabasi-Albert-like graph: each new vertex joins d earlier
// vertices picked proportionally to degree; edges are listed as created.
func blBA(rng *rand.Rand, n, d int) *matrices.Graph {
	g := &matrices.Graph{NumVertices: n, NumRowVertices: n, Model: matrices.ModelGraph}
	ends := make([]int32, 0, 2*n*d)
	for v := 1; v < n; v++ {
		for j := 0; j < d && j < v; j++ {
			var w int32
			if len(ends) == 0 || rng.IntN(4) == 0 {
				w = int32(rng.IntN(v))
			} else {
				w = ends[rng.IntN(len(ends))]
			}
			g.U = append(g.U, int32(v))
			g.V = append(g.V, w)
			ends = append(ends, int32(v), w)
		}
	}
	return g
}

type blCase struct {
	name string
	g    *matrices.Graph
	inc  *matrices.Incidence
}

func blCases(t testing.TB) []blCase {
	rng := rand.New(rand.NewPCG(1, 2))
	graphs := []struct {
		name string
		g    *matrices.Graph
	}{
		{"bipartite-small", blBipartite(rng, 30, 20, 150)},
		{"bipartite", blBipartite(rng, 300, 200, 3000)},
		{"bipartite-wide", blBipartite(rng, 20, 2000, 2500)},
		{"loopy", blLoopy(rng, 200, 1500, 0.2)},
		{"all-loops", blLoopy(rng, 50, 300, 1)},
		{"ba", blBA(rng, 500, 4)},
		{"one-edge", &matrices.Graph{NumVertices: 2, NumRowVertices: 1, U: []int32{0}, V: []int32{1}}},
	}
	var cs []blCase
	for _, gr := range graphs {
		inc, err := matrices.BuildIncidence(gr.g)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, blCase{gr.name, gr.g, inc})
	}
	return cs
}

// blOptions lists (K, Cap) settings for m edges: zero slack, slack, a block
// size, one part, one edge per part.
func blOptions(t testing.TB, m int) []Options {
	var out []Options
	add := func(parts, block int) {
		k, c, err := Resolve(m, parts, block)
		if err != nil {
			return
		}
		out = append(out, Options{K: k, Cap: c, Seed: 7})
	}
	add(1, 0)
	add(2, 0)
	add(7, 0)
	add(min(64, m), 0)
	add(m, 0)
	add(0, 32)
	add(0, 100)
	out = append(out, Options{K: 5, Cap: (m+4)/5 + 10, Seed: 3}) // slack
	return out
}

func TestBaselinesValid(t *testing.T) {
	ctx := context.Background()
	for _, c := range blCases(t) {
		for _, opts := range blOptions(t, c.g.NumEdges()) {
			for _, name := range blMethods {
				t.Run(fmt.Sprintf("%s/%s/K%d-cap%d", c.name, name, opts.K, opts.Cap), func(t *testing.T) {
					meth, err := Lookup(name)
					if err != nil {
						t.Fatal(err)
					}
					p, err := meth.Partition(ctx, c.g, c.inc, opts)
					if err != nil {
						t.Fatal(err)
					}
					if p.K != opts.K {
						t.Fatalf("K = %d, want %d", p.K, opts.K)
					}
					if err := Check(c.g, p, opts.Cap); err != nil {
						t.Fatal(err)
					}
					p2, err := meth.Partition(ctx, c.g, c.inc, opts)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(p.Part, p2.Part) {
						t.Fatal("not deterministic for the same seed")
					}
				})
			}
		}
	}
}

func TestBaselinesRegistered(t *testing.T) {
	names := MethodNames()
	for _, n := range blMethods {
		if !slices.Contains(names, n) {
			t.Errorf("method %q not registered (have %v)", n, names)
		}
		if m, err := Lookup(n); err != nil || m.Name() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, m, err)
		}
	}
}

func TestBaselinesRejectImpossible(t *testing.T) {
	c := blCases(t)[1]
	m := c.g.NumEdges()
	for _, name := range blMethods {
		meth, _ := Lookup(name)
		for _, opts := range []Options{{K: 2, Cap: m/2 - 1}, {K: 0, Cap: m}, {K: 3, Cap: 0}} {
			if _, err := meth.Partition(context.Background(), c.g, c.inc, opts); err == nil {
				t.Errorf("%s with K=%d cap=%d on %d edges: no error", name, opts.K, opts.Cap, m)
			}
		}
	}
}

func TestBaselinesCancelled(t *testing.T) {
	c := blCases(t)[1]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k, cp, _ := Resolve(c.g.NumEdges(), 8, 0)
	for _, name := range blMethods {
		meth, _ := Lookup(name)
		if _, err := meth.Partition(ctx, c.g, c.inc, Options{K: k, Cap: cp}); err == nil {
			t.Errorf("%s ignored a cancelled context", name)
		}
	}
}

func TestDefaultIsRowOrderChunks(t *testing.T) {
	// Rows out of order, columns out of order within rows.
	g := &matrices.Graph{NumVertices: 7, NumRowVertices: 3, Model: matrices.ModelSpMV,
		U: []int32{2, 0, 1, 0, 2, 1, 0},
		V: []int32{3, 5, 4, 3, 6, 3, 4}}
	inc, _ := matrices.BuildIncidence(g)
	// CSR order: (0,3)e3 (0,4)e6 (0,5)e1 (1,3)e5 (1,4)e2 (2,3)e0 (2,6)e4
	want := []int32{2, 1, 2, 0, 3, 1, 0}
	p, err := Default{}.Partition(context.Background(), g, inc, Options{K: 4, Cap: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Part, want) {
		t.Fatalf("parts %v, want %v", p.Part, want)
	}
}

func TestDefaultStableOnRepeats(t *testing.T) {
	g := &matrices.Graph{NumVertices: 4, NumRowVertices: 2, Model: matrices.ModelSpMV,
		U: []int32{1, 0, 1, 0}, V: []int32{2, 3, 2, 3}}
	inc, _ := matrices.BuildIncidence(g)
	if got := matrices.RowMajor(g.U, g.V, g.NumVertices, g.NumVertices); !slices.Equal(got, []int32{1, 3, 0, 2}) {
		t.Fatalf("order %v", got)
	}
	if _, err := (Default{}).Partition(context.Background(), g, inc, Options{K: 4, Cap: 1}); err != nil {
		t.Fatal(err)
	}
}

// TestBaselineQualityOrder checks the relations expected on a power-law
// graph: every locality-aware method beats random hashing.
func TestBaselineQualityOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := blBA(rng, 20000, 5)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		t.Fatal(err)
	}
	k, cp, _ := Resolve(g.NumEdges(), 0, 256)
	copies := map[string]int64{}
	for _, name := range blMethods {
		meth, _ := Lookup(name)
		p, err := meth.Partition(context.Background(), g, inc, Options{K: k, Cap: cp, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		copies[name] = Evaluate(g, inc, p).Copies
	}
	t.Logf("copies on BA(20000,5), K=%d: %v", k, copies)
	for _, name := range []string{"greedy", "hdrf", "dbh", "wvp-random", "wvp-greedy", "default"} {
		if copies[name] >= copies["random"] {
			t.Errorf("%s: %d copies, not below random's %d", name, copies[name], copies["random"])
		}
	}
	if copies["hdrf"] >= copies["dbh"] {
		t.Errorf("hdrf %d copies, not below dbh's %d", copies["hdrf"], copies["dbh"])
	}
}

// TestWVPGreedyCover checks the placement of WVP greedy (cover, then the
// greedy rule) against the streaming rule it replaced: it needs no more
// copies, is deterministic, and holds the cap.
func TestWVPGreedyCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := blBA(rng, 5000, 8)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, block := range []int{64, 256} {
		k, cp, _ := Resolve(g.NumEdges(), 0, block)
		opts := Options{K: k, Cap: cp, Seed: 1}
		stream := wvpGreedyConfig
		stream.place = wvpPlaceStream
		ps, err := wvp(ctx, "wvp-stream", stream, g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		pc, err := WVPGreedy{}.Partition(ctx, g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		pc2, _ := WVPGreedy{}.Partition(ctx, g, inc, opts)
		if !slices.Equal(pc.Part, pc2.Part) {
			t.Errorf("block %d: two runs differ", block)
		}
		if err := Check(g, pc, cp); err != nil {
			t.Fatalf("block %d: %v", block, err)
		}
		cs, cc := Evaluate(g, inc, ps).Copies, Evaluate(g, inc, pc).Copies
		t.Logf("block %d, K=%d: stream %d copies, cover %d", block, k, cs, cc)
		if cc > cs {
			t.Errorf("block %d: cover %d copies, more than the streaming rule's %d", block, cc, cs)
		}
	}
}

// A hub in part 0 with three leaves in part 1 and one edge inside each
// part: the cover copies the hub into part 1 once rather than each leaf into
// part 0, whatever the edge order.
func TestWVPCoverCopiesTheHub(t *testing.T) {
	// Vertices 0 (hub), 1 in part 0; 2, 3, 4 (leaves) in part 1.
	g := &matrices.Graph{NumVertices: 5, NumRowVertices: 5, Model: matrices.ModelGraph,
		U: []int32{0, 2, 0, 0, 3}, V: []int32{1, 0, 3, 4, 4}}
	inc, _ := matrices.BuildIncidence(g)
	vpart := []int32{0, 0, 1, 1, 1}
	part := []int32{0, -1, -1, -1, 1}
	load := []int32{1, 1}
	sets := newVertexParts(inc, g.NumVertices)
	for e, q := range part {
		if q >= 0 {
			sets.addNew(g.U[e], q)
			sets.addNew(g.V[e], q)
		}
	}
	if err := wvpCover(context.Background(), g, inc, vpart, part, load, &sets, 10); err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 1, 1, 1}; !slices.Equal(part, want) {
		t.Errorf("parts %v, want %v", part, want)
	}
	// With room for one more edge in part 1, the pair is cut short and the
	// other edges are left to the caller.
	part = []int32{0, -1, -1, -1, 1}
	load = []int32{1, 1}
	sets = newVertexParts(inc, g.NumVertices)
	if err := wvpCover(context.Background(), g, inc, vpart, part, load, &sets, 2); err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, -1, -1, 1}; !slices.Equal(part, want) {
		t.Errorf("with cap 2: parts %v, want %v", part, want)
	}
}

// WVP greedy sends a cut edge whose pairs serve no other edge to a third
// part that already holds both endpoints: vertices 0 and 1 (vertex parts 0
// and 1) are copied into part 2 by the cover, for their two edges each to
// part 2's vertices, so their own edge (0,1) goes there too, for no copy,
// where the endpoint parts 0 and 1 would copy 1 or 0. With part 2 full
// (cap 5) the edge still goes there rather than make a copy, and the cap
// pass then moves one edge out.
func TestWVPGreedyThirdPart(t *testing.T) {
	// Vertices 0, 4 in part 0; 1, 5 in part 1; 2, 3 in part 2.
	g := &matrices.Graph{NumVertices: 6, NumRowVertices: 6, Model: matrices.ModelGraph,
		U: []int32{0, 0, 1, 2, 0, 0, 1, 1}, V: []int32{1, 4, 5, 3, 2, 3, 2, 3}}
	inc, _ := matrices.BuildIncidence(g)
	vpart := []int32{0, 1, 2, 2, 0, 1}
	want := []int32{2, 0, 1, 2, 2, 2, 2, 2}
	for _, tc := range []struct {
		cap    int
		moved  int
		copies int64
	}{
		{6, 0, 2}, // 0 and 1 copied into part 2
		{5, 1, 3}, // and one more copy for the edge the cap pass moves
	} {
		opts := Options{K: 3, Cap: tc.cap, Seed: 1}
		part, err := wvpPlaceEdges(context.Background(), wvpGreedyConfig.place, g, inc, vpart, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(part, want) {
			t.Errorf("cap %d: parts %v, want %v", tc.cap, part, want)
		}
		p := Partition{K: 3, Part: part}
		moved, err := EnforceCap(g, inc, &p, tc.cap)
		if err != nil || moved != tc.moved {
			t.Errorf("cap %d: cap pass moved %d edges (%v), want %d", tc.cap, moved, err, tc.moved)
		}
		if err := Check(g, p, tc.cap); err != nil {
			t.Errorf("cap %d: %v", tc.cap, err)
		}
		if got := Evaluate(g, inc, p).Copies; got != tc.copies {
			t.Errorf("cap %d: %d copies, want %d", tc.cap, got, tc.copies)
		}
	}
}
