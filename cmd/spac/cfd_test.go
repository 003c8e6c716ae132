package main

import (
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/cfd"
)

func TestCFDExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, "bad.domn", "2\n1 0 1 0 0\n")
	oneSided := writeFile(t, "one.domn", "2\n1 2 1 0 0 -1 0 0 0 -1 0 0 0 -1 0 0 0\n1 -1 0 0 0 -1 0 0 0 -1 0 0 0 -1 0 0 0\n")
	for _, tc := range []struct {
		name string
		args []string
		want int
		msg  string
	}{
		{"ok", []string{"cfd", "mesh:n=400", "-n", "3", "--quiet"}, 0, "cpu spac"},
		{"gpu", []string{"cfd", "mesh:n=400", "-n", "2", "--gpu", "--quiet"}, 1, "GPU support for cfd is not built into this binary"},
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code, err := execute(t, tc.args...)
			text := out
			if err != nil {
				text += err.Error()
			}
			if code != tc.want || !strings.Contains(text, tc.msg) {
				t.Errorf("exit %d, want %d; output and error %q, want %q in it", code, tc.want, text, tc.msg)
			}
		})
	}
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
	// header + 2 precisions x (reference + 2 block sizes)
	if len(recs) != 7 || recs[0][0] != "mesh" || recs[1][0] != "m.domn" {
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
