package traversal

// Per-level timing: engine.go's run with timed set, one level per captured
// graph, with a pair of CUDA events around every graph; without timed, run
// launches the graphs of BFS and SSSP as before, with no events.

import (
	"context"
	"time"
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
	return e.run(ctx, a, root, s, s != Persistent && s != PersistentTWC)
}
