package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/plots/plotstest"
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
	_, errOut, code, _ = executeStreams(t, "spmv", "--merge", csvPath, "--report", report, "--title", "Test report")
	if code != 0 {
		t.Fatalf("render: exit %d: %s", code, errOut)
	}
	checkReportFiles(t, report, errOut, "report.md", "speedup.svg", "speedup.png", "results.csv")
	// CPU rows only: no speedups, but the axes and the goals.
	checkReportPlot(t, report, "speedup", "speedup", "goal 1.00x: 1M nonzeros or more", "goal 1.20x: beyond the L2")
	md, _ := os.ReadFile(filepath.Join(report, "report.md"))
	for _, want := range []string{"# Test report", "a.mtx", "](speedup.svg)", "](speedup.png)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	// JSON Lines: the rows as measured, then the input's result; with
	// --reorder, each renumbered input follows with its own lines.
	out, errOut, code, _ = executeStreams(t, "spmv", writeFile(t, "a.mtx", small), "-b", "32", "--format", "json", "--reorder", "rcm,spac", "--quiet")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	var results []string
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("json line %d: %v: %s", i, err, line)
		}
		if v["type"] == "result" {
			results = append(results, v["input"].(string))
			// Every result says how long its input took and its own run, which
			// holds the steps it itemizes.
			in, _ := v["input_s"].(float64)
			wall, _ := v["wall_s"].(float64)
			parts, _ := v["matrix_s"].(float64)
			if in <= 0 || wall <= 0 || parts > wall {
				t.Errorf("json line %d: input_s %v, wall_s %v, matrix_s %v: want input_s > 0 and matrix_s <= wall_s", i, v["input_s"], v["wall_s"], v["matrix_s"])
			}
		} else if v["type"] != "row" {
			t.Errorf("json line %d: type %v", i, v["type"])
		}
	}
	if want := []string{"a.mtx", "a.mtx~rcm", "a.mtx~spac"}; !slices.Equal(results, want) {
		t.Errorf("json results %v, want %v", results, want)
	}
	// JSON output merges into a report like CSV.
	jsonPath := filepath.Join(dir, "run.jsonl")
	if err := os.WriteFile(jsonPath, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code, _ = executeStreams(t, "spmv", "--merge", jsonPath, "--report", filepath.Join(dir, "r2")); code != 0 {
		t.Fatalf("render from JSON: exit %d: %s", code, errOut)
	}
	if md, _ := os.ReadFile(filepath.Join(dir, "r2", "report.md")); !strings.Contains(string(md), "a.mtx~rcm") {
		t.Errorf("the report from JSON lacks the renumbered input:\n%s", md)
	}
}

// checkReportFiles checks that a report directory holds the files, none
// empty, and that the line saying what was written (in log) names each.
func checkReportFiles(t *testing.T, dir, log string, names ...string) {
	t.Helper()
	for _, name := range names {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", name, len(b), err)
		}
		if !strings.Contains(log, name) {
			t.Errorf("the report's log line does not name %s: %s", name, log)
		}
	}
}

// checkReportPlot checks NAME.svg and NAME.png in dir (plotstest.Check):
// XML with the wanted texts, a PNG of the SVG's size.
func checkReportPlot(t *testing.T, dir, name string, want ...string) {
	t.Helper()
	svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	plotstest.Check(t, svg, png, want...)
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
		{"negative budget", []string{"spmv", in, "--budget", "-1"}},
		{"unknown order", []string{"spmv", in, "--reorder", "amd"}},
		{"reorder block size", []string{"spmv", in, "--reorder", "spac", "--reorder-block-size", "100"}},
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

// TestSpMVRenumber: --renumber random measures the input under a random
// numbering, under its own name, and the products still agree with the
// reference of the renumbered matrix; --renumber random,spac renumbers twice.
func TestSpMVRenumber(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	out, errOut, code, _ := executeStreams(t, "spmv", "gen:stencil2d:nx=12,ny=10,points=5", "-b", "32", "--renumber", "random", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows, err := spmv.ReadCSV(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !strings.HasSuffix(r.Input, "~random") || !r.OK {
			t.Errorf("row %s %s: ok %v", r.Input, r.Kernel, r.OK)
		}
	}
	if len(rows) == 0 {
		t.Error("no rows")
	}
	// orders in turn: the input as it may come, then SPAC's order, with
	// every kernel (the schedule's CPU executor included) on the result
	out, errOut, code, _ = executeStreams(t, "spmv", "gen:stencil2d:nx=12,ny=10,points=5", "-b", "32", "--renumber", "random,spac", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("--renumber random,spac: exit %d: %s", code, errOut)
	}
	if rows, err = spmv.ReadCSV(strings.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	schedule := false
	for _, r := range rows {
		if !strings.HasSuffix(r.Input, "~random~spac") || !r.OK {
			t.Errorf("row %s %s: ok %v", r.Input, r.Kernel, r.OK)
		}
		schedule = schedule || r.Kernel == "cpu-schedule"
	}
	if !schedule {
		t.Error("--renumber random,spac: no row of the schedule's executor")
	}
	if _, errOut, code, _ := executeStreams(t, "spmv", "gen:stencil2d:nx=12,ny=10,points=5", "--renumber", "rcm,amd"); code != 2 {
		t.Errorf("an unknown order in --renumber: exit %d: %s", code, errOut)
	}
}
