package spac

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/matrices"
)

// HEP is the Hybrid Edge Partitioner (Mayer and Jacobsen, SIGMOD 2021): the
// vertices of degree above tau times the mean degree are high; the edges
// between two high vertices are streamed by HDRF, every other edge is
// partitioned in memory by NE++, neighbourhood expansion that keeps the high
// vertices out of the core. On power-law graphs it is the strongest
// published in-memory edge partitioner.
type HEP struct{}

func init() { register(HEP{}) }

// Name implements Method.
func (HEP) Name() string { return "hep" }

// DefaultTau is HEP's degree threshold, in multiples of the mean degree,
// when Options.Tau is 0: the paper's HEP-10.
const DefaultTau = 10.0

// HEPTau is the threshold HEP runs with under o: o.Tau, or DefaultTau when
// that is 0 (the schedule cache keys HEP's schedules by it).
func (o Options) HEPTau() float64 {
	if o.Tau == 0 {
		return DefaultTau
	}
	return o.Tau
}

// Partition implements Method. A vertex is high when its degree exceeds
// tau (Options.Tau, DefaultTau when 0; +Inf makes HEP NE) times the mean
// degree of the vertices that have edges (isolated ids, as in edge lists
// with gaps, would lower it). NE++ is NE (ne.go) on the edges with a low endpoint: a high
// vertex joins a part's boundary but never its core, and its edges are
// found from their low endpoints (their lists are the only ones kept), so
// an edge from a boundary vertex to a high one goes to the part when the
// low one moves to the core. The parts fill evenly, leaving room for the
// high-high edges, which HDRF then streams in input order with the full
// degrees and the vertex parts NE++ left. The cap pass ends it.
func (HEP) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("hep", g, inc, opts); err != nil {
		return Partition{}, err
	}
	tau := opts.HEPTau()
	if !(tau > 0) {
		return Partition{}, fmt.Errorf("hep: tau must be positive, got %v", tau)
	}
	m, nv := g.NumEdges(), g.NumVertices
	high := make([]bool, nv)
	if !math.IsInf(tau, 1) {
		limit := tau * meanDegree(inc)
		for v := range high {
			high[v] = float64(inc.Degree(v)) > limit
		}
	}
	part := unassigned(m)
	load := make([]int32, opts.K)
	tell(opts, "ne++")
	if _, err := expand(ctx, g, inc, high, part, load, opts); err != nil {
		return Partition{}, err
	}
	var h2h []int32
	for e, q := range part {
		if q < 0 {
			h2h = append(h2h, int32(e))
		}
	}
	if len(h2h) > 0 {
		tell(opts, "hdrf")
		sets := newVertexParts(inc, nv)
		stamp := make([]int32, opts.K)
		for v := 0; v < nv; v++ {
			for _, e := range inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]] {
				if q := part[e]; q >= 0 && stamp[q] != int32(v+1) {
					stamp[q] = int32(v + 1)
					sets.add(int32(v), q)
				}
			}
		}
		degree := make([]int32, nv)
		for v := range degree {
			degree[v] = int32(inc.Degree(v))
		}
		if err := hdrfStream(ctx, g, h2h, part, degree, false, sets, loadsOver(load, opts.Cap)); err != nil {
			return Partition{}, err
		}
	}
	return capped(g, inc, part, opts)
}

// meanDegree is the mean length of the non-empty incidence lists.
func meanDegree(inc *matrices.Incidence) float64 {
	n := 0
	for v := 0; v+1 < len(inc.Offsets); v++ {
		if inc.Offsets[v+1] > inc.Offsets[v] {
			n++
		}
	}
	return float64(len(inc.Edge)) / float64(max(n, 1))
}
