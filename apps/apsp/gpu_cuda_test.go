//go:build cuda

package apsp

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/gpu"
)

var (
	solverOnce sync.Once
	solver     *Solver
	solverErr  error
)

func gpuSolver(t testing.TB) *Solver {
	solverOnce.Do(func() {
		d, err := gpu.Open(0)
		if err != nil {
			solverErr = err
			return
		}
		solver, solverErr = NewSolver(d)
	})
	if solverErr != nil {
		t.Skipf("no GPU: %v", solverErr)
	}
	return solver
}

// gpuMethods are the device's methods: naive and every tile.
func gpuMethods() []namedMethod {
	out := []namedMethod{{"fw", Options{Method: FW}}}
	for _, tile := range Tiles {
		out = append(out, namedMethod{fmt.Sprintf("fw-blocked/%d", tile), Options{Method: FWBlocked, Tile: tile}})
	}
	return out
}

// sameAsCPU runs every GPU method on g and compares it with its CPU
// reference in the same order (Equal: the same bits, next hops included),
// and with Dijkstra's distances (exactly for int32, within Tolerance for
// float32).
func sameAsCPU[T Weight](t *testing.T, s *Solver, name string, g *graph.Graph, paths bool) {
	t.Helper()
	ctx := context.Background()
	oracle, err := AllSources[T](ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range gpuMethods() {
		o.Paths = paths
		want, _, err := Solve[T](ctx, g, o.Options)
		if err != nil {
			t.Fatal(err)
		}
		got, run, err := SolveGPU[T](ctx, s, g, o.Options)
		if err != nil {
			t.Fatalf("%s %s %s: %v", name, TypeName[T](), o.name, err)
		}
		elapsed := run.Elapsed
		what := fmt.Sprintf("%s (%d vertices) %s %s paths=%v", name, g.NumVertices, TypeName[T](), o.name, paths)
		if err := Equal(got, want); err != nil {
			t.Errorf("%s: GPU against its CPU reference: %v", what, err)
			continue
		}
		var derr error
		switch o := any(oracle).(type) {
		case *Matrix[float32]:
			derr = Close(any(got).(*Matrix[float32]), o, Tolerance(g.NumVertices))
		default:
			derr = Equal(&Matrix[T]{N: got.N, Dist: got.Dist}, oracle)
		}
		if derr != nil {
			t.Errorf("%s: GPU against Dijkstra: %v", what, derr)
		}
		t.Logf("%s: same as the CPU, %v on the device", what, elapsed)
	}
}

// TestGPUMatchesCPU: every kernel, both types, with and without next hops,
// on the corpus (a single vertex, self-loops, unreachable pairs, zero
// weights, partial tiles) and on a graph of several tiles of every size.
func TestGPUMatchesCPU(t *testing.T) {
	s := gpuSolver(t)
	big := func(integer bool) testCase {
		w := graph.Weights{Kind: graph.UniformFloat}
		if integer {
			w = graph.Weights{Kind: graph.UniformInt, Max: 1000}
		}
		g, err := graph.Build(traversaltest.Random("random-700", 700, 5000, true, 21), graph.Options{Weights: w, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		return testCase{"random-700", g}
	}
	for _, paths := range []bool{false, true} {
		for _, c := range append(corpus(t, true), big(true)) {
			sameAsCPU[int32](t, s, c.name, c.g, paths)
		}
		for _, c := range append(corpus(t, false), big(false)) {
			sameAsCPU[float32](t, s, c.name, c.g, paths)
		}
	}
}

// TestGPUTooLarge: a matrix beyond the device memory is refused before
// anything is allocated, with the memory it needs and the largest n.
func TestGPUTooLarge(t *testing.T) {
	s := gpuSolver(t)
	e := traversaltest.List("huge", 1<<18, true, 0, 1)
	g, err := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = SolveGPU[float32](context.Background(), s, g, Options{Method: FWBlocked})
	if err == nil || !strings.Contains(err.Error(), "GiB of device memory") || !strings.Contains(err.Error(), "vertices fit") {
		t.Fatalf("262144 vertices: %v", err)
	}
	t.Log(err)
}

// benchGraph is the benchmark's input: a random directed graph of n
// vertices and 16n arcs (unreachable pairs are rare; the kernels' work
// does not depend on the values).
func benchGraph(t testing.TB, n int, integer bool) *graph.Graph {
	w := graph.Weights{Kind: graph.UniformFloat}
	if integer {
		w = graph.Weights{Kind: graph.UniformInt, Max: 100}
	}
	g, err := graph.Build(traversaltest.Random(fmt.Sprintf("random-%d", n), n, 16*n, true, uint64(n)), graph.Options{Weights: w, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// timeKernels is the median device time of one solve of m with opt, over
// reps: each repetition restores the input from a copy on the device
// first (the naive kernel writes only improvements, so a solved matrix
// would run faster), and the copy's own median is subtracted.
func timeKernels[T Weight](t testing.TB, s *Solver, m *Matrix[T], opt Options, reps int) time.Duration {
	r, err := upload(s, m, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	input, err := s.d.Alloc(r.dist.Bytes(), "the benchmark's input")
	if err != nil {
		t.Fatal(err)
	}
	defer input.Free()
	if err := input.CopyFrom(r.dist); err != nil {
		t.Fatal(err)
	}
	restore := func() error { return r.dist.CopyFrom(input) }
	solve := func() error {
		if err := restore(); err != nil {
			return err
		}
		for _, l := range r.steps {
			if err := l.Run(); err != nil {
				return err
			}
		}
		return nil
	}
	copyTime, err := s.d.Time(restore, 1, reps, "the input's copy")
	if err != nil {
		t.Fatal(err)
	}
	total, err := s.d.Time(solve, 1, reps, "Floyd-Warshall")
	if err != nil {
		t.Fatal(err)
	}
	return max(total.Median-copyTime.Median, time.Nanosecond)
}

// benchConfigs are the measured kernels: blocked at every tile in
// float32, blocked int32 and next hops at the default tile, and the naive
// kernel.
func benchConfigs() []namedMethod {
	var out []namedMethod
	for _, tile := range Tiles {
		out = append(out, namedMethod{fmt.Sprintf("fw-blocked/%d", tile), Options{Method: FWBlocked, Tile: tile}})
	}
	out = append(out, namedMethod{"fw-blocked/64+paths", Options{Method: FWBlocked, Tile: 64, Paths: true}},
		namedMethod{"fw", Options{Method: FW}})
	return out
}

// measure times one configuration on benchGraph(n) and returns the
// median and the fraction of the device's add/min peak it reached.
func measure[T Weight](t testing.TB, s *Solver, n int, o namedMethod, reps int) (time.Duration, float64) {
	_, integer := any(Inf[T]()).(int32)
	m, err := Dense[T](benchGraph(t, n, integer), o.Paths)
	if err != nil {
		t.Fatal(err)
	}
	el := timeKernels(t, s, m, o.Options, reps)
	return el, float64(n) * float64(n) * float64(n) / el.Seconds() / s.PeakRelaxations()
}

// BenchmarkFloydWarshall: go test -bench FloydWarshall -benchtime 1x
// reports every kernel's device time (ms) and its fraction of the add/min
// peak (peak-%) for n = 1024 to 8192.
func BenchmarkFloydWarshall(b *testing.B) {
	s := gpuSolver(b)
	for _, n := range []int{1024, 2048, 4096, 8192} {
		for _, o := range benchConfigs() {
			for _, typ := range []string{"float32", "int32"} {
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, o.name, typ), func(b *testing.B) {
					var el time.Duration
					var frac float64
					for range b.N {
						if typ == "int32" {
							el, frac = measure[int32](b, s, n, o, 3)
						} else {
							el, frac = measure[float32](b, s, n, o, 3)
						}
					}
					b.ReportMetric(float64(el)/1e6, "ms")
					b.ReportMetric(100*frac, "peak-%")
				})
			}
		}
	}
}

// TestBenchmarkTable (SPAC_APSP_BENCH=1) prints the tables of issue 18
// named in SPAC_APSP_TABLES (comma-separated; default fw,crossover) for n
// = 1024 to 8192 (SPAC_APSP_SIZES overrides, comma-separated):
//
//   - fw: every Floyd-Warshall kernel, float32 and int32, ms, G
//     relaxations per second, the fraction of the add/min peak and the
//     speed-up over the naive kernel;
//   - crossover: fw-blocked against sssp-all on random graphs of every
//     density (crossoverTable), from which GPUCrossover, Auto's rule, is
//     read;
//
// then (SPAC_APSP_LARGEST=1) the blocked kernel on the largest n that
// fits, validated against Dijkstra from a few sources.
func TestBenchmarkTable(t *testing.T) {
	if os.Getenv("SPAC_APSP_BENCH") != "1" {
		t.Skip("set SPAC_APSP_BENCH=1 to measure")
	}
	s := gpuSolver(t)
	sizes := envInts(t, "SPAC_APSP_SIZES", "1024,2048,4096,8192")
	tables := map[string]bool{}
	for _, f := range strings.Split(envOr("SPAC_APSP_TABLES", "fw,crossover"), ",") {
		switch f = strings.TrimSpace(f); f {
		case "fw", "crossover":
			tables[f] = true
		default:
			t.Fatalf("SPAC_APSP_TABLES: %q: want fw and/or crossover", f)
		}
	}
	if tables["fw"] {
		fwTable(t, s, sizes)
	}
	if tables["crossover"] {
		crossoverTable(t, s, sizes)
	}
	if os.Getenv("SPAC_APSP_LARGEST") == "1" {
		largest(t, s)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// envInts reads a comma-separated list of integers from name (def when
// unset).
func envInts(t *testing.T, name, def string) []int {
	var out []int
	for _, f := range strings.Split(envOr(name, def), ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v)
	}
	return out
}

// fwTable is the fw part of TestBenchmarkTable.
func fwTable(t *testing.T, s *Solver, sizes []int) {
	t.Logf("%s, %d MHz: add/min peak %.1f T relaxations/s", s.d.Info(), s.d.ClockKHz()/1000, s.PeakRelaxations()/1e12)
	t.Logf("%6s %-22s %-8s %10s %12s %7s %8s", "n", "kernel", "type", "ms", "G relax/s", "peak", "x naive")
	for _, n := range sizes {
		for _, typ := range []string{"float32", "int32"} {
			rows := map[string]time.Duration{}
			for _, o := range benchConfigs() {
				var el time.Duration
				var frac float64
				if typ == "int32" {
					el, frac = measure[int32](t, s, n, o, 3)
				} else {
					el, frac = measure[float32](t, s, n, o, 3)
				}
				rows[o.name] = el
				t.Logf("%6d %-22s %-8s %10.2f %12.1f %6.1f%% %8s", n, o.name, typ, float64(el)/1e6,
					float64(n)*float64(n)*float64(n)/el.Seconds()/1e9, 100*frac, "")
			}
			for _, o := range benchConfigs() {
				if o.name != "fw" {
					t.Logf("%6d %-22s %-8s speed-up over the naive kernel: %.1fx", n, o.name, typ, rows["fw"].Seconds()/rows[o.name].Seconds())
				}
			}
		}
	}
}

// largest runs the blocked kernel (int32, the default tile) on the
// largest n that fits (at most 65536: the host holds the matrix too) and
// checks a few rows against exact Dijkstra.
func largest(t *testing.T, s *Solver) {
	most, err := s.MaxVertices(false)
	if err != nil {
		t.Fatal(err)
	}
	n := min(most, 65536) / 1024 * 1024
	g := benchGraph(t, n, true)
	start := time.Now()
	m, run, err := SolveGPU[int32](context.Background(), s, g, Options{Method: FWBlocked})
	if err != nil {
		t.Fatal(err)
	}
	el := run.Elapsed
	t.Logf("largest: n = %d (the device would hold %d), fw-blocked/%d int32 in %.1f ms on the device (%.1f s in all, copies included), %.1f%% of the add/min peak",
		n, most, DefaultTile, float64(el)/1e6, time.Since(start).Seconds(),
		100*float64(n)*float64(n)*float64(n)/el.Seconds()/s.PeakRelaxations())
	for _, src := range []int{0, n / 3, n - 1} {
		d, _, err := ref.DijkstraInt(g, int32(src))
		if err != nil {
			t.Fatal(err)
		}
		for v, x := range d {
			want := int64(Inf[int32]())
			if x != ref.Unreached {
				want = x
			}
			if got := int64(m.At(src, v)); got != want {
				t.Fatalf("largest: distance %d->%d is %d, Dijkstra says %d", src, v, got, want)
			}
		}
	}
}
