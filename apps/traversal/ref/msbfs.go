package ref

// Many-source BFS (MS-BFS, Then, Kaufmann, Chirigati, Hoang-Vu, Pham,
// Kemper, Neumann, Vo, "The More the Merrier: Efficient Multi-Source
// Graph Traversal", VLDB 2015): the searches of up to 64 roots run
// together, one bit per root in a 64-bit word per vertex, so that a vertex
// in the frontier of several searches has its arcs read once per level for
// all of them.

import (
	"errors"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
)

// MSBFSWidth is the number of roots one MS-BFS batch traverses together:
// the bits of a uint64.
const MSBFSWidth = 64

// MSBFSResult holds the depths of many breadth-first searches.
type MSBFSResult struct {
	Roots []int32
	// N is the number of vertices: root i's depths are
	// Depth[i*N : (i+1)*N], -1 for a vertex the root does not reach, 0 for
	// the root.
	N     int
	Depth []int32
	// Batches is the number of batches of at most MSBFSWidth roots run.
	Batches int
	// Levels is the deepest level over the roots + 1 (the most levels a
	// batch ran).
	Levels int
	// Inspected is the arcs looked at over all batches: each level reads
	// the out-arcs of every vertex in the frontier of at least one of the
	// batch's searches once, whatever the number of searches it serves.
	Inspected int64
}

// Depths returns root i's depths (a slice of Depth, not a copy).
func (r *MSBFSResult) Depths(i int) []int32 { return r.Depth[i*r.N : (i+1)*r.N] }

// MultiSourceBFS computes the BFS depths from every root, MSBFSWidth
// roots at a time (the last batch partial), each batch a bit-parallel
// level-synchronous BFS: per vertex three words, seen (the roots that
// reached it), visit (the roots whose frontier holds it) and next (the
// roots that reach it in the level being built). A level pushes
// visit[u] &^ seen[w] from every frontier vertex u to each out-neighbour w
// with an atomic OR into next[w] (the frontier is split among the workers
// as in ParallelBFS), then settles every vertex it touched: the bits of
// next[w] join seen[w], become w's visit word, and give w's depth for
// those roots. A root may appear more than once (each copy gets the same
// depths). Depths equal BFS's for every root.
//
// Work per batch: O(n + sum over levels of the frontier's arcs), at most
// O(n + m x levels) and usually a few passes over the arcs for all of the
// batch's roots together (BFS alone: one pass per root). Memory: 4 bytes
// per root and vertex for the result, 24 bytes per vertex for the words.
func MultiSourceBFS(g *graph.Graph, roots []int32) (*MSBFSResult, error) {
	if len(roots) == 0 {
		return nil, errors.New("MS-BFS: no roots")
	}
	for _, r := range roots {
		if err := checkRoot(g, r); err != nil {
			return nil, err
		}
	}
	n := g.NumVertices
	res := &MSBFSResult{Roots: slices.Clone(roots), N: n, Depth: make([]int32, len(roots)*n)}
	fillDepths(res.Depth)
	w := newMSWords(n)
	for lo := 0; lo < len(roots); lo += MSBFSWidth {
		hi := min(lo+MSBFSWidth, len(roots))
		levels, inspected := w.batch(g, roots[lo:hi], res.Depth[lo*n:hi*n])
		res.Batches++
		res.Levels = max(res.Levels, levels)
		res.Inspected += inspected
	}
	return res, nil
}

// fillDepths sets every depth to -1, in parallel.
func fillDepths(d []int32) {
	const grain = 1 << 20
	par.Do((len(d)+grain-1)/grain, func(t int) {
		s := d[t*grain : min((t+1)*grain, len(d))]
		for i := range s {
			s[i] = -1
		}
	})
}

// msWords are a batch's per-vertex words, reused from batch to batch
// (each batch leaves visit and next all zero; seen is cleared at its
// start).
type msWords struct {
	seen, visit, next []uint64
}

func newMSWords(n int) *msWords {
	return &msWords{seen: make([]uint64, n), visit: make([]uint64, n), next: make([]uint64, n)}
}

// msGrain is the vertices per parallel task of a level; a frontier or a
// settled list shorter than 4 grains runs on one goroutine.
const msGrain = 1024

// chunks splits k items into tasks of about msGrain (one task below
// 4*msGrain), returning the task count and the items per task.
func chunks(k int) (tasks, per int) {
	tasks = (k + msGrain - 1) / msGrain
	if k < 4*msGrain {
		tasks = 1
	}
	if tasks == 0 {
		return 0, 0
	}
	return tasks, (k + tasks - 1) / tasks
}

// batch runs one batch of at most MSBFSWidth roots, writing root i's
// depths to depth[i*n:(i+1)*n] (all -1 on entry), and returns the levels
// run and the arcs inspected.
func (w *msWords) batch(g *graph.Graph, roots []int32, depth []int32) (levels int, inspected int64) {
	n := g.NumVertices
	clear(w.seen)
	frontier := make([]int32, 0, len(roots))
	for i, r := range roots {
		bit := uint64(1) << i
		if w.visit[r] == 0 {
			frontier = append(frontier, r)
		}
		w.visit[r] |= bit
		w.seen[r] |= bit
		depth[i*n+int(r)] = 0
	}
	var insp atomic.Int64
	for level := int32(1); len(frontier) > 0; level++ {
		levels++
		// Push: seen is read-only here, next is ORed atomically; a vertex
		// is listed by the push that first makes its next word nonzero.
		tasks, per := chunks(len(frontier))
		touched := make([][]int32, tasks)
		par.Do(tasks, func(t int) {
			var out []int32
			var seen int64
			for _, u := range frontier[t*per : min((t+1)*per, len(frontier))] {
				f := w.visit[u]
				nb := g.Neighbors(u)
				seen += int64(len(nb))
				for _, v := range nb {
					d := f &^ w.seen[v]
					if d == 0 || atomic.LoadUint64(&w.next[v])&d == d {
						continue
					}
					if atomic.OrUint64(&w.next[v], d) == 0 {
						out = append(out, v)
					}
				}
			}
			touched[t] = out
			insp.Add(seen)
		})
		// The old frontier's words go before the new ones are set: a
		// vertex can be in both.
		par.Do(tasks, func(t int) {
			for _, u := range frontier[t*per : min((t+1)*per, len(frontier))] {
				w.visit[u] = 0
			}
		})
		frontier = slices.Concat(touched...)
		tasks, per = chunks(len(frontier))
		par.Do(tasks, func(t int) {
			for _, v := range frontier[t*per : min((t+1)*per, len(frontier))] {
				b := w.next[v]
				w.next[v] = 0
				w.seen[v] |= b
				w.visit[v] = b
				for x := b; x != 0; x &= x - 1 {
					depth[bits.TrailingZeros64(x)*n+int(v)] = level
				}
			}
		})
	}
	return levels, insp.Load()
}
