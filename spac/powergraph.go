package spac

import (
	"context"

	"github.com/spac-gpu/spac/matrices"
)

// Random is PowerGraph's random edge placement (Gonzalez et al., OSDI 2012):
// each edge goes to the part its hashed endpoints pick, then the cap pass
// evens the parts out. It is the quality floor every locality-aware method
// must beat: it balances well and ignores locality entirely.
type Random struct{}

// Greedy is PowerGraph's oblivious greedy placement (Gonzalez et al., OSDI
// 2012): edges stream in input order and each goes where its endpoints
// already live, else to the least loaded part. It is the cheapest
// locality-aware baseline of the paper (section 3.3).
type Greedy struct{}

func init() {
	register(Random{})
	register(Greedy{})
}

// Name implements Method.
func (Random) Name() string { return "random" }

// Partition implements Method: part = xxhash(seed, U, V) mod K, then
// EnforceCap.
func (Random) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("random", g, inc, opts); err != nil {
		return Partition{}, err
	}
	part := make([]int32, g.NumEdges())
	for e := range part {
		if err := cancelled(ctx, e); err != nil {
			return Partition{}, err
		}
		part[e] = hashPart(hash2(opts.Seed, g.U[e], g.V[e]), opts.K)
	}
	return capped(g, inc, part, opts)
}

// Name implements Method.
func (Greedy) Name() string { return "greedy" }

// Partition implements Method. For edge (u,v), with A(w) the parts already
// holding an edge of w and only parts below the cap eligible:
//  1. if A(u) and A(v) meet, the least loaded part of the intersection;
//  2. if both are non-empty but disjoint, the least loaded part of the set
//     of the endpoint with more edges still to come (then of the other);
//  3. if one is non-empty, the least loaded part of it;
//  4. else (or when none of the above has room) the least loaded part.
//
// Ties go to the lower part index; the seed is not used.
func (Greedy) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("greedy", g, inc, opts); err != nil {
		return Partition{}, err
	}
	m, nv, k := g.NumEdges(), g.NumVertices, opts.K
	r := newGreedyRule(newVertexParts(inc, nv), newStreamLoads(k, opts.Cap), nv)
	for v := 0; v < nv; v++ {
		r.rem[v] = inc.Offsets[v+1] - inc.Offsets[v]
	}
	part := make([]int32, m)
	for e := 0; e < m; e++ {
		if err := cancelled(ctx, e); err != nil {
			return Partition{}, err
		}
		u, v := g.U[e], g.V[e]
		q := r.choose(u, v)
		r.place(u, v, q)
		part[e] = q
	}
	return Partition{K: k, Part: part}, nil
}

// greedyRule is PowerGraph greedy's state and placement rule (see
// Greedy.Partition), shared by Greedy and WVP greedy, which applies it to
// the cut edges its cover leaves (see wvpGreedyRest).
type greedyRule struct {
	sets  vertexParts  // A(w)
	loads *streamLoads // part loads and the heap of parts below the cap
	rem   []int32      // edges of each vertex still to come; set by the caller
	inV   []int32      // inV[q] == mark: q is in A(v) for the current edge
	mark  int32
}

func newGreedyRule(sets vertexParts, loads *streamLoads, nv int) *greedyRule {
	return &greedyRule{sets: sets, loads: loads, rem: make([]int32, nv), inV: make([]int32, len(loads.load))}
}

// leastIn is the least loaded eligible part of s (with the membership test
// of A(v) when in is set), or -1.
func (r *greedyRule) leastIn(s []int32, in bool) int32 {
	best := int32(-1)
	load := r.loads.load
	for _, q := range s {
		if !r.loads.eligible(q) || (in && r.inV[q] != r.mark) {
			continue
		}
		if best < 0 || load[q] < load[best] || (load[q] == load[best] && q < best) {
			best = q
		}
	}
	return best
}

// choose returns the part for edge (u,v) by the rule; place must follow
// before the next choose.
func (r *greedyRule) choose(u, v int32) int32 {
	au, av := r.sets.of(u), r.sets.of(v)
	r.mark++
	for _, q := range av {
		r.inV[q] = r.mark
	}
	q := int32(-1)
	switch {
	case len(au) > 0 && len(av) > 0:
		q = r.leastIn(au, true) // the intersection
		if q < 0 {
			first, second := au, av
			if r.rem[v] > r.rem[u] {
				first, second = av, au
			}
			if q = r.leastIn(first, false); q < 0 {
				q = r.leastIn(second, false)
			}
		}
	case len(au) > 0:
		q = r.leastIn(au, false)
	case len(av) > 0:
		q = r.leastIn(av, false)
	}
	if q < 0 {
		q = int32(r.loads.open.min())
	}
	return q
}

// place records edge (u,v) in part q, the part choose returned for it.
func (r *greedyRule) place(u, v, q int32) {
	r.loads.add(q)
	if r.inV[q] != r.mark {
		r.sets.add(v, q)
	}
	r.rem[v]--
	if u != v {
		r.sets.addNew(u, q)
		r.rem[u]--
	}
}
