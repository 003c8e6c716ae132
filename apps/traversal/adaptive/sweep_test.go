package adaptive

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testStats = GraphStats{Vertices: 10, Arcs: 24, MaxDegree: 6, DegreeCV: 0.5}

func testInfo() GraphInfo {
	info := NewGraphInfo("g1", "kron", testStats)
	info.Generator = "kron:scale=3,ef=3,seed=1"
	return info
}

// testRows are two roots of two and one levels, two candidates each, one
// of them invalid at one level.
func testRows() []Row {
	var rows []Row
	for _, root := range []int64{3, 7} {
		tr := NewTracker(testStats)
		levels := []Counters{{1, 3, 3}, {3, 10, 6}}
		if root == 7 {
			levels = levels[:1]
		}
		for l, c := range levels {
			f := tr.Next(c)
			rows = append(rows,
				Row{Graph: "g1", Family: "kron", Root: root, Features: f, Candidate: "thread", TimeUS: 10.5 + float64(l), Valid: true},
				Row{Graph: "g1", Family: "kron", Root: root, Features: f, Candidate: "pull", TimeUS: math.NaN(), Valid: l == 1})
		}
	}
	rows[3].TimeUS = 4.25 // root 3 level 1 pull: valid
	return rows
}

func sameRows(t *testing.T, got, want []Row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if math.IsNaN(g.TimeUS) && math.IsNaN(w.TimeUS) {
			g.TimeUS, w.TimeUS = 0, 0
		}
		if g != w {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
}

func writeCSV(t *testing.T, rows []Row) string {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b, testInfo())
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSweepRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, testInfo())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testRows() {
		r.Graph, r.Family = "", "" // taken from the sidecar
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "g1.csv")); err == nil {
		t.Error("g1.csv exists before Close")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSweep(filepath.Join(dir, "g1.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, s.Rows, testRows())
	if s.Info != testInfo() {
		t.Errorf("sidecar %+v, want %+v", s.Info, testInfo())
	}
	// The same through gzip.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(writeCSV(t, testRows())))
	zw.Close()
	gz := filepath.Join(dir, "gz", "g1.csv.gz")
	os.Mkdir(filepath.Dir(gz), 0o755)
	os.WriteFile(gz, z.Bytes(), 0o644)
	if err := WriteGraphInfo(SidecarPath(gz), testInfo()); err != nil {
		t.Fatal(err)
	}
	s, err = ReadSweep(gz)
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, s.Rows, testRows())
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 { // g1.csv, g1.json, gz
		t.Errorf("dir holds %d entries, want g1.csv, g1.json and gz/", len(entries))
	}
	// Abort leaves nothing.
	w, _ = Create(t.TempDir(), testInfo())
	w.Abort()
	if entries, _ := os.ReadDir(filepath.Dir(w.tmp)); len(entries) != 0 {
		t.Errorf("Abort left %v", entries)
	}
}

// TestReadRowsErrors: every kind of bad input is refused with its line,
// its column and what is wrong.
func TestReadRowsErrors(t *testing.T) {
	good := writeCSV(t, testRows())
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	// field j of data line i (0-based, after the header) replaced by v
	set := func(i, j int, v string) string {
		out := append([]string(nil), lines...)
		f := strings.Split(out[1+i], ",")
		f[j] = v
		out[1+i] = strings.Join(f, ",")
		return strings.Join(out, "\n") + "\n"
	}
	drop := func(i int) string {
		out := append([]string(nil), lines[:1+i]...)
		return strings.Join(append(out, lines[2+i:]...), "\n") + "\n"
	}
	col := func(name string) int {
		for i, h := range Header() {
			if h == name {
				return i
			}
		}
		panic(name)
	}
	k := keyColumns + NumFeatures
	cases := []struct {
		name, in, want string
	}{
		{"empty", "", "x.csv:1: empty file"},
		{"renamed column", strings.Replace(good, "frontier_arcs", "frontier_edges", 1), `x.csv:1: column 11 (frontier_arcs): header column "frontier_edges", want "frontier_arcs"`},
		{"extra column", strings.Replace(good, ",valid\n", ",valid,extra\n", 1), "an unknown column \"extra\""},
		{"short header", "graph,family\n", "the header ends after 2 columns"},
		{"short row", strings.Replace(good, ",true\n", "\n", 1), "x.csv:2: 22 fields, want 23"},
		{"bad graph", set(0, 0, "a b"), "x.csv:2: column 1 (graph): graph \"a b\""},
		{"two graphs", set(1, 0, "g2"), "x.csv:3: column 1 (graph): graph \"g2\" after \"g1\""},
		{"two families", set(1, 1, "road"), "family \"road\" after \"kron\""},
		{"negative root", set(0, 2, "-1"), "x.csv:2: column 3 (root)"},
		{"not a number", set(0, col("frontier_vertices"), "x"), `x.csv:2: column 10 (frontier_vertices): "x" is not a number`},
		{"fractional count", set(0, col("frontier_vertices"), "1.5"), "a count, must be an integer"},
		{"negative feature", set(0, col("degree_cv"), "-0.5"), "finite and non-negative"},
		{"NaN feature", set(0, col("degree_cv"), "NaN"), "finite and non-negative"},
		{"bad candidate", set(0, k, "Thread"), "column 21 (candidate): candidate \"Thread\""},
		{"bad valid", set(0, k+2, "yes"), `column 23 (valid): "yes": want true or false`},
		{"valid without time", set(0, k+1, ""), "time_us = NaN on a valid row"},
		{"valid zero time", set(0, k+1, "0"), "must be a positive number"},
		{"bad time", set(0, k+1, "1us"), `"1us" is not a number`},
		{"infinite invalid time", set(1, k+1, "Inf"), "must be empty, or a finite"},
		{"features differ", set(1, col("degree_cv"), "0.25"), "x.csv:3: column 9 (degree_cv): 0.25, but line 2 has 0.5"},
		{"duplicate", set(1, k, "thread"), "x.csv:3: column 21 (candidate): candidate thread at root 3 level 0 again (first on line 2)"},
		{"level gap", drop(0) /* keeps line 3, pull at level 0 */, ""},
		{"missing level", strings.Join(append(lines[:1], lines[3:5]...), "\n") + "\n", "root 3 has level 1 but no level 0"},
		{"bare quote", strings.Replace(good, "g1,kron,3", "g\"1,kron,3", 1), "x.csv:2: byte"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadRows(strings.NewReader(c.in), "x.csv")
			if c.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
		})
	}
}

func TestReadSweepChecks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g1.csv")
	os.WriteFile(path, []byte(writeCSV(t, testRows())), 0o644)
	if _, err := ReadSweep(path); err == nil || !strings.Contains(err.Error(), "sidecar is missing") {
		t.Errorf("no sidecar: %v", err)
	}
	for _, c := range []struct {
		name   string
		change func(*GraphInfo)
		want   string
	}{
		{"other name", func(g *GraphInfo) { g.Name = "g2" }, "sidecar describes g2"},
		{"other size", func(g *GraphInfo) { g.Vertices = 11 }, "its sidecar says 11"},
		{"no origin", func(g *GraphInfo) { g.Generator = "" }, "exactly one of generator and file"},
		{"two origins", func(g *GraphInfo) { g.File = "x.mtx" }, "exactly one of generator and file"},
		{"version", func(g *GraphInfo) { g.Version = 2 }, "sidecar version 2"},
		{"algorithm", func(g *GraphInfo) { g.Algorithm = "sssp" }, "algorithm \"sssp\""},
	} {
		info := testInfo()
		c.change(&info)
		b, _ := jsonIndent(info)
		os.WriteFile(SidecarPath(path), b, 0o644)
		if _, err := ReadSweep(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	os.WriteFile(SidecarPath(path), []byte(`{"format":"spac-traverse-graph","version":1,"nmae":"g1"}`), 0o644)
	if _, err := ReadSweep(path); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := SweepFiles(t.TempDir()); err == nil {
		t.Error("SweepFiles took an empty directory")
	}
	if err := WriteGraphInfo(SidecarPath(path), testInfo()); err != nil {
		t.Fatal(err)
	}
	if files, err := SweepFiles(dir); err != nil || len(files) != 1 || files[0] != path {
		t.Errorf("SweepFiles(dir) = %v, %v", files, err)
	}
	if _, err := LoadDataset(dir, path); err == nil || !strings.Contains(err.Error(), "in two sweeps") {
		t.Errorf("the same graph twice: %v", err)
	}
}

// FuzzReadRows: no input panics the reader, and whatever it accepts
// writes back and reads again to the same rows.
func FuzzReadRows(f *testing.F) {
	rows := testRows()
	var b bytes.Buffer
	w := NewWriter(&b, testInfo())
	for _, r := range rows {
		w.Write(r)
	}
	w.Close()
	f.Add(b.String())
	f.Add(strings.Join(Header(), ",") + "\n")
	f.Add("")
	f.Add("graph,family\n\"a")
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ReadRows(strings.NewReader(in), "fuzz.csv")
		if err != nil || len(rows) == 0 {
			return
		}
		info := NewGraphInfo(rows[0].Graph, rows[0].Family, GraphStats{Vertices: int64(rows[0].Features[Vertices]), Arcs: int64(rows[0].Features[Arcs])})
		info.Generator = "x"
		var out bytes.Buffer
		w := NewWriter(&out, info)
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				if strings.Contains(err.Error(), "in the sweep of a graph of") {
					return // rows of several sizes: the reader leaves that to ReadSweep
				}
				t.Fatalf("accepted row %+v does not write: %v", r, err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		again, err := ReadRows(&out, "again.csv")
		if err != nil {
			t.Fatalf("rewritten rows do not read: %v", err)
		}
		sameRows(t, again, rows)
	})
}

func jsonIndent(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") }

func TestSweepFilesSidecars(t *testing.T) {
	dir := t.TempDir()
	csv, side := filepath.Join(dir, "g1.csv"), filepath.Join(dir, "g1.json")
	os.WriteFile(csv, []byte(writeCSV(t, testRows())), 0o644)
	if err := WriteGraphInfo(side, testInfo()); err != nil {
		t.Fatal(err)
	}
	if files, err := SweepFiles(side, csv); err != nil || len(files) != 1 || files[0] != csv {
		t.Errorf("SweepFiles(sidecar, csv) = %v, %v", files, err)
	}
	if _, err := SweepFiles(side); err == nil || !strings.Contains(err.Error(), "a sidecar, not a sweep") {
		t.Errorf("SweepFiles(sidecar) = %v", err)
	}
	// A graph whose every row is invalid teaches nothing.
	rows := testRows()
	for i := range rows {
		rows[i].Valid, rows[i].TimeUS = false, math.NaN()
	}
	os.WriteFile(csv, []byte(writeCSV(t, rows)), 0o644)
	if _, err := LoadDataset(dir); err == nil || !strings.Contains(err.Error(), "no level of graph g1 has a valid time") {
		t.Errorf("all invalid: %v", err)
	}
}
