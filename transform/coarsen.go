package transform

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/spac-gpu/spac/internal/par"
)

// Level is one step of coarsening: the coarse graph, the weight of each
// coarse vertex (the number of original vertices it stands for, when the
// finer graph was unweighted) and Map, the coarse vertex of every finer one.
type Level struct {
	Graph  *WeightedGraph
	Weight []int32
	Map    []int32
}

// coarsenChunks is the number of vertex ranges matched and contracted
// independently, in parallel. It is fixed, not taken from the core count,
// so that the result does not depend on the machine; with so few ranges
// the pairs lost across their borders are negligible.
const coarsenChunks = 8

// shortRow is the most entries a pair of vertices may have for its coarse
// row to be searched, not looked up in pos, while it is built.
const shortRow = 16

// Coarsener coarsens graphs level after level and keeps its scratch from
// one level to the next (a level's fits in the last one's). Scratch freed
// at every level would leave holes in the heap; a big array laid partly
// over one is cleared by the runtime, and so faulted in 4 KiB at a time,
// before bigInt32s can ask for its huge pages. Its pages are given back at
// the end of every level, so that between levels it holds room, not
// memory (the next level touches half of it). The zero value is ready to
// use; one Coarsener serves one goroutine at a time.
type Coarsener struct {
	match []int32   // every vertex's partner
	pos   [][]int32 // per worker, see Coarsen
}

// Coarsen merges pairs of neighbours by heavy-edge matching: vertices are
// visited in index order and each unmatched one is merged with the
// unmatched neighbour it shares the heaviest edge with, as long as the pair
// weighs at most maxWeight. It is the first step of METIS's own multilevel
// scheme, done here in one linear pass so that METIS starts from a graph a
// fraction of the size. Index order is deliberate: in the contracted graph
// consecutive edges usually share a row, so pairs form along rows, and the
// memory accesses stay local. weight nil means every vertex weighs 1.
// within, when not nil, is a partition of w that the pairs must respect:
// only vertices of one part are merged, so that the partition holds on the
// coarse graph (the V-cycles of a multilevel scheme).
//
// The vertices are cut into coarsenChunks contiguous ranges, each matched
// within itself and contracted by one of up to GOMAXPROCS workers; coarse
// vertices are numbered in the order of their first member, so the result
// is the same on any machine.
func (cs *Coarsener) Coarsen(w *WeightedGraph, weight []int32, maxWeight int32, within []int32) (*Level, error) {
	n := w.NumVertices()
	if weight != nil && len(weight) != n {
		return nil, fmt.Errorf("transform: %d vertex weights for %d vertices", len(weight), n)
	}
	if within != nil && len(within) != n {
		return nil, fmt.Errorf("transform: a partition of %d vertices to coarsen %d within", len(within), n)
	}
	chunks := min(coarsenChunks, max(n, 1))
	bound := func(c int) int32 { return int32(int64(n) * int64(c) / int64(chunks)) }
	if cap(cs.match) < n {
		cs.match = bigInt32s(n)
	}
	match := cs.match[:n]
	count := make([]int32, chunks+1) // coarse vertices per chunk, then their offsets
	par.Do(chunks, func(c int) {
		lo, hi := bound(c), bound(c+1)
		count[c+1] = matchRange(w, weight, maxWeight, within, match, lo, hi)
	})
	for c := 0; c < chunks; c++ {
		count[c+1] += count[c]
	}
	nc := count[chunks]

	// Number the coarse vertices, then build each chunk's coarse rows in
	// the slots of its fine vertices' entries (the pairs' neighbourhoods
	// can only shrink), and finally move the rows together.
	cmap := bigInt32s(n)
	cweight := bigInt32s(int(nc))
	par.Do(chunks, func(c int) {
		next := count[c]
		for v := bound(c); v < bound(c+1); v++ {
			if u := match[v]; u >= v {
				cmap[v], cmap[u] = next, next
				cweight[next] = vertexWeight(weight, v)
				if u != v {
					cweight[next] += vertexWeight(weight, u)
				}
				next++
			}
		}
	})
	adj := bigInt32s(len(w.Adjncy))
	adjw := bigInt32s(len(w.Adjncy))
	// cw.Xadj[cv+1] holds the end of coarse row cv in adj until the rows
	// are moved together.
	cw := &WeightedGraph{Xadj: bigInt32s(int(nc) + 1)}
	rowEnd := cw.Xadj[1:]
	// pos[cu] is where coarse neighbour cu sits in the row being built,
	// one array per worker. A worker takes chunks in increasing order and
	// so writes at increasing positions: an entry left from an earlier row
	// lies before the current row's start.
	cs.pos = append(cs.pos, make([][]int32, max(0, par.Workers(chunks)-len(cs.pos)))...)
	var worker atomic.Int32
	newPos := func() []int32 {
		i := worker.Add(1) - 1
		if cap(cs.pos[i]) < int(nc) {
			cs.pos[i] = bigInt32s(int(nc))
		}
		pos := cs.pos[i][:nc]
		for i := range pos {
			pos[i] = -1
		}
		return pos
	}
	par.DoWith(chunks, newPos, func(pos []int32, c int) {
		at := w.Xadj[bound(c)]
		for v := bound(c); v < bound(c+1); v++ {
			u := match[v]
			if u < v {
				continue // the pair was emitted with its first member
			}
			cv := cmap[v]
			start := at
			// A short row is searched for each coarse neighbour instead
			// of looking it up in pos, a cache miss per entry on a large
			// graph; pos is not written then, and what it holds from
			// earlier rows lies before start.
			entries := w.Xadj[v+1] - w.Xadj[v]
			if u != v {
				entries += w.Xadj[u+1] - w.Xadj[u]
			}
			search := entries <= shortRow
			for _, x := range [2]int32{v, u} {
				for i := w.Xadj[x]; i < w.Xadj[x+1]; i++ {
					cu := cmap[w.Adjncy[i]]
					if cu == cv {
						continue
					}
					if search {
						j := start
						for j < at && adj[j] != cu {
							j++
						}
						if j < at {
							adjw[j] += w.EdgeWeight(i)
							continue
						}
					} else if p := pos[cu]; p >= start {
						adjw[p] += w.EdgeWeight(i)
						continue
					} else {
						pos[cu] = at
					}
					adj[at], adjw[at] = cu, w.EdgeWeight(i)
					at++
				}
				if u == v {
					break
				}
			}
			rowEnd[cv] = at
		}
	})

	// Close the gaps between the chunks' rows: fresh memory is expensive
	// to touch, and the coarse graph fits in the fine one's room.
	cw.Adjncy, cw.Adjwgt = closeGaps(cw.Xadj, adj, adjw, chunks,
		func(c int) int32 { return count[c] }, func(c int) int32 { return w.Xadj[bound(c)] })
	release(cs.match[:cap(cs.match)])
	for _, pos := range cs.pos {
		release(pos[:cap(pos)])
	}
	return &Level{Graph: cw, Weight: cweight, Map: cmap}, nil
}

// matchRange matches the vertices of [lo, hi) among themselves and returns
// the number of pairs and singles: match[v] is v's partner, or v itself.
func matchRange(w *WeightedGraph, weight []int32, maxWeight int32, within []int32, match []int32, lo, hi int32) int32 {
	for v := lo; v < hi; v++ {
		match[v] = -1
	}
	nc := int32(0)
	for v := lo; v < hi; v++ {
		if match[v] >= 0 {
			continue
		}
		wv := vertexWeight(weight, v)
		best, bestW := v, int32(0)
		for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
			u := w.Adjncy[i]
			// The weight first: it is read in order, while match[u] is
			// mostly a cache miss (in the contracted graph only the row
			// chain's neighbours sit next to v).
			if w.EdgeWeight(i) <= bestW || u < lo || u >= hi || match[u] >= 0 || (within != nil && within[u] != within[v]) {
				continue
			}
			if vertexWeight(weight, u)+wv <= maxWeight {
				best, bestW = u, w.EdgeWeight(i)
			}
		}
		match[v], match[best] = best, v
		nc++
	}
	return nc
}

// vertexWeight is v's weight, 1 when weight is nil.
func vertexWeight(weight []int32, v int32) int32 {
	if weight == nil {
		return 1
	}
	return weight[v]
}

// closeGaps moves the rows of chunks rows built apart into one CSR
// adjacency. Chunk c built rows firstRow(c) to firstRow(c+1)-1 into adj
// and wgt from position firstSlot(c) on, each chunk after the last one's
// room, with xadj[r+1] holding the end of row r; on return xadj holds the
// CSR offsets and the rows lie together at the front, moved down chunk by
// chunk (a chunk never moves up). It returns adj and wgt cut to the
// entries; wgt may be nil.
func closeGaps(xadj, adj, wgt []int32, chunks int, firstRow, firstSlot func(c int) int32) (adjncy, adjwgt []int32) {
	for c := 0; c < chunks; c++ {
		from := firstSlot(c)
		at := from
		for r := firstRow(c); r < firstRow(c+1); r++ {
			end := xadj[r+1]
			xadj[r+1] = xadj[r] + end - at
			at = end
		}
		to, end := xadj[firstRow(c)], xadj[firstRow(c+1)]
		copy(adj[to:end], adj[from:from+end-to])
		if wgt != nil {
			copy(wgt[to:end], wgt[from:from+end-to])
		}
	}
	entries := xadj[len(xadj)-1]
	// The room beyond the entries was written while the rows lay apart;
	// its pages go back to the kernel (a coarse graph of a power-law
	// graph keeps two thirds of its finer graph's entries, a mesh's half).
	release(adj[entries:cap(adj)])
	if wgt == nil {
		return adj[:entries:entries], nil
	}
	release(wgt[entries:cap(wgt)])
	return adj[:entries:entries], wgt[:entries:entries]
}

// bigUint16s is bigInt32s for uint16s.
func bigUint16s(n int) []uint16 {
	s := bigInt32s((n + 1) / 2)
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(s))), n)
}

// bigInt32s is make([]int32, n) for the big arrays of the graphs this
// package builds (hundreds of MB on large inputs), with huge pages asked
// for: touching fresh memory costs a page fault per page, some 10 µs each
// in the benchmark VM and about half the coarsening's time before, and a
// huge page takes one fault for 512.
func bigInt32s(n int) []int32 {
	s := make([]int32, n)
	hugePages(s)
	return s
}
