package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func TestParticleFilterExitCodes(t *testing.T) {
	gpuExit, gpuMsg := 1, "build one with 'make gpu'"
	if gpu.Built {
		gpuExit, gpuMsg = 0, "gpu"
	}
	small := []string{"particlefilter", "pf:x=48,y=48,z=3,np=60", "--quiet"}
	checkExits(t, []exitCase{
		{"ok", append(small, "-b", "32,64"), 0, "spac  "},
		{"flags override", append(small, "-z", "4", "--np", "30", "--variant", "rcm"), 0, "30 particles"},
		{"gpu", append(small, "--gpu", "-b", "32", "--variant", "original"), gpuExit, gpuMsg},
		{"bad block size", append(small, "-b", "100"), 2, "multiple of 32"},
		{"bad variant", append(small, "--variant", "fast"), 2, "--variant"},
		{"naive on the cpu", append(small, "--variant", "naive"), 2, "--gpu"},
		{"bad method", append(small, "--method", "magic"), 2, "--method"},
		{"fp32", append(small, "--precision", "fp32"), 2, "double precision"},
		{"bad input", []string{"particlefilter", "video.avi"}, 2, "neither a preset"},
		{"bad spec", []string{"particlefilter", "pf:np=0"}, 2, "at least 1"},
		{"bad size flag", append(small, "-z", "1"), 2, "at least 2"},
		{"lock without gpu", append(small, "--gpu-lock", "x"), 2, "--gpu"},
		{"two inputs", []string{"particlefilter", "rodinia", "h100"}, 2, "takes one input"},
	})
}

// The JSON has the reference and every variant and method at every block
// size, each checked and within the tolerances; -o writes it to a file,
// and the CSV has a line per run.
func TestParticleFilterOutputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pf.json")
	if out, code, err := execute(t, "particlefilter", "pf:x=64,y=64,z=4,np=90", "--quiet", "-b", "32,128", "-m", "spac,default",
		"--format", "json", "-o", path); code != 0 {
		t.Fatalf("%v\n%s", err, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep rodiniaReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.App != "particlefilter" || rep.Sizes["particles"] != 90 || rep.Sizes["frames"] != 4 {
		t.Errorf("header %+v", rep)
	}
	seen := map[string]int{}
	for _, r := range rep.Runs {
		key := r.Variant + "/" + r.Method
		seen[key]++
		if r.Kernel != "filter" || r.Precision != "fp64" || r.TimeMS <= 0 {
			t.Errorf("run %+v", r)
		}
		if r.Variant != "original" && (!r.Checked || !r.OK || r.BlockSize == 0 || r.PartitionS <= 0) {
			t.Errorf("run %+v: want a checked, agreeing run with a block size and a prep time", r)
		}
		if r.Variant == "spac" && (r.Parts == 0 || r.PerBlock != r.BlockSize || r.Copies <= 0 || r.RF <= 1) {
			t.Errorf("spac run %+v: want its partition's figures", r)
		}
	}
	if seen["original/"] != 1 || seen["rcm/"] != 2 || seen["spac/spac"] != 2 || seen["spac/default"] != 2 {
		t.Errorf("runs %v", seen)
	}
	out, code, err := execute(t, "particlefilter", "pf:x=64,y=64,z=3,np=40", "--quiet", "--format", "csv", "-b", "64")
	if code != 0 {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+3 || len(recs[0]) != len(rodiniaCSVHeader) {
		t.Fatalf("%d lines of %d columns", len(recs), len(recs[0]))
	}
}
