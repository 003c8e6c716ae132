package spac

import (
	"errors"
	"fmt"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/transform"
)

// DefaultMemoryPerTask is the peak, in bytes per task, that SPAC holds
// itself to from memoryBoundEdges tasks on (Options.MemoryPerTask): at 100
// a 100M-task input partitions in 10 GB, on a 24 GiB machine with room to
// spare.
const DefaultMemoryPerTask = 100

// memoryBoundEdges is the size from which the bound applies. Below it every
// start fits by far: the inputs that break it have dense coarse levels and
// hold them all until the way back up (issue 19, stop 48).
var memoryBoundEdges = 16_000_000

// countedShare is the share of the bound that the arrays the own start
// counts may take (memoryBudget): the rest is what it does not count, the
// Go heap's free room between collections and the scratch of the passes.
// The process peaked at 1.13 times the most the start counted on the
// in-2004 and circuit5M stand-ins (75.7 and 76.8 B/task counted), 1.19 on
// a circuit of 17M tasks numbered at random (79.4), all kept; a share that
// held every input under the bound would leave these starts out too
// (stop 48).
const countedShare = 0.9

// metisCopies is how many times the coarsest graph's bytes METIS takes
// beside our copy of it (its own levels and work): 2.9 on a web-like graph
// of 16.4M tasks numbered at random, whose 145 MB coarsest graph raised
// the process by 420 MB while METIS ran (stop 48).
const metisCopies = 3

// errOverBudget says the own start would hold more than its memory budget;
// an overBudget error wraps it with the figures.
var errOverBudget = errors.New("over the memory budget")

// overBudget is the error of a start left out for memory.
type overBudget struct{ counted, allowed int64 }

func (e *overBudget) Error() string {
	return fmt.Sprintf("%v: %d MiB counted, %d MiB allowed", errOverBudget, e.counted>>20, e.allowed>>20)
}

func (e *overBudget) Unwrap() error { return errOverBudget }

// memoryBudget is the room the own start may take: limit bytes in all,
// of which held are taken beside it (the input's graph and incidence, an
// earlier start's parts). It counts the arrays it holds (the packed levels
// and maps, the graphs unpacked, and METIS's share of the coarsest), which
// depend on the input and the options alone: the start is left out, or not,
// the same way in every run, whatever else the process holds.
type memoryBudget struct {
	limit, held int64
}

// newMemoryBudget is the budget of the own start on g (nil: no bound):
// perTask bytes a task (opts.MemoryPerTask, resolved) from memoryBoundEdges
// tasks on, the input's arrays and keep (an earlier start's parts) held.
func newMemoryBudget(g *matrices.Graph, inc *matrices.Incidence, opts Options, keep []int32) *memoryBudget {
	perTask := opts.memoryPerTask()
	m := g.NumEdges()
	if perTask < 0 || m < memoryBoundEdges {
		return nil
	}
	held := 4 * int64(len(g.U)+len(g.V)+len(inc.Offsets)+len(inc.Edge)+len(keep))
	return &memoryBudget{limit: int64(countedShare * perTask * float64(m)), held: held}
}

// memoryPerTask is o.MemoryPerTask resolved: 0 is DefaultMemoryPerTask,
// a negative value no bound.
func (o Options) memoryPerTask() float64 {
	if o.MemoryPerTask == 0 {
		return DefaultMemoryPerTask
	}
	return o.MemoryPerTask
}

// check returns an overBudget error where h and METIS's share of its
// coarsest graph would take b over its limit (nil b: never).
func (b *memoryBudget) check(h *hierarchy) error {
	if b == nil {
		return nil
	}
	return b.over(b.count(h, true))
}

// count is what h holds beside b's held bytes, with METIS's share of its
// coarsest graph where metis is set.
func (b *memoryBudget) count(h *hierarchy, metis bool) int64 {
	total := b.held
	for l := range h.graphs {
		if p := h.packed[l]; p != nil {
			total += int64(p.Bytes())
		}
		total += graphBytes(h.graphs[l], h.weights[l])
	}
	for _, p := range h.pmaps {
		if p != nil {
			total += int64(p.Bytes())
		}
	}
	if metis {
		coarsest := len(h.graphs) - 1
		total += metisCopies * graphBytes(h.graphs[coarsest], h.weights[coarsest])
	}
	return total
}

// checkNext is check with the next level's bytes (transform.Coarsener's
// Reserve), about to be allocated beside what h holds: each level is built
// beside the finer one, and on graphs whose levels stay dense that is where
// the process peaks (a community graph of 17M tasks: 113 B/task where only
// the levels built were counted, 105 counting the one in the making).
func (b *memoryBudget) checkNext(h *hierarchy, next int64) error {
	return b.over(b.count(h, false) + next)
}

// over is the error of total bytes counted against b's limit (nil: within).
func (b *memoryBudget) over(total int64) error {
	if total > b.limit {
		return &overBudget{counted: total, allowed: b.limit}
	}
	return nil
}

// graphBytes is the room of w and its vertex weights (0 for nil).
func graphBytes(w *transform.WeightedGraph, weight []int32) int64 {
	if w == nil {
		return 0
	}
	return 4 * int64(len(w.Xadj)+len(w.Adjncy)+len(w.Adjwgt)+len(weight))
}
