//go:build cuda

package traversal

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
	"github.com/spac-gpu/spac/gpu"
)

// The new strategies pass the conformance suite through TestConformance
// (it runs every strategy of the table). do-beamer also runs with rules
// that pull from the first level and push back below n/4 vertices, and
// that never pull, so that the corpus's small graphs take both directions
// and every switch.
func TestDOBeamerRules(t *testing.T) {
	device(t)
	for _, c := range []struct {
		name        string
		alpha, beta float64
	}{{"eager", 1e6, 4}, {"push-only", 1e-9, 18}, {"pull-mostly", 1e6, 1e6}} {
		t.Run(c.name, func(t *testing.T) {
			conform(t, BFS, DOBeamer, Options{LevelsPerGraph: 4, TWCWarp: 4, TWCBlock: 32, Alpha: c.alpha, Beta: c.beta})
		})
	}
}

// ctlWord reads word i of the control block (after a search).
func (e *Engine) ctlWord(i int) (int32, error) {
	w := make([]int32, ctlWords)
	if err := gpu.Download(e.ctl, w, "the control block"); err != nil {
		return 0, err
	}
	return w[i], nil
}

// kronGraph is Graph500's Kronecker graph of this scale (edge factor 16),
// with its in-arcs.
func kronGraph(t testing.TB, scale int) *graph.Graph {
	t.Helper()
	e, err := gen.DefaultKronecker(scale).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(e, graph.Options{Transpose: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// roadGraph is the road-like grid, with its in-arcs (its own).
func roadGraph(t testing.TB, nx, ny int) *graph.Graph {
	t.Helper()
	e, err := gen.DefaultRoad(nx, ny).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(e, graph.Options{Transpose: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// On Kronecker scale 14 (hubs, a large middle level) do-beamer pulls under
// Beamer's rule, and its depths are the reference's.
func TestDOBeamerPulls(t *testing.T) {
	g := kronGraph(t, 14)
	e, err := Open(device(t), g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, root := range benchRoots(g, 3) {
		r, err := e.BFS(context.Background(), root, DOBeamer)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.BFS(g, root, r.Parent, r.Depth); err != nil {
			t.Fatal(err)
		}
		pulled, err := e.ctlWord(cNPull)
		if err != nil {
			t.Fatal(err)
		}
		if pulled < 1 || int(pulled) >= r.Levels {
			t.Errorf("root %d: %d of %d levels pulled; Beamer's rule pulls the middle levels of a Kronecker graph", root, pulled, r.Levels)
		}
		t.Logf("root %d: %d levels, %d pulled, %d arcs inspected of %d", root, r.Levels, pulled, r.Inspected, g.NumArcs())
	}
}

// Every per-level strategy's counters (BFSCounters) equal the reference's
// at every level, on the corpus and on Kronecker scale 14 (many blocks
// reduce at once), with 4 levels per captured graph (the ring read across
// posts); the search passes the Graph500 rules.
func TestCountersMatchReference(t *testing.T) {
	device(t)
	graphs := map[string]*graph.Graph{"kron14": kronGraph(t, 14)}
	for _, c := range traversaltest.Cases(1) {
		g, err := c.Build(graph.Weights{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		graphs[c.Name] = g
	}
	names := make([]string, 0, len(graphs))
	for n := range graphs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		g := graphs[name]
		t.Run(name, func(t *testing.T) {
			e, err := OpenWith(device(t), g, Options{LevelsPerGraph: 4, TWCWarp: 4, TWCBlock: 32, WDBelow: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			for _, root := range traversaltest.Roots(g, 2, 1) {
				b, err := ref.BFS(g, root)
				if err != nil {
					t.Fatal(err)
				}
				want := levelCounters(g, b.Depth)
				for _, s := range PerLevelStrategies() {
					r, cs, err := e.BFSCounters(context.Background(), root, s)
					if errors.Is(err, ErrNotApplicable) {
						continue
					}
					if err != nil {
						t.Fatalf("%s root %d: %v", s, root, err)
					}
					if err := validate.BFS(g, root, r.Parent, r.Depth); err != nil {
						t.Fatalf("%s root %d: %v", s, root, err)
					}
					if !slices.Equal(cs, want) {
						t.Fatalf("%s root %d: counters %v, the reference's %v", s, root, cs, want)
					}
				}
			}
		})
	}
}

// roundRobin picks the per-level strategies in turn, level after level:
// every pair of consecutive strategies meets on the corpus (a queue
// reader after a paper strategy rebuilds its queue first).
func roundRobin(offset int) Chooser {
	all := PerLevelStrategies()
	return chooserFunc(func(f *adaptive.Features) Strategy { return all[(int(f[adaptive.Level])+offset)%len(all)] })
}

// hashed picks a per-level strategy from a hash of the level's features.
func hashed(seed uint64) Chooser {
	all := PerLevelStrategies()
	return chooserFunc(func(f *adaptive.Features) Strategy {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d %v", seed, f[:])
		return all[h.Sum64()%uint64(len(all))]
	})
}

// Adaptive searches pass the conformance suite (Graph500 rules, the
// reference's depths) with the default model, with every strategy in
// turn at one level a step (every switch), and with hashed picks in runs
// of up to 4 levels; a pick without in-arcs falls back to lb-cull.
func TestAdaptiveConformance(t *testing.T) {
	device(t)
	def, err := adaptive.Default()
	if err != nil {
		t.Fatal(err)
	}
	model, err := NewModelChooser(def)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ch   Chooser
		opt  AdaptiveOptions
	}{
		{"default-model", model, AdaptiveOptions{}},
		{"round-robin", roundRobin(0), AdaptiveOptions{MaxRun: 1}},
		{"round-robin-7", roundRobin(7), AdaptiveOptions{MaxRun: 1}},
		{"hashed-runs", hashed(3), AdaptiveOptions{MaxRun: 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			en := &engines{t: t, opt: Options{LevelsPerGraph: 4, TWCWarp: 4, TWCBlock: 32, WDBelow: 1}}
			defer func() { en.e.Close() }()
			traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
				e, err := en.get(g)
				if err != nil {
					return nil, nil, err
				}
				r, tr, err := e.BFSAdaptive(context.Background(), root, c.ch, c.opt)
				if err != nil {
					return nil, nil, err
				}
				if len(tr.Ran) != r.Levels || len(tr.Chosen) != r.Levels {
					return nil, nil, fmt.Errorf("%d levels, a trace of %d ran and %d chosen", r.Levels, len(tr.Ran), len(tr.Chosen))
				}
				return r.Parent, r.Depth, nil
			})
		})
	}
}

// sweepOnce sweeps roots of g with every per-level strategy and checks
// what a sweep promises: no fault, a valid oracle at every level, rows
// that the strict reader accepts.
func sweepOnce(t *testing.T, e *Engine, g *graph.Graph, name, family string, roots []int32, onDevice bool) []*SweepRoot {
	t.Helper()
	stats := adaptive.StatsOf(g)
	info := adaptive.NewGraphInfo(name, family, stats)
	info.Generator, info.Device = name, e.d.Info().String()
	dir := t.TempDir()
	w, err := adaptive.Create(dir, info)
	if err != nil {
		t.Fatal(err)
	}
	var out []*SweepRoot
	for i, root := range roots {
		start := time.Now()
		r, err := e.SweepBFS(context.Background(), root, PerLevelStrategies(), SweepOptions{Warmup: i == 0, OnDevice: onDevice})
		if err != nil {
			w.Abort()
			t.Fatalf("%s root %d: %v", name, root, err)
		}
		if len(r.Faults) > 0 {
			t.Errorf("%s root %d: %d faults:\n  %s", name, root, len(r.Faults), strings.Join(r.Faults, "\n  "))
		}
		for _, row := range r.Rows() {
			if err := w.Write(row); err != nil {
				t.Fatal(err)
			}
		}
		fixed, best := time.Duration(math.MaxInt64), ""
		for c := range r.Candidates {
			if ft, ok := r.FixedTime(c); ok && ft < fixed {
				fixed, best = ft, r.Candidates[c].String()
			}
		}
		var chosen []string
		for _, lv := range r.Levels {
			chosen = append(chosen, r.Candidates[lv.Chosen].String())
		}
		t.Logf("%s root %d: %d levels swept in %v; oracle %v, best fixed %s %v; oracle's picks: %s", name, root, len(r.Levels),
			time.Since(start).Round(time.Millisecond), r.OracleTime(), best, fixed, strings.Join(chosen[:min(len(chosen), 12)], " "))
		out = append(out, r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := adaptive.ReadSweep(filepath.Join(dir, name+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adaptive.NewDataset(s); err != nil {
		t.Fatal(err)
	}
	return out
}

// The oracle sweep on a small Kronecker graph and a small road graph:
// every candidate at every level, no fault, rows that ReadSweep accepts.
func TestSweepSmallGraphs(t *testing.T) {
	d := device(t)
	for _, c := range []struct {
		name, family string
		g            *graph.Graph
	}{{"kron10", "kron", kronGraph(t, 10)}, {"road40x30", "road", roadGraph(t, 40, 30)}} {
		t.Run(c.name, func(t *testing.T) {
			e, err := Open(d, c.g)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			sweepOnce(t, e, c.g, c.name, c.family, benchRoots(c.g, 2), false)
			// the same with the device's bodies timed in ad_level, then a
			// device-decided search on the same engine
			sweepOnce(t, e, c.g, c.name, c.family, benchRoots(c.g, 2), true)
			root := benchRoots(c.g, 1)[0]
			r, tr, err := e.BFSAdaptive(context.Background(), root, chainModel(t, deviceStrategies(), []int{bodyDOBeamer, bodyEdgeList}), AdaptiveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !tr.OnDevice {
				t.Fatal("the search after the sweep was not decided on the device")
			}
			if err := validate.BFS(c.g, root, r.Parent, r.Depth); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAdaptiveBench (SPAC_ADAPTIVE_BENCH=1) reports, per graph of
// SPAC_ADAPTIVE_GRAPHS (default kron20,kron21,kron22,road; road is
// SPAC_ADAPTIVE_ROAD, default 2000x2000) and over SPAC_ADAPTIVE_ROOTS roots
// (default 4; road 1): the per-level oracle and the best fixed candidate
// from the sweep (sums of per-level device times), then end to end (CUDA
// events around whole searches, every one validated): the best fixed
// strategy among all the engine's BFS strategies, the adaptive search
// with the default model, with a model trained on the other graphs'
// sweeps (leave one out), and replaying the oracle's picks; ratios to the
// oracle and to the best fixed, and the cost of a prediction. Then
// do-beamer's (and pull's, lb-cull's) Graph500 GTEPS on
// SPAC_DO_GRAPHS (default kron22,kron23,kron24), against the goal of 100.
// Either list may be "none", to run the other part alone (a device call
// has a time limit).
func TestAdaptiveBench(t *testing.T) {
	if os.Getenv("SPAC_ADAPTIVE_BENCH") == "" {
		t.Skip("set SPAC_ADAPTIVE_BENCH=1")
	}
	d := device(t)
	t.Logf("device: %v", d.Info())
	which := os.Getenv("SPAC_ADAPTIVE_GRAPHS")
	if which == "" {
		which = "kron20,kron21,kron22,road"
	}
	nroots := 4
	if s := os.Getenv("SPAC_ADAPTIVE_ROOTS"); s != "" {
		var err error
		if nroots, err = strconv.Atoi(s); err != nil || nroots < 1 {
			t.Fatalf("SPAC_ADAPTIVE_ROOTS=%s", s)
		}
	}
	type benchGraph struct {
		name, family string
		g            *graph.Graph
		roots        []int32
		sweeps       []*SweepRoot
		info         adaptive.GraphInfo
	}
	var bgs []*benchGraph
	if which == "none" {
		which = ""
	}
	for _, name := range splitList(which) {
		bg := &benchGraph{name: name, family: "kron"}
		switch {
		case strings.HasPrefix(name, "kron"):
			scale, err := strconv.Atoi(strings.TrimPrefix(name, "kron"))
			if err != nil {
				t.Fatalf("graph %q", name)
			}
			bg.g = kronGraph(t, scale)
			bg.roots = benchRoots(bg.g, nroots)
		case name == "road":
			nx, ny := 2000, 2000
			if s := os.Getenv("SPAC_ADAPTIVE_ROAD"); s != "" {
				if _, err := fmt.Sscanf(s, "%dx%d", &nx, &ny); err != nil {
					t.Fatalf("SPAC_ADAPTIVE_ROAD=%s: want NXxNY", s)
				}
			}
			bg.family, bg.g = "road", roadGraph(t, nx, ny)
			bg.roots = benchRoots(bg.g, 1)
		default:
			t.Fatalf("graph %q", name)
		}
		bgs = append(bgs, bg)
	}
	// 1. The sweeps.
	for _, bg := range bgs {
		e, err := Open(d, bg.g)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("graph %s: %d vertices, %d arcs", bg.name, bg.g.NumVertices, bg.g.NumArcs())
		bg.sweeps = sweepOnce(t, e, bg.g, bg.name, bg.family, bg.roots, false)
		bg.info = adaptive.NewGraphInfo(bg.name, bg.family, adaptive.StatsOf(bg.g))
		bg.info.Generator = bg.name
		e.Close()
	}
	dataset := func(skip string) (*adaptive.Dataset, error) {
		var sweeps []*adaptive.Sweep
		for _, bg := range bgs {
			if bg.name == skip {
				continue
			}
			s := &adaptive.Sweep{Info: bg.info}
			for _, r := range bg.sweeps {
				for _, row := range r.Rows() {
					row.Graph, row.Family = bg.name, bg.family
					s.Rows = append(s.Rows, row)
				}
			}
			sweeps = append(sweeps, s)
		}
		return adaptive.NewDataset(sweeps...)
	}
	def, err := adaptive.Default()
	if err != nil {
		t.Fatal(err)
	}
	defChooser, err := NewModelChooser(def)
	if err != nil {
		t.Fatal(err)
	}
	// 2. End to end.
	t.Logf("%-8s %10s %10s %7s | %-14s %10s | %10s %10s %10s | %8s %8s %8s", "graph", "oracle_us", "fixed_us", "fix/orc", "best e2e", "e2e_us",
		"adapt_def", "adapt_loo", "replay", "loo/orc", "loo/fix", "pred_ns")
	for _, bg := range bgs {
		e, err := Open(d, bg.g)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		mean := func(f func(i int, root int32) (time.Duration, error)) float64 {
			var sum time.Duration
			for i, root := range bg.roots {
				// the first search of a strategy captures its graphs: run twice
				if _, err := f(i, root); err != nil {
					t.Fatalf("%s root %d: %v", bg.name, root, err)
				}
				dt, err := f(i, root)
				if err != nil {
					t.Fatalf("%s root %d: %v", bg.name, root, err)
				}
				sum += dt
			}
			return float64(sum.Nanoseconds()) / 1e3 / float64(len(bg.roots))
		}
		var oracle, fixed float64
		fixedBy := make([]time.Duration, len(bg.sweeps[0].Candidates))
		for _, r := range bg.sweeps {
			oracle += float64(r.OracleTime().Nanoseconds()) / 1e3
			for c := range fixedBy {
				for _, lv := range r.Levels {
					fixedBy[c] += lv.Cost(c)
				}
			}
		}
		oracle /= float64(len(bg.sweeps))
		best := 0
		for c := range fixedBy {
			if fixedBy[c] < fixedBy[best] {
				best = c
			}
		}
		fixed = float64(fixedBy[best].Nanoseconds()) / 1e3 / float64(len(bg.sweeps))
		// the best fixed strategy end to end, among every BFS strategy
		bestE2E, bestName := math.Inf(1), ""
		for _, s := range Strategies() {
			if !s.Supports(BFS) || s.Negative() || s.Offline() {
				continue
			}
			us := mean(func(_ int, root int32) (time.Duration, error) {
				r, err := e.BFS(ctx, root, s)
				if errors.Is(err, ErrNotApplicable) {
					return 0, nil
				}
				if err != nil {
					return 0, err
				}
				return r.Time, validate.BFS(bg.g, root, r.Parent, r.Depth)
			})
			if us > 0 && us < bestE2E {
				bestE2E, bestName = us, s.String()
			}
		}
		adaptiveUS := func(ch Chooser) float64 {
			return mean(func(_ int, root int32) (time.Duration, error) {
				r, _, err := e.BFSAdaptive(ctx, root, ch, AdaptiveOptions{})
				if err != nil {
					return 0, err
				}
				return r.Time, validate.BFS(bg.g, root, r.Parent, r.Depth)
			})
		}
		defUS := adaptiveUS(defChooser)
		looUS := math.NaN()
		var loo *ModelChooser
		if len(bgs) > 1 {
			ds, err := dataset(bg.name)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := adaptive.Train(ds, adaptive.TrainOptions{Test: []string{}, Validation: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			if loo, err = NewModelChooser(m); err != nil {
				t.Fatal(err)
			}
			looUS = adaptiveUS(loo)
		}
		// the oracle's picks replayed, one level a step
		replayUS := mean(func(i int, root int32) (time.Duration, error) {
			r0 := bg.sweeps[i]
			ch := chooserFunc(func(f *adaptive.Features) Strategy {
				l := int(f[adaptive.Level])
				if l < len(r0.Levels) {
					return r0.Candidates[r0.Levels[l].Chosen]
				}
				return LBCull
			})
			r, _, err := e.BFSAdaptive(ctx, root, ch, AdaptiveOptions{MaxRun: 1})
			if err != nil {
				return 0, err
			}
			return r.Time, validate.BFS(bg.g, root, r.Parent, r.Depth)
		})
		// the cost of one prediction, over the sweeps' levels
		predNs := 0.0
		if loo != nil {
			n, start := 0, time.Now()
			for time.Since(start) < 20*time.Millisecond {
				for _, r := range bg.sweeps {
					for l := range r.Features {
						predictSink += int(loo.Choose(&r.Features[l]))
						n++
					}
				}
			}
			predNs = float64(time.Since(start).Nanoseconds()) / float64(max(n, 1))
		}
		t.Logf("%-8s %10.1f %10.1f %7.3f | %-14s %10.1f | %10.1f %10.1f %10.1f | %8.3f %8.3f %8.1f   (sweep's best fixed %s)",
			bg.name, oracle, fixed, fixed/oracle, bestName, bestE2E, defUS, looUS, replayUS, looUS/oracle, looUS/bestE2E, predNs, bg.sweeps[0].Candidates[best])
		e.Close()
	}
	// 3. Direction-optimizing GTEPS.
	which = os.Getenv("SPAC_DO_GRAPHS")
	switch which {
	case "":
		which = "kron22,kron23,kron24"
	case "none":
		which = ""
	}
	for _, name := range splitList(which) {
		scale, err := strconv.Atoi(strings.TrimPrefix(name, "kron"))
		if err != nil || !strings.HasPrefix(name, "kron") {
			t.Fatalf("SPAC_DO_GRAPHS: %q", name)
		}
		g := kronGraph(t, scale)
		e, err := Open(d, g)
		if err != nil {
			t.Fatal(err)
		}
		roots := benchRoots(g, 16)
		for _, s := range []Strategy{DOBeamer, Pull, LBCull} {
			var teps []float64
			var ms []float64
			for i, root := range roots {
				r, err := e.BFS(context.Background(), root, s)
				if err == nil && i == 0 {
					r, err = e.BFS(context.Background(), root, s) // the first captures
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := validate.BFS(g, root, r.Parent, r.Depth); err != nil {
					t.Fatalf("%s %s root %d: %v", name, s, root, err)
				}
				teps = append(teps, validate.TEPS(g.ReachedInputEdges(r.Parent), r.Time))
				ms = append(ms, float64(r.Time.Microseconds())/1000)
			}
			gteps := validate.HarmonicMean(teps) / 1e9
			goal := ""
			if s == DOBeamer {
				goal = fmt.Sprintf("  (goal 100: %v)", gteps >= 100)
			}
			slices.Sort(ms)
			t.Logf("%s %-10s %7.2f Graph500 GTEPS (hmean of %d roots), median %.3f ms%s", name, s, gteps, len(roots), ms[len(ms)/2], goal)
		}
		e.Close()
	}
}

// predictSink keeps the prediction loop from being optimised away.
var predictSink int

// Adaptive searches decided on the device (ad_level) pass the conformance
// suite with trees that walk the bodies in chains: each body after each
// other one and do-beamer between all (its queue after the stamps of a
// topology-driven level and the reverse, its big list's second launch,
// its pull). Each search's log must give the counters the reference's
// depths give (the features, level by level, exactly), the chain's body
// at every level, and the host's walk of the tree the device's. With the
// one block on for every frontier it can hold (OneBlockArcs beyond any
// graph's), a level runs there exactly when its frontier is queued and
// small, and the chain's body otherwise.
func TestAdaptiveOnDevice(t *testing.T) {
	device(t)
	cands := deviceStrategies()
	all := make([]int, bodies)
	for b := range all {
		all[b] = b
	}
	reversed := make([]int, bodies)
	for b := range reversed {
		reversed[b] = bodies - 1 - b
	}
	var between []int // do-beamer, then each body, then do-beamer again
	for b := range bodyDOBeamer {
		between = append(between, bodyDOBeamer, b)
	}
	between = append(between, bodyDOBeamer)
	const always = 1 << 30
	for _, c := range []struct {
		name  string
		seq   []int
		solo  int   // Options.OneBlockArcs
		after int   // Options.PersistentAfter
		pull  int64 // Options.OwnKernelArcs
	}{
		{"chain", all, -1, -1, 0},
		{"reversed", reversed, -1, -1, 0},
		{"do-beamer-between", between, -1, -1, 0},
		{"do-beamer-only", []int{bodyDOBeamer}, -1, -1, 0},
		{"edge-list-then-pull", []int{bodyEdgeList + 1, bodyEdgeList + 2, bodyVertexPull}, -1, -1, 0},
		{"one-block-chain", all, always, -1, 0},
		{"one-block-do-beamer", []int{bodyDOBeamer}, always, -1, 0},
		{"one-block-default", between, 0, -1, 0},
		{"handoff-do-beamer", []int{bodyDOBeamer}, -1, 1, 0},
		{"handoff-between", between, -1, 3, 0},
		// every vertex-pull level and do-beamer second pass yielded to
		// ad_heavy, more of them than
		// the search's launches hold (the last ad_persist runs the rest)
		{"own-kernel", []int{bodyVertexPull + 2, bodyDOBeamer, bodyVertexPull, bodyEdgeList + 2, bodyVertexPull + 1}, -1, -1, 1},
		{"own-kernel-handoff", []int{bodyDOBeamer, bodyVertexPull + 2, bodyDOBeamer}, -1, 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := chainModel(t, cands, c.seq)
			en := &engines{t: t, opt: Options{LevelsPerGraph: 4, TWCWarp: 4, OneBlockArcs: c.solo, PersistentAfter: c.after, OwnKernelArcs: c.pull}}
			defer func() { en.e.Close() }()
			onDevice, solo, handed, yields := 0, 0, 0, 0
			traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
				e, err := en.get(g)
				if err != nil {
					return nil, nil, err
				}
				r, tr, err := e.BFSAdaptive(context.Background(), root, ch, AdaptiveOptions{})
				if err != nil {
					return nil, nil, err
				}
				if !tr.OnDevice {
					return r.Parent, r.Depth, nil // no in-arcs: the host's loop (TestAdaptiveConformance)
				}
				onDevice++
				if len(tr.Ran) != r.Levels || len(tr.Features) != r.Levels {
					return nil, nil, fmt.Errorf("%d levels, a trace of %d ran and %d features", r.Levels, len(tr.Ran), len(tr.Features))
				}
				if tr.Disagree != 0 {
					return nil, nil, fmt.Errorf("the device's body differs from the host's walk at %d levels", tr.Disagree)
				}
				if err := checkLevelTimes(r, tr); err != nil {
					return nil, nil, err
				}
				if tr.Yields > 0 && c.pull <= 0 {
					return nil, nil, fmt.Errorf("%d levels ran in ad_heavy, none should (OwnKernelArcs %d)", tr.Yields, c.pull)
				}
				yields += tr.Yields
				want, err := adaptive.FromDepths(g, adaptive.StatsOf(g), r.Depth)
				if err != nil {
					return nil, nil, err
				}
				if tr.HandOff > 0 {
					handed++
					if c.after < 0 || tr.HandOff < c.after || g.MaxDegree() > handOffMaxDegree {
						return nil, nil, fmt.Errorf("handed to the persistent kernel at level %d (after %d, largest degree %d)", tr.HandOff, c.after, g.MaxDegree())
					}
				}
				for l := range r.Levels {
					if tr.HandOff > 0 && l >= tr.HandOff {
						if tr.Ran[l] != Persistent || (l > tr.HandOff && tr.Counters[l] != adaptive.Counters{}) {
							return nil, nil, fmt.Errorf("level %d after the hand-off at %d: ran %s, counters %+v", l, tr.HandOff, tr.Ran[l], tr.Counters[l])
						}
						if l > tr.HandOff {
							continue
						}
					}
					if tr.Features[l] != want[l] {
						return nil, nil, fmt.Errorf("level %d: features from the device's counters %v, from the depths %v", l, tr.Features[l], want[l])
					}
					if l == tr.HandOff && l > 0 {
						continue
					}
					s := cands[c.seq[min(l, len(c.seq)-1)]]
					if tr.Chosen[l] != s {
						return nil, nil, fmt.Errorf("level %d: the tree chose %s, the chain says %s", l, tr.Chosen[l], s)
					}
					if tr.Ran[l] == oneBlock {
						solo++
						cn := tr.Counters[l]
						queued := l == 0 || tr.Ran[l-1] == oneBlock || tr.Ran[l-1] == DOBeamer
						if c.solo < 0 || !queued || cn.Vertices > oneBlockVertices || cn.Arcs > int64(en.e.opt.OneBlockArcs) {
							return nil, nil, fmt.Errorf("level %d (%d vertices, %d arcs) ran in one block after %v", l, cn.Vertices, cn.Arcs, tr.Ran[max(l-1, 0)])
						}
					} else if tr.Ran[l] != s {
						return nil, nil, fmt.Errorf("level %d ran %s, the chain says %s", l, tr.Ran[l], s)
					}
					if c.solo == always && tr.Ran[l] != oneBlock && (l == 0 || tr.Ran[l-1] == oneBlock) && tr.Counters[l].Vertices <= oneBlockVertices {
						return nil, nil, fmt.Errorf("level %d (%d vertices) after a queue did not run in one block", l, tr.Counters[l].Vertices)
					}
				}
				return r.Parent, r.Depth, nil
			})
			if onDevice == 0 {
				t.Error("no search was decided on the device")
			}
			if c.solo == always && solo == 0 {
				t.Error("no level ran in one block")
			}
			if c.after > 0 && handed == 0 {
				t.Error("no search was handed to the persistent kernel")
			}
			if c.pull > 0 && yields == 0 {
				t.Error("no level ran in ad_heavy")
			}
		})
	}
}

// checkLevelTimes: a device-decided search's clock per level is there for
// every level up to a hand-off (and only there), and the levels together
// take no longer than the search (its CUDA events).
func checkLevelTimes(r *Result, tr *AdaptiveTrace) error {
	if len(tr.Times) != min(r.Levels, adLogLevels) {
		return fmt.Errorf("%d levels, %d times", r.Levels, len(tr.Times))
	}
	var sum time.Duration
	for l, d := range tr.Times {
		if known := tr.HandOff == 0 || l < tr.HandOff; known != (d > 0) {
			return fmt.Errorf("level %d (hand-off at %d): device time %v", l, tr.HandOff, d)
		}
		sum += d
	}
	if sum > r.Time+2*time.Microsecond { // the global timer may tick every microsecond
		return fmt.Errorf("the levels' device times add up to %v, the search took %v", sum, r.Time)
	}
	return nil
}

// The one block (ad_solo) over long searches: a ladder of 5000 rungs
// (5000 levels: many of its SOLO_LEVELS episodes, and more levels than the
// log holds) and road grids whose frontiers leave and re-enter its bounds,
// the wide one's last levels handed to the persistent kernel, under the
// default model: the depths are the reference's, the search passes the
// Graph500 rules, and the trace says which levels the block ran.
func TestOneBlockLongSearches(t *testing.T) {
	d := device(t)
	def, err := adaptive.Default()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := NewModelChooser(def)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		road    gen.Road
		arcs    int  // Options.OneBlockArcs
		mixed   bool // levels in the block and elsewhere
		handOff bool // the persistent kernel ran the last levels
	}{
		{"ladder", gen.Road{NX: 5000, NY: 2, Seed: 1}, 0, false, false},
		{"road-narrow", gen.Road{NX: 400, NY: 60, Extra: 0.25, Seed: 2}, 0, false, false},
		{"road-wide", gen.Road{NX: 1200, NY: 900, Extra: 0.25, Seed: 3}, 1024, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			edges, err := c.road.Generate()
			if err != nil {
				t.Fatal(err)
			}
			g, err := graph.Build(edges, graph.Options{Transpose: true})
			if err != nil {
				t.Fatal(err)
			}
			e, err := OpenWith(d, g, Options{OneBlockArcs: c.arcs})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			center := int32((c.road.NY/2)*c.road.NX + c.road.NX/2) // the grid is row-major
			roots := []int32{0, center}
			if c.mixed { // frontiers beyond the block's bounds
				roots = []int32{center, center + int32(c.road.NX/4)}
			}
			for _, root := range roots {
				r, tr, err := e.BFSAdaptive(context.Background(), root, ch, AdaptiveOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want, err := ref.BFS(g, root)
				if err != nil {
					t.Fatal(err)
				}
				if r.Levels != want.Levels || !slices.Equal(r.Depth, want.Depth) {
					t.Fatalf("root %d: %d levels, the reference %d; depths equal: %v", root, r.Levels, want.Levels, slices.Equal(r.Depth, want.Depth))
				}
				if err := validate.BFS(g, root, r.Parent, r.Depth); err != nil {
					t.Fatalf("root %d: %v", root, err)
				}
				if !tr.OnDevice || tr.Disagree != 0 {
					t.Fatalf("root %d: on the device %v, %d levels where the walks differ", root, tr.OnDevice, tr.Disagree)
				}
				if err := checkLevelTimes(r, tr); err != nil {
					t.Errorf("root %d: %v", root, err)
				}
				block := 0
				for _, s := range tr.Ran {
					if s == oneBlock {
						block++
					}
				}
				t.Logf("root %d: %d levels, %d in the block (trace of %d), handed off at %d, %v", root, r.Levels, block, len(tr.Ran), tr.HandOff, r.Time)
				if c.handOff != (tr.HandOff > 0) {
					t.Errorf("root %d: handed to the persistent kernel at level %d, want a hand-off: %v", root, tr.HandOff, c.handOff)
				}
				if block == 0 || c.mixed == (block == len(tr.Ran)) {
					t.Errorf("root %d: %d of %d traced levels in the block (mixed: %v)", root, block, len(tr.Ran), c.mixed)
				}
			}
		})
	}
}
