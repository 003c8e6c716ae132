package ref_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

// msRootSets are the root lists MS-BFS is tested with on g: the corpus's
// roots (a root of degree zero among them where there is one), one root,
// a full batch drawn with repeats (a single-vertex graph gets vertex 0
// 64 times), and lists that end in a partial batch.
func msRootSets(g *graph.Graph, seed uint64) map[string][]int32 {
	n := int32(g.NumVertices)
	spread := func(k int) []int32 {
		out := make([]int32, k)
		for i := range out {
			out[i] = int32((uint64(i)*2654435761 + seed) % uint64(n))
		}
		return out
	}
	corpus := traversaltest.Roots(g, 3, seed)
	return map[string][]int32{
		"corpus": corpus,
		"one":    corpus[:1],
		"64":     spread(64),
		"65":     spread(65),
		"130":    spread(130),
	}
}

// checkMSBFS compares every root's MS-BFS depths with the queue BFS's,
// and the levels and inspected arcs with what the separate searches
// imply: the most levels of any root, and no more arcs than all of them
// together (exactly as many for one root).
func checkMSBFS(t *testing.T, g *graph.Graph, roots []int32) {
	t.Helper()
	got, err := ref.MultiSourceBFS(g, roots)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != g.NumVertices || len(got.Depth) != len(roots)*g.NumVertices || !slices.Equal(got.Roots, roots) {
		t.Fatalf("result shape: N %d, %d depths, roots %v", got.N, len(got.Depth), got.Roots)
	}
	if want := (len(roots) + ref.MSBFSWidth - 1) / ref.MSBFSWidth; got.Batches != want {
		t.Fatalf("%d batches for %d roots, want %d", got.Batches, len(roots), want)
	}
	levels, sum := 0, int64(0)
	for i, root := range roots {
		q, err := ref.BFS(g, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.SameDepths(got.Depths(i), q.Depth); err != nil {
			t.Fatalf("root %d (#%d of %d): %v", root, i, len(roots), err)
		}
		levels = max(levels, q.Levels)
		sum += q.Inspected
	}
	if got.Levels != levels {
		t.Fatalf("%d levels, the searches one by one at most %d", got.Levels, levels)
	}
	if got.Inspected > sum || (len(roots) == 1 && got.Inspected != sum) {
		t.Fatalf("%d arcs inspected, the searches one by one %d", got.Inspected, sum)
	}
}

// TestMultiSourceBFS: on every case of the corpus (a single vertex,
// self-loops, isolated vertices, directed, disconnected, repeated edges,
// roads, Kronecker) and on random graphs of every shape, every root of
// every root list has the queue BFS's depths.
func TestMultiSourceBFS(t *testing.T) {
	for _, seed := range traversaltest.Seeds {
		for _, c := range traversaltest.Cases(seed) {
			g, err := c.Build(graph.Weights{}, seed)
			if err != nil {
				t.Fatal(err)
			}
			for name, roots := range msRootSets(g, seed) {
				t.Run(fmt.Sprintf("%s/seed=%d/%s", c.Name, seed, name), func(t *testing.T) { checkMSBFS(t, g, roots) })
			}
		}
	}
	// Random graphs: sparse and dense, directed or not, many components.
	for i, tc := range []struct {
		n, m     int
		directed bool
	}{{2, 1, false}, {50, 20, false}, {50, 20, true}, {200, 2000, true}, {300, 250, false}, {1000, 3000, true}, {64, 4000, false}} {
		for _, seed := range []uint64{3, 4} {
			e := traversaltest.Random(fmt.Sprintf("random-%d", i), tc.n, tc.m, tc.directed, seed)
			g, err := graph.Build(e, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for name, roots := range msRootSets(g, seed) {
				t.Run(fmt.Sprintf("random/n=%d,m=%d,directed=%t/seed=%d/%s", tc.n, tc.m, tc.directed, seed, name), func(t *testing.T) {
					checkMSBFS(t, g, roots)
				})
			}
		}
	}
}

// TestMultiSourceBFSParallel: frontiers large enough to be split among
// workers (Kronecker scale 14), the same depths with one worker and with
// all of them.
func TestMultiSourceBFSParallel(t *testing.T) {
	e, err := gen.DefaultKronecker(14).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	roots, err := g.Roots(100, 9)
	if err != nil {
		t.Fatal(err)
	}
	checkMSBFS(t, g, roots)
	all, err := ref.MultiSourceBFS(g, roots)
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	one, err := ref.MultiSourceBFS(g, roots)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all.Depth, one.Depth) || all.Levels != one.Levels || all.Inspected != one.Inspected {
		t.Fatalf("GOMAXPROCS=1: levels %d, %d inspected; all workers %d, %d (or the depths differ)", one.Levels, one.Inspected, all.Levels, all.Inspected)
	}
	// The point of the batch: far fewer arcs than the searches one by one.
	var sum int64
	for _, r := range roots[:64] {
		q, _ := ref.BFS(g, r)
		sum += q.Inspected
	}
	first, _ := ref.MultiSourceBFS(g, roots[:64])
	t.Logf("64 roots: %d arcs inspected together, %d one by one (%.1fx)", first.Inspected, sum, float64(sum)/float64(first.Inspected))
	if first.Inspected*4 > sum {
		t.Errorf("64 roots on Kronecker scale 14: %d arcs inspected together, %d one by one: want at least 4x fewer", first.Inspected, sum)
	}
}

func TestMultiSourceBFSErrors(t *testing.T) {
	g, err := graph.Build(traversaltest.List("tiny", 3, false, 0, 1, 1, 2), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, roots := range [][]int32{nil, {3}, {0, -1}} {
		if _, err := ref.MultiSourceBFS(g, roots); err == nil {
			t.Errorf("roots %v: no error", roots)
		}
	}
}

func BenchmarkMultiSourceBFS(b *testing.B) {
	e, _ := gen.DefaultKronecker(16).Generate()
	g, _ := graph.Build(e, graph.Options{})
	roots, _ := g.Roots(64, 1)
	var inspected int64
	for b.Loop() {
		r, _ := ref.MultiSourceBFS(g, roots)
		inspected = r.Inspected
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N)/float64(len(roots)), "ms/root")
	b.ReportMetric(float64(inspected), "arcs/batch")
}

// Depths of three roots at once on a path 0-1-2-3 and an isolated vertex
// 4: a row per root.
func ExampleMultiSourceBFS() {
	g, _ := graph.Build(traversaltest.List("path", 5, false, 0, 1, 1, 2, 2, 3), graph.Options{})
	r, _ := ref.MultiSourceBFS(g, []int32{0, 2, 4})
	for i, root := range r.Roots {
		fmt.Println(root, r.Depths(i))
	}
	fmt.Println("levels:", r.Levels)
	// Output:
	// 0 [0 1 2 3 -1]
	// 2 [2 1 0 1 -1]
	// 4 [-1 -1 -1 -1 0]
	// levels: 4
}
