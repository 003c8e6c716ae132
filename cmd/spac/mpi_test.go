package main

import (
	"strings"
	"testing"

	"github.com/spac-gpu/spac/mpi"
)

// Without MPI, --mpi and the hypergraph method say how to get an MPI build,
// and 'compare' leaves the hypergraph baseline out of "all".
func TestWithoutMPI(t *testing.T) {
	if mpi.Available() {
		t.Skip("this build has MPI")
	}
	in := writeFile(t, "small.mtx", small)
	for _, args := range [][]string{
		{"partition", in, "--mpi", "--quiet"},
		{"partition", in, "--method", "hypergraph", "-b", "4", "--quiet"},
	} {
		out, code, _ := execute(t, args...)
		if code != 1 || !strings.Contains(out, "make mpi") {
			t.Errorf("%v: exit %d, %q: want exit 1 and how to build with MPI", args, code, out)
		}
	}
	out, code, _ := execute(t, "compare", in, "-b", "4", "--format", "csv", "--quiet")
	if code != 0 || strings.Contains(out, "hypergraph") {
		t.Errorf("compare: exit %d, %q: want every method but hypergraph", code, out)
	}
	out, code, _ = execute(t, "partition", in, "--mpi", "--method", "ne", "--quiet")
	if code != 2 {
		t.Errorf("--mpi --method ne: exit %d, %q: want a usage error", code, out)
	}
}

// evaluate checks an assignment against its input.
func TestEvaluate(t *testing.T) {
	in := writeFile(t, "small.mtx", small)
	parts := writeFile(t, "parts.tsv", "")
	if out, code, err := execute(t, "partition", in, "-b", "4", "-o", parts, "--quiet"); code != 0 {
		t.Fatalf("partition: %v\n%s", err, out)
	}
	out, code, err := execute(t, "evaluate", in, "-b", "4", "-a", parts, "--quiet")
	if code != 0 || !strings.Contains(out, "vertex copies    0") {
		t.Fatalf("evaluate: exit %d, %v\n%s", code, err, out)
	}
	for _, tc := range []struct{ content, want string }{
		{"1\t1\t0\n", "1 lines for 12 entries"},
		{"2\t1\t0\n", "not an assignment of this input"},
		{"1\t1\t9\n", "out of range"},
		{"1 1\n", "expected \"row col part\""},
	} {
		bad := writeFile(t, "bad.tsv", tc.content)
		out, code, _ := execute(t, "evaluate", in, "-b", "4", "-a", bad, "--quiet")
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%q: exit %d, %q: want an error with %q", tc.content, code, out, tc.want)
		}
	}
	// Three parts of at most 4: a cap of 3 fails the check.
	out, code, _ = execute(t, "evaluate", in, "-b", "3", "-a", parts, "--quiet")
	if code == 0 || !strings.Contains(out, "above the cap") {
		t.Errorf("a tighter cap: exit %d, %q: want the cap check to fail", code, out)
	}
}
