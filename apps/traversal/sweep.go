package traversal

// The oracle sweep: every candidate strategy timed at every level of a
// BFS, each from the same saved state, checked against the CPU reference;
// the search advances with the fastest. Its rows are package adaptive's
// training data. See the package documentation, section "Per-level
// adaptive BFS".

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/validate"
	"github.com/spac-gpu/spac/gpu"
)

// SweepOptions tune SweepBFS; the zero value takes the defaults.
type SweepOptions struct {
	// Reps is how many times each candidate runs each level, the least
	// time kept (default 1).
	Reps int
	// Warmup runs every candidate once at level 0, untimed, before the
	// timed runs: the first launch of a captured graph costs more.
	Warmup bool
	// OnDevice times every candidate with a body in ad_level (the
	// paper's implementations and do-beamer) as that body, the way a
	// search decided on the device runs it (one launch a level, two for a
	// top-down do-beamer level with big vertices; the frontier from the
	// queue only after the root's level or one that do-beamer advanced,
	// from the stamps otherwise), instead of as its own kernels: the data
	// for a model that runs on the device.
	OnDevice bool
}

// SweepLevel is one level of a swept search.
type SweepLevel struct {
	Level int
	// Time is each candidate's device time for the level (CUDA events
	// around its captured graph: the level, its counter step and the
	// post); 0 where Why is set.
	Time []time.Duration
	// Why says why a candidate's time is not valid ("" where it is):
	// it does not apply to the graph, ran more than one level in one
	// step, or gave a wrong result (also in SweepRoot.Faults).
	Why []string
	// Chosen is the fastest valid candidate: the per-level oracle, with
	// which the search advanced.
	Chosen int
}

// Cost is what choosing candidate c costs at this level: its time, or,
// where it has none (or c < 0: a candidate not swept), the level's
// slowest valid time, as package adaptive's training charges it
// (Sample.Cost).
func (lv *SweepLevel) Cost(c int) time.Duration {
	if c >= 0 && lv.Why[c] == "" {
		return lv.Time[c]
	}
	var hi time.Duration
	for i, t := range lv.Time {
		if lv.Why[i] == "" {
			hi = max(hi, t)
		}
	}
	return hi
}

// SweepRoot is the sweep of one search.
type SweepRoot struct {
	Root       int32
	Candidates []Strategy
	// Features are every level's (FromDepths of the reference's depths),
	// index = level; Levels the levels swept, all of them unless the
	// sweep stopped at a level that no candidate ran validly.
	Features []adaptive.Features
	Levels   []SweepLevel
	// Faults are the wrong results: a candidate whose level differs from
	// the reference (depths, parents, the new frontier or its counters).
	// Each is a bug, not a property of the graph.
	Faults []string
}

// Rows are the sweep's rows for adaptive.Writer: one per level and
// candidate, the graph and family left for the writer to fill.
func (r *SweepRoot) Rows() []adaptive.Row {
	var rows []adaptive.Row
	for _, lv := range r.Levels {
		for i, c := range r.Candidates {
			row := adaptive.Row{Root: int64(r.Root), Features: r.Features[lv.Level], Candidate: c.String(), TimeUS: math.NaN()}
			if lv.Why[i] == "" {
				row.TimeUS, row.Valid = float64(lv.Time[i].Nanoseconds())/1e3, true
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// OracleTime is the per-level oracle's time: the chosen candidate's at
// every level swept.
func (r *SweepRoot) OracleTime() time.Duration {
	var t time.Duration
	for _, lv := range r.Levels {
		t += lv.Time[lv.Chosen]
	}
	return t
}

// FixedTime is candidate i's time over every level swept, false when it
// was not valid at one of them.
func (r *SweepRoot) FixedTime(i int) (time.Duration, bool) {
	var t time.Duration
	for _, lv := range r.Levels {
		if lv.Why[i] != "" {
			return 0, false
		}
		t += lv.Time[i]
	}
	return t, true
}

// sweepDevice is what the sweep drives: the engine (engineSweep) or a
// fake in the tests.
type sweepDevice interface {
	// begin starts a search from root; ref are the reference's depths,
	// which try checks each level against.
	begin(root int32, ref []int32) error
	// save keeps the state before level (its frontier has that many
	// vertices, the queue whole); restore goes back to it.
	save(level int, frontier int64) error
	restore() error
	// try runs one step of s from the current state, timed, and checks
	// its level; the error is the device's, which ends the sweep (what
	// is the candidate's own goes in trial.fail).
	try(s Strategy, level int) (trial, error)
	// advance runs one level of s from the current state and makes the
	// next level's queue whole; it returns the new frontier's vertices.
	advance(s Strategy, level int) (int64, error)
	// finish returns the search's arrays.
	finish() (parent, depth []int32, err error)
}

// trial is one timed step of a candidate.
type trial struct {
	time     time.Duration
	level    int   // the level the step reached
	frontier int64 // the new frontier's vertices
	counters adaptive.Counters
	wrong    int64 // vertices the check found wrong (after one level)
	fail     error // the candidate could not run the level (does not apply, overflowed)
	cerr     error // its counters were not posted
}

// levelCounters are the counters of every level of a finished BFS's
// depths (index = level).
func levelCounters(g *graph.Graph, depth []int32) []adaptive.Counters {
	var out []adaptive.Counters
	for v, d := range depth {
		if d < 0 {
			continue
		}
		for int(d) >= len(out) {
			out = append(out, adaptive.Counters{})
		}
		deg := g.Offsets[v+1] - g.Offsets[v]
		c := &out[d]
		c.Vertices++
		c.Arcs += deg
		c.MaxDegree = max(c.MaxDegree, deg)
	}
	return out
}

// judge says why a trial of level is not valid ("" when it is) and
// whether that is a fault (a wrong result) rather than a limit.
func judge(tr trial, level int, want []adaptive.Counters) (string, bool) {
	var wantF int64
	if level+1 < len(want) {
		wantF = want[level+1].Vertices
	}
	switch {
	case tr.fail != nil:
		return tr.fail.Error(), false
	case tr.level != level+1:
		return fmt.Sprintf("ran %d levels in one step", tr.level-level), false
	case tr.wrong != 0:
		return fmt.Sprintf("wrong level: %d vertices' depths or parents differ from the reference's", tr.wrong), true
	case tr.frontier != wantF:
		return fmt.Sprintf("next frontier of %d vertices, the reference's has %d", tr.frontier, wantF), true
	case wantF > 0 && tr.cerr != nil:
		return tr.cerr.Error(), true
	case wantF > 0 && tr.counters != want[level+1]:
		return fmt.Sprintf("counters %+v, the reference's %+v", tr.counters, want[level+1]), true
	case tr.time <= 0:
		return "no time measured", true
	}
	return "", false
}

// sweepRoot sweeps the search from root: at every level every candidate
// from the same saved state, then the fastest valid one advances it.
// The reference's depths give the features (FromDepths) and check each
// candidate's level; the finished search passes the Graph500 rules.
func sweepRoot(ctx context.Context, dev sweepDevice, g *graph.Graph, stats adaptive.GraphStats, root int32, cands []Strategy, opt SweepOptions) (*SweepRoot, error) {
	b, err := ref.BFS(g, root)
	if err != nil {
		return nil, err
	}
	feats, err := adaptive.FromDepths(g, stats, b.Depth)
	if err != nil {
		return nil, err
	}
	want := levelCounters(g, b.Depth)
	r := &SweepRoot{Root: root, Candidates: slices.Clone(cands), Features: feats}
	if err := dev.begin(root, b.Depth); err != nil {
		return nil, err
	}
	reps := max(opt.Reps, 1)
	frontier := int64(1)
	for L := range feats {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		if err := dev.save(L, frontier); err != nil {
			return r, err
		}
		fresh := true // the state is the saved one
		try := func(s Strategy) (trial, error) {
			if !fresh {
				if err := dev.restore(); err != nil {
					return trial{}, err
				}
			}
			fresh = false
			return dev.try(s, L)
		}
		if opt.Warmup && L == 0 {
			for _, c := range cands {
				if _, err := try(c); err != nil {
					return r, err
				}
			}
		}
		lv := SweepLevel{Level: L, Time: make([]time.Duration, len(cands)), Why: make([]string, len(cands)), Chosen: -1}
		for i, c := range cands {
			for range reps {
				tr, err := try(c)
				if err != nil {
					return r, fmt.Errorf("traversal: sweep from %d, level %d, %s: %w", root, L, c, err)
				}
				why, fault := judge(tr, L, want)
				if why != "" {
					lv.Time[i], lv.Why[i] = 0, why
					if fault {
						r.Faults = append(r.Faults, fmt.Sprintf("root %d level %d %s: %s", root, L, c, why))
					}
					break
				}
				if lv.Time[i] == 0 || tr.time < lv.Time[i] {
					lv.Time[i] = tr.time
				}
			}
			if lv.Why[i] == "" && (lv.Chosen < 0 || lv.Time[i] < lv.Time[lv.Chosen]) {
				lv.Chosen = i
			}
		}
		if lv.Chosen < 0 {
			var why []string
			for i, c := range cands {
				why = append(why, c.String()+": "+lv.Why[i])
			}
			return r, fmt.Errorf("traversal: sweep from %d: no candidate ran level %d validly (%s)", root, L, strings.Join(why, "; "))
		}
		r.Levels = append(r.Levels, lv)
		if !fresh {
			if err := dev.restore(); err != nil {
				return r, err
			}
		}
		if frontier, err = dev.advance(cands[lv.Chosen], L); err != nil {
			return r, fmt.Errorf("traversal: sweep from %d, advancing level %d with %s: %w", root, L, cands[lv.Chosen], err)
		}
	}
	if frontier != 0 {
		return r, fmt.Errorf("traversal: sweep from %d: %d vertices in the frontier after the reference's last level", root, frontier)
	}
	parent, depth, err := dev.finish()
	if err != nil {
		return r, err
	}
	if err := validate.BFS(g, root, parent, depth); err != nil {
		return r, fmt.Errorf("traversal: sweep from %d: the search the oracle advanced: %w", root, err)
	}
	if err := validate.SameDepths(depth, b.Depth); err != nil {
		return r, fmt.Errorf("traversal: sweep from %d: %w", root, err)
	}
	return r, nil
}

// sweepState is the sweep's saved state and scratch on the device.
type sweepState struct {
	depth, parent, visited, queue, ctl *gpu.Buffer
	ref, bad                           *gpu.Buffer
	iv                                 *gpu.Interval
}

func (s *sweepState) close() {
	if s != nil && s.iv != nil {
		s.iv.Close()
		s.iv = nil
	}
}

// needSweep allocates the sweep's buffers (once): a copy of the depths,
// parents, visited bitmap, a queue and the control block, the reference's
// depths and a counter.
func (e *Engine) needSweep() error {
	if err := e.needRing(); err != nil {
		return err
	}
	if e.ad.sweep != nil {
		return nil
	}
	s := &sweepState{}
	words := (e.n + 31) / 32
	for _, a := range []struct {
		b     **gpu.Buffer
		bytes int64
		what  string
	}{
		{&s.depth, 4 * e.n, "the sweep's saved depths"},
		{&s.parent, 4 * e.n, "the sweep's saved parents"},
		{&s.visited, 4 * words, "the sweep's saved visited bitmap"},
		{&s.queue, 4 * int64(e.qcap), "the sweep's saved queue"},
		{&s.ctl, 4 * ctlWords, "the sweep's saved control block"},
		{&s.ref, 4 * e.n, "the reference's depths"},
		{&s.bad, 8, "the sweep's check count"},
	} {
		if err := e.alloc(a.b, a.bytes, a.what); err != nil {
			return err
		}
	}
	var err error
	if s.iv, err = e.d.NewInterval(); err != nil {
		return err
	}
	e.ad.sweep = s
	return nil
}

// engineSweep is the sweep on the engine.
type engineSweep struct {
	e        *Engine
	level    int   // the saved state's level
	frontier int64 // and its frontier's entries
	onDevice bool  // SweepOptions.OnDevice
	// queued (OnDevice): the level before wrote a queue as ad_level's
	// bodies would (the root's level, or one do-beamer advanced); the
	// device's bodies read the stamps otherwise, as in a search.
	queued bool
}

func (w *engineSweep) launch(name string, grid, block int, args ...uint64) error {
	l, err := w.e.ad.mod.Launch(name, grid, block, 0, args...)
	if err != nil {
		return err
	}
	return l.Run()
}

func (w *engineSweep) copyWords(dst, src *gpu.Buffer, words int64) error {
	if words <= 0 {
		return nil
	}
	return w.launch("copy_words", w.e.grid(words), threads, gpu.Ptr(dst), gpu.Ptr(src), uint64(words))
}

// queue is the input queue of level L.
func (w *engineSweep) queue(L int) *gpu.Buffer {
	if L&1 != 0 {
		return w.e.q1
	}
	return w.e.q0
}

func (w *engineSweep) begin(root int32, refDepth []int32) error {
	w.queued = true
	if err := w.e.beginCounted(root); err != nil {
		return err
	}
	return gpu.Write(w.e.ad.sweep.ref, refDepth, "the reference's depths")
}

// copyState copies the search's state to the saved one (save) or back.
func (w *engineSweep) copyState(save bool) error {
	e, s := w.e, w.e.ad.sweep
	words := (e.n + 31) / 32
	pairs := []struct {
		live, saved *gpu.Buffer
		words       int64
	}{{e.depth, s.depth, e.n}, {e.parent, s.parent, e.n}, {e.mark, s.visited, words}, {w.queue(w.level), s.queue, w.frontier}}
	for _, p := range pairs {
		dst, src := p.saved, p.live
		if !save {
			dst, src = p.live, p.saved
		}
		if err := w.copyWords(dst, src, p.words); err != nil {
			return err
		}
	}
	dst, src := s.ctl, e.ctl
	if !save {
		dst, src = e.ctl, s.ctl
	}
	return w.launch("ctl_copy", 1, ctlWords, gpu.Ptr(dst), gpu.Ptr(src))
}

func (w *engineSweep) save(level int, frontier int64) error {
	w.level, w.frontier = level, frontier
	return w.copyState(true)
}

func (w *engineSweep) restore() error { return w.copyState(false) }

// judged are the errors of a step that are the candidate's, not the
// device's: it does not apply, or it overflowed a queue.
func judged(err error) bool {
	return errors.Is(err, ErrNotApplicable) || errors.Is(err, errNotPerLevel) || errors.Is(err, errOverflow)
}

func (w *engineSweep) try(s Strategy, L int) (trial, error) {
	e, sw := w.e, w.e.ad.sweep
	g, err := e.planCounted(s, 1, 0)
	if body, ok := deviceBody(s); ok && w.onDevice {
		g, err = e.planDeviceLevel(body, w.queued)
	}
	if judged(err) {
		return trial{fail: err}, nil
	}
	if err != nil {
		return trial{}, err
	}
	if err := w.launch("ring_clear", 1, ringWords, e.ad.ring.Arg(), gpu.Int(L+1)); err != nil {
		return trial{}, err
	}
	if err := sw.iv.Start(); err != nil {
		return trial{}, err
	}
	if err := g.Launch(); err != nil {
		return trial{}, err
	}
	e.posts++
	if err := sw.iv.Stop(); err != nil {
		return trial{}, err
	}
	p, err := e.awaitPost(e.posts)
	if judged(err) {
		return trial{fail: err}, e.d.Sync("a sweep's failed step")
	}
	if err != nil {
		return trial{}, err
	}
	tr := trial{level: p.level, frontier: p.frontier}
	if tr.time, err = sw.iv.Elapsed(); err != nil {
		return trial{}, err
	}
	if p.level != L+1 {
		return tr, nil
	}
	if err := sw.bad.Zero(); err != nil {
		return trial{}, err
	}
	if err := w.launch("level_check", e.grid(max(e.n, 1)), threads, gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(sw.ref),
		gpu.Int(int(e.n)), gpu.Int(L+1), gpu.Ptr(sw.bad)); err != nil {
		return trial{}, err
	}
	var bad [1]int64
	if err := gpu.Download(sw.bad, bad[:], "the sweep's check count"); err != nil {
		return trial{}, err
	}
	tr.wrong = bad[0]
	if p.frontier > 0 {
		tr.counters, tr.cerr = e.ringCounters(L + 1)
	}
	return tr, nil
}

func (w *engineSweep) advance(s Strategy, L int) (int64, error) {
	e := w.e
	w.queued = s == DOBeamer
	g, err := e.planCounted(s, 1, 0)
	if err != nil {
		return 0, err
	}
	if err := g.Launch(); err != nil {
		return 0, err
	}
	e.posts++
	p, err := e.awaitPost(e.posts)
	if err != nil {
		return 0, err
	}
	if p.level != L+1 {
		return 0, fmt.Errorf("reached level %d", p.level)
	}
	if p.frontier > 0 && !leavesQueue(s) {
		l, err := e.rebuildLaunch(false)
		if err != nil {
			return 0, err
		}
		if err := l.Run(); err != nil {
			return 0, err
		}
	}
	return p.frontier, nil
}

func (w *engineSweep) finish() (parent, depth []int32, err error) {
	e := w.e
	parent, depth = make([]int32, e.n), make([]int32, e.n)
	if err := gpu.Download(e.depth, depth, "the depths"); err != nil {
		return nil, nil, err
	}
	if err := gpu.Download(e.parent, parent, "the parents"); err != nil {
		return nil, nil, err
	}
	return parent, depth, nil
}

// SweepBFS is the oracle sweep of one search from root: at every level,
// every candidate runs the level from the same state saved on the device
// before it (depths, parents, visited bitmap, queue, control block),
// timed by CUDA events around its captured graph (the level, its counter
// step, the post), and is checked against the CPU reference (the depths
// and parents after the level, the new frontier and its counters); then
// the fastest valid one advances the search, whose end is validated by
// the Graph500 rules. Each candidate starts from a whole queue and the
// stamps, so a queue rebuild that an adaptive search pays when it
// switches from a strategy that writes none is not in the times. A
// candidate that runs two levels in one step (pull, where its push
// closes a level that its pull then expands) is not valid at that level.
// Candidates must be PerLevel. The sweep is slow (a copy of the state and
// a check per candidate and level): it makes training data, not runs.
func (e *Engine) SweepBFS(ctx context.Context, root int32, cands []Strategy, opt SweepOptions) (*SweepRoot, error) {
	if e == nil || e.mod == nil {
		return nil, errors.New("traversal: a closed engine")
	}
	if len(cands) == 0 {
		return nil, errors.New("traversal: a sweep of no candidate")
	}
	for i, c := range cands {
		if !c.PerLevel() {
			return nil, fmt.Errorf("traversal: sweep candidate %s cannot run one BFS level at a time", c)
		}
		if slices.Contains(cands[:i], c) {
			return nil, fmt.Errorf("traversal: sweep candidate %s twice", c)
		}
	}
	if root < 0 || int64(root) >= e.n {
		return nil, fmt.Errorf("traversal: root %d outside the %d vertices of %s", root, e.n, e.g.Name)
	}
	if err := e.needSweep(); err != nil {
		return nil, err
	}
	r, err := sweepRoot(ctx, &engineSweep{e: e, onDevice: opt.OnDevice}, e.g, e.stats(), root, cands, opt)
	if err != nil {
		_ = e.d.Sync("a sweep that failed")
	}
	return r, err
}
