// Package transform turns a locality graph into the graph whose balanced
// vertex partition is a balanced edge partition of the original: SPAC's
// split-and-connect transformation (Li et al., POMACS 2017, section 3.2) and
// the Omega mapping that brings a vertex partition back to the edges.
//
// Split: every vertex of degree d becomes d clones, one per incident edge.
// Connect: each original edge becomes a dominant edge between its two clones,
// and the clones of each vertex are chained into a path of auxiliary edges.
// With dominant edges heavy enough never to be cut, a vertex partition of
// the result cuts only auxiliary edges, and every cut auxiliary edge of a
// vertex's path stands for at most one more copy of that vertex.
//
// Two equivalent forms are offered. Split is the paper's graph with 2m
// clones. Contracted merges the two clones of every dominant edge first, so
// METIS sees one vertex per original edge and only the auxiliary edges: the
// same optimum, half the vertices, no dominant edge to keep uncut.
package transform

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/spac-gpu/spac/internal/enum"
	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// Formulation chooses which of the two equivalent graphs is built.
type Formulation uint8

const (
	// Contracted has one vertex per original edge; vertex e is edge e.
	Contracted Formulation = iota
	// Split has two clones per original edge: vertex 2e is the clone at
	// U[e], vertex 2e+1 the clone at V[e], joined by a dominant edge.
	Split
)

var formulations = enum.New("formulation",
	enum.Name[Formulation]{Value: Contracted, Name: "contracted"},
	enum.Name[Formulation]{Value: Split, Name: "split"},
)

func (f Formulation) String() string { return formulations.String(f) }

// ParseFormulation reads a formulation name.
func ParseFormulation(s string) (Formulation, error) { return formulations.Parse(s) }

// Order is the order in which a vertex's clones are chained. The paper
// leaves it free; it changes which cuts are cheap.
type Order uint8

const (
	// Walk chains a vertex's clones by a walk around the vertex through its
	// neighbours' own adjacency, each step to a neighbour adjacent to the
	// last one (on a planar mesh: the angular order), and closes the chain
	// into a cycle. Tasks reaching the same neighbour stay together, and
	// ties go to the smaller neighbour id, so the chain depends on the graph
	// and not on the order its edges came in. Neighbours of degree above
	// walkMaxDegree are not asked for their adjacency, so the cost is
	// bounded; in a bipartite graph no two neighbours are adjacent and the
	// walk is the neighbour order closed into a cycle. It gave the fewest
	// copies (scripts/variants.sh), so it is the zero value.
	Walk Order = iota
	// Cycle chains them by edge index and closes the path into a cycle, as
	// in the paper's experiments: the first and last clone become neighbours.
	Cycle
	// ByIndex chains them by edge index into a path, as the paper describes.
	ByIndex
	// ByNeighbour chains them by the index of the edge's other endpoint, so
	// that tasks leading to nearby data objects sit next to each other, as
	// an open path.
	ByNeighbour
)

// walkMaxDegree bounds the vertices whose neighbourhoods Walk explores.
const walkMaxDegree = 64

var orders = enum.New("clone order",
	enum.Name[Order]{Value: Walk, Name: "walk"},
	enum.Name[Order]{Value: Cycle, Name: "cycle"},
	enum.Name[Order]{Value: ByIndex, Name: "index"},
	enum.Name[Order]{Value: ByNeighbour, Name: "neighbour", Aliases: []string{"neighbor"}},
)

func (o Order) String() string { return orders.String(o) }

// ParseOrder reads a clone-order name.
func ParseOrder(s string) (Order, error) { return orders.Parse(s) }

// WeightedGraph is an undirected graph in the CSR form METIS takes: the
// neighbours of v are Adjncy[Xadj[v]:Xadj[v+1]] with weights Adjwgt, every
// edge listed from both ends, no self-loops, no repeated neighbour. Adjwgt
// is nil when every edge weighs 1 (as METIS reads a missing array): the
// contracted graph of a bipartite (spmv) locality graph without repeated
// entries, where the array would be 16 bytes per task of ones. The graphs
// Contract and SplitConnect build have unit vertex weights; a coarsened
// graph's weights travel beside it, in Level.Weight.
type WeightedGraph struct {
	Xadj, Adjncy, Adjwgt []int32
}

// EdgeWeight is the weight of adjacency entry i.
func (w *WeightedGraph) EdgeWeight(i int32) int32 {
	if w.Adjwgt == nil {
		return 1
	}
	return w.Adjwgt[i]
}

// NumVertices is the number of vertices.
func (w *WeightedGraph) NumVertices() int { return len(w.Xadj) - 1 }

// paths returns, for every vertex, its incident edges in chaining order,
// as CSR lists that share inc's offsets. ByIndex and Cycle reuse inc.Edge.
func paths(g *matrices.Graph, inc *matrices.Incidence, order Order) []int32 {
	switch order {
	case ByNeighbour:
		return byNeighbour(g, inc)
	case Walk:
		edge := byNeighbour(g, inc)
		if g.Model == matrices.ModelSpMV {
			return edge // bipartite: no two neighbours are adjacent, the walk is the sorted cycle
		}
		return walk(g, inc, edge)
	}
	return inc.Edge
}

// byNeighbour returns every vertex's incident edges sorted by the other
// endpoint, ties by edge index, as CSR lists sharing inc's offsets. Unlike
// the index order it depends on the graph alone, not on the order its edges
// came in (an unsorted edge list makes the index order random). Linear: the
// lists are transposed, each vertex u in increasing order handing each of
// its edges, in edge order, to the list of the edge's other endpoint; it is
// skipped when every list is in that order already, as in a row- or
// column-sorted file.
func byNeighbour(g *matrices.Graph, inc *matrices.Incidence) []int32 {
	if neighbourSorted(g, inc) {
		return inc.Edge
	}
	n := len(inc.Offsets) - 1
	next := slices.Clone(inc.Offsets[:n])
	edge := make([]int32, len(inc.Edge))
	for u := 0; u < n; u++ {
		for _, e := range inc.Edge[inc.Offsets[u]:inc.Offsets[u+1]] {
			v := g.Opposite(e, int32(u))
			edge[next[v]] = e
			next[v]++
		}
	}
	return edge
}

// forEachChained calls visit(v, e, a, b) for every edge e of every vertex
// v's chain, with e's neighbours along the chain in this order: its
// predecessor, its successor and, at either end of a chain closed into a
// cycle (of three or more: with two clones the closing link would repeat
// the only one), the edge at the other end; -1 where e has fewer than two.
// Each auxiliary edge is so seen from both its ends. Vertex ranges of about
// equal incidence are visited in parallel: visit may write only what
// belongs to e's place in v's chain.
func forEachChained(inc *matrices.Incidence, chain []int32, order Order, visit func(v int, e, a, b int32)) {
	n := len(inc.Offsets) - 1
	chunks := min(linkChunks, max(n, 1))
	// bound(c) is the first vertex whose list starts in chunk c's share of
	// the incidence entries.
	bound := func(c int) int {
		share := int32(int64(inc.Offsets[n]) * int64(c) / int64(chunks))
		return sort.Search(n, func(v int) bool { return inc.Offsets[v] >= share })
	}
	closes := order == Cycle || order == Walk
	par.Do(chunks, func(c int) {
		first, last := bound(c), bound(c+1)
		for v := first; v < last; v++ {
			lo, hi := inc.Offsets[v], inc.Offsets[v+1]
			closed := closes && hi-lo >= 3
			for i := lo; i < hi; i++ {
				a, b := int32(-1), int32(-1)
				if i > lo {
					a = chain[i-1]
				}
				if i+1 < hi {
					if a < 0 {
						a = chain[i+1]
					} else {
						b = chain[i+1]
					}
				}
				if closed && i == lo {
					b = chain[hi-1]
				} else if closed && i == hi-1 {
					b = chain[lo]
				}
				visit(v, chain[i], a, b)
			}
		}
	})
}

// linkChunks is the number of vertex ranges forEachChained runs in
// parallel: more than the cores, so that the ranges even out.
const linkChunks = 16

// Contract builds the contracted graph: vertex e for every edge e of g and
// an auxiliary edge of weight 1 between consecutive edges of every vertex's
// chain. Two edges consecutive in both their endpoints' chains (such as
// (i,j) and (j,i) of a symmetric matrix) get one edge of weight 2.
func Contract(g *matrices.Graph, inc *matrices.Incidence, order Order) (*WeightedGraph, error) {
	m := g.NumEdges()
	// Each edge has at most two endpoints and so at most four chain
	// neighbours: two slots per endpoint, the smaller endpoint's first, then
	// merge and compact.
	if 4*int64(m) > math.MaxInt32 {
		return nil, fmt.Errorf("transform: %d edges exceed the int32 range of the contracted graph", m)
	}
	chain := paths(g, inc, order)
	slot := bigInt32s(4 * m)
	if g.Model == matrices.ModelSpMV {
		// The smaller endpoint is the row, and there are no self-loops:
		// the vertex alone says which pair of slots is its, without
		// reading the edge's endpoints, two cache misses a column's edge.
		rows := g.NumRowVertices
		forEachChained(inc, chain, order, func(v int, e, a, b int32) {
			s := 4 * e
			if v >= rows {
				s += 2
			}
			slot[s], slot[s+1] = a, b
		})
		return compact(m, 4, slot, nil)
	}
	forEachChained(inc, chain, order, func(v int, e, a, b int32) {
		s := 4 * e
		switch x, y := g.U[e], g.V[e]; {
		case x == y: // a self-loop has one chain: its second pair of slots stays empty
			slot[s+2], slot[s+3] = -1, -1
		case int32(v) != min(x, y):
			s += 2
		}
		slot[s], slot[s+1] = a, b
	})
	return compact(m, 4, slot, nil)
}

// SplitConnect builds the paper's transformed graph: clones 2e (at U[e]) and
// 2e+1 (at V[e]) joined by a dominant edge of the given weight, and each
// vertex's clones chained by auxiliary edges of weight 1. A self-loop's
// second clone joins no chain: the edge touches one data object once.
func SplitConnect(g *matrices.Graph, inc *matrices.Incidence, order Order, dominant int32) (*WeightedGraph, error) {
	m := g.NumEdges()
	if dominant < 1 {
		return nil, fmt.Errorf("transform: dominant edge weight %d, want at least 1", dominant)
	}
	if 6*int64(m) > math.MaxInt32 {
		return nil, fmt.Errorf("transform: %d edges exceed the int32 range of the split graph", m)
	}
	n := 2 * m
	chain := paths(g, inc, order)
	// Slot 0 of every clone is its dominant partner; two chain neighbours follow.
	slot := bigInt32s(3 * n)
	weight := bigInt32s(3 * n)
	for e := 0; e < m; e++ {
		a, b := 2*e, 2*e+1
		slot[3*a], weight[3*a] = int32(b), dominant
		slot[3*b], weight[3*b] = int32(a), dominant
		if g.U[e] == g.V[e] { // the second clone joins no chain
			slot[3*b+1], slot[3*b+2] = -1, -1
		}
	}
	clone := func(v int, e int32) int32 {
		if e < 0 {
			return -1
		}
		if g.U[e] == int32(v) {
			return 2 * e
		}
		return 2*e + 1
	}
	forEachChained(inc, chain, order, func(v int, e, a, b int32) {
		s := 3*clone(v, e) + 1
		slot[s], slot[s+1] = clone(v, a), clone(v, b)
		weight[s], weight[s+1] = 1, 1
	})
	return compact(n, 3, slot, weight)
}

// compact turns fixed-width neighbour slots into CSR, merging repeated
// neighbours of a vertex into one edge with the summed weight. A slot of -1
// is empty; weight nil means every slot weighs 1, and then the graph gets
// no Adjwgt unless some vertex repeats a neighbour. The rows are packed in
// place, into slot and weight themselves (a row never starts after its
// vertex's slots), since touching fresh memory is what a graph of millions
// of vertices costs most: each of coarsenChunks vertex ranges is packed at
// the front of its own slots, in parallel, then the ranges are moved down
// together.
func compact(n, width int, slot []int32, weight []int32) (*WeightedGraph, error) {
	w := &WeightedGraph{Xadj: bigInt32s(n + 1)}
	chunks := min(coarsenChunks, max(n, 1))
	bound := func(c int) int { return int(int64(n) * int64(c) / int64(chunks)) }
	wgt := weight
	if wgt == nil && repeats(n, width, slot, chunks, bound) {
		wgt = bigInt32s(len(slot))
	}
	// Until the move, w.Xadj[v+1] is where v's row ends in slot.
	par.Do(chunks, func(c int) {
		at := int32(bound(c) * width)
		for v := bound(c); v < bound(c+1); v++ {
			base := v * width
			start := at
		slots:
			for i := 0; i < width; i++ {
				u := slot[base+i]
				if u < 0 {
					continue
				}
				wt := int32(1)
				if weight != nil {
					wt = weight[base+i]
				}
				for j := start; j < at; j++ {
					if slot[j] == u {
						wgt[j] += wt
						continue slots
					}
				}
				slot[at] = u
				if wgt != nil {
					wgt[at] = wt
				}
				at++
			}
			w.Xadj[v+1] = at
		}
	})
	w.Adjncy, w.Adjwgt = closeGaps(w.Xadj, slot, wgt, chunks,
		func(c int) int32 { return int32(bound(c)) }, func(c int) int32 { return int32(bound(c) * width) })
	return w, nil
}

// repeats reports whether some vertex lists a neighbour in two of its
// slots; the chunks of vertices are checked in parallel.
func repeats(n, width int, slot []int32, chunks int, bound func(c int) int) bool {
	var found atomic.Bool
	par.Do(chunks, func(c int) {
		for v := bound(c); v < bound(c+1) && !found.Load(); v++ {
			row := slot[v*width : (v+1)*width]
			for i, u := range row {
				if u >= 0 && slices.Contains(row[i+1:], u) {
					found.Store(true)
					return
				}
			}
		}
	})
	return found.Load()
}

// Omega maps a vertex partition of the transformed graph back to the edges
// of g: in the contracted form edge e takes vertex e's part; in the split
// form it takes the part of its clone at U[e], and when the dominant edge
// was cut anyway the edge goes to whichever clone's part already holds more
// of the edge's endpoints' other clones, so the cut costs no extra copy
// where one side can avoid it.
func Omega(g *matrices.Graph, inc *matrices.Incidence, f Formulation, vertexPart []int32) ([]int32, error) {
	m := g.NumEdges()
	switch f {
	case Contracted:
		if len(vertexPart) != m {
			return nil, fmt.Errorf("transform: %d vertex parts for %d edges", len(vertexPart), m)
		}
		return slices.Clone(vertexPart), nil
	case Split:
		if len(vertexPart) != 2*m {
			return nil, fmt.Errorf("transform: %d vertex parts for %d clones", len(vertexPart), 2*m)
		}
	default:
		return nil, fmt.Errorf("transform: unknown formulation %v", f)
	}
	part := make([]int32, m)
	for e := 0; e < m; e++ {
		part[e] = vertexPart[2*e]
	}
	for e := 0; e < m; e++ {
		pa, pb := vertexPart[2*e], vertexPart[2*e+1]
		if pa == pb {
			continue
		}
		// Count the endpoints' other edges already in each candidate part.
		score := func(p int32) int {
			s := 0
			for _, v := range [2]int32{g.U[e], g.V[e]} {
				for i := inc.Offsets[v]; i < inc.Offsets[v+1]; i++ {
					if f := inc.Edge[i]; f != int32(e) && part[f] == p {
						s++
						break
					}
				}
			}
			return s
		}
		if score(pb) > score(pa) {
			part[e] = pb
		}
	}
	return part, nil
}

// neighbourSorted reports whether every vertex's incidence list is sorted
// by the other endpoint (edge index breaks ties, as the lists are in edge
// order). A bipartite (spmv) graph whose edges come in row-major order, as
// a sorted file gives them, is: a row's edges are consecutive, by column,
// and a column's come row after row. That is checked on the edge list,
// read in order; otherwise every list is, over ranges of vertices in
// parallel (reading endpoints at random).
func neighbourSorted(g *matrices.Graph, inc *matrices.Incidence) bool {
	if g.Model == matrices.ModelSpMV && matrices.InRowMajor(g.U, g.V) {
		return true
	}
	n := len(inc.Offsets) - 1
	var unsorted atomic.Bool
	par.Do(linkChunks, func(c int) {
		for v := n * c / linkChunks; v < n*(c+1)/linkChunks && !unsorted.Load(); v++ {
			prev := int32(-1)
			for _, e := range inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]] {
				o := g.Opposite(e, int32(v))
				if o < prev {
					unsorted.Store(true)
					return
				}
				prev = o
			}
		}
	})
	return !unsorted.Load()
}

// walk orders every vertex's edges, given sorted by neighbour (edge), by a
// walk through its neighbours: from the smallest, each step goes to the
// smallest unvisited neighbour adjacent to the current one, or, where there
// is none, to the smallest unvisited neighbour. A neighbour's edges are
// contiguous in the sorted lists and are emitted together.
func walk(g *matrices.Graph, inc *matrices.Incidence, edge []int32) []int32 {
	n := len(inc.Offsets) - 1
	out := make([]int32, 0, len(edge))
	stamp := make([]int32, n) // stamp[u] = v+1 while u is a neighbour of v
	slot := make([]int32, n)  // u's group among v's neighbours
	var start []int32         // group s is edge[start[s]:start[s+1]] (offsets from lo)
	var visited []bool
	for v := 0; v < n; v++ {
		lo, hi := inc.Offsets[v], inc.Offsets[v+1]
		if hi-lo > walkMaxDegree || hi-lo < 3 {
			out = append(out, edge[lo:hi]...)
			continue
		}
		mark := int32(v + 1)
		start = start[:0]
		for i := lo; i < hi; i++ {
			if u := g.Opposite(edge[i], int32(v)); stamp[u] != mark {
				stamp[u], slot[u] = mark, int32(len(start))
				start = append(start, i-lo)
			}
		}
		groups := len(start)
		start = append(start, hi-lo)
		visited = append(visited[:0], make([]bool, groups)...)
		cur, smallest := int32(0), int32(0)
		for done := 0; done < groups; done++ {
			visited[cur] = true
			out = append(out, edge[lo+start[cur]:lo+start[cur+1]]...)
			step := int32(-1)
			if u := g.Opposite(edge[lo+start[cur]], int32(v)); inc.Degree(int(u)) <= walkMaxDegree {
				for _, f := range edge[inc.Offsets[u]:inc.Offsets[u+1]] {
					if w := g.Opposite(f, u); stamp[w] == mark && !visited[slot[w]] {
						step = slot[w]
						break
					}
				}
			}
			if step < 0 {
				for smallest < int32(groups) && visited[smallest] {
					smallest++
				}
				step = smallest
			}
			cur = step
		}
	}
	return out
}
