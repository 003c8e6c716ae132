package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/cg"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/schedule"
)

// asSpacEnv makes the test binary run as spac: SPAC-adapt's partitioner
// re-executes the running binary (os.Executable), which under go test is
// this one.
const asSpacEnv = "SPAC_TEST_AS_SPAC"

func TestMain(m *testing.M) {
	if os.Getenv(asSpacEnv) != "" {
		main()
	}
	os.Exit(m.Run())
}

// cgJSON runs spac with args (a --format json command), fails the test on a
// non-zero exit or output that is not a cgReport, and returns the report.
func cgJSON(t *testing.T, args ...string) cgReport {
	t.Helper()
	out, errOut, code, _ := executeStreams(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep cgReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return rep
}

// --schedule-to (the child's command) builds the schedule the parent's
// options look up: a later --adapt finds it in the cache.
func TestCGScheduleTo(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	lap := "gen:stencil2d:nx=20,ny=20,points=5"
	file := filepath.Join(t.TempDir(), "lap.sched")
	if out, errOut, code, _ := executeStreams(t, "cg", "-b", "64", "--quiet", "--schedule-to", file, "--", lap); code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, out, errOut)
	}
	if _, err := schedule.ReadFile(file, nil); err != nil {
		t.Fatal(err)
	}
	rep := cgJSON(t, "cg", lap, "--adapt", "-b", "64", "--format", "json", "--quiet")
	if rep.Partition != "cached" || rep.Result.SwitchIter != 1 {
		t.Errorf("partition %s, switch %d: want the child's schedule from the cache at iteration 1", rep.Partition, rep.Result.SwitchIter)
	}
}

// SPAC-adapt runs this binary as its partitioner: the child takes the
// parent's flags. Whether it finishes before the products do depends on
// the machine's load, but a child that fails (a command line it refuses
// fails within milliseconds) shows as an error.
func TestCGAdaptChildProcess(t *testing.T) {
	t.Setenv(asSpacEnv, "1")
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	rep := cgJSON(t, "cg", "gen:stencil2d:nx=20,ny=20,points=5", "--adapt", "--no-cache", "-b", "64",
		"--repeat", "100000", "--background-nice", "0", "--format", "json", "--quiet")
	bg := rep.Result.Background
	switch {
	case bg.State == "ready" && rep.Result.SwitchIter == bg.ReadyIter+1:
	case bg.State == "cancelled" && rep.Result.SwitchIter == 0:
	default:
		t.Errorf("partitioner %s %q, switch %d: want its schedule tried after it was ready, or the child cancelled", bg.State, bg.Err, rep.Result.SwitchIter)
	}
	t.Logf("partitioner %s after %v, switch at product %d", bg.State, bg.Time, rep.Result.SwitchIter)
}

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
	rep := cgJSON(t, "cg", lap, "--adapt", "-b", "64", "--format", "json", "--quiet")
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

// --runs N solves N times and reports the run with the median total, for
// each mode of --schedule.
func TestCGRuns(t *testing.T) {
	rep := cgJSON(t, "cg", "gen:stencil2d:nx=20,ny=20,points=5", "--runs", "3", "--format", "json", "--quiet")
	if tot := int64(rep.Result.Total); rep.Runs != 3 || rep.MinTotalNS > tot || tot > rep.MaxTotalNS || rep.Result.Stop != "converged" {
		t.Errorf("runs %d, totals %d <= %d <= %d, stop %s: want 3 runs, the median between min and max, converged",
			rep.Runs, rep.MinTotalNS, tot, rep.MaxTotalNS, rep.Result.Stop)
	}
	if it := int64(rep.Result.Iterations); rep.MedianIterationNS*it > rep.MaxTotalNS || (rep.MedianIterationNS+1)*it < rep.MinTotalNS {
		t.Errorf("median iteration %d ns over %d iterations: want between the totals %d and %d", rep.MedianIterationNS, it, rep.MinTotalNS, rep.MaxTotalNS)
	}
	// Several modes: solved in turn, one CSV row each, in the order given.
	out, errOut, code, _ := executeStreams(t, "cg", "gen:stencil2d:nx=20,ny=20,points=5", "--schedule", "spac,default", "--runs", "2",
		"-b", "64", "--no-cache", "--format", "csv", "--quiet")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[1], ",spac,") || !strings.Contains(lines[2], ",default,") {
		t.Errorf("--schedule spac,default: exit %d, %q (%s); want a header and a row per mode, in order", code, out, errOut)
	}
	if _, errOut, code, _ := executeStreams(t, "cg", "gen:stencil2d:nx=20,ny=20,points=5", "--runs", "0"); code != 2 || !strings.Contains(errOut, "--runs 0") {
		t.Errorf("--runs 0: exit %d, %q; want usage exit 2 naming the flag", code, errOut)
	}
}

// The median time per iteration is taken per run, not from the run with
// the median total: runs that stop after different numbers of iterations
// must not mix.
func TestMedianIteration(t *testing.T) {
	run := func(totalUS, iters int) *cg.Result {
		return &cg.Result{Total: time.Duration(totalUS) * time.Microsecond, Iterations: iters}
	}
	for _, tc := range []struct {
		name string
		runs []*cg.Result
		want int64 // ns
	}{
		{"one run", []*cg.Result{run(100, 10)}, 10000},
		{"odd count", []*cg.Result{run(300, 10), run(100, 10), run(200, 10)}, 20000},
		{"even count takes the lower middle", []*cg.Result{run(100, 10), run(400, 10)}, 10000},
		// Totals 400, 500, 600 us: the median total (500 us, 50 us per
		// iteration) is the slowest per iteration; the median per
		// iteration is 40 us.
		{"counts differ", []*cg.Result{run(400, 10), run(500, 10), run(600, 20)}, 40000},
		{"no iterations", []*cg.Result{run(100, 0)}, 0},
		{"none", nil, 0},
	} {
		if got := medianIteration(tc.runs); got != tc.want {
			t.Errorf("%s: %d ns, want %d", tc.name, got, tc.want)
		}
	}
}

// The rounds of --runs follow a balanced Latin square: over n rounds each
// mode comes right after each other mode once (n even), and every round
// runs every mode once.
func TestLatinStepBalanced(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		follows := map[[2]int]int{}
		for r := range n {
			seen := map[int]bool{}
			prev := -1
			for j := range n {
				i := (r + latinStep(j, n)) % n
				if seen[i] {
					t.Fatalf("n=%d round %d runs mode %d twice", n, r, i)
				}
				seen[i] = true
				if prev >= 0 {
					follows[[2]int{prev, i}]++
				}
				prev = i
			}
		}
		if len(follows) != n*(n-1) {
			t.Errorf("n=%d: %d ordered pairs adjacent, want all %d", n, len(follows), n*(n-1))
		}
		for p, c := range follows {
			if c != 1 {
				t.Errorf("n=%d: %d follows %d in %d rounds, want 1", n, p[1], p[0], c)
			}
		}
	}
}

// A solve that does not converge writes its report and exits 1 saying so;
// the JSON carries the residual history only with --history; the spac
// mode on a matrix that is not positive definite stops at the trial
// iterations, before partitioning.
func TestCGExitAndHistory(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	lap := filepath.Join(t.TempDir(), "lap.mtx")
	if _, code, err := execute(t, "gen", "stencil2d:nx=30,ny=30,points=5", "-o", lap); code != 0 {
		t.Fatal(err)
	}
	out, errOut, code, _ := executeStreams(t, "cg", lap, "--max-iters", "3", "--quiet")
	if code != 1 || !strings.Contains(errOut, "not converged: 3 iterations") || !strings.Contains(out, "iterations       3") {
		t.Errorf("not converged: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	plain, _, _, _ := executeStreams(t, "cg", lap, "--quiet", "--format", "json")
	full, _, _, _ := executeStreams(t, "cg", lap, "--quiet", "--format", "json", "--history")
	if strings.Contains(plain, `"history"`) || !strings.Contains(full, `"history"`) {
		t.Errorf("history in the JSON without --history %v, with %v", strings.Contains(plain, `"history"`), strings.Contains(full, `"history"`))
	}
	indef := writeFile(t, "i.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n")
	rhs := writeFile(t, "b.txt", "1\n0\n")
	_, errOut, code, _ = executeStreams(t, "cg", indef, "--rhs", rhs, "--schedule", "spac", "--quiet")
	if code != 1 || !strings.Contains(errOut, "before partitioning") {
		t.Errorf("spac mode on an indefinite matrix: exit %d, %s", code, errOut)
	}
}
