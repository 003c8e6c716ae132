package transform

// Refine improves a k-way partition of w in place by greedy boundary moves,
// the refinement METIS runs at every level of its own uncoarsening: a vertex
// moves to the neighbouring part it is most strongly connected to when that
// lowers the cut, or keeps it and evens the loads, and the target part stays
// within maxLoad. It is what lets SPAC coarsen in Go before METIS without
// losing the finest levels' refinement. weight nil means every vertex
// weighs 1. Returns the number of moves.
func Refine(w *WeightedGraph, weight []int32, part []int32, k int, maxLoad int64, passes int) int {
	n := w.NumVertices()
	wt := func(v int) int64 {
		if weight == nil {
			return 1
		}
		return int64(weight[v])
	}
	load := make([]int64, k)
	for v := 0; v < n; v++ {
		load[part[v]] += wt(v)
	}
	// conn[p] is v's edge weight into part p, for the parts listed in touched.
	conn := make([]int64, k)
	var touched []int32
	moves := 0
	for pass := 0; pass < passes; pass++ {
		moved := 0
		for v := 0; v < n; v++ {
			a := part[v]
			touched = touched[:0]
			boundary := false
			for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
				p := part[w.Adjncy[i]]
				if conn[p] == 0 {
					touched = append(touched, p)
				}
				conn[p] += int64(w.Adjwgt[i])
				if p != a {
					boundary = true
				}
			}
			if boundary {
				wv := wt(v)
				best, bestGain := int32(-1), int64(0)
				for _, b := range touched {
					if b == a || load[b]+wv > maxLoad {
						continue
					}
					gain := conn[b] - conn[a]
					if best < 0 || gain > bestGain || (gain == bestGain && load[b] < load[best]) {
						best, bestGain = b, gain
					}
				}
				// A zero-gain move must even the loads, so it cannot undo itself.
				if best >= 0 && (bestGain > 0 || (bestGain == 0 && load[best]+wv < load[a])) {
					part[v] = best
					load[a] -= wv
					load[best] += wv
					moved++
				}
			}
			for _, p := range touched {
				conn[p] = 0
			}
		}
		moves += moved
		if moved == 0 {
			break
		}
	}
	return moves
}
