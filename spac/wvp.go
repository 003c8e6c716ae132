package spac

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
)

// WVPRandom is WVP with random placement of cut edges: a METIS vertex
// partition of the original graph weighted by degree (Bourse, Lelarge,
// Vojnovic, KDD 2014), edges inside a part stay there and a cut edge goes to
// one of its two endpoints' parts at random. It is the paper's baseline for
// "partition the vertices and hope the edges follow" (section 3.3).
type WVPRandom struct{}

// WVPGreedy is WVP with greedy placement of cut edges: as WVPRandom, but a
// cut edge goes, in the manner of PowerGraph's greedy rule, to the one of
// its two endpoints' parts where the other endpoint already has an edge
// (so that it costs no copy), and otherwise to the less loaded of the two,
// which keeps the balance the cap pass has to repair small.
type WVPGreedy struct{}

func init() {
	register(WVPRandom{})
	register(WVPGreedy{})
}

// Name implements Method.
func (WVPRandom) Name() string { return "wvp-random" }

// Name implements Method.
func (WVPGreedy) Name() string { return "wvp-greedy" }

// Partition implements Method.
func (WVPRandom) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	return wvp(ctx, "wvp-random", false, g, inc, opts)
}

// Partition implements Method.
func (WVPGreedy) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	return wvp(ctx, "wvp-greedy", true, g, inc, opts)
}

// wvp runs both WVP variants: vertex partition, edge placement, cap pass.
func wvp(ctx context.Context, name string, greedy bool, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline(name, g, inc, opts); err != nil {
		return Partition{}, err
	}
	tell(opts, "metis")
	vpart, err := wvpVertexPartition(ctx, g, inc, opts)
	if err != nil {
		return Partition{}, fmt.Errorf("%s: %w", name, err)
	}
	tell(opts, "place")
	m, k := g.NumEdges(), opts.K
	part := make([]int32, m)
	load := make([]int32, k)
	// Uncut edges first, so that greedy placement sees the loads and the
	// copies they make.
	var sets vertexParts
	if greedy {
		sets = newVertexParts(inc, g.NumVertices)
	}
	for e := 0; e < m; e++ {
		u, v := g.U[e], g.V[e]
		pu, pv := vpart[u], vpart[v]
		if pu == pv {
			part[e] = pu
			load[pu]++
			if greedy {
				sets.addNew(u, pu)
				sets.addNew(v, pu)
			}
		}
	}
	for e := 0; e < m; e++ {
		if err := cancelled(ctx, e); err != nil {
			return Partition{}, err
		}
		u, v := g.U[e], g.V[e]
		pu, pv := vpart[u], vpart[v]
		if pu == pv {
			continue
		}
		q := pu
		if greedy {
			// Going to pu copies v there unless v is there already, and
			// the other way round; a tie goes to the less loaded part.
			vInPu, uInPv := sets.has(v, pu), sets.has(u, pv)
			switch {
			case vInPu && !uInPv:
				q = pu
			case uInPv && !vInPu:
				q = pv
			case load[pv] < load[pu]:
				q = pv
			}
			sets.addNew(u, q)
			sets.addNew(v, q)
		} else if hash2(opts.Seed, int32(e), 0x5bd1e995)&1 == 1 {
			q = pv
		}
		part[e] = q
		load[q]++
	}
	p := Partition{K: k, Part: part}
	tell(opts, "cap")
	if _, err := EnforceCap(g, inc, &p, opts.Cap); err != nil {
		return Partition{}, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// wvpVertexPartition partitions g's vertices into at most opts.K parts with
// METIS (k-way, edge cut), vertex weight = degree. METIS sees only vertices
// with an edge; self-loops are dropped and parallel edges merged into one
// edge whose weight is their number. A graph left without edges (only
// self-loops), or with no more vertices than parts, needs no METIS: its
// vertices are spread greedily by weight.
// Vertices without edges get part 0.
func wvpVertexPartition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) ([]int32, error) {
	nv := g.NumVertices
	id := make([]int32, nv) // compact METIS id, -1 for isolated vertices
	n := 0
	for v := 0; v < nv; v++ {
		id[v] = -1
		if inc.Offsets[v+1] > inc.Offsets[v] {
			id[v] = int32(n)
			n++
		}
	}
	vpart := make([]int32, nv)
	if n == 0 {
		return vpart, nil
	}
	mg := &metis.Graph{Xadj: make([]int32, 1, n+1), Vwgt: make([]int32, 0, n)}
	mg.Adjncy = make([]int32, 0, len(inc.Other))
	mg.Adjwgt = make([]int32, 0, len(inc.Other))
	at := make([]int32, n) // at[j] = position+1 of neighbour j in the current row
	for v := 0; v < nv; v++ {
		if id[v] < 0 {
			continue
		}
		lo, hi := inc.Offsets[v], inc.Offsets[v+1]
		start := int32(len(mg.Adjncy))
		for _, w := range inc.Other[lo:hi] {
			if w == int32(v) {
				continue
			}
			j := id[w]
			if p := at[j]; p > start {
				mg.Adjwgt[p-1]++
				continue
			}
			mg.Adjncy = append(mg.Adjncy, j)
			mg.Adjwgt = append(mg.Adjwgt, 1)
			at[j] = int32(len(mg.Adjncy))
		}
		mg.Xadj = append(mg.Xadj, int32(len(mg.Adjncy)))
		mg.Vwgt = append(mg.Vwgt, hi-lo)
	}

	// With at least as many parts as vertices every vertex gets a part of
	// its own (METIS cannot do better, and complains); the cap pass fills
	// the parts left empty.
	k := opts.K
	if k > n {
		k = n
	}
	var cpart []int32
	if len(mg.Adjncy) == 0 || k == 1 || k == n {
		cpart = spreadByWeight(mg.Vwgt, k)
	} else {
		var err error
		cpart, err = runMETIS(ctx, mg, k, metis.Options{Seed: int32(opts.Seed)})
		if err != nil {
			return nil, err
		}
	}
	for v := 0; v < nv; v++ {
		if id[v] >= 0 {
			vpart[v] = cpart[id[v]]
		}
	}
	return vpart, nil
}

// spreadByWeight puts each vertex, in order, on the lightest of k parts.
func spreadByWeight(w []int32, k int) []int32 {
	load := make([]int32, k)
	h := newPartHeap(load, math.MaxInt32, func(int) bool { return true })
	part := make([]int32, len(w))
	for v, x := range w {
		q := h.min()
		part[v] = int32(q)
		load[q] += x
		h.update(q)
	}
	return part
}
