package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/cfd"
	"github.com/spac-gpu/spac/gpu"
)

func TestCFDExitCodes(t *testing.T) {
	// Without a CUDA build --gpu says how to make one; with one it runs.
	gpuExit, gpuMsg := 1, "build one with 'make gpu'"
	if gpu.Built {
		gpuExit, gpuMsg = 0, "gpu spac"
	}
	dir := t.TempDir()
	bad := writeFile(t, "bad.domn", "2\n1 0 1 0 0\n")
	oneSided := writeFile(t, "one.domn", "2\n1 2 1 0 0 -1 0 0 0 -1 0 0 0 -1 0 0 0\n1 -1 0 0 0 -1 0 0 0 -1 0 0 0 -1 0 0 0\n")
	checkExits(t, []exitCase{
		{"ok", []string{"cfd", "mesh:n=400", "-n", "3", "--quiet"}, 0, "cpu spac"},
		{"gpu", []string{"cfd", "mesh:n=400", "-n", "2", "--gpu", "--quiet"}, gpuExit, gpuMsg},
		{"gpu block size", []string{"cfd", "mesh:n=400", "--gpu", "-b", "100"}, 2, "multiple of 32"},
		{"no reference without gpu", []string{"cfd", "mesh:n=400", "--no-reference"}, 2, "go with --gpu"},
		{"no input", []string{"cfd"}, 2, "one input"},
		{"bad flag", []string{"cfd", "mesh:n=400", "--bogus"}, 2, "unknown flag"},
		{"bad schedule", []string{"cfd", "mesh:n=400", "--schedule", "fast"}, 2, "--schedule"},
		{"bad method", []string{"cfd", "mesh:n=400", "--method", "magic"}, 2, "--method"},
		{"bad precision", []string{"cfd", "mesh:n=400", "--precision", "fp16"}, 2, "--precision"},
		{"bad block size", []string{"cfd", "mesh:n=400", "-b", "0"}, 2, "--block-size"},
		{"bad spec", []string{"cfd", "mesh:n=-1"}, 2, "positive integer"},
		{"missing file", []string{"cfd", filepath.Join(dir, "none.domn")}, 1, "no such file"},
		{"malformed file", []string{"cfd", bad, "--quiet"}, 1, "line 2: unexpected end of input"},
		{"not conforming", []string{"cfd", oneSided, "--quiet"}, 1, "not conforming"},
		{"not conforming, original only", []string{"cfd", oneSided, "--schedule", "original", "-n", "1", "--quiet"}, 0, "cpu original"},
		{"gen without output", []string{"cfd", "gen", "fvcorr-097k"}, 2, "-o"},
		{"gen of a file", []string{"cfd", "gen", "x.domn", "-o", "-"}, 2, "neither a preset"},
	})
}

// gen writes a mesh that cfd reads back as the same mesh and runs the same.
func TestCFDGenRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.domn")
	if _, code, err := execute(t, "cfd", "gen", "mesh:n=700", "--seed", "4", "-o", path); code != 0 {
		t.Fatal(err)
	}
	read, err := cfd.OpenDomn(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := cfd.ParseSpec("mesh:n=700")
	spec.Seed = 4
	gen, _ := cfd.Generate(spec)
	if !read.Equal(gen) {
		t.Fatal("mesh read back differs from the generated one")
	}
	out, code, err := execute(t, "cfd", path, "-n", "3", "--format", "csv", "--precision", "fp32,fp64", "-b", "64,128", "--quiet")
	if code != 0 {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// header + 2 precisions x (reference + rcm + 2 block sizes)
	if len(recs) != 9 || recs[0][0] != "mesh" || recs[1][0] != "m.domn" {
		t.Fatalf("csv:\n%s", out)
	}
	out, code, err = execute(t, "cfd", path, "-n", "0", "-b", "64,128", "--method", "spac,default", "--quiet")
	if code != 0 || !strings.Contains(out, "default") || strings.Contains(out, "iterations on the CPU") {
		t.Fatalf("partition-only run: exit %d, %v\n%s", code, err, out)
	}
	if out, code, _ := execute(t, "cfd", "gen", "--list"); code != 0 || !strings.Contains(out, "missile-0.2m") {
		t.Errorf("gen --list: %s", out)
	}
}

// The report reads the CSV that cfd writes: bests, speedups, agreement, plot.
func TestCFDReport(t *testing.T) {
	m := &cfd.Mesh{Name: "m1", N: 1000}
	var rows []cfdRow
	for i, b := range []int{128, 256, 512} {
		// original: 100, 80, 90 us; spac: 70, 50, 40 us per iteration (10 iterations)
		orig := []time.Duration{1000, 800, 900}[i] * time.Microsecond
		sp := []time.Duration{700, 500, 400}[i] * time.Microsecond
		rows = append(rows,
			cfdRow{precision: cfd.FP32, device: "gpu", schedule: "original", blockSize: b, iterations: 10, total: orig, checked: true, ok: true, tolerance: 1e-3},
			cfdRow{precision: cfd.FP32, device: "gpu", schedule: "spac", blockSize: b, iterations: 10, total: sp, shared: 2048, checked: true, ok: i != 2, tolerance: 1e-3,
				diff: [3]cfd.Diff{{MaxRel: 1e-6}, {MaxRel: float64(i+1) * 1e-5}, {MaxRel: 0}}})
	}
	var buf strings.Builder
	if err := writeCFDCSV(&buf, m, nil, rows); err != nil {
		t.Fatal(err)
	}
	in := writeFile(t, "gpu.csv", buf.String())
	// A smaller mesh in a second file: the report puts it first.
	var small strings.Builder
	if err := writeCFDCSV(&small, &cfd.Mesh{Name: "m0", N: 500}, nil, rows[:2]); err != nil {
		t.Fatal(err)
	}
	in2 := writeFile(t, "gpu2.csv", small.String())
	dir := filepath.Join(t.TempDir(), "out")
	out, code, err := execute(t, "cfd", "report", in, in2, "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, out)
	}
	checkReportFiles(t, dir, out, "report.md", "fig14.svg", "fig14.png", "results.csv")
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| m1 | 1000 | fp32 | 80.0 | 256 | spac | 40.0 | 512 | 2.00 | yes |", // best of each, speedup 80/40
		"| 512 | 90.0 | **40.0** | 2.25 |",                                   // per block size, spac's best marked
		"| m1 | fp32 | spac | 10 | 3 | 3e-05 | 0.001 | **no** |",             // agreement: worst of the runs
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
	if i0, i1 := strings.Index(string(report), "| m0 | 500 |"), strings.Index(string(report), "| m1 | 1000 |"); i0 < 0 || i0 > i1 {
		t.Errorf("the smaller mesh m0 does not come first in the summary:\n%s", report)
	}
	// A panel per mesh, the schedules in the legend, the block sizes on x.
	checkReportPlot(t, dir, "fig14", "m0, 500 elements, fp32", "m1, 1000 elements, fp32", "original", "spac", "128", "512", "block size", "us per iteration")
	merged, err := os.ReadFile(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(merged), "\n"); n != 9 {
		t.Errorf("results.csv has %d lines, want 9", n)
	}
	if _, code, _ := execute(t, "cfd", "report", writeFile(t, "cpu.csv", "mesh,elements\nx,1\n"), "-o", dir); code != 1 {
		t.Errorf("a CSV without the columns: exit %d, want 1", code)
	}
	if _, code, _ := execute(t, "cfd", "report", in); code != 2 {
		t.Errorf("no -o: exit %d, want 2", code)
	}
}
