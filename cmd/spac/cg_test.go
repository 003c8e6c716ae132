package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func TestCGCommandCPU(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	lap := "gen:stencil2d:nx=20,ny=20,points=5"
	out, errOut, code, _ := executeStreams(t, "cg", lap, "--schedule", "spac", "-b", "64", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{"converged", "cpu, fp64, spac", "switch           iteration 1 (SPAC kernel kept)", "computed before the solve"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The schedule is cached now: --adapt uses it from the first iteration.
	out, errOut, code, _ = executeStreams(t, "cg", lap, "--adapt", "-b", "64", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep cgReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if rep.Partition != "cached" || rep.Result.SwitchIter != 1 || rep.Result.Stop != "converged" || rep.TrueResidual > 1e-7 {
		t.Errorf("partition %s, switch %d, %s, true residual %g: want the cached schedule from iteration 1 and convergence",
			rep.Partition, rep.Result.SwitchIter, rep.Result.Stop, rep.TrueResidual)
	}
	out, _, code, _ = executeStreams(t, "cg", lap, "--format", "csv", "--precision", "fp32", "--tol", "1e-5", "--quiet")
	if code != 0 || !strings.HasPrefix(out, "input,rows,nnz,precision") || !strings.Contains(out, ",fp32,cpu,default,cpu-csr,converged,") {
		t.Errorf("exit %d, csv:\n%s", code, out)
	}
}

func TestCGCommandRefusesWhatIsNotSPD(t *testing.T) {
	unsym := writeFile(t, "u.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 2\n1 2 1\n2 2 2\n")
	_, errOut, code, _ := executeStreams(t, "cg", unsym, "--quiet")
	if code != 1 || !strings.Contains(errOut, "not symmetric") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	indef := writeFile(t, "i.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n")
	rhs := writeFile(t, "b.txt", "1\n0\n")
	out, errOut, code, _ := executeStreams(t, "cg", indef, "--rhs", rhs, "--quiet")
	if code != 1 || !strings.Contains(errOut, "breakdown at iteration 2") || !strings.Contains(out, "breakdown") {
		t.Errorf("exit %d: %s\n%s", code, out, errOut)
	}
}

func TestCGCommandGPUWithoutCUDA(t *testing.T) {
	if gpu.Built {
		t.Skip("a CUDA build")
	}
	_, errOut, code, _ := executeStreams(t, "cg", "gen:stencil2d:nx=4,ny=4,points=5", "--gpu", "--quiet")
	if code != 1 || !strings.Contains(errOut, "make gpu") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
