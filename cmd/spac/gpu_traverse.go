package main

// PLACEHOLDER until the GPU traversal engine (package apps/traversal) lands:
// this file is the whole of the GPU side of 'spac bfs' and 'spac sssp'. It
// is to be replaced by an adapter from traversal.Open(device, g) to the
// traverser interface (traverser.go): Strategies from the engine's list,
// Run from its BFS / SSSP. Until then --gpu fails with errNoGPUEngine
// before any input is read; nothing here ever returns a result.

import (
	"context"
	"errors"

	"github.com/spac-gpu/spac/apps/traversal/graph"
)

var errNoGPUEngine = errors.New("GPU traversal: the engine is not in this build yet (run without --gpu for the CPU references)")

// gpuStrategyNames are the GPU strategies of p, which --strategy takes
// with --gpu.
func gpuStrategyNames(p problem) ([]string, error) { return nil, errNoGPUEngine }

// openGPU opens the GPU engine for p on device with g uploaded.
func openGPU(ctx context.Context, g *graph.Graph, p problem, device int) (traverser, error) {
	return nil, errNoGPUEngine
}
