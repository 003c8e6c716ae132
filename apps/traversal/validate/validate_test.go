package validate_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

func build(t *testing.T, e *graph.Edges, opt graph.Options) *graph.Graph {
	t.Helper()
	g, err := graph.Build(e, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func wantRule(t *testing.T, err error, rule validate.Rule) {
	t.Helper()
	var v *validate.Violation
	if !errors.As(err, &v) {
		t.Fatalf("want a %v violation, got %v", rule, err)
	}
	if v.Rule != rule {
		t.Fatalf("want a %v violation, got %v", rule, err)
	}
	t.Log(err)
}

// children counts each vertex's children in a BFS tree.
func children(parent []int32) []int {
	c := make([]int, len(parent))
	for v, p := range parent {
		if p >= 0 && int(p) != v {
			c[p]++
		}
	}
	return c
}

func hasArc(g *graph.Graph, u, v int32) bool {
	_, ok := slices.BinarySearch(g.Neighbors(u), v)
	return ok
}

// TestBFSPlantedBugs plants one bug per rule into a correct BFS tree of an
// undirected random graph and of the road graph; the validator must name
// that rule, with and without the depth array where the rule allows.
func TestBFSPlantedBugs(t *testing.T) {
	road, _ := gen.DefaultRoad(30, 30).Generate()
	for _, e := range []*graph.Edges{traversaltest.Random("random", 300, 900, false, 5), road} {
		g := build(t, e, graph.Options{})
		root := int32(0)
		good, err := ref.BFS(g, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.BFS(g, root, good.Parent, good.Depth); err != nil {
			t.Fatal(err)
		}
		kids := children(good.Parent)
		// A leaf at depth >= 2, and a vertex one level up that is not its
		// neighbour (for the missing parent edge).
		leaf, stranger := int32(-1), int32(-1)
		for v := range g.NumVertices {
			if good.Depth[v] >= 2 && kids[v] == 0 {
				for u := range g.NumVertices {
					if good.Depth[u] == good.Depth[v]-1 && !hasArc(g, int32(u), int32(v)) {
						leaf, stranger = int32(v), int32(u)
						break
					}
				}
				if leaf >= 0 {
					break
				}
			}
		}
		if leaf < 0 {
			t.Fatal("no leaf at depth >= 2 with a non-neighbour one level up")
		}
		// A vertex at the leaf's own depth, to be a wrong parent.
		same := int32(-1)
		for v := range g.NumVertices {
			if good.Depth[v] == good.Depth[leaf] && int32(v) != leaf {
				same = int32(v)
				break
			}
		}
		cases := []struct {
			name      string
			rule      validate.Rule
			withDepth bool
			plant     func(parent, depth []int32)
		}{
			{"root-not-own-parent", validate.RuleRoot, true, func(p, d []int32) { p[root] = -1 }},
			{"root-depth", validate.RuleRoot, true, func(p, d []int32) { d[root] = 1 }},
			{"wrong-parent", validate.RuleTreeLevel, true, func(p, d []int32) { p[leaf] = same }},
			{"level-off-by-one", validate.RuleTreeLevel, true, func(p, d []int32) { d[leaf]++ }},
			{"unreached-in-component", validate.RuleComponent, true, func(p, d []int32) { p[leaf], d[leaf] = -1, -1 }},
			{"unreached-in-component-no-depth", validate.RuleComponent, false, func(p, d []int32) { p[leaf] = -1 }},
			{"parent-edge-missing", validate.RuleParentEdge, true, func(p, d []int32) { p[leaf] = stranger }},
			{"parent-edge-missing-no-depth", validate.RuleParentEdge, false, func(p, d []int32) { p[leaf] = stranger }},
			{"cycle", validate.RuleTree, false, func(p, d []int32) { p[leaf], p[same] = same, leaf }},
			{"parent-out-of-range", validate.RuleShape, false, func(p, d []int32) { p[leaf] = int32(g.NumVertices) }},
			{"depth-without-parent", validate.RuleDepth, true, func(p, d []int32) { p[leaf] = -1 }},
		}
		for _, c := range cases {
			t.Run(e.Name+"/"+c.name, func(t *testing.T) {
				p, d := slices.Clone(good.Parent), slices.Clone(good.Depth)
				c.plant(p, d)
				if !c.withDepth {
					d = nil
				}
				wantRule(t, validate.BFS(g, root, p, d), c.rule)
			})
		}
	}
}

// TestBFSEdgeSpan: path 0-1-2-3 with the chord 0-3. The tree 0-1-2-3 is a
// tree of the graph with consistent depths, but the chord spans 3 levels.
func TestBFSEdgeSpan(t *testing.T) {
	g := build(t, traversaltest.List("chord", 4, false, 0, 1, 1, 2, 2, 3, 0, 3), graph.Options{})
	parent := []int32{0, 0, 1, 2}
	depth := []int32{0, 1, 2, 3}
	wantRule(t, validate.BFS(g, 0, parent, depth), validate.RuleEdgeSpan)
	wantRule(t, validate.BFS(g, 0, parent, nil), validate.RuleEdgeSpan)
}

// TestBFSDirected: on a directed graph an arc may go back up any number of
// levels, but an arc from a reached vertex must reach its target.
func TestBFSDirected(t *testing.T) {
	g := build(t, traversaltest.List("directed", 4, true, 0, 1, 1, 2, 2, 0, 2, 3), graph.Options{})
	if err := validate.BFS(g, 0, []int32{0, 0, 1, 2}, []int32{0, 1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	wantRule(t, validate.BFS(g, 0, []int32{0, 0, 1, -1}, []int32{0, 1, 2, -1}), validate.RuleComponent)
	// From 3 nothing is reached; a tree that reaches 0 anyway is wrong.
	wantRule(t, validate.BFS(g, 3, []int32{3, 0, 1, 3}, nil), validate.RuleParentEdge)
	wantRule(t, validate.BFS(g, 0, []int32{0, 0}, nil), validate.RuleShape)
	wantRule(t, validate.BFS(g, 4, []int32{0, 0, 1, 2}, nil), validate.RuleShape)
}

// racySSSP simulates a GPU SSSP whose updates race: a frontier-driven
// Bellman-Ford in which every relaxation compares against the distance
// read at the start of the round and writes without atomics, so the last
// writer wins, even when an earlier writer of the same round had a
// smaller distance. With splitPred, the distance is updated with a proper
// atomic minimum but the predecessor by a separate plain store, so the two
// can disagree. Both are the bugs the validator exists to catch.
func racySSSP(g *graph.Graph, root int32, splitPred bool) ([]float32, []int32) {
	n := g.NumVertices
	dist, pred := make([]float32, n), make([]int32, n)
	for i := range dist {
		dist[i], pred[i] = float32(math.Inf(1)), -1
	}
	dist[root], pred[root] = 0, root
	frontier := []int32{root}
	for len(frontier) > 0 {
		old := slices.Clone(dist)
		var next []int32
		queued := make([]bool, n)
		for _, u := range frontier {
			for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
				v := g.Adj[e]
				nd := float32(old[u] + g.Weight[e])
				if nd < old[v] {
					if splitPred {
						dist[v] = min(dist[v], nd)
					} else {
						dist[v] = nd
					}
					pred[v] = u
					if !queued[v] {
						queued[v] = true
						next = append(next, v)
					}
				}
			}
		}
		frontier = next
	}
	return dist, pred
}

// TestSSSPRacy: the racy simulations leave a non-minimal distance, or a
// predecessor that does not give the distance, on random weighted graphs,
// and the validator catches every such run.
func TestSSSPRacy(t *testing.T) {
	for _, split := range []bool{false, true} {
		rule := validate.RuleRelaxed
		if split {
			rule = validate.RulePredecessor
		}
		caught := 0
		for seed := uint64(1); seed <= 10; seed++ {
			g := build(t, traversaltest.Random("random", 200, 1000, false, seed), graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: seed})
			dist, pred := racySSSP(g, 0, split)
			good, _ := ref.Dijkstra(g, 0)
			err := validate.SSSP(g, 0, dist, pred)
			if validate.SameDistances(dist, good.Dist) == nil && slices.Equal(pred, good.Pred) {
				if err != nil {
					t.Fatalf("seed %d: a correct run refused: %v", seed, err)
				}
				continue
			}
			if err == nil {
				if split && validate.SameDistances(dist, good.Dist) == nil {
					continue // the racy predecessors happened to be exact
				}
				t.Fatalf("seed %d: a wrong racy run passed", seed)
			}
			if caught == 0 {
				wantRule(t, err, rule)
			}
			caught++
		}
		if caught == 0 {
			t.Fatalf("split=%t: no racy run went wrong: the simulation plants nothing", split)
		}
		t.Logf("split=%t: %d of 10 racy runs wrong, all caught", split, caught)
	}
}

// TestSSSPPlantedBugs plants one bug per rule into Dijkstra's result.
func TestSSSPPlantedBugs(t *testing.T) {
	g := build(t, traversaltest.Random("random", 300, 330, false, 9), graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 4})
	root := int32(0)
	good, _ := ref.Dijkstra(g, root)
	if err := validate.SSSP(g, root, good.Dist, good.Pred); err != nil {
		t.Fatal(err)
	}
	bfs, _ := ref.BFS(g, root)
	kids := children(good.Pred)
	// A leaf of the tree with a neighbour other than its predecessor, and
	// an unreached vertex.
	leaf, other, unreached := int32(-1), int32(-1), int32(-1)
	for v := range g.NumVertices {
		if good.Pred[v] >= 0 && int32(v) != root && kids[v] == 0 && leaf < 0 {
			for _, u := range g.Neighbors(int32(v)) {
				if u != good.Pred[v] && u != int32(v) {
					leaf, other = int32(v), u
				}
			}
		}
		if good.Pred[v] < 0 && unreached < 0 {
			unreached = int32(v)
		}
	}
	if leaf < 0 || other < 0 || unreached < 0 || bfs.Depth[unreached] >= 0 {
		t.Fatalf("the graph lacks the vertices to plant bugs on (leaf %d, other %d, unreached %d)", leaf, other, unreached)
	}
	inf := float32(math.Inf(1))
	cases := []struct {
		name  string
		rule  validate.Rule
		plant func(d []float32, p []int32)
	}{
		{"root-distance", validate.RuleRoot, func(d []float32, p []int32) { d[root] = 1 }},
		{"non-minimal", validate.RuleRelaxed, func(d []float32, p []int32) { d[leaf] += 1 }},
		{"predecessor-mismatch", validate.RulePredecessor, func(d []float32, p []int32) { p[leaf] = other }},
		{"one-ulp-below", validate.RulePredecessor, func(d []float32, p []int32) { d[leaf] = math.Nextafter32(d[leaf], 0) }},
		{"unreached-in-component", validate.RuleComponent, func(d []float32, p []int32) { d[leaf], p[leaf] = inf, -1 }},
		{"finite-unreached", validate.RuleDistance, func(d []float32, p []int32) { d[unreached] = 3 }},
		{"nan", validate.RuleDistance, func(d []float32, p []int32) { d[leaf] = float32(math.NaN()) }},
		{"negative", validate.RuleDistance, func(d []float32, p []int32) { d[leaf] = -1 }},
		{"predecessor-out-of-range", validate.RuleShape, func(d []float32, p []int32) { p[leaf] = -5 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, p := slices.Clone(good.Dist), slices.Clone(good.Pred)
			c.plant(d, p)
			wantRule(t, validate.SSSP(g, root, d, p), c.rule)
		})
	}
	wantRule(t, validate.SSSP(g, root, good.Dist[1:], good.Pred), validate.RuleShape)
}

// TestSSSPCycle: zero weights let exact predecessors form a cycle that
// never reaches the root; the tree check refuses it.
func TestSSSPCycle(t *testing.T) {
	e := traversaltest.List("zero", 4, false, 0, 1, 1, 2, 2, 3)
	e.Val = []float64{1, 0, 0}
	g := build(t, e, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}})
	dist := []float32{0, 1, 1, 1}
	if err := validate.SSSP(g, 0, dist, []int32{0, 0, 1, 2}); err != nil {
		t.Fatal(err)
	}
	wantRule(t, validate.SSSP(g, 0, dist, []int32{0, 0, 3, 2}), validate.RuleTree)
}

func TestSameDistances(t *testing.T) {
	inf := float32(math.Inf(1))
	if err := validate.SameIntDistances([]float32{0, 3, inf}, []int64{0, 3, ref.Unreached}); err != nil {
		t.Fatal(err)
	}
	wantRule(t, validate.SameIntDistances([]float32{0, 4, inf}, []int64{0, 3, ref.Unreached}), validate.RuleMismatch)
	wantRule(t, validate.SameIntDistances([]float32{0, 3, 5}, []int64{0, 3, ref.Unreached}), validate.RuleMismatch)
	wantRule(t, validate.SameDistances([]float32{0, 1}, []float32{0, math.Nextafter32(1, 2)}), validate.RuleMismatch)
	wantRule(t, validate.SameDepths([]int32{0, 1}, []int32{0, 2}), validate.RuleMismatch)
}

// TestTEPS: Graph500's count includes duplicates and self-loops of the
// component and nothing outside it; rates and their harmonic mean.
func TestTEPS(t *testing.T) {
	// Component {0,1,2}: edges 0-1, 0-1 again, 1-2, 2-2; component {3,4}: 3-4.
	e := traversaltest.List("teps", 6, false, 0, 1, 1, 0, 1, 2, 2, 2, 3, 4)
	for _, opt := range []graph.Options{{}, {Dedupe: true, DropSelfLoops: true}, {Relabel: graph.RelabelDegree}} {
		g := build(t, e, opt)
		root := int32(0)
		if g.NewID != nil {
			root = g.NewID[0]
		}
		r, _ := ref.BFS(g, root)
		if got := g.ReachedInputEdges(r.Parent); got != 4 {
			t.Errorf("%+v: %d input edges in the component, want 4", opt, got)
		}
	}
	if got := validate.TEPS(4e9, 2*time.Second); got != 2e9 {
		t.Errorf("TEPS = %v", got)
	}
	if got := validate.InspectedPerSecond(3e9, time.Second); got != 3e9 {
		t.Errorf("inspected/s = %v", got)
	}
	if got := validate.HarmonicMean([]float64{1, 4, 4}); math.Abs(got-2) > 1e-12 {
		t.Errorf("harmonic mean = %v, want 2", got)
	}
	if validate.HarmonicMean(nil) != 0 || validate.HarmonicMean([]float64{1, 0}) != 0 {
		t.Error("harmonic mean of nothing or of a zero rate is not 0")
	}
}

// Checking a GPU result: validate the tree, then count Graph500's edges.
func ExampleBFS() {
	e := traversaltest.List("triangle+tail", 5, false, 0, 1, 1, 2, 2, 0, 2, 3)
	g, _ := graph.Build(e, graph.Options{})
	parent := []int32{0, 0, 0, 2, -1} // from the GPU, say
	fmt.Println(validate.BFS(g, 0, parent, nil), g.ReachedInputEdges(parent))
	parent[3] = 1 // 1-3 is no edge
	fmt.Println(validate.BFS(g, 0, parent, nil))
	// Output:
	// <nil> 4
	// parent-edge rule broken: parent edge 1->3 of vertex 3 is not an arc of the graph
}

// BenchmarkValidate is the checks' cost per search on a Kronecker graph:
// the benchmark script validates every GPU search, so this bounds how
// many roots fit in a run.
func BenchmarkValidate(b *testing.B) {
	e, err := gen.DefaultKronecker(18).Generate()
	if err != nil {
		b.Fatal(err)
	}
	g, err := graph.Build(e, graph.Options{Undirected: true, Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	roots, err := g.Roots(1, 1)
	if err != nil {
		b.Fatal(err)
	}
	bfs, err := ref.ParallelBFS(g, roots[0])
	if err != nil {
		b.Fatal(err)
	}
	sp, err := ref.Dijkstra(g, roots[0])
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		check func() error
	}{
		{"bfs", func() error { return validate.BFS(g, roots[0], bfs.Parent, bfs.Depth) }},
		{"bfs-parents-only", func() error { return validate.BFS(g, roots[0], bfs.Parent, nil) }},
		{"sssp", func() error { return validate.SSSP(g, roots[0], sp.Dist, sp.Pred) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(g.NumArcs())
			for b.Loop() {
				if err := c.check(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
