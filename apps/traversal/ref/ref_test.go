package ref_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

var weightKinds = []graph.Weights{{Kind: graph.UniformInt, Max: 100}, {Kind: graph.UniformInt, Max: 1}, {Kind: graph.UniformFloat}}

// TestReferences runs every reference on every case of the corpus, from
// several roots: each passes the validator, the parallel BFS has the queue
// BFS's depths, delta-stepping and Dijkstra agree bitwise in float32, and
// with integer weights both equal the exact int64 Dijkstra.
func TestReferences(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		for _, c := range traversaltest.Cases(seed) {
			for _, w := range weightKinds {
				t.Run(fmt.Sprintf("%s/%v/seed=%d", c.Name, w, seed), func(t *testing.T) {
					g, err := c.Build(w, seed)
					if err != nil {
						t.Fatal(err)
					}
					if err := g.Check(); err != nil {
						t.Fatal(err)
					}
					for _, root := range traversaltest.Roots(g, 3, seed) {
						checkRoot(t, g, root)
					}
				})
			}
		}
	}
}

func checkRoot(t *testing.T, g *graph.Graph, root int32) {
	t.Helper()
	q, err := ref.BFS(g, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.BFS(g, root, q.Parent, q.Depth); err != nil {
		t.Fatalf("root %d: queue BFS: %v", root, err)
	}
	p, err := ref.ParallelBFS(g, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.BFS(g, root, p.Parent, nil); err != nil {
		t.Fatalf("root %d: parallel BFS: %v", root, err)
	}
	if err := validate.SameDepths(p.Depth, q.Depth); err != nil {
		t.Fatalf("root %d: parallel BFS: %v", root, err)
	}
	if p.Levels != q.Levels || p.Inspected != q.Inspected || !slices.Equal(p.Frontier, q.Frontier) || !slices.Equal(p.FrontierArcs, q.FrontierArcs) {
		t.Fatalf("root %d: parallel BFS %d levels, %d arcs inspected; queue BFS %d, %d", root, p.Levels, p.Inspected, q.Levels, q.Inspected)
	}
	var vertices, arcs int64
	for d := range q.Frontier {
		vertices += q.Frontier[d]
		arcs += q.FrontierArcs[d]
	}
	reached := int64(0)
	for _, d := range q.Depth {
		if d >= 0 {
			reached++
		}
	}
	if q.Frontier[0] != 1 || arcs != q.Inspected || vertices != reached {
		t.Fatalf("root %d: frontiers %v, arcs %v, %d inspected", root, q.Frontier, q.FrontierArcs, q.Inspected)
	}
	d, err := ref.Dijkstra(g, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.SSSP(g, root, d.Dist, d.Pred); err != nil {
		t.Fatalf("root %d: Dijkstra: %v", root, err)
	}
	for v := range d.Dist {
		if math.IsInf(float64(d.Dist[v]), 1) != (q.Depth[v] < 0) {
			t.Fatalf("root %d: vertex %d at distance %v but BFS depth %d", root, v, d.Dist[v], q.Depth[v])
		}
	}
	for _, delta := range []float32{0, 0.25, 7} {
		ds, err := ref.DeltaStepping(g, root, delta)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.SSSP(g, root, ds.Dist, ds.Pred); err != nil {
			t.Fatalf("root %d: delta-stepping (delta %v): %v", root, delta, err)
		}
		if err := validate.SameDistances(ds.Dist, d.Dist); err != nil {
			t.Fatalf("root %d: delta-stepping (delta %v) against Dijkstra: %v", root, delta, err)
		}
	}
	if g.Integer {
		exact, pred, err := ref.DijkstraInt(g, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.SameIntDistances(d.Dist, exact); err != nil {
			t.Fatalf("root %d: float32 Dijkstra against exact: %v", root, err)
		}
		if err := validate.SSSP(g, root, d.Dist, pred); err != nil {
			t.Fatalf("root %d: exact Dijkstra's predecessors: %v", root, err)
		}
	}
}

// The references pass the conformance suite their GPU rivals run.
func TestConformance(t *testing.T) {
	t.Run("queue-bfs", func(t *testing.T) {
		traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
			r, err := ref.BFS(g, root)
			if err != nil {
				return nil, nil, err
			}
			return r.Parent, r.Depth, nil
		})
	})
	t.Run("parallel-bfs-parents-only", func(t *testing.T) {
		traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
			r, err := ref.ParallelBFS(g, root)
			if err != nil {
				return nil, nil, err
			}
			return r.Parent, nil, nil
		})
	})
	for _, ab := range [][2]float64{{0, 0}, {1e9, 1e-9}} {
		t.Run(fmt.Sprintf("direction-optimizing-alpha=%g,beta=%g", ab[0], ab[1]), func(t *testing.T) {
			traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
				if g.InOffsets == nil {
					return nil, nil, nil // a directed case without in-arcs: TestDirectionOptimizing
				}
				r, err := ref.DirectionOptimizingBFS(g, root, ab[0], ab[1])
				if err != nil {
					return nil, nil, err
				}
				return r.Parent, r.Depth, nil
			})
		})
	}
	t.Run("delta-stepping", func(t *testing.T) {
		traversaltest.TestSSSP(t, func(g *graph.Graph, root int32) ([]float32, []int32, error) {
			r, err := ref.DeltaStepping(g, root, 0)
			if err != nil {
				return nil, nil, err
			}
			return r.Dist, r.Pred, nil
		})
	})
}

// TestDirectionOptimizing: bottom-up steps inspect fewer arcs on a
// Kronecker graph, and a directed graph without in-arcs is refused.
func TestDirectionOptimizing(t *testing.T) {
	e, _ := gen.DefaultKronecker(14).Generate()
	g, _ := graph.Build(e, graph.Options{})
	roots, _ := g.Roots(2, 1)
	for _, root := range roots {
		q, _ := ref.BFS(g, root)
		d, err := ref.DirectionOptimizingBFS(g, root, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.BFS(g, root, d.Parent, d.Depth); err != nil {
			t.Fatal(err)
		}
		if err := validate.SameDepths(d.Depth, q.Depth); err != nil {
			t.Fatal(err)
		}
		t.Logf("root %d: %d arcs inspected, top-down %d", root, d.Inspected, q.Inspected)
		if d.Inspected*2 > q.Inspected {
			t.Errorf("root %d: %d arcs inspected, top-down %d: want fewer than half", root, d.Inspected, q.Inspected)
		}
	}
	dir, _ := graph.Build(traversaltest.List("directed", 2, true, 0, 1), graph.Options{})
	if _, err := ref.DirectionOptimizingBFS(dir, 0, 0, 0); err == nil {
		t.Error("a directed graph without in-arcs: no error")
	}
	if _, err := ref.DirectionOptimizingBFS(g, 0, -1, 0); err == nil {
		t.Error("alpha -1: no error")
	}
}

func TestErrors(t *testing.T) {
	e := traversaltest.List("tiny", 3, false, 0, 1, 1, 2)
	g, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ref.BFS(g, 3); err == nil {
		t.Error("BFS from vertex 3 of 3: no error")
	}
	if _, err := ref.ParallelBFS(g, -1); err == nil {
		t.Error("parallel BFS from -1: no error")
	}
	if _, err := ref.Dijkstra(g, 0); err == nil {
		t.Error("Dijkstra on an unweighted graph: no error")
	}
	gw, _ := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}})
	if _, _, err := ref.DijkstraInt(gw, 0); err == nil {
		t.Error("exact Dijkstra on float weights: no error")
	}
	if _, err := ref.DeltaStepping(gw, 0, float32(math.NaN())); err == nil {
		t.Error("delta NaN: no error")
	}
	if _, err := ref.DeltaStepping(gw, 0, 1e-30); err == nil {
		t.Error("delta 1e-30 on weights up to 1: no error")
	}
}

func BenchmarkReferences(b *testing.B) {
	kron, _ := gen.DefaultKronecker(16).Generate()
	road, _ := gen.DefaultRoad(512, 512).Generate()
	for _, in := range []*graph.Edges{kron, road} {
		g, err := graph.Build(in, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}})
		if err != nil {
			b.Fatal(err)
		}
		roots, _ := g.Roots(1, 1)
		root := roots[0]
		name := "kronecker16"
		if in == road {
			name = "road512"
		}
		run := func(what string, f func() int64) {
			b.Run(name+"/"+what, func(b *testing.B) {
				var arcs int64
				for b.Loop() {
					arcs = f()
				}
				b.ReportMetric(float64(arcs)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
			})
		}
		run("bfs", func() int64 { r, _ := ref.BFS(g, root); return r.Inspected })
		run("parallel-bfs", func() int64 { r, _ := ref.ParallelBFS(g, root); return r.Inspected })
		run("direction-optimizing-bfs", func() int64 { r, _ := ref.DirectionOptimizingBFS(g, root, 0, 0); return r.Inspected })
		run("dijkstra", func() int64 { r, _ := ref.Dijkstra(g, root); return r.Inspected })
		run("delta-stepping", func() int64 { r, _ := ref.DeltaStepping(g, root, 0); return r.Inspected })
	}
}

// The references on a small Graph500 graph, each checked.
func Example() {
	k := gen.DefaultKronecker(10)
	edges, _ := k.Generate()
	g, _ := graph.Build(edges, graph.Options{Weights: graph.Weights{Kind: graph.UniformInt, Max: 255}, Seed: 1})
	roots, _ := g.Roots(1, 1)
	bfs, _ := ref.BFS(g, roots[0])
	fmt.Println("BFS valid:", validate.BFS(g, roots[0], bfs.Parent, bfs.Depth) == nil, "levels:", bfs.Levels)
	sp, _ := ref.DeltaStepping(g, roots[0], 0)
	exact, _, _ := ref.DijkstraInt(g, roots[0])
	fmt.Println("SSSP valid:", validate.SSSP(g, roots[0], sp.Dist, sp.Pred) == nil, "exact:", validate.SameIntDistances(sp.Dist, exact) == nil)
	// Output:
	// BFS valid: true levels: 5
	// SSSP valid: true exact: true
}

// TestParallelPaths runs the references on graphs whose frontiers and
// buckets are large enough to be split among workers.
func TestParallelPaths(t *testing.T) {
	kron := gen.DefaultKronecker(14)
	ke, _ := kron.Generate()
	re, _ := gen.DefaultRoad(120, 100).Generate()
	for _, e := range []*graph.Edges{ke, re} {
		for _, w := range []graph.Weights{{Kind: graph.UniformInt, Max: 4}, {Kind: graph.UniformFloat}} {
			g, err := graph.Build(e, graph.Options{Weights: w, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			roots, _ := g.Roots(2, 5)
			for _, r := range roots {
				checkRoot(t, g, r)
			}
		}
	}
}
