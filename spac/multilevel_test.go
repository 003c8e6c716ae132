package spac

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/metis"
	"github.com/spac-gpu/spac/transform"
)

// The multilevel path (graphs of coarsenMinEdges edges or more, lowered
// here) gives a valid partition under the cap in both formulations, the
// same one on one core as on all, and beats streaming greedy on a mesh.
func TestSPACMultilevel(t *testing.T) {
	saved := coarsenMinEdges
	coarsenMinEdges = 0
	defer func() { coarsenMinEdges = saved }()
	g, inc := stencilGraph(t, 150, 150)
	for _, f := range []transform.Formulation{transform.Contracted, transform.Split} {
		for _, bs := range []int{256, 20000} {
			k, capacity, err := Resolve(g.NumEdges(), 0, bs)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{K: k, Cap: capacity, Seed: 1, Formulation: f, Coarsen: DefaultCoarsen}
			p, err := SPAC{}.Partition(context.Background(), g, inc, opts)
			if err != nil {
				t.Fatalf("%v, %d parts: %v", f, k, err)
			}
			if err := Check(g, p, capacity); err != nil {
				t.Fatalf("%v, %d parts: %v", f, k, err)
			}
			procs := runtime.GOMAXPROCS(1)
			again, err := SPAC{}.Partition(context.Background(), g, inc, opts)
			runtime.GOMAXPROCS(procs)
			if err != nil || !slices.Equal(p.Part, again.Part) {
				t.Fatalf("%v, %d parts: one core gave another partition than %d (%v)", f, k, procs, err)
			}
			q, err := Greedy{}.Partition(context.Background(), g, inc, opts)
			if err != nil {
				t.Fatal(err)
			}
			sc, gc := Evaluate(g, inc, p).Copies, Evaluate(g, inc, q).Copies
			t.Logf("%v, %d parts: spac %d copies, greedy %d", f, k, sc, gc)
			if sc >= gc {
				t.Errorf("%v, %d parts: spac %d copies, not fewer than greedy's %d", f, k, sc, gc)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	k, capacity, _ := Resolve(g.NumEdges(), 0, 256)
	if _, err := (SPAC{}).Partition(ctx, g, inc, Options{K: k, Cap: capacity, Coarsen: DefaultCoarsen}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

// Every level of the hierarchy keeps the vertex weight, the V-cycle's
// levels keep the partition they were built within, and uncoarsening a
// partition of the coarsest graph refines without raising the cut it had
// when projected.
func TestHierarchy(t *testing.T) {
	g, inc := stencilGraph(t, 60, 60)
	w, err := transform.Contract(g, inc, transform.Walk)
	if err != nil {
		t.Fatal(err)
	}
	n := w.NumVertices()
	target := coarseTarget{vertices: n / 20, entries: int64(len(w.Adjncy))}
	// A partition into stripes of vertex indices (rows of the matrix).
	const k = 6
	within := make([]int32, n)
	for v := range within {
		within[v] = int32(v * k / n)
	}
	// coarsen consumes w (its pages go back once it is packed): the cuts
	// below are measured on a copy.
	mg := &metis.Graph{Xadj: slices.Clone(w.Xadj), Adjncy: slices.Clone(w.Adjncy), Adjwgt: slices.Clone(w.Adjwgt)}
	h, err := coarsen(context.Background(), w, nil, within, 16, 8, false, nil, target, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.maps) == 0 || h.graphs[len(h.maps)].NumVertices() > n/2 {
		t.Fatalf("%d levels down to %d of %d vertices", len(h.maps), h.graphs[len(h.maps)].NumVertices(), n)
	}
	for l := 1; l <= len(h.maps); l++ {
		weight := h.weights[l]
		if h.packed[l] != nil {
			_, weight = h.packed[l].Unpack()
		}
		var sum int64
		for _, x := range weight {
			sum += int64(x)
		}
		if sum != int64(n) {
			t.Fatalf("level %d weighs %d, want %d", l, sum, n)
		}
	}
	// Projecting within down must give within back.
	part := slices.Clone(h.within)
	for l := len(h.maps) - 1; l >= 0; l-- {
		if h.maps[l] != nil || h.graphs[l] != nil {
			t.Fatalf("level %d waits for the way up unpacked", l)
		}
		m := h.pmaps[l].Unpack()
		fine := make([]int32, len(m))
		for v, c := range m {
			fine[v] = part[c]
		}
		part = fine
	}
	if !slices.Equal(part, within) {
		t.Fatal("the coarse levels do not keep the partition they were built within")
	}
	before := mg.EdgeCut(within)
	refined, err := h.uncoarsen(context.Background(), len(h.maps), slices.Clone(h.within), k, int64(n), 0, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if after := mg.EdgeCut(refined); after > before {
		t.Errorf("uncoarsening raised the cut from %d to %d", before, after)
	}
}
