package matrices

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
)

// GonumGraph shows a locality graph to gonum's graph algorithms as a
// graph.Undirected, so that tests can use them as oracles (connected
// components, shortest paths, ...). Node IDs are vertex numbers
// 0..NumVertices-1. Parallel edges (tasks joining the same two objects)
// are one gonum edge, and a self-loop is an edge from the vertex to itself:
// From(v) lists each neighbour once, v included when it has a self-loop.
// The neighbour lists are flat CSR slices built once, so every query is a
// slice walk or a binary search; a GonumGraph is read-only and safe for
// concurrent use.
type GonumGraph struct {
	G   *Graph
	Inc *Incidence
	off []int32 // nbr[off[v]:off[v+1]] are v's distinct neighbours, increasing
	nbr []int32
}

var _ graph.Undirected = (*GonumGraph)(nil)

// NewGonumGraph wraps g and its incidence lists; inc may be nil, and is
// then built.
func NewGonumGraph(g *Graph, inc *Incidence) (*GonumGraph, error) {
	if g == nil || g.NumVertices < 0 {
		return nil, fmt.Errorf("gonum graph: no graph, or a negative vertex count")
	}
	if inc == nil {
		var err error
		if inc, err = BuildIncidence(g); err != nil {
			return nil, fmt.Errorf("gonum graph: %w", err)
		}
	}
	if len(inc.Offsets) != g.NumVertices+1 {
		return nil, fmt.Errorf("gonum graph: incidence lists cover %d vertices, the graph has %d", len(inc.Offsets)-1, g.NumVertices)
	}
	off := make([]int32, g.NumVertices+1)
	nbr := make([]int32, 0, len(inc.Edge))
	for v := 0; v < g.NumVertices; v++ {
		start := len(nbr)
		for _, e := range inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]] {
			nbr = append(nbr, g.Opposite(e, int32(v)))
		}
		slices.Sort(nbr[start:])
		nbr = append(nbr[:start], slices.Compact(nbr[start:])...)
		off[v+1] = int32(len(nbr))
	}
	return &GonumGraph{G: g, Inc: inc, off: off, nbr: slices.Clip(nbr)}, nil
}

// GonumNode is a vertex as gonum sees it.
type GonumNode int64

// ID is the vertex number.
func (n GonumNode) ID() int64 { return int64(n) }

// GonumEdge joins two vertices; it stands for every task between them.
type GonumEdge struct{ F, T GonumNode }

// From is the edge's first end.
func (e GonumEdge) From() graph.Node { return e.F }

// To is the edge's second end.
func (e GonumEdge) To() graph.Node { return e.T }

// ReversedEdge swaps the ends.
func (e GonumEdge) ReversedEdge() graph.Edge { return GonumEdge{F: e.T, T: e.F} }

func (gg *GonumGraph) has(id int64) bool { return id >= 0 && id < int64(gg.G.NumVertices) }

// Neighbours returns the distinct neighbours of v in increasing order, a
// view of the internal slice: do not modify it.
func (gg *GonumGraph) Neighbours(v int) []int32 { return gg.nbr[gg.off[v]:gg.off[v+1]] }

// Node returns the vertex with the given ID, or nil if there is none.
func (gg *GonumGraph) Node(id int64) graph.Node {
	if !gg.has(id) {
		return nil
	}
	return GonumNode(id)
}

// Nodes returns all vertices in increasing order.
func (gg *GonumGraph) Nodes() graph.Nodes {
	if gg.G.NumVertices == 0 {
		return graph.Empty
	}
	return iterator.NewImplicitNodes(0, gg.G.NumVertices, func(id int) graph.Node { return GonumNode(id) })
}

// From returns the distinct neighbours of the vertex id.
func (gg *GonumGraph) From(id int64) graph.Nodes {
	if !gg.has(id) || gg.off[id] == gg.off[id+1] {
		return graph.Empty
	}
	return &gonumNodes{ids: gg.Neighbours(int(id)), pos: -1}
}

// HasEdgeBetween reports whether some task joins x and y.
func (gg *GonumGraph) HasEdgeBetween(xid, yid int64) bool {
	if !gg.has(xid) || !gg.has(yid) {
		return false
	}
	_, ok := slices.BinarySearch(gg.Neighbours(int(xid)), int32(yid))
	return ok
}

// Edge returns the edge from u to v, or nil if there is none.
func (gg *GonumGraph) Edge(uid, vid int64) graph.Edge {
	if !gg.HasEdgeBetween(uid, vid) {
		return nil
	}
	return GonumEdge{F: GonumNode(uid), T: GonumNode(vid)}
}

// EdgeBetween is Edge: the graph is undirected.
func (gg *GonumGraph) EdgeBetween(xid, yid int64) graph.Edge { return gg.Edge(xid, yid) }

// gonumNodes iterates over a slice of vertex numbers as graph.Nodes without
// materialising graph.Node values up front.
type gonumNodes struct {
	ids []int32
	pos int
}

func (it *gonumNodes) Len() int {
	if it.pos >= len(it.ids) {
		return 0
	}
	return len(it.ids) - it.pos - 1
}

func (it *gonumNodes) Next() bool {
	if it.pos+1 < len(it.ids) {
		it.pos++
		return true
	}
	it.pos = len(it.ids)
	return false
}

func (it *gonumNodes) Node() graph.Node {
	if it.pos < 0 || it.pos >= len(it.ids) {
		return nil
	}
	return GonumNode(it.ids[it.pos])
}

func (it *gonumNodes) Reset() { it.pos = -1 }

// NodeSlice returns the remaining nodes and exhausts the iterator; gonum's
// graph.NodesOf uses it to skip the one-by-one walk.
func (it *gonumNodes) NodeSlice() []graph.Node {
	if it.pos+1 >= len(it.ids) {
		it.pos = len(it.ids)
		return nil
	}
	out := make([]graph.Node, 0, len(it.ids)-it.pos-1)
	for _, id := range it.ids[it.pos+1:] {
		out = append(out, GonumNode(id))
	}
	it.pos = len(it.ids)
	return out
}
