package traversal

import (
	"cmp"
	"slices"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
)

// Delta-stepping's arcs (traversal.cu, lh_degrees): each vertex's arcs in
// increasing weight, split where the heavy ones (weight >= delta) begin,
// so that a level relaxes one contiguous range per vertex, light or heavy.

// lightHeavy is the adjacency of g with each vertex's arcs sorted by
// weight (ties by target), and split[u], the index of u's first heavy arc.
func lightHeavy(g *graph.Graph, delta float32) (adj []int32, w []float32, split []int64) {
	n := g.NumVertices
	adj, w, split = make([]int32, len(g.Adj)), make([]float32, len(g.Adj)), make([]int64, n)
	const grain = 1 << 12
	par.Do((n+grain-1)/grain, func(t int) {
		type arc struct {
			w float32
			v int32
		}
		var buf []arc
		for u := t * grain; u < min((t+1)*grain, n); u++ {
			b, e := g.Offsets[u], g.Offsets[u+1]
			buf = buf[:0]
			for k := b; k < e; k++ {
				buf = append(buf, arc{g.Weight[k], g.Adj[k]})
			}
			slices.SortFunc(buf, func(x, y arc) int { return cmp.Or(cmp.Compare(x.w, y.w), cmp.Compare(x.v, y.v)) })
			split[u] = e
			for i, a := range buf {
				adj[b+int64(i)], w[b+int64(i)] = a.v, a.w
				if a.w >= delta && split[u] == e {
					split[u] = b + int64(i)
				}
			}
		}
	})
	return adj, w, split
}

// needLightHeavy uploads delta-stepping's sorted arcs and split points
// and allocates the bucket list (once).
func (e *Engine) needLightHeavy() error {
	if e.lhSplit != nil {
		return nil
	}
	adj, w, split := lightHeavy(e.g, e.delta(DeltaStepping))
	if err := upload(e, &e.lhAdj, nonEmpty(adj), "the arcs sorted by weight"); err != nil {
		return err
	}
	if err := upload(e, &e.lhW, nonEmpty(w), "the weights sorted"); err != nil {
		return err
	}
	if err := e.alloc(&e.lhList, 8*max(e.n, 1), "the bucket list"); err != nil {
		return err
	}
	return upload(e, &e.lhSplit, nonEmpty(split), "the light/heavy split points")
}
