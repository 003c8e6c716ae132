package graph

import (
	"fmt"
	"math/rand/v2"

	"github.com/spac-gpu/spac/internal/rng"
	"github.com/spac-gpu/spac/matrices"
)

// FromCOO returns the input edges of a matrix or graph as package matrices
// reads it: one edge per stored entry, row to column. A General matrix is
// directed; a Symmetric, SkewSymmetric or Hermitian one (symmetric Matrix
// Market files, METIS graphs, undirected edge lists) is undirected, each
// stored entry one undirected edge. The values (real parts) become Val;
// pattern and complex matrices have none. The slices are shared with m,
// not copied.
func FromCOO(m *matrices.COO) (*Edges, error) {
	if m.NRows != m.NCols {
		return nil, fmt.Errorf("%s: a %d x %d matrix is not the adjacency of a graph (it must be square)", m.Name, m.NRows, m.NCols)
	}
	e := &Edges{Name: m.Name, NumVertices: m.NRows, Src: m.Row, Dst: m.Col, Directed: m.Symmetry == matrices.General}
	if m.Field == matrices.Real || m.Field == matrices.Integer {
		e.Val = m.Val
	}
	return e, nil
}

// Load reads the graph in the file at path ("-" for standard input) with
// matrices.Open and builds it with opt.
func Load(path string, read matrices.ReadOptions, opt Options) (*Graph, error) {
	m, err := matrices.Open(path, read)
	if err != nil {
		return nil, err
	}
	e, err := FromCOO(m)
	if err != nil {
		return nil, err
	}
	return Build(e, opt)
}

// Roots draws up to k distinct roots as Graph500 does: uniformly at random
// among the vertices with an out-arc to another vertex (degree > 0, a
// self-loop aside), from seed. Fewer than k come back when fewer vertices
// qualify; none is an error. O(n) time, 4 bytes per candidate.
func (g *Graph) Roots(k int, seed uint64) ([]int32, error) {
	var cand []int32
	for v := range g.NumVertices {
		for _, t := range g.Neighbors(int32(v)) {
			if t != int32(v) {
				cand = append(cand, int32(v))
				break
			}
		}
	}
	if len(cand) == 0 {
		return nil, fmt.Errorf("%s: no vertex has an edge to another vertex: there is no root to search from", g.Name)
	}
	r := rand.New(rand.NewPCG(seed, uint64(rng.NewKey(seed, streamRoots))))
	k = min(k, len(cand))
	for i := range k {
		j := i + r.IntN(len(cand)-i)
		cand[i], cand[j] = cand[j], cand[i]
	}
	return cand[:k:k], nil
}
