package graph

import (
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/par"
)

// Edges is a list of input edges: edge e joins Src[e] to Dst[e], with value
// Val[e] when Val is not nil. Vertex ids are 0-based and below NumVertices.
type Edges struct {
	Name        string // where the edges came from, for messages
	NumVertices int
	Src, Dst    []int32
	Val         []float64 // per edge, or nil
	Directed    bool
}

// NumEdges is the number of input edges.
func (e *Edges) NumEdges() int { return len(e.Src) }

// Graph is a CSR graph for traversal; see the package documentation for the
// layout. The slices must not be changed once built.
type Graph struct {
	Name        string
	NumVertices int
	Directed    bool

	Offsets []int64   // NumVertices+1 entries
	Adj     []int32   // out-arcs, sorted by target within each vertex
	Weight  []float32 // per arc, or nil for an unweighted graph

	// The transpose (in-arcs), built for directed graphs with
	// Options.Transpose; the same slices as Offsets, Adj and Weight for an
	// undirected graph; nil otherwise.
	InOffsets []int64
	InAdj     []int32
	InWeight  []float32

	// Integer says every weight is an integer in [0, 2^24] (uniform-int
	// weights, or file values that happen to be).
	Integer bool

	// InputCount[v] is the number of input edges whose source is v (after
	// relabelling), duplicates and self-loops included; InputEdges is their
	// sum, the number of input edges.
	InputCount []int64
	InputEdges int64

	// NewID[old] and OldID[new] map between the input's vertex ids and the
	// graph's; both nil when the graph was not relabelled.
	NewID, OldID []int32

	// What Build removed: self-loop arcs (Options.DropSelfLoops) and
	// repeated arcs (Options.Dedupe).
	DroppedSelfLoops, DroppedDuplicates int64
}

// NumArcs is the number of stored arcs (directed edges).
func (g *Graph) NumArcs() int64 { return int64(len(g.Adj)) }

// Degree is the number of out-arcs of v.
func (g *Graph) Degree(v int32) int64 { return g.Offsets[v+1] - g.Offsets[v] }

// Neighbors returns the targets of v's out-arcs.
func (g *Graph) Neighbors(v int32) []int32 { return g.Adj[g.Offsets[v]:g.Offsets[v+1]] }

// ArcWeights returns the weights of v's out-arcs, or nil for an unweighted
// graph.
func (g *Graph) ArcWeights(v int32) []float32 {
	if g.Weight == nil {
		return nil
	}
	return g.Weight[g.Offsets[v]:g.Offsets[v+1]]
}

// IntWeights returns the weights as int32, or an error when they are not
// all integers (Graph.Integer). It allocates 4 bytes per arc.
func (g *Graph) IntWeights() ([]int32, error) {
	if g.Weight == nil {
		return nil, fmt.Errorf("%s: graph has no weights", g.Name)
	}
	if !g.Integer {
		return nil, fmt.Errorf("%s: weights are not all integers of at most 2^24", g.Name)
	}
	out := make([]int32, len(g.Weight))
	for i, w := range g.Weight {
		out[i] = int32(w)
	}
	return out, nil
}

// ReachedInputEdges is Graph500's edge count for TEPS: the sum of
// InputCount over the vertices v with reached[v] >= 0 (a BFS parent or
// depth array, an SSSP predecessor array: -1 marks unreached vertices).
// See the package documentation.
func (g *Graph) ReachedInputEdges(reached []int32) int64 {
	var s int64
	for v, r := range reached[:min(len(reached), len(g.InputCount))] {
		if r >= 0 {
			s += g.InputCount[v]
		}
	}
	return s
}

// Bytes is the memory the graph's arrays hold (shared transposes once).
func (g *Graph) Bytes() int64 {
	b := int64(8*len(g.Offsets) + 4*len(g.Adj) + 4*len(g.Weight) + 8*len(g.InputCount) + 4*len(g.NewID) + 4*len(g.OldID))
	if g.Directed {
		b += int64(8*len(g.InOffsets) + 4*len(g.InAdj) + 4*len(g.InWeight))
	}
	return b
}

// Check verifies the invariants Build establishes: offsets that start at
// 0, never decrease and end at len(Adj); targets in range and sorted
// within each vertex; weights non-negative and finite, integral when
// Integer says so; InputCount summing to InputEdges; the transpose holding
// the same arcs reversed. It takes O(n + m) time (O(m log m) for the
// transpose of a directed graph) and is meant for tests.
func (g *Graph) Check() error {
	if err := checkCSR(g.Name, "out", g.NumVertices, g.Offsets, g.Adj, g.Weight, g.Integer); err != nil {
		return err
	}
	if len(g.InputCount) != g.NumVertices {
		return fmt.Errorf("%s: %d input counts for %d vertices", g.Name, len(g.InputCount), g.NumVertices)
	}
	var s int64
	for _, c := range g.InputCount {
		s += c
	}
	if s != g.InputEdges {
		return fmt.Errorf("%s: input counts sum to %d, not %d", g.Name, s, g.InputEdges)
	}
	if g.InOffsets == nil {
		return nil
	}
	if err := checkCSR(g.Name, "in", g.NumVertices, g.InOffsets, g.InAdj, g.InWeight, g.Integer); err != nil {
		return err
	}
	if len(g.InAdj) != len(g.Adj) {
		return fmt.Errorf("%s: %d in-arcs but %d out-arcs", g.Name, len(g.InAdj), len(g.Adj))
	}
	// Every out-arc u->v appears among v's in-arcs: count them per (v,u).
	type arc struct {
		a, b int32
		w    float32
	}
	count := make(map[arc]int, len(g.Adj))
	for u := range g.NumVertices {
		for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
			k := arc{a: int32(u), b: g.Adj[e]}
			if g.Weight != nil {
				k.w = g.Weight[e]
			}
			count[k]++
		}
	}
	for v := range g.NumVertices {
		for e := g.InOffsets[v]; e < g.InOffsets[v+1]; e++ {
			k := arc{a: g.InAdj[e], b: int32(v)}
			if g.InWeight != nil {
				k.w = g.InWeight[e]
			}
			if count[k] == 0 {
				return fmt.Errorf("%s: in-arc %d<-%d has no out-arc %d->%d", g.Name, v, k.a, k.a, v)
			}
			count[k]--
		}
	}
	return nil
}

func checkCSR(name, which string, n int, off []int64, adj []int32, w []float32, integer bool) error {
	if len(off) != n+1 || off[0] != 0 || off[n] != int64(len(adj)) {
		return fmt.Errorf("%s: %s-offsets do not span the %d arcs of %d vertices", name, which, len(adj), n)
	}
	if w != nil && len(w) != len(adj) {
		return fmt.Errorf("%s: %d %s-weights for %d arcs", name, len(w), which, len(adj))
	}
	for v := range n {
		if off[v+1] < off[v] {
			return fmt.Errorf("%s: %s-offsets decrease at vertex %d", name, which, v)
		}
		for e := off[v]; e < off[v+1]; e++ {
			t := adj[e]
			if t < 0 || int(t) >= n {
				return fmt.Errorf("%s: %s-arc %d of vertex %d leads to %d, outside [0,%d)", name, which, e, v, t, n)
			}
			if e > off[v] && (adj[e-1] > t || (adj[e-1] == t && w != nil && w[e-1] > w[e])) {
				return fmt.Errorf("%s: %s-arcs of vertex %d not sorted at arc %d", name, which, v, e)
			}
			if w != nil {
				x := w[e]
				if !(x >= 0) || math.IsInf(float64(x), 0) || (integer && (x != float32(math.Trunc(float64(x))) || x > 1<<24)) {
					return fmt.Errorf("%s: %s-arc %d of vertex %d has weight %v", name, which, e, v, x)
				}
			}
		}
	}
	return nil
}

// Sources returns the source vertex of every arc, aligned with Adj: the
// COO form (Sources()[e], Adj[e]) that edge-based strategies iterate over.
// It allocates 4 bytes per arc and runs in parallel, O(n + m).
func (g *Graph) Sources() []int32 {
	src := make([]int32, len(g.Adj))
	bounds := rowTasks(g.Offsets)
	par.Do(len(bounds)-1, func(t int) {
		for v := bounds[t]; v < bounds[t+1]; v++ {
			s := src[g.Offsets[v]:g.Offsets[v+1]]
			for i := range s {
				s[i] = int32(v)
			}
		}
	})
	return src
}

// MaxDegree is the largest number of out-arcs of a vertex (0 without
// vertices).
func (g *Graph) MaxDegree() int64 {
	var d int64
	for v := range g.NumVertices {
		d = max(d, g.Offsets[v+1]-g.Offsets[v])
	}
	return d
}
