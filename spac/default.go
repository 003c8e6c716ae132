package spac

import (
	"context"

	"github.com/spac-gpu/spac/matrices"
)

// Default is the schedule kernels have today: contiguous chunks of nonzeros
// in row order, block b running nonzeros [b*Cap, (b+1)*Cap) of the CSR
// order. It is the baseline every speed-up in the paper is measured against.
type Default struct{}

func init() { register(Default{}) }

// Name implements Method.
func (Default) Name() string { return "default" }

// Partition implements Method. Edges are ordered by (U, V, edge index)
// (matrices.RowMajor: two stable counting sorts, or none where the edges are
// in that order already), then cut into chunks of Cap.
func (Default) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("default", g, inc, opts); err != nil {
		return Partition{}, err
	}
	if err := ctx.Err(); err != nil {
		return Partition{}, err
	}
	order := matrices.RowMajor(g.U, g.V, g.NumVertices, g.NumVertices)
	part := make([]int32, len(order))
	for i, e := range order {
		part[e] = int32(i / opts.Cap)
	}
	return Partition{K: opts.K, Part: part}, nil
}
