package spac

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// The own start, numbering its transformed graph by an earlier partition's
// parts, gives a valid partition whose copies are those of the start on the
// graph as numbered, within a few percent (only the ranges the coarsening
// matches in, and its ties, follow the numbering); verticesByPart lists
// every vertex once, part by part, and unnumber takes a partition back.
func TestOwnStartNumberedByParts(t *testing.T) {
	defer func(m int) { coarsenMinEdges = m }(coarsenMinEdges)
	coarsenMinEdges = 1 // the multilevel scheme, which the numbering is for
	m, err := matrices.Circuit(20000, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(shuffled(m.Expanded(), 5), matrices.ModelSpMV)
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := Resolve(g.NumEdges(), 0, 256)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{K: k, Cap: capacity, Seed: 1, Coarsen: DefaultCoarsen, Imbalance: DefaultImbalance, DominantWeight: DefaultDominantWeight}
	ne, err := NE{}.Partition(context.Background(), g, inc, opts)
	if err != nil {
		t.Fatal(err)
	}
	order := verticesByPart(ne.Part, k, 1)
	if sorted := slices.Sorted(slices.Values(order)); !slices.Equal(sorted, iota32(g.NumEdges())) {
		t.Fatal("verticesByPart: not every vertex once")
	}
	for i := 1; i < len(order); i++ {
		if ne.Part[order[i-1]] > ne.Part[order[i]] {
			t.Fatalf("verticesByPart: task %d of part %d before task %d of part %d", order[i-1], ne.Part[order[i-1]], order[i], ne.Part[order[i]])
		}
	}
	if back := unnumber(verticesByPart(ne.Part, k, 1), order); !slices.Equal(back, iota32(len(order))) {
		t.Fatal("unnumber does not take the order back to the identity")
	}
	plain, err := splitConnect(context.Background(), g, inc, opts)
	if err != nil {
		t.Fatal(err)
	}
	numbered := opts
	numbered.numberBy = ne.Part
	p, err := splitConnect(context.Background(), g, inc, numbered)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(g, p, capacity); err != nil {
		t.Fatal(err)
	}
	a, b := Evaluate(g, inc, plain).Copies, Evaluate(g, inc, p).Copies
	t.Logf("own start: %d copies as numbered, %d numbered by NE's parts (NE's: %d)", a, b, Evaluate(g, inc, ne).Copies)
	if float64(b) > 1.05*float64(a) || float64(a) > 1.05*float64(b) {
		t.Errorf("own start numbered by NE's parts: %d copies, as numbered %d: more than 5%% apart", b, a)
	}
}

func iota32(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// From memoryBoundEdges tasks the own start is left out where what it
// counts would take it over its budget, and NE's start gives the parts
// when no start is left (the same partition as NE's named alone); with room
// enough, or no bound, it runs. Below the size there is no bound.
func TestMemoryBudget(t *testing.T) {
	defer func(m, c int) { memoryBoundEdges, coarsenMinEdges = m, c }(memoryBoundEdges, coarsenMinEdges)
	coarsenMinEdges = 1
	m, err := matrices.Stencil2D(60, 60, 5)
	run := startsFixture(t, m, err)
	if newMemoryBudget(run.g, run.inc, Options{}, nil) != nil {
		t.Fatalf("a bound below memoryBoundEdges (%d) on %d tasks", memoryBoundEdges, run.g.NumEdges())
	}
	memoryBoundEdges = 1
	if newMemoryBudget(run.g, run.inc, Options{MemoryPerTask: -1}, nil) != nil {
		t.Fatal("a bound with MemoryPerTask negative")
	}
	neAlone, _ := run.partition(Options{Starts: []string{"ne"}})
	own, _ := run.partition(Options{Starts: []string{"metis"}, MemoryPerTask: -1, Coarsen: DefaultCoarsen})
	for _, c := range []struct {
		perTask float64
		leftOut bool
	}{{1, true}, {1e6, false}} {
		var stages []string
		o := Options{Starts: []string{"metis"}, StartsBySize: hugeStartsEdges, MemoryPerTask: c.perTask, Coarsen: DefaultCoarsen}
		o.K, o.Cap, o.Seed = run.k, run.capacity, 1
		o.Progress = func(s string) { stages = append(stages, s) }
		p, err := SPAC{}.Partition(context.Background(), run.g, run.inc, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(run.g, p, run.capacity); err != nil {
			t.Fatal(err)
		}
		leftOut := slices.ContainsFunc(stages, func(s string) bool { return strings.HasPrefix(s, "start metis: left out") })
		want := own
		if c.leftOut {
			want = neAlone
		}
		if leftOut != c.leftOut || !slices.Equal(p.Part, want.Part) {
			t.Errorf("%g bytes a task: own start left out %v, want %v; the parts are the %s", c.perTask, leftOut, c.leftOut, map[bool]string{true: "expected ones", false: "wrong ones"}[slices.Equal(p.Part, want.Part)])
		}
	}
	var b *memoryBudget
	if err := b.check(&hierarchy{}, true); err != nil {
		t.Errorf("no budget: %v", err)
	}
	if err := (&memoryBudget{limit: 1}).check(&hierarchy{graphs: nil}, false); err != nil {
		t.Errorf("nothing held: %v", err)
	}
	if err := (&memoryBudget{limit: 1, held: 2}).check(&hierarchy{}, false); !errors.Is(err, errOverBudget) {
		t.Errorf("held over the limit: %v, want errOverBudget", err)
	}
}
