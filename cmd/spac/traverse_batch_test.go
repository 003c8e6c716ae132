package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/gpu"
)

// batchJSON runs a bfs --batch command line with --format json and
// decodes the report; the exit status must be want.
func batchJSON(t *testing.T, want int, args ...string) batchReport {
	t.Helper()
	out, errOut, code, _ := executeStreams(t, append(args, "--format", "json", "--quiet")...)
	if code != want {
		t.Fatalf("%v: exit %d, want %d: %s", args, code, want, errOut)
	}
	var rep batchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: json: %v\n%s", args, err, out)
	}
	return rep
}

// TestTraverseBatch: the CPU's MS-BFS on graphs of several shapes, in
// full and partial batches: two rows (msbfs, parallel one by one), every
// root of both valid, the batch count and the comparison filled in.
func TestTraverseBatch(t *testing.T) {
	edges := writeFile(t, "edges.txt", "0 1\n1 2\n2 0\n3 4\n5 5\n")
	for _, tc := range []struct {
		name    string
		args    []string
		roots   int
		batches int
	}{
		{"kron-two-batches", []string{"kron:scale=9", "--roots", "70"}, 70, 2},
		{"road-relabelled", []string{"road:nx=12,ny=10", "--roots", "64", "--relabel", "random"}, 64, 1},
		{"directed-file", []string{edges, "--directed", "--roots", "9"}, 4, 1}, // 0 to 3 have an arc to another vertex, 4 and 5 none
		{"one-root", []string{"kron:scale=8", "--root", "3"}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := batchJSON(t, 0, append([]string{"bfs", "--batch"}, tc.args...)...)
			var names []string
			for _, r := range rep.Rows {
				names = append(names, r.Strategy)
				if r.Valid != "yes" || r.Roots != tc.roots || len(r.Runs) != tc.roots || !(r.TEPS > 0) || r.Levels < 1 {
					t.Errorf("%s: %+v", r.Strategy, r)
				}
				for i, run := range r.Runs {
					if run.Valid != "yes" || run.Root != rep.Roots[i] {
						t.Errorf("%s run %d: %+v (roots %v)", r.Strategy, i, run, rep.Roots)
					}
				}
			}
			if !slices.Equal(names, []string{"msbfs", batchCPUSingle}) {
				t.Errorf("rows %v", names)
			}
			if b := rep.Batch; b.Batches != tc.batches || b.Width != 64 || !(b.MSBFSMs > 0) || !(b.SingleMs > 0) || !(b.SpeedupByMean > 0) || b.Direction != "" {
				t.Errorf("batch summary %+v", b)
			}
			// the same roots and depths give the same levels and edges
			for i := range rep.Rows[0].Runs {
				a, b := rep.Rows[0].Runs[i], rep.Rows[1].Runs[i]
				if a.InputEdges != b.InputEdges || a.Levels > rep.Rows[0].Levels {
					t.Errorf("root %d: msbfs %+v, one by one %+v", a.Root, a, b)
				}
			}
		})
	}
	rep := batchJSON(t, 0, "bfs", "kron:scale=8", "--batch", "--roots", "5", "--no-validate")
	for _, r := range rep.Rows {
		if r.Valid != "not checked" || r.Runs[0].Valid != "not checked" {
			t.Errorf("--no-validate: %s: %q, %q", r.Strategy, r.Valid, r.Runs[0].Valid)
		}
	}
	out, code, _ := execute(t, "bfs", "kron:scale=8", "--batch", "--roots", "65", "--quiet")
	if code != 0 || !strings.Contains(out, "many-source BFS: 65 roots in 2 batches of up to 64") || !strings.Contains(out, "parallel one by one") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
}

// TestTraverseBatchUsage: what --batch does not combine with is a usage
// error that says why; the help teaches it.
func TestTraverseBatchUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sssp", "kron:scale=6", "--batch"}, "'spac bfs GRAPH --batch'"},
		{[]string{"bfs", "kron:scale=6", "--batch", "--strategy", "queue"}, "--strategy queue does not apply"},
		{[]string{"bfs", "kron:scale=6", "--batch", "--levels", "l.csv"}, "--levels"},
		{[]string{"bfs", "kron:scale=6", "--batch", "--out", "dir"}, "--out"},
		{[]string{"bfs", "kron:scale=6", "--batch", "--budget", "1"}, "--budget"},
	} {
		_, errOut, code, _ := executeStreams(t, append(tc.args, "--quiet")...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, code, _ := execute(t, "bfs", "kron:scale=6", "--batch", "--strategy", "all", "--roots", "3", "--quiet"); code != 0 {
		t.Errorf("--strategy all (the default) with --batch: exit %d", code)
	}
	if !gpu.Built {
		_, errOut, code, _ := executeStreams(t, "bfs", "kron:scale=6", "--batch", "--gpu", "--quiet")
		if code != 1 || !strings.Contains(errOut, "no CUDA support") {
			t.Errorf("--gpu --batch without CUDA: exit %d, %q", code, errOut)
		}
	}
	help, _, _ := execute(t, "bfs", "--help")
	for _, want := range []string{"--batch", "MS-BFS", "64 at a time", "--roots 1024 --batch"} {
		if !strings.Contains(help, want) {
			t.Errorf("bfs --help does not mention %q", want)
		}
	}
	if help, _, _ := execute(t, "sssp", "--help"); strings.Contains(help, "MS-BFS, Then") {
		t.Error("sssp --help teaches --batch")
	}
}

// The checker of the GPU's batches catches a wrong depth (here planted in
// a CPU result) and names the root, and passes the right ones.
func TestBatchCheckerCatches(t *testing.T) {
	g, err := graph.Build(traversaltest.List("path", 4, false, 0, 1, 1, 2, 2, 3), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := runBatch(context.Background(), g, nil, []int32{0, 3})
	if err != nil {
		t.Fatal(err)
	}
	res.depths(1)[0]++ // root 3 finds vertex 0 a level too deep
	row := strategyRow{Strategy: "msbfs", Valid: "yes"}
	c := newBatchChecker(g, &row, true)
	c.add(res)
	c.wait()
	row.summarize()
	if !row.failed || row.Runs[0].Valid != "yes" || !strings.Contains(row.Valid, "root 3") || !strings.Contains(row.Valid, "mismatch") {
		t.Fatalf("row %+v", row)
	}
}
