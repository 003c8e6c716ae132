package main

// The GPU side of 'spac bfs' and 'spac sssp': the traversal engine
// (package apps/traversal) behind the traverser interface.

import (
	"context"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
)

func (p problem) algorithm() engine.Algorithm {
	if p == problemSSSP {
		return engine.SSSP
	}
	return engine.BFS
}

// gpuStrategyNames are the GPU strategies of p that --strategy all runs,
// and the extra ones it takes only when named (negative tests such as the
// racy SSSP, which must fail validation, and offline ones such as
// spac-schedule, whose SPAC partition takes seconds to minutes).
// Without CUDA in this binary it fails at once, before any input is read.
func gpuStrategyNames(p problem) (all, extra []string, err error) {
	if !gpu.Built {
		return nil, nil, gpu.ErrNoCUDA
	}
	for _, s := range engine.Strategies() {
		if !s.Supports(p.algorithm()) {
			continue
		}
		if s.Negative() || s.Offline() {
			extra = append(extra, s.String())
		} else {
			all = append(all, s.String())
		}
	}
	return all, extra, nil
}

// gpuTraverser runs the engine's strategies on one device.
type gpuTraverser struct {
	d     *gpu.Device
	e     *engine.Engine
	p     problem
	names []string
}

// openGPU opens device and uploads g for p's strategies, tuned by opt.
func openGPU(ctx context.Context, g *graph.Graph, p problem, device int, opt engine.Options) (traverser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := gpu.Open(device)
	if err != nil {
		return nil, err
	}
	e, err := engine.OpenWith(d, g, opt)
	if err != nil {
		d.Close()
		return nil, err
	}
	all, extra, _ := gpuStrategyNames(p)
	return &gpuTraverser{d: d, e: e, p: p, names: append(all, extra...)}, nil
}

func (t *gpuTraverser) Strategies() []string { return t.names }

func (t *gpuTraverser) Run(ctx context.Context, root int32, name string) (*traversal, error) {
	s, err := engine.ParseStrategy(name)
	if err != nil {
		return nil, err
	}
	var r *engine.Result
	if t.p == problemSSSP {
		r, err = t.e.SSSP(ctx, root, s)
	} else {
		r, err = t.e.BFS(ctx, root, s)
	}
	if err != nil {
		return nil, err
	}
	return traversalOf(r), nil
}

// traversalOf is the engine's result as a traverser's (SSSP's
// predecessors as the parents).
func traversalOf(r *engine.Result) *traversal {
	out := &traversal{Depth: r.Depth, Dist: r.Dist, Levels: r.Levels, Inspected: r.Inspected, Elapsed: r.Time}
	if r.Algorithm == engine.SSSP {
		out.Parent = r.Pred
	} else {
		out.Parent = r.Parent
	}
	return out
}

func (t *gpuTraverser) Close() error {
	t.e.Close()
	return t.d.Close()
}
