package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Rodinia report picks each variant's best block size, divides the
// original's best by SPAC's and RCM's (SPAC's best over its kernels and
// b+tree's job swapping, named where the latter won, never a baseline
// partitioner's), summarizes ncu's CSVs per run and per kernel (the units
// row skipped, a kernel's launches summed), and refuses input without GPU
// runs.
func TestRodiniaReport(t *testing.T) {
	dir := t.TempDir()
	times := map[string][]float64{"original": {4, 3, 5}, "rcm": {3.5, 2.5, 6}, "spac": {2, 1.5, 1}}
	blocks := []int{32, 128, 1024}
	rep := rodiniaReport{App: "particlefilter", Input: "rodinia", Device: "test GPU"}
	rep.Runs = append(rep.Runs, rodiniaRun{Kernel: "filter", Variant: "original", Device: "cpu", TimeMS: 99})
	for v, ts := range times {
		for i, b := range blocks {
			r := rodiniaRun{Kernel: "filter", Variant: v, Device: "gpu", Precision: "fp64", BlockSize: b, TimeMS: ts[i], Checked: true, OK: true}
			if v == "spac" {
				r.Method, r.PartitionS = "spac", float64(b)/100
			}
			rep.Runs = append(rep.Runs, r)
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	pfPath := filepath.Join(dir, "pf.json")
	if err := os.WriteFile(pfPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	bt := rodiniaReport{App: "btree", Input: "mil", Device: "test GPU"}
	for _, r := range []struct {
		variant, method string
		ms              float64
	}{{"original", "", 0.02}, {"spac", "spac", 0.025}, {"spac-swap", "spac", 0.016}, {"spac-swap", "default", 0.01}} {
		bt.Runs = append(bt.Runs, rodiniaRun{Kernel: "findk", Variant: r.variant, Method: r.method, Device: "gpu", BlockSize: 256, TimeMS: r.ms, Checked: true, OK: true})
	}
	b, _ = json.Marshal(bt)
	btPath := filepath.Join(dir, "bt.json")
	if err := os.WriteFile(btPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ncuDir := filepath.Join(dir, "ncu")
	os.Mkdir(ncuDir, 0o755)
	ncu := `==PROF== Connected to process
"ID","Kernel Name","gpu__time_duration.sum","dram__bytes_read.sum","lts__t_sectors_srcunit_tex.sum","lts__t_sectors_srcunit_tex_lookup_hit.sum"
"","","nsecond","byte","sector","sector"
"0","pf_likelihood","1,000","2000000","1000","600"
"1","pf_find_index","3000","1000000","500","50"
"2","pf_likelihood","2,000","500000","1,000","400"
`
	if err := os.WriteFile(filepath.Join(ncuDir, "particlefilter.spac.128.csv"), []byte(ncu), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if msg, code, err := execute(t, "rodinia", "report", pfPath, btPath, "-o", out, "--ncu", ncuDir); code != 0 {
		t.Fatalf("%v\n%s", err, msg)
	}
	for _, f := range []string{"report.md", "fig14.svg", "fig14.png", "fig15.svg", "fig15.png", "results.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "report.md"))
	best := func(v string) (float64, int) {
		bt, bb := times[v][0], blocks[0]
		for i, x := range times[v] {
			if x < bt {
				bt, bb = x, blocks[i]
			}
		}
		return bt, bb
	}
	o, ob := best("original")
	r, rb := best("rcm")
	s, sb := best("spac")
	row := fmt.Sprintf("| particlefilter, rodinia, filter, fp64 | %s | %d | %s | %d | %s | %d | %.2f | %.2f | %.2f | yes |",
		us(o), ob, us(r), rb, us(s), sb, o/s, r/s, float64(sb)/100)
	if !strings.Contains(string(md), row) {
		t.Errorf("no Fig. 15 row %q in\n%s", row, md)
	}
	if row := "| btree, mil, findk | 20.0 | 256 | - | - | 16.0 | 256 spac-swap | 1.25 | - | 0.00 | yes |"; !strings.Contains(string(md), row) {
		t.Errorf("no Fig. 15 row %q in\n%s", row, md)
	}
	// The run's sums, then each kernel's over its own launches (the L1
	// columns were not collected: no hit rate).
	for _, row := range []string{
		"| particlefilter | spac | 128 | 3 | 6.0 | 3.50 | 0.00 | 2.5 | 42.0 | 0.0 | - |",
		"| particlefilter | spac | 128 | pf_likelihood | 50.0 | 2 | 3.0 | 2.50 | 0.00 | 2.0 | 50.0 | 0.0 | - |",
		"| particlefilter | spac | 128 | pf_find_index | 50.0 | 1 | 3.0 | 1.00 | 0.00 | 0.5 | 10.0 | 0.0 | - |",
	} {
		if !strings.Contains(string(md), row) {
			t.Errorf("no ncu row %q in\n%s", row, md)
		}
	}
	if strings.Contains(string(md), "99000") {
		t.Error("a CPU run is in the report")
	}
	cpuOnly := filepath.Join(dir, "cpu.json")
	rep.Runs = rep.Runs[:1]
	b, _ = json.Marshal(rep)
	os.WriteFile(cpuOnly, b, 0o644)
	if _, code, _ := execute(t, "rodinia", "report", cpuOnly, "-o", filepath.Join(dir, "x")); code != 1 {
		t.Errorf("a report of CPU runs only: exit %d, want 1", code)
	}
	if _, code, _ := execute(t, "rodinia", "report", "-o", out); code != 2 {
		t.Errorf("no input: exit %d, want 2", code)
	}
}
