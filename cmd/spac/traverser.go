package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/internal/enum"
)

// problem is what 'spac bfs' and 'spac sssp' compute.
type problem uint8

const (
	problemBFS problem = iota
	problemSSSP
)

func (p problem) String() string {
	if p == problemSSSP {
		return "sssp"
	}
	return "bfs"
}

// traversal is one search from one root, in the graph's vertex ids.
type traversal struct {
	Parent    []int32   // BFS parents or SSSP predecessors: -1 unreached, the root its own
	Depth     []int32   // BFS: -1 unreached, the root 0
	Dist      []float32 // SSSP: +Inf unreached
	Levels    int       // BFS: largest depth + 1; SSSP: the strategy's iterations, 0 when it does not count them
	Inspected int64     // arcs (directed edges) the search looked at
	// Elapsed is the search's time as the engine measures it (the GPU's
	// own timer, transfers excluded); 0 means the caller's clock around
	// Run is the time.
	Elapsed time.Duration
}

// traverser runs the strategies of one problem on one graph: the CPU
// references (cpuTraverser, below) or the GPU engine (gpu_traverse.go).
// The command times, validates and reports whatever it returns; a
// traverser only searches.
type traverser interface {
	// Strategies are the names --strategy takes, in the order "all" runs
	// them.
	Strategies() []string
	// Run searches from root (a graph id) with the named strategy.
	Run(ctx context.Context, root int32, strategy string) (*traversal, error)
	// Close releases what the traverser holds (device memory).
	Close() error
}

// cpuStrategy is a CPU reference of package ref.
type cpuStrategy uint8

const (
	cpuQueue cpuStrategy = iota
	cpuParallel
	cpuDirectionOptimizing
	cpuDijkstra
	cpuDeltaStepping
)

// cpuStrategies names the CPU references, BFS first; bfsCPU and ssspCPU
// are each problem's.
var (
	cpuStrategies = enum.New("strategy",
		enum.Name[cpuStrategy]{Value: cpuQueue, Name: "queue"},
		enum.Name[cpuStrategy]{Value: cpuParallel, Name: "parallel"},
		enum.Name[cpuStrategy]{Value: cpuDirectionOptimizing, Name: "direction-optimizing"},
		enum.Name[cpuStrategy]{Value: cpuDijkstra, Name: "dijkstra"},
		enum.Name[cpuStrategy]{Value: cpuDeltaStepping, Name: "delta-stepping"},
	)
	bfsCPU  = subset(cpuStrategies, cpuQueue, cpuParallel, cpuDirectionOptimizing)
	ssspCPU = subset(cpuStrategies, cpuDijkstra, cpuDeltaStepping)
)

// cpuStrategyNames are the CPU strategies of p.
func cpuStrategyNames(p problem) []string {
	if p == problemSSSP {
		return ssspCPU.Names()
	}
	return bfsCPU.Names()
}

// cpuParams are the references' tuning parameters.
type cpuParams struct {
	alpha, beta float64 // direction-optimizing BFS (0: Beamer's 15 and 18)
	delta       float32 // delta-stepping bucket width (0: the mean arc weight)
}

// cpuTraverser runs package ref's references.
type cpuTraverser struct {
	g   *graph.Graph
	p   problem
	par cpuParams
}

func (t *cpuTraverser) Strategies() []string { return cpuStrategyNames(t.p) }
func (t *cpuTraverser) Close() error         { return nil }

func (t *cpuTraverser) Run(ctx context.Context, root int32, strategy string) (*traversal, error) {
	s, err := cpuStrategies.Parse(strategy)
	if err != nil {
		return nil, err
	}
	var b *ref.BFSResult
	var d *ref.SSSPResult
	switch s {
	case cpuQueue:
		b, err = ref.BFS(t.g, root)
	case cpuParallel:
		b, err = ref.ParallelBFS(t.g, root)
	case cpuDirectionOptimizing:
		b, err = ref.DirectionOptimizingBFS(t.g, root, t.par.alpha, t.par.beta)
	case cpuDijkstra:
		d, err = ref.Dijkstra(t.g, root)
	case cpuDeltaStepping:
		d, err = ref.DeltaStepping(t.g, root, t.par.delta)
	default:
		return nil, fmt.Errorf("no CPU strategy %v", s)
	}
	switch {
	case err != nil:
		return nil, err
	case b != nil:
		return &traversal{Parent: b.Parent, Depth: b.Depth, Levels: b.Levels, Inspected: b.Inspected}, nil
	}
	return &traversal{Parent: d.Pred, Dist: d.Dist, Inspected: d.Inspected}, nil
}
