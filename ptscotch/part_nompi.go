//go:build !mpi

package ptscotch

import "github.com/spac-gpu/spac/mpi"

// Part returns mpi.ErrNoMPI: this build has no PT-Scotch.
func Part(c mpi.Comm, g *Graph, parts int, opts Options) ([]int32, error) {
	return nil, mpi.ErrNoMPI
}

// Version is empty without PT-Scotch.
func Version() string { return "" }
