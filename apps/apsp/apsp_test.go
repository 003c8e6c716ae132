package apsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/gpu"
)

func TestPTXMatchesSource(t *testing.T) {
	for _, c := range []struct {
		mod gpu.PTXModule
		src string
	}{{Module, "apps/apsp/kernels/apsp.cu"}, {SSSPAllModule, "apps/apsp/kernels/ssspall.cu"}} {
		if err := c.mod.CheckSource(gpu.ReadKernelSource(t, c.src)); err != nil {
			t.Error(err)
		}
	}
}

// testCase is a graph of the APSP corpus with the weights it is tried
// with.
type testCase struct {
	name string
	g    *graph.Graph
}

// withValues gives e's edges the values vals[i % len(vals)]: file weights
// with zeros where the list has them.
func withValues(e *graph.Edges, vals ...float64) *graph.Edges {
	e.Val = make([]float64, len(e.Src))
	for i := range e.Val {
		e.Val[i] = vals[(i*7+3)%len(vals)]
	}
	return e
}

// corpus is what every method is checked on: the small graphs of the
// traversal corpus (a single vertex, with a self-loop, isolated vertices,
// a directed path, a DAG, repeated edges), and random graphs with zero
// weights and self-loops, unreachable pairs (directed, disconnected) and
// sizes that leave every tile size a partial last tile. integer picks
// integer weights (int32 distances) or uniform floats.
func corpus(t testing.TB, integer bool) []testCase {
	t.Helper()
	weights := graph.Weights{Kind: graph.UniformFloat}
	if integer {
		weights = graph.Weights{Kind: graph.UniformInt, Max: 20}
	}
	var out []testCase
	add := func(name string, e *graph.Edges, opt graph.Options) {
		g, err := graph.Build(e, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, testCase{name, g})
	}
	for _, c := range traversaltest.Cases(3) {
		if c.Edges.NumVertices <= 64 {
			opt := c.Opt
			opt.Weights, opt.Seed = weights, 5
			add(c.Name, c.Edges, opt)
		}
	}
	disconnected := traversaltest.Random("disconnected", 130, 500, true, 9)
	for i := range disconnected.Src { // 0..64 and 65..129 never meet
		disconnected.Dst[i] = disconnected.Dst[i]%65 + disconnected.Src[i]/65*65
	}
	add("disconnected", disconnected, graph.Options{Weights: weights, Seed: 6})
	add("random-undirected", traversaltest.Random("random-undirected", 97, 300, false, 10), graph.Options{Weights: weights, Seed: 7})
	zeros := []float64{0, 1, 2, 0.5, 3, 0, 1.25}
	if integer {
		zeros = []float64{0, 1, 2, 0, 3, 5, 0}
	}
	add("zero-weights-self-loops", withValues(traversaltest.Random("zero-weights-self-loops", 150, 700, true, 11), zeros...),
		graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}})
	add("zero-weight-cycles", withValues(traversaltest.Random("zero-weight-cycles", 40, 200, false, 12), 0),
		graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}})
	return out
}

// solveAll runs every CPU method (every tile of the blocked one) on g.
func solveAll[T Weight](t *testing.T, g *graph.Graph, paths bool) map[string]*Matrix[T] {
	t.Helper()
	ctx := context.Background()
	out := map[string]*Matrix[T]{}
	for _, o := range methodsToTry() {
		m, _, err := Solve[T](ctx, g, Options{Method: o.Method, Tile: o.Tile, Paths: paths})
		if err != nil {
			t.Fatalf("%s %s: %v", g.Name, o.name, err)
		}
		out[o.name] = m
	}
	return out
}

type namedMethod struct {
	name string
	Options
}

func methodsToTry() []namedMethod {
	out := []namedMethod{{"fw", Options{Method: FW}}, {"sssp-all", Options{Method: SSSPAll}}}
	for _, tile := range Tiles {
		out = append(out, namedMethod{fmt.Sprintf("fw-blocked/%d", tile), Options{Method: FWBlocked, Tile: tile}})
	}
	return out
}

// loopFree says whether method's next hops are loop-free on c: always for
// Dijkstra's trees; for Floyd-Warshall's pointers unless zero-weight
// cycles make ties that they can close into a loop (see the package
// documentation), which the corpus's zero-weight graphs have.
func loopFree(method string, c testCase) bool {
	return method == "sssp-all" || !slices.Contains(c.g.Weight, 0)
}

// TestIntegerMethodsAgree: with integer weights every method gives the
// same distances (Dijkstra's among them: the oracle), every matrix passes
// Check with its next hops, and undirected graphs give symmetric ones.
func TestIntegerMethodsAgree(t *testing.T) {
	for _, c := range corpus(t, true) {
		w, err := Dense[int32](c.g, false)
		if err != nil {
			t.Fatal(err)
		}
		res := solveAll[int32](t, c.g, true)
		oracle := res["sssp-all"]
		for name, m := range res {
			plain := &Matrix[int32]{N: m.N, Dist: m.Dist}
			if err := Equal(plain, oracle); err != nil {
				t.Errorf("%s: %s against Dijkstra: %v", c.name, name, err)
			}
			if !loopFree(name, c) {
				m = plain
			}
			if err := Check(m, w); err != nil {
				t.Errorf("%s: %s: %v", c.name, name, err)
			}
		}
		if !c.g.Directed {
			for i := range oracle.N {
				for j := range i {
					if oracle.At(i, j) != oracle.At(j, i) {
						t.Fatalf("%s: undirected, but %d->%d is %d and %d->%d %d", c.name, i, j, oracle.At(i, j), j, i, oracle.At(j, i))
					}
				}
			}
		}
	}
}

// TestFloatMethodsAgree: with float32 weights Floyd-Warshall (each order)
// and Dijkstra agree within Tolerance, and each passes Check.
func TestFloatMethodsAgree(t *testing.T) {
	for _, c := range corpus(t, false) {
		w, err := Dense[float32](c.g, false)
		if err != nil {
			t.Fatal(err)
		}
		res := solveAll[float32](t, c.g, true)
		for name, m := range res {
			if err := Close(m, res["sssp-all"], Tolerance(m.N)); err != nil {
				t.Errorf("%s: %s against Dijkstra: %v", c.name, name, err)
			}
			if !loopFree(name, c) {
				m = &Matrix[float32]{N: m.N, Dist: m.Dist}
			}
			if err := Check(m, w); err != nil {
				t.Errorf("%s: %s: %v", c.name, name, err)
			}
		}
	}
}

// TestDeterministic: the parallel CPU methods give the same bits, next
// hops included, on one core and on all of them, with and without next
// hops.
func TestDeterministic(t *testing.T) {
	cs := corpus(t, false)
	c := cs[len(cs)-2] // zero weights and self-loops
	all := solveAll[float32](t, c.g, true)
	plain := solveAll[float32](t, c.g, false)
	prev := runtime.GOMAXPROCS(1)
	one := solveAll[float32](t, c.g, true)
	runtime.GOMAXPROCS(prev)
	for name, m := range all {
		if err := Equal(m, one[name]); err != nil {
			t.Errorf("%s: %s on all cores against one: %v", c.name, name, err)
		}
		if !slices.Equal(m.Dist, plain[name].Dist) {
			t.Errorf("%s: %s: the distances depend on computing next hops", c.name, name)
		}
	}
}

// TestKnownDistances: a small directed graph worked out by hand.
func TestKnownDistances(t *testing.T) {
	e := traversaltest.List("known", 5, true, 0, 1, 1, 2, 0, 2, 2, 3, 3, 0, 4, 4)
	e.Val = []float64{4, 1, 7, 2, 3, 9}
	g, err := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.FileWeights}})
	if err != nil {
		t.Fatal(err)
	}
	u := math.MaxInt32
	want := []int{
		0, 4, 5, 7, u,
		6, 0, 1, 3, u,
		5, 9, 0, 2, u,
		3, 7, 8, 0, u,
		u, u, u, u, 0,
	}
	for _, o := range methodsToTry() {
		m, _, err := Solve[int32](context.Background(), g, Options{Method: o.Method, Tile: o.Tile, Paths: true})
		if err != nil {
			t.Fatal(err)
		}
		for k, d := range m.Dist {
			if int(d) != want[k] {
				t.Fatalf("%s: %d->%d = %d, want %d", o.name, k/5, k%5, d, want[k])
			}
		}
		if p, err := m.Path(1, 0); err != nil || !slices.Equal(p, []int32{1, 2, 3, 0}) {
			t.Errorf("%s: path 1->0 %v (%v), want [1 2 3 0]", o.name, p, err)
		}
		if p, err := m.Path(0, 4); err != nil || p != nil {
			t.Errorf("%s: path 0->4 %v (%v), want none", o.name, p, err)
		}
	}
}

// TestCheckCatchesBugs: the validator fails on a distance made too long,
// one made too short, and a broken next hop.
func TestCheckCatchesBugs(t *testing.T) {
	cs := corpus(t, true)
	g := cs[len(cs)-2].g
	w, err := Dense[int32](g, false)
	if err != nil {
		t.Fatal(err)
	}
	good, _, err := Solve[int32](context.Background(), g, Options{Method: FW, Paths: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(good, w); err != nil {
		t.Fatal(err)
	}
	n := good.N
	for _, bug := range []struct {
		name  string
		plant func(m *Matrix[int32])
	}{
		{"too long", func(m *Matrix[int32]) { m.Dist[1*n+2]++ }},
		{"too short", func(m *Matrix[int32]) { m.Dist[3*n+4]-- }},
		{"next hop loop", func(m *Matrix[int32]) {
			for k, x := range m.Next {
				if i, j := k/n, k%n; i != j && x >= 0 && int(x) != j {
					m.Next[int(x)*n+j] = int32(i)
					return
				}
			}
		}},
		{"diagonal", func(m *Matrix[int32]) { m.Dist[0] = 1 }},
	} {
		m := &Matrix[int32]{N: n, Dist: slices.Clone(good.Dist), Next: slices.Clone(good.Next)}
		bug.plant(m)
		if err := Check(m, w); err == nil {
			t.Errorf("%s: Check passed", bug.name)
		}
	}
}

// TestRefused: what the package refuses, with the reason in the message.
func TestRefused(t *testing.T) {
	e := traversaltest.List("refused", 3, true, 0, 1, 1, 2)
	unweighted, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	floats, err := graph.Build(e, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	heavy := traversaltest.Random("heavy", 300, 1000, true, 1)
	heavyG, err := graph.Build(heavy, graph.Options{Weights: graph.Weights{Kind: graph.UniformInt, Max: 1 << 24}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	negative := *floats
	negative.Weight = []float32{1, -2}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"no weights", func() error { _, _, err := Solve[float32](ctx, unweighted, Options{}); return err }(), "need weights"},
		{"int32 of floats", func() error { _, _, err := Solve[int32](ctx, floats, Options{Method: FW}); return err }(), "integer weights"},
		{"int32 overflow", func() error { _, err := Dense[int32](heavyG, false); return err }(), "beyond int32"},
		{"negative", func() error { _, _, err := Solve[float32](ctx, &negative, Options{Method: FW}); return err }(), "non-negative"},
		{"negative sssp-all", func() error { _, _, err := Solve[float32](ctx, &negative, Options{Method: SSSPAll}); return err }(), "non-negative"},
		{"tile", func() error {
			_, _, err := Solve[float32](ctx, floats, Options{Method: FWBlocked, Tile: 48})
			return err
		}(), "tiles of"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, c.err, c.want)
		}
	}
	if _, _, err := Solve[float32](ctx, &negative, Options{Method: FW}); !errors.Is(err, ErrNegative) {
		t.Errorf("negative weight: %v is not ErrNegative", err)
	}
}

// TestCancel: a cancelled context stops every method.
func TestCancel(t *testing.T) {
	g := corpus(t, false)[0].g
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, o := range methodsToTry() {
		if _, _, err := Solve[float32](ctx, g, o.Options); !errors.Is(err, context.Canceled) && g.NumVertices > 0 {
			t.Errorf("%s: %v after cancel", o.name, err)
		}
	}
}

// TestChoose: Auto picks Dijkstra on sparse graphs and Floyd-Warshall on
// dense ones on the CPU; on the GPU sssp-all below the crossover degree
// of GPUCrossover and fw-blocked above it.
func TestChoose(t *testing.T) {
	build := func(name string, n, m int) *graph.Graph {
		g, err := graph.Build(traversaltest.Random(name, n, m, true, 1), graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	sparse, dense := build("sparse", 2000, 8000), build("dense", 100, 6000)
	cases := []struct {
		g     *graph.Graph
		onGPU bool
		want  Method
	}{{sparse, false, SSSPAll}, {dense, false, FW}, {dense, true, FWBlocked}}
	below := SSSPAll
	if !GPUCrossoverMeasured {
		below = FWBlocked // estimates route no one
	}
	for _, n := range []int{1000, 3000, 8192, 20000} {
		if c := CrossoverDegree(n); c*float64(n) >= 2 {
			cases = append(cases, struct {
				g     *graph.Graph
				onGPU bool
				want  Method
			}{build("below", n, int(c*float64(n)/2)), true, below})
		}
		cases = append(cases, struct {
			g     *graph.Graph
			onGPU bool
			want  Method
		}{build("above", n, int(2*CrossoverDegree(n)*float64(n))+n), true, FWBlocked})
	}
	for _, c := range cases {
		if got := Choose(c.g, c.onGPU); got != c.want {
			t.Errorf("%s, %d vertices, %d arcs (gpu %v): %v, want %v", c.g.Name, c.g.NumVertices, c.g.NumArcs(), c.onGPU, got, c.want)
		}
	}
}

// TestCrossoverDegree: the GPU rule passes through GPUCrossover's rows,
// interpolates between them, scales with n outside them, and never
// decreases with n (the table's rows grow: the model of its comment).
func TestCrossoverDegree(t *testing.T) {
	rows := GPUCrossover
	for i, r := range rows {
		if r.Degree < 0 || i > 0 && (r.N <= rows[i-1].N || r.Degree < rows[i-1].Degree) {
			t.Fatalf("GPUCrossover row %d %+v: want increasing N and non-decreasing, non-negative degrees", i, r)
		}
		if got := CrossoverDegree(r.N); got != r.Degree {
			t.Errorf("n=%d: %v, the table says %v", r.N, got, r.Degree)
		}
	}
	first, last := rows[0], rows[len(rows)-1]
	if got, want := CrossoverDegree(first.N/2), first.Degree/2; got != want {
		t.Errorf("n=%d: %v, want %v", first.N/2, got, want)
	}
	if got, want := CrossoverDegree(2*last.N), 2*last.Degree; got != want {
		t.Errorf("n=%d: %v, want %v", 2*last.N, got, want)
	}
	prev := 0.0
	for n := 1; n <= 4*last.N; n += 97 {
		d := CrossoverDegree(n)
		if d < prev {
			t.Fatalf("n=%d: %v, below n=%d's %v", n, d, n-97, prev)
		}
		prev = d
	}
}

// TestPickBatch: the batch is the request (or DefaultBatch), capped by the
// vertices rounded up to 32, halved in multiples of 32 until it fits, and
// refused when 32 sources do not fit.
func TestPickBatch(t *testing.T) {
	for _, c := range []struct {
		n, want int
		avail   int64
		paths   bool
		batch   int
		err     string
	}{
		{1, 0, 1 << 30, false, 32, ""},
		{100, 0, 1 << 30, false, 128, ""},
		{8192, 0, 1 << 30, false, DefaultBatch, ""},
		{8192, 256, 1 << 30, true, 256, ""},
		{8192, 4096, 1 << 40, false, 4096, ""},
		{8192, 0, BatchBytes(8192, 512, false), false, 512, ""},
		{8192, 0, BatchBytes(8192, 512, true) - 1, true, 256, ""},
		{8192, 1024, BatchBytes(8192, 32, false) + 1, false, 32, ""},
		{8192, 0, BatchBytes(8192, 32, false) - 1, false, 0, "GiB of device memory for a batch of 32"},
	} {
		got, err := pickBatch(c.n, c.want, c.avail, c.paths)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %d, %v; want an error saying %q", c, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.batch {
			t.Errorf("%+v: %d, %v; want %d", c, got, err, c.batch)
		}
		if got%32 != 0 || BatchBytes(c.n, got, c.paths) > c.avail {
			t.Errorf("%+v: batch %d is not a fitting multiple of 32", c, got)
		}
	}
	for _, b := range []int{0, 32, 1024, MaxBatch} {
		if err := CheckBatch(b); err != nil {
			t.Errorf("batch %d: %v", b, err)
		}
	}
	for _, b := range []int{-32, 16, 48, MaxBatch + 32} {
		if err := CheckBatch(b); err == nil {
			t.Errorf("batch %d accepted", b)
		}
	}
}

// TestNextHopsFromTrees: next hops from a predecessor tree, and the
// refusal of predecessors that are no tree (what a kernel bug would leave).
func TestNextHopsFromTrees(t *testing.T) {
	// Source 0: 0 -> 1 -> 2 -> 3, 0 -> 4; 5 unreached.
	next := make([]int32, 6)
	if err := nextHops(0, []int32{0, 0, 1, 2, 0, -1}, next); err != nil || !slices.Equal(next, []int32{0, 1, 1, 1, 4, -1}) {
		t.Errorf("next hops %v (%v), want [0 1 1 1 4 -1]", next, err)
	}
	for _, bad := range [][]int32{
		{0, 2, 3, 1},  // 1 -> 2 -> 3 -> 1: a cycle
		{0, 0, 9, 0},  // beyond the vertices
		{0, 0, 3, -1}, // through an unreached vertex
	} {
		if err := nextHops(0, bad, make([]int32, len(bad))); err == nil {
			t.Errorf("predecessors %v accepted", bad)
		}
	}
}

// TestWeightBits: the kernels' weights: float32 bits with -0 as +0, or
// int32.
func TestWeightBits(t *testing.T) {
	g := &graph.Graph{Weight: []float32{float32(math.Copysign(0, -1)), 0.5, 3}}
	if got, want := weightBits[float32](g), []uint32{0, math.Float32bits(0.5), math.Float32bits(3)}; !slices.Equal(got, want) {
		t.Errorf("float32: %#x, want %#x", got, want)
	}
	if got, want := weightBits[int32](&graph.Graph{Weight: []float32{0, 7, 16777216}}), []uint32{0, 7, 16777216}; !slices.Equal(got, want) {
		t.Errorf("int32: %v, want %v", got, want)
	}
}

// TestNoCUDA: without CUDA the solver says so.
func TestNoCUDA(t *testing.T) {
	if gpu.Built {
		t.Skip("a CUDA build")
	}
	if _, err := NewSolver(nil); !errors.Is(err, gpu.ErrNoCUDA) {
		t.Errorf("NewSolver: %v, want gpu.ErrNoCUDA", err)
	}
}

// TestPadded: the device layout pads with isolated vertices.
func TestPadded(t *testing.T) {
	inf := Inf[float32]()
	got := padded([]float32{0, 1, 2, 0}, 2, 3, inf, 0)
	want := []float32{0, 1, inf, 2, 0, inf, inf, inf, 0}
	if !slices.Equal(got, want) {
		t.Errorf("padded: %v, want %v", got, want)
	}
	if src := []int32{0, 1}; &padded(src, 1, 1, -1, 0)[0] != &src[0] {
		t.Error("padded copies a matrix that needs no padding")
	}
}

func TestMethodNames(t *testing.T) {
	for _, name := range []string{"auto", "fw", "fw-blocked", "sssp-all"} {
		m, err := ParseMethod(name)
		if err != nil || m.String() != name {
			t.Errorf("%s: %v %v", name, m, err)
		}
	}
	if _, err := ParseMethod("johnson"); err == nil {
		t.Error("johnson parsed")
	}
}
