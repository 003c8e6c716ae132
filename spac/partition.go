package spac

import (
	"context"
	"fmt"
	"sort"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/transform"
)

// Partition is an edge partition: edge e belongs to part Part[e] in [0, K).
type Partition struct {
	K    int
	Part []int32
}

// Options are the parameters every method receives. Resolve fills K and Cap.
type Options struct {
	K    int   // number of parts
	Cap  int   // strict upper bound on the edges of any part
	Seed int64 // every method is deterministic given the seed

	// SPAC's own parameters; the baselines ignore them.
	DominantWeight int32                 // weight of dominant edges (default 1000)
	Formulation    transform.Formulation // which equivalent graph METIS sees
	Order          transform.Order       // order of clones along each vertex's path
	Imbalance      float64               // METIS imbalance tolerance before the cap pass
	Coarsen        int                   // most levels of matching in Go before METIS on graphs of 1M edges or more (0: none, METIS sees the whole graph)
	Polish         int                   // passes of Polish after the cap pass (0: none; negative: DefaultPolish's choice by size)
	Refine         int                   // rounds of RefinePairs after Polish (0: none)
	Starts         []string              // first partitions SPAC refines, the best kept (nil: by the size, see fromStarts)
	StartsBySize   int64                 // the edges the default starts are chosen by (0: the graph's own); a distributed run's share passes the whole input's
	MemoryPerTask  float64               // from 16M tasks, the peak in bytes a task the own start is held to, or left out (0: DefaultMemoryPerTask; negative: no bound); from qualityStartsPerTask (or unbounded) the starts added for quality alone run there too

	// budget, when set, bounds what the own start may hold (fromStarts).
	budget *memoryBudget

	// HEP's parameter; the other methods ignore it.
	Tau float64 // degree threshold in multiples of the mean degree (0: DefaultTau; +Inf: all edges by NE++)

	// Progress, when set, is told which stage a long method is in.
	Progress func(stage string)
}

// Resolve derives K and the cap for m edges from either a part count or a
// thread-block size; exactly one of parts and blockSize must be positive.
// With a block size B there are ceil(m/B) parts of at most B edges each;
// with K parts the cap is ceil(m/K), the tightest one that can be held.
func Resolve(m, parts, blockSize int) (k, capacity int, err error) {
	switch {
	case m <= 0:
		return 0, 0, fmt.Errorf("the graph has no edges")
	case parts > 0 && blockSize > 0:
		return 0, 0, fmt.Errorf("give either a number of parts or a block size, not both")
	case blockSize > 0:
		return (m + blockSize - 1) / blockSize, blockSize, nil
	case parts > 0:
		if parts > m {
			return 0, 0, fmt.Errorf("%d parts for %d edges: some parts would be empty (use at most %d)", parts, m, m)
		}
		return parts, (m + parts - 1) / parts, nil
	}
	return 0, 0, fmt.Errorf("give a number of parts or a block size")
}

// Method is an edge partitioner.
type Method interface {
	// Name is the name the command line uses for the method.
	Name() string
	// Partition assigns every edge of g to one of opts.K parts holding at
	// most opts.Cap edges each. inc is g's incidence.
	Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error)
}

var methods = map[string]Method{}

// register makes a method available by name; each method's file calls it
// from init.
func register(m Method) { methods[m.Name()] = m }

// Lookup returns the method with the given name.
func Lookup(name string) (Method, error) {
	if m, ok := methods[name]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown method %q (choose from %v)", name, MethodNames())
}

// MethodNames lists the methods in the order reports show them: SPAC first,
// then the paper's baselines, then the streaming partitioners, then the
// expansion ones.
func MethodNames() []string {
	order := map[string]int{"spac": 0, "default": 1, "random": 2, "greedy": 3, "wvp-random": 4, "wvp-greedy": 5, "hdrf": 6, "dbh": 7, "ne": 8, "hep": 9}
	names := make([]string, 0, len(methods))
	for n := range methods {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := order[names[i]]
		oj, jok := order[names[j]]
		if iok != jok {
			return iok
		}
		if oi != oj {
			return oi < oj
		}
		return names[i] < names[j]
	})
	return names
}

// Check verifies that p is a valid partition of g's edges under opts: every
// edge in exactly one part in range, and no part above the cap.
func Check(g *matrices.Graph, p Partition, capacity int) error {
	if len(p.Part) != g.NumEdges() {
		return fmt.Errorf("partition covers %d edges, graph has %d", len(p.Part), g.NumEdges())
	}
	load, err := partLoads(p.Part, p.K)
	if err != nil {
		return err
	}
	for q, l := range load {
		if int(l) > capacity {
			return fmt.Errorf("part %d holds %d edges, above the cap of %d", q, l, capacity)
		}
	}
	return nil
}
