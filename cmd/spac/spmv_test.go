package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
)

func TestSpMVCommandCPU(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	in := writeFile(t, "a.mtx", small)
	out, errOut, code, _ := executeStreams(t, "spmv", in, "-b", "32,64", "--precision", "both", "--schedules", "spac,greedy", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{"a.mtx: 6 x 6, 12 nonzeros", "not run (no --gpu)", "cpu-csr", "cpu-schedule", "greedy", "ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "WRONG") {
		t.Errorf("a CPU row disagrees with the reference:\n%s", out)
	}
	// The second run finds the schedules in the cache.
	_, _, code, _ = executeStreams(t, "spmv", in, "-b", "32", "--schedules", "greedy")
	if code != 0 {
		t.Fatalf("second run: exit %d", code)
	}
}

func TestSpMVCommandGPUWithoutCUDA(t *testing.T) {
	if gpu.Built {
		t.Skip("a CUDA build")
	}
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	in := writeFile(t, "a.mtx", small)
	out, errOut, code, _ := executeStreams(t, "spmv", in, "--gpu", "-b", "32", "--quiet")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out, "cpu-schedule") || !strings.Contains(out, "no CUDA support") {
		t.Errorf("the table should still come, saying why no GPU ran:\n%s", out)
	}
	if !strings.Contains(errOut, "make gpu") {
		t.Errorf("the error should say how to build a CUDA binary: %s", errOut)
	}
}

func TestSpMVCommandFormatsAndReport(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	dir := t.TempDir()
	out, errOut, code, _ := executeStreams(t, "spmv", "gen:stencil2d:nx=12,ny=10,points=5", writeFile(t, "a.mtx", small), "-b", "32", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := spmv.ReadCSV(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]bool{}
	for _, r := range rows {
		inputs[r.Input] = true
	}
	if len(rows) != 4 || !inputs["gen:stencil2d:nx=12,ny=10,points=5"] || !inputs["a.mtx"] {
		t.Errorf("%d rows from %v", len(rows), inputs)
	}
	csvPath := filepath.Join(dir, "run.csv")
	if err := os.WriteFile(csvPath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report")
	if _, errOut, code, _ := executeStreams(t, "spmv", "--merge", csvPath, "--report", report, "--title", "Test report"); code != 0 {
		t.Fatalf("render: exit %d: %s", code, errOut)
	}
	for _, f := range []string{"report.md", "speedup.svg", "results.csv"} {
		b, err := os.ReadFile(filepath.Join(report, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(report, "report.md"))
	if !strings.Contains(string(md), "# Test report") || !strings.Contains(string(md), "a.mtx") {
		t.Errorf("report:\n%s", md)
	}
	out, _, code, _ = executeStreams(t, "spmv", writeFile(t, "a.mtx", small), "-b", "32", "--format", "json", "--quiet")
	if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "[") {
		t.Errorf("json: exit %d: %s", code, out)
	}
}

func TestSpMVCommandUsage(t *testing.T) {
	in := writeFile(t, "a.mtx", small)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no input", []string{"spmv"}},
		{"merge without report", []string{"spmv", "--merge", in}},
		{"unknown kernel", []string{"spmv", in, "--methods", "magic"}},
		{"unknown schedule method", []string{"spmv", in, "--schedules", "magic"}},
		{"block size", []string{"spmv", in, "-b", "100"}},
		{"block size list", []string{"spmv", in, "-b", "256,x"}},
		{"precision", []string{"spmv", in, "--precision", "fp16"}},
		{"iters", []string{"spmv", in, "--iters", "0"}},
		{"format", []string{"spmv", in, "--format", "xml"}},
		{"as stored", []string{"spmv", in, "--as-stored"}},
		{"graph model", []string{"spmv", in, "--model", "graph"}},
		{"budget", []string{"spmv", in, "--smem-budget", "64KiB"}},
		{"overflow", []string{"spmv", in, "--overflow", "never"}},
		{"gen scale", []string{"spmv", "gen:cant@x"}},
		{"unknown flag", []string{"spmv", in, "--bogus"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, errOut, code, _ := executeStreams(t, tc.args...); code != 2 {
				t.Errorf("exit %d, want 2: %s", code, errOut)
			}
		})
	}
	if _, _, code, _ := executeStreams(t, "spmv", filepath.Join(t.TempDir(), "missing.mtx")); code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}
}
