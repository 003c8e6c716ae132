package traversaltest

import (
	"fmt"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

// BFSFunc is a BFS under test: it returns the parent array and, when it
// computes one, the depth array (nil otherwise), in package ref's layout.
type BFSFunc func(g *graph.Graph, root int32) (parent, depth []int32, err error)

// SSSPFunc is an SSSP under test: float32 distances (+Inf unreached) and
// predecessors (-1 unreached, the root its own).
type SSSPFunc func(g *graph.Graph, root int32) (dist []float32, pred []int32, err error)

// Seeds are the corpus seeds the conformance tests run.
var Seeds = []uint64{1, 2}

// TestBFS is the conformance test of a BFS: on every case of the corpus
// (Cases, for each of Seeds) and every root of Roots, the result must pass
// validate.BFS and have ref.BFS's depths (or, when f returns no depths,
// reach the same vertices: valid parents then imply the depths). f
// returns nil parents and depths, and no error, for a graph it does not
// apply to (a pull strategy on a directed graph without in-arcs).
func TestBFS(t *testing.T, f BFSFunc) {
	t.Helper()
	for _, seed := range Seeds {
		for _, c := range Cases(seed) {
			t.Run(fmt.Sprintf("%s/seed=%d", c.Name, seed), func(t *testing.T) {
				g, err := c.Build(graph.Weights{}, seed)
				if err != nil {
					t.Fatal(err)
				}
				for _, root := range Roots(g, 3, seed) {
					want, err := ref.BFS(g, root)
					if err != nil {
						t.Fatal(err)
					}
					parent, depth, err := f(g, root)
					if err != nil {
						t.Fatalf("root %d: %v", root, err)
					}
					if parent == nil && depth == nil {
						continue // f does not apply to this graph
					}
					if err := validate.BFS(g, root, parent, depth); err != nil {
						t.Fatalf("root %d: %v", root, err)
					}
					if depth == nil {
						// Valid parents have the reference's levels; compare
						// the reached sets, which is what is left to check.
						for v := range parent {
							if (parent[v] >= 0) != (want.Parent[v] >= 0) {
								t.Fatalf("root %d: vertex %d reached %t, the reference says %t", root, v, parent[v] >= 0, want.Parent[v] >= 0)
							}
						}
						continue
					}
					if err := validate.SameDepths(depth, want.Depth); err != nil {
						t.Fatalf("root %d: %v", root, err)
					}
				}
			})
		}
	}
}

// SSSPWeights are the weights the SSSP conformance test runs: integers up
// to 100, all ones (many equal distances), and floats in (0,1].
var SSSPWeights = []graph.Weights{{Kind: graph.UniformInt, Max: 100}, {Kind: graph.UniformInt, Max: 1}, {Kind: graph.UniformFloat}}

// TestSSSP is the conformance test of an SSSP: on every case, weight kind
// of SSSPWeights and root, the result must pass validate.SSSP, equal
// ref.Dijkstra's float32 distances bitwise and, with integer weights,
// ref.DijkstraInt's exact ones.
func TestSSSP(t *testing.T, f SSSPFunc) {
	t.Helper()
	for _, seed := range Seeds {
		for _, c := range Cases(seed) {
			for _, w := range SSSPWeights {
				t.Run(fmt.Sprintf("%s/%v/seed=%d", c.Name, w, seed), func(t *testing.T) {
					g, err := c.Build(w, seed)
					if err != nil {
						t.Fatal(err)
					}
					for _, root := range Roots(g, 3, seed) {
						dist, pred, err := f(g, root)
						if err != nil {
							t.Fatalf("root %d: %v", root, err)
						}
						if err := validate.SSSP(g, root, dist, pred); err != nil {
							t.Fatalf("root %d: %v", root, err)
						}
						want, err := ref.Dijkstra(g, root)
						if err != nil {
							t.Fatal(err)
						}
						if err := validate.SameDistances(dist, want.Dist); err != nil {
							t.Fatalf("root %d: against Dijkstra: %v", root, err)
						}
						if g.Integer {
							exact, _, err := ref.DijkstraInt(g, root)
							if err != nil {
								t.Fatal(err)
							}
							if err := validate.SameIntDistances(dist, exact); err != nil {
								t.Fatalf("root %d: against exact Dijkstra: %v", root, err)
							}
						}
					}
				})
			}
		}
	}
}
