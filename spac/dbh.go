package spac

import (
	"context"

	"github.com/spac-gpu/spac/matrices"
)

// DBH is Degree-Based Hashing (Xie, Yan, Li, Zhang, NIPS 2014): each edge is
// placed by the hash of its lower-degree endpoint, so low-degree vertices
// keep all their edges together and only hubs are cut. It is the stateless
// hashing method that does well on power-law graphs.
type DBH struct{}

func init() { register(DBH{}) }

// Name implements Method.
func (DBH) Name() string { return "dbh" }

// Partition implements Method: part = xxhash(seed, w) mod K with w the
// endpoint of lower full degree (the lower index on a tie), then EnforceCap.
func (DBH) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("dbh", g, inc, opts); err != nil {
		return Partition{}, err
	}
	part := make([]int32, g.NumEdges())
	off := inc.Offsets
	for e := range part {
		if err := cancelled(ctx, e); err != nil {
			return Partition{}, err
		}
		u, v := g.U[e], g.V[e]
		du, dv := off[u+1]-off[u], off[v+1]-off[v]
		w := u
		if dv < du || (dv == du && v < u) {
			w = v
		}
		part[e] = hashPart(hash2(opts.Seed, w, -1), opts.K)
	}
	return capped(g, inc, part, opts)
}
