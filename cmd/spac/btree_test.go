package main

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func TestBTreeExitCodes(t *testing.T) {
	gpuExit, gpuMsg := 1, "build one with 'make gpu'"
	if gpu.Built {
		gpuExit, gpuMsg = 0, "gpu"
	}
	keys := writeFile(t, "keys.txt", "5\n1\n2\n3\n4\n5\n")
	bad := writeFile(t, "bad.txt", "3\n1\n2\n")
	cmds := writeFile(t, "cmd.txt", "k 20\nj 5 2\n")
	badCmds := writeFile(t, "badcmd.txt", "f 3\n")
	checkExits(t, []exitCase{
		{"ok", []string{"btree", "keys:n=3000", "--queries", "k 200; j 100 30", "--quiet"}, 0, "findrange"},
		{"file", []string{"btree", keys, "--command", cmds, "--quiet"}, 0, "ok"},
		{"gpu", []string{"btree", "keys:n=3000", "--queries", "k 50", "--gpu", "--quiet"}, gpuExit, gpuMsg},
		{"block size", []string{"btree", "keys:n=3000", "-b", "100"}, 2, "multiple of 32"},
		{"no reference without gpu", []string{"btree", "keys:n=3000", "--no-reference"}, 2, "go with --gpu"},
		{"bad variant", []string{"btree", "keys:n=3000", "--variant", "fast"}, 2, "--variant"},
		{"bad method", []string{"btree", "keys:n=3000", "--method", "magic"}, 2, "--method"},
		{"bad spec", []string{"btree", "keys:n=0"}, 2, "positive integer"},
		{"bad queries", []string{"btree", "keys:n=3000", "--queries", "k x"}, 2, "--queries"},
		{"range too long", []string{"btree", "keys:n=30", "--queries", "j 1 30"}, 2, "not smaller"},
		{"both commands", []string{"btree", "keys:n=30", "--queries", "k 1", "--command", cmds}, 2, "not both"},
		{"bad fill", []string{"btree", "keys:n=30", "--fill", "0"}, 2, "--fill"},
		{"malformed keys", []string{"btree", bad, "--quiet"}, 1, "line 3: unexpected end of input"},
		{"malformed commands", []string{"btree", keys, "--command", badCmds}, 1, "line 1: command \"f\""},
		{"missing file", []string{"btree", filepath.Join(t.TempDir(), "none.txt")}, 1, "no such file"},
		{"gen without output", []string{"btree", "gen", "mil"}, 2, "-o"},
		{"gen of a file", []string{"btree", "gen", "x.txt", "-o", "-"}, 2, "neither a preset"},
	})
}

// gen writes Rodinia's files, which btree reads back to the same runs as
// the spec; the JSON and CSV carry every variant checked.
func TestBTreeGenAndFormats(t *testing.T) {
	dir := t.TempDir()
	keys, cmds := filepath.Join(dir, "k.txt"), filepath.Join(dir, "c.txt")
	if out, code, err := execute(t, "btree", "gen", "keys:n=5000,span=9000", "--seed", "3", "-o", keys, "--commands-out", cmds); code != 0 {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	args := []string{"--command", cmds, "-b", "64,128", "--method", "spac,default", "--data-seed", "3", "--quiet"}
	fromFile, code, err := executeStreams1(t, append([]string{"btree", keys, "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatal(err)
	}
	fromSpec, _, _ := executeStreams1(t, append([]string{"btree", "keys:n=5000,span=9000", "--format", "json"}, args...)...)
	var a, b rodiniaReport
	if err := json.Unmarshal([]byte(fromFile), &a); err != nil {
		t.Fatalf("%v\n%s", err, fromFile)
	}
	if err := json.Unmarshal([]byte(fromSpec), &b); err != nil {
		t.Fatal(err)
	}
	// Rodinia's command file: 2 kernels x 2 block sizes x (original, rcm, 2 methods).
	if a.App != "btree" || len(a.Runs) != 16 || a.Sizes["keys"] != 5000 || a.Sizes["findk"] != 10000 || a.Sizes["findrange"] != 6000 {
		t.Fatalf("report %+v", a)
	}
	for i, r := range a.Runs {
		if !r.Checked || !r.OK || r.Device != "cpu" || r.Loads == 0 || r.Loads != b.Runs[i].Loads || r.Copies != b.Runs[i].Copies {
			t.Errorf("run %d: %+v (from the spec: %+v)", i, r, b.Runs[i])
		}
		if r.Variant == "spac" && (r.Parts == 0 || r.PerBlock != r.BlockSize/32 || r.Loads >= a.Runs[i-2-boolInt(r.Method == "default")].Loads) {
			t.Errorf("run %d: spac %+v", i, r)
		}
	}
	out, code, err := executeStreams1(t, "btree", keys, "--queries", "k 300", "-b", "32", "--variant", "original,spac,spac-swap", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 4 || recs[0][0] != "app" || recs[1][3] != "original" || recs[2][3] != "spac" || recs[3][3] != "spac-swap" {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	// Job swapping alone: a block per query on the partition's order,
	// checked like the others.
	if swap := recs[3]; swap[8] != "300" || swap[13] != recs[2][13] || swap[19] != "true" || swap[20] != "true" {
		t.Errorf("spac-swap: %v (spac: %v)", swap, recs[2])
	}
	if out, code, _ := execute(t, "btree", "gen", "--list"); code != 0 || !strings.Contains(out, "h100") {
		t.Errorf("gen --list: %s", out)
	}
}

// executeStreams1 is executeStreams with standard output alone.
func executeStreams1(t *testing.T, args ...string) (string, int, error) {
	t.Helper()
	out, _, code, err := executeStreams(t, args...)
	return out, code, err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
