package spac

import (
	"context"
	"math"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
	"github.com/spac-gpu/spac/transform"
)

// twoLevelMinParts is the part count from which METIS runs in two stages.
// METIS's k-way cost grows with k beyond its coarsening (its initial
// partitioning bisects a coarsest graph of about 30k vertices k-1 times):
// on the cant stand-in 1992 parts cost four times what 2 do. Two stages of
// about sqrt(k) parts each pay the coarsening twice and the k-dependent part
// hardly at all.
var twoLevelMinParts = 256

// partitionVertices partitions w, whose vertices weigh 1, into k parts of
// about equal weight with METIS, in one call below
// twoLevelMinParts parts and in two stages from there on: first into about
// sqrt(k) groups, then each group into its share of the k parts in
// proportion to its weight, and a greedy refinement across the groups'
// borders, which the second stage cannot move (parts stay within maxLoad).
func partitionVertices(ctx context.Context, w *transform.WeightedGraph, k int, maxLoad int64, opts metis.Options) ([]int32, error) {
	if k < twoLevelMinParts {
		return runMETIS(ctx, metisGraph(w, nil), k, opts)
	}
	part, err := inGroups(ctx, w, nil, int(math.Round(math.Sqrt(float64(k)))), k, opts)
	if err != nil {
		return nil, err
	}
	transform.Refine(w, nil, part, k, maxLoad, refinePasses)
	return part, nil
}

// metisGraph is w for METIS, its vertices weighing weight (nil: 1).
func metisGraph(w *transform.WeightedGraph, weight []int32) *metis.Graph {
	return &metis.Graph{Xadj: w.Xadj, Adjncy: w.Adjncy, Vwgt: weight, Adjwgt: w.Adjwgt}
}

// inGroups partitions w into groups with METIS, then each group into its
// share of the k parts (splitGroups).
func inGroups(ctx context.Context, w *transform.WeightedGraph, weight []int32, groups, k int, opts metis.Options) ([]int32, error) {
	group, err := runMETIS(ctx, metisGraph(w, weight), groups, opts)
	if err != nil {
		return nil, err
	}
	return splitGroups(ctx, w, weight, group, groups, k, opts)
}

// splitGroups partitions the subgraph of w induced by each of the groups
// (group[v] is v's) into its share of the k parts, in proportion to the
// group's weight, and returns the parts, numbered group by group. The METIS
// calls run in parallel, one per core: the package metis allows that, and
// each call's result depends on its input alone.
func splitGroups(ctx context.Context, w *transform.WeightedGraph, weight []int32, group []int32, groups, k int, opts metis.Options) ([]int32, error) {
	n := w.NumVertices()
	groupWeight := make([]int64, groups)
	var total int64
	for v := 0; v < n; v++ {
		wv := int64(1)
		if weight != nil {
			wv = int64(weight[v])
		}
		groupWeight[group[v]] += wv
		total += wv
	}
	share := shares(groupWeight, total, k)

	// Each group's subgraph is built by the worker that partitions it, so
	// that building one overlaps METIS on another; they read w, group and
	// local, and write their own.
	members, start, local := groupMembers(group, groups)
	subParts := make([][]int32, groups)
	err := par.DoCtx(ctx, groups, func(g int) error {
		vs := members[start[g]:start[g+1]]
		if min(share[g], len(vs)) <= 1 {
			return nil
		}
		sub := induced(metisGraph(w, weight), vs, group, local)
		p, _, err := metis.PartGraph(sub, min(share[g], sub.NumVertices()), opts)
		subParts[g] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	part := make([]int32, n)
	offset := int32(0)
	for g := 0; g < groups; g++ {
		for i, v := range members[start[g]:start[g+1]] {
			if subParts[g] != nil {
				part[v] = offset + subParts[g][i]
			} else {
				part[v] = offset
			}
		}
		offset += int32(share[g])
	}
	return part, nil
}

// splitInHalves partitions g into k parts by recursive bisection, the
// first depth levels as METIS calls of their own: g is cut into two halves
// weighing k/2 and k-k/2 parts' worth, as METIS's own recursion cuts, and
// the halves are partitioned the same way in parallel. Below depth, or once
// the parts are too few to split, one METIS call finishes the recursion.
// At most one METIS call per core runs at a time: more would only share
// the cores and the caches, with a METIS's worth of memory each.
// opts.Method must be Recursive.
func splitInHalves(ctx context.Context, g *metis.Graph, k, depth int, opts metis.Options) ([]int32, error) {
	calls := make(chan struct{}, par.Workers(1<<30))
	return splitHalves(ctx, g, k, depth, opts, calls)
}

// splitHalves is splitInHalves with calls, the tokens a METIS call takes.
func splitHalves(ctx context.Context, g *metis.Graph, k, depth int, opts metis.Options, calls chan struct{}) ([]int32, error) {
	metisCall := func(nparts int, opts metis.Options) ([]int32, error) {
		calls <- struct{}{}
		defer func() { <-calls }()
		if err := ctx.Err(); err != nil { // cancelled while waiting: start no METIS
			return nil, err
		}
		return runMETIS(ctx, g, nparts, opts)
	}
	n := g.NumVertices()
	if depth == 0 || k < 4 || n < 2*k {
		return metisCall(min(k, n), opts)
	}
	k0 := k / 2
	cut := opts
	cut.TargetWeights = []float32{float32(k0) / float32(k), float32(k-k0) / float32(k)}
	half, err := metisCall(2, cut)
	if err != nil {
		return nil, err
	}
	members, start, local := groupMembers(half, 2)
	share := [2]int{k0, k - k0}
	var sub [2][]int32
	err = par.DoCtx(ctx, 2, func(h int) error {
		vs := members[start[h]:start[h+1]]
		if len(vs) == 0 { // METIS left a half empty: the other takes its parts
			return nil
		}
		hg := induced(g, vs, half, local)
		p, err := splitHalves(ctx, hg, min(share[h], len(vs)), depth-1, opts, calls)
		sub[h] = p
		return err
	})
	if err != nil {
		return nil, err
	}
	part := make([]int32, n)
	for v, h := range half {
		part[v] = int32(h)*int32(share[0]) + sub[h][local[v]]
	}
	return part, nil
}

// groupMembers lists the vertices of each of groups groups (group[v] is
// v's): group g's are members[start[g]:start[g+1]], in increasing order,
// and local[v] is v's place among its group's.
func groupMembers(group []int32, groups int) (members, start, local []int32) {
	start = make([]int32, groups+1)
	for _, g := range group {
		start[g+1]++
	}
	for g := 0; g < groups; g++ {
		start[g+1] += start[g]
	}
	members = matrices.CountingSort(group, groups, nil)
	local = make([]int32, len(group))
	par.Do(groups, func(g int) {
		for i, v := range members[start[g]:start[g+1]] {
			local[v] = int32(i)
		}
	})
	return members, start, local
}

// shares splits k parts among groups in proportion to their weights, at
// least one each, by largest remainder.
func shares(groupWeight []int64, total int64, k int) []int {
	share := make([]int, len(groupWeight))
	rest := make([]float64, len(groupWeight))
	sum := 0
	for g, gw := range groupWeight {
		ideal := float64(gw) * float64(k) / float64(total)
		share[g] = max(1, int(ideal))
		rest[g] = ideal - float64(share[g])
		sum += share[g]
	}
	for ; sum < k; sum++ {
		best := 0
		for g := range rest {
			if rest[g] > rest[best] {
				best = g
			}
		}
		share[best]++
		rest[best]--
	}
	for ; sum > k; sum-- {
		best := -1
		for g := range rest {
			if share[g] > 1 && (best < 0 || rest[g] < rest[best]) {
				best = g
			}
		}
		share[best]--
		rest[best]++
	}
	return share
}

// induced builds the subgraph of w on the vertices vs, the members of
// their group in group, numbered by their place in vs (local).
func induced(w *metis.Graph, vs []int32, group, local []int32) *metis.Graph {
	g := group[vs[0]]
	// The members' degrees bound the subgraph's size: allocate once.
	entries := 0
	for _, v := range vs {
		entries += int(w.Xadj[v+1] - w.Xadj[v])
	}
	sub := &metis.Graph{Xadj: make([]int32, 1, len(vs)+1), Adjncy: make([]int32, 0, entries)}
	if w.Adjwgt != nil { // else every edge weighs 1 there too
		sub.Adjwgt = make([]int32, 0, entries)
	}
	if w.Vwgt != nil {
		sub.Vwgt = make([]int32, len(vs))
	}
	for i, v := range vs {
		for j := w.Xadj[v]; j < w.Xadj[v+1]; j++ {
			if u := w.Adjncy[j]; group[u] == g {
				sub.Adjncy = append(sub.Adjncy, local[u])
				if w.Adjwgt != nil {
					sub.Adjwgt = append(sub.Adjwgt, w.Adjwgt[j])
				}
			}
		}
		sub.Xadj = append(sub.Xadj, int32(len(sub.Adjncy)))
		if w.Vwgt != nil {
			sub.Vwgt[i] = w.Vwgt[v]
		}
	}
	return sub
}
