package main

// PLACEHOLDER until the GPU traversal engine (package apps/traversal) lands:
// this file is the whole of the GPU side of 'spac bfs' and 'spac sssp'. It
// is to be replaced by an adapter from traversal.Open(device, g) to the
// traverser interface (traverser.go): Strategies from the engine's list,
// Run from its BFS / SSSP. Until then --gpu fails with errNoGPUEngine
// before any input is read; nothing here ever returns a result.
//
// The adapter, when the engine is there (a sketch):
//
//	gpuStrategyNames: the engine's strategy names for p (those that
//	  support it; the negative ones as extra), known before the graph is
//	  read, so that a wrong --strategy is refused at once
//	openGPU: d, err := gpu.Open(device) (gpu.ErrNoCUDA in a plain build),
//	  then traversal.Open(d, g); Close closes both
//	Run: Engine.BFS or Engine.SSSP from root with the strategy, into a
//	  traversal in the graph's ids (Parent, Depth or Dist, Levels,
//	  Inspected) with Elapsed the engine's own time of the search
//
// The command times, validates, reports and writes --out around it.

import (
	"context"
	"errors"

	"github.com/spac-gpu/spac/apps/traversal/graph"
)

var errNoGPUEngine = errors.New("GPU traversal: the engine is not in this build yet (run without --gpu for the CPU references)")

// gpuStrategyNames are the GPU strategies of p that --strategy all runs,
// and the extra ones it takes only when named (negative tests).
func gpuStrategyNames(p problem) (all, extra []string, err error) { return nil, nil, errNoGPUEngine }

// openGPU opens the GPU engine for p on device with g uploaded.
func openGPU(ctx context.Context, g *graph.Graph, p problem, device int) (traverser, error) {
	return nil, errNoGPUEngine
}
