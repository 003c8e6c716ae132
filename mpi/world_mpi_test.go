//go:build mpi

package mpi

import (
	"os"
	"testing"

	"github.com/spac-gpu/spac/mpi/mpitest"
)

// TestWorld runs the checks of TestLocal on MPI_COMM_WORLD with 1, 2 and 4
// processes.
func TestWorld(t *testing.T) {
	if !mpitest.Rank() {
		dir := t.TempDir()
		for _, np := range []int{1, 2, 4} {
			mpitest.Run(t, np, "TestWorld", nil, "SPAC_TEST_DIR="+dir)
		}
		return
	}
	c, err := Init()
	if err != nil {
		t.Fatal(err)
	}
	defer Finalize()
	if err := exercise(c, os.Getenv("SPAC_TEST_DIR")); err != nil {
		t.Fatalf("rank %d of %d: %v", c.Rank(), c.Size(), err)
	}
}
