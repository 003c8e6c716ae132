package spac

import (
	"context"
	"fmt"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// loadsWithin returns the loads of p's parts, or an error when a part is
// out of range or above capacity: the passes that follow the cap pass need
// it met.
func loadsWithin(p *Partition, capacity int) ([]int32, error) {
	load, err := partLoads(p.Part, p.K)
	if err != nil {
		return nil, err
	}
	for q, l := range load {
		if int(l) > capacity {
			return nil, fmt.Errorf("part %d holds %d edges, above the cap %d (run EnforceCap first)", q, l, capacity)
		}
	}
	return load, nil
}

// Polish lowers the vertex copies of a partition that already meets the
// cap, without breaking it: an edge that is the last edge of an endpoint
// in its part moves to a part with room where the move makes no new copy
// (both endpoints live there already), or where it saves more copies than
// it makes. Every move saves at least one copy, so the copies only fall and
// the passes end; the first pass looks at every stranded edge, each later
// one at the edges of the vertices the pass before moved, and it stops
// after maxPasses passes or one that moves nothing. It returns the copies
// saved.
//
// Why a final pass helps: Omega maps a partition of the clone graph, whose
// cut is only a proxy for the copies, and the cap pass moves edges by their
// local cost; both leave single edges stranded in parts where one endpoint
// has no other edge, next to a part that holds both endpoints. It reuses
// the cap pass's per-(vertex, part) lists, sized to the parts each vertex
// lives in (vertices plus copies pairs in all), so it costs O(m) plus, per
// stranded edge, the lengths of its endpoints' part lists.
func Polish(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, p *Partition, capacity, maxPasses int) (saved int, err error) {
	m := g.NumEdges()
	if len(p.Part) != m {
		return 0, fmt.Errorf("polish: partition covers %d edges, graph has %d", len(p.Part), m)
	}
	if p.K < 1 {
		return 0, fmt.Errorf("polish: %d parts", p.K)
	}
	load, err := loadsWithin(p, capacity)
	if err != nil {
		return 0, fmt.Errorf("polish: %w", err)
	}
	cp := int32(capacity)
	// Compact lists suffice: a move that saves a copy never brings an
	// endpoint into a part without taking it out of another (each endpoint
	// adds at most one copy and saves at most one, and the sum is negative),
	// so no vertex comes to live in more parts than now.
	st := newCapState(g, inc, p.Part, load, cp, nil, true)
	// No "least loaded part" candidate: an edge moved where neither endpoint
	// lives costs two copies and can save at most two.
	st.targets = newPartHeap(load, cp, func(int) bool { return false })
	// Candidates are the edges that are an endpoint's only edge in their
	// part, found per vertex from its pair list; a later pass looks again
	// only at the vertices the previous one moved edges of.
	cntOf := make([]int32, p.K) // scratch: w's edge count per part, for w's parts
	inCand := make([]bool, m)
	touched := make([]bool, g.NumVertices)
	var cand []int32
	collect := func(w int32) {
		forSingleEdges(st, inc, w, cntOf, func(e int32) {
			if !inCand[e] {
				inCand[e] = true
				cand = append(cand, e)
			}
		})
	}
	cand = firstCandidates(g, inc, st, p.K)
	for _, e := range cand {
		inCand[e] = true
	}
	var moved []int32 // vertices whose edges moved in this pass
	for pass := 0; pass < maxPasses && len(cand) > 0; pass++ {
		if err := ctx.Err(); err != nil {
			return saved, err
		}
		moved = moved[:0]
		for _, e := range cand {
			inCand[e] = false
			u, v := g.U[e], g.V[e]
			a := st.part[e]
			if st.count(u, a) != 1 && st.count(v, a) != 1 {
				continue // an earlier move changed that
			}
			c, b := st.best(e)
			if b < 0 || c >= 0 {
				continue
			}
			st.relocate(e, a, b)
			for _, w := range [2]int32{u, v} {
				if !touched[w] {
					touched[w] = true
					moved = append(moved, w)
				}
			}
			saved -= int(c)
		}
		cand = cand[:0]
		for _, w := range moved {
			touched[w] = false
			collect(w)
		}
	}
	return saved, nil
}

// forSingleEdges calls f for each edge of w that is w's only edge in its
// part, in incidence order. A vertex in one part loses no copy by moving
// an edge: any saving must come from its other endpoint, which lists the
// edge. cntOf is scratch of a count per part.
func forSingleEdges(st *capState, inc *matrices.Incidence, w int32, cntOf []int32, f func(e int32)) {
	if st.n[w] <= 1 {
		return
	}
	lo, hi := st.off[w], st.off[w]+st.n[w]
	single := false
	for i := lo; i < hi; i++ {
		cntOf[st.lp[i]] = st.lc[i]
		single = single || st.lc[i] == 1
	}
	if !single {
		return
	}
	for _, e := range inc.Edge[inc.Offsets[w]:inc.Offsets[w+1]] {
		if cntOf[st.part[e]] == 1 {
			f(e)
		}
	}
}

// firstCandidates is what collect gathers from every vertex in turn, in the
// same order, computed over ranges of vertices in parallel: an edge is
// listed by the first endpoint that collects it, the smaller one when both
// do, and the ranges' lists are joined in order.
func firstCandidates(g *matrices.Graph, inc *matrices.Incidence, st *capState, k int) []int32 {
	nv := g.NumVertices
	const ranges = 16
	lists := make([][]int32, ranges)
	par.DoWith(ranges, func() []int32 { return make([]int32, k) }, func(cntOf []int32, r int) {
		var list []int32
		for w := int32(nv * r / ranges); w < int32(nv*(r+1)/ranges); w++ {
			forSingleEdges(st, inc, w, cntOf, func(e int32) {
				// The other endpoint, when smaller, has listed e already
				// if it lives in more than one part and e is its only edge
				// in e's part.
				o := g.U[e]
				if o == w {
					o = g.V[e]
				}
				if o < w && st.n[o] > 1 && st.count(o, st.part[e]) == 1 {
					return
				}
				list = append(list, e)
			})
		}
		lists[r] = list
	})
	return slices.Concat(lists...)
}
