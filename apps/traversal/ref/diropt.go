package ref

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
)

// DirectionOptimizingBFS is Beamer's BFS: top-down steps (as ParallelBFS)
// while the frontier is small, bottom-up steps while it is large, in which
// every unvisited vertex scans its in-arcs for a parent in the frontier and
// stops at the first. Bottom-up starts when the frontier's out-arcs exceed
// the unvisited vertices' arcs / alpha and ends when the frontier falls
// below n / beta vertices (Beamer's alpha = 15, beta = 18 for 0). It needs
// the in-arcs: any undirected graph, a directed one built with
// Options.Transpose. Its depths are BFS's; it inspects fewer arcs, which
// is why its TEPS can exceed the bandwidth bound on inspected arcs. O(n +
// m) work, plus a frontier bitmap of n bits.
func DirectionOptimizingBFS(g *graph.Graph, root int32, alpha, beta float64) (*BFSResult, error) {
	if err := checkRoot(g, root); err != nil {
		return nil, err
	}
	if g.InOffsets == nil {
		return nil, fmt.Errorf("%s: a bottom-up step needs the in-arcs of a directed graph: build it with Options.Transpose", g.Name)
	}
	if alpha == 0 {
		alpha = 15
	}
	if beta == 0 {
		beta = 18
	}
	if !(alpha > 0) || !(beta > 0) {
		return nil, fmt.Errorf("alpha %v and beta %v must be positive", alpha, beta)
	}
	n := g.NumVertices
	r := newBFS(n, root)
	words := (n + 63) / 64
	inFrontier := make([]uint64, words)
	frontier := []int32{root}
	unvisitedArcs := g.NumArcs() - g.Degree(root)
	var inspected atomic.Int64
	const grain = 1 << 12 // vertices per bottom-up task
	bottomUp := false
	for depth := int32(1); len(frontier) > 0; depth++ {
		var frontierArcs int64
		for _, u := range frontier {
			frontierArcs += g.Degree(u)
		}
		switch {
		case !bottomUp && float64(frontierArcs) > float64(unvisitedArcs)/alpha:
			bottomUp = true
		case bottomUp && float64(len(frontier)) < float64(n)/beta:
			bottomUp = false
		}
		if !bottomUp {
			frontier = topDownStep(g, r, frontier, depth, &inspected)
		} else {
			clear(inFrontier)
			for _, u := range frontier {
				inFrontier[u>>6] |= 1 << (u & 63)
			}
			tasks := (n + grain - 1) / grain
			next := make([][]int32, tasks)
			par.Do(tasks, func(t int) {
				var out []int32
				var seen int64
				for v := int32(t * grain); v < int32(min((t+1)*grain, n)); v++ {
					if r.Parent[v] >= 0 {
						continue
					}
					for e := g.InOffsets[v]; e < g.InOffsets[v+1]; e++ {
						seen++
						if u := g.InAdj[e]; inFrontier[u>>6]&(1<<(u&63)) != 0 {
							r.Parent[v], r.Depth[v] = u, depth
							out = append(out, v)
							break
						}
					}
				}
				next[t] = out
				inspected.Add(seen)
			})
			frontier = slices.Concat(next...)
		}
		for _, v := range frontier {
			unvisitedArcs -= g.Degree(v)
		}
	}
	r.Inspected = inspected.Load()
	r.levelStats(g)
	return r, nil
}

// topDownStep expands the frontier by one level, claiming vertices with a
// compare-and-swap on their parent; frontiers of fewer than 4096 vertices
// run on one goroutine.
func topDownStep(g *graph.Graph, r *BFSResult, frontier []int32, depth int32, inspected *atomic.Int64) []int32 {
	const grain = 1024
	tasks := (len(frontier) + grain - 1) / grain
	if len(frontier) < 4*grain {
		tasks = 1
	}
	next := make([][]int32, tasks)
	per := (len(frontier) + tasks - 1) / tasks
	par.Do(tasks, func(t int) {
		var out []int32
		var seen int64
		for _, u := range frontier[t*per : min((t+1)*per, len(frontier))] {
			nb := g.Neighbors(u)
			seen += int64(len(nb))
			for _, v := range nb {
				if atomic.LoadInt32(&r.Parent[v]) < 0 && atomic.CompareAndSwapInt32(&r.Parent[v], -1, u) {
					r.Depth[v] = depth
					out = append(out, v)
				}
			}
		}
		next[t] = out
		inspected.Add(seen)
	})
	return slices.Concat(next...)
}
