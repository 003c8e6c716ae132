package matrices

import (
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/par"
)

// Model says how a matrix becomes a locality graph.
type Model uint8

const (
	// ModelSpMV is the paper's model of y = A x: a vertex per row (y[i]) and
	// a vertex per column (x[j]), an edge per nonzero. The graph is bipartite
	// with NRows + NCols vertices; column j is vertex NRows + j.
	ModelSpMV Model = iota
	// ModelGraph takes the matrix as the adjacency matrix of a graph: a
	// vertex per row/column index and an edge per nonzero. The matrix must
	// be square. A diagonal entry is a self-loop: a task touching one object.
	ModelGraph
)

func (m Model) String() string {
	switch m {
	case ModelSpMV:
		return "spmv"
	case ModelGraph:
		return "graph"
	}
	return fmt.Sprintf("Model(%d)", uint8(m))
}

// ParseModel reads a model name as the command line spells it.
func ParseModel(s string) (Model, error) {
	switch s {
	case "spmv":
		return ModelSpMV, nil
	case "graph":
		return ModelGraph, nil
	}
	return 0, fmt.Errorf("unknown model %q (want spmv or graph)", s)
}

// Graph is a locality graph given by its edge list: edge e is task e and
// joins data objects U[e] and V[e]. Edge e is entry e of the matrix it was
// built from, so an edge partition maps straight back to nonzeros. U[e] is
// always the row's vertex, which keeps row order recoverable.
type Graph struct {
	NumVertices int
	U, V        []int32
	// NumRowVertices is the number of vertices that stand for rows: NRows
	// in ModelSpMV, NumVertices in ModelGraph.
	NumRowVertices int
	Model          Model
}

// NumEdges is the number of tasks.
func (g *Graph) NumEdges() int { return len(g.U) }

// Entry is the row and column (0-based) of the matrix entry that edge e
// stands for: the graph alone answers, once the matrix is let go.
func (g *Graph) Entry(e int) (row, col int32) {
	col = g.V[e]
	if g.Model == ModelSpMV {
		col -= int32(g.NumRowVertices)
	}
	return g.U[e], col
}

// LocalityGraph builds the locality graph of m under the given model, one
// edge per stored entry of m in m's order. Expand m first (COO.Expanded) to
// count both triangles of a symmetric matrix.
func LocalityGraph(m *COO, model Model) (*Graph, error) {
	nnz := m.NNZ()
	if nnz == 0 {
		return nil, fmt.Errorf("%s: the matrix has no entries: nothing to partition", m.Name)
	}
	g := &Graph{U: m.Row, Model: model}
	switch model {
	case ModelSpMV:
		if int64(m.NRows)+int64(m.NCols) > math.MaxInt32 {
			return nil, fmt.Errorf("%s: %d rows + %d columns exceed the int32 vertex range", m.Name, m.NRows, m.NCols)
		}
		g.NumVertices = m.NRows + m.NCols
		g.NumRowVertices = m.NRows
		g.V = make([]int32, nnz)
		off := int32(m.NRows)
		par.Do(8, func(r int) {
			lo, hi := nnz*r/8, nnz*(r+1)/8
			for e, c := range m.Col[lo:hi] {
				g.V[lo+e] = off + c
			}
		})
	case ModelGraph:
		if m.NRows != m.NCols {
			return nil, fmt.Errorf("%s: model graph needs a square matrix, this one is %d x %d (use --model spmv)", m.Name, m.NRows, m.NCols)
		}
		g.NumVertices = m.NRows
		g.NumRowVertices = m.NRows
		g.V = m.Col
	default:
		return nil, fmt.Errorf("unknown model %v", model)
	}
	return g, nil
}

// Incidence lists, for every vertex, the edges incident to it, in CSR form:
// the edges of v are Edge[Offsets[v]:Offsets[v+1]] in increasing edge order.
// A self-loop is listed once. The opposite endpoint of each is not stored
// (Graph.Opposite gives it): on the largest inputs every 4 bytes per entry
// of the lists is 8 bytes per edge of the partitioner's peak memory.
type Incidence struct {
	Offsets []int32
	Edge    []int32
}

// Opposite is the endpoint of edge e other than v, which must be one of
// e's endpoints; for a self-loop, v itself.
func (g *Graph) Opposite(e, v int32) int32 { return g.U[e] ^ g.V[e] ^ v }

// BuildLocality builds m's locality graph under model (LocalityGraph) and
// its incidence lists (BuildIncidence): what a partitioner takes.
func BuildLocality(m *COO, model Model) (*Graph, *Incidence, error) {
	g, err := LocalityGraph(m, model)
	if err != nil {
		return nil, nil, err
	}
	inc, err := BuildIncidence(g)
	if err != nil {
		return nil, nil, err
	}
	return g, inc, nil
}

// Degree is the number of edges incident to v (a self-loop counts once).
func (inc *Incidence) Degree(v int) int { return int(inc.Offsets[v+1] - inc.Offsets[v]) }

// BuildIncidence builds the incidence lists of g in two passes over the edge
// list (count, then fill), with no per-vertex allocation. From
// incidenceParallelEdges edges on, incidenceRanges ranges of edges are
// counted and filled in parallel, each with its own counts per vertex (4
// bytes per vertex and range, for the time of the call): a vertex's edges
// from a range go after those from the ranges before it, so the lists are
// the same, in edge order, however many cores run it.
func BuildIncidence(g *Graph) (*Incidence, error) {
	m := g.NumEdges()
	if 2*int64(m) > math.MaxInt32 {
		return nil, fmt.Errorf("%d edges exceed the int32 range of the incidence lists", m)
	}
	n := g.NumVertices
	ranges := 1
	if m >= incidenceParallelEdges {
		ranges = incidenceRanges
	}
	bound := func(r int) int { return int(int64(m) * int64(r) / int64(ranges)) }
	count := make([][]int32, ranges) // count[r][v]: the entries of range r at v, then where they go
	par.Do(ranges, func(r int) {
		c := make([]int32, n)
		for e := bound(r); e < bound(r+1); e++ {
			u, v := g.U[e], g.V[e]
			c[u]++
			if u != v {
				c[v]++
			}
		}
		count[r] = c
	})
	off := make([]int32, n+1)
	for v := 0; v < n; v++ {
		at := off[v]
		for _, c := range count {
			at, c[v] = at+c[v], at
		}
		off[v+1] = at
	}
	inc := &Incidence{Offsets: off, Edge: make([]int32, off[n])}
	par.Do(ranges, func(r int) {
		pos := count[r]
		for e := bound(r); e < bound(r+1); e++ {
			u, v := g.U[e], g.V[e]
			inc.Edge[pos[u]] = int32(e)
			pos[u]++
			if u != v {
				inc.Edge[pos[v]] = int32(e)
				pos[v]++
			}
		}
	})
	return inc, nil
}

// incidenceRanges is the number of BuildIncidence's ranges of edges, fixed
// so that nothing depends on the core count.
const incidenceRanges = 4

// incidenceParallelEdges is the size from which BuildIncidence uses its
// ranges; a variable, so that the tests can take that path on small graphs.
var incidenceParallelEdges = 1 << 20
