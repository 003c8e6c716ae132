package gen_test

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/matrices"
)

func sameEdges(a, b *graph.Edges) bool {
	return a.NumVertices == b.NumVertices && slices.Equal(a.Src, b.Src) && slices.Equal(a.Dst, b.Dst)
}

// atProcs generates at GOMAXPROCS = procs.
func atProcs(procs int, f func() (*graph.Edges, error)) (*graph.Edges, error) {
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	return f()
}

func TestKronecker(t *testing.T) {
	k := gen.DefaultKronecker(14)
	e, err := k.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if e.NumVertices != 1<<14 || len(e.Src) != 16<<14 || e.Directed {
		t.Fatalf("%d vertices, %d edges, directed %t", e.NumVertices, len(e.Src), e.Directed)
	}
	e1, _ := atProcs(1, k.Generate)
	if !sameEdges(e, e1) {
		t.Fatal("the edges differ at GOMAXPROCS=1")
	}
	k2 := k
	k2.Seed = 2
	if e2, _ := k2.Generate(); sameEdges(e, e2) {
		t.Fatal("seed 2 gives the same graph")
	}
	g, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Skewed degrees, heavy vertices spread over the ids by the
	// permutation, and the duplicates and self-loops the benchmark keeps.
	var maxDeg int64
	var heavy int32
	loops := 0
	for v := range int32(g.NumVertices) {
		if d := g.Degree(v); d > maxDeg {
			maxDeg, heavy = d, v
		}
	}
	for i := range e.Src {
		if e.Src[i] == e.Dst[i] {
			loops++
		}
	}
	dd, _ := graph.Build(e, graph.Options{Dedupe: true})
	t.Logf("scale 14: max degree %d at vertex %d (mean %.1f), %d self-loops, %d repeated arcs", maxDeg, heavy, float64(g.NumArcs())/float64(g.NumVertices), loops, dd.DroppedDuplicates)
	if maxDeg < 50*int64(g.NumArcs())/int64(g.NumVertices) || heavy == 0 || loops == 0 || dd.DroppedDuplicates == 0 {
		t.Error("not a Graph500 Kronecker graph: want a skewed degree, a permuted hub, self-loops and repeats")
	}
	// The permutation is a bijection: every id is hit by some scale-2 edge set.
	small := gen.DefaultKronecker(4)
	small.EdgeFactor = 512
	se, _ := small.Generate()
	seen := make([]bool, 16)
	for _, v := range se.Src {
		seen[v] = true
	}
	if slices.Contains(seen, false) {
		t.Error("some vertex of scale 4 never appears in 8192 edges")
	}
	for _, bad := range []gen.Kronecker{{Scale: 0, EdgeFactor: 16}, {Scale: 31, EdgeFactor: 16}, {Scale: 4}, {Scale: 4, EdgeFactor: 1, A: 0.9, B: 0.2}, {Scale: 4, EdgeFactor: 1, A: math.NaN()}} {
		if _, err := bad.Generate(); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestRoad(t *testing.T) {
	r := gen.DefaultRoad(300, 200)
	e, err := r.Generate()
	if err != nil {
		t.Fatal(err)
	}
	e1, _ := atProcs(1, r.Generate)
	if !sameEdges(e, e1) {
		t.Fatal("the edges differ at GOMAXPROCS=1")
	}
	g, _ := graph.Build(e, graph.Options{})
	avg := float64(g.NumArcs()) / float64(g.NumVertices)
	res, _ := ref.BFS(g, int32(150+100*300))
	reached := 0
	for _, d := range res.Depth {
		if d >= 0 {
			reached++
		}
	}
	t.Logf("road 300x200: average degree %.3f, %d levels from the centre", avg, res.Levels)
	if math.Abs(avg-2.5) > 0.05 || reached != g.NumVertices || res.Levels < 250 {
		t.Errorf("average degree %.3f (want 2.5), %d of %d reached, %d levels (want >= 250)", avg, reached, g.NumVertices, res.Levels)
	}
	hw := r
	hw.Highways, hw.Shuffle = 100, true
	he, _ := hw.Generate()
	hg, _ := graph.Build(he, graph.Options{})
	hres, _ := ref.BFS(hg, 0)
	if hg.InputEdges != g.InputEdges+100 || hres.Levels >= res.Levels*2 {
		t.Errorf("highways: %d input edges (want %d), %d levels", hg.InputEdges, g.InputEdges+100, hres.Levels)
	}
	for _, c := range []gen.Road{{NX: 1, NY: 1}, {NX: 1, NY: 5, Extra: 1}, {NX: 7, NY: 1}} {
		e, err := c.Generate()
		if err != nil {
			t.Fatal(err)
		}
		g, _ := graph.Build(e, graph.Options{})
		if g.NumArcs() != 2*int64(g.NumVertices-1) {
			t.Errorf("%v: %d arcs, want a path", c, g.NumArcs())
		}
	}
	for _, bad := range []gen.Road{{NX: 0, NY: 3}, {NX: 1 << 16, NY: 1 << 16}, {NX: 3, NY: 3, Extra: 2}, {NX: 3, NY: 3, Highways: -1}, {NX: 1, NY: 1, Highways: 1}} {
		if _, err := bad.Generate(); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// BenchmarkKronecker generates Graph500 graphs; the metric is input edges
// per second. Scales 20 and 22 run with -bench 'Kronecker/scale=2[02]'.
func BenchmarkKronecker(b *testing.B) {
	for _, scale := range []int{16, 20, 22} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			k := gen.DefaultKronecker(scale)
			for b.Loop() {
				if _, err := k.Generate(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(k.EdgeFactor<<scale)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
		})
	}
}

// BenchmarkKroneckerBuild is generation and the undirected CSR together:
// what a GPU run pays before its first search.
func BenchmarkKroneckerBuild(b *testing.B) {
	for _, scale := range []int{16, 20, 22} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			k := gen.DefaultKronecker(scale)
			for b.Loop() {
				e, _ := k.Generate()
				if _, err := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(k.EdgeFactor<<scale)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
		})
	}
}

func BenchmarkRoad(b *testing.B) {
	for _, side := range []int{1024, 4096} {
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			r := gen.DefaultRoad(side, side)
			for b.Loop() {
				if _, err := r.Generate(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(side*side)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvertices/s")
		})
	}
}

// A Graph500 graph of scale 10 and a road grid, built for traversal.
func Example() {
	kron, _ := gen.DefaultKronecker(10).Generate()
	g, _ := graph.Build(kron, graph.Options{})
	fmt.Println(g.NumVertices, "vertices,", g.InputEdges, "input edges,", g.NumArcs(), "arcs")
	road, _ := gen.DefaultRoad(100, 100).Generate()
	r, _ := graph.Build(road, graph.Options{})
	bfs, _ := ref.BFS(r, 0)
	fmt.Println(r.NumVertices, "vertices,", r.InputEdges, "input edges,", bfs.Levels, "levels from a corner")
	// Output:
	// 1024 vertices, 16384 input edges, 32637 arcs
	// 10000 vertices, 12471 input edges, 199 levels from a corner
}

func TestParse(t *testing.T) {
	good := map[string]string{
		"kronecker:scale=20":                               "kronecker(scale=20,ef=16,a=0.57,b=0.19,c=0.19,seed=5)",
		"kron:scale=8,ef=4,a=0.45,b=0.15,c=0.15,seed=2":    "kronecker(scale=8,ef=4,a=0.45,b=0.15,c=0.15,seed=2)",
		"road:side=100":                                    "road(100x100,extra=0.25,highways=0,shuffle=false,seed=5)",
		"road:nx=30,ny=20,extra=0,highways=4,shuffle=true": "road(30x20,extra=0,highways=4,shuffle=true,seed=5)",
	}
	for spec, want := range good {
		g, err := gen.Parse(spec, 5)
		if err != nil || g.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", spec, g, err, want)
		}
	}
	for _, spec := range []string{"kronecker", "kronecker:scale=x", "kronecker:scale=10,zz=1", "road:nx=3", "road:side=3,shuffle=maybe", "ba:n=3", "kron:scale=10,seed=-1", "kron:scale=10,a"} {
		if _, err := gen.Parse(spec, 1); err == nil {
			t.Errorf("Parse(%q): no error", spec)
		}
	}
}

func TestOpen(t *testing.T) {
	g, err := gen.Open("road:side=10", 1, matrices.ReadOptions{}, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}})
	if err != nil || g.NumVertices != 100 || g.Weight == nil {
		t.Fatalf("road:side=10: %v", err)
	}
	path := t.TempDir() + "/g.txt"
	if err := os.WriteFile(path, []byte("0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, err := gen.Open(path, 1, matrices.ReadOptions{}, graph.Options{}); err != nil || g.NumArcs() != 4 {
		t.Fatalf("%s: %v", path, err)
	}
	if _, err := gen.Open("kron:scale=0", 1, matrices.ReadOptions{}, graph.Options{}); err == nil {
		t.Error("kron:scale=0: no error")
	}
	if gen.IsSpec("road.mtx") || gen.IsSpec("kron") || !gen.IsSpec("KRON:scale=3") {
		t.Error("IsSpec")
	}
}
