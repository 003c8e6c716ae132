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
	p := Partition{K: opts.K, Part: part}
	tell(opts, "cap")
	if _, err := EnforceCap(g, inc, &p, opts.Cap); err != nil {
		return Partition{}, err
	}
	return p, nil
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
	rem := make([]int32, nv) // edges of each vertex still to come
	for v := 0; v < nv; v++ {
		rem[v] = inc.Offsets[v+1] - inc.Offsets[v]
	}
	sets := newVertexParts(inc, nv)
	loads := newStreamLoads(k, opts.Cap)
	inV := make([]int32, k) // inV[q] == e+1: q is in A(v) for edge e
	part := make([]int32, m)

	// leastIn is the least loaded eligible part of s (with the membership
	// test in, when given), or -1.
	leastIn := func(s []int32, mark int32, in []int32) int32 {
		best := int32(-1)
		for _, q := range s {
			if !loads.eligible(q) || (in != nil && in[q] != mark) {
				continue
			}
			if best < 0 || loads.load[q] < loads.load[best] || (loads.load[q] == loads.load[best] && q < best) {
				best = q
			}
		}
		return best
	}

	for e := 0; e < m; e++ {
		if err := cancelled(ctx, e); err != nil {
			return Partition{}, err
		}
		u, v := g.U[e], g.V[e]
		au, av := sets.of(u), sets.of(v)
		mark := int32(e + 1)
		for _, q := range av {
			inV[q] = mark
		}
		q := int32(-1)
		switch {
		case len(au) > 0 && len(av) > 0:
			q = leastIn(au, mark, inV) // the intersection
			if q < 0 {
				first, second := au, av
				if rem[v] > rem[u] {
					first, second = av, au
				}
				if q = leastIn(first, 0, nil); q < 0 {
					q = leastIn(second, 0, nil)
				}
			}
		case len(au) > 0:
			q = leastIn(au, 0, nil)
		case len(av) > 0:
			q = leastIn(av, 0, nil)
		}
		if q < 0 {
			q = int32(loads.open.min())
		}
		part[e] = q
		loads.add(q)
		if inV[q] != mark {
			sets.add(v, q)
			inV[q] = mark
		}
		rem[v]--
		if u != v {
			sets.addNew(u, q)
			rem[u]--
		}
	}
	return Partition{K: k, Part: part}, nil
}
