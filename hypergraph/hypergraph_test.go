package hypergraph

import (
	"context"
	"errors"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/spac"
)

// In a build without MPI the method says how to get one.
func TestWithoutMPI(t *testing.T) {
	if mpi.Available() {
		t.Skip("this build has MPI")
	}
	m, err := matrices.Stencil2D(10, 10, 5)
	if err != nil {
		t.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(m, matrices.ModelGraph)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Method{}.Partition(context.Background(), g, inc, spac.Options{K: 4, Cap: 200})
	if !errors.Is(err, mpi.ErrNoMPI) {
		t.Fatalf("got %v, want mpi.ErrNoMPI", err)
	}
}
