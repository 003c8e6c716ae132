package spac

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
	"github.com/spac-gpu/spac/transform"
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

// splitInHalves gives every part its share of the weight for any k, odd
// ones included (each cut is weighted k/2 : k-k/2), the same partition on
// one core as on all, and a cut close to a single METIS call's.
func TestSplitInHalves(t *testing.T) {
	g, inc := stencilGraph(t, 60, 60)
	w, err := transform.Contract(g, inc, transform.Walk)
	if err != nil {
		t.Fatal(err)
	}
	mg := metisGraph(w, nil)
	n := mg.NumVertices()
	opts := metis.Options{Method: metis.Recursive, UFactor: 1, Seed: 1}
	for _, k := range []int{2, 3, 7, 37, 100} {
		for _, depth := range []int{0, 1, 3} {
			part, err := splitInHalves(context.Background(), mg, k, depth, opts)
			if err != nil {
				t.Fatal(err)
			}
			weights := mg.PartWeights(part, k)
			ideal := float64(n) / float64(k)
			if lo, hi := slices.Min(weights), slices.Max(weights); float64(lo) < 0.97*ideal || float64(hi) > 1.03*ideal {
				t.Errorf("k %d, depth %d: part weights %d to %d, want %.0f within 3%%", k, depth, lo, hi, ideal)
			}
			procs := runtime.GOMAXPROCS(1)
			again, err := splitInHalves(context.Background(), mg, k, depth, opts)
			runtime.GOMAXPROCS(procs)
			if err != nil || !slices.Equal(part, again) {
				t.Errorf("k %d, depth %d: one core gave another partition (%v)", k, depth, err)
			}
			_, single, err := metis.PartGraph(mg, k, opts)
			if err != nil {
				t.Fatal(err)
			}
			cut := edgeCut(mg, part)
			t.Logf("k %d, depth %d: cut %d, one METIS call %d", k, depth, cut, single)
			if float64(cut) > 1.1*float64(single) {
				t.Errorf("k %d, depth %d: cut %d, more than 1.1 times one METIS call's %d", k, depth, cut, single)
			}
		}
	}
}

// edgeCut is the weight of g's edges between parts.
func edgeCut(g *metis.Graph, part []int32) int64 {
	var cut int64
	for v := 0; v+1 < len(g.Xadj); v++ {
		for j := g.Xadj[v]; j < g.Xadj[v+1]; j++ {
			if part[g.Adjncy[j]] != part[v] {
				if g.Adjwgt != nil {
					cut += int64(g.Adjwgt[j])
				} else {
					cut++
				}
			}
		}
	}
	return cut / 2
}

// A cancelled context stops splitInHalves with ctx.Err().
func TestSplitInHalvesCancelled(t *testing.T) {
	g, inc := stencilGraph(t, 30, 30)
	w, err := transform.Contract(g, inc, transform.Walk)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opts := metis.Options{Method: metis.Recursive, UFactor: 1, Seed: 1}
	if _, err := splitInHalves(ctx, metisGraph(w, nil), 16, 2, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v, want context.Canceled", err)
	}
}
