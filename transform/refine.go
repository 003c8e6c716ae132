package transform

import "github.com/spac-gpu/spac/internal/par"

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
// still pays. The check reuses the connections the parallel search found
// unless a neighbour has moved since (only the loads can have changed
// then), so that the serial part does not walk the adjacency again: on
// the circuit5M stand-in that walk, a cache miss per neighbour, was most of
// the refinement's serial time. The result is deterministic, and every
// move lowers the cut or keeps it and evens the loads.
//
// The serial checks run while the search goes on: the queue is cut into
// refineChunks pieces, searched in order by the workers, and each piece
// is checked as soon as it and those before it are found. The search reads
// a copy of the partition and the loads as the pass found them, which the
// checks bring up to date at the end of the pass, so the result does not
// depend on how far the search has run ahead (the copy costs 2 bytes per
// vertex where the parts fit 16 bits, 4 otherwise; the pass marks take 1
// instead of 4). On the circuit5M stand-in the checks were 3.4 s of the way
// up's 23 s with a core idle.
func Refine(w *WeightedGraph, weight []int32, part []int32, k int, maxLoad int64, passes int) int {
	if k <= 1<<16 {
		return refine(w, weight, part, bigUint16s(len(part)), k, maxLoad, passes)
	}
	return refine(w, weight, part, bigInt32s(len(part)), k, maxLoad, passes)
}

// refine is Refine with seen, the room for the copy of the partition the
// search reads. Where the parts fit 16 bits the copy takes them in 2 bytes,
// half the cache lines of the search's random reads: a level of up to 16M
// vertices (32 MB) then fits the benchmark machine's last-level cache.
func refine[P uint16 | int32](w *WeightedGraph, weight []int32, part []int32, seen []P, k int, maxLoad int64, passes int) int {
	n := w.NumVertices()
	load := partWeights(weight, part, k)
	// seen and seenLoad are the partition and the loads as the pass found
	// them: the search reads them while the checks change part and load.
	par.Do(selectChunks, func(c int) {
		for v := n * c / selectChunks; v < n*(c+1)/selectChunks; v++ {
			seen[v] = P(part[v])
		}
	})
	lists := make([][]int32, min(selectChunks, max(n, 1)))
	queue := selectVertices(n, lists, nil, func(v int32) bool {
		a := seen[v]
		for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
			if seen[u] != a {
				return true
			}
		}
		return false
	})
	if passes < 1 || len(queue) == 0 {
		return 0
	}
	seenLoad := make([]int64, k)
	// queued[v] == mark once v is in the queue of the pass after this
	// one; that queue is read back from the marks, in index order.
	queued := make([]uint8, n)
	proposed := make([][]int32, refineChunks)
	kept := make([][]int32, refineChunks)
	// found[c] holds, for the proposals of chunk c in turn, the parts their
	// neighbours were in and the connections to them, in the order
	// moveFinder met them; foundEnd[c][i] is where proposal i's end.
	found := make([][]partConn, refineChunks)
	foundEnd := make([][]int32, refineChunks)
	var moved []int32 // the vertices moved in this pass, for seen
	mover := newMoveFinder(k)
	moves := 0
	for pass := 0; pass < passes && len(queue) > 0; pass++ {
		if pass > 0 && pass%255 == 0 {
			clear(queued) // the marks wrap
		}
		mark := uint8(pass%255 + 1)
		copy(seenLoad, load)
		chunks := min(refineChunks, len(queue))
		ready := make([]chan struct{}, chunks)
		for c := range ready {
			ready[c] = make(chan struct{})
		}
		go par.DoWith(chunks, func() *moveFinder { return newMoveFinder(k) }, func(f *moveFinder, c int) {
			lo, hi := len(queue)*c/chunks, len(queue)*(c+1)/chunks
			proposed[c], kept[c] = proposed[c][:0], kept[c][:0]
			found[c], foundEnd[c] = found[c][:0], foundEnd[c][:0]
			for _, v := range queue[lo:hi] {
				gather(f, w, seen, v)
				if _, ok, waiting := f.choose(int32(seen[v]), int64(vertexWeight(weight, v)), seenLoad, maxLoad); ok {
					proposed[c] = append(proposed[c], v)
					for _, p := range f.touched {
						found[c] = append(found[c], partConn{p, f.conn[p]})
					}
					foundEnd[c] = append(foundEnd[c], int32(len(found[c])))
				} else if waiting {
					kept[c] = append(kept[c], v)
				}
				f.reset()
			}
			close(ready[c])
		})
		moved = moved[:0]
		for c := 0; c < chunks; c++ {
			<-ready[c]
			for _, v := range kept[c] {
				queued[v] = mark
			}
			from := int32(0)
			for i, v := range proposed[c] {
				// A vertex is marked once it or a neighbour has moved in
				// this pass: only then can its connections have changed.
				if queued[v] == mark {
					mover.gather(w, part, v)
				} else {
					for _, pc := range found[c][from:foundEnd[c][i]] {
						mover.touched = append(mover.touched, pc.part)
						mover.conn[pc.part] = pc.conn
					}
				}
				from = foundEnd[c][i]
				b, ok, waiting := mover.choose(part[v], int64(vertexWeight(weight, v)), load, maxLoad)
				mover.reset()
				if !ok {
					if waiting {
						queued[v] = mark
					}
					continue
				}
				a, wv := part[v], int64(vertexWeight(weight, v))
				part[v] = b
				load[a] -= wv
				load[b] += wv
				moves++
				moved = append(moved, v)
				queued[v] = mark
				for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
					queued[u] = mark
				}
			}
		}
		for _, v := range moved {
			seen[v] = P(part[v])
		}
		if pass+1 < passes {
			queue = selectVertices(n, lists, queue, func(v int32) bool { return queued[v] == mark })
		}
	}
	return moves
}

// refineChunks is the number of pieces a pass's queue is cut into: enough
// for the checks of the first pieces to overlap the search of the rest.
// Where the pieces end changes nothing in the result.
const refineChunks = 64

// selectChunks is the number of vertex ranges selectVertices scans in
// parallel.
const selectChunks = 8

// partWeights returns the total vertex weight of each of the k parts,
// summed over ranges of vertices in parallel where the parts are few
// enough for each range to keep its own sums.
func partWeights(weight, part []int32, k int) []int64 {
	n := len(part)
	ranges := min(selectChunks, max(1, n/(4*k)))
	sums := make([][]int64, ranges)
	par.Do(ranges, func(r int) {
		s := make([]int64, k)
		for v := n * r / ranges; v < n*(r+1)/ranges; v++ {
			s[part[v]] += int64(vertexWeight(weight, int32(v)))
		}
		sums[r] = s
	})
	load := sums[0]
	for _, s := range sums[1:] {
		for q, x := range s {
			load[q] += x
		}
	}
	return load
}

// moveFinder evaluates one vertex's moves; conn[p] is the vertex's edge
// weight into part p, for the parts listed in touched, zero elsewhere.
type moveFinder struct {
	conn    []int64
	touched []int32
}

// partConn is a vertex's connection to a part.
type partConn struct {
	part int32
	conn int64
}

// newMoveFinder returns a moveFinder for k parts; touched has room for
// every part and one more (see gather).
func newMoveFinder(k int) *moveFinder {
	return &moveFinder{conn: make([]int64, k), touched: make([]int32, 0, k+1)}
}

// gather sums v's edge weights into the parts of its neighbours; reset
// clears them. Every neighbour's part is written at the end of touched and
// kept there only if it is new, with no branch on it: the part is a cache
// miss (part[u] at random), and a branch on whether it was seen, taken at
// random, was mispredicted often enough to stall the next neighbours'
// loads behind each miss (46% of the refinement's parallel search waited
// on that load, perf, circuit5M stand-in). Edge weights are positive, so a
// part is new exactly when its connection is still zero.
func (f *moveFinder) gather(w *WeightedGraph, part []int32, v int32) { gather(f, w, part, v) }

// gather is moveFinder.gather for parts held in P.
func gather[P uint16 | int32](f *moveFinder, w *WeightedGraph, part []P, v int32) {
	t := f.touched[:cap(f.touched)]
	n := len(f.touched)
	for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
		p := int32(part[w.Adjncy[i]])
		c := f.conn[p]
		t[n] = p
		n += isZero(c)
		f.conn[p] = c + int64(w.EdgeWeight(i))
	}
	f.touched = t[:n]
}

// isZero is 1 if c is 0, else 0, computed without a branch.
func isZero(c int64) int {
	// c|-c has its sign bit set exactly when c is not 0.
	return int(1 ^ uint64(c|-c)>>63)
}

func (f *moveFinder) reset() {
	for _, p := range f.touched {
		f.conn[p] = 0
	}
	f.touched = f.touched[:0]
}

// choose returns, for a vertex of weight wv in part a whose connections
// gather found, the part it should move to and whether the move pays: it
// lowers the cut, or keeps it and brings the loads closer (so it cannot
// undo itself), without filling the target above maxLoad. waiting reports
// whether the loads alone stand in the way of a move that would not raise
// the cut: only then can the decision change while the neighbours stay put.
func (f *moveFinder) choose(a int32, wv int64, load []int64, maxLoad int64) (b int32, ok, waiting bool) {
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
	ok = best >= 0 && (bestGain > 0 || (bestGain == 0 && load[best]+wv < load[a]))
	waiting = waiting || (best >= 0 && !ok && bestGain == 0)
	return best, ok, waiting
}

// selectVertices returns, in increasing order, the vertices v < n for which
// keep(v) holds, in out's room where it fits. Ranges of vertices are scanned
// in parallel, each into its list (lists are kept by the caller for the next
// call), and the lists are joined in order.
func selectVertices(n int, lists [][]int32, out []int32, keep func(v int32) bool) []int32 {
	chunks := len(lists)
	par.Do(chunks, func(c int) {
		lo, hi := int32(int64(n)*int64(c)/int64(chunks)), int32(int64(n)*int64(c+1)/int64(chunks))
		list := lists[c][:0]
		for v := lo; v < hi; v++ {
			if keep(v) {
				list = append(list, v)
			}
		}
		lists[c] = list
	})
	total := 0
	for _, list := range lists {
		total += len(list)
	}
	if cap(out) < total {
		out = make([]int32, 0, total)
	}
	out = out[:0]
	for _, list := range lists {
		out = append(out, list...)
	}
	return out
}
