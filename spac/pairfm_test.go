package spac

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestRefinePairsNeverRaisesCopies: from the baselines' partitions on every
// test graph and cap setting, RefinePairs keeps every edge assigned and the
// cap held, saves exactly the copies it reports, and gives the same
// partition twice and on one core.
func TestRefinePairsNeverRaisesCopies(t *testing.T) {
	ctx := context.Background()
	var total int64
	for _, c := range blCases(t) {
		for _, o := range blOptions(t, c.g.NumEdges()) {
			for _, method := range []string{"random", "default", "greedy", "ne"} {
				start := partitionBy(t, method, c, o)
				where := fmt.Sprintf("%s %s K=%d cap=%d", c.name, method, o.K, o.Cap)
				before := Evaluate(c.g, c.inc, start).Copies
				refine := func() Partition {
					p := Partition{K: start.K, Part: slices.Clone(start.Part)}
					saved, err := RefinePairs(ctx, c.g, c.inc, &p, o.Cap, 8)
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if err := Check(c.g, p, o.Cap); err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if after := Evaluate(c.g, c.inc, p).Copies; after != before-saved || saved < 0 {
						t.Fatalf("%s: copies %d -> %d, reported %d saved", where, before, after, saved)
					}
					return p
				}
				p := refine()
				if again := refine(); !slices.Equal(again.Part, p.Part) {
					t.Fatalf("%s: two runs differ", where)
				}
				procs := runtime.GOMAXPROCS(1)
				one := refine()
				runtime.GOMAXPROCS(procs)
				if !slices.Equal(one.Part, p.Part) {
					t.Fatalf("%s: one core gives another partition", where)
				}
				total += before - Evaluate(c.g, c.inc, p).Copies
			}
		}
	}
	if total == 0 {
		t.Error("RefinePairs saved no copy on any start: the test no longer exercises it")
	}
}

// TestRefinePairsExchanges: the case single moves cannot mend. Two
// triangles, 0-1-2 and 3-4-5, in two full parts of three edges, each part
// holding one edge of the other triangle: four copies, and every single
// move overfills a part. Exchanging the two stray edges leaves none.
func TestRefinePairsExchanges(t *testing.T) {
	g, inc := graphOf(6, 0, 1, 1, 2, 3, 4, 0, 2, 3, 5, 4, 5)
	p := Partition{K: 2, Part: []int32{0, 0, 0, 1, 1, 1}}
	if c := Evaluate(g, inc, p).Copies; c != 4 {
		t.Fatalf("start has %d copies, want 4", c)
	}
	if saved, _ := Polish(context.Background(), g, inc, &p, 3, 4); saved != 0 {
		t.Fatalf("Polish saved %d at full parts; the case no longer needs an exchange", saved)
	}
	saved, err := RefinePairs(context.Background(), g, inc, &p, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if c := Evaluate(g, inc, p).Copies; saved != 4 || c != 0 {
		t.Errorf("saved %d, %d copies left (parts %v); want 4 and 0", saved, c, p.Part)
	}
}

func TestRefinePairsRejectsOverfull(t *testing.T) {
	g, inc := graphOf(3, 0, 1, 1, 2, 0, 2)
	p := Partition{K: 2, Part: []int32{0, 0, 0}}
	if _, err := RefinePairs(context.Background(), g, inc, &p, 2, 1); err == nil {
		t.Error("RefinePairs accepted a part above the cap")
	}
}

// TestSPACAtMostItsStarts: SPAC keeps the best of its refined starts, so it
// never has more copies than the baselines it starts from, on any test graph
// and setting.
func TestSPACAtMostItsStarts(t *testing.T) {
	ctx := context.Background()
	for _, c := range blCases(t) {
		for _, o := range blOptions(t, c.g.NumEdges()) {
			opts := o
			opts.Polish, opts.Refine = DefaultPolish, DefaultRefine
			p, err := SPAC{}.Partition(ctx, c.g, c.inc, opts)
			if err != nil {
				t.Fatalf("%s K=%d: %v", c.name, o.K, err)
			}
			if err := Check(c.g, p, o.Cap); err != nil {
				t.Fatalf("%s K=%d: %v", c.name, o.K, err)
			}
			mine := Evaluate(c.g, c.inc, p).Copies
			for _, method := range []string{"ne", "hep", "wvp-greedy", "default"} {
				q := partitionBy(t, method, c, o)
				if theirs := Evaluate(c.g, c.inc, q).Copies; mine > theirs {
					t.Errorf("%s K=%d cap=%d: SPAC %d copies, %s %d", c.name, o.K, o.Cap, mine, method, theirs)
				}
			}
		}
	}
}
