//go:build cuda

package traversal

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/validate"
	"github.com/spac-gpu/spac/schedule"
)

// spac-schedule passes the conformance suite at block sizes that give the
// small graphs many schedule blocks (32), and a few (256); TestConformance
// runs the default (1024).
func TestSpacScheduleConformance(t *testing.T) {
	device(t)
	for _, bs := range []int{32, 256} {
		for _, a := range []Algorithm{BFS, SSSP} {
			t.Run(fmt.Sprintf("%s/B=%d", a, bs), func(t *testing.T) {
				conform(t, a, SpacSchedule, Options{LevelsPerGraph: 4, ScheduleBlock: bs})
			})
		}
	}
}

// TestSpacScheduleBench (SPAC_SPAC_BENCH=1) weighs SPAC's schedule
// against the engine's best strategies: per graph (SPAC_SPAC_GRAPHS:
// road, kron20) the host time of the schedule (locality graph, SPAC
// partition, layout; SPAC_SPAC_CACHE=DIR caches it), the median time per
// root of spac-schedule and of the best strategies, every run validated,
// and the break-even number of roots: schedule time / per-root saving,
// or never when spac-schedule is not faster per root.
func TestSpacScheduleBench(t *testing.T) {
	if os.Getenv("SPAC_SPAC_BENCH") == "" {
		t.Skip("set SPAC_SPAC_BENCH=1")
	}
	d := device(t)
	which := os.Getenv("SPAC_SPAC_GRAPHS")
	if which == "" {
		which = "road,kron20"
	}
	bs := DefaultScheduleBlock
	var cache *schedule.Cache
	if dir := os.Getenv("SPAC_SPAC_CACHE"); dir != "" {
		cache = &schedule.Cache{Dir: dir, Warn: os.Stderr}
	}
	for _, name := range splitList(which) {
		var edges *graph.Edges
		var err error
		roots := 4
		best := map[Algorithm][]Strategy{BFS: {LBCull, Pull, Persistent}, SSSP: {LBCull, NearFar}}
		switch name {
		case "kron20":
			edges, err = gen.DefaultKronecker(20).Generate()
		case "kron18":
			edges, err = gen.DefaultKronecker(18).Generate()
		case "road":
			edges, err = gen.DefaultRoad(4000, 4000).Generate()
			roots = 2
			best = map[Algorithm][]Strategy{BFS: {Persistent, Thread}, SSSP: {NearFar}}
		case "road1000":
			edges, err = gen.DefaultRoad(1000, 1000).Generate()
			roots = 2
			best = map[Algorithm][]Strategy{BFS: {Persistent, Thread}, SSSP: {NearFar}}
		default:
			t.Fatalf("graph %q", name)
		}
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.Build(edges, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		s, prov, took, err := BuildSchedule(context.Background(), g, bs, cache)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("graph %s: %d vertices, %d arcs; schedule B=%d: %d blocks, %d source copies (%.2f per vertex with arcs), host %.2f s (partition %.2f s, layout %.2f s, cached %v)",
			name, g.NumVertices, g.NumArcs(), bs, s.NumBlocks(), len(s.YUnique), float64(len(s.YUnique))/float64(max(1, nonIsolated(g))),
			took.Seconds(), prov.Metrics.Time.Seconds(), prov.BuildTime.Seconds(), prov.Cached)
		e, err := OpenWith(d, g, Options{Schedule: s})
		if err != nil {
			t.Fatal(err)
		}
		rs := benchRoots(g, roots)
		for _, a := range []Algorithm{BFS, SSSP} {
			mine, ok := medianRoot(t, e, g, a, SpacSchedule, rs)
			if !ok {
				continue
			}
			fastest, fastestS := time.Duration(0), Strategy(0)
			for _, o := range best[a] {
				dt, ok := medianRoot(t, e, g, a, o, rs)
				if ok && (fastestS == 0 || dt < fastest) {
					fastest, fastestS = dt, o
				}
			}
			verdict := "never (slower per root)"
			if saving := fastest - mine; fastestS != 0 && saving > 0 {
				verdict = fmt.Sprintf("%.0f roots", float64(took)/float64(saving))
			}
			t.Logf("%s %s: spac-schedule %.3f ms per root, best other %s %.3f ms; schedule %.2f s: break-even %s",
				name, a, ms(mine), fastestS, ms(fastest), took.Seconds(), verdict)
		}
		e.Close()
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func nonIsolated(g *graph.Graph) int {
	c := 0
	for v := range g.NumVertices {
		if g.Degree(int32(v)) > 0 {
			c++
		}
	}
	return c
}

// medianRoot runs a from every root with s (once before, to capture its
// graphs), validates each run and returns the median time.
func medianRoot(t *testing.T, e *Engine, g *graph.Graph, a Algorithm, s Strategy, roots []int32) (time.Duration, bool) {
	ctx := context.Background()
	var times []time.Duration
	levels, insp := 0, int64(0)
	for i := -1; i < len(roots); i++ {
		root := roots[max(i, 0)]
		var r *Result
		var err error
		if a == BFS {
			r, err = e.BFS(ctx, root, s)
		} else {
			r, err = e.SSSP(ctx, root, s)
		}
		if err != nil {
			t.Errorf("%s %s root %d: %v", a, s, root, err)
			return 0, false
		}
		if i < 0 {
			continue
		}
		if a == BFS {
			err = validate.BFS(g, root, r.Parent, r.Depth)
		} else {
			err = validate.SSSP(g, root, r.Dist, r.Pred)
		}
		if err != nil {
			t.Errorf("%s %s root %d: invalid: %v", a, s, root, err)
			return 0, false
		}
		times = append(times, r.Time)
		levels, insp = max(levels, r.Levels), max(insp, r.Inspected)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	med := times[len(times)/2]
	t.Logf("  %-5s %-15s median %9.3f ms  levels %6d  inspected %12d  (%.1f us/level)", a, s, ms(med), levels, insp, float64(med.Microseconds())/float64(max(levels, 1)))
	return med, true
}
