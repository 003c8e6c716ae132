package graph_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/matrices"
)

type arc struct {
	u, v int32
	w    float32
}

// naiveArcs is the oracle: the sorted multiset of arcs the options ask for,
// built one edge at a time.
func naiveArcs(e *graph.Edges, g *graph.Graph, opt graph.Options) []arc {
	var out []arc
	id := func(v int32) int32 {
		if g.NewID != nil {
			return g.NewID[v]
		}
		return v
	}
	undirected := !e.Directed || opt.Undirected
	for i := range e.Src {
		u, v := id(e.Src[i]), id(e.Dst[i])
		var w float32
		switch opt.Weights.Kind {
		case graph.FileWeights:
			w = float32(e.Val[i])
		case graph.UniformInt, graph.UniformFloat:
			w = -1 // generated: compared as a multiset without weights
		}
		if u == v {
			if !opt.DropSelfLoops {
				out = append(out, arc{u, u, w})
			}
			continue
		}
		out = append(out, arc{u, v, w})
		if undirected {
			out = append(out, arc{v, u, w})
		}
	}
	slices.SortFunc(out, cmpArc)
	if opt.Dedupe {
		out = slices.CompactFunc(out, func(a, b arc) bool { return a.u == b.u && a.v == b.v })
	}
	return out
}

func cmpArc(a, b arc) int {
	if a.u != b.u {
		return int(a.u) - int(b.u)
	}
	if a.v != b.v {
		return int(a.v) - int(b.v)
	}
	if a.w < b.w {
		return -1
	}
	if a.w > b.w {
		return 1
	}
	return 0
}

func arcsOf(g *graph.Graph, generated bool) []arc {
	var out []arc
	for u := range g.NumVertices {
		for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
			a := arc{u: int32(u), v: g.Adj[e]}
			if g.Weight != nil {
				a.w = g.Weight[e]
				if generated {
					a.w = -1
				}
			}
			out = append(out, a)
		}
	}
	return out
}

var optionSets = []graph.Options{
	{},
	{Dedupe: true},
	{DropSelfLoops: true},
	{Undirected: true, Dedupe: true, DropSelfLoops: true, Transpose: true},
	{Transpose: true, Relabel: graph.RelabelDegree},
	{Relabel: graph.RelabelRandom, Seed: 7, Weights: graph.Weights{Kind: graph.UniformInt, Max: 10}},
	{Dedupe: true, Weights: graph.Weights{Kind: graph.FileWeights}, Transpose: true},
	{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 3, Transpose: true},
}

// TestBuildProperties builds random edge lists of every shape under every
// option set and checks the invariants, the arcs against the naive oracle,
// the input counts, weight symmetry and determinism at GOMAXPROCS=1.
func TestBuildProperties(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, shape := range []struct {
			n, m     int
			directed bool
		}{{1, 0, false}, {1, 3, true}, {7, 0, false}, {10, 60, false}, {10, 60, true}, {300, 700, false}, {300, 700, true}, {5000, 1 << 17, false}, {100000, 1 << 17, true}} {
			if shape.m > 1<<16 && seed > 1 {
				continue // the large shape once: it is there for the parallel paths
			}
			e := traversaltest.Random("random", shape.n, shape.m, shape.directed, seed)
			e.Val = make([]float64, len(e.Src))
			for i := range e.Val {
				e.Val[i] = float64(i % 5)
			}
			for oi, opt := range optionSets {
				name := fmt.Sprintf("seed=%d/n=%d,m=%d,directed=%t/opt%d", seed, shape.n, shape.m, shape.directed, oi)
				g, err := graph.Build(e, opt)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkGraph(t, name, e, g, opt)
				if shape.m >= 1<<16 {
					prev := runtime.GOMAXPROCS(1)
					g1, err := graph.Build(e, opt)
					runtime.GOMAXPROCS(prev)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(g.Offsets, g1.Offsets) || !slices.Equal(g.Adj, g1.Adj) || !slices.Equal(g.Weight, g1.Weight) || !slices.Equal(g.NewID, g1.NewID) {
						t.Fatalf("%s: the graph differs at GOMAXPROCS=1", name)
					}
				}
			}
		}
	}
}

func checkGraph(t *testing.T, name string, e *graph.Edges, g *graph.Graph, opt graph.Options) {
	t.Helper()
	if err := g.Check(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	generated := opt.Weights.Kind == graph.UniformInt || opt.Weights.Kind == graph.UniformFloat
	want := naiveArcs(e, g, opt)
	got := arcsOf(g, generated)
	if generated && opt.Dedupe {
		t.Fatalf("%s: test options: dedupe with generated weights is not covered by the oracle", name)
	}
	if !slices.EqualFunc(got, want, func(a, b arc) bool { return cmpArc(a, b) == 0 }) {
		t.Fatalf("%s: %d arcs, the oracle has %d (first: %v vs %v)", name, len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
	}
	src := g.Sources()
	var maxDeg int64
	for u := range g.NumVertices {
		maxDeg = max(maxDeg, g.Degree(int32(u)))
		for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
			if src[e] != int32(u) {
				t.Fatalf("%s: Sources()[%d] = %d, want %d", name, e, src[e], u)
			}
		}
	}
	if maxDeg != g.MaxDegree() {
		t.Fatalf("%s: MaxDegree %d, want %d", name, g.MaxDegree(), maxDeg)
	}
	if g.InputEdges != int64(len(e.Src)) {
		t.Fatalf("%s: %d input edges, want %d", name, g.InputEdges, len(e.Src))
	}
	if g.Directed != (e.Directed && !opt.Undirected) {
		t.Fatalf("%s: directed = %t", name, g.Directed)
	}
	if !g.Directed && g.Weight != nil {
		// Both arcs of an undirected edge carry the same weight: the arcs
		// with weights, reversed, are the same multiset.
		fw := arcsOf(g, false)
		rev := make([]arc, len(fw))
		for i, a := range fw {
			rev[i] = arc{a.v, a.u, a.w}
		}
		slices.SortFunc(rev, cmpArc)
		if !slices.Equal(fw, rev) {
			t.Fatalf("%s: the weights of an undirected graph are not symmetric", name)
		}
	}
	if g.NewID != nil {
		for old, nw := range g.NewID {
			if g.OldID[nw] != int32(old) {
				t.Fatalf("%s: NewID and OldID are not inverse at %d", name, old)
			}
		}
	}
	if opt.Relabel == graph.RelabelDegree {
		deg := make([]int, g.NumVertices)
		for i := range e.Src {
			deg[g.NewID[e.Src[i]]]++
			if e.Src[i] != e.Dst[i] {
				deg[g.NewID[e.Dst[i]]]++
			}
		}
		for v := 1; v < g.NumVertices; v++ {
			if deg[v] > deg[v-1] {
				t.Fatalf("%s: vertex %d has degree %d, more than vertex %d's %d", name, v, deg[v], v-1, deg[v-1])
			}
		}
	}
}

// TestInputCounts: every input edge is counted at its source, duplicates
// and self-loops included, whatever the CSR drops.
func TestInputCounts(t *testing.T) {
	e := traversaltest.List("counts", 4, false, 0, 1, 1, 0, 0, 1, 2, 2, 3, 2)
	g, err := graph.Build(e, graph.Options{Dedupe: true, DropSelfLoops: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{2, 1, 1, 1}; !slices.Equal(g.InputCount, want) {
		t.Errorf("input counts %v, want %v", g.InputCount, want)
	}
	if g.NumArcs() != 4 || g.DroppedSelfLoops != 1 || g.DroppedDuplicates != 4 {
		t.Errorf("%d arcs, %d self-loops and %d duplicates dropped; want 4, 1, 4", g.NumArcs(), g.DroppedSelfLoops, g.DroppedDuplicates)
	}
	if got := g.ReachedInputEdges([]int32{0, 0, -1, -1}); got != 3 {
		t.Errorf("component {0,1}: %d input edges, want 3", got)
	}
}

// TestDedupeKeepsLightest: a repeated edge keeps its lightest weight, in
// both directions of an undirected graph.
func TestDedupeKeepsLightest(t *testing.T) {
	e := traversaltest.List("lightest", 2, false, 0, 1, 1, 0, 0, 1)
	e.Val = []float64{5, 2, 9}
	g, err := graph.Build(e, graph.Options{Dedupe: true, Weights: graph.Weights{Kind: graph.FileWeights}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Weight, []float32{2, 2}) || !g.Integer {
		t.Errorf("weights %v (integer %t), want [2 2] integer", g.Weight, g.Integer)
	}
	ws, err := g.IntWeights()
	if err != nil || !slices.Equal(ws, []int32{2, 2}) {
		t.Errorf("int weights %v, %v", ws, err)
	}
}

// TestFromFiles: each format the toolkit reads gives the directedness its
// reader implies.
func TestFromFiles(t *testing.T) {
	cases := []struct {
		name, text string
		opt        matrices.ReadOptions
		directed   bool
		arcs       int64
		input      int64
	}{
		{"general.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1.5\n2 3 2\n3 3 1\n", matrices.ReadOptions{}, true, 3, 3},
		{"symmetric.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 2\n3 3\n", matrices.ReadOptions{}, false, 5, 3},
		{"graph.txt", "0 1\n1 2\n2 2\n", matrices.ReadOptions{}, false, 5, 3},
		{"directed.txt", "0 1\n1 2\n2 2\n", matrices.ReadOptions{EdgeList: matrices.EdgeListOptions{Directed: true}}, true, 3, 3},
		{"m.graph", "3 2\n2\n1 3\n2\n", matrices.ReadOptions{}, false, 4, 2},
	}
	for _, c := range cases {
		m, err := matrices.Read(strings.NewReader(c.text), c.name, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e, err := graph.FromCOO(m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g, err := graph.Build(e, graph.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.Directed != c.directed || g.NumArcs() != c.arcs || g.InputEdges != c.input {
			t.Errorf("%s: directed %t, %d arcs, %d input edges; want %t, %d, %d", c.name, g.Directed, g.NumArcs(), g.InputEdges, c.directed, c.arcs, c.input)
		}
		if err := g.Check(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	m, _ := matrices.Read(strings.NewReader(cases[0].text), "w.mtx", matrices.ReadOptions{})
	e, _ := graph.FromCOO(m)
	g, err := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}, Undirected: true})
	if err != nil || g.Directed || g.Integer || !slices.Equal(g.Weight, []float32{1.5, 1.5, 2, 2, 1}) {
		t.Errorf("general file made undirected with its weights: %v, directed %t, integer %t, %v", g.Weight, g.Directed, g.Integer, err)
	}
}

func TestErrors(t *testing.T) {
	neg := traversaltest.List("neg", 2, false, 0, 1)
	neg.Val = []float64{-1}
	nan := traversaltest.List("nan", 2, false, 0, 1)
	nan.Val = []float64{math.NaN()}
	cases := []struct {
		name string
		e    *graph.Edges
		opt  graph.Options
		want string
	}{
		{"out of range", traversaltest.List("oor", 2, false, 0, 2), graph.Options{}, "edge 0 (0,2) has an end outside"},
		{"negative id", traversaltest.List("negid", 2, false, -1, 0), graph.Options{}, "outside"},
		{"lengths", &graph.Edges{NumVertices: 2, Src: []int32{0}}, graph.Options{}, "one of each per edge"},
		{"vertices", &graph.Edges{NumVertices: -1}, graph.Options{}, "vertices"},
		{"negative weight", neg, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}}, "weight -1"},
		{"nan weight", nan, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}}, "weight NaN"},
		{"no values", traversaltest.List("pattern", 2, false, 0, 1), graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}}, "uniform-int:W or uniform-float"},
		{"int range", traversaltest.List("w", 2, false, 0, 1), graph.Options{Weights: graph.Weights{Kind: graph.UniformInt, Max: 0}}, "W must be"},
	}
	for _, c := range cases {
		if _, err := graph.Build(c.e, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	rect, _ := matrices.Read(strings.NewReader("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n"), "r.mtx", matrices.ReadOptions{})
	if _, err := graph.FromCOO(rect); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("a 2 x 3 matrix: %v", err)
	}
	g, _ := graph.Build(traversaltest.List("loops", 2, false, 0, 0), graph.Options{})
	if _, err := g.Roots(4, 1); err == nil {
		t.Error("roots of a graph with only a self-loop: no error")
	}
	for _, s := range []string{"uniform-int:0", "uniform-int:x", "uniform-int:16777217", "gauss"} {
		if _, err := graph.ParseWeights(s); err == nil {
			t.Errorf("ParseWeights(%q): no error", s)
		}
	}
	for _, s := range []string{"none", "file", "uniform-int:255", "uniform-float"} {
		if w, err := graph.ParseWeights(s); err != nil || w.String() != s {
			t.Errorf("ParseWeights(%q) = %v, %v", s, w, err)
		}
	}
}

func TestRoots(t *testing.T) {
	e := traversaltest.List("roots", 6, false, 0, 1, 1, 2, 3, 3)
	g, _ := graph.Build(e, graph.Options{})
	r, err := g.Roots(10, 1)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(r)
	if !slices.Equal(r, []int32{0, 1, 2}) {
		t.Errorf("roots %v, want the three vertices with an edge", r)
	}
	big, _ := graph.Build(traversaltest.Random("big", 1000, 3000, false, 1), graph.Options{})
	a, _ := big.Roots(64, 9)
	b, _ := big.Roots(64, 9)
	c, _ := big.Roots(64, 10)
	if len(a) != 64 || !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("roots: %d, not deterministic per seed, or not depending on it", len(a))
	}
	slices.Sort(a)
	if len(slices.Compact(a)) != 64 {
		t.Error("repeated roots")
	}
}

// FuzzBuild builds graphs from arbitrary edge lists: Build either refuses
// the input with an error or returns a graph that passes Check and has the
// naive oracle's arcs.
func FuzzBuild(f *testing.F) {
	f.Add(uint8(3), uint8(0), []byte{0, 1, 1, 2, 2, 2})
	f.Add(uint8(1), uint8(5), []byte{0, 0})
	f.Add(uint8(0), uint8(0), []byte{})
	f.Add(uint8(4), uint8(3), []byte{3, 0, 0, 3, 9, 1, 1, 1})
	f.Fuzz(func(t *testing.T, n, flags uint8, data []byte) {
		e := &graph.Edges{NumVertices: int(n), Directed: flags&1 != 0}
		for i := 0; i+1 < len(data); i += 2 {
			e.Src = append(e.Src, int32(int8(data[i])))
			e.Dst = append(e.Dst, int32(int8(data[i+1])))
		}
		if flags&32 != 0 {
			e.Val = make([]float64, len(e.Src))
			for i := range e.Val {
				e.Val[i] = float64(binary.LittleEndian.Uint16(append(data[2*i:2*i+2:2*i+2], 0, 0)[:2])) - 8
			}
		}
		opt := graph.Options{Dedupe: flags&2 != 0, DropSelfLoops: flags&4 != 0, Transpose: flags&8 != 0, Undirected: flags&16 != 0, Relabel: graph.Relabel(flags >> 6 % 3)}
		if e.Val != nil {
			opt.Weights = graph.Weights{Kind: graph.FileWeights}
		}
		g, err := graph.Build(e, opt)
		if err != nil {
			return
		}
		checkGraph(t, "fuzz", e, g, opt)
	})
}

// Building a graph from edges: an undirected triangle with a tail.
func ExampleBuild() {
	e := &graph.Edges{NumVertices: 4, Src: []int32{0, 1, 2, 2}, Dst: []int32{1, 2, 0, 3}}
	g, _ := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformInt, Max: 9}, Seed: 1})
	for v := range int32(g.NumVertices) {
		fmt.Println(v, g.Neighbors(v), g.ArcWeights(v))
	}
	fmt.Println(g.NumArcs(), "arcs,", g.InputEdges, "input edges")
	// Output:
	// 0 [1 2] [2 8]
	// 1 [0 2] [2 9]
	// 2 [0 1 3] [8 9 5]
	// 3 [2] [5]
	// 8 arcs, 4 input edges
}

func TestLoad(t *testing.T) {
	path := t.TempDir() + "/g.mtx"
	if err := os.WriteFile(path, []byte("%%MatrixMarket matrix coordinate integer symmetric\n4 4 3\n2 1 3\n3 2 4\n4 4 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(path, matrices.ReadOptions{}, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}, DropSelfLoops: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.Directed || g.NumArcs() != 4 || !g.Integer || g.InputEdges != 3 || g.DroppedSelfLoops != 1 {
		t.Errorf("directed %t, %d arcs, integer %t, %d input edges, %d self-loops dropped", g.Directed, g.NumArcs(), g.Integer, g.InputEdges, g.DroppedSelfLoops)
	}
	if _, err := graph.Load(t.TempDir()+"/missing.mtx", matrices.ReadOptions{}, graph.Options{}); err == nil {
		t.Error("a missing file: no error")
	}
}

// BenchmarkBuild builds the undirected CSR of 2^22 random edges on 2^18
// vertices; the metric is input edges per second.
func BenchmarkBuild(b *testing.B) {
	e := traversaltest.Random("random", 1<<18, 1<<22, false, 1)
	for _, c := range []struct {
		name string
		opt  graph.Options
	}{
		{"plain", graph.Options{}},
		{"weighted", graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}}},
		{"dedupe-relabel", graph.Options{Dedupe: true, DropSelfLoops: true, Relabel: graph.RelabelDegree}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := graph.Build(e, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(e.Src))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
		})
	}
}
