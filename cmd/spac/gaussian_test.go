package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/spac-gpu/spac/apps/gaussian"
	"github.com/spac-gpu/spac/gpu"
)

func TestGaussianExitCodes(t *testing.T) {
	gpuExit, gpuMsg := 1, "build one with 'make gpu'"
	if gpu.Built {
		gpuExit, gpuMsg = 0, "gpu"
	}
	bad := writeFile(t, "bad.txt", "2\n1 2\n3\n")
	checkExits(t, []exitCase{
		{"ok", []string{"gaussian", "matrix:n=40", "--quiet"}, 0, "elimination"},
		{"gpu", []string{"gaussian", "matrix:n=40", "--gpu", "--quiet"}, gpuExit, gpuMsg},
		{"block size", []string{"gaussian", "matrix:n=40", "-b", "48"}, 2, "multiple of 32"},
		{"bad precision", []string{"gaussian", "matrix:n=40", "--precision", "fp16"}, 2, "--precision"},
		{"bad variant", []string{"gaussian", "matrix:n=40", "--variant", "x"}, 2, "--variant"},
		{"bad reps", []string{"gaussian", "matrix:n=40", "--reps", "0"}, 2, "--reps"},
		{"bad spec", []string{"gaussian", "matrix:n=0"}, 2, "matrix:n=0"},
		{"malformed file", []string{"gaussian", bad, "--quiet"}, 1, "line 3: unexpected end of input"},
		{"missing file", []string{"gaussian", filepath.Join(t.TempDir(), "none.txt")}, 1, "no such file"},
		{"gen without output", []string{"gaussian", "gen", "matrix:n=4"}, 2, "-o"},
		{"gen of a file", []string{"gaussian", "gen", "x.txt", "-o", "-"}, 2, "matrix: spec"},
	})
}

// gen writes Rodinia's format, which gaussian reads back to the same
// system; the JSON has every variant, checked exactly.
func TestGaussianGenAndJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	if out, code, err := execute(t, "gaussian", "gen", "matrix:n=70,lambda=0.1", "-o", path); code != 0 {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	read, err := gaussian.OpenSystem(path)
	if err != nil {
		t.Fatal(err)
	}
	gen, _ := gaussian.Generate(gaussian.Spec{N: 70, Lambda: 0.1})
	for i := range gen.A {
		if read.A[i] != gen.A[i] {
			t.Fatalf("A[%d] read back as %g, generated %g", i, read.A[i], gen.A[i])
		}
	}
	out, code, err := executeStreams1(t, "gaussian", path, "-b", "64,256", "--precision", "both", "--method", "spac,default", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatal(err)
	}
	var rep rodiniaReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// 2 precisions x 2 block sizes x (original, rcm, 2 methods)
	if rep.App != "gaussian" || rep.Sizes["n"] != 70 || len(rep.Runs) != 16 {
		t.Fatalf("report %+v", rep)
	}
	for _, r := range rep.Runs {
		if !r.Checked || !r.OK || r.Mismatches != 0 || r.Kernel != "elimination" || r.Blocks == 0 {
			t.Errorf("run %+v", r)
		}
		if r.Variant == "spac" && (r.Loads >= 3*69*70 || r.SharedBytes == 0 || r.Parts == 0) {
			t.Errorf("spac run %+v", r)
		}
		if r.Variant == "rcm" && r.MaxRelDiff == 0 && r.Precision == "fp32" {
			t.Logf("the RCM ordering left x bit for bit the same: %+v", r)
		}
	}
}
