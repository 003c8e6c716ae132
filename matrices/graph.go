package matrices

import (
	"fmt"
	"math"
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
		for e, c := range m.Col {
			g.V[e] = off + c
		}
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
// the edges of v are Edge[Offsets[v]:Offsets[v+1]] in increasing edge order,
// and Other holds the opposite endpoint of each. A self-loop is listed once.
type Incidence struct {
	Offsets []int32
	Edge    []int32
	Other   []int32
}

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
// list (count, then fill), with no per-vertex allocation.
func BuildIncidence(g *Graph) (*Incidence, error) {
	m := g.NumEdges()
	if 2*int64(m) > math.MaxInt32 {
		return nil, fmt.Errorf("%d edges exceed the int32 range of the incidence lists", m)
	}
	off := make([]int32, g.NumVertices+1)
	total := 0
	for e := 0; e < m; e++ {
		u, v := g.U[e], g.V[e]
		off[u+1]++
		total++
		if u != v {
			off[v+1]++
			total++
		}
	}
	for v := 0; v < g.NumVertices; v++ {
		off[v+1] += off[v]
	}
	inc := &Incidence{Offsets: off, Edge: make([]int32, total), Other: make([]int32, total)}
	pos := make([]int32, g.NumVertices)
	copy(pos, off[:g.NumVertices])
	for e := 0; e < m; e++ {
		u, v := g.U[e], g.V[e]
		inc.Edge[pos[u]] = int32(e)
		inc.Other[pos[u]] = v
		pos[u]++
		if u != v {
			inc.Edge[pos[v]] = int32(e)
			inc.Other[pos[v]] = u
			pos[v]++
		}
	}
	return inc, nil
}
