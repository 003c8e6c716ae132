//go:build cuda

package traversal

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
	"github.com/spac-gpu/spac/gpu"
)

var (
	devOnce sync.Once
	dev     *gpu.Device
	devErr  error
)

func device(t testing.TB) *gpu.Device {
	devOnce.Do(func() { dev, devErr = gpu.Open(0) })
	if devErr != nil {
		t.Skipf("no GPU: %v", devErr)
	}
	return dev
}

// engines keeps one engine per graph: the conformance test builds a graph
// and searches it from several roots.
type engines struct {
	t   testing.TB
	opt Options
	g   *graph.Graph
	e   *Engine
}

func (c *engines) get(g *graph.Graph) (*Engine, error) {
	if c.g == g {
		return c.e, nil
	}
	c.e.Close()
	c.g, c.e = nil, nil
	e, err := OpenWith(device(c.t), g, c.opt)
	if err != nil {
		return nil, err
	}
	c.g, c.e = g, e
	return e, nil
}

// bfs is strategy s as the conformance suite calls a BFS.
func (c *engines) bfs(s Strategy) traversaltest.BFSFunc {
	return func(g *graph.Graph, root int32) ([]int32, []int32, error) {
		e, err := c.get(g)
		if err != nil {
			return nil, nil, err
		}
		r, err := e.BFS(context.Background(), root, s)
		if errors.Is(err, ErrNotApplicable) {
			return nil, nil, nil // the suite skips the graph
		}
		if err != nil {
			return nil, nil, err
		}
		return r.Parent, r.Depth, nil
	}
}

// sssp is strategy s as the conformance suite calls an SSSP.
func (c *engines) sssp(s Strategy) traversaltest.SSSPFunc {
	return func(g *graph.Graph, root int32) ([]float32, []int32, error) {
		e, err := c.get(g)
		if err != nil {
			return nil, nil, err
		}
		r, err := e.SSSP(context.Background(), root, s)
		if err != nil {
			return nil, nil, err
		}
		return r.Dist, r.Pred, nil
	}
}

// Every strategy passes the conformance suite: BFS and SSSP on every
// case and root, validated and equal to the references. Levels run 4 to a
// captured graph, so that most searches span several graphs; TWC's
// thresholds are 4 and 32 and hierarchical processing splits every
// frontier, so that the small graphs reach every branch of the kernels.
func TestConformance(t *testing.T) {
	device(t)
	for _, s := range Strategies() {
		if s.Negative() {
			continue
		}
		for _, a := range []Algorithm{BFS, SSSP} {
			if !s.Supports(a) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", a, s), func(t *testing.T) {
				conform(t, a, s, Options{LevelsPerGraph: 4, TWCWarp: 4, TWCBlock: 32, WDBelow: 1})
			})
		}
	}
}

// conform runs the conformance suite of a for strategy s on engines
// opened with opt.
func conform(t *testing.T, a Algorithm, s Strategy, opt Options) {
	c := &engines{t: t, opt: opt}
	defer func() { c.e.Close() }()
	if a == BFS {
		traversaltest.TestBFS(t, c.bfs(s))
	} else {
		traversaltest.TestSSSP(t, c.sssp(s))
	}
}

// One level per graph and many per graph give the same answers (the loop's
// bookkeeping of posts across roots and graph sizes).
func TestLevelsPerGraph(t *testing.T) {
	device(t)
	for _, k := range []int{1, 64} {
		t.Run(strconv.Itoa(k), func(t *testing.T) {
			c := &engines{t: t, opt: Options{LevelsPerGraph: k}}
			defer func() { c.e.Close() }()
			traversaltest.TestBFS(t, c.bfs(LBCull))
		})
	}
}

// raceGraph: the root joined to k middle vertices, each joined to one sink
// (float weights): in the second round all k relax the sink at once.
func raceGraph(k int) (*graph.Graph, error) {
	e := &graph.Edges{Name: "race", NumVertices: k + 2}
	for i := 1; i <= k; i++ {
		e.Src = append(e.Src, 0, int32(i))
		e.Dst = append(e.Dst, int32(i), int32(k+1))
	}
	return graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 3})
}

// The racy two-phase SSSP is caught by the validator (at least once in a
// few runs), and the atomic one passes on the same graph every time.
func TestRacySSSPCaught(t *testing.T) {
	d := device(t)
	g, err := raceGraph(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	caught := 0
	for run := range 5 {
		r, err := e.SSSP(context.Background(), 0, TwoPhaseRacy)
		if err != nil {
			t.Fatal(err)
		}
		var v *validate.Violation
		if err := validate.SSSP(g, 0, r.Dist, r.Pred); errors.As(err, &v) {
			caught++
			t.Logf("racy run %d caught: %v", run, err)
		}
		r, err = e.SSSP(context.Background(), 0, TwoPhase)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.SSSP(g, 0, r.Dist, r.Pred); err != nil {
			t.Fatalf("atomic two-phase: %v", err)
		}
	}
	if caught == 0 {
		t.Fatal("the validator never caught the racy SSSP in 5 runs")
	}
}

// Arguments a run refuses.
func TestRunErrors(t *testing.T) {
	d := device(t)
	g, err := traversaltest.Cases(1)[5].Build(graph.Weights{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	if _, err := e.BFS(ctx, -1, Thread); err == nil {
		t.Fatal("root -1 accepted")
	}
	if _, err := e.BFS(ctx, int32(g.NumVertices), Thread); err == nil {
		t.Fatal("root n accepted")
	}
	if _, err := e.SSSP(ctx, 0, Thread); err == nil {
		t.Fatal("SSSP without weights accepted")
	}
	if _, err := e.BFS(ctx, 0, TwoPhase); err == nil {
		t.Fatal("BFS by two-phase accepted")
	}
}

// TestBenchmark (SPAC_TRAVERSE_BENCH=1) prints, per graph and strategy,
// the median time per root, Graph500 TEPS (harmonic mean over roots), arcs
// inspected per second, levels and microseconds per level; every run is
// validated. SPAC_TRAVERSE_GRAPHS picks graphs (kron20,kron22,road).
func TestBenchmark(t *testing.T) {
	if os.Getenv("SPAC_TRAVERSE_BENCH") == "" {
		t.Skip("set SPAC_TRAVERSE_BENCH=1")
	}
	d := device(t)
	t.Logf("device: %v", d.Info())
	which := os.Getenv("SPAC_TRAVERSE_GRAPHS")
	if which == "" {
		which = "road,kron20,kron22"
	}
	for _, name := range splitList(which) {
		var edges *graph.Edges
		var err error
		roots := 8
		switch name {
		case "kron20":
			edges, err = gen.DefaultKronecker(20).Generate()
		case "kron22":
			edges, err = gen.DefaultKronecker(22).Generate()
			roots = 4
		case "road":
			edges, err = gen.DefaultRoad(4000, 4000).Generate()
			roots = 2
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
		e, err := Open(d, g)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("graph %s: %d vertices, %d arcs, %d input edges, MDT %d", name, g.NumVertices, g.NumArcs(), g.InputEdges, e.MDT())
		rs := benchRoots(g, roots)
		t.Logf("%-5s %-15s %5s %10s %9s %12s %7s %9s %s", "alg", "strategy", "roots", "median_ms", "GTEPS", "Ginspect/s", "levels", "us/level", "valid")
		for _, a := range []Algorithm{BFS, SSSP} {
			for _, s := range Strategies() {
				if s.Negative() || s.Offline() || !s.Supports(a) { // spac-schedule: TestSpacScheduleBench
					continue
				}
				if name == "road" && (s == Edge || s == EdgeChunk || s == Topo || s == ScanBFS || s == TwoPhase || s == NodeSplit) && a == SSSP {
					continue // topology-driven SSSP on thousands of rounds: minutes
				}
				benchOne(t, e, g, a, s, rs, name)
			}
		}
		if name == "road" {
			for _, s := range []Strategy{Thread, TWC, LBCull, Edge, Topo} {
				us, err := emptyLevel(e, BFS, s, 20)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("empty level (the loop's floor) of bfs %s: %.2f us", s, us)
			}
			for _, o := range []Options{{LevelsPerGraph: 1}, {LevelsPerGraph: 4}, {LevelsPerGraph: 64}, {BlocksPerSM: 1}, {BlocksPerSM: 2}, {BlocksPerSM: 4}} {
				ek, err := OpenWith(d, g, o)
				if err != nil {
					t.Fatal(err)
				}
				benchOne(t, ek, g, BFS, Thread, rs, fmt.Sprintf("road k=%d blocks/SM=%d", ek.opt.LevelsPerGraph, ek.opt.BlocksPerSM))
				ek.Close()
			}
		}
		e.Close()
	}
}

// emptyLevel is the device time of one level whose frontier is empty
// (after a search has ended): the level loop's floor, kernel launches in a
// captured graph included. It runs reps graphs.
func emptyLevel(e *Engine, a Algorithm, s Strategy, reps int) (float64, error) {
	if _, _, err := e.run(context.Background(), a, 0, s, false); err != nil {
		return 0, err
	}
	g, err := e.plan(a, s, e.opt.LevelsPerGraph)
	if err != nil {
		return 0, err
	}
	if err := e.timer.Start(); err != nil {
		return 0, err
	}
	for range reps {
		if err := g.Launch(); err != nil {
			return 0, err
		}
	}
	e.posts += uint64(reps)
	if err := e.timer.Stop(); err != nil {
		return 0, err
	}
	d, err := e.timer.Elapsed()
	if err != nil {
		return 0, err
	}
	return float64(d.Nanoseconds()) / 1e3 / float64(reps*e.opt.LevelsPerGraph), nil
}

func splitList(s string) []string {
	var out []string
	cur := ""
	for _, c := range s + "," {
		if c == ',' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	return out
}

func benchRoots(g *graph.Graph, k int) []int32 {
	r := rand.New(rand.NewPCG(7, 11))
	var out []int32
	for len(out) < k {
		v := int32(r.IntN(g.NumVertices))
		if g.Degree(v) > 0 {
			out = append(out, v)
		}
	}
	return out
}

func benchOne(t *testing.T, e *Engine, g *graph.Graph, a Algorithm, s Strategy, roots []int32, name string) {
	ctx := context.Background()
	var times []time.Duration
	var teps, insp []float64
	levels, valid := 0, true
	var perLevel []float64
	for i, root := range roots {
		var r *Result
		var err error
		if a == BFS {
			r, err = e.BFS(ctx, root, s)
		} else {
			r, err = e.SSSP(ctx, root, s)
		}
		if err != nil {
			t.Errorf("%s %s %s root %d: %v", name, a, s, root, err)
			return
		}
		reached := r.Parent
		if a == BFS {
			err = validate.BFS(g, root, r.Parent, r.Depth)
		} else {
			err = validate.SSSP(g, root, r.Dist, r.Pred)
			reached = r.Pred
		}
		if err != nil {
			valid = false
			t.Errorf("%s %s %s root %d: invalid: %v", name, a, s, root, err)
		}
		if i == 0 && len(roots) > 1 {
			// the first search of a strategy captures its graph: run again
			if a == BFS {
				r, err = e.BFS(ctx, root, s)
			} else {
				r, err = e.SSSP(ctx, root, s)
			}
			if err != nil {
				t.Errorf("%v", err)
				return
			}
		}
		times = append(times, r.Time)
		teps = append(teps, validate.TEPS(g.ReachedInputEdges(reached), r.Time))
		insp = append(insp, validate.InspectedPerSecond(r.Inspected, r.Time))
		levels = max(levels, r.Levels)
		perLevel = append(perLevel, float64(r.Time.Microseconds())/float64(max(r.Levels, 1)))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	sort.Float64s(perLevel)
	t.Logf("%-5s %-15s %5d %10.3f %9.3f %12.3f %7d %9.2f %v   [%s]", a, s, len(roots), float64(times[len(times)/2].Microseconds())/1000,
		validate.HarmonicMean(teps)/1e9, validate.HarmonicMean(insp)/1e9, levels, perLevel[len(perLevel)/2], valid, name)
}
