package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// executeStreams runs the command line with args as main would: it returns
// what went to standard output and standard error (an error appended to the
// latter, as main prints it) and the exit status.
func executeStreams(t *testing.T, args ...string) (stdout, stderr string, code int, err error) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err = root.Execute()
	if err != nil {
		errOut.WriteString("error: " + err.Error())
	}
	return out.String(), errOut.String(), exitCode(err), err
}

// execute is executeStreams with both streams in one string.
func execute(t *testing.T, args ...string) (string, int, error) {
	t.Helper()
	out, errOut, code, err := executeStreams(t, args...)
	return out + errOut, code, err
}

// exitCase is a command line, the exit status it must end with and a text
// its output or error must hold.
type exitCase struct {
	name string
	args []string
	want int
	msg  string
}

// checkExits runs each case as a subtest.
func checkExits(t *testing.T, cases []exitCase) {
	t.Helper()
	for _, tc := range cases {
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

// a 6x6 matrix in Matrix Market form with two dense diagonal blocks.
const small = `%%MatrixMarket matrix coordinate real general
6 6 12
1 1 1
1 2 2
2 1 3
2 2 4
3 3 5
3 4 6
4 3 7
4 4 8
5 5 9
5 6 10
6 5 11
6 6 12
`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExitCodes(t *testing.T) {
	in := writeFile(t, "a.mtx", small)
	bad := writeFile(t, "bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n")
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"ok", []string{"partition", in, "--parts", "2", "--quiet"}, 0},
		{"unknown command", []string{"frobnicate"}, 2},
		{"unknown flag", []string{"partition", in, "--bogus"}, 2},
		{"no input", []string{"partition"}, 2},
		{"two inputs", []string{"partition", in, in}, 2},
		{"unknown method", []string{"partition", in, "--method", "magic"}, 2},
		{"parts and block size", []string{"partition", in, "--parts", "2", "--block-size", "4"}, 2},
		{"bad order", []string{"partition", in, "--order", "zigzag"}, 2},
		{"bad format", []string{"compare", in, "--format", "xml"}, 2},
		{"missing file", []string{"partition", filepath.Join(t.TempDir(), "none.mtx")}, 1},
		{"truncated file", []string{"partition", bad, "--quiet"}, 1},
		{"gen without output", []string{"gen", "cant"}, 2},
		{"gen bad spec", []string{"gen", "ba:n=-5", "-o", "-"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code, err := execute(t, tc.args...)
			if code != tc.want {
				t.Errorf("exit %d, want %d (err %v, out %q)", code, tc.want, err, out)
			}
		})
	}
}

func TestHelpTeaches(t *testing.T) {
	for _, cmd := range []string{"partition", "compare", "stats", "gen"} {
		out, code, _ := execute(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "spac "+cmd) {
			t.Errorf("%s --help (exit %d) lacks usage or examples:\n%s", cmd, code, out)
		}
	}
}

func TestPartitionWritesAssignment(t *testing.T) {
	in := writeFile(t, "a.mtx", small)
	asg := filepath.Join(t.TempDir(), "parts.tsv")
	out, code, err := execute(t, "partition", in, "--block-size", "4", "--assignment", asg, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	if !strings.Contains(out, "vertex copies    0") {
		t.Errorf("three 2x2 blocks in parts of 4 need no copies; summary:\n%s", out)
	}
	data, err := os.ReadFile(asg)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d assignment lines, want one per nonzero (12)", len(lines))
	}
	partOf := map[[2]int]int{}
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("line %d %q: want row, col, part", i+1, line)
		}
		r, _ := strconv.Atoi(f[0])
		c, _ := strconv.Atoi(f[1])
		p, _ := strconv.Atoi(f[2])
		partOf[[2]int{r, c}] = p
	}
	// Each diagonal block must sit in one part, the three in distinct parts.
	for _, b := range [][2]int{{1, 2}, {3, 4}, {5, 6}} {
		lo, hi := b[0], b[1]
		p := partOf[[2]int{lo, lo}]
		for _, rc := range [][2]int{{lo, hi}, {hi, lo}, {hi, hi}} {
			if partOf[rc] != p {
				t.Errorf("block %v split across parts: %v", b, partOf)
			}
		}
	}
}

func TestCompareFormats(t *testing.T) {
	in := writeFile(t, "a.mtx", small)
	out, code, err := execute(t, "compare", in, "--parts", "3", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(allMethods()); len(recs) != n+1 || recs[0][1] != "method" || recs[1][1] != "spac" {
		t.Fatalf("csv: want a header and %d methods with spac first, got %v", n, recs)
	}
	out, code, err = execute(t, "compare", in, "--parts", "3", "--format", "json", "--methods", "spac,greedy", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	var rows []comparisonRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(rows) != 2 || rows[0].Method != "spac" || rows[0].Copies != 0 || rows[0].Parts != 3 {
		t.Fatalf("json rows %+v", rows)
	}
	if rows[0].SectorRatio == nil {
		t.Errorf("parts of at most a CUDA block: no traffic prediction in %+v", rows[0])
	}
}

// Parts larger than a CUDA block have no schedule: compare leaves the
// traffic columns empty instead of padding split parts to such blocks
// (which took 6.8 GB for 8M edges in 32 parts).
func TestCompareTrafficOnlyForBlocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ba.mtx")
	if _, code, err := execute(t, "gen", "ba:n=2000,m=4", "--seed", "1", "-o", path); code != 0 {
		t.Fatalf("gen: exit %d: %v", code, err)
	}
	out, code, err := execute(t, "compare", path, "--parts", "2", "--methods", "hdrf", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	var rows []comparisonRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Cap <= 1024 || rows[0].SectorRatio != nil || rows[0].DefaultSectors != nil {
		t.Fatalf("parts of %d edges: rows %+v, want no traffic", rows[0].Cap, rows)
	}
	table, _, _ := execute(t, "compare", path, "--parts", "2", "--methods", "hdrf", "--quiet")
	if !strings.Contains(table, " - ") {
		t.Errorf("table without a - in the traffic column:\n%s", table)
	}
}

func TestGenThenStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ba.mtx")
	if _, code, err := execute(t, "gen", "ba:n=200,m=3", "--seed", "4", "-o", path); code != 0 {
		t.Fatalf("gen: exit %d: %v", code, err)
	}
	checkStats(t, path, "200 x 200", "symmetric", "locality graph")
}

// checkStats runs spac stats on path and checks that it succeeds and that
// its output holds every one of wants.
func checkStats(t *testing.T, path string, wants ...string) {
	t.Helper()
	out, code, err := execute(t, "stats", path, "--quiet")
	if code != 0 {
		t.Fatalf("stats: exit %d: %v", code, err)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}
}

// TestStatsWithoutEntries: a matrix without entries is described, its
// locality graph said to be empty, where partitioning it is an error.
func TestStatsWithoutEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.mtx")
	if err := os.WriteFile(path, []byte("%%MatrixMarket matrix coordinate pattern general\n3 4 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkStats(t, path, "3 x 4", "stored entries     0", "locality graph     none")
	if _, code, _ := execute(t, "partition", path, "--quiet"); code == 0 {
		t.Error("partition of a matrix without entries: exit 0")
	}
}
