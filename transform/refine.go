package transform

import "slices"

// Refine improves a k-way partition of w in place by greedy boundary moves,
// the refinement METIS runs at every level of its own uncoarsening: a vertex
// moves to the neighbouring part it is most strongly connected to when that
// lowers the cut, or keeps it and evens the loads, and the target part stays
// within maxLoad. It is what lets SPAC coarsen in Go before METIS without
// losing the finest levels' refinement. weight nil means every vertex
// weighs 1. Returns the number of moves.
//
// Only the boundary is visited: the first pass takes every vertex with a
// neighbour in another part, later passes the neighbours of every move and
// the vertices whose move only the loads held back, the only ones whose
// decision can have changed; the rest of the boundary and the interior,
// the bulk of a fine level, are not looked at again. Each pass
// first finds every queued vertex's best move against the partition as the
// pass found it, in parallel, then, in index order, checks each proposed
// move again against the partition as it is by then and makes it if it
// still pays. The result is deterministic, and every move lowers the cut or
// keeps it and evens the loads.
func Refine(w *WeightedGraph, weight []int32, part []int32, k int, maxLoad int64, passes int) int {
	n := w.NumVertices()
	load := make([]int64, k)
	for v := 0; v < n; v++ {
		load[part[v]] += int64(vertexWeight(weight, int32(v)))
	}
	queue := boundary(w, part)
	// queued[v] == pass+1 once v is in the queue of the pass after pass.
	queued := make([]int32, n)
	proposed := make([][]int32, refineChunks)
	kept := make([][]int32, refineChunks)
	// Fresh memory is expensive to touch; a buffer of n is touched only
	// as far as it fills.
	next := make([]int32, 0, n)
	mover := newMoveFinder(k)
	moves := 0
	for pass := 0; pass < passes && len(queue) > 0; pass++ {
		chunks := min(refineChunks, len(queue))
		parallelWith(chunks, func() *moveFinder { return newMoveFinder(k) }, func(f *moveFinder, c int) {
			lo, hi := len(queue)*c/chunks, len(queue)*(c+1)/chunks
			proposed[c], kept[c] = proposed[c][:0], kept[c][:0]
			for _, v := range queue[lo:hi] {
				if _, ok, waiting := f.best(w, weight, part, load, maxLoad, v); ok {
					proposed[c] = append(proposed[c], v)
				} else if waiting {
					kept[c] = append(kept[c], v)
				}
			}
		})
		next = next[:0]
		mark := int32(pass + 1)
		enqueue := func(v int32) {
			if queued[v] != mark {
				queued[v] = mark
				next = append(next, v)
			}
		}
		for c := 0; c < chunks; c++ {
			for _, v := range kept[c] {
				enqueue(v)
			}
			for _, v := range proposed[c] {
				b, ok, waiting := mover.best(w, weight, part, load, maxLoad, v)
				if !ok {
					if waiting {
						enqueue(v)
					}
					continue
				}
				a, wv := part[v], int64(vertexWeight(weight, v))
				part[v] = b
				load[a] -= wv
				load[b] += wv
				moves++
				enqueue(v)
				for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
					enqueue(u)
				}
			}
		}
		slices.Sort(next)
		queue, next = next, queue
	}
	return moves
}

// refineChunks is the number of pieces a pass's queue is cut into for the
// parallel search; fixed, so that nothing depends on the core count.
const refineChunks = 8

// moveFinder evaluates one vertex's moves; conn[p] is the vertex's edge
// weight into part p, for the parts listed in touched, zero elsewhere.
type moveFinder struct {
	conn    []int64
	touched []int32
}

func newMoveFinder(k int) *moveFinder { return &moveFinder{conn: make([]int64, k)} }

// best returns the part v should move to and whether the move pays: it
// lowers the cut, or keeps it and brings the loads closer (so it cannot
// undo itself), without filling the target above maxLoad. waiting reports
// whether the loads alone stand in the way of a move that would not raise
// the cut: only then can v's decision change while its neighbours stay put.
func (f *moveFinder) best(w *WeightedGraph, weight, part []int32, load []int64, maxLoad int64, v int32) (b int32, ok, waiting bool) {
	a := part[v]
	f.touched = f.touched[:0]
	for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
		p := part[w.Adjncy[i]]
		if f.conn[p] == 0 {
			f.touched = append(f.touched, p)
		}
		f.conn[p] += int64(w.Adjwgt[i])
	}
	wv := int64(vertexWeight(weight, v))
	best, bestGain := int32(-1), int64(0)
	for _, p := range f.touched {
		if p == a {
			continue
		}
		gain := f.conn[p] - f.conn[a]
		if load[p]+wv > maxLoad {
			waiting = waiting || gain >= 0
			continue
		}
		if best < 0 || gain > bestGain || (gain == bestGain && load[p] < load[best]) {
			best, bestGain = p, gain
		}
	}
	for _, p := range f.touched {
		f.conn[p] = 0
	}
	ok = best >= 0 && (bestGain > 0 || (bestGain == 0 && load[best]+wv < load[a]))
	waiting = waiting || (best >= 0 && !ok && bestGain == 0)
	return best, ok, waiting
}

// boundary lists, in increasing order, the vertices with a neighbour in
// another part. The ranges are scanned in parallel and joined in order.
func boundary(w *WeightedGraph, part []int32) []int32 {
	n := w.NumVertices()
	chunks := min(refineChunks, max(n, 1))
	found := make([][]int32, chunks)
	parallel(chunks, func(c int) {
		lo, hi := int32(int64(n)*int64(c)/int64(chunks)), int32(int64(n)*int64(c+1)/int64(chunks))
		list := make([]int32, 0, hi-lo)
		for v := lo; v < hi; v++ {
			a := part[v]
			for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
				if part[u] != a {
					list = append(list, v)
					break
				}
			}
		}
		found[c] = list
	})
	total := 0
	for _, list := range found {
		total += len(list)
	}
	all := make([]int32, 0, total)
	for _, list := range found {
		all = append(all, list...)
	}
	return all
}
