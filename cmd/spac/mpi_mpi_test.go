//go:build mpi

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/mpi/mpitest"
)

// TestPartitionMPI runs 'spac partition --mpi' on 1, 2 and 4 processes
// and checks its summary against 'spac evaluate' of the assignment it
// wrote (the single-machine metrics code), and 'spac compare' with the
// hypergraph baseline on 2 processes.
func TestPartitionMPI(t *testing.T) {
	if !mpitest.Rank() {
		dir := t.TempDir()
		m, err := matrices.BarabasiAlbert(4000, 4, 5)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := matrices.WriteMatrixMarket(&b, m); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "ba.mtx"), b.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		for _, np := range []int{1, 2, 4} {
			mpitest.Run(t, np, "TestPartitionMPI", nil, "SPAC_TEST_DIR="+dir)
		}
		return
	}
	defer mpi.Finalize()
	dir := os.Getenv("SPAC_TEST_DIR")
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "ba.mtx")
	out := filepath.Join(dir, "ba.parts.tsv")
	summary, stderr, code, err := executeStreams(t, "partition", in, "--mpi", "-b", "128", "-o", out, "--quiet")
	if code != 0 {
		t.Fatalf("partition --mpi: exit %d: %v\n%s", code, err, stderr)
	}
	if c.Rank() != 0 {
		if summary != "" {
			t.Errorf("rank %d printed a summary: %q", c.Rank(), summary)
		}
	} else {
		eval, stderr, code, err := executeStreams(t, "evaluate", in, "-b", "128", "-a", out, "--quiet")
		if code != 0 {
			t.Fatalf("evaluate: exit %d: %v\n%s", code, err, stderr)
		}
		for _, key := range []string{"vertex copies", "replication", "largest part", "unique vertices", "cut vertices", "degrees"} {
			re := regexp.MustCompile("(?m)^" + key + ".*$")
			if a, b := re.FindString(summary), re.FindString(eval); a == "" || a != b {
				t.Errorf("%q: partition --mpi says %q, evaluate %q", key, a, b)
			}
		}
	}
	if c.Size() != 2 {
		return
	}
	csv, stderr, code, err := executeStreams(t, "compare", in, "-b", "128", "--methods", "spac,hypergraph", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("compare: exit %d: %v\n%s", code, err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	switch {
	case c.Rank() != 0 && csv != "":
		t.Errorf("rank %d printed the comparison", c.Rank())
	case c.Rank() == 0 && (len(lines) != 3 || !strings.HasPrefix(lines[2], in+",hypergraph,")):
		t.Errorf("compare: want a header, spac and hypergraph, got\n%s", csv)
	}
}
