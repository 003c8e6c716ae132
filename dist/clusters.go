package dist

import (
	"fmt"
	"slices"

	"github.com/spac-gpu/spac/internal/enum"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/ptscotch"
)

// Grouping chooses the graph PT-Scotch cuts into the ranks' groups.
type Grouping uint8

const (
	// GroupAuto groups clusters from SmallTasks tasks and the tasks one by
	// one below: on R-MAT scale 20 (16M tasks, 16 cores) the task-level
	// grouping took 68 to 203 s of a 100 to 239 s partition on 2 to 16
	// processes, and set the peak memory.
	GroupAuto Grouping = iota
	// GroupTasks cuts the contracted graph, a vertex per task (contract).
	GroupTasks
	// GroupClusters cuts the cluster graph, a vertex per cluster of tasks
	// (clusterGraph), and every task follows its cluster.
	GroupClusters
)

var groupings = enum.New("grouping",
	enum.Name[Grouping]{Value: GroupAuto, Name: "auto"},
	enum.Name[Grouping]{Value: GroupTasks, Name: "tasks"},
	enum.Name[Grouping]{Value: GroupClusters, Name: "clusters"},
)

func (g Grouping) String() string { return groupings.String(g) }

// ParseGrouping reads a grouping name: auto, tasks or clusters.
func ParseGrouping(s string) (Grouping, error) { return groupings.Parse(s) }

// clusters says whether the tasks are grouped by cluster.
func (o Options) clusters(tasks int64) bool {
	switch o.Grouping {
	case GroupTasks:
		return false
	case GroupClusters:
		return true
	}
	return tasks >= SmallTasks
}

// grouping is a graph to group and how a partition of it groups the tasks.
type grouping struct {
	graph *ptscotch.Graph
	// tasks is the group of every task of the rank's read share, given the
	// group of every local vertex of graph.
	tasks func(part []int32) ([]int32, error)
}

// taskGrouping groups the tasks one by one, on the contracted graph.
func taskGrouping(c mpi.Comm, g *shareGraph, readStart []int64) (*grouping, error) {
	cg, err := contract(c, g, readStart)
	if err != nil {
		return nil, err
	}
	return &grouping{graph: cg, tasks: func(part []int32) ([]int32, error) { return part, nil }}, nil
}

// clusterOf is the cluster of a task joining data objects u and v, of du
// and dv tasks. For the spmv model it is the row, the smaller (the columns
// are numbered after the rows). For the graph model it is the endpoint of
// fewer tasks, the smaller on a tie, so that the hubs are the objects the
// clusters share (as degree-based hashing places an edge by its endpoint
// of lower degree): with the smaller endpoint, the hubs of R-MAT scale 18,
// numbered first, took most tasks into their clusters and every other
// vertex's tasks were spread over its hubs' (1.16 and 1.17 times the
// single machine's copies on 2 and 4 processes, instead of 1.03 and 1.07
// with the tasks one by one).
func (g *shareGraph) clusterOf(u, v, du, dv int32) int32 {
	switch {
	case g.model == matrices.ModelSpMV:
		return min(u, v)
	case du < dv || du == dv && u < v:
		return u
	}
	return v
}

// clusterNumbers is the cluster graph's global numbering: rank q owns the
// clusters r ≡ q (mod p) of the n (owner), in increasing order, so that
// every rank's vertices are one range, as PT-Scotch wants, and every rank
// can number any cluster without asking.
type clusterNumbers struct {
	p     int
	first []int32 // the global number of each rank's first cluster
}

func newClusterNumbers(n, p int) clusterNumbers {
	first := make([]int32, p+1)
	for q := range p {
		first[q+1] = first[q] + int32(clusterCount(n, p, q))
	}
	return clusterNumbers{p: p, first: first}
}

// clusterCount is the number of clusters r < n with r ≡ q (mod p).
func clusterCount(n, p, q int) int { return max(n-q+p-1, 0) / p }

// global is cluster r's vertex number.
func (cn clusterNumbers) global(r int32) int32 { return cn.first[owner(r, cn.p)] + r/int32(cn.p) }

// clusterGrouping groups the clusters of tasks (clusterOf), on the
// cluster graph, and every task goes to its cluster's group.
func clusterGrouping(c mpi.Comm, g *shareGraph) (*grouping, error) {
	cg, deg, err := clusterGraph(c, g)
	if err != nil {
		return nil, err
	}
	return &grouping{graph: cg, tasks: func(part []int32) ([]int32, error) { return clusterGroups(c, g, deg, part) }}, nil
}

// clusterGraph builds this rank's share of the cluster graph: a vertex per
// data object r < numRowVertices (clusterNumbers), weighted by the tasks
// whose cluster it is (0 for none: PT-Scotch takes vertices of weight 0),
// and for every link of a data object's chain between tasks of different
// clusters (objects of at most hubChainTasks tasks) an edge between the
// two clusters, the links between two clusters adding up to its weight.
// The chains are contract's in neighbour order: the tasks of object V
// sorted by their other endpoint, consecutive ones linked, closed into a
// cycle from three tasks (chainLinks). They are not walked (walkChains, the graph model's): the walk costs an exchange
// of adjacency lists. A task's cluster is decided the same way at the
// owners of both its objects (for the graph model, each asks the other
// endpoints' owners for their degree); its weight is counted at the owner
// of the cluster. The task-level graph is never built: a record is 8
// bytes, a link 8 bytes at each end. deg is, for the graph model, the
// tasks of each of the rank's objects, by local index (v/p).
func clusterGraph(c mpi.Comm, g *shareGraph) (cg *ptscotch.Graph, deg []int32, err error) {
	p, me := c.Size(), c.Rank()
	if int64(g.numRowVertices) > 1<<31-1 {
		return nil, nil, fmt.Errorf("%d clusters exceed PT-Scotch's 32-bit vertex numbers", g.numRowVertices)
	}
	cn := newClusterNumbers(g.numRowVertices, p)
	// Each task at the owners of its objects, as V<<32 | Other: sorted,
	// the chains of contract (the tie between equal endpoints, the task
	// number, decides nothing here: such tasks share their cluster).
	recv, err := toOwners(c, g, func(_ int, v, other int32) uint64 { return pack(v, other) })
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(recv)
	chains := func(visit func(v int32, lo, hi int)) {
		for lo := 0; lo < len(recv); {
			v := int32(recv[lo] >> 32)
			hi := lo + 1
			for hi < len(recv) && int32(recv[hi]>>32) == v {
				hi++
			}
			visit(v, lo, hi)
			lo = hi
		}
	}
	// The degrees the clusters are chosen by: the rank's own objects'
	// (their chains' lengths) and the other endpoints', asked of their
	// owners.
	degOf := func(int32) int32 { return 0 }
	if g.model == matrices.ModelGraph {
		deg = make([]int32, clusterCount(g.numVertices, p, me))
		chains(func(v int32, lo, hi int) { deg[v/int32(p)] = int32(hi - lo) })
		others := func(visit func(r int32)) {
			for _, x := range recv {
				visit(int32(uint32(x)))
			}
		}
		if degOf, err = askOwners(c, others, func(r int32) int32 { return deg[r/int32(p)] }); err != nil {
			return nil, nil, err
		}
	}
	// Every record's Other gives way to its task's cluster.
	n := clusterCount(g.numRowVertices, p, me)
	vwgt := make([]int32, n)
	chains(func(v int32, lo, hi int) {
		dv := int32(0)
		if deg != nil {
			dv = deg[v/int32(p)]
		}
		for i := lo; i < hi; i++ {
			other := int32(uint32(recv[i]))
			cl := g.clusterOf(v, other, dv, degOf(other))
			if cl == v {
				vwgt[v/int32(p)]++
			}
			recv[i] = pack(v, cl)
		}
	})
	// The links between clusters, to the owners of both.
	links, counts := byRank(p, func(put func(q int, l uint64)) {
		link := func(a, b int32) {
			if a != b {
				put(owner(a, p), pack(a, b))
				put(owner(b, p), pack(b, a))
			}
		}
		chains(func(_ int32, lo, hi int) {
			if hi-lo > hubChainTasks {
				return
			}
			chainLinks(hi-lo, func(i int) int32 { return int32(uint32(recv[lo+i])) }, link)
		})
	})
	recv = nil
	got, _, err := mpi.AlltoallFlat(c, links, counts)
	if err != nil {
		return nil, nil, err
	}
	links = nil
	slices.Sort(got)
	// CSR, the repeated links of a pair merged into its weight.
	distinct := 0
	for i := range got {
		if i == 0 || got[i] != got[i-1] {
			distinct++
		}
	}
	cg = &ptscotch.Graph{Xadj: make([]int32, n+1), Adjncy: make([]int32, 0, distinct), Adjwgt: make([]int32, 0, distinct), Vwgt: vwgt}
	for i := 0; i < len(got); {
		j := i + 1
		for j < len(got) && got[j] == got[i] {
			j++
		}
		a, b := int32(got[i]>>32), int32(uint32(got[i]))
		cg.Adjncy = append(cg.Adjncy, cn.global(b))
		cg.Adjwgt = append(cg.Adjwgt, int32(j-i))
		cg.Xadj[a/int32(p)+1]++
		i = j
	}
	for i := range n {
		cg.Xadj[i+1] += cg.Xadj[i]
	}
	return cg, deg, nil
}

// hubChainTasks is the most tasks a data object may have for its chain to
// link clusters: a hub's tasks end up in most groups whatever the grouping,
// and its links are most of the graph PT-Scotch cuts on a skewed input
// (R-MAT 19: 69% of the links come from objects of more than 64 tasks).
// Measured on 2 cores (2026-11-27), R-MAT 19 (8M tasks): the grouping 11.5
// -> 5.0 s on 4 processes and 5.0 -> 2.4 s on 2, copies 0.9994x and
// 0.9985x; a 1.5M-task circuit 1.000x and 1.008x, a web crawl's 2.5M tasks
// 1.004x and 1.002x, their groupings as fast as before (256 tasks:
// R-MAT's grouping 7.4 s and 2.8 s).
const hubChainTasks = 64

// pack is the pair (a, b) of nonnegative numbers as one key that sorts by
// a, then b.
func pack(a, b int32) uint64 { return uint64(a)<<32 | uint64(uint32(b)) }

// clusterGroups is the group of every task of the read share: its
// cluster's. The owners of the tasks' objects are asked for each object's
// degree (deg, the graph model's: it decides the cluster) and the group
// of its own cluster, which part holds by local index (r/p).
func clusterGroups(c mpi.Comm, g *shareGraph, deg, part []int32) ([]int32, error) {
	p := int32(c.Size())
	type answer struct{ Deg, Group int32 }
	// The spmv model's clusters are the rows: no column is asked.
	objects := func(visit func(r int32)) {
		for i, u := range g.U {
			visit(u)
			if g.model == matrices.ModelGraph {
				visit(g.V[i])
			}
		}
	}
	ask, err := askOwners(c, objects, func(r int32) answer {
		a := answer{Group: part[r/p]}
		if deg != nil {
			a.Deg = deg[r/p]
		}
		return a
	})
	if err != nil {
		return nil, err
	}
	group := make([]int32, len(g.U))
	for i, u := range g.U {
		au := ask(u)
		if g.model == matrices.ModelSpMV {
			group[i] = au.Group
			continue
		}
		v := g.V[i]
		av := ask(v)
		if g.clusterOf(u, v, au.Deg, av.Deg) == u {
			group[i] = au.Group
		} else {
			group[i] = av.Group
		}
	}
	return group, nil
}

// askOwners asks the owners of the distinct objects that each visits for
// answer(r), computed by r's owner, and returns the lookup of any of them.
// Collective over c.
func askOwners[T any](c mpi.Comm, each func(visit func(r int32)), answer func(r int32) T) (func(r int32) T, error) {
	p := c.Size()
	ids, counts := byRank(p, func(put func(q int, r int32)) {
		each(func(r int32) { put(owner(r, p), r) })
	})
	// Each owner's segment sorted, without repeats, moved down in place.
	off := prefix(counts)
	at := 0
	for q := range p {
		seg := ids[off[q] : off[q]+counts[q]]
		slices.Sort(seg)
		seg = slices.Compact(seg)
		copy(ids[at:], seg)
		counts[q] = len(seg)
		at += len(seg)
	}
	ids = ids[:at]
	asked, rcounts, err := mpi.AlltoallFlat(c, ids, counts)
	if err != nil {
		return nil, err
	}
	reply := make([]T, len(asked))
	for i, r := range asked {
		reply[i] = answer(r)
	}
	got, _, err := mpi.AlltoallFlat(c, reply, rcounts)
	if err != nil {
		return nil, err
	}
	off = prefix(counts)
	return func(r int32) T {
		q := owner(r, p)
		j, _ := slices.BinarySearch(ids[off[q]:off[q]+counts[q]], r)
		return got[off[q]+j]
	}, nil
}
