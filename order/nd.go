package order

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/metis"
)

// ND returns METIS's nested-dissection ordering (METIS_NodeND) of the
// undirected graph with n vertices given in CSR form, as perm[new] = old:
// each bisection's halves are numbered one after the other and their
// separator last, recursively, so that most edges join vertices that are
// close in the new numbering. The adjacency is symmetrized as for [RCM]
// (self-loops and duplicates dropped), which METIS requires. seed seeds
// METIS's generator; the result is deterministic for a given seed.
//
// Cost: METIS's multilevel bisection, O(m log n) in practice, and O(n + m)
// memory for the symmetrized copy. METIS indexes with 32 bits: a graph
// with 2^31 or more symmetrized arcs is refused with an error.
//
// METIS cannot be interrupted, and on a graph of millions of vertices it
// runs for minutes: when ctx is done ND returns ctx's error at once and
// leaves the call to finish on its thread, its result dropped.
func ND(ctx context.Context, n int, ptr []int64, adj []int32, seed int32) ([]int32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return []int32{}, nil
	}
	g := symmetrize(n, ptr, adj)
	if g.ptr[n] > math.MaxInt32 {
		return nil, fmt.Errorf("order: nested dissection of %d vertices with %d arcs: METIS takes at most 2^31-1", n, g.ptr[n])
	}
	xadj := make([]int32, n+1)
	for i, p := range g.ptr {
		xadj[i] = int32(p)
	}
	return par.Await(ctx, func() ([]int32, error) {
		perm, _, err := nodeND(&metis.Graph{Xadj: xadj, Adjncy: g.adj}, metis.Options{Seed: seed})
		if err != nil {
			return nil, fmt.Errorf("order: %w", err)
		}
		return perm, nil
	})
}

// nodeND is METIS's call, a variable so that a test can stand in a call
// that does not end.
var nodeND = metis.NodeND
