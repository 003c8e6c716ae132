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
// so that the result does not depend on the machine. With Across, vertices
// left single in their range are then paired across the ranges' borders
// (matchAcross): an input numbered without locality has most of its pairs
// there.
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
	// Across pairs vertices across the ranges too (matchAcross), and a
	// range leaves single a vertex whose heaviest neighbour lies in
	// another: for a graph numbered without locality, where most pairs
	// cross the ranges. Off, each range pairs its own vertices alone, which
	// costs nothing where the numbering keeps neighbours close.
	Across bool

	// Reserve, when set, is told how many bytes Coarsen is about to
	// allocate for the next level (its adjacency and weights, the map,
	// the coarse offsets, weights and positions) once the pairs are known,
	// before it allocates them; an error stops Coarsen with it.
	Reserve func(bytes int64) error

	match []int32   // every vertex's partner
	prop  []int32   // matchAcross's proposals
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
// within itself by one of up to GOMAXPROCS workers; with Across the vertices
// left single are paired across the ranges (matchAcross), and each range
// then contracts the pairs whose first member it holds. Coarse
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
	// Per chunk, the coarse vertices whose first member it holds, and where
	// the room of their rows (their fine entries) starts; both offsets.
	count := make([]int32, chunks+1)
	room := make([]int32, chunks+1)
	par.Do(chunks, func(c int) {
		matchRange(w, weight, maxWeight, within, match, bound(c), bound(c+1), cs.Across)
	})
	if cs.Across && chunks > 1 {
		cs.matchAcross(w, weight, maxWeight, within, match, chunks, bound)
	}
	recount(w, match, chunks, bound, count, room)
	for c := 0; c < chunks; c++ {
		count[c+1] += count[c]
	}
	nc := count[chunks]
	if cs.Reserve != nil {
		if err := cs.Reserve(8*int64(room[chunks]) + 4*int64(n) + 12*int64(nc)); err != nil {
			return nil, err
		}
	}

	// Number the coarse vertices, then build each chunk's coarse rows in
	// the room of its pairs' fine entries (the pairs' neighbourhoods can
	// only shrink), and finally move the rows together.
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
	adj := bigInt32s(int(room[chunks]))
	adjw := bigInt32s(int(room[chunks]))
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
		at := room[c]
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
		func(c int) int32 { return count[c] }, func(c int) int32 { return room[c] })
	release(cs.match[:cap(cs.match)])
	for _, pos := range cs.pos {
		release(pos[:cap(pos)])
	}
	return &Level{Graph: cw, Weight: cweight, Map: cmap}, nil
}

// matchRange matches the vertices of [lo, hi) among themselves: match[v] is
// v's partner, or v itself. across: see Coarsener.Across.
func matchRange(w *WeightedGraph, weight []int32, maxWeight int32, within []int32, match []int32, lo, hi int32, across bool) {
	for v := lo; v < hi; v++ {
		match[v] = -1
	}
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
			// Across, a neighbour in another range counts by its weight
			// alone (its match is another worker's): where it is the
			// heaviest, v is left single for matchAcross rather than
			// paired by a lighter edge, so that the pairs do not depend on
			// the numbering.
			out := u < lo || u >= hi
			if w.EdgeWeight(i) <= bestW || (out && !across) || (!out && match[u] >= 0) || (within != nil && within[u] != within[v]) {
				continue
			}
			if vertexWeight(weight, u)+wv <= maxWeight {
				best, bestW = u, w.EdgeWeight(i)
			}
		}
		if best < lo || best >= hi {
			best = v
		}
		match[v], match[best] = best, v
	}
}

// recount makes Coarsen's per-chunk counts once the pairs are known (a
// pair belongs to the chunk of its first member, which builds its row, and
// takes its second's entries there, across the ranges too): count[c+1] the
// coarse vertices of chunk c, room[c] where its rows start, room[chunks]
// the room of all. A pair's row has at most its members' entries less the
// two that join them (paired vertices are neighbours, each listed once in
// the other's row), so the room is the fine graph's entries less two a
// pair: Go zeroes the room it hands out again, making all of it resident.
func recount(w *WeightedGraph, match []int32, chunks int, bound func(int) int32, count, room []int32) {
	par.Do(chunks, func(c int) {
		n, entries := int32(0), int32(0)
		for v := bound(c); v < bound(c+1); v++ {
			if u := match[v]; u >= v {
				n++
				entries += w.Xadj[v+1] - w.Xadj[v]
				if u != v {
					entries += w.Xadj[u+1] - w.Xadj[u] - 2
				}
			}
		}
		count[c+1], room[c+1] = n, entries
	})
	room[0] = 0
	for c := 0; c < chunks; c++ {
		room[c+1] += room[c]
	}
}

// matchAcross pairs the vertices that matchRange left single with single
// neighbours anywhere: the pairs its ranges cut. On a circuit of 17M tasks
// numbered at random, the levels otherwise shrank by a sixth to a quarter
// each from 3M vertices down, METIS got 1.13M vertices after eight levels
// (the natural order: fewer after five), and SPAC's own start peaked at
// 2,039,608 KiB (123 B/task) for 1,496,710 copies; with the pairs across,
// six levels, about 1,580,000 KiB (95 B/task). Each single proposes to the single neighbour it shares
// its heaviest edge with (ties to the edge a hash of its two ends ranks
// first, so that proposals meet), the pairs that propose to each other
// merge, and the rest try again: acrossRounds rounds, each two parallel
// passes whose result does not depend on the number of workers.
func (cs *Coarsener) matchAcross(w *WeightedGraph, weight []int32, maxWeight int32, within []int32, match []int32, chunks int, bound func(int) int32) {
	n := len(match)
	if cap(cs.prop) < n {
		cs.prop = bigInt32s(n)
	}
	prop := cs.prop[:n]
	for range acrossRounds {
		par.Do(chunks, func(c int) {
			for v := bound(c); v < bound(c+1); v++ {
				prop[v] = -1
				if match[v] != v {
					continue
				}
				wv := vertexWeight(weight, v)
				var bestKey uint64
				for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
					u := w.Adjncy[i]
					if u == v || match[u] != u || w.EdgeWeight(i) <= 0 || (within != nil && within[u] != within[v]) ||
						vertexWeight(weight, u)+wv > maxWeight {
						continue
					}
					if key := uint64(w.EdgeWeight(i))<<32 | uint64(pairHash(u, v)); key > bestKey {
						prop[v], bestKey = u, key
					}
				}
			}
		})
		var merged atomic.Int64
		par.Do(chunks, func(c int) {
			k := int64(0)
			for v := bound(c); v < bound(c+1); v++ {
				if u := prop[v]; u > v && prop[u] == v {
					match[v], match[u] = u, v
					k++
				}
			}
			merged.Add(k)
		})
		if merged.Load() == 0 {
			break
		}
	}
	release(cs.prop[:cap(cs.prop)])
}

// acrossRounds bounds matchAcross's rounds: the first pairs most of what
// can be paired.
const acrossRounds = 3

// pairHash ranks the edge {u, v} for matchAcross's ties, the same from
// both ends.
func pairHash(u, v int32) uint32 {
	a, b := uint64(min(u, v)), uint64(max(u, v))
	h := (a<<32 | b) * 0x9e3779b97f4a7c15
	return uint32(h>>32) | 1 // never 0: a key of 0 is no proposal
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
