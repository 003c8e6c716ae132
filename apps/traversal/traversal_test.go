package traversal

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX was generated from the current kernels/traversal.cu and
// has every entry point the Go side launches.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/traversal/kernels/traversal.cu")); err != nil {
		t.Fatal(err)
	}
}

// Every strategy has one name in the table, parses back from it, and says
// what it runs; "all" leaves the negative test out.
func TestStrategyTable(t *testing.T) {
	all := Strategies()
	if len(all) != len(strategyTable) {
		t.Fatalf("%d strategies named, %d described", len(all), len(strategyTable))
	}
	for _, s := range all {
		got, err := ParseStrategy(strings.ToUpper(s.String()))
		if err != nil || got != s {
			t.Fatalf("%s parses as %v, %v", s, got, err)
		}
		if !s.Supports(BFS) && !s.Supports(SSSP) {
			t.Fatalf("%s runs nothing", s)
		}
		if s.Doc() == "" {
			t.Fatalf("%s has no description", s)
		}
	}
	if s, err := ParseStrategy("wd"); err != nil || s != LB {
		t.Fatalf("wd: %v %v", s, err)
	}
	if _, err := ParseStrategy("nope"); err == nil || !strings.Contains(err.Error(), "lb-cull") {
		t.Fatalf("an unknown name: %v", err)
	}
	list, err := ParseStrategies("all")
	if err != nil || slices.Contains(list, TwoPhaseRacy) || slices.Contains(list, SpacSchedule) || !slices.Contains(list, TwoPhase) || len(list) != len(all)-2 {
		t.Fatalf("all: %v %v", list, err)
	}
	if TwoPhase.Supports(BFS) || !TwoPhaseRacy.Negative() || LB.Negative() {
		t.Fatal("the two-phase strategies' flags")
	}
}

// MDT by hand: degrees 1,1,2,2,2,3,8 (max 8) in 4 bins of width 9/4:
// bin(d) = 4d/9: 1,1 -> 0; 2,2,2,3 -> 0,0,0,1; 8 -> 3. Bin 0 holds 5, so
// t = 1 and MDT = ceil(1/4 * 8) = 2. With 9 bins each degree has its own
// bin; the tallest is degree 2's (index 2, t = 3): MDT = ceil(3/9*8) = 3.
func TestMDT(t *testing.T) {
	g := starOfDegrees(1, 1, 2, 2, 2, 3, 8)
	for _, c := range []struct{ bins, want int }{{4, 2}, {9, 3}, {1, 8}} {
		got, err := MDT(g, c.bins)
		if err != nil || got != c.want {
			t.Fatalf("%d bins: MDT %d, %v; want %d", c.bins, got, err, c.want)
		}
	}
	if _, err := MDT(g, 0); err == nil {
		t.Fatal("0 bins accepted")
	}
	empty := &graph.Graph{Offsets: []int64{0}}
	if got, err := MDT(empty, 4); err != nil || got != 1 {
		t.Fatalf("no vertices: %d %v", got, err)
	}
}

// starOfDegrees is a graph whose vertex i has out-degree deg[i] (arcs to
// vertex 0, enough for MDT and pieces).
func starOfDegrees(deg ...int64) *graph.Graph {
	g := &graph.Graph{Name: "degrees", NumVertices: len(deg), Offsets: []int64{0}}
	for _, d := range deg {
		g.Offsets = append(g.Offsets, g.Offsets[len(g.Offsets)-1]+d)
		for range d {
			g.Adj = append(g.Adj, 0)
		}
	}
	return g
}

// Pieces cover every arc once, in order, at most mdt each, owned by the
// vertex whose arcs they hold.
func TestPieces(t *testing.T) {
	g := starOfDegrees(0, 5, 1, 0, 7, 2)
	start, owner, err := pieces(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	wantOwner := []int32{1, 1, 2, 4, 4, 4, 5}
	wantStart := []int64{0, 3, 5, 6, 9, 12, 13, 15}
	if !slices.Equal(owner, wantOwner) || !slices.Equal(start, wantStart) {
		t.Fatalf("pieces %v %v, want %v %v", start, owner, wantStart, wantOwner)
	}
	if _, _, err := pieces(g, 0); err == nil {
		t.Fatal("threshold 0 accepted")
	}
}

// The default steps: a factor x mean weight / mean degree. Weights 1, 2,
// 3, 6 on 4 arcs of 2 vertices: mean 3, mean degree 2: near-far's 32x is
// 48, delta-stepping's 8x is 12; Options.Delta overrides both.
func TestDefaultDelta(t *testing.T) {
	g := starOfDegrees(3, 1)
	g.Weight = []float32{1, 2, 3, 6}
	e := &Engine{g: g}
	if d := e.delta(NearFar); d != 48 {
		t.Fatalf("near-far delta %v, want 48", d)
	}
	if d := e.delta(DeltaStepping); d != 12 {
		t.Fatalf("delta-stepping delta %v, want 12", d)
	}
	e.opt.Delta = 0.5
	if d, d2 := e.delta(NearFar), e.delta(DeltaStepping); d != 0.5 || d2 != 0.5 {
		t.Fatalf("Options.Delta 0.5 gave %v and %v", d, d2)
	}
	g.Weight = nil
	e.opt.Delta = 0
	if d := meanWeightPerDegree(g, 32); d != 1 {
		t.Fatalf("unweighted delta %v, want 1", d)
	}
}

// lightHeavy sorts each vertex's arcs by weight, ties by target, and
// splits them at delta: the graph's arcs, permuted within each vertex.
func TestLightHeavy(t *testing.T) {
	g := starOfDegrees(3, 1)
	g.Adj = []int32{3, 1, 2, 0}
	g.Weight = []float32{0.5, 0.1, 0.5, 0.9}
	adj, w, split := lightHeavy(g, 0.5)
	wantAdj := []int32{1, 2, 3, 0}
	if !slices.Equal(w, []float32{0.1, 0.5, 0.5, 0.9}) || !slices.Equal(adj, wantAdj) {
		t.Fatalf("sorted arcs %v weights %v, want %v and 0.1 0.5 0.5 0.9", adj, w, wantAdj)
	}
	if split[0] != 1 || split[1] != 3 {
		t.Fatalf("split %v: want the first heavy arcs at 1 and 3", split)
	}
	if _, _, split = lightHeavy(g, 1); split[0] != 3 || split[1] != 4 {
		t.Fatalf("delta above every weight: split %v, want the ends 3 and 4", split)
	}
}

// Unpack reads the packed words the kernels write.
func TestUnpack(t *testing.T) {
	dist, pred := Unpack([]uint64{0x3f800000<<32 | 7, 0x7f800000<<32 | 0xffffffff})
	if dist[0] != 1 || pred[0] != 7 || !(dist[1] > 1e38) || pred[1] != -1 {
		t.Fatalf("%v %v", dist, pred)
	}
}

// Without CUDA, Open answers gpu.ErrNoCUDA; the options are checked.
func TestOpenWithoutCUDA(t *testing.T) {
	g, err := traversaltest.Cases(1)[5].Build(graph.Weights{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !gpu.Built {
		if _, err := Open(nil, g); !errors.Is(err, gpu.ErrNoCUDA) {
			t.Fatalf("Open without CUDA: %v", err)
		}
	}
	for _, o := range []Options{{LevelsPerGraph: -1}, {LevelsPerGraph: maxLevelsK + 1}, {TWCWarp: 64, TWCBlock: 32}, {MDT: -2}, {Delta: -1}, {BlocksPerSM: 33}, {PullDivisor: -1}, {WDBelow: -1}} {
		if err := o.fill(g); err == nil {
			t.Fatalf("options %+v accepted", o)
		}
	}
	var o Options
	if err := o.fill(g); err != nil || o.LevelsPerGraph != defaultK || o.TWCWarp != 32 || o.TWCBlock != 512 || o.MDT < 1 {
		t.Fatalf("defaults %+v %v", o, err)
	}
	if err := checkGraph(&graph.Graph{NumVertices: 2, Offsets: []int64{0, 1}}); err == nil {
		t.Fatal("a short offsets array accepted")
	}
	var e *Engine
	if _, err := e.BFS(context.Background(), 0, Thread); err == nil {
		t.Fatal("a nil engine ran")
	}
}
