package matrices

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BuildIncidence lists every edge at each of its endpoints (a self-loop
// once), in edge order, and Opposite gives the other endpoint: checked
// against a naive construction on random graphs with self-loops and
// repeated edges, on the serial path and on the ranges of edges.
func TestBuildIncidenceOracle(t *testing.T) {
	defer func(e int) { incidenceParallelEdges = e }(incidenceParallelEdges)
	r := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 200; trial++ {
		incidenceParallelEdges = []int{1, 1 << 20}[trial%2]
		n := 1 + r.IntN(40)
		m := r.IntN(200)
		g := &Graph{NumVertices: n, NumRowVertices: n, Model: ModelGraph}
		for range m {
			g.U = append(g.U, r.Int32N(int32(n)))
			g.V = append(g.V, r.Int32N(int32(n)))
		}
		inc, err := BuildIncidence(g)
		if err != nil {
			t.Fatal(err)
		}
		want := make([][]int32, n)
		for e := range g.U {
			want[g.U[e]] = append(want[g.U[e]], int32(e))
			if g.V[e] != g.U[e] {
				want[g.V[e]] = append(want[g.V[e]], int32(e))
			}
		}
		for v := range n {
			got := inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]]
			if !slices.Equal(got, want[v]) && (len(got) > 0 || len(want[v]) > 0) {
				t.Fatalf("trial %d: vertex %d lists %v, want %v", trial, v, got, want[v])
			}
			for _, e := range got {
				if o := g.Opposite(e, int32(v)); (g.U[e] != int32(v) || o != g.V[e]) && (g.V[e] != int32(v) || o != g.U[e]) {
					t.Fatalf("trial %d: edge %d (%d,%d) seen from %d: opposite %d", trial, e, g.U[e], g.V[e], v, o)
				}
			}
		}
	}
}
