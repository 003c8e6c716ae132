package adaptive_test

import (
	"fmt"
	"os"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/graph"
)

// The engine's side: the graph's stats once, then per level the three
// counters of the frontier it built, the features in O(1), the choice.
func Example() {
	// A path 0-1-2-3 with a leaf 4 on vertex 1.
	e := &graph.Edges{Name: "example", NumVertices: 5, Src: []int32{0, 1, 2, 1}, Dst: []int32{1, 2, 3, 4}}
	g, _ := graph.Build(e, graph.Options{})
	m, err := adaptive.Default()
	if err != nil {
		panic(err)
	}
	if m.Synthetic {
		fmt.Fprintln(os.Stderr, "note:", adaptive.SyntheticNote)
	}
	tr := adaptive.NewTracker(adaptive.StatsOf(g))
	levels := []adaptive.Counters{
		adaptive.RootCounters(g, 0), // {1 vertex, 1 arc, max degree 1}
		{Vertices: 1, Arcs: 3, MaxDegree: 3},
		{Vertices: 2, Arcs: 3, MaxDegree: 2},
		{Vertices: 1, Arcs: 1, MaxDegree: 1},
	}
	for _, c := range levels {
		f := tr.Next(c)
		fmt.Printf("level %v: %v of %v vertices in the frontier, %.0f%% discovered, %v of %v arcs unexplored\n",
			f[adaptive.Level], f[adaptive.FrontierVertices], f[adaptive.Vertices], 100*f[adaptive.DiscoveredFraction],
			f[adaptive.UnexploredArcFraction]*f[adaptive.Arcs], f[adaptive.Arcs])
		_ = m.Choose(&f) // the candidate to run this level with
	}
	// Output:
	// level 0: 1 of 5 vertices in the frontier, 20% discovered, 7 of 8 arcs unexplored
	// level 1: 1 of 5 vertices in the frontier, 40% discovered, 4 of 8 arcs unexplored
	// level 2: 2 of 5 vertices in the frontier, 80% discovered, 1 of 8 arcs unexplored
	// level 3: 1 of 5 vertices in the frontier, 100% discovered, 0 of 8 arcs unexplored
}
