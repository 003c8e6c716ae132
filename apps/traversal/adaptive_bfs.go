package traversal

// The adaptive BFS: a strategy chosen per level from the level's features
// (package adaptive), on counted levels. See the package documentation,
// section "Per-level adaptive BFS".

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
)

// A Chooser picks the strategy that runs a BFS level from the level's
// features. It must be cheap: the host calls it between levels.
type Chooser interface {
	Choose(f *adaptive.Features) Strategy
}

// ModelChooser is a trained model's choice: its candidates mapped to the
// engine's strategies once (NewModelChooser), then a walk of its tree
// per level.
type ModelChooser struct {
	Model      *adaptive.Model
	Strategies []Strategy // Strategies[i] is Model.Candidates[i]
}

// NewModelChooser maps the model's candidates to strategies. It refuses a
// candidate this engine lacks (a name no strategy has, as a model trained
// on another build's sweeps may hold) and one that cannot run a level at a
// time (PerLevel), naming it and what to do.
func NewModelChooser(m *adaptive.Model) (*ModelChooser, error) {
	if m == nil {
		return nil, errors.New("traversal: no model")
	}
	c := &ModelChooser{Model: m, Strategies: make([]Strategy, len(m.Candidates))}
	for i, name := range m.Candidates {
		s, err := ParseStrategy(name)
		if err != nil {
			return nil, fmt.Errorf("traversal: the model's candidate %q is not a strategy of this engine: retrain the model ('spac traverse train') on sweeps of this build's strategies ('spac traverse sweep'), whose BFS strategies are %s", name, strings.Join(perLevelNames(), ", "))
		}
		if !s.PerLevel() {
			return nil, fmt.Errorf("traversal: the model's candidate %s cannot run one BFS level at a time (a persistent kernel, an offline schedule or a negative test): retrain the model without it", s)
		}
		c.Strategies[i] = s
	}
	return c, nil
}

// Choose walks the model's tree.
func (c *ModelChooser) Choose(f *adaptive.Features) Strategy { return c.Strategies[c.Model.Predict(f)] }

// perLevelNames are the names of the strategies a model may choose.
func perLevelNames() []string {
	var out []string
	for _, s := range Strategies() {
		if s.PerLevel() {
			out = append(out, s.String())
		}
	}
	return out
}

// PerLevelStrategies are the strategies that may run a level of an
// adaptive search or of the oracle sweep (PerLevel), in the table's order:
// the sweep's default candidates.
func PerLevelStrategies() []Strategy {
	var out []Strategy
	for _, s := range Strategies() {
		if s.PerLevel() {
			out = append(out, s)
		}
	}
	return out
}

// AdaptiveOptions tune BFSAdaptive; the zero value takes the defaults.
type AdaptiveOptions struct {
	// MaxRun is the most levels one choice runs in one captured graph (0:
	// the engine's LevelsPerGraph; 1 decides every level alone). A run
	// starts at one level and doubles while the chooser keeps picking the
	// same strategy at every level the run covered and at the next: a
	// road graph's thousands of alike levels then cost a host round trip
	// per run, not per level, and a Kronecker graph's few distinct ones
	// are each decided alone.
	MaxRun int
	// Fallback runs a level whose choice does not apply to the graph (a
	// pull on a directed graph without in-arcs); 0: lb-cull.
	Fallback Strategy
	// Host decides every level on the host, a captured graph per
	// decision, even where the device could decide (a ModelChooser whose
	// candidates all have a body in ad_level: OnDevice). MaxRun and
	// Fallback apply to the host's loop only.
	Host bool
}

func (o *AdaptiveOptions) fill(e *Engine) error {
	if o.MaxRun == 0 {
		o.MaxRun = e.opt.LevelsPerGraph
	}
	if o.Fallback == 0 {
		o.Fallback = LBCull
	}
	if o.MaxRun < 1 || o.MaxRun > maxLevelsK {
		return fmt.Errorf("traversal: adaptive runs of %d levels: want 1 to %d", o.MaxRun, maxLevelsK)
	}
	if !o.Fallback.PerLevel() {
		return fmt.Errorf("traversal: adaptive fallback %s cannot run one BFS level at a time", o.Fallback)
	}
	return nil
}

// AdaptiveTrace is what an adaptive search chose and ran, level by level
// (index = level).
type AdaptiveTrace struct {
	// Chosen is the chooser's pick from each level's own features; Ran
	// the strategy that ran the level: the pick, but for a level inside a
	// run decided at its first level (Stale) or a pick that did not apply
	// (Fallbacks).
	Chosen, Ran []Strategy
	Counters    []adaptive.Counters
	Features    []adaptive.Features
	// Steps is the captured graphs launched, each a host round trip.
	Steps int
	// Stale is the levels run by another strategy than their own pick;
	// Fallbacks those run by the fallback for a pick that does not apply;
	// Rebuilds the queues rebuilt from the stamps before a level that
	// reads one, after a level that wrote none.
	Stale, Fallbacks, Rebuilds int
	// Disagree (decided on the device) is the levels whose body the
	// device chose differs from the host's walk of the same tree on the
	// same features: 0 unless the two walks differ.
	Disagree int
	// OnDevice says the device decided the levels (ad_level); Steps is
	// then 0, as nothing waited for the host.
	OnDevice bool
	// HandOff (decided on the device) is the first level the persistent
	// strategy's kernel ran, with every level after it (0: none; see
	// Options.PersistentAfter): their Ran and Chosen say Persistent, their
	// Counters and Features are zero (that kernel keeps none); the level
	// HandOff's own counters and features are the device's.
	HandOff int
	// Times (decided on the device) is each level's time by the device's
	// global timer, from the level's opening (its body chosen, the
	// control words written) to its last block's end: the closing and
	// the grid's barrier fall in the level after; 0 where not known (the
	// levels handed to the persistent kernel).
	Times []time.Duration
	// Yields (decided on the device) is the heavy levels (or do-beamer's
	// second passes) run by a kernel of their own (Options.OwnKernelArcs).
	Yields int
	// Predict is the host's time in the chooser, over every level.
	Predict time.Duration
}

// Uses counts the levels each strategy ran.
func (t *AdaptiveTrace) Uses() map[Strategy]int {
	m := map[Strategy]int{}
	for _, s := range t.Ran {
		m[s]++
	}
	return m
}

// Summary lists the strategies that ran, most levels first: "lb-cull x3,
// do-beamer x2".
func (t *AdaptiveTrace) Summary() string { return UsesSummary(t.Uses()) }

// UsesSummary lists the strategies of a count of levels, most levels
// first, ties in the table's order: "lb-cull x3, do-beamer x2".
func UsesSummary(uses map[Strategy]int) string {
	ss := make([]Strategy, 0, len(uses))
	for s := range uses {
		ss = append(ss, s)
	}
	slices.SortFunc(ss, func(a, b Strategy) int {
		if uses[a] != uses[b] {
			return uses[b] - uses[a]
		}
		return int(a) - int(b)
	})
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%s x%d", s, uses[s])
	}
	return strings.Join(parts, ", ")
}

// stepper runs the levels of one search for the adaptive loop: the engine
// on the device (deviceStepper), or a fake in the tests.
type stepper interface {
	// step runs up to k levels of s from the current state (fewer when
	// the search ends; pull may run one more) in one captured graph.
	step(s Strategy, k int) (stepped, error)
}

// stepped is what a step did.
type stepped struct {
	level    int                 // the level the search is at after the step
	frontier int64               // its frontier's vertices; 0: the search is over
	counters []adaptive.Counters // the counters of the new frontiers, level after level (the empty last one left out)
	rebuilt  bool                // the step began by rebuilding its queue
}

// adaptiveLoop chooses and runs the levels of one search: it describes
// each level from its counters (a Tracker: O(1) per level), asks the
// chooser, and runs the pick for a run of levels (AdaptiveOptions.MaxRun);
// a pick that does not apply is replaced by the fallback for the rest of
// the search. The host waits for each step's post (a round trip of about
// 10 to 20 us, against a few ns for the choice): the levels of a run wait
// for no one.
func adaptiveLoop(ctx context.Context, st stepper, stats adaptive.GraphStats, root adaptive.Counters, ch Chooser, opt AdaptiveOptions) (*AdaptiveTrace, error) {
	tr := &AdaptiveTrace{}
	tk := adaptive.NewTracker(stats)
	add := func(c adaptive.Counters) {
		tr.Counters = append(tr.Counters, c)
		tr.Features = append(tr.Features, tk.Next(c))
		start := time.Now()
		s := ch.Choose(&tr.Features[len(tr.Features)-1])
		tr.Predict += time.Since(start)
		tr.Chosen = append(tr.Chosen, s)
	}
	add(root)
	bad := map[Strategy]bool{} // picks that do not apply to the graph
	level, run := 0, 1
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := tr.Chosen[level]
		if bad[s] {
			s = opt.Fallback
		}
		out, err := st.step(s, run)
		if errors.Is(err, ErrNotApplicable) && s != opt.Fallback {
			bad[s] = true
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("traversal: adaptive bfs, level %d, %s: %w", level, s, err)
		}
		tr.Steps++
		if out.rebuilt {
			tr.Rebuilds++
		}
		if out.level <= level {
			return nil, fmt.Errorf("traversal: adaptive bfs: a step of %s at level %d ran no level", s, level)
		}
		for _, c := range out.counters {
			add(c)
		}
		want := out.level + 1
		if out.frontier == 0 {
			want = out.level
		}
		if len(tr.Features) != want {
			return nil, fmt.Errorf("traversal: adaptive bfs: %d levels described after a step of %s to level %d (frontier %d): want %d", len(tr.Features), s, out.level, out.frontier, want)
		}
		agree := true
		for l := level; l < out.level; l++ {
			tr.Ran = append(tr.Ran, s)
			switch {
			case tr.Chosen[l] == s:
			case bad[tr.Chosen[l]] && s == opt.Fallback:
				tr.Fallbacks++
			default:
				tr.Stale++
				agree = false
			}
		}
		if out.frontier == 0 {
			return tr, nil
		}
		if agree && tr.Chosen[out.level] == tr.Chosen[level] {
			run = min(2*run, opt.MaxRun)
		} else {
			run = 1
		}
		level = out.level
	}
}

// deviceStepper is the engine's stepper: counted graphs of one strategy,
// launched one at a time, each awaited.
type deviceStepper struct {
	e         *Engine
	level     int
	queueOK   bool // the current level's queue is whole
	inspected int64
	last      posted
}

func (d *deviceStepper) step(s Strategy, k int) (stepped, error) {
	e := d.e
	var mode planMode
	if readsQueue(s) && !d.queueOK {
		mode |= modeRebuild
	}
	g, err := e.planCounted(s, k, mode)
	if err != nil {
		return stepped{}, err
	}
	if err := g.Launch(); err != nil {
		return stepped{}, err
	}
	e.posts++
	p, err := e.awaitPost(e.posts)
	if err != nil {
		return stepped{}, err
	}
	cs, err := e.postCounters(d.level, p)
	if err != nil {
		return stepped{}, err
	}
	d.level, d.queueOK, d.inspected, d.last = p.level, leavesQueue(s), p.inspected, p
	return stepped{level: p.level, frontier: p.frontier, counters: cs, rebuilt: mode&modeRebuild != 0}, nil
}

// stats are the graph's features (computed once).
func (e *Engine) stats() adaptive.GraphStats {
	if e.ad == nil {
		e.ad = &adaptState{}
	}
	if !e.ad.haveStats {
		e.ad.gstats, e.ad.haveStats = adaptive.StatsOf(e.g), true
	}
	return e.ad.gstats
}

// BFSAdaptive runs a BFS from root whose every level runs the strategy ch
// picks from the level's features (package adaptive: computed in O(1) per
// level from the level's counters), and returns the result (Strategy
// zero) and the trace of the choices. Where ch is a ModelChooser that can
// run on the device (OnDevice) and opt.Host is not set, the device decides
// every level itself in one launch of ad_persist (ondevice.go): no host
// round trip. Otherwise the host decides: the levels are counted (each
// ends with its counter step, see BFSCounters), a level that reads a queue
// after one that wrote none starts by rebuilding it from the stamps (O(n)),
// and the host waits for every step (one captured graph: a level, or a run
// of levels, AdaptiveOptions.MaxRun), about 15 us of round trip on the
// H100, against a few ns per choice (Predict). The result's time, between
// CUDA events around the search, includes those waits.
func (e *Engine) BFSAdaptive(ctx context.Context, root int32, ch Chooser, opt AdaptiveOptions) (*Result, *AdaptiveTrace, error) {
	if ch == nil {
		return nil, nil, errors.New("traversal: adaptive bfs without a chooser")
	}
	if e == nil || e.mod == nil {
		return nil, nil, errors.New("traversal: a closed engine")
	}
	if err := opt.fill(e); err != nil {
		return nil, nil, err
	}
	if mc, ok := ch.(*ModelChooser); ok && !opt.Host {
		if can, _ := mc.OnDevice(); can {
			r, tr, err := e.bfsOnDevice(ctx, root, mc)
			if !errors.Is(err, ErrNotApplicable) { // a directed graph without in-arcs: the host's loop
				return r, tr, err
			}
		}
	}
	if err := e.beginCounted(root); err != nil {
		return nil, nil, err
	}
	if err := e.timer.Start(); err != nil {
		return nil, nil, err
	}
	st := &deviceStepper{e: e, queueOK: true}
	tr, err := adaptiveLoop(ctx, st, e.stats(), adaptive.RootCounters(e.g, root), ch, opt)
	if err != nil {
		_ = e.d.Sync("an adaptive traversal that failed")
		return nil, nil, err
	}
	if err := e.timer.Stop(); err != nil {
		return nil, nil, err
	}
	r, err := e.finishBFS(root, 0, st.last)
	if err != nil {
		return nil, nil, err
	}
	return r, tr, nil
}
