//go:build !mpi

package zoltan

import "github.com/spac-gpu/spac/mpi"

// Available reports whether this build has Zoltan.
func Available() bool { return false }

// Partition returns mpi.ErrNoMPI: this build has no Zoltan.
func Partition(c mpi.Comm, h *Hypergraph, opts Options) ([]int32, error) {
	return nil, mpi.ErrNoMPI
}
