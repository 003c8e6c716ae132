package spac

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spac-gpu/spac/metis"
	"github.com/spac-gpu/spac/transform"
)

// coarsestPerPart and coarsestEntriesPerPart are how many vertices and
// adjacency entries per part the Go coarsening leaves for METIS: it stops at
// the first level within both. Fewer vertices make METIS faster and cost
// copies: on the cant stand-in, levels ending at 258k, 131k, 67k and 35k
// vertices for 1992 parts gave 209.7k, 210.3k, 213.1k and 218.0k copies
// before the V-cycle. METIS's time follows the entries, which shrink slowly
// on power-law graphs (in-2004 stand-in, 16085 parts: 17M entries on 575k
// vertices, 10M on 312k, for 1.768M and 1.799M copies; METIS took 10 s and
// 6.5 s).
const (
	coarsestPerPart        = 64
	coarsestEntriesPerPart = 768
)

// coarsestMinVertices keeps a graph for METIS of at least this many
// vertices (and 8 times as many entries) when there are few parts, where
// METIS is fast anyway.
const coarsestMinVertices = 1 << 15

// vCycles is the number of V-cycles after the first pass down and up: the
// graph is coarsened again, pairing only vertices of the same part, and
// refined on the way back up, so that the greedy moves at the coarse levels
// shift whole clusters across a border that single vertices could not
// cross with a gain. One cycle takes the cant stand-in from 213.1k to
// 207.1k copies for about 0.4 s of 1.7; a second would reach 205.4k for
// as much again.
const vCycles = 1

// vCycleMaxVertices is the size of the transformed graph (a vertex per
// edge, contracted) from which the V-cycles are left out: on a
// power-law graph the coarse levels stay dense and a cycle costs more than
// it saves time elsewhere (in-2004 stand-in: about 15 s), while the first
// pass alone already matches METIS's copies there.
const vCycleMaxVertices = 4 << 20

// rbDepth is the number of levels of the recursive bisection of the
// coarsest graph that are METIS calls of their own (splitInHalves): the two
// halves of a cut are cut in parallel, and below these levels each of the
// 4 groups finishes with METIS's own recursion in one call. Inside one call
// METIS cuts the halves one after the other: a first call into 4 groups
// took 7.1 s of the circuit5M stand-in's 17 s in METIS, with a core idle.
// It is fixed so that the result does not depend on the core count.
const rbDepth = 2

// multilevel partitions w, whose vertices weigh 1, into k parts of at most
// about softLoad with a multilevel scheme around METIS: heavy-edge matching
// in Go (transform.Coarsener) down to about coarsestPerPart vertices per part,
// METIS's recursive bisection on that graph, and on the way back up, at
// every level, the parts projected and refined by greedy boundary moves
// (transform.Refine); then vCycles V-cycles. METIS's own k-way scheme on the
// whole graph spends most of its time in the k-dependent initial
// partitioning and uses one core; here the coarsening and refinement are
// linear and partly parallel, and the bisection runs on a small graph, its
// groups in parallel.
//
// maxVertexWeight bounds a coarse vertex, so that parts can still be
// balanced from them; maxLevels bounds the levels of coarsening; across
// pairs vertices across the coarsener's ranges (transform.Coarsener.Across:
// for an input numbered without locality); budget, when not nil, bounds
// what the hierarchy and METIS may hold (errOverBudget).
func multilevel(ctx context.Context, w *transform.WeightedGraph, k int, softLoad int64, maxVertexWeight int32, maxLevels int, across bool, budget *memoryBudget, opts metis.Options, progress func(string)) ([]int32, error) {
	n := w.NumVertices()
	target := coarseTarget{vertices: max(coarsestPerPart*k, coarsestMinVertices), entries: int64(max(coarsestEntriesPerPart*k, 8*coarsestMinVertices))}
	h, err := coarsen(ctx, w, nil, nil, maxVertexWeight, maxLevels, across, budget, target, progress)
	if err != nil {
		return nil, err
	}
	if err := budget.check(h); err != nil {
		return nil, err
	}
	progress("metis")
	reclaim()
	coarsest := len(h.graphs) - 1
	part, err := bisectCoarsest(ctx, h.graphs[coarsest], h.weights[coarsest], k, opts)
	if err != nil {
		return nil, err
	}
	progress(fmt.Sprintf("refining %d vertices", len(part)))
	// With V-cycles to come, the way up stops one level above the finest
	// graph: the cycles run there, and the finest level, the dearest to
	// coarsen and refine, is refined once, at the end.
	cycles := vCycles
	if n >= vCycleMaxVertices || len(h.maps) == 0 {
		cycles = 0
	}
	top := min(cycles, 1)
	reclaim()
	h.refineCoarsest(part, k, softLoad)
	if part, err = h.uncoarsen(ctx, len(h.maps), part, k, softLoad, top, progress); err != nil {
		return nil, err
	}
	for cycle := 0; cycle < cycles; cycle++ {
		progress(fmt.Sprintf("V-cycle %d", cycle+1))
		// The levels above graph 1 are done with (uncoarsen dropped
		// them); graph 1 becomes the cycle's finest level, which its
		// hierarchy packs and unpacks.
		g1, w1 := h.graphs[1], h.weights[1]
		h.graphs[1], h.weights[1] = nil, nil
		reclaim()
		v, err := coarsen(ctx, g1, w1, part, maxVertexWeight, maxLevels, across, nil, target, progress)
		if err != nil {
			return nil, err
		}
		progress(fmt.Sprintf("refining %d vertices", len(v.within)))
		v.refineCoarsest(v.within, k, softLoad)
		if part, err = v.uncoarsen(ctx, len(v.maps), v.within, k, softLoad, 0, progress); err != nil {
			return nil, err
		}
		h.graphs[1], h.weights[1] = v.graphs[0], v.weights[0]
	}
	if top == 1 {
		return h.uncoarsen(ctx, 1, part, k, softLoad, 0, progress)
	}
	return part, nil
}

// coarseTarget is the size at which coarsening stops.
type coarseTarget struct {
	vertices int
	entries  int64
}

func (t coarseTarget) reached(w *transform.WeightedGraph) bool {
	return w.NumVertices() <= t.vertices && int64(len(w.Adjncy)) <= t.entries
}

// hierarchy is the graphs of a multilevel scheme, finest first: graph l+1
// is graph l coarsened, maps[l] takes graph l's vertices to graph l+1's.
// A level waiting for the way up is packed (packed[l] set, graphs[l] and
// weights[l] nil): on a power-law graph the coarse levels keep most of the
// entries, and all the levels unpacked took 2.2 GB of the in-2004 stand-in's
// 2.8 GB peak (16.5M tasks) and 8.5 of the circuit5M stand-in's 11.2 GB
// (59.5M tasks); packed they take a fifth of that.
type hierarchy struct {
	graphs  []*transform.WeightedGraph
	weights [][]int32 // vertex weights of each graph (nil: every vertex weighs 1)
	packed  []*transform.Packed
	maps    [][]int32 // nil while packed in pmaps
	pmaps   []*transform.PackedMap
	within  []int32 // the partition coarsen was to respect, on the coarsest graph
}

// pack packs level l until unpack: its graph and weights go, their pages
// given back first (the hierarchy owns them).
func (h *hierarchy) pack(l int) {
	w, weight := h.graphs[l], h.weights[l]
	h.packed[l] = transform.Pack(w, weight)
	transform.Release(w.Xadj, w.Adjncy, w.Adjwgt, weight)
	h.graphs[l], h.weights[l] = nil, nil
}

// mapOf returns map l, unpacking it if packed (the packed copy goes).
func (h *hierarchy) mapOf(l int) []int32 {
	if p := h.pmaps[l]; p != nil {
		h.maps[l], h.pmaps[l] = p.Drain(), nil
	}
	return h.maps[l]
}

// unpack makes level l's graph and weights explicit again, if packed.
func (h *hierarchy) unpack(l int) {
	if p := h.packed[l]; p != nil {
		h.packed[l] = nil
		h.graphs[l], h.weights[l] = p.Drain()
	}
}

// coarsen builds the hierarchy above w (vertex weights weight, nil: 1)
// until a graph is within target, maxLevels levels are built or a level
// stalls. within, when not nil, is a partition of w that the pairs must
// respect (so it holds on every level; the hierarchy's within is its
// projection on the coarsest graph). Every level but the coarsest is
// packed once the next one is built, w included: the caller must not keep
// w, or its room is not given back. A budget (nil: none) is checked before
// every level is built (Coarsener.Reserve): what a level holds once built
// and packed is never more than what that check counted, and the next
// level's check, or multilevel's before METIS, counts it again.
func coarsen(ctx context.Context, w *transform.WeightedGraph, weight []int32, within []int32, maxVertexWeight int32, maxLevels int, across bool, budget *memoryBudget, target coarseTarget, progress func(string)) (*hierarchy, error) {
	// One Coarsener per hierarchy: its scratch serves every level and is
	// garbage once the hierarchy is built, before METIS and refinement.
	h := &hierarchy{graphs: []*transform.WeightedGraph{w}, weights: [][]int32{weight}, packed: []*transform.Packed{nil}, within: within}
	cs := &transform.Coarsener{Across: across}
	if budget != nil {
		cs.Reserve = func(bytes int64) error { return budget.checkNext(h, bytes) }
	}
	for len(h.maps) < maxLevels && !target.reached(h.graphs[len(h.maps)]) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		l := len(h.maps)
		// A stage is named by the work it starts: its time is that work's.
		progress(fmt.Sprintf("coarsening %d vertices", h.graphs[l].NumVertices()))
		lv, err := cs.Coarsen(h.graphs[l], h.weights[l], maxVertexWeight, within)
		if err != nil {
			return nil, err
		}
		if within != nil { // every pair lies within one part: take its members'
			coarse := make([]int32, lv.Graph.NumVertices())
			for v, c := range lv.Map {
				coarse[c] = within[v]
			}
			within = coarse
		}
		fine := h.graphs[l].NumVertices()
		h.graphs = append(h.graphs, lv.Graph)
		h.weights = append(h.weights, lv.Weight)
		h.packed = append(h.packed, nil)
		// The map waits for the way up packed as well.
		h.maps = append(h.maps, nil)
		h.pmaps = append(h.pmaps, transform.PackMap(lv.Map))
		transform.Release(lv.Map)
		h.within = within
		h.pack(l)
		reclaim() // the next level takes the room of level l unpacked
		// Once the vertices are too heavy to pair, a level barely shrinks.
		if 10*int64(lv.Graph.NumVertices()) > 9*int64(fine) {
			break
		}
	}
	return h, nil
}

// uncoarsen projects part, a partition of graph from, down to graph to,
// refining it at every level on the way, and returns the partition of graph
// to. The levels it passes are used up: each level's projection is written
// over its map, and the graph, weights and map above it are dropped; each
// level is unpacked when the way reaches it.
func (h *hierarchy) uncoarsen(ctx context.Context, from int, part []int32, k int, softLoad int64, to int, progress func(string)) ([]int32, error) {
	for l := from - 1; l >= to; l-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fine := h.mapOf(l)
		progress(fmt.Sprintf("refining %d vertices", len(fine)))
		for v, c := range fine {
			fine[v] = part[c]
		}
		part = fine
		// Level l+1 is done with: its graph, weights and partition go,
		// their pages given back first: level l is larger, and the room of
		// the smaller arrays would stay resident beside it.
		if w := h.graphs[l+1]; w != nil {
			transform.Release(w.Xadj, w.Adjncy, w.Adjwgt, h.weights[l+1])
		}
		h.graphs[l+1], h.weights[l+1], h.packed[l+1] = nil, nil, nil
		if l+1 < len(h.maps) {
			transform.Release(h.maps[l+1])
			h.maps[l+1] = nil
		}
		reclaim() // the last level's refinement scratch
		h.unpack(l)
		transform.Refine(h.graphs[l], h.weights[l], part, k, softLoad, refinePasses)
	}
	return part, nil
}

// refineCoarsest refines part, a partition of the hierarchy's coarsest graph.
func (h *hierarchy) refineCoarsest(part []int32, k int, softLoad int64) {
	l := len(h.maps)
	transform.Refine(h.graphs[l], h.weights[l], part, k, softLoad, refinePasses)
}

// bisectCoarsest partitions the coarsest graph into k parts by recursive
// bisection (splitInHalves). Each bisection is held to METIS's tightest
// balance (UFactor 1): a part's slack compounds down the recursion.
func bisectCoarsest(ctx context.Context, w *transform.WeightedGraph, weight []int32, k int, opts metis.Options) ([]int32, error) {
	opts.Method, opts.UFactor = metis.Recursive, 1
	return splitInHalves(ctx, metisGraph(w, weight), k, rbDepth, opts)
}

// reclaim runs the garbage collector between the phases of a partitioning
// (the levels of multilevel's way up, the cap pass, the polish), so that the
// next phase's arrays take the room of the last phase's scratch instead of
// fresh pages from the kernel. The live heap is large, so the collector
// would otherwise not run for most of the partitioning, and touching fresh
// memory is dear: on the 2-core benchmark machine 400 MB of fresh pages take
// 2 s, reused ones a hundredth of that; on the cant stand-in these few
// collections save about 0.3 s of 2, and on the in-2004 stand-in the two
// before the cap pass and the polish take them from 1.3 s and 0.9 s to
// 0.7 s and 0.6 s. The heap holds almost only pointer-free arrays, so a
// collection costs next to nothing.
func reclaim() { runtime.GC() }

// giveBack is reclaim that also gives the free room back to the kernel,
// once the multilevel scheme is done: its levels leave gigabytes free on
// the largest inputs, more than the passes after it take, and kept
// resident they raised the peak of the refinement that follows by up to
// 0.7 GB on the circuit5M stand-in, depending on when the collector ran.
// A page given back costs a fault when its room is used again.
func giveBack() { debug.FreeOSMemory() }
