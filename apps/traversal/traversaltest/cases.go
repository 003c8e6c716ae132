// Package traversaltest is the corpus of graphs every traversal is tested
// on, CPU reference or GPU strategy: the shapes that break traversal codes
// in practice (a single vertex, isolated vertices, self-loops, duplicate
// edges, disconnected and directed graphs, a star, a road grid, a small
// Kronecker graph), each with the roots worth searching from (random roots
// of degree > 0, vertex 0, and a root of degree zero where there is one).
// TestBFS and TestSSSP are the conformance tests every BFS and SSSP passes,
// CPU or GPU, as gonum's testgraph is for graph implementations: every case,
// every root, the result checked with package validate and compared with
// package ref. They run in well under a second on the CPU references.
package traversaltest

import (
	"fmt"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/rng"
)

// Case is one graph of the corpus.
type Case struct {
	Name  string
	Edges *graph.Edges
	Opt   graph.Options
}

// Build builds the case's graph with the given weights (and the case's
// other options).
func (c Case) Build(w graph.Weights, seed uint64) (*graph.Graph, error) {
	opt := c.Opt
	opt.Weights, opt.Seed = w, seed
	return graph.Build(c.Edges, opt)
}

// Random returns m edges on n vertices drawn uniformly from seed (self-loops
// and repeats as they fall).
func Random(name string, n, m int, directed bool, seed uint64) *graph.Edges {
	e := &graph.Edges{Name: name, NumVertices: n, Src: make([]int32, m), Dst: make([]int32, m), Directed: directed}
	k := rng.NewKey(seed, 7)
	for i := range m {
		e.Src[i] = int32(rng.Below(k.At(2*uint64(i)), uint32(n)))
		e.Dst[i] = int32(rng.Below(k.At(2*uint64(i)+1), uint32(n)))
	}
	return e
}

// List makes an edge list from pairs u0, v0, u1, v1, ...
func List(name string, n int, directed bool, pairs ...int32) *graph.Edges {
	e := &graph.Edges{Name: name, NumVertices: n, Directed: directed}
	for i := 0; i+1 < len(pairs); i += 2 {
		e.Src = append(e.Src, pairs[i])
		e.Dst = append(e.Dst, pairs[i+1])
	}
	return e
}

// Cases returns the corpus, drawn from seed. The graphs are small (at most
// a few thousand vertices), so a test runs every case in milliseconds.
func Cases(seed uint64) []Case {
	must := func(e *graph.Edges, err error) *graph.Edges {
		if err != nil {
			panic(fmt.Sprintf("traversaltest: %v", err)) // the corpus's own parameters are valid
		}
		return e
	}
	kron := gen.DefaultKronecker(9)
	kron.EdgeFactor, kron.Seed = 8, seed
	road := gen.DefaultRoad(40, 30)
	road.Seed = seed
	highways := road
	highways.Highways, highways.Shuffle = 20, true
	disconnected := Random("disconnected", 300, 400, false, seed)
	for i := range disconnected.Src { // vertices 0..149 and 150..299 never meet; 299 stays isolated
		if disconnected.Src[i] < 150 {
			disconnected.Dst[i] %= 150
		} else {
			disconnected.Dst[i] = 150 + disconnected.Dst[i]%149
			disconnected.Src[i] = min(disconnected.Src[i], 298)
		}
	}
	star := &graph.Edges{Name: "star", NumVertices: 500}
	for v := int32(1); v < 500; v++ {
		star.Src = append(star.Src, 0)
		star.Dst = append(star.Dst, v)
	}
	return []Case{
		{Name: "single-vertex", Edges: List("single-vertex", 1, false)},
		{Name: "single-vertex-self-loop", Edges: List("single-vertex-self-loop", 1, false, 0, 0)},
		{Name: "isolated", Edges: List("isolated", 6, false, 1, 2, 2, 3)},
		{Name: "path-directed", Edges: List("path-directed", 5, true, 0, 1, 1, 2, 2, 3, 3, 4)},
		{Name: "dag", Edges: List("dag", 7, true, 0, 1, 0, 2, 1, 3, 2, 3, 3, 4, 5, 4, 6, 5)},
		{Name: "random-undirected", Edges: Random("random-undirected", 400, 1200, false, seed)},
		{Name: "random-directed", Edges: Random("random-directed", 400, 1600, true, seed+1)},
		{Name: "random-directed-as-undirected", Edges: Random("random-directed-as-undirected", 400, 800, true, seed+2), Opt: graph.Options{Undirected: true, Transpose: true}},
		{Name: "random-directed-transposed", Edges: Random("random-directed-transposed", 300, 900, true, seed+3), Opt: graph.Options{Transpose: true}},
		{Name: "dense-repeats", Edges: Random("dense-repeats", 20, 600, false, seed+4)},
		{Name: "dense-repeats-deduped", Edges: Random("dense-repeats-deduped", 20, 600, false, seed+4), Opt: graph.Options{Dedupe: true, DropSelfLoops: true}},
		{Name: "disconnected", Edges: disconnected},
		{Name: "star", Edges: star},
		{Name: "star-relabelled", Edges: star, Opt: graph.Options{Relabel: graph.RelabelRandom}},
		{Name: "road", Edges: must(road.Generate())},
		{Name: "road-highways", Edges: must(highways.Generate())},
		{Name: "kronecker", Edges: must(kron.Generate())},
		{Name: "kronecker-deduped-by-degree", Edges: must(kron.Generate()), Opt: graph.Options{Dedupe: true, DropSelfLoops: true, Relabel: graph.RelabelDegree}},
	}
}

// Roots returns the roots worth testing on g: up to k random roots of
// degree > 0, vertex 0, and the first vertex without out-arcs if any (a
// root of degree zero), without repeats.
func Roots(g *graph.Graph, k int, seed uint64) []int32 {
	var out []int32
	seen := map[int32]bool{}
	add := func(v int32) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if rs, err := g.Roots(k, seed); err == nil {
		for _, r := range rs {
			add(r)
		}
	}
	if g.NumVertices > 0 {
		add(0)
	}
	for v := range g.NumVertices {
		if g.Degree(int32(v)) == 0 {
			add(int32(v))
			break
		}
	}
	return out
}
