package spac

import (
	"context"

	"github.com/spac-gpu/spac/matrices"
)

// HDRF is High-Degree (are) Replicated First (Petroni, Querzoni, Daudjee,
// Kamali, Iacoboni, CIKM 2015): a streaming edge partitioner that, using
// the degrees seen so far, prefers to cut high-degree vertices. It is the
// strongest of the one-pass streaming partitioners used in graph systems
// today, so it shows what locality a cheap online method reaches.
type HDRF struct{}

func init() { register(HDRF{}) }

// Name implements Method.
func (HDRF) Name() string { return "hdrf" }

// hdrfLambda weighs balance against replication; 1 as in the paper's
// default, where HDRF already balances well.
const hdrfLambda = 1.0

// hdrfEpsilon keeps the balance term finite when all parts are equal.
const hdrfEpsilon = 1.0

// Partition implements Method. Edges stream in input order; edge (u,v)
// raises the partial degrees δ(u), δ(v) and goes to the part p below the
// cap that maximises
//
//	C_REP(p) + λ C_BAL(p),  C_REP(p) = g(u,p) + g(v,p),
//	g(w,p) = 1 + (1 - θ(w)) if p already holds an edge of w, else 0,
//	θ(u) = δ(u) / (δ(u) + δ(v)),
//	C_BAL(p) = (maxsize - |p|) / (ε + maxsize - minsize).
//
// Only the parts of A(u) ∪ A(v) and the least loaded part can win (outside
// A(u) ∪ A(v) the score falls with the load), so an edge costs
// O(|A(u)| + |A(v)| + log K) instead of O(K). Ties go to the less loaded,
// then lower, part; the seed is not used.
func (HDRF) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("hdrf", g, inc, opts); err != nil {
		return Partition{}, err
	}
	m, nv, k := g.NumEdges(), g.NumVertices, opts.K
	part := make([]int32, m)
	err := hdrfStream(ctx, g, nil, part, make([]int32, nv), true, newVertexParts(inc, nv), newStreamLoads(k, opts.Cap))
	if err != nil {
		return Partition{}, err
	}
	return Partition{K: k, Part: part}, nil
}

// hdrfStream places the edges of order (all edges, in index order, when
// order is nil) by HDRF's rule onto the parts with the loads in loads and
// the vertex parts in sets, which may hold edges already. delta holds the
// degrees the rule uses: the partial degrees, raised as edges stream in,
// when partial; otherwise fixed (HEP knows the full degrees).
func hdrfStream(ctx context.Context, g *matrices.Graph, order []int32, part, delta []int32, partial bool, sets vertexParts, loads *streamLoads) error {
	k := len(loads.load)
	inU := make([]int32, k) // inU[q] == i+1: q is in A(u) for the i-th edge
	inV := make([]int32, k)
	n := len(order)
	if order == nil {
		n = g.NumEdges()
	}
	for i := 0; i < n; i++ {
		if err := cancelled(ctx, i); err != nil {
			return err
		}
		e := int32(i)
		if order != nil {
			e = order[i]
		}
		u, v := g.U[e], g.V[e]
		mark := int32(i + 1)
		if partial {
			delta[u]++
			if v != u {
				delta[v]++
			}
		}
		au, av := sets.of(u), sets.of(v)
		for _, q := range au {
			inU[q] = mark
		}
		for _, q := range av {
			inV[q] = mark
		}
		// g(u,p) and g(v,p) for parts holding u, v.
		var gu, gv float64
		if u == v {
			gu = 1.5
		} else {
			du, dv := float64(delta[u]), float64(delta[v])
			gu = 1 + (1 - du/(du+dv))
			gv = 1 + (1 - dv/(du+dv))
		}
		minLoad := int32(0)
		least := int32(loads.open.min())
		if least >= 0 {
			minLoad = loads.load[least]
		}
		maxLoad := loads.maxLoad
		balDen := hdrfEpsilon + float64(maxLoad-minLoad)

		best := int32(-1)
		var bestScore float64
		consider := func(q int32) {
			if !loads.eligible(q) {
				return
			}
			s := hdrfLambda * float64(maxLoad-loads.load[q]) / balDen
			if inU[q] == mark {
				s += gu
			}
			if u != v && inV[q] == mark {
				s += gv
			}
			if best < 0 || s > bestScore || (s == bestScore && (loads.load[q] < loads.load[best] || (loads.load[q] == loads.load[best] && q < best))) {
				best, bestScore = q, s
			}
		}
		for _, q := range au {
			consider(q)
		}
		if u != v {
			for _, q := range av {
				consider(q)
			}
		}
		if least >= 0 {
			consider(least)
		}
		q := best
		part[e] = q
		loads.add(q)
		if inU[q] != mark {
			sets.add(u, q)
		}
		if u != v && inV[q] != mark {
			sets.add(v, q)
		}
	}
	return nil
}
