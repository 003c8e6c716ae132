//go:build mpi

package hypergraph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/mpi/mpitest"
	"github.com/spac-gpu/spac/spac"
)

// TestPartition: on 1, 2 and 4 processes the partition is valid under the
// strict cap, the same on every rank and on a second call, and its copies
// are within reach of SPAC's (the model is exact, Zoltan's heuristic is
// not: a loose bound catches a broken hypergraph, not a weak partitioner).
func TestPartition(t *testing.T) {
	if !mpitest.Rank() {
		for _, np := range []int{1, 2, 4} {
			mpitest.Run(t, np, "TestPartition", nil)
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	for _, tc := range []struct {
		name  string
		gen   func() (*matrices.COO, error)
		model matrices.Model
		block int
	}{
		{"stencil", func() (*matrices.COO, error) { return matrices.Stencil2D(60, 50, 5) }, matrices.ModelGraph, 128},
		{"ba", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(2000, 3, 2) }, matrices.ModelSpMV, 100},
	} {
		m, err := tc.gen()
		if err != nil {
			t.Fatal(err)
		}
		g, inc, err := matrices.BuildLocality(m.Expanded(), tc.model)
		if err != nil {
			t.Fatal(err)
		}
		k, capacity, _ := spac.Resolve(g.NumEdges(), 0, tc.block)
		opts := spac.Options{K: k, Cap: capacity, Seed: 3}
		p, err := Method{Comm: c}.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := spac.Check(g, p, capacity); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		again, err := Method{Comm: c}.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Part, again.Part) {
			t.Errorf("%s: two calls differ", tc.name)
		}
		all, err := mpi.Allgather(c, p.Part)
		if err != nil {
			t.Fatal(err)
		}
		for r, other := range all {
			if !slices.Equal(other, p.Part) {
				t.Errorf("%s: rank %d's partition differs from rank %d's", tc.name, r, c.Rank())
			}
		}
		met := spac.Evaluate(g, inc, p)
		sp, err := spac.SPAC{}.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		ref := spac.Evaluate(g, inc, sp)
		if c.Rank() == 0 {
			fmt.Printf("%s on %d processes: hypergraph %d copies, spac %d\n", tc.name, c.Size(), met.Copies, ref.Copies)
		}
		if met.Copies > 3*ref.Copies {
			t.Errorf("%s: %d copies, more than three times SPAC's %d", tc.name, met.Copies, ref.Copies)
		}
	}
}
