//go:build !mpi

package mpi

import "os"

// Available reports whether this build has MPI.
func Available() bool { return false }

// Init returns ErrNoMPI: this build has no MPI.
func Init() (Comm, error) { return nil, ErrNoMPI }

// Finalize does nothing without MPI.
func Finalize() error { return nil }

// Abort ends the process with the given exit code.
func Abort(code int) { os.Exit(code) }
