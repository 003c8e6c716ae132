package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

// TestWriteAssignmentPieces: the assignment is the same lines, in the same
// order, as one fmt.Fprintf per entry, for edge counts around the pieces
// the cores format (none, part of one, several rounds and a rest), under
// both models, read back from the graph once the entries are let go.
func TestWriteAssignmentPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 20
	for _, model := range []matrices.Model{matrices.ModelSpMV, matrices.ModelGraph} {
		for _, nnz := range []int{1, assignmentPiece - 1, assignmentPiece, 5*assignmentPiece + 17} {
			m := &matrices.COO{Name: "random", NRows: n, NCols: n, Row: make([]int32, nnz), Col: make([]int32, nnz)}
			p := spac.Partition{Part: make([]int32, nnz)}
			for e := range nnz {
				m.Row[e], m.Col[e], p.Part[e] = r.Int32N(n), r.Int32N(n), r.Int32N(1<<20)
			}
			var want, got bytes.Buffer
			for e := range nnz {
				fmt.Fprintf(&want, "%d\t%d\t%d\n", m.Row[e]+1, m.Col[e]+1, p.Part[e])
			}
			in := &pipeline.Input{Matrix: m, Used: m, Model: model}
			if err := in.DropEntries(); err != nil {
				t.Fatal(err)
			}
			if in.Used.Row != nil || in.Used.NRows != n || in.Used != in.Matrix {
				t.Fatalf("%v: DropEntries kept %d entries and %d rows (Used is Matrix: %v), want none, %d and true", model, len(in.Used.Row), in.Used.NRows, in.Used == in.Matrix, n)
			}
			if err := writeAssignment(&got, in, p); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%v, %d edges: %d bytes written, want %d (first difference at byte %d)", model, nnz, got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A gen: input partitions as the file 'spac gen' writes of it with the
// same seed: the same assignment, under --as-stored too (ba is stored as
// one triangle); and schedule and stats take it as well.
func TestGeneratedInputs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		spec  string
		seed  string
		extra []string
	}{
		{"rmat:scale=9,ef=4", "1", nil},
		{"rmat:scale=9,ef=4", "3", nil},
		{"ba:n=300,m=3", "2", nil},
		{"ba:n=300,m=3", "2", []string{"--as-stored"}},
	} {
		file := filepath.Join(dir, "g.mtx")
		if out, _, err := execute(t, "gen", tc.spec, "--seed", tc.seed, "-o", file); err != nil {
			t.Fatalf("gen %s: %v\n%s", tc.spec, err, out)
		}
		assign := func(in, name string) []byte {
			path := filepath.Join(dir, name)
			args := append([]string{"partition", in, "-b", "64", "--seed", tc.seed, "--quiet", "-o", path}, tc.extra...)
			if out, _, err := execute(t, args...); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		fromFile, generated := assign(file, "file.tsv"), assign("gen:"+tc.spec, "gen.tsv")
		if len(fromFile) == 0 || !bytes.Equal(fromFile, generated) {
			t.Errorf("gen:%s --seed %s %v: the assignment differs from the file's (%d and %d bytes)", tc.spec, tc.seed, tc.extra, len(fromFile), len(generated))
		}
	}
	// 'spac schedule gen:X' caches the schedule 'spac spmv gen:X' then
	// loads: one entry, the same file (a schedule made again would have
	// replaced it by a rename).
	cache := filepath.Join(dir, "cache")
	if out, _, err := execute(t, "schedule", "gen:rmat:scale=8,ef=4", "-b", "256", "--cache-dir", cache, "--quiet", "-o", filepath.Join(dir, "r.sched")); err != nil {
		t.Fatalf("schedule gen: %v\n%s", err, out)
	}
	entries := func() []string {
		names, _ := filepath.Glob(filepath.Join(cache, "*.sched"))
		return names
	}
	before := entries()
	if len(before) != 1 {
		t.Fatalf("cache after schedule: %v, want one entry", before)
	}
	stamp, err := os.Stat(before[0])
	if err != nil {
		t.Fatal(err)
	}
	if out, _, err := execute(t, "spmv", "gen:rmat:scale=8,ef=4", "-b", "256", "--kernels", "spac-d16-own", "--cpu-iters", "1", "--cache-dir", cache, "--quiet", "--format", "csv"); err != nil {
		t.Fatalf("spmv gen: %v\n%s", err, out)
	}
	after := entries()
	again, err := os.Stat(before[0])
	if !slices.Equal(after, before) || err != nil || !os.SameFile(stamp, again) {
		t.Errorf("cache after spmv: %v (%v), want schedule's one entry %v, the same file", after, err, before)
	}
	if out, _, err := execute(t, "stats", "gen:rmat:scale=8,ef=4", "--quiet"); err != nil || !strings.Contains(out, "locality graph") {
		t.Errorf("stats gen: %v\n%s", err, out)
	}
	if _, code, err := execute(t, "partition", "gen:nosuch", "-b", "64"); err == nil || code == 0 || !strings.Contains(err.Error(), "spac gen --list") {
		t.Errorf("an unknown generator: exit %d, %v; want a failure that points to 'spac gen --list'", code, err)
	}
}
