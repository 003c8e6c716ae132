package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNoProgressOffTerminal: standard error is not a terminal here, so a
// command without --quiet draws no progress: standard error stays empty.
func TestNoProgressOffTerminal(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	in := writeFile(t, "a.mtx", small)
	for _, args := range [][]string{
		{"partition", in, "--parts", "2"},
		{"compare", in, "--parts", "2"},
		{"schedule", in, "-b", "4"},
		{"schedule", in, "-b", "4"}, // from the cache
	} {
		out, errOut, code, _ := executeStreams(t, args...)
		if code != 0 || errOut != "" || out == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestOneVocabulary: every spelling of a precision is taken by every
// command that takes one; an unknown format or name is a usage error that
// lists the names; the renamed flags keep their old names as deprecated
// aliases.
func TestOneVocabulary(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	in := writeFile(t, "a.mtx", small)
	for _, args := range [][]string{
		{"schedule", in, "-b", "4", "--precision", "single"},
		{"spmv", in, "-b", "32", "--precision", "float,DOUBLE", "--kernels", "csr-scalar", "-m", "greedy"},
		{"cg", "gen:stencil2d:nx=6,ny=6,points=5", "--precision", "f32", "--tol", "1e-4"},
		{"cfd", "mesh:n=400", "-n", "1", "--precision", "float64", "-b", "64"},
	} {
		if out, code, err := execute(t, append(args, "--quiet")...); code != 0 {
			t.Errorf("%v: exit %d (%v)\n%s", args, code, err, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", in, "--format", "xml"}, `unknown output format "xml" (want table, csv or json)`},
		{[]string{"cfd", "mesh:n=400", "--format", "yaml"}, `(want table, csv or json)`},
		{[]string{"cfd", "mesh:n=400", "--precision", "half"}, `unknown precision "half" (want fp32 or fp64)`},
		{[]string{"cg", in, "--schedule", "fast"}, `unknown schedule "fast" (want default, spac, cusparse or adapt)`},
		{[]string{"partition", in, "--order", "spiral"}, `unknown clone order "spiral" (want walk, cycle, index or neighbour)`},
		{[]string{"schedule", in, "--overflow", "spill"}, `unknown overflow policy "spill" (want auto, split or readonly)`},
	} {
		_, errOut, code, _ := executeStreams(t, append(tc.args, "--quiet")...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	// The note goes to cobra's OutOrStderr: standard error in main, which
	// sets no output stream; the test's stream here.
	out, code, _ := execute(t, "spmv", in, "-b", "32", "--methods", "csr-scalar", "--schedules", "greedy", "--quiet")
	if code != 0 || !strings.Contains(out, "--methods has been deprecated, use --kernels") ||
		!strings.Contains(out, "--schedules has been deprecated, use --method") || !strings.Contains(out, "cpu-schedule    greedy") {
		t.Errorf("deprecated aliases: exit %d, output %q", code, out)
	}
}
