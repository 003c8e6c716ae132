package traversal

// Per-level timing: the level loop of engine.go's run, one level per
// captured graph, with a pair of CUDA events around every graph. It is a
// copy of run's loop rather than a hook in it, so that the measured path
// of BFS and SSSP stays as it is; keep the two in step.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/gpu"
)

// LevelTime is one level of a search timed alone.
type LevelTime struct {
	// Level counts the captured graphs of the search from 0: a BFS level,
	// an SSSP round (near-far: a round or a refill).
	Level int
	// Frontier is the number of queue entries the level read (the post
	// before it; 1 for the root's level), the vertex count for the
	// topology-driven strategies' active vertices included.
	Frontier int64
	// Inspected is the number of arcs the level inspected.
	Inspected int64
	// Time is the device time between the CUDA events recorded before and
	// after the level's graph (its kernels and the post to host memory).
	Time time.Duration
}

// LevelTimes runs one search as BFS or SSSP do, but with one level per
// captured graph (LevelsPerGraph 1, whatever the Options) and two CUDA
// events recorded around every graph, and returns the result with each
// level's device time. The events add a few microseconds of the host's
// queueing per level but no device work; the sum of the levels is the
// search's time at k = 1, not at the default k, and leaves out the empty
// levels that a k > 1 graph runs after the last. The persistent strategies
// run every level in one kernel: their levels cannot be timed apart, so
// they return the result and no levels.
func (e *Engine) LevelTimes(ctx context.Context, a Algorithm, root int32, s Strategy) (*Result, []LevelTime, error) {
	if e == nil || e.mod == nil {
		return nil, nil, errors.New("traversal: a closed engine")
	}
	if s == Persistent || s == PersistentTWC {
		r, err := e.run(ctx, a, root, s)
		return r, nil, err
	}
	if err := e.checkRun(a, root, s); err != nil {
		return nil, nil, err
	}
	k := e.opt.LevelsPerGraph
	e.opt.LevelsPerGraph = 1
	g, err := e.plan(a, s)
	e.opt.LevelsPerGraph = k
	if err != nil {
		return nil, nil, err
	}
	var depth, parent, st64, st64b uint64
	if a == BFS {
		depth, parent = gpu.Ptr(e.depth), gpu.Ptr(e.parent)
	} else {
		st64 = gpu.Ptr(e.dp)
		if s == TwoPhase {
			st64b = gpu.Ptr(e.dp2)
		}
	}
	init, err := e.mod.Launch("init", e.grid(e.n), threads, 0, gpu.Int(int(e.n)), gpu.Int(int(root)), gpu.Ptr(e.ctl),
		gpu.Ptr(e.mark), gpu.Ptr(e.q0), depth, parent, st64, st64b, uint64(math.Float32bits(e.opt.Delta)))
	if err != nil {
		return nil, nil, err
	}
	if err := init.Run(); err != nil {
		return nil, nil, err
	}
	if s == SpacSchedule {
		if err := e.spacInit(root); err != nil {
			return nil, nil, err
		}
	}
	if s == NearFar {
		if err := e.piles.Fill32(math.MaxUint32); err != nil {
			return nil, nil, err
		}
	}
	if s == TwoPhaseRacy {
		l, err := e.mod.Launch("init_racy", e.grid(e.n), threads, 0, gpu.Int(int(e.n)), gpu.Int(int(root)), gpu.Ptr(e.dp), gpu.Ptr(e.dp2))
		if err != nil {
			return nil, nil, err
		}
		if err := l.Run(); err != nil {
			return nil, nil, err
		}
	}
	var ivs []*gpu.Interval
	defer func() {
		for _, iv := range ivs {
			iv.Close()
		}
	}()
	if err := e.timer.Start(); err != nil {
		return nil, nil, err
	}
	launched := uint64(0)
	launch := func() error {
		iv, err := e.d.NewInterval()
		if err != nil {
			return err
		}
		ivs = append(ivs, iv)
		if err := iv.Start(); err != nil {
			return err
		}
		launched++
		if err := g.Launch(); err != nil {
			return err
		}
		return iv.Stop()
	}
	fail := func(err error) (*Result, []LevelTime, error) {
		e.posts += launched
		_ = e.d.Sync("a timed traversal that failed")
		return nil, nil, err
	}
	for range 2 {
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	var word [mailWords]float64
	var level, inspected uint64
	var levels []LevelTime
	frontier := int64(1)
	maxPosts := uint64(2*e.n+1024) + 3
	for j := e.posts + 1; ; j++ {
		slot := int(j%mailSlots) * mailWords
		if err := e.mail.Await(slot+3, j); err != nil {
			return fail(err)
		}
		if err := e.mail.Float64s(slot, word[:]); err != nil {
			return fail(err)
		}
		prev := inspected
		level, inspected = math.Float64bits(word[0]), math.Float64bits(word[2])
		if level>>32 != 0 {
			return fail(fmt.Errorf("traversal: %s %s from %d: a frontier queue of %d entries overflowed", a, s, root, e.qcap))
		}
		levels = append(levels, LevelTime{Level: len(levels), Frontier: frontier, Inspected: int64(inspected - prev)})
		frontier = int64(math.Float64bits(word[1]))
		if frontier == 0 {
			break
		}
		if j-e.posts > maxPosts {
			return fail(fmt.Errorf("traversal: %s %s from %d did not end after %d levels", a, s, root, uint32(level)))
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	e.posts += launched
	if err := e.timer.Stop(); err != nil {
		return nil, nil, err
	}
	elapsed, err := e.timer.Elapsed()
	if err != nil {
		return nil, nil, err
	}
	for i := range levels {
		if levels[i].Time, err = ivs[i].Elapsed(); err != nil {
			return nil, nil, err
		}
	}
	r := &Result{Algorithm: a, Strategy: s, Root: root, Time: elapsed, Levels: int(uint32(level)), Inspected: int64(inspected)}
	if a == BFS {
		r.Depth, r.Parent = make([]int32, e.n), make([]int32, e.n)
		if err := gpu.Download(e.depth, r.Depth, "the depths"); err != nil {
			return nil, nil, err
		}
		if err := gpu.Download(e.parent, r.Parent, "the parents"); err != nil {
			return nil, nil, err
		}
		return r, levels, nil
	}
	packed := make([]uint64, e.n)
	if err := gpu.Download(e.dp, packed, "the distances"); err != nil {
		return nil, nil, err
	}
	r.Dist, r.Pred = Unpack(packed)
	return r, levels, nil
}
