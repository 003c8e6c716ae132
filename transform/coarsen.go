package transform

import "fmt"

// Level is one step of coarsening: the coarse graph, the weight of each
// coarse vertex (the number of original vertices it stands for, when the
// finer graph was unweighted) and Map, the coarse vertex of every finer one.
type Level struct {
	Graph  *WeightedGraph
	Weight []int32
	Map    []int32
}

// Coarsen merges pairs of neighbours by heavy-edge matching: vertices are
// visited in index order and each unmatched one is merged with the
// unmatched neighbour it shares the heaviest edge with, as long as the pair
// weighs at most maxWeight. It is the first step of METIS's own multilevel
// scheme, done here in one linear pass so that METIS starts from a graph a
// fraction of the size. Index order is deliberate: in the contracted graph
// consecutive edges usually share a row, so pairs form along rows.
// weight nil means every vertex weighs 1.
func Coarsen(w *WeightedGraph, weight []int32, maxWeight int32) (*Level, error) {
	n := w.NumVertices()
	wt := func(v int32) int32 {
		if weight == nil {
			return 1
		}
		return weight[v]
	}
	match := make([]int32, n)
	for i := range match {
		match[i] = -1
	}
	cmap := make([]int32, n)
	nc := int32(0)
	for v := int32(0); v < int32(n); v++ {
		if match[v] >= 0 {
			continue
		}
		best, bestW := v, int32(0)
		for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
			u := w.Adjncy[i]
			if match[u] < 0 && u != v && w.Adjwgt[i] > bestW && wt(u)+wt(v) <= maxWeight {
				best, bestW = u, w.Adjwgt[i]
			}
		}
		match[v], match[best] = best, v
		cmap[v], cmap[best] = nc, nc
		nc++
	}
	// Build the coarse graph: the union of the pair's neighbourhoods, minus
	// the pair itself, with parallel edges merged. pos marks where a coarse
	// neighbour already sits in the row being built.
	cw := &WeightedGraph{Xadj: make([]int32, nc+1)}
	cweight := make([]int32, nc)
	adj := make([]int32, 0, len(w.Adjncy)*3/4)
	adjw := make([]int32, 0, len(w.Adjncy)*3/4)
	pos := make([]int32, nc)
	for i := range pos {
		pos[i] = -1
	}
	c := int32(0)
	for v := int32(0); v < int32(n); v++ {
		if match[v] < v {
			continue // the pair was emitted with its first member
		}
		start := int32(len(adj))
		cweight[c] = wt(v)
		members := [2]int32{v, match[v]}
		count := 2
		if match[v] == v {
			count = 1
		} else {
			cweight[c] += wt(match[v])
		}
		for _, x := range members[:count] {
			for i := w.Xadj[x]; i < w.Xadj[x+1]; i++ {
				cu := cmap[w.Adjncy[i]]
				if cu == c {
					continue
				}
				if p := pos[cu]; p >= start {
					adjw[p] += w.Adjwgt[i]
					continue
				}
				pos[cu] = int32(len(adj))
				adj = append(adj, cu)
				adjw = append(adjw, w.Adjwgt[i])
			}
		}
		c++
		cw.Xadj[c] = int32(len(adj))
	}
	if c != nc {
		return nil, fmt.Errorf("transform: coarsening emitted %d of %d coarse vertices", c, nc)
	}
	cw.Adjncy, cw.Adjwgt = adj, adjw
	return &Level{Graph: cw, Weight: cweight, Map: cmap}, nil
}
