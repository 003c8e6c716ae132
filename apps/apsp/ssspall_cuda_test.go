//go:build cuda

package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
)

// ssspAllSameAsCPU runs sssp-all on the device with batch (0: the default)
// and compares it with Dijkstra from every source on the CPU: the same
// distances bit for bit, float32 included. With paths, the distances must
// not change, every next hop must lead along arcs to its target (a walk of
// at most N-1 hops) with weights adding up to the distance (exactly for
// int32, within Tolerance for float32), and the next hops must not depend
// on the batch (they are chosen by atomicMin, not by the race). full runs
// Check (O(N^3)); else the walks are checked from every 61st source.
func ssspAllSameAsCPU[T Weight](t *testing.T, s *Solver, name string, g *graph.Graph, full bool) {
	t.Helper()
	ctx := context.Background()
	want, err := AllSources[T](ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	var w *Matrix[T]
	if g.NumVertices > 0 {
		if w, err = Dense[T](g, false); err != nil {
			t.Fatal(err)
		}
	}
	var firstNext []int32
	for _, batch := range []int{32, 0} {
		for _, paths := range []bool{false, true} {
			what := fmt.Sprintf("%s (%d vertices, %d arcs) %s batch %d paths=%v", name, g.NumVertices, g.NumArcs(), TypeName[T](), batch, paths)
			got, run, err := SolveGPU[T](ctx, s, g, Options{Method: SSSPAll, Batch: batch, Paths: paths})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if run.Method != SSSPAll {
				t.Fatalf("%s: ran %v", what, run.Method)
			}
			if err := Equal(&Matrix[T]{N: got.N, Dist: got.Dist}, want); err != nil {
				t.Errorf("%s: GPU against Dijkstra: %v", what, err)
				continue
			}
			if paths {
				if full {
					err = Check(got, w)
				} else {
					err = walkPaths(got, w, 61)
				}
				if err != nil {
					t.Errorf("%s: next hops: %v", what, err)
					continue
				}
				if firstNext == nil {
					firstNext = got.Next
				} else if err := Equal(&Matrix[T]{N: got.N, Dist: got.Dist, Next: firstNext}, got); err != nil {
					t.Errorf("%s: next hops differ between batches: %v", what, err)
				}
			}
			t.Logf("%s: same as the CPU; %v on the device, batch %d x %d, %d rounds, %.2f relaxations per (source, arc), %.0f%% of the lanes busy",
				what, run.Elapsed, run.Batch, run.Batches, run.Rounds, float64(run.Relaxed)/float64(max(int64(g.NumVertices)*g.NumArcs(), 1)), 100*run.LaneUse())
		}
	}
}

// walkPaths runs Check's walk of the next hops (checkPathsFrom) from
// every step-th source and the last: O(sources x N x hops), where Check's
// other half costs N^3.
func walkPaths[T Weight](m, w *Matrix[T], step int) error {
	for i := 0; i < m.N; i += step {
		if err := m.checkPathsFrom(w, i); err != nil {
			return err
		}
	}
	if m.N > 0 {
		return m.checkPathsFrom(w, m.N-1)
	}
	return nil
}

// buildWith builds e with integer (1..100) or uniform float weights.
func buildWith(t testing.TB, e *graph.Edges, integer bool, seed uint64) *graph.Graph {
	t.Helper()
	w := graph.Weights{Kind: graph.UniformFloat}
	if integer {
		w = graph.Weights{Kind: graph.UniformInt, Max: 100}
	}
	g, err := graph.Build(e, graph.Options{Weights: w, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGPUSSSPAllMatchesCPU: sssp-all on the device equals Dijkstra from
// every source on the corpus (a single vertex, self-loops, isolated
// vertices, a directed path, repeated edges, unreachable pairs, zero
// weights and zero-weight cycles, partial batches) and on random sparse
// graphs, directed and not, both types, with and without next hops, in
// batches of 32 and of the default size.
func TestGPUSSSPAllMatchesCPU(t *testing.T) {
	s := gpuSolver(t)
	for _, integer := range []bool{true, false} {
		cases := corpus(t, integer)
		for i, r := range []struct {
			n, m     int
			directed bool
		}{{300, 900, true}, {1000, 4000, false}, {777, 1500, true}, {2000, 40000, true}} {
			name := fmt.Sprintf("random-%d-%d-directed=%v", r.n, r.m, r.directed)
			cases = append(cases, testCase{name, buildWith(t, traversaltest.Random(name, r.n, r.m, r.directed, uint64(30+i)), integer, uint64(i))})
		}
		// A directed path: n - 1 rounds, many captured graphs per batch.
		path := traversaltest.List("path-3000", 3000, true)
		for v := range int32(2999) {
			path.Src, path.Dst = append(path.Src, v), append(path.Dst, v+1)
		}
		cases = append(cases, testCase{"path-3000", buildWith(t, path, integer, 3)})
		for _, c := range cases {
			full := c.g.NumVertices <= 400
			if integer {
				ssspAllSameAsCPU[int32](t, s, c.name, c.g, full)
			} else {
				ssspAllSameAsCPU[float32](t, s, c.name, c.g, full)
			}
		}
	}
}

// TestGPUSSSPAllKronecker: Graph500 Kronecker graphs of scale 12 and 13
// (4096 and 8192 vertices, 16 edges per vertex, undirected, hubs of
// hundreds of arcs), both types: the same distances as Dijkstra, bit for
// bit, and next hops that walk to every target from sampled sources.
func TestGPUSSSPAllKronecker(t *testing.T) {
	s := gpuSolver(t)
	for _, scale := range []int{12, 13} {
		e, err := gen.DefaultKronecker(scale).Generate()
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("kron-%d", scale)
		ssspAllSameAsCPU[int32](t, s, name, buildWith(t, e, true, 1), false)
		ssspAllSameAsCPU[float32](t, s, name, buildWith(t, e, false, 2), false)
	}
}

// TestGPUSSSPAllRefuses: negative weights, a bad batch, and a graph
// without weights are refused, saying why.
func TestGPUSSSPAllRefuses(t *testing.T) {
	s := gpuSolver(t)
	e := traversaltest.List("refused", 3, true, 0, 1, 1, 2)
	floats := buildWith(t, e, false, 1)
	negative := *floats
	negative.Weight = []float32{1, -2}
	unweighted, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		g    *graph.Graph
		opt  Options
		want string
	}{
		{"negative", &negative, Options{Method: SSSPAll}, "non-negative"},
		{"batch", floats, Options{Method: SSSPAll, Batch: 48}, "multiple of 32"},
		{"no weights", unweighted, Options{Method: SSSPAll}, "need weights"},
	} {
		_, _, err := SolveGPU[float32](ctx, s, c.g, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		if c.name == "negative" && !errors.Is(err, ErrNegative) {
			t.Errorf("negative: %v is not ErrNegative", err)
		}
	}
}

// TestGPUAutoPicks: Auto runs sssp-all on a graph well below the measured
// crossover degree and fw-blocked well above it, and both give
// Dijkstra's int32 distances.
func TestGPUAutoPicks(t *testing.T) {
	s := gpuSolver(t)
	const n = 2048
	ctx := context.Background()
	for _, c := range []struct {
		degree float64
		want   Method
	}{{CrossoverDegree(n) / 4, map[bool]Method{true: SSSPAll, false: FWBlocked}[GPUCrossoverMeasured]}, {CrossoverDegree(n)*4 + 1, FWBlocked}} {
		m := int(c.degree * n)
		if m < 1 {
			t.Logf("degree %.3g: the crossover at %d vertices leaves no sparser graph", c.degree, n)
			continue
		}
		g := buildWith(t, traversaltest.Random("auto", n, m, true, 5), true, 5)
		got, run, err := SolveGPU[int32](ctx, s, g, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if run.Method != c.want {
			t.Errorf("degree %.2f: auto ran %v, want %v", float64(m)/n, run.Method, c.want)
		}
		want, err := AllSources[int32](ctx, g, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := Equal(got, want); err != nil {
			t.Errorf("degree %.2f, %v: %v", float64(m)/n, run.Method, err)
		}
	}
}

// solveTime is one method's time on one graph: the median over the
// repetitions of the kernels' device time and of SolveGPU's wall time
// (the host matrix, the copies and, for sssp-all, the capture included).
type solveTime struct {
	device, total time.Duration
	run           Run
	m             *Matrix[float32]
	over          bool // stopped by the budget
}

// timeSolve runs SolveGPU on g with opt 3 times (once when the first run
// took more than 2 s), each within budget.
func timeSolve(t *testing.T, s *Solver, g *graph.Graph, opt Options, budget time.Duration) solveTime {
	t.Helper()
	var dev, tot []time.Duration
	var st solveTime
	for rep := 0; rep < 3; rep++ {
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		start := time.Now()
		m, run, err := SolveGPU[float32](ctx, s, g, opt)
		wall := time.Since(start)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			st.over = true
			return st
		}
		if err != nil {
			t.Fatalf("%s %v: %v", g.Name, opt.Method, err)
		}
		dev, tot = append(dev, run.Elapsed), append(tot, wall)
		st.run, st.m = run, m
		if wall > 2*time.Second {
			break
		}
	}
	slices.Sort(dev)
	slices.Sort(tot)
	st.device, st.total = dev[len(dev)/2], tot[len(tot)/2]
	return st
}

// crossing is the degree where sssp-all's time equals fw-blocked's: the
// ratio sssp-all / fw-blocked interpolated linearly on log-log axes
// between the two measured degrees around 1, extrapolated from the first
// (last) two where sssp-all lost (won) at every degree; how says which.
// A ratio of +Inf (sssp-all over the budget) counts as lost.
func crossing(deg, ratio []float64) (d float64, how string) {
	at := func(i, j int) float64 {
		li, lj := math.Log(ratio[i]), math.Log(ratio[j])
		if math.IsInf(li, 0) || math.IsInf(lj, 0) || li == lj {
			return deg[min(i, j)]
		}
		x := math.Log(deg[i]) + (0-li)*(math.Log(deg[j])-math.Log(deg[i]))/(lj-li)
		return math.Exp(x)
	}
	k := len(deg)
	for i := range k {
		if ratio[i] > 1 {
			switch {
			case i > 0:
				return at(i-1, i), "between measured degrees"
			case k > 1:
				return at(0, 1), "extrapolated: sssp-all lost at every degree"
			default:
				return 0, "sssp-all lost"
			}
		}
	}
	if k > 1 {
		return at(k-2, k-1), "extrapolated: sssp-all won at every degree"
	}
	return deg[0], "sssp-all won"
}

// crossoverTable is the crossover part of TestBenchmarkTable: fw-blocked
// (the default tile) against sssp-all on the GPU, float32, on random
// directed graphs of n vertices and average degree 4, 16, 64 and n/4
// (SPAC_APSP_DEGREES overrides: numbers, or dense for n/4), uniform
// weights in (0,1]; sssp-all in batches of SPAC_APSP_BATCHES (default 0:
// DefaultBatch; the fastest counts), each run within
// SPAC_APSP_SSSP_BUDGET seconds (default 60). Per graph: the device and
// total ms of both, sssp-all's batch, rounds, relaxations per (source,
// arc) and busy lanes, and the two results compared (within Tolerance:
// they add in different orders). Per n: the degree where the two meet,
// by total time (what 'spac apsp' waits for) and by device time; at the
// end the GPUCrossover rows to paste into auto.go.
func crossoverTable(t *testing.T, s *Solver, sizes []int) {
	budget := time.Duration(envInts(t, "SPAC_APSP_SSSP_BUDGET", "60")[0]) * time.Second
	batches := envInts(t, "SPAC_APSP_BATCHES", "0")
	degSpec := strings.Split(envOr("SPAC_APSP_DEGREES", "4,16,64,dense"), ",")
	t.Logf("crossover on %s: fw-blocked/%d against sssp-all, float32, random directed graphs, weights uniform in (0,1]; device = kernels between events, total = SolveGPU's wall time (host matrix and copies included); median of 3 runs (1 past 2 s)", s.d.Info(), DefaultTile)
	t.Logf("%6s %8s %-14s %10s %10s %6s %5s %7s %11s %6s %8s", "n", "degree", "method", "device ms", "total ms", "batch", "", "rounds", "relax/arc", "lanes", "vs fw")
	var rows []Crossover
	var report []string
	for _, n := range sizes {
		var degs, byTotal, byDevice []float64
		for _, spec := range degSpec {
			deg := n / 4
			if spec = strings.TrimSpace(spec); spec != "dense" {
				var err error
				if deg, err = strconv.Atoi(spec); err != nil {
					t.Fatalf("SPAC_APSP_DEGREES: %q: want numbers or dense", spec)
				}
			}
			name := fmt.Sprintf("random-%d-deg-%d", n, deg)
			g := buildWith(t, traversaltest.Random(name, n, deg*n, true, uint64(n+deg)), false, 1)
			fw := timeSolve(t, s, g, Options{Method: FWBlocked}, budget)
			t.Logf("%6d %8d %-14s %10.2f %10.2f", n, deg, "fw-blocked", ms(fw.device), ms(fw.total))
			var best solveTime
			for _, b := range batches {
				sa := timeSolve(t, s, g, Options{Method: SSSPAll, Batch: b}, budget)
				if sa.over {
					t.Logf("%6d %8d %-14s  over the budget of %v (batch %d)", n, deg, "sssp-all", budget, b)
					continue
				}
				r := sa.run
				t.Logf("%6d %8d %-14s %10.2f %10.2f %6d x%-4d %7d %11.2f %5.0f%% %7.2fx", n, deg, "sssp-all", ms(sa.device), ms(sa.total),
					r.Batch, r.Batches, r.Rounds, float64(r.Relaxed)/float64(n)/float64(g.NumArcs()), 100*r.LaneUse(), sa.total.Seconds()/fw.total.Seconds())
				if fw.m != nil {
					if err := Close(sa.m, fw.m, Tolerance(n)); err != nil {
						t.Errorf("n=%d degree %d: sssp-all against fw-blocked: %v", n, deg, err)
					}
				}
				if best.m == nil || sa.total < best.total {
					best = sa
				}
				sa.m = nil
			}
			degs = append(degs, float64(deg))
			if best.m == nil {
				byTotal, byDevice = append(byTotal, math.Inf(1)), append(byDevice, math.Inf(1))
				continue
			}
			byTotal = append(byTotal, best.total.Seconds()/fw.total.Seconds())
			byDevice = append(byDevice, best.device.Seconds()/fw.device.Seconds())
		}
		dt, how := crossing(degs, byTotal)
		dd, howD := crossing(degs, byDevice)
		report = append(report, fmt.Sprintf("crossover n=%d: sssp-all faster up to degree %.3g by total time (%s), %.3g by device time (%s)", n, dt, how, dd, howD))
		rows = append(rows, Crossover{N: n, Degree: dt})
	}
	for _, line := range report {
		t.Log(line)
	}
	t.Log("GPUCrossover rows (by total time) for apps/apsp/auto.go:")
	for _, r := range rows {
		t.Logf("\t{N: %d, Degree: %.3g},", r.N, r.Degree)
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
