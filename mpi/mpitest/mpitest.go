// Package mpitest runs a test under mpirun: the test binary starts itself
// again as the ranks of an MPI job, each rank running the one test, and the
// parent test checks that every rank passed. It is how the tests of the
// MPI build (build tag mpi) cover 1, 2 and 4 processes from a plain
// 'go test -tags mpi ./...'.
//
//	func TestSomething(t *testing.T) {
//		if !mpitest.Rank() {
//			for _, np := range []int{1, 2, 4} {
//				mpitest.Run(t, np, "TestSomething")
//			}
//			return
//		}
//		comm, err := mpi.Init() // this process is one rank of the job
//		...
//	}
//
// The job runs with --oversubscribe (more ranks than cores, as CI has two)
// and --bind-to none, as root with --allow-run-as-root, and with
// OMPI_MCA_btl_vader_single_copy_mechanism=none, since containers often
// forbid the cross-memory attach that OpenMPI's shared-memory transport
// tries first.
package mpitest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Rank reports whether this process is a rank started by mpirun (rather
// than the test binary started by go test).
func Rank() bool {
	_, ok := os.LookupEnv("OMPI_COMM_WORLD_SIZE")
	return ok
}

// Timeout bounds one mpirun; a deadlocked collective fails the test
// instead of hanging CI.
var Timeout = 3 * time.Minute

// Run starts the test binary under mpirun -np np, running test alone on
// every rank with -test.v, and fails t unless every rank passes. It
// returns the job's combined output. args are passed to the test binary
// after the test flags; env adds KEY=VALUE to the ranks' environment.
// Without mpirun on PATH the test is skipped with a note on 'make mpi'.
func Run(t testing.TB, np int, test string, args []string, env ...string) string {
	t.Helper()
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		t.Skip("mpirun not found: 'make mpi' installs OpenMPI, PT-Scotch and Zoltan")
	}
	cmdArgs := []string{"-np", strconv.Itoa(np), "--oversubscribe", "--bind-to", "none"}
	if os.Geteuid() == 0 {
		cmdArgs = append(cmdArgs, "--allow-run-as-root")
	}
	cmdArgs = append(cmdArgs, os.Args[0], "-test.run", "^"+test+"$", "-test.v", "-test.count=1")
	cmdArgs = append(cmdArgs, args...)
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, mpirun, cmdArgs...)
	cmd.Env = append(os.Environ(), "OMPI_MCA_btl_vader_single_copy_mechanism=none", "OMPI_MCA_rmaps_base_oversubscribe=1")
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("mpirun -np %d %s: no answer within %v (a deadlocked collective?)\n%s", np, test, Timeout, out.String())
	}
	if err != nil {
		t.Fatalf("mpirun -np %d %s: %v\n%s", np, test, err, out.String())
	}
	if passes := bytes.Count(out.Bytes(), []byte("--- PASS: "+test+" ")); passes != np {
		t.Fatalf("mpirun -np %d %s: %d of %d ranks passed\n%s", np, test, passes, np, out.String())
	}
	return out.String()
}
