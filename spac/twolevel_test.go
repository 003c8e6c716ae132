package spac

import (
	"context"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

func TestShares(t *testing.T) {
	for _, tc := range []struct {
		weights []int64
		k       int
		want    []int
	}{
		{[]int64{10, 10, 10}, 6, []int{2, 2, 2}},
		{[]int64{10, 10, 10}, 7, []int{3, 2, 2}},    // largest remainder, first on ties
		{[]int64{1, 1000, 1000}, 4, []int{1, 2, 1}}, // every group gets a part
		{[]int64{50, 30, 20}, 10, []int{5, 3, 2}},
		{[]int64{1, 1, 1, 1000}, 4, []int{1, 1, 1, 1}}, // at least one each, k held
	} {
		var total int64
		for _, w := range tc.weights {
			total += w
		}
		if got := shares(tc.weights, total, tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("shares(%v, %d) = %v, want %v", tc.weights, tc.k, got, tc.want)
		}
	}
}

// From twoLevelMinParts parts on, METIS runs in two stages: the result must
// still be a valid, deterministic partition under the cap, and as good as
// streaming greedy on a mesh where locality is easy to find.
func TestSPACTwoLevel(t *testing.T) {
	g, inc := stencilGraph(t, 200, 200)
	k, capacity, err := Resolve(g.NumEdges(), 0, 512)
	if err != nil {
		t.Fatal(err)
	}
	if k < twoLevelMinParts {
		t.Fatalf("%d parts do not reach the two-stage path (%d)", k, twoLevelMinParts)
	}
	opts := Options{K: k, Cap: capacity, Seed: 1}
	p, err := SPAC{}.Partition(context.Background(), g, inc, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(g, p, capacity); err != nil {
		t.Fatal(err)
	}
	again, _ := SPAC{}.Partition(context.Background(), g, inc, opts)
	if !slices.Equal(p.Part, again.Part) {
		t.Fatal("two runs with one seed differ")
	}
	q, err := Greedy{}.Partition(context.Background(), g, inc, opts)
	if err != nil {
		t.Fatal(err)
	}
	sc, gc := Evaluate(g, inc, p).Copies, Evaluate(g, inc, q).Copies
	t.Logf("%d parts: spac %d copies, greedy %d", k, sc, gc)
	if sc >= gc {
		t.Errorf("spac %d copies, not fewer than greedy's %d", sc, gc)
	}
}

// stencilGraph is the spmv locality graph of an nx x ny 5-point stencil.
func stencilGraph(t *testing.T, nx, ny int) (*matrices.Graph, *matrices.Incidence) {
	t.Helper()
	coo, err := matrices.Stencil2D(nx, ny, 5)
	if err != nil {
		t.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(coo, matrices.ModelSpMV)
	if err != nil {
		t.Fatal(err)
	}
	return g, inc
}
