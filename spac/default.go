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

// Partition implements Method. Edges are ordered by (U, V, edge index) with
// two stable counting sorts (by V, then by U), then cut into chunks of Cap.
func (Default) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("default", g, inc, opts); err != nil {
		return Partition{}, err
	}
	if err := ctx.Err(); err != nil {
		return Partition{}, err
	}
	order := csrOrder(g)
	part := make([]int32, len(order))
	for i, e := range order {
		part[e] = int32(i / opts.Cap)
	}
	return Partition{K: opts.K, Part: part}, nil
}

// csrOrder returns the edges sorted by (U, V), ties by edge index: the order
// of the nonzeros in CSR with sorted column indices.
func csrOrder(g *matrices.Graph) []int32 {
	m := g.NumEdges()
	byV := countingSort(g.V, g.NumVertices, nil, m)
	return countingSort(g.U, g.NumVertices, byV, m)
}

// countingSort stably sorts the edges listed in order (all edges in index
// order when order is nil) by key[e] in [0, n).
func countingSort(key []int32, n int, order []int32, m int) []int32 {
	cnt := make([]int32, n+1)
	for _, k := range key {
		cnt[k+1]++
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	out := make([]int32, m)
	if order == nil {
		for e, k := range key {
			out[cnt[k]] = int32(e)
			cnt[k]++
		}
		return out
	}
	for _, e := range order {
		k := key[e]
		out[cnt[k]] = e
		cnt[k]++
	}
	return out
}
