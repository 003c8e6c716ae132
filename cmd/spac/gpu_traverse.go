package main

// The GPU side of 'spac bfs' and 'spac sssp': the traversal engine
// (package apps/traversal) behind the traverser interface.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
)

func (p problem) algorithm() engine.Algorithm {
	if p == problemSSSP {
		return engine.SSSP
	}
	return engine.BFS
}

// adaptiveStrategy is the per-level adaptive BFS as --strategy names it:
// not one of the engine's strategies, but a choice among them at every
// level (Engine.BFSAdaptive), run only when named.
const adaptiveStrategy = "adaptive"

// adaptiveHostStrategy is the same choice made on the host, a captured
// graph per decision, even where the device could make it: the
// comparison that shows what deciding on the device saves, and the way a
// model whose tree picks strategies outside the device's level kernel runs
// (adaptive falls back to it by itself then).
const adaptiveHostStrategy = "adaptive-host"

// isAdaptive says that a --strategy name is one of the two adaptive ones.
func isAdaptive(name string) bool { return name == adaptiveStrategy || name == adaptiveHostStrategy }

// gpuStrategyNames are the GPU strategies of p that --strategy all runs,
// and the extra ones it takes only when named (negative tests such as the
// racy SSSP, which must fail validation, offline ones such as
// spac-schedule, whose SPAC partition takes seconds to minutes, and BFS's
// adaptive choice). Without CUDA in this binary it fails at once, before
// any input is read.
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
	if p == problemBFS {
		extra = append(extra, adaptiveStrategy, adaptiveHostStrategy)
	}
	return all, extra, nil
}

// gpuTraverser runs the engine's strategies on one device.
type gpuTraverser struct {
	d     *gpu.Device
	e     *engine.Engine
	p     problem
	names []string
	// chooser is the adaptive strategy's model (nil unless it runs);
	// tally what its searches ran.
	chooser *engine.ModelChooser
	tally   adaptiveTally
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

// adaptive searches from root with the model, on the host's loop for
// adaptive-host.
func (t *gpuTraverser) adaptive(ctx context.Context, root int32, name string) (*engine.Result, *engine.AdaptiveTrace, error) {
	if t.chooser == nil {
		return nil, nil, errors.New("the adaptive strategy has no model")
	}
	return t.e.BFSAdaptive(ctx, root, t.chooser, engine.AdaptiveOptions{Host: name == adaptiveHostStrategy})
}

func (t *gpuTraverser) Run(ctx context.Context, root int32, name string) (*traversal, error) {
	if isAdaptive(name) {
		r, tr, err := t.adaptive(ctx, root, name)
		if err != nil {
			return nil, err
		}
		t.tally.add(tr)
		return traversalOf(r), nil
	}
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

// adaptiveTally sums the traces of the adaptive searches of a run.
type adaptiveTally struct {
	searches, levels, steps    int
	stale, fallbacks, rebuilds int
	onDevice, disagree         int // searches decided on the device; their levels whose body the host's walk would not pick
	predict                    time.Duration
	uses                       map[engine.Strategy]int
}

func (a *adaptiveTally) add(tr *engine.AdaptiveTrace) {
	if a.uses == nil {
		a.uses = map[engine.Strategy]int{}
	}
	a.searches++
	a.levels += len(tr.Ran)
	a.steps += tr.Steps
	a.stale += tr.Stale
	a.fallbacks += tr.Fallbacks
	a.rebuilds += tr.Rebuilds
	if tr.OnDevice {
		a.onDevice++
		a.disagree += tr.Disagree
	}
	a.predict += tr.Predict
	for s, n := range tr.Uses() {
		a.uses[s] += n
	}
}

// note is the line under the table that says what the adaptive searches
// ran (nothing when none ran).
func (a *adaptiveTally) note(w io.Writer, model string) {
	if a.searches == 0 {
		return
	}
	summary := engine.UsesSummary(a.uses)
	fmt.Fprintf(w, "\nadaptive (%s): %d searches, %d levels run by %s", model, a.searches, a.levels, summary)
	if a.onDevice > 0 {
		fmt.Fprintf(w, "; %d searches decided on the device (%d levels where the host's walk of the tree differs)", a.onDevice, a.disagree)
	}
	if a.onDevice < a.searches {
		host := float64(a.predict.Nanoseconds()) / float64(max(a.levels, 1))
		fmt.Fprintf(w, "; on the host: %d captured graphs (round trips), %d levels decided at the start of their run with another pick of their own, %d fallbacks, %d queue rebuilds; %.0f ns per choice", a.steps, a.stale, a.fallbacks, a.rebuilds, host)
	}
	fmt.Fprintln(w)
}

// loadAdaptiveModel reads --model (or takes the embedded default) and maps
// its candidates to the engine's strategies; name is how to call it.
func loadAdaptiveModel(path string) (c *engine.ModelChooser, name string, err error) {
	var m *adaptive.Model
	if path == "" {
		name = "the embedded default model"
		m, err = adaptive.Default()
	} else {
		name = path
		m, err = adaptive.LoadFile(path)
	}
	if err != nil {
		return nil, name, err
	}
	c, err = engine.NewModelChooser(m)
	if err != nil {
		return nil, name, fmt.Errorf("%s: %w", name, err)
	}
	return c, name, nil
}
