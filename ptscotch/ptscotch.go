package ptscotch

import (
	"fmt"
	"math"
)

// Graph is one rank's share of a distributed undirected graph: local
// vertex i (global number first+i, first being the number of vertices on
// the ranks before) has neighbours Adjncy[Xadj[i]:Xadj[i+1]], as global
// numbers; every edge is listed at both ends, with the same weight, and
// there are no self loops.
type Graph struct {
	Xadj, Adjncy []int32
	Vwgt         []int32 // vertex weights ≥ 0 (nil: all 1)
	Adjwgt       []int32 // edge weights ≥ 1, parallel to Adjncy (nil: all 1)
}

// Options are PT-Scotch's settings.
type Options struct {
	Seed int64
	// Imbalance is the load imbalance allowed, as a fraction (0.03: 3%);
	// 0 means 0.03.
	Imbalance float64
	// Check runs SCOTCH_dgraphCheck (symmetry of the distributed graph)
	// before partitioning: a collective pass over the graph.
	Check bool
}

// check validates what costs one pass over the local arrays; global is
// the number of vertices over all ranks.
func (g *Graph) check(global int64) error {
	n := len(g.Xadj) - 1
	if n < 0 {
		return fmt.Errorf("ptscotch: Xadj is empty: want one entry per local vertex plus one")
	}
	if g.Xadj[0] != 0 || int(g.Xadj[n]) != len(g.Adjncy) {
		return fmt.Errorf("ptscotch: Xadj runs from %d to %d, want 0 to len(Adjncy) = %d", g.Xadj[0], g.Xadj[n], len(g.Adjncy))
	}
	for i := 0; i < n; i++ {
		if g.Xadj[i+1] < g.Xadj[i] {
			return fmt.Errorf("ptscotch: Xadj decreases at local vertex %d", i)
		}
	}
	for p, u := range g.Adjncy {
		if u < 0 || int64(u) >= global {
			return fmt.Errorf("ptscotch: neighbour %d at Adjncy[%d] out of range [0, %d)", u, p, global)
		}
	}
	if g.Vwgt != nil && len(g.Vwgt) != n {
		return fmt.Errorf("ptscotch: %d vertex weights for %d local vertices", len(g.Vwgt), n)
	}
	if g.Adjwgt != nil && len(g.Adjwgt) != len(g.Adjncy) {
		return fmt.Errorf("ptscotch: %d edge weights for %d adjacency entries", len(g.Adjwgt), len(g.Adjncy))
	}
	var sum int64
	for i, w := range g.Vwgt {
		if w < 0 {
			return fmt.Errorf("ptscotch: local vertex %d has weight %d", i, w)
		}
		sum += int64(w)
	}
	for p, w := range g.Adjwgt {
		if w < 1 {
			return fmt.Errorf("ptscotch: edge weight %d at Adjwgt[%d], want ≥ 1", w, p)
		}
		sum += int64(w)
	}
	if sum > math.MaxInt32 {
		return fmt.Errorf("ptscotch: weights add up to %d on this rank, beyond Scotch's 32-bit numbers", sum)
	}
	return nil
}

func (o Options) imbalance() float64 {
	if o.Imbalance <= 0 {
		return 0.03
	}
	return o.Imbalance
}
