package transform

import (
	"fmt"

	"github.com/spac-gpu/spac/internal/par"
)

// Renumber returns w with its vertices renumbered: vertex order[i] of w is
// vertex i of the result, its adjacency list in the same order with every
// neighbour renumbered. A multilevel scheme packs its levels by each
// neighbour's distance from its vertex and matches within ranges of
// vertices, so a graph numbered without locality (an input whose tasks
// came in a random order) costs it memory and pairs; numbered in a locality
// order first (an earlier partition's parts one after the other) it packs
// as the natural orders do. w's vertices must weigh 1 (as Contract and
// SplitConnect build them); w is left as it was.
func Renumber(w *WeightedGraph, order []int32) (*WeightedGraph, error) {
	n := w.NumVertices()
	if len(order) != n {
		return nil, fmt.Errorf("transform: an order of %d vertices for a graph of %d", len(order), n)
	}
	newOf := bigInt32s(n)
	for i := range newOf {
		newOf[i] = -1
	}
	for i, v := range order {
		if v < 0 || int(v) >= n || newOf[v] >= 0 {
			Release(newOf)
			return nil, fmt.Errorf("transform: the order is not a permutation of the %d vertices (vertex %d at %d)", n, v, i)
		}
		newOf[v] = int32(i)
	}
	r := &WeightedGraph{Xadj: make([]int32, n+1), Adjncy: bigInt32s(len(w.Adjncy))}
	if w.Adjwgt != nil {
		r.Adjwgt = bigInt32s(len(w.Adjwgt))
	}
	for i, v := range order {
		r.Xadj[i+1] = r.Xadj[i] + w.Xadj[v+1] - w.Xadj[v]
	}
	par.DoRanges(n, renumberRange, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v := order[i]
			src, dst := w.Xadj[v], r.Xadj[i]
			for j, u := range w.Adjncy[src:w.Xadj[v+1]] {
				r.Adjncy[dst+int32(j)] = newOf[u]
			}
			if w.Adjwgt != nil {
				copy(r.Adjwgt[dst:r.Xadj[i+1]], w.Adjwgt[src:w.Xadj[v+1]])
			}
		}
	})
	Release(newOf)
	return r, nil
}

// renumberRange is how many vertices Renumber's workers take at a time (a
// variable, so that the tests can cut small graphs into many ranges).
var renumberRange = 1 << 16
