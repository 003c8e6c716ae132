package dist

import (
	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"syscall"
	"time"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/ptscotch"
	"github.com/spac-gpu/spac/spac"
)

// Options are the distributed partitioner's settings.
type Options struct {
	// K parts of at most Cap edges each (see spac.Resolve).
	K, Cap int
	// Local are SPAC's settings for the partitions each rank computes of
	// its share (K and Cap are set per rank); Local.Seed seeds PT-Scotch
	// too.
	Local spac.Options
	// Imbalance is what PT-Scotch may leave between the groups of parts
	// when it regroups them (0: 0.03); the first grouping of the tasks
	// tries GroupImbalances. Either changes only how evenly the work is
	// spread: every share is made to fit its parts exactly.
	Imbalance float64
	// Grouper splits the contracted or the cluster graph into one group
	// per rank; nil: PT-Scotch.
	Grouper Grouper
	// Grouping is the graph the tasks are grouped on: a vertex per task,
	// or per cluster of tasks (GroupAuto: clusters from SmallTasks tasks).
	Grouping Grouping
	// GroupImbalances are the imbalances the first grouping is tried
	// with (nil: DefaultGroupImbalances below SmallTasks tasks,
	// LargeGroupImbalance from there).
	GroupImbalances []float64
	// Passes is the number of times the shares are partitioned (0: 2
	// below SmallTasks tasks, 1 from there); every pass after the first
	// regroups the parts of the one before, and the best is kept.
	Passes int
	// Progress, when set, is told the stage the partitioner is in.
	Progress func(stage string)
}

func (o Options) grouper() Grouper {
	if o.Grouper == nil {
		return PTScotch
	}
	return o.Grouper
}

// Grouper partitions the distributed graph g (the contracted graph, one
// vertex per task, the rank's own tasks being its vertices; or the cluster
// graph, one vertex per cluster, weighted by its tasks) into groups parts
// of about equal weight and few cut edges: the part of each local vertex.
type Grouper func(c mpi.Comm, g *ptscotch.Graph, groups int, opts Options) ([]int32, error)

// PTScotch is the default Grouper: SCOTCH_dgraphPart with opts.Imbalance
// and the seed of opts.Local. A graph with no more vertices than groups
// gets a vertex per group.
func PTScotch(c mpi.Comm, g *ptscotch.Graph, groups int, opts Options) ([]int32, error) {
	total, err := mpi.Sum(c, int64(len(g.Xadj)-1))
	if err != nil {
		return nil, err
	}
	if total <= int64(groups) {
		part := make([]int32, len(g.Xadj)-1)
		before, _, err := mpi.Exscan(c, int64(len(part)))
		for i := range part {
			part[i] = int32(before + int64(i))
		}
		return part, err
	}
	return ptscotch.Part(c, g, groups, ptscotch.Options{Seed: opts.Local.Seed, Imbalance: opts.Imbalance})
}

// SmallTasks is the input size below which Partition spends more time
// for quality by default: the tasks are grouped with every imbalance of
// DefaultGroupImbalances, and the shares partitioned twice (Passes 0). On
// the shared inputs (up to 700k tasks) the second pass took the copies of
// rajat01 on 4 processes from 1.29 to 1.05 times the single-machine SPAC's;
// from a million tasks each pass costs as much as the whole partition of a
// share.
const SmallTasks = 1 << 20

// passes is opts.Passes, or by default 2 below SmallTasks tasks and 1 from
// there.
func (o Options) passes(tasks int64) int {
	switch {
	case o.Passes > 0:
		return o.Passes
	case tasks < SmallTasks:
		return 2
	}
	return 1
}

// Result is a distributed partition as every rank sees it.
type Result struct {
	// Part is the part of every entry of the rank's Shard, in its order.
	Part []int32
	// Metrics are those of spac.Evaluate, computed distributed; the same
	// on every rank. Time is the partitioner's, read excluded.
	Metrics spac.Metrics
	// Ranks are every rank's own figures, by rank.
	Ranks []RankStats
}

// RankStats are one rank's figures.
type RankStats struct {
	Tasks   int64 // tasks it partitioned
	Parts   int64 // parts it holds
	Moved   int64 // tasks it sent to another rank to balance the shares
	PeakRSS int64 // the process's peak resident memory (bytes) so far
	// CPUSeconds is the process's CPU time (user and system) so far: on a
	// machine with fewer cores than ranks, what the rank's own core would
	// have taken.
	CPUSeconds float64
	// Seconds spent in each stage (Stages), on this rank.
	Seconds [numStages]float64
	// PeakBy is the peak resident memory (bytes) reached by the end of
	// each stage: the stage where it grows is the one that sets it.
	PeakBy [numStages]int64
}

// Stages names the stages timed in RankStats.Seconds.
var Stages = [numStages]string{"contract", "group", "redistribute", "balance", "local spac", "metrics", "return"}

const numStages = 7

// edge is a task on the move: its global index and endpoints.
type edge struct{ E, U, V int32 }

// Partition partitions the tasks of the input whose shares the ranks
// hold into opts.K parts of at most opts.Cap tasks, SPAC's way at two
// levels:
//
//  1. the ranks build the contracted split-and-connect graph of the whole
//     input together, one vertex per task (each rank its own tasks'
//     vertices), each data object's tasks chained in transform.Walk's
//     order and closed into a cycle, by the rank that owns the object;
//     from SmallTasks tasks (opts.Grouping), the cluster graph instead:
//     a vertex per cluster of tasks (a task's row for the spmv model, its
//     endpoint of fewer tasks for the graph model), weighted by its
//     tasks, and the chains' links between clusters as its edges
//     (clusterGraph);
//  2. PT-Scotch (opts.Grouper) cuts it into one group per rank (no more
//     groups than parts), every task takes its own or its cluster's
//     group, and moves to its group's rank;
//  3. the shares are made to fit whole parts: rank r gets K_r parts, the
//     tasks of its share beyond K_r*Cap (fewer than Cap) move to ranks with
//     room, each to where its endpoints already are;
//  4. each rank partitions its share into its K_r parts with the
//     single-machine SPAC (package spac: starts, cap pass, polish,
//     refinement); parts are numbered rank by rank;
//  5. passes after the first (opts.Passes) regroup the parts, as units,
//     between the ranks by PT-Scotch on the graph of the parts, partition
//     the new shares again, and keep the partition with the fewest copies;
//  6. the metrics are computed distributed (each data object's parts are
//     counted by the rank that owns it) and every part goes back to the
//     rank that read its task.
//
// The copies counted are exact: a data object's copies are its parts on
// every rank added up, less one. Collective over c.
func Partition(ctx context.Context, c mpi.Comm, sh *Shard, opts Options) (*Result, error) {
	start := time.Now()
	st := &stageClock{last: start}
	tell := func(stage string) {
		if opts.Progress != nil {
			opts.Progress(stage)
		}
	}
	if opts.K < 1 || int64(opts.K)*int64(opts.Cap) < sh.Total {
		return nil, fmt.Errorf("%d parts of at most %d tasks cannot hold %d tasks", opts.K, opts.Cap, sh.Total)
	}
	if sh.Total > 1<<31-1 {
		return nil, fmt.Errorf("%s: %d tasks exceed the 32-bit task numbers of this build (PT-Scotch with 32-bit SCOTCH_Num)", sh.Name, sh.Total)
	}
	g := newShareGraph(sh)
	starts, err := mpi.Allgather(c, []int64{sh.First})
	if err != nil {
		return nil, err
	}
	readStart := make([]int64, len(starts))
	for q, s := range starts {
		readStart[q] = s[0]
	}

	// 1-2. The contracted graph and the groups. An input of fewer parts
	// than ranks goes whole to rank 0, which partitions it as a single
	// machine would: the grouping would otherwise decide its partition
	// alone (lund_a on 4 ranks: 3 parts, 1.18 times the single machine's
	// copies), and it is small by definition (fewer than ranks x Cap tasks).
	small := int64(opts.K) < int64(c.Size())
	var group []int32
	if c.Size() > 1 && !small {
		tell("contract")
		var gr *grouping
		if opts.clusters(sh.Total) {
			gr, err = clusterGrouping(c, g)
		} else {
			gr, err = taskGrouping(c, g, readStart)
		}
		if err != nil {
			return nil, err
		}
		// The chains' records are garbage: give them back to the system
		// before PT-Scotch, whose memory is C's, allocates its own.
		debug.FreeOSMemory()
		st.lap(0)
		tell("group")
		if group, err = bestGrouping(c, g, gr, opts); err != nil {
			return nil, err
		}
		gr = nil
		st.lap(1)
	} else {
		group = make([]int32, len(g.U))
	}
	if err := mpi.Agree(c, ctx.Err()); err != nil {
		return nil, err
	}

	// 2. Every task to its group's rank.
	tell("redistribute")
	mine, err := redistribute(c, g, group)
	if err != nil {
		return nil, err
	}
	group = nil
	debug.FreeOSMemory() // the contracted graph and PT-Scotch's work are garbage: give them back before SPAC
	st.lap(2)

	// 3. Shares that fit whole parts.
	tell("balance")
	plan, mine, moved, err := balance(c, g, mine, int64(opts.K), int64(opts.Cap))
	if err != nil {
		return nil, err
	}
	st.lap(3)

	// 4. SPAC on the rank's share.
	tell("local spac")
	whole := c.Size() == 1 || small && c.Rank() == 0
	local, err := partitionShare(ctx, g, mine, plan.parts[c.Rank()], opts, whole)
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	st.lap(4)

	tell("metrics")
	met, err := evaluate(c, g, local, int64(opts.K))
	if err != nil {
		return nil, err
	}
	st.lap(5)

	// 5. Regroup: the parts, as units, into one group per rank with the
	// fewest data objects shared between groups; then SPAC again on each
	// new share, keeping the best partition.
	var kept []taskPart // the best partition so far, when not the last
	for pass := 1; pass < opts.passes(sh.Total) && c.Size() > 1 && !small; pass++ {
		if err := mpi.Agree(c, ctx.Err()); err != nil {
			return nil, err
		}
		if kept == nil {
			kept = globalParts(local, plan.offset[c.Rank()])
		}
		tell("regroup")
		pg, err := partGraph(c, local, plan)
		if err != nil {
			return nil, err
		}
		pgroup, err := opts.grouper()(c, pg, c.Size(), opts)
		if err = mpi.Agree(c, err); err != nil {
			return nil, err
		}
		mine, nplan, err := regroup(c, local, pgroup)
		if err != nil {
			return nil, err
		}
		st.lap(1)
		tell("local spac")
		next, err := partitionShare(ctx, g, mine, nplan.parts[c.Rank()], opts, false)
		if err = mpi.Agree(c, err); err != nil {
			return nil, err
		}
		mine = nil
		st.lap(4)
		tell("metrics")
		nmet, err := evaluate(c, g, next, int64(opts.K))
		if err != nil {
			return nil, err
		}
		st.lap(5)
		// Go on from the new partition; keep the best (the earlier on a
		// tie) as its tasks' global parts.
		if nmet.Copies < met.Copies {
			kept, met = globalParts(next, nplan.offset[c.Rank()]), nmet
		}
		local, plan = next, nplan
	}
	if kept == nil {
		kept = globalParts(local, plan.offset[c.Rank()])
	}
	tasks, parts := int64(len(local.edges)), plan.parts[c.Rank()]
	local = nil
	met.Cap = opts.Cap

	// 6-7. The metrics are the kept partition's; its parts go back to the
	// readers.
	tell("return")
	part, err := returnParts(c, kept, readStart, len(sh.Row))
	if err != nil {
		return nil, err
	}
	st.lap(6)
	// The partitioner's time is the slowest rank's.
	slowest, err := mpi.Max(c, int64(time.Since(start)))
	if err != nil {
		return nil, err
	}
	met.Time = time.Duration(slowest)

	rss, cpu := usage()
	rs := RankStats{Tasks: tasks, Parts: parts, Moved: moved, PeakRSS: rss, CPUSeconds: cpu, Seconds: st.seconds, PeakBy: st.peak}
	all, err := mpi.Allgather(c, []RankStats{rs})
	if err != nil {
		return nil, err
	}
	res := &Result{Part: part, Metrics: met}
	for _, r := range all {
		res.Ranks = append(res.Ranks, r[0])
	}
	return res, nil
}

type stageClock struct {
	last    time.Time
	seconds [numStages]float64
	peak    [numStages]int64
}

func (s *stageClock) lap(i int) {
	now := time.Now()
	s.seconds[i] += now.Sub(s.last).Seconds()
	s.last = now
	s.peak[i], _ = usage()
}

// usage is the process's peak resident set size in bytes and its CPU
// time in seconds.
func usage() (int64, float64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return ru.Maxrss * 1024, cpu.Seconds() // Maxrss: kilobytes on Linux
}

// shareGraph is the locality graph of a rank's read share: task First+i
// joins data objects U[i] and V[i].
type shareGraph struct {
	first, total   int64 // the first task's number, the tasks of all ranks
	U, V           []int32
	numVertices    int
	numRowVertices int
	model          matrices.Model
}

func newShareGraph(sh *Shard) *shareGraph {
	g := &shareGraph{first: sh.First, total: sh.Total, U: sh.Row, V: sh.Col, model: sh.Model}
	switch sh.Model {
	case matrices.ModelSpMV:
		g.numVertices, g.numRowVertices = sh.NRows+sh.NCols, sh.NRows
		g.V = make([]int32, len(sh.Col))
		for i, col := range sh.Col {
			g.V[i] = int32(sh.NRows) + col
		}
	default:
		g.numVertices, g.numRowVertices = sh.NRows, sh.NRows
	}
	return g
}

// owner is the rank that owns data object v: its chain, its presence and
// its metrics.
func owner(v int32, p int) int { return int(uint32(v) % uint32(p)) }

// holder is the rank whose read share holds task e.
func holder(e int64, readStart []int64) int {
	return sort.Search(len(readStart), func(q int) bool { return readStart[q] > e }) - 1
}

// contract builds this rank's share of the contracted split-and-connect
// graph (transform.Contract's graph, distributed): vertex e for every task
// e, and for every data object an auxiliary edge between consecutive tasks
// of its chain, the tasks sorted by their other endpoint and the chain
// closed into a cycle when it has three tasks or more. Two tasks linked in
// both their chains get one edge of weight 2.
func contract(c mpi.Comm, g *shareGraph, readStart []int64) (*ptscotch.Graph, error) {
	p := c.Size()
	recv, err := toOwners(c, g, func(i int, v, other int32) inc { return inc{v, other, int32(g.first + int64(i))} })
	if err != nil {
		return nil, err
	}
	slices.SortFunc(recv, func(a, b inc) int {
		if c := cmp.Compare(a.V, b.V); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Other, b.Other); c != 0 {
			return c
		}
		return cmp.Compare(a.E, b.E)
	})
	if g.model == matrices.ModelGraph {
		if err := walkChains(c, recv); err != nil {
			return nil, err
		}
	}
	// Links a-b of every chain, to the ranks holding a and b.
	type link struct{ A, B int32 }
	eachLink := func(visit func(a, b int32)) {
		for lo := 0; lo < len(recv); {
			hi := lo + 1
			for hi < len(recv) && recv[hi].V == recv[lo].V {
				hi++
			}
			chainLinks(hi-lo, func(i int) int32 { return recv[lo+i].E }, visit)
			lo = hi
		}
	}
	links, lcounts := byRank(p, func(put func(q int, l link)) {
		eachLink(func(a, b int32) {
			put(holder(int64(a), readStart), link{a, b})
			put(holder(int64(b), readStart), link{b, a})
		})
	})
	recv = nil
	got, _, err := mpi.AlltoallFlat(c, links, lcounts)
	if err != nil {
		return nil, err
	}
	links = nil
	n := len(g.U)
	deg := make([]int32, n+1)
	for _, l := range got {
		deg[int64(l.A)-g.first+1]++
	}
	for i := range n {
		deg[i+1] += deg[i]
	}
	adj := make([]int32, deg[n])
	fill := slices.Clone(deg[:n])
	for _, l := range got {
		i := int64(l.A) - g.first
		adj[fill[i]] = l.B
		fill[i]++
	}
	fill = nil
	got = nil
	// Merge repeated neighbours into weights, in place.
	out := &ptscotch.Graph{Xadj: make([]int32, n+1), Adjncy: adj[:0], Adjwgt: make([]int32, 0, len(adj))}
	at := int32(0)
	for i := range n {
		nb := adj[deg[i]:deg[i+1]]
		slices.Sort(nb)
		for j, b := range nb {
			if j > 0 && b == nb[j-1] {
				out.Adjwgt[len(out.Adjwgt)-1]++
				continue
			}
			adj[at] = b
			at++
			out.Adjwgt = append(out.Adjwgt, 1)
		}
		out.Xadj[i+1] = at
	}
	out.Adjncy = adj[:at]
	return out, nil
}

// chainLinks visits the links of a chain of n, at(0) to at(n-1), closed
// into a cycle where that adds a link (from three on).
func chainLinks(n int, at func(i int) int32, visit func(a, b int32)) {
	for i := 0; i+1 < n; i++ {
		visit(at(i), at(i+1))
	}
	if n >= 3 {
		visit(at(n-1), at(0))
	}
}

// toOwners sends, for every task i of the rank's read share and each of
// its distinct data objects v (the other being other), rec(i, v, other)
// to v's owner, and returns what this rank receives as an owner.
func toOwners[T any](c mpi.Comm, g *shareGraph, rec func(i int, v, other int32) T) ([]T, error) {
	p := c.Size()
	send, counts := byRank(p, func(put func(q int, x T)) {
		for i, u := range g.U {
			v := g.V[i]
			put(owner(u, p), rec(i, u, v))
			if v != u {
				put(owner(v, p), rec(i, v, u))
			}
		}
	})
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	return recv, err
}

// inc is a task seen from one of its data objects: V's task E, whose
// other endpoint is Other.
type inc struct{ V, Other, E int32 }

// walkMaxDegree is transform's bound on the data objects whose chains
// are walked, and on the neighbours asked for their adjacency.
const walkMaxDegree = 64

// walkBudget bounds the adjacency entries the walk may exchange, per task:
// beyond it the chains stay in neighbour order.
const walkBudget = 8

// walkChains orders the chain of every data object of degree 3 to
// walkMaxDegree as transform.Walk does on one machine: groups of tasks by
// neighbour, from the smallest, each step to the smallest unvisited
// neighbour adjacent to the current one (asked of its owner when its
// degree is at most walkMaxDegree), else to the smallest unvisited. recv
// holds this rank's objects' tasks sorted by (V, Other, E) and is
// reordered in place. When the adjacency lists to exchange would exceed
// walkBudget entries per task, the chains keep the neighbour order.
func walkChains(c mpi.Comm, recv []inc) error {
	p := c.Size()
	type span struct{ lo, hi int }
	var spans []span // this rank's objects
	for lo := 0; lo < len(recv); {
		hi := lo + 1
		for hi < len(recv) && recv[hi].V == recv[lo].V {
			hi++
		}
		spans = append(spans, span{lo, hi})
		lo = hi
	}
	// Requests: every walked object asks for its distinct neighbours'
	// adjacency.
	type req struct{ U, From int32 }
	ask := make([][]int32, p)
	for _, sp := range spans {
		if d := sp.hi - sp.lo; d < 3 || d > walkMaxDegree {
			continue
		}
		for i := sp.lo; i < sp.hi; i++ {
			if u := recv[i].Other; i == sp.lo || u != recv[i-1].Other {
				ask[owner(u, p)] = append(ask[owner(u, p)], u)
			}
		}
	}
	asked, err := mpi.Alltoall(c, ask)
	if err != nil {
		return err
	}
	ask = nil
	find := func(u int32) (span, bool) {
		i := sort.Search(len(spans), func(i int) bool { return recv[spans[i].lo].V >= u })
		if i < len(spans) && recv[spans[i].lo].V == u {
			return spans[i], true
		}
		return span{}, false
	}
	// The answer to rank q: for each distinct object asked of low degree,
	// its id, its number of distinct neighbours and them.
	var volume int64
	answer := make([][]int32, p)
	for q, us := range asked {
		slices.Sort(us)
		us = slices.Compact(us)
		asked[q] = us
		for _, u := range us {
			if sp, ok := find(u); ok && sp.hi-sp.lo <= walkMaxDegree {
				volume += int64(sp.hi - sp.lo)
			}
		}
	}
	total, err := mpi.Sum(c, volume)
	if err != nil {
		return err
	}
	tasks, err := mpi.Sum(c, int64(len(recv)))
	if err != nil {
		return err
	}
	if total > walkBudget*tasks {
		return nil // the neighbour order
	}
	for q, us := range asked {
		for _, u := range us {
			sp, ok := find(u)
			if !ok || sp.hi-sp.lo > walkMaxDegree {
				continue
			}
			at := len(answer[q])
			answer[q] = append(answer[q], u, 0)
			for i := sp.lo; i < sp.hi; i++ {
				if w := recv[i].Other; i == sp.lo || w != recv[i-1].Other {
					answer[q] = append(answer[q], w)
				}
			}
			answer[q][at+1] = int32(len(answer[q]) - at - 2)
		}
	}
	asked = nil
	got, err := mpi.Alltoall(c, answer)
	if err != nil {
		return err
	}
	answer = nil
	adj := map[int32][]int32{}
	for _, list := range got {
		for i := 0; i < len(list); {
			u, n := list[i], int(list[i+1])
			adj[u] = list[i+2 : i+2+n]
			i += 2 + n
		}
	}
	// Walk every object's chain.
	var groups []span
	var visited []bool
	buf := make([]inc, 0, walkMaxDegree)
	for _, sp := range spans {
		if d := sp.hi - sp.lo; d < 3 || d > walkMaxDegree {
			continue
		}
		groups = groups[:0]
		for i := sp.lo; i < sp.hi; i++ {
			if i == sp.lo || recv[i].Other != recv[i-1].Other {
				groups = append(groups, span{i, i + 1})
			} else {
				groups[len(groups)-1].hi = i + 1
			}
		}
		group := func(w int32) int {
			for gi, gr := range groups {
				if recv[gr.lo].Other == w {
					return gi
				}
			}
			return -1
		}
		visited = append(visited[:0], make([]bool, len(groups))...)
		buf = buf[:0]
		cur, smallest := 0, 0
		for range groups {
			visited[cur] = true
			buf = append(buf, recv[groups[cur].lo:groups[cur].hi]...)
			step := -1
			if list, ok := adj[recv[groups[cur].lo].Other]; ok {
				for _, w := range list {
					if gi := group(w); gi >= 0 && !visited[gi] {
						step = gi
						break
					}
				}
			}
			if step < 0 {
				for smallest < len(groups) && visited[smallest] {
					smallest++
				}
				step = smallest
			}
			cur = step
		}
		copy(recv[sp.lo:sp.hi], buf)
	}
	return nil
}

// DefaultGroupImbalances are the imbalances the grouping of the tasks
// is tried with; the grouping whose groups share the fewest data objects
// is kept. A loose balance often cuts fewer objects, and the work it
// leaves uneven is only the ranks' (the cap is met by the balancing).
var DefaultGroupImbalances = []float64{0.03, 0.1, 0.2}

// LargeGroupImbalance is the one imbalance the tasks are grouped with from
// SmallTasks tasks: a grouping of millions of tasks takes PT-Scotch tens of
// seconds.
const LargeGroupImbalance = 0.1

// bestGrouping groups the tasks with every imbalance of
// opts.GroupImbalances and keeps the grouping with the fewest data
// objects shared between groups (ties: the earlier).
func bestGrouping(c mpi.Comm, g *shareGraph, gr *grouping, opts Options) ([]int32, error) {
	grouper := opts.grouper()
	imbalances := opts.GroupImbalances
	switch {
	case len(imbalances) > 0:
	case g.total < SmallTasks:
		imbalances = DefaultGroupImbalances
	default:
		imbalances = []float64{LargeGroupImbalance}
	}
	var best []int32
	bestCost := int64(-1)
	for _, imb := range imbalances {
		o := opts
		o.Imbalance = imb
		// No more groups than parts: with fewer parts than ranks, a rank
		// without a part would have to send its whole group away.
		part, err := grouper(c, gr.graph, min(c.Size(), opts.K), o)
		if err == nil && len(part) != len(gr.graph.Xadj)-1 {
			err = fmt.Errorf("the grouper returned %d groups for %d vertices", len(part), len(gr.graph.Xadj)-1)
		}
		if err = mpi.Agree(c, err); err != nil {
			return nil, err
		}
		group, err := gr.tasks(part)
		if err != nil {
			return nil, err
		}
		if len(imbalances) == 1 {
			return group, nil
		}
		cost, err := presences(c, g, group)
		if err != nil {
			return nil, err
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = group, cost
		}
	}
	return best, nil
}

// presences counts the distinct (data object, group) pairs of a grouping
// of the tasks: the data objects plus the copies the grouping alone
// causes.
func presences(c mpi.Comm, g *shareGraph, group []int32) (int64, error) {
	type vg struct{ V, Group int32 }
	recv, err := toOwners(c, g, func(i int, v, _ int32) vg { return vg{v, group[i]} })
	if err != nil {
		return 0, err
	}
	slices.SortFunc(recv, func(a, b vg) int { return cmp.Or(cmp.Compare(a.V, b.V), cmp.Compare(a.Group, b.Group)) })
	n := int64(0)
	for i := range recv {
		if i == 0 || recv[i] != recv[i-1] {
			n++
		}
	}
	return mpi.Sum(c, n)
}

// redistribute sends every task to the rank of its group and returns the
// tasks this rank receives, in increasing task number.
func redistribute(c mpi.Comm, g *shareGraph, group []int32) ([]edge, error) {
	send, counts := byRank(c.Size(), func(put func(q int, e edge)) {
		for i, q := range group {
			put(int(q), edge{int32(g.first + int64(i)), g.U[i], g.V[i]})
		}
	})
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return nil, err
	}
	// Each sender's tasks come in increasing order, and the senders'
	// ranges do too: recv is sorted already.
	return recv, nil
}

// partPlan says how many parts each rank holds and the number of its first.
type partPlan struct {
	parts, offset []int64
}

// balance makes every rank's share fit whole parts of cap tasks: rank q
// holding L_q tasks gets floor(L_q/cap) parts, and the k - sum of those
// spare parts go to the ranks with the largest remainders L_q mod cap; a
// rank with a remainder and no spare part sends its remainder away, each
// task to a rank with room where its endpoints already are (the cheapest
// first, by the copies the move adds). Spare parts beyond the remainders
// stay empty.
func balance(c mpi.Comm, g *shareGraph, mine []edge, k, capacity int64) (partPlan, []edge, int64, error) {
	p := c.Size()
	all, err := mpi.Allgather(c, []int64{int64(len(mine))})
	if err != nil {
		return partPlan{}, nil, 0, err
	}
	load := make([]int64, p)
	var full int64
	for q := range p {
		load[q] = all[q][0]
		full += load[q] / capacity
	}
	plan := partPlan{parts: make([]int64, p), offset: make([]int64, p)}
	spare := k - full
	var withRest []int
	for q := range p {
		plan.parts[q] = load[q] / capacity
		if load[q]%capacity > 0 {
			withRest = append(withRest, q)
		}
	}
	slices.SortStableFunc(withRest, func(a, b int) int { return cmp.Compare(load[b]%capacity, load[a]%capacity) })
	export := make([]int64, p)
	for i, q := range withRest {
		if int64(i) < spare {
			plan.parts[q]++
		} else {
			export[q] = load[q] % capacity
		}
	}
	for q, left := 0, spare-int64(min(len(withRest), int(spare))); left > 0; q, left = (q+1)%p, left-1 {
		plan.parts[q]++ // parts that stay empty
	}
	room := make([]int64, p)
	for q := range p {
		room[q] = plan.parts[q]*capacity - load[q]
	}
	for q := 1; q < p; q++ {
		plan.offset[q] = plan.offset[q-1] + plan.parts[q-1]
	}
	exporting := false
	for _, x := range export {
		exporting = exporting || x > 0
	}
	if !exporting {
		return plan, mine, 0, nil
	}
	moved, mine, err := exportRemainders(c, g, mine, export, room)
	return plan, mine, moved, err
}

// exportRemainders moves export[q] tasks off every rank q, into ranks with
// room; see balance.
func exportRemainders(c mpi.Comm, g *shareGraph, mine []edge, export, room []int64) (int64, []edge, error) {
	p, me := c.Size(), c.Rank()
	words := (p + 63) / 64
	// This rank's data objects and how many of its tasks touch each.
	verts, deg := localVertices(mine)
	// Presence: every rank tells the owners which objects it holds; the
	// owners answer the exporting ranks with the set of ranks holding
	// each of theirs.
	ask := make([][]int32, p)
	for _, v := range verts {
		ask[owner(v, p)] = append(ask[owner(v, p)], v)
	}
	asked, err := mpi.Alltoall(c, ask)
	if err != nil {
		return 0, nil, err
	}
	type hold struct {
		V    int32
		Rank int32
	}
	var holds []hold
	for q, vs := range asked {
		for _, v := range vs {
			holds = append(holds, hold{v, int32(q)})
		}
	}
	slices.SortFunc(holds, func(a, b hold) int { return cmp.Or(cmp.Compare(a.V, b.V), cmp.Compare(a.Rank, b.Rank)) })
	mask := func(v int32) []uint64 {
		i, _ := slices.BinarySearchFunc(holds, v, func(h hold, v int32) int { return cmp.Compare(h.V, v) })
		m := make([]uint64, words)
		for ; i < len(holds) && holds[i].V == v; i++ {
			m[holds[i].Rank/64] |= 1 << (holds[i].Rank % 64)
		}
		return m
	}
	answer := make([][]uint64, p)
	for q, vs := range asked {
		if export[q] == 0 {
			continue
		}
		for _, v := range vs {
			answer[q] = append(answer[q], mask(v)...)
		}
	}
	masks, err := mpi.Alltoall(c, answer)
	if err != nil {
		return 0, nil, err
	}
	// holders[v's index in verts] = its presence mask.
	var present []uint64
	if export[me] > 0 {
		present = make([]uint64, len(verts)*words)
	}
	pos := make([]int, p)
	for i, v := range verts {
		if present == nil {
			break // only an exporting rank needs to know
		}
		q := owner(v, p)
		copy(present[i*words:(i+1)*words], masks[q][pos[q]:pos[q]+words])
		pos[q] += words
	}
	// cost of moving task i to rank q: the copies it adds there less the
	// copies it saves here. Each task's endpoints are looked up once
	// (ends; a loop's second is -1) with what leaving saves (saved): the
	// pricing and the picking below then cost O(1) a task and receiver,
	// where a lookup per task and receiver took 20 s of R-MAT 22's
	// partition whatever the process count.
	var ends [][2]int32
	var saved []int8
	if export[me] > 0 {
		ends, saved = make([][2]int32, len(mine)), make([]int8, len(mine))
		for i, e := range mine {
			ends[i] = [2]int32{-1, -1}
			for k, v := range [2]int32{e.U, e.V} {
				if k == 1 && e.V == e.U {
					break
				}
				j, _ := slices.BinarySearch(verts, v)
				ends[i][k] = int32(j)
				if deg[j] == 1 {
					saved[i]++
				}
			}
		}
	}
	cost := func(i, q int) int {
		c := -int(saved[i])
		for _, j := range ends[i] {
			if j >= 0 && present[int(j)*words+q/64]&(1<<(q%64)) == 0 {
				c++
			}
		}
		return c
	}
	// Each exporter prices moving its whole remainder to each receiver.
	price := make([]int64, p)
	if export[me] > 0 {
		for q := range p {
			if room[q] <= 0 || q == me {
				price[q] = -1
				continue
			}
			var hist [5]int64
			for i := range mine {
				hist[cost(i, q)+2]++
			}
			sum := int64(0)
			for b, n := range cheapest(hist, export[me]) {
				sum += n * int64(b-2)
			}
			price[q] = sum
		}
	}
	prices, err := mpi.Allgather(c, price)
	if err != nil {
		return 0, nil, err
	}
	// The same plan on every rank: pairs cheapest per task first.
	type pair struct {
		from, to int
		per      float64
	}
	var pairs []pair
	for a := range p {
		for b := range p {
			if export[a] > 0 && room[b] > 0 && a != b {
				pairs = append(pairs, pair{a, b, float64(prices[a][b]) / float64(export[a])})
			}
		}
	}
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp.Compare(x.per, y.per) })
	left, free := slices.Clone(export), slices.Clone(room)
	amount := make([]int64, p) // what this rank sends to each
	var order []int            // receivers in the order taken
	for _, pr := range pairs {
		n := min(left[pr.from], free[pr.to])
		if n <= 0 {
			continue
		}
		left[pr.from] -= n
		free[pr.to] -= n
		if pr.from == me {
			amount[pr.to] += n
			order = append(order, pr.to)
		}
	}
	// Pick the tasks: for each receiver in turn, the cheapest not taken.
	taken := make([]bool, len(mine))
	out := make([][]edge, p)
	for _, q := range order {
		if amount[q] == 0 {
			continue
		}
		for _, i := range takeCheapest(len(mine), func(i int) int { return cost(i, q) }, taken, amount[q]) {
			out[q] = append(out[q], mine[i])
		}
		amount[q] = 0
	}
	in, err := mpi.Alltoall(c, out)
	if err != nil {
		return 0, nil, err
	}
	kept := mine[:0]
	var moved int64
	for i, e := range mine {
		if taken[i] {
			moved++
		} else {
			kept = append(kept, e)
		}
	}
	for _, es := range in {
		kept = append(kept, es...)
	}
	slices.SortFunc(kept, func(a, b edge) int { return cmp.Compare(a.E, b.E) })
	return moved, kept, nil
}

// cheapest splits n tasks over the costs -2..2 of a histogram (hist[c+2]
// tasks cost c), the cheapest first: how many of each cost are taken.
func cheapest(hist [5]int64, n int64) [5]int64 {
	var take [5]int64
	for b := 0; b < 5 && n > 0; b++ {
		take[b] = min(n, hist[b])
		n -= take[b]
	}
	return take
}

// takeCheapest marks taken and returns the n cheapest of the tasks
// 0..count-1 not yet taken, by cost (-2..2), the earlier first among
// equals: as a stable sort by cost would, in two passes.
func takeCheapest(count int, cost func(i int) int, taken []bool, n int64) []int {
	var hist [5]int64
	for i := range count {
		if !taken[i] {
			hist[cost(i)+2]++
		}
	}
	quota := cheapest(hist, n)
	var out []int
	for i := range count {
		if taken[i] {
			continue
		}
		if b := cost(i) + 2; quota[b] > 0 {
			quota[b]--
			taken[i] = true
			out = append(out, i)
		}
	}
	return out
}

// localVertices returns the data objects the tasks touch, sorted, and how
// many of the tasks touch each.
func localVertices(es []edge) ([]int32, []int32) {
	vs := make([]int32, 0, 2*len(es))
	for _, e := range es {
		vs = append(vs, e.U)
		if e.V != e.U {
			vs = append(vs, e.V)
		}
	}
	slices.Sort(vs)
	deg := make([]int32, 0, len(vs)/2+1)
	out := vs[:0]
	for i, v := range vs {
		if i > 0 && v == vs[i-1] {
			deg[len(deg)-1]++
			continue
		}
		out = append(out, v)
		deg = append(deg, 1)
	}
	return slices.Clip(out), deg
}

// share is a rank's final share and its partition: task edges[i] is in
// local part part[i]; the graph and incidence are in local vertex numbers,
// verts mapping them back.
type share struct {
	edges []edge
	verts []int32
	g     *matrices.Graph
	inc   *matrices.Incidence
	part  spac.Partition
}

// partitionShare runs the single-machine SPAC on a rank's share, into k
// parts.
func partitionShare(ctx context.Context, g *shareGraph, mine []edge, k int64, opts Options, whole bool) (*share, error) {
	var verts []int32
	if whole {
		// One rank holds every task: the graph keeps its numbering, so
		// that SPAC sees what the single-machine path gives it.
		verts = make([]int32, g.numVertices)
		for i := range verts {
			verts[i] = int32(i)
		}
	} else {
		verts, _ = localVertices(mine)
	}
	s := &share{edges: mine, verts: verts}
	lg := &matrices.Graph{NumVertices: len(verts), U: make([]int32, len(mine)), V: make([]int32, len(mine)), Model: g.model}
	for i, e := range mine {
		u, _ := slices.BinarySearch(verts, e.U)
		v, _ := slices.BinarySearch(verts, e.V)
		lg.U[i], lg.V[i] = int32(u), int32(v)
	}
	lg.NumRowVertices, _ = slices.BinarySearch(verts, int32(g.numRowVertices))
	if g.model == matrices.ModelGraph {
		lg.NumRowVertices = len(verts)
	}
	s.g = lg
	if len(mine) == 0 {
		s.part = spac.Partition{K: int(k), Part: []int32{}}
		s.inc = &matrices.Incidence{Offsets: make([]int32, len(verts)+1)}
		return s, nil
	}
	if k < 1 {
		return nil, fmt.Errorf("%d tasks and no part to hold them", len(mine))
	}
	inc, err := matrices.BuildIncidence(lg)
	if err != nil {
		return nil, err
	}
	s.inc = inc
	o := opts.Local
	o.K, o.Cap, o.Progress = int(k), opts.Cap, nil
	if o.StartsBySize == 0 {
		o.StartsBySize = g.total // the starts the single machine would run on the whole input
	}
	p, err := spac.SPAC{}.Partition(ctx, lg, inc, o)
	if err != nil {
		return nil, err
	}
	if err := spac.Check(lg, p, opts.Cap); err != nil {
		return nil, fmt.Errorf("spac on this rank's share gave an invalid partition: %w", err)
	}
	s.part = p
	debug.FreeOSMemory() // SPAC's working memory is gone: give it back before the metrics
	return s, nil
}

// evaluate computes spac.Evaluate's metrics of the whole partition: the
// parts of every data object are counted on each rank and added up by its
// owner.
func evaluate(c mpi.Comm, g *shareGraph, s *share, k int64) (spac.Metrics, error) {
	p := c.Size()
	local := spac.Evaluate(s.g, s.inc, s.part)
	// Per data object: the distinct parts and the tasks on this rank.
	type obj struct{ V, Parts, Deg int32 }
	counts := make([]int, p)
	for v, id := range s.verts {
		if s.inc.Offsets[v+1] > s.inc.Offsets[v] { // objects without tasks (one rank keeps them all) are not counted
			counts[owner(id, p)]++
		}
	}
	off := prefix(counts)
	send := make([]obj, off[p-1]+counts[p-1])
	stamp := make([]int32, max(s.part.K, 1))
	for i := range stamp {
		stamp[i] = -1
	}
	for v := range s.verts {
		lo, hi := s.inc.Offsets[v], s.inc.Offsets[v+1]
		if lo == hi {
			continue
		}
		parts := int32(0)
		for _, e := range s.inc.Edge[lo:hi] {
			if q := s.part.Part[e]; stamp[q] != int32(v) {
				stamp[q] = int32(v)
				parts++
			}
		}
		q := owner(s.verts[v], p)
		send[off[q]] = obj{s.verts[v], parts, hi - lo}
		off[q]++
	}
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return spac.Metrics{}, err
	}
	send = nil
	slices.SortFunc(recv, func(a, b obj) int { return cmp.Compare(a.V, b.V) })
	var copies, vertices, cutVertices, cutDeg, degSum int64
	minDeg, maxDeg := int64(1<<62), int64(0)
	hist := map[int32]int64{}
	for lo := 0; lo < len(recv); {
		hi := lo
		var parts, d int64
		for ; hi < len(recv) && recv[hi].V == recv[lo].V; hi++ {
			parts += int64(recv[hi].Parts)
			d += int64(recv[hi].Deg)
		}
		vertices++
		degSum += d
		minDeg, maxDeg = min(minDeg, d), max(maxDeg, d)
		hist[int32(d)]++
		if parts > 1 {
			copies += parts - 1
			cutVertices++
			cutDeg += d
		}
		lo = hi
	}
	sums := []int64{copies, vertices, cutVertices, cutDeg, degSum, int64(len(s.edges))}
	if err := c.Allreduce(sums, mpi.OpSum); err != nil {
		return spac.Metrics{}, err
	}
	maxes := []int64{maxDeg, int64(local.MaxLoad), int64(local.MaxUnique), -minDeg}
	if err := c.Allreduce(maxes, mpi.OpMax); err != nil {
		return spac.Metrics{}, err
	}
	// The degree histogram, gathered sparse.
	type bin struct {
		Deg   int32
		Count int64
	}
	bins := make([]bin, 0, len(hist))
	for d, n := range hist {
		bins = append(bins, bin{d, n})
	}
	allBins, err := mpi.Allgather(c, bins)
	if err != nil {
		return spac.Metrics{}, err
	}
	merged := map[int32]int64{}
	for _, bs := range allBins {
		for _, b := range bs {
			merged[b.Deg] += b.Count
		}
	}
	m := spac.Metrics{Edges: int(sums[5]), Vertices: int(sums[1]), K: int(k), Copies: sums[0],
		MaxLoad: int(maxes[1]), MaxUnique: int(maxes[2]), CutVertices: int(sums[2])}
	if m.Edges > 0 {
		m.MaxLoadRatio = float64(m.MaxLoad) * float64(k) / float64(m.Edges)
	}
	if m.Vertices > 0 {
		m.RF = 1 + float64(m.Copies)/float64(m.Vertices)
		m.MeanUnique = float64(int64(m.Vertices)+m.Copies) / float64(k)
		m.Degree = degreeSummary(merged, m.Vertices, -maxes[3], maxes[0], sums[4])
	}
	if m.CutVertices > 0 {
		m.AvgCutDegree = float64(sums[3]) / float64(m.CutVertices)
	}
	return m, nil
}

// degreeSummary is spac's DegreeSummary from a histogram: the median (the
// mean of the two middle degrees for an even count) and the nearest-rank
// 99th percentile.
func degreeSummary(hist map[int32]int64, count int, minDeg, maxDeg, sum int64) spac.DegreeSummary {
	s := spac.DegreeSummary{Min: int(minDeg), Max: int(maxDeg), Mean: float64(sum) / float64(count)}
	degs := make([]int32, 0, len(hist))
	for d := range hist {
		degs = append(degs, d)
	}
	slices.Sort(degs)
	nth := func(r int64) int {
		seen := int64(0)
		for _, d := range degs {
			seen += hist[d]
			if seen > r {
				return int(d)
			}
		}
		return int(maxDeg)
	}
	n := int64(count)
	if n%2 == 1 {
		s.Median = float64(nth(n / 2))
	} else {
		s.Median = float64(nth(n/2-1)+nth(n/2)) / 2
	}
	rank := max((99*n+99)/100, 1)
	s.P99 = nth(rank - 1)
	return s
}

// taskPart is a task and its global part.
type taskPart struct{ E, Part int32 }

// globalParts lists the rank's tasks with their global parts.
func globalParts(s *share, offset int64) []taskPart {
	out := make([]taskPart, len(s.edges))
	for i, e := range s.edges {
		out[i] = taskPart{e.E, int32(offset) + s.part.Part[i]}
	}
	return out
}

// returnParts sends every task's global part to the rank that read it and
// returns the parts of this rank's read share, in its order.
func returnParts(c mpi.Comm, tp []taskPart, readStart []int64, n int) ([]int32, error) {
	send, counts := byRank(c.Size(), func(put func(q int, t taskPart)) {
		for _, t := range tp {
			put(holder(int64(t.E), readStart), t)
		}
	})
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return nil, err
	}
	part := make([]int32, n)
	first := readStart[c.Rank()]
	got := 0
	for _, r := range recv {
		i := int64(r.E) - first
		if i < 0 || i >= int64(n) {
			return nil, fmt.Errorf("task %d came back to rank %d, which read tasks %d to %d", r.E, c.Rank(), first, first+int64(n)-1)
		}
		part[i] = r.Part
		got++
	}
	if got != n {
		err = fmt.Errorf("rank %d got the parts of %d of its %d tasks back", c.Rank(), got, n)
	}
	return part, mpi.Agree(c, err)
}

// partGraph is the graph of the parts: a vertex per part (rank r holding
// its parts' vertices, numbered from plan.offset[r]), weighted by the
// part's tasks, and an edge between two parts for every data object both
// touch, its weight the number of such objects. An object in more than
// maxClique parts links each to the next in part order (a cycle) instead
// of every pair.
func partGraph(c mpi.Comm, s *share, plan partPlan) (*ptscotch.Graph, error) {
	p := c.Size()
	base := int32(plan.offset[c.Rank()])
	// (object, part) once per pair, to the object's owner.
	type op struct{ V, Part int32 }
	var pairs []op
	stamp := make([]int32, max(s.part.K, 1))
	for i := range stamp {
		stamp[i] = -1
	}
	for v := range s.verts {
		for _, e := range s.inc.Edge[s.inc.Offsets[v]:s.inc.Offsets[v+1]] {
			if q := s.part.Part[e]; stamp[q] != int32(v) {
				stamp[q] = int32(v)
				pairs = append(pairs, op{s.verts[v], base + q})
			}
		}
	}
	send, counts := byRank(p, func(put func(q int, x op)) {
		for _, x := range pairs {
			put(owner(x.V, p), x)
		}
	})
	pairs = nil
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return nil, err
	}
	send = nil
	slices.SortFunc(recv, func(a, b op) int { return cmp.Or(cmp.Compare(a.V, b.V), cmp.Compare(a.Part, b.Part)) })
	// Part-to-part links, to the ranks holding either end.
	type link struct{ A, B, W int32 }
	partRank := func(part int32) int {
		return sort.Search(p, func(q int) bool { return plan.offset[q] > int64(part) }) - 1
	}
	out := make([][]link, p)
	add := func(a, b int32) {
		out[partRank(a)] = append(out[partRank(a)], link{a, b, 1})
		out[partRank(b)] = append(out[partRank(b)], link{b, a, 1})
	}
	const maxClique = 16
	for lo := 0; lo < len(recv); {
		hi := lo + 1
		for hi < len(recv) && recv[hi].V == recv[lo].V {
			hi++
		}
		if t := hi - lo; t <= maxClique {
			for i := lo; i < hi; i++ {
				for j := i + 1; j < hi; j++ {
					add(recv[i].Part, recv[j].Part)
				}
			}
		} else {
			for i := lo; i < hi; i++ {
				j := i + 1
				if j == hi {
					j = lo
				}
				add(recv[i].Part, recv[j].Part)
			}
		}
		lo = hi
	}
	recv = nil
	got, err := mpi.Alltoall(c, out)
	if err != nil {
		return nil, err
	}
	var links []link
	for _, ls := range got {
		links = append(links, ls...)
	}
	slices.SortFunc(links, func(a, b link) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	k := s.part.K
	g := &ptscotch.Graph{Xadj: make([]int32, k+1), Vwgt: make([]int32, k)}
	for _, q := range s.part.Part {
		g.Vwgt[q]++
	}
	for i := 0; i < len(links); {
		j := i
		w := int32(0)
		for ; j < len(links) && links[j].A == links[i].A && links[j].B == links[i].B; j++ {
			w += links[j].W
		}
		g.Adjncy = append(g.Adjncy, links[i].B)
		g.Adjwgt = append(g.Adjwgt, w)
		g.Xadj[links[i].A-base+1]++
		i = j
	}
	for q := range k {
		g.Xadj[q+1] += g.Xadj[q]
	}
	return g, nil
}

// regroup sends every task to the rank of its part's group and returns
// the rank's new share and plan: a rank holds as many parts as its group
// has, so every share fits (a part holds at most the cap).
func regroup(c mpi.Comm, s *share, pgroup []int32) ([]edge, partPlan, error) {
	p := c.Size()
	if len(pgroup) != s.part.K {
		return nil, partPlan{}, fmt.Errorf("the grouper returned %d groups for %d parts", len(pgroup), s.part.K)
	}
	count := make([]int64, p)
	for _, q := range pgroup {
		count[q]++
	}
	if err := c.Allreduce(count, mpi.OpSum); err != nil {
		return nil, partPlan{}, err
	}
	plan := partPlan{parts: count, offset: make([]int64, p)}
	for q := 1; q < p; q++ {
		plan.offset[q] = plan.offset[q-1] + count[q-1]
	}
	send, counts := byRank(p, func(put func(q int, e edge)) {
		for i, e := range s.edges {
			put(int(pgroup[s.part.Part[i]]), e)
		}
	})
	recv, _, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return nil, partPlan{}, err
	}
	slices.SortFunc(recv, func(a, b edge) int { return cmp.Compare(a.E, b.E) })
	return recv, plan, nil
}
