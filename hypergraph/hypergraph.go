// Package hypergraph is the hypergraph baseline of the paper (hMETIS and
// PaToH there): the column-net model of the locality graph, partitioned by
// Zoltan's parallel hypergraph partitioner PHG (package zoltan), on one or
// many MPI processes.
//
// Each task (an edge of the locality graph) is a vertex of the hypergraph
// and each data object (a vertex of the locality graph) a net over the
// tasks that touch it. A partition's connectivity-1 metric, the sum over
// the nets of the parts they touch less one, is then exactly the vertex
// copies C of spac.Metrics: the model counts what SPAC's graph model only
// bounds. Zoltan balances the parts within an imbalance tolerance, not a
// strict cap, so the partition ends with the cap pass every method ends
// with (spac.EnforceCap).
//
// [Method] is a spac.Method named "hypergraph", for 'spac partition' and
// 'spac compare'. It needs the MPI build (build tag mpi; 'make mpi');
// without it Partition returns mpi.ErrNoMPI, which says so. Under mpirun
// every rank calls Partition with the same graph (each reads the input);
// rank r hands Zoltan the tasks [m*r/P, m*(r+1)/P) with their two nets,
// and every rank gathers the whole partition and runs the same
// deterministic cap pass, so all ranks return the same partition.
//
// # Determinism
//
// Given the seed and the number of processes the result is repeatable
// (Zoltan's generator is seeded by package zoltan); different process
// counts give different partitions.
package hypergraph

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/spac"
	"github.com/spac-gpu/spac/zoltan"
)

// Name is the method's name on the command line.
const Name = "hypergraph"

// Method partitions with Zoltan PHG on the column-net model.
type Method struct {
	// Comm is the communicator Zoltan runs on; every rank calls
	// Partition with the same graph and options. nil: MPI's world
	// (mpi.Init), one process when the program was not started by mpirun.
	Comm mpi.Comm
}

// Name implements spac.Method.
func (Method) Name() string { return Name }

// Collective reports that every rank of the communicator must call
// Partition together.
func (Method) Collective() bool { return true }

// Partition implements spac.Method. Zoltan cannot be interrupted: the
// context is checked before and after it (on every rank together).
func (m Method) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts spac.Options) (spac.Partition, error) {
	c := m.Comm
	if c == nil {
		var err error
		if c, err = mpi.Init(); err != nil {
			return spac.Partition{}, fmt.Errorf("hypergraph: %w", err)
		}
	}
	edges := g.NumEdges()
	if opts.K < 1 || int64(opts.K)*int64(opts.Cap) < int64(edges) {
		return spac.Partition{}, fmt.Errorf("hypergraph: %d parts of at most %d edges cannot hold %d edges", opts.K, opts.Cap, edges)
	}
	if edges >= math.MaxUint32 || g.NumVertices >= math.MaxUint32 {
		return spac.Partition{}, fmt.Errorf("hypergraph: %d tasks exceed Zoltan's 32-bit ids", edges)
	}
	if err := mpi.Agree(c, ctx.Err()); err != nil {
		return spac.Partition{}, err
	}
	part := make([]int32, edges)
	if opts.K > 1 {
		p, r := c.Size(), c.Rank()
		lo, hi := edges*r/p, edges*(r+1)/p
		h := &zoltan.Hypergraph{Vertices: make([]uint32, 0, hi-lo), Ptr: make([]int32, 1, hi-lo+1), Nets: make([]uint32, 0, 2*(hi-lo))}
		for e := lo; e < hi; e++ {
			h.Vertices = append(h.Vertices, uint32(e))
			h.Nets = append(h.Nets, uint32(g.U[e]))
			if g.V[e] != g.U[e] {
				h.Nets = append(h.Nets, uint32(g.V[e]))
			}
			h.Ptr = append(h.Ptr, int32(len(h.Nets)))
		}
		tell(opts, "zoltan phg")
		mine, err := zoltan.Partition(c, h, zoltan.Options{Parts: opts.K, Imbalance: opts.Imbalance, Seed: opts.Seed})
		if err != nil {
			return spac.Partition{}, fmt.Errorf("hypergraph: %w", err)
		}
		all, err := mpi.Allgather(c, mine)
		if err != nil {
			return spac.Partition{}, err
		}
		at := 0
		for _, a := range all {
			at += copy(part[at:], a)
		}
	}
	if err := mpi.Agree(c, ctx.Err()); err != nil {
		return spac.Partition{}, err
	}
	res := spac.Partition{K: opts.K, Part: part}
	tell(opts, "cap")
	if _, err := spac.EnforceCap(g, inc, &res, opts.Cap); err != nil {
		return spac.Partition{}, fmt.Errorf("hypergraph: %w", err)
	}
	return res, nil
}

func tell(opts spac.Options, stage string) {
	if opts.Progress != nil {
		opts.Progress(stage)
	}
}
