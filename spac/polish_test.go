package spac

import (
	"context"
	"slices"
	"testing"
)

// TestPolishNeverRaisesCopies: from random and baseline starts on every
// test graph and cap setting, Polish keeps every edge assigned and the cap
// held, saves exactly the copies it reports, and is deterministic.
func TestPolishNeverRaisesCopies(t *testing.T) {
	ctx := context.Background()
	total := 0
	for _, c := range blCases(t) {
		for _, o := range blOptions(t, c.g.NumEdges()) {
			for _, method := range []string{"random", "default", "greedy"} {
				start := partitionBy(t, method, c, o)
				before := Evaluate(c.g, c.inc, start).Copies
				p := Partition{K: start.K, Part: slices.Clone(start.Part)}
				saved, err := Polish(ctx, c.g, c.inc, &p, o.Cap, 4)
				if err != nil {
					t.Fatalf("%s %s K=%d cap=%d: %v", c.name, method, o.K, o.Cap, err)
				}
				if err := Check(c.g, p, o.Cap); err != nil {
					t.Fatalf("%s %s: %v", c.name, method, err)
				}
				after := Evaluate(c.g, c.inc, p).Copies
				if after != before-int64(saved) || saved < 0 {
					t.Fatalf("%s %s K=%d cap=%d: copies %d -> %d, reported %d saved", c.name, method, o.K, o.Cap, before, after, saved)
				}
				again := Partition{K: start.K, Part: slices.Clone(start.Part)}
				if _, err := Polish(ctx, c.g, c.inc, &again, o.Cap, 4); err != nil || !slices.Equal(again.Part, p.Part) {
					t.Fatalf("%s %s: not deterministic (%v)", c.name, method, err)
				}
				total += saved
			}
		}
	}
	if total == 0 {
		t.Error("Polish saved no copy on any start: the test no longer exercises it")
	}
}

// TestPolishStrandedEdge: the hand case the pass exists for. Edges 0-1,
// 1-2, 0-2 form a triangle in part 0 with room; edge 1-2 stranded alone in
// part 1 costs a copy of 1 and of 2; moving it home saves both.
func TestPolishStrandedEdge(t *testing.T) {
	g, inc := graphOf(3, 0, 1, 1, 2, 0, 2, 1, 2)
	p := Partition{K: 2, Part: []int32{0, 1, 0, 0}}
	saved, err := Polish(context.Background(), g, inc, &p, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if saved != 2 || !slices.Equal(p.Part, []int32{0, 0, 0, 0}) {
		t.Errorf("saved %d, parts %v; want 2 and every edge in part 0", saved, p.Part)
	}
	// With part 0 full the edge must stay.
	p = Partition{K: 2, Part: []int32{0, 1, 0, 0}}
	if saved, err := Polish(context.Background(), g, inc, &p, 3, 2); err != nil || saved != 0 || p.Part[1] != 1 {
		t.Errorf("at a full part: saved %d, parts %v, %v; want nothing moved", saved, p.Part, err)
	}
}

func TestPolishRejectsOverfull(t *testing.T) {
	g, inc := graphOf(3, 0, 1, 1, 2, 0, 2)
	p := Partition{K: 2, Part: []int32{0, 0, 0}}
	if _, err := Polish(context.Background(), g, inc, &p, 2, 1); err == nil {
		t.Error("Polish accepted a part above the cap")
	}
}

// partitionBy is the partition the named method gives test case c under o.
func partitionBy(t *testing.T, method string, c blCase, o Options) Partition {
	t.Helper()
	meth, err := Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	p, err := meth.Partition(context.Background(), c.g, c.inc, o)
	if err != nil {
		t.Fatalf("%s %s: %v", c.name, method, err)
	}
	return p
}

// TestFirstCandidatesOracle: the parallel first sweep lists the edges a
// sweep over the vertices in order lists, in the same order.
func TestFirstCandidatesOracle(t *testing.T) {
	for _, c := range blCases(t) {
		for _, o := range blOptions(t, c.g.NumEdges()) {
			for _, method := range []string{"random", "default", "greedy"} {
				p := partitionBy(t, method, c, o)
				load, err := partLoads(p.Part, p.K)
				if err != nil {
					t.Fatal(err)
				}
				st := newCapState(c.g, c.inc, p.Part, load, int32(o.Cap), nil, true)
				var want []int32
				seen := make([]bool, c.g.NumEdges())
				for w := range c.g.NumVertices {
					if st.n[w] <= 1 {
						continue
					}
					for _, e := range c.inc.Edge[c.inc.Offsets[w]:c.inc.Offsets[w+1]] {
						if st.count(int32(w), p.Part[e]) == 1 && !seen[e] {
							seen[e] = true
							want = append(want, e)
						}
					}
				}
				if got := firstCandidates(c.g, c.inc, st, p.K); !slices.Equal(got, want) {
					t.Fatalf("%s %s K=%d: %d candidates, want %d (or another order)", c.name, method, o.K, len(got), len(want))
				}
			}
		}
	}
}

// The default polishes small inputs only; an explicit count is kept at any
// size.
func TestPolishPasses(t *testing.T) {
	for _, tc := range []struct{ polish, m, want int }{
		{DefaultPolish, 1000, PolishPasses},
		{DefaultPolish, polishMinTasks - 1, PolishPasses},
		{DefaultPolish, polishMinTasks, 0},
		{0, 1000, 0},
		{2, 1000, 2},
		{4, 60 << 20, 4},
	} {
		if got := polishPasses(tc.polish, tc.m); got != tc.want {
			t.Errorf("polishPasses(%d, %d) = %d, want %d", tc.polish, tc.m, got, tc.want)
		}
	}
}
