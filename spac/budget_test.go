package spac

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

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
	if err := b.check(&hierarchy{}); err != nil {
		t.Errorf("no budget: %v", err)
	}
	if err := (&memoryBudget{limit: 1}).checkNext(&hierarchy{graphs: nil}, 0); err != nil {
		t.Errorf("nothing held: %v", err)
	}
	if err := (&memoryBudget{limit: 1, held: 2}).checkNext(&hierarchy{}, 0); !errors.Is(err, errOverBudget) {
		t.Errorf("held over the limit: %v, want errOverBudget", err)
	}
}
