package traversal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX of the adaptive module was generated from the current
// kernels/adaptive.cu and has every entry point the Go side launches.
func TestAdaptivePTXMatchesSource(t *testing.T) {
	if err := AdaptiveModule.CheckSource(gpu.ReadKernelSource(t, "apps/traversal/kernels/adaptive.cu")); err != nil {
		t.Fatal(err)
	}
}

// defines reads a .cu file's integer #defines.
func defines(t *testing.T, path string) map[string]int {
	t.Helper()
	src := gpu.ReadKernelSource(t, path)
	out := map[string]int{}
	re := regexp.MustCompile(`(?m)^#define (\w+) (-?\d+)\b`)
	for _, m := range re.FindAllSubmatch(src, -1) {
		v, err := strconv.Atoi(string(m[2]))
		if err != nil {
			t.Fatal(err)
		}
		out[string(m[1])] = v
	}
	return out
}

// adaptive.cu speaks traversal.cu's control block: the words both name
// have the same index, the words only adaptive.cu uses are free in
// traversal.cu (64-bit words take two), and the ring's and the block's
// sizes are the Go side's.
func TestAdaptiveControlWords(t *testing.T) {
	tr := defines(t, "apps/traversal/kernels/traversal.cu")
	ad := defines(t, "apps/traversal/kernels/adaptive.cu")
	used := map[int]string{}
	wide := map[string]bool{"C_INSPECTED": true, "C_DARCS": true, "C_CURMF": true, "C_MF": true}
	for name, v := range tr {
		if !strings.HasPrefix(name, "C_") {
			continue
		}
		used[v] = name
		if wide[name] {
			used[v+1] = name
		}
	}
	shared := 0
	for name, v := range ad {
		if !strings.HasPrefix(name, "C_") {
			continue
		}
		if w, ok := tr[name]; ok {
			shared++
			if w != v {
				t.Errorf("%s is word %d in adaptive.cu, %d in traversal.cu", name, v, w)
			}
			continue
		}
		words := []int{v}
		if wide[name] {
			words = append(words, v+1)
			if v%2 != 0 {
				t.Errorf("%s (64 bits) at odd word %d", name, v)
			}
		}
		for _, w := range words {
			if other, ok := used[w]; ok {
				t.Errorf("%s's word %d is traversal.cu's %s", name, w, other)
			}
			if w >= ctlWords {
				t.Errorf("%s's word %d is past the control block's %d", name, w, ctlWords)
			}
			used[w] = name
		}
	}
	if shared < 8 {
		t.Errorf("only %d words shared: the parse found too little", shared)
	}
	for name, want := range map[string]int{"RING_SLOTS": ringSlots, "RING_WORDS": ringWords, "CTL_WORDS": ctlWords, "THREADS": threads, "C_NPULL": cNPull, "AD_MINB": adBlocksPerSM, "LOG_WORDS": adLogWords,
		"LOG_OPEN": logOpen, "LOG_END": logEnd, "LOG_HEAVY": logHeavy} {
		if ad[name] != want {
			t.Errorf("adaptive.cu's %s is %d, the Go side's %d", name, ad[name], want)
		}
	}
	if ringSlots&(ringSlots-1) != 0 || ringSlots <= 2*maxLevelsK {
		t.Errorf("%d ring slots: want a power of two above two graphs of %d levels", ringSlots, maxLevelsK)
	}
}

// The paper's strategies have a kernel each, named once; the
// classification the counted loops rely on holds for every strategy.
func TestAdaptiveStrategies(t *testing.T) {
	entries := map[string]Strategy{}
	paper := 0
	for _, s := range Strategies() {
		if s.Paper() {
			paper++
			e := paperEntry(s)
			if e == "" || !slices.Contains(AdaptiveModule.Entries, e) {
				t.Errorf("%s: kernel %q not in the module", s, e)
			}
			if other, dup := entries[e]; dup {
				t.Errorf("%s and %s share kernel %s", s, other, e)
			}
			entries[e] = s
			if !s.Supports(BFS) || s.Supports(SSSP) || !s.PerLevel() || readsQueue(s) || leavesQueue(s) || counterStepOf(s) != stepInline {
				t.Errorf("%s: a paper strategy is a per-level BFS that neither reads nor leaves a queue and counts inline", s)
			}
		} else if paperEntry(s) != "" {
			t.Errorf("%s is not a paper strategy but has kernel %s", s, paperEntry(s))
		}
		// do-beamer's runs of levels rebuild the queue themselves (do_prep)
		if s.PerLevel() && readsQueue(s) && !leavesQueue(s) && s != DOBeamer {
			t.Errorf("%s reads a queue but leaves none: its runs of levels would read a stale one", s)
		}
	}
	if paper != 17 {
		t.Errorf("%d paper strategies, want 17 (4 kinds x 3 counts, 5 virtual-warp widths)", paper)
	}
	for s, w := range map[Strategy]int{VWPush2: 2, VWPush4: 4, VWPush8: 8, VWPush16: 16, VWPush32: 32, VertexPushWarp: 0, DOBeamer: 0} {
		if vwWidth(s) != w {
			t.Errorf("vwWidth(%s) = %d, want %d", s, vwWidth(s), w)
		}
	}
	for name, want := range map[string]Strategy{"push-atomic": VertexPushAtomic, "vertex-pull-block": VertexPullBlock, "vw-push-8": VWPush8,
		"do-beamer": DOBeamer, "edge-list-warp": EdgeListWarp, "reverse-edge-list-atomic": RevEdgeListAtomic} {
		if s, err := ParseStrategy(name); err != nil || s != want {
			t.Errorf("%s parses as %v, %v", name, s, err)
		}
	}
	for _, s := range []Strategy{Persistent, PersistentTWC, SpacSchedule, TwoPhase, TwoPhaseRacy, NearFar} {
		if s.PerLevel() {
			t.Errorf("%s is per-level", s)
		}
	}
	if !DOBeamer.PerLevel() || !readsQueue(DOBeamer) || leavesQueue(DOBeamer) || counterStepOf(DOBeamer) != stepInline {
		t.Error("do-beamer reads a queue, leaves none (its pulls write none) and counts inline")
	}
	if counterStepOf(LB) != stepRebuild || counterStepOf(LBCull) != stepQueue || counterStepOf(Edge) != stepRebuild {
		t.Error("lb (duplicates) and edge (no queue) rebuild, lb-cull counts its queue")
	}
	want := PerLevelStrategies()
	if len(want) != len(perLevelNames()) || len(want) < 25 {
		t.Errorf("%d per-level strategies, %d names", len(want), len(perLevelNames()))
	}
	var o Options
	if err := o.fill(starOfDegrees(1, 1)); err != nil || o.Alpha != beamerAlpha || o.Beta != beamerBeta {
		t.Fatalf("do-beamer's defaults: %+v %v", o, err)
	}
	for _, bad := range []Options{{Alpha: -1}, {Beta: math.Inf(1)}, {Alpha: math.NaN()}} {
		if err := bad.fill(starOfDegrees(1, 1)); err == nil {
			t.Errorf("options %+v accepted", bad)
		}
	}
}

// A model's candidates map to strategies by name or alias; a name the
// engine lacks, or a strategy that cannot run a level alone, is refused
// with a message that names it and says what to do.
func TestModelChooser(t *testing.T) {
	m, err := adaptive.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewModelChooser(m)
	if err != nil {
		t.Fatalf("the default model: %v", err)
	}
	for i, name := range m.Candidates {
		if c.Strategies[i].String() != name {
			t.Errorf("candidate %d: %s maps to %s", i, name, c.Strategies[i])
		}
	}
	var f adaptive.Features
	if s := c.Choose(&f); s != c.Strategies[m.Predict(&f)] {
		t.Errorf("Choose %s, Predict %d", s, m.Predict(&f))
	}
	alias := *m
	alias.Candidates = slices.Clone(m.Candidates)
	alias.Candidates[0] = "wd"
	if c, err := NewModelChooser(&alias); err != nil || c.Strategies[0] != LB {
		t.Errorf("an alias: %v %v", c, err)
	}
	for bad, want := range map[string]string{"vertex-push-warp:8": "not a strategy of this engine", "persistent": "cannot run one BFS level at a time", "two-phase": "cannot run"} {
		x := *m
		x.Candidates = slices.Clone(m.Candidates)
		x.Candidates[1] = bad
		_, err := NewModelChooser(&x)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "retrain") {
			t.Errorf("candidate %s: %v", bad, err)
		}
	}
	if _, err := NewModelChooser(nil); err == nil {
		t.Error("no model accepted")
	}
}

// testGraph is a small Kronecker graph with its in-arcs.
func testGraph(t *testing.T, scale int) *graph.Graph {
	t.Helper()
	k := gen.DefaultKronecker(scale)
	k.EdgeFactor = 8
	e, err := k.Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(e, graph.Options{Transpose: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// rootOf is a vertex of g with an arc.
func rootOf(t *testing.T, g *graph.Graph) int32 {
	t.Helper()
	rs, err := g.Roots(1, 3)
	if err != nil || len(rs) == 0 {
		t.Fatalf("roots: %v %v", rs, err)
	}
	return rs[0]
}

// levelCounters and a Tracker over them give FromDepths' features.
func TestLevelCounters(t *testing.T) {
	g := testGraph(t, 9)
	root := rootOf(t, g)
	b, err := ref.BFS(g, root)
	if err != nil {
		t.Fatal(err)
	}
	stats := adaptive.StatsOf(g)
	want, err := adaptive.FromDepths(g, stats, b.Depth)
	if err != nil {
		t.Fatal(err)
	}
	cs := levelCounters(g, b.Depth)
	if len(cs) != len(want) || cs[0] != adaptive.RootCounters(g, root) {
		t.Fatalf("%d levels, want %d; level 0 %+v", len(cs), len(want), cs[0])
	}
	tk := adaptive.NewTracker(stats)
	for l, c := range cs {
		if f := tk.Next(c); f != want[l] {
			t.Fatalf("level %d: %v, want %v", l, f, want[l])
		}
	}
}

// fakeStepper runs a search's levels from the reference's counters: the
// adaptive loop's device, in the tests.
type fakeStepper struct {
	want          []adaptive.Counters
	level         int
	queueOK       bool
	double        map[Strategy]bool // runs one level more per step
	notApplicable map[Strategy]bool
	calls         []string // "s/k"
}

func (f *fakeStepper) step(s Strategy, k int) (stepped, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s/%d", s, k))
	if f.notApplicable[s] {
		return stepped{}, ErrNotApplicable
	}
	out := stepped{rebuilt: readsQueue(s) && !f.queueOK}
	n := k
	if f.double[s] {
		n++
	}
	for range n {
		if f.level >= len(f.want) {
			break
		}
		f.level++
		if f.level < len(f.want) {
			out.counters = append(out.counters, f.want[f.level])
		}
	}
	out.level = f.level
	if f.level < len(f.want) {
		out.frontier = f.want[f.level].Vertices
	}
	f.queueOK = leavesQueue(s)
	return out, nil
}

// chooserFunc is a Chooser.
type chooserFunc func(f *adaptive.Features) Strategy

func (c chooserFunc) Choose(f *adaptive.Features) Strategy { return c(f) }

// byLevel picks by the level's index.
func byLevel(pick func(level int) Strategy) Chooser {
	return chooserFunc(func(f *adaptive.Features) Strategy { return pick(int(f[adaptive.Level])) })
}

// The adaptive loop's choices, runs, fallbacks and counts, on the
// reference's counters of a road graph (many levels) and a Kronecker
// graph.
func TestAdaptiveLoop(t *testing.T) {
	e, err := gen.DefaultRoad(30, 20).Generate()
	if err != nil {
		t.Fatal(err)
	}
	road, err := graph.Build(e, graph.Options{Transpose: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*graph.Graph{road, testGraph(t, 9)} {
		root := rootOf(t, g)
		b, err := ref.BFS(g, root)
		if err != nil {
			t.Fatal(err)
		}
		want := levelCounters(g, b.Depth)
		n := len(want)
		stats := adaptive.StatsOf(g)
		feats, _ := adaptive.FromDepths(g, stats, b.Depth)
		run := func(ch Chooser, opt AdaptiveOptions, st *fakeStepper) *AdaptiveTrace {
			t.Helper()
			if opt.Fallback == 0 {
				opt.Fallback = LBCull
			}
			if st.want == nil {
				st.want, st.queueOK = want, true
			}
			tr, err := adaptiveLoop(context.Background(), st, stats, want[0], ch, opt)
			if err != nil {
				t.Fatalf("%s: %v", g.Name, err)
			}
			if len(tr.Ran) != n || len(tr.Chosen) != n || len(tr.Features) != n || len(tr.Counters) != n {
				t.Fatalf("%s: %d levels ran, %d chosen, %d features; want %d", g.Name, len(tr.Ran), len(tr.Chosen), len(tr.Features), n)
			}
			for l := range n {
				if tr.Features[l] != feats[l] || tr.Counters[l] != want[l] {
					t.Fatalf("%s level %d: features or counters differ from the reference's", g.Name, l)
				}
			}
			return tr
		}
		// One level a step: every level its own pick; a rebuild each time
		// a queue reader follows a paper strategy.
		alt := byLevel(func(l int) Strategy { return []Strategy{Thread, VertexPushWarp}[l%2] })
		st := &fakeStepper{}
		tr := run(alt, AdaptiveOptions{MaxRun: 1}, st)
		if !slices.Equal(tr.Ran, tr.Chosen) || tr.Steps != n || tr.Stale != 0 || tr.Fallbacks != 0 || tr.Rebuilds != (n-1)/2 {
			t.Errorf("%s alternating: %d steps, %d stale, %d fallbacks, %d rebuilds; want %d, 0, 0, %d", g.Name, tr.Steps, tr.Stale, tr.Fallbacks, tr.Rebuilds, n, (n-1)/2)
		}
		if tr.Predict < 0 || tr.Summary() == "" {
			t.Errorf("predict %v, summary %q", tr.Predict, tr.Summary())
		}
		// One pick throughout: runs of 1, 2, 4, ... MaxRun levels.
		st = &fakeStepper{}
		tr = run(byLevel(func(int) Strategy { return TWC }), AdaptiveOptions{MaxRun: 8}, st)
		steps, covered := 0, 0
		for k := 1; covered < n; k = min(2*k, 8) {
			if st.calls[steps] != fmt.Sprintf("twc/%d", k) {
				t.Fatalf("%s: step %d is %s, want twc/%d (%v)", g.Name, steps, st.calls[steps], k, st.calls)
			}
			covered += k
			steps++
		}
		if tr.Steps != steps || tr.Stale != 0 || tr.Uses()[TWC] != n {
			t.Errorf("%s constant: %d steps (want %d), %d stale, uses %v", g.Name, tr.Steps, steps, tr.Stale, tr.Uses())
		}
		// A change inside a run: the levels after it ran stale, then the
		// next run starts at one level.
		if n > 8 {
			st = &fakeStepper{}
			tr = run(byLevel(func(l int) Strategy {
				if l < 5 {
					return LBCull
				}
				return DOBeamer
			}), AdaptiveOptions{MaxRun: 8}, st)
			// runs: 0 | 1-2 | 3-6 (5 and 6 stale) | 7 do-beamer | ...
			if tr.Stale != 2 || tr.Ran[6] != LBCull || tr.Ran[7] != DOBeamer || st.calls[3] != "do-beamer/1" {
				t.Errorf("%s change: %d stale, ran %v, calls %v", g.Name, tr.Stale, tr.Ran[:8], st.calls)
			}
		}
		// A pick that does not apply falls back for the rest of the search.
		st = &fakeStepper{notApplicable: map[Strategy]bool{Pull: true}}
		tr = run(byLevel(func(int) Strategy { return Pull }), AdaptiveOptions{MaxRun: 1}, st)
		if tr.Fallbacks != n || tr.Uses()[LBCull] != n || st.calls[0] != "pull/1" || st.calls[1] != "lb-cull/1" || slices.Contains(st.calls[2:], "pull/1") {
			t.Errorf("%s fallback: %d fallbacks, uses %v, calls %v", g.Name, tr.Fallbacks, tr.Uses(), st.calls[:min(4, len(st.calls))])
		}
		// pull may run a level more than asked: the loop follows.
		st = &fakeStepper{double: map[Strategy]bool{Pull: true}}
		tr = run(byLevel(func(int) Strategy { return Pull }), AdaptiveOptions{MaxRun: 1}, st)
		if tr.Steps != (n+1)/2 || tr.Stale != 0 {
			t.Errorf("%s double: %d steps, want %d; %d stale", g.Name, tr.Steps, (n+1)/2, tr.Stale)
		}
	}
	// A canceled context stops it; a step that runs nothing is an error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := &fakeStepper{want: []adaptive.Counters{{Vertices: 1, Arcs: 1, MaxDegree: 1}, {Vertices: 1, Arcs: 1, MaxDegree: 1}}, queueOK: true}
	if _, err := adaptiveLoop(ctx, st, adaptive.GraphStats{Vertices: 2, Arcs: 2}, st.want[0], byLevel(func(int) Strategy { return TWC }), AdaptiveOptions{MaxRun: 1, Fallback: LBCull}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	stuck := stepperFunc(func(Strategy, int) (stepped, error) { return stepped{level: 0, frontier: 1}, nil })
	if _, err := adaptiveLoop(context.Background(), stuck, adaptive.GraphStats{Vertices: 2, Arcs: 2}, adaptive.Counters{Vertices: 1, Arcs: 1, MaxDegree: 1}, byLevel(func(int) Strategy { return TWC }), AdaptiveOptions{MaxRun: 1, Fallback: LBCull}); err == nil || !strings.Contains(err.Error(), "ran no level") {
		t.Errorf("a step that runs nothing: %v", err)
	}
}

type stepperFunc func(Strategy, int) (stepped, error)

func (f stepperFunc) step(s Strategy, k int) (stepped, error) { return f(s, k) }

// fakeSweep is the sweep's device on the CPU: a level-synchronous BFS,
// its state saved and restored, each candidate's time from a function.
type fakeSweep struct {
	g                     *graph.Graph
	ref                   []int32
	depth, parent         []int32
	level                 int
	sDepth, sParent       []int32
	sLevel                int
	time                  func(s Strategy, level, call int) time.Duration
	notApplicable, double map[Strategy]bool
	wrong                 map[Strategy]int // the level at which it errs
	badCounters           map[Strategy]bool
	tries, advances       int
	calls                 map[Strategy]int
}

func (f *fakeSweep) begin(root int32, ref []int32) error {
	n := f.g.NumVertices
	f.ref = ref
	f.depth, f.parent = make([]int32, n), make([]int32, n)
	for v := range n {
		f.depth[v], f.parent[v] = -1, -1
	}
	f.depth[root], f.parent[root], f.level = 0, root, 0
	f.calls = map[Strategy]int{}
	return nil
}

func (f *fakeSweep) save(level int, frontier int64) error {
	f.sDepth, f.sParent, f.sLevel = slices.Clone(f.depth), slices.Clone(f.parent), f.level
	if level != f.level {
		return fmt.Errorf("saved at level %d, the state is at %d", level, f.level)
	}
	return nil
}

func (f *fakeSweep) restore() error {
	f.depth, f.parent, f.level = slices.Clone(f.sDepth), slices.Clone(f.sParent), f.sLevel
	return nil
}

// stepLevel runs one level; it returns the new frontier's counters.
func (f *fakeSweep) stepLevel() adaptive.Counters {
	var c adaptive.Counters
	L := int32(f.level)
	for u := range f.g.NumVertices {
		if f.depth[u] != L {
			continue
		}
		for _, v := range f.g.Neighbors(int32(u)) {
			if f.depth[v] == -1 {
				f.depth[v], f.parent[v] = L+1, int32(u)
				d := f.g.Degree(v)
				c.Vertices++
				c.Arcs += d
				c.MaxDegree = max(c.MaxDegree, d)
			}
		}
	}
	f.level++
	return c
}

func (f *fakeSweep) try(s Strategy, L int) (trial, error) {
	f.tries++
	f.calls[s]++
	if f.notApplicable[s] {
		return trial{fail: ErrNotApplicable}, nil
	}
	c := f.stepLevel()
	tr := trial{time: f.time(s, L, f.calls[s]), level: f.level, frontier: c.Vertices, counters: c}
	if f.double[s] && c.Vertices > 0 {
		c = f.stepLevel()
		tr.level, tr.frontier, tr.counters = f.level, c.Vertices, c
	}
	if lw, ok := f.wrong[s]; ok && lw == L {
		for v, d := range f.depth {
			if d == int32(L+1) {
				f.depth[v] = -1 // forgets a vertex
				tr.frontier--
				tr.counters.Vertices--
				break
			}
		}
	}
	if f.badCounters[s] {
		tr.counters.Arcs++
	}
	if tr.level == L+1 {
		for v, d := range f.depth {
			want := f.ref[v]
			if want > int32(L+1) {
				want = -1
			}
			if d != want {
				tr.wrong++
			}
		}
	}
	return tr, nil
}

func (f *fakeSweep) advance(s Strategy, L int) (int64, error) {
	f.advances++
	return f.stepLevel().Vertices, nil
}

func (f *fakeSweep) finish() ([]int32, []int32, error) { return f.parent, f.depth, nil }

// The sweep's choices, validity, faults and rows, on a fake device whose
// candidates take known times: the oracle is the fastest valid one at
// every level, what does not apply or runs two levels is invalid but no
// fault, a wrong level or wrong counters are faults, and the rows read
// back as a sweep file.
func TestSweepRoot(t *testing.T) {
	g := testGraph(t, 9)
	root := rootOf(t, g)
	stats := adaptive.StatsOf(g)
	cands := []Strategy{Thread, TWC, VertexPushWarp, Pull, VertexPullBlock, LBCull, Edge}
	// thread is fast at the first and last levels, vertex-pull-block in
	// the middle, twc always second best; edge is slowest.
	timing := func(s Strategy, level, call int) time.Duration {
		base := map[Strategy]int{Thread: 50, TWC: 20, VertexPushWarp: 30, Pull: 10, VertexPullBlock: 40, LBCull: 25, Edge: 90}[s]
		switch {
		case s == Thread && (level == 0 || level >= 4):
			base = 5
		case s == VertexPullBlock && level > 0 && level < 4:
			base = 8
		}
		// later calls are faster (Reps keeps the least)
		return time.Duration(base*1000 - call)
	}
	f := &fakeSweep{g: g, time: timing,
		notApplicable: map[Strategy]bool{VertexPushWarp: true},
		double:        map[Strategy]bool{Pull: true},
		wrong:         map[Strategy]int{LBCull: 1},
		badCounters:   map[Strategy]bool{Edge: true}}
	r, err := sweepRoot(context.Background(), f, g, stats, root, cands, SweepOptions{Reps: 2, Warmup: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ref.BFS(g, root)
	levels := int(slices.Max(b.Depth)) + 1
	if len(r.Levels) != levels || len(r.Features) != levels || f.advances != levels {
		t.Fatalf("%d levels swept, %d features, %d advances; want %d", len(r.Levels), len(r.Features), f.advances, levels)
	}
	for _, lv := range r.Levels {
		wantChosen := Thread
		if lv.Level > 0 && lv.Level < 4 {
			wantChosen = VertexPullBlock
		}
		if r.Candidates[lv.Chosen] != wantChosen {
			t.Errorf("level %d: chose %s, want %s (%v)", lv.Level, r.Candidates[lv.Chosen], wantChosen, lv.Why)
		}
		for i, c := range cands {
			why := lv.Why[i]
			switch {
			case c == VertexPushWarp && !strings.Contains(why, "in-arcs"):
				t.Errorf("level %d %s: %q", lv.Level, c, why)
			case c == Pull && lv.Level < levels-1 && !strings.Contains(why, "ran 2 levels"):
				t.Errorf("level %d pull: %q", lv.Level, why)
			case c == Pull && lv.Level == levels-1 && why != "":
				t.Errorf("the last level's pull runs one level: %q", why)
			case c == LBCull && lv.Level == 1 && !strings.Contains(why, "wrong level"):
				t.Errorf("level 1 lb-cull: %q", why)
			case c == Edge && lv.Level < levels-1 && !strings.Contains(why, "counters"):
				t.Errorf("level %d edge: %q", lv.Level, why)
			case (c == Thread || c == TWC) && why != "":
				t.Errorf("level %d %s invalid: %q", lv.Level, c, why)
			}
		}
	}
	// faults: lb-cull at level 1, edge at every level but the last
	lb, edge := 0, 0
	for _, fault := range r.Faults {
		switch {
		case strings.Contains(fault, " lb-cull: wrong level"):
			lb++
		case strings.Contains(fault, " edge: counters"):
			edge++
		default:
			t.Errorf("fault %q", fault)
		}
	}
	if lb != 1 || edge != levels-1 || levels < 4 {
		t.Errorf("%d lb-cull and %d edge faults over %d levels: %v", lb, edge, levels, r.Faults)
	}
	// Reps keeps the least of two: twc's second call at a level is faster.
	for _, lv := range r.Levels {
		if ti := lv.Time[1]; ti >= 20*time.Microsecond {
			t.Errorf("level %d twc %v: not the least of its reps", lv.Level, ti)
		}
	}
	if fixed, ok := r.FixedTime(1); !ok || fixed < r.OracleTime() {
		t.Errorf("twc fixed %v %v, oracle %v", fixed, ok, r.OracleTime())
	}
	if _, ok := r.FixedTime(2); ok {
		t.Error("vertex-push-warp has a fixed time though it never applied")
	}
	// The rows, through the writer and the strict reader.
	rows := r.Rows()
	if len(rows) != levels*len(cands) {
		t.Fatalf("%d rows, want %d", len(rows), levels*len(cands))
	}
	info := adaptive.NewGraphInfo("kron-test", "kron", stats)
	info.Generator = "kron:scale=9,ef=8,seed=1"
	var buf bytes.Buffer
	w := adaptive.NewWriter(&buf, info)
	for _, row := range rows {
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := adaptive.ReadRows(&buf, "sweep.csv")
	if err != nil {
		t.Fatal(err)
	}
	valid := 0
	for i, row := range back {
		if row.Valid != rows[i].Valid || row.Candidate != rows[i].Candidate || row.Valid && row.TimeUS != rows[i].TimeUS || !row.Valid && !math.IsNaN(row.TimeUS) {
			t.Fatalf("row %d: %+v, wrote %+v", i, row, rows[i])
		}
		if row.Valid {
			valid++
		}
	}
	if valid < 2*levels {
		t.Errorf("%d valid rows", valid)
	}
	// A level that no candidate runs ends the sweep with what it swept.
	f2 := &fakeSweep{g: g, time: timing, notApplicable: map[Strategy]bool{Pull: true, VertexPullBlock: true}}
	r2, err := sweepRoot(context.Background(), f2, g, stats, root, []Strategy{Pull, VertexPullBlock}, SweepOptions{})
	if err == nil || !strings.Contains(err.Error(), "no candidate ran level 0") || len(r2.Levels) != 0 {
		t.Errorf("no valid candidate: %v, %d levels", err, len(r2.Levels))
	}
}

// The sweep writes its rows to a sweep file that ReadSweep accepts
// (Create and Close), with the sidecar a command would write.
func TestSweepFile(t *testing.T) {
	g := testGraph(t, 8)
	root := rootOf(t, g)
	stats := adaptive.StatsOf(g)
	f := &fakeSweep{g: g, time: func(s Strategy, level, call int) time.Duration { return time.Duration(int(s)*1000 + level) }}
	r, err := sweepRoot(context.Background(), f, g, stats, root, []Strategy{Thread, TWC, DOBeamer}, SweepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	info := adaptive.NewGraphInfo("kron8", "kron", stats)
	info.Generator, info.Device = "kron:scale=8,ef=8,seed=1", "fake"
	w, err := adaptive.Create(dir, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range r.Rows() {
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := adaptive.ReadSweep(dir + "/kron8.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 3*len(r.Levels) {
		t.Fatalf("%d rows read", len(s.Rows))
	}
	d, err := adaptive.NewDataset(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Samples) != len(r.Levels) || !slices.Equal(d.Candidates, []string{"do-beamer", "thread", "twc"}) {
		t.Errorf("dataset: %d samples, candidates %v", len(d.Samples), d.Candidates)
	}
	if _, err := os.Stat(dir + "/kron8.json"); err != nil {
		t.Error(err)
	}
}
