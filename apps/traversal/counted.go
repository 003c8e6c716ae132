package traversal

// Counted BFS levels: every level's next frontier described by three
// counters (vertices, the sum and the largest of their out-degrees,
// package adaptive's Counters), posted to a ring in mapped host memory
// beside the level loop's mail; the adaptive loop, the oracle sweep and
// BFSCounters read them. See the package documentation, section
// "Per-level adaptive BFS".

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/gpu"
)

// planMode says what a captured graph adds to its strategy's levels.
type planMode uint8

const (
	// modeCounted: each level's counters posted to the ring (the
	// strategy's own kernels count, or a counter step follows the level).
	modeCounted planMode = 1 << iota
	// modeRebuild: the graph's first level is preceded by a rebuild of
	// its input queue from the depth stamps (the level before wrote none).
	modeRebuild
)

// PerLevel says whether s runs BFS one level at a time from the state any
// other strategy's level leaves (the stamps, the visited bitmap, and the
// queue where it reads one): what a candidate of the adaptive loop and of
// the oracle sweep must. Not the persistent strategies (one kernel runs
// every level), nor spac-schedule (its block stamps are its own state).
func (s Strategy) PerLevel() bool {
	switch s {
	case Persistent, PersistentTWC, SpacSchedule:
		return false
	}
	return s.Supports(BFS) && !s.Negative()
}

// readsQueue says that a level of s reads its input queue (the others read
// the frontier from the depth stamps).
func readsQueue(s Strategy) bool {
	switch s {
	case Thread, LB, LBCull, TWC, Hierarchical, Pull, DOBeamer:
		return true
	}
	return false
}

// counterStep is how a counted level of a strategy posts its counters.
type counterStep uint8

const (
	stepInline  counterStep = iota // its own kernels count (adaptive.cu)
	stepQueue                      // queue_counters over the queue it wrote, each vertex once: O(frontier)
	stepRebuild                    // frontier_rebuild: it wrote no queue, or one with duplicates (lb): O(n), and the queue is whole after
)

func counterStepOf(s Strategy) counterStep {
	switch {
	case s.Paper() || s == DOBeamer:
		return stepInline
	case s == Thread || s == LBCull || s == TWC || s == Hierarchical || s == Pull:
		return stepQueue
	}
	return stepRebuild
}

// leavesQueue says that after a counted level of s the next level's queue
// is whole (written by the level or by its counter step). Not do-beamer's:
// its pulled levels write none (its own next level rebuilds it when it
// turns to pushing).
func leavesQueue(s Strategy) bool { return counterStepOf(s) != stepInline }

// countedLevel is a level of s whose counters reach the ring: the paper's
// kernels count themselves; traversal.cu's strategies get a counter step
// after the launch that closes the level (after each of pull's two, either
// of which may close one).
func (e *Engine) countedLevel(s Strategy) ([]func() error, error) {
	if counterStepOf(s) == stepInline {
		return e.paperLevel(s, true)
	}
	body, err := e.level(BFS, s)
	if err != nil {
		return nil, err
	}
	ring := e.ad.ring.Arg()
	var step *gpu.Launch
	if counterStepOf(s) == stepQueue {
		step, err = e.ad.mod.Launch("queue_counters", e.grid(max(e.n, 1)), threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.ctl),
			gpu.Ptr(e.q0), gpu.Ptr(e.q1), ring)
	} else {
		step, err = e.rebuildLaunch(true)
	}
	if err != nil {
		return nil, err
	}
	if s == Pull && len(body) == 2 {
		return []func() error{body[0], step.Run, body[1], step.Run}, nil
	}
	return append(body, step.Run), nil
}

// rebuildLaunch is frontier_rebuild: the current level's queue from the
// stamps, with counted its counters posted to the ring too.
func (e *Engine) rebuildLaunch(counted bool) (*gpu.Launch, error) {
	ring, count := uint64(0), 0
	if counted {
		ring, count = e.ad.ring.Arg(), 1
	}
	return e.ad.mod.Launch("frontier_rebuild", e.grid(max(e.n, 1)), threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.depth), gpu.Int(int(e.n)),
		gpu.Ptr(e.ctl), gpu.Ptr(e.q0), gpu.Ptr(e.q1), ring, gpu.Int(count))
}

// planCounted is the captured graph of k counted levels of s, then a post;
// with modeRebuild the first level's queue is rebuilt first.
func (e *Engine) planCounted(s Strategy, k int, mode planMode) (*gpu.Graph, error) {
	if !s.PerLevel() {
		return nil, fmt.Errorf("traversal: %s %w", s, errNotPerLevel)
	}
	mode |= modeCounted
	key := planKey{a: BFS, s: s, k: k, mode: mode}
	if g := e.graphs[key]; g != nil {
		return g, nil
	}
	if err := e.needRing(); err != nil {
		return nil, err
	}
	body, err := e.countedLevel(s)
	if err != nil {
		return nil, err
	}
	var pre func() error
	if mode&modeRebuild != 0 {
		rebuild, err := e.rebuildLaunch(false)
		if err != nil {
			return nil, err
		}
		pre = rebuild.Run
	}
	post, err := e.mod.Launch("post", 1, 1, 0, gpu.Ptr(e.ctl), e.mail.Arg())
	if err != nil {
		return nil, err
	}
	g, err := e.captureLevels(pre, body, k, post.Run)
	if err != nil {
		return nil, err
	}
	e.graphs[key] = g
	return g, nil
}

// beginCounted starts a BFS from root for a counted loop: traversal.cu's
// init (the root alone in queue 0 at level 0) and adaptive.cu's words,
// with a new epoch for the ring's tags.
func (e *Engine) beginCounted(root int32) error {
	if e == nil || e.mod == nil {
		return errors.New("traversal: a closed engine")
	}
	if root < 0 || int64(root) >= e.n {
		return fmt.Errorf("traversal: root %d outside the %d vertices of %s", root, e.n, e.g.Name)
	}
	if err := e.needRing(); err != nil {
		return err
	}
	init, err := e.mod.Launch("init", e.grid(e.n), threads, 0, gpu.Int(int(e.n)), gpu.Int(int(root)), gpu.Ptr(e.ctl),
		gpu.Ptr(e.mark), gpu.Ptr(e.q0), gpu.Ptr(e.depth), gpu.Ptr(e.parent), 0, 0, 0)
	if err != nil {
		return err
	}
	if err := init.Run(); err != nil {
		return err
	}
	return e.adaptiveBegin(root)
}

// errOverflow is a post that reports a full queue.
var errOverflow = errors.New("a frontier queue overflowed")

// posted is what a graph's post says: the level the device is at, its
// frontier's entries and the arcs inspected since the search began.
type posted struct {
	level     int
	frontier  int64
	inspected int64
}

// awaitPost waits for post j in the mail and reads it.
func (e *Engine) awaitPost(j uint64) (posted, error) {
	slot := int(j%mailSlots) * mailWords
	if err := e.mail.Await(slot+3, j); err != nil {
		return posted{}, err
	}
	var word [mailWords]float64
	if err := e.mail.Float64s(slot, word[:]); err != nil {
		return posted{}, err
	}
	level := math.Float64bits(word[0])
	if level>>32 != 0 {
		return posted{}, fmt.Errorf("traversal: %w (%d entries)", errOverflow, e.qcap)
	}
	return posted{level: int(uint32(level)), frontier: int64(math.Float64bits(word[1])), inspected: int64(math.Float64bits(word[2]))}, nil
}

// ringCounters reads the counters the device posted for the frontier of
// level, and checks the slot's tag (this search's epoch, this level).
func (e *Engine) ringCounters(level int) (adaptive.Counters, error) {
	var w [ringWords]float64
	if err := e.ad.ring.Float64s((level%ringSlots)*ringWords, w[:]); err != nil {
		return adaptive.Counters{}, err
	}
	tag, want := math.Float64bits(w[0]), uint64(e.ad.epoch)<<32|uint64(uint32(level))
	if tag != want {
		return adaptive.Counters{}, fmt.Errorf("traversal: the counters of level %d were not posted (the ring's slot holds tag %#x, want %#x)", level, tag, want)
	}
	return adaptive.Counters{Vertices: int64(math.Float64bits(w[1])), Arcs: int64(math.Float64bits(w[2])), MaxDegree: int64(math.Float64bits(w[3]))}, nil
}

// postCounters reads the counters of the levels after from up to the post's
// level (its own only when its frontier is not empty: the search is over
// otherwise).
func (e *Engine) postCounters(from int, p posted) ([]adaptive.Counters, error) {
	last := p.level
	if p.frontier == 0 {
		last--
	}
	var out []adaptive.Counters
	for l := from + 1; l <= last; l++ {
		c, err := e.ringCounters(l)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// BFSCounters runs a BFS from root with strategy s as BFS does (captured
// graphs of LevelsPerGraph levels, two queued ahead of the post the host
// reads), each level followed by its counter step, and returns with the
// result the counters of every level's frontier (index = level; level 0
// is the root alone), read from the ring. Its time includes the counter
// steps: a queue pass per level (O(frontier)) for strategies that write a
// queue, a pass over the stamps (O(n)) for those that do not; the
// adaptive.cu strategies count as they go. The persistent strategies and
// spac-schedule cannot (PerLevel).
func (e *Engine) BFSCounters(ctx context.Context, root int32, s Strategy) (*Result, []adaptive.Counters, error) {
	if err := e.beginCounted(root); err != nil {
		return nil, nil, err
	}
	k := e.opt.LevelsPerGraph
	g, err := e.planCounted(s, k, 0)
	if err != nil {
		return nil, nil, err
	}
	counters := []adaptive.Counters{adaptive.RootCounters(e.g, root)}
	if err := e.timer.Start(); err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*Result, []adaptive.Counters, error) {
		_ = e.d.Sync("a counted traversal that failed")
		return nil, nil, err
	}
	awaited := e.posts
	launch := func() error {
		if err := g.Launch(); err != nil {
			return err
		}
		e.posts++
		return nil
	}
	for range 2 {
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	maxPosts := uint64(2*e.n+1024)/uint64(k) + 3
	first := awaited + 1
	var p posted
	for {
		awaited++
		if p, err = e.awaitPost(awaited); err != nil {
			return fail(fmt.Errorf("traversal: bfs %s from %d: %w", s, root, err))
		}
		cs, err := e.postCounters(len(counters)-1, p)
		if err != nil {
			return fail(err)
		}
		counters = append(counters, cs...)
		if p.frontier == 0 {
			break
		}
		if awaited-first > maxPosts {
			return fail(fmt.Errorf("traversal: bfs %s from %d did not end after %d levels", s, root, p.level))
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	// (the graph queued behind the last post runs empty levels; its post
	// is numbered before the next search's, as in run)
	if err := e.timer.Stop(); err != nil {
		return nil, nil, err
	}
	r, err := e.finishBFS(root, s, p)
	if err != nil {
		return nil, nil, err
	}
	return r, counters, nil
}

// finishBFS reads a finished BFS's time and arrays.
func (e *Engine) finishBFS(root int32, s Strategy, p posted) (*Result, error) {
	elapsed, err := e.timer.Elapsed()
	if err != nil {
		return nil, err
	}
	r := &Result{Algorithm: BFS, Strategy: s, Root: root, Time: elapsed, Levels: p.level, Inspected: p.inspected,
		Depth: make([]int32, e.n), Parent: make([]int32, e.n)}
	if err := gpu.Download(e.depth, r.Depth, "the depths"); err != nil {
		return nil, err
	}
	if err := gpu.Download(e.parent, r.Parent, "the parents"); err != nil {
		return nil, err
	}
	return r, nil
}
