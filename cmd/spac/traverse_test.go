package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/schedule"
)

// traverseJSON runs a bfs or sssp command line with --format json and
// decodes the report; the exit status must be want.
func traverseJSON(t *testing.T, want int, args ...string) traverseReport {
	t.Helper()
	out, errOut, code, _ := executeStreams(t, append(args, "--format", "json", "--quiet")...)
	if code != want {
		t.Fatalf("%v: exit %d, want %d: %s", args, code, want, errOut)
	}
	var rep traverseReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: json: %v\n%s", args, err, out)
	}
	return rep
}

// TestTraverseStrategiesValidate runs every CPU strategy of both commands
// on a small road graph and a small Kronecker graph (with every weight
// kind for sssp): every root's result passes the Graph500 checks, and
// every row has its roots and positive rates.
func TestTraverseStrategiesValidate(t *testing.T) {
	for _, tc := range []struct {
		p     problem
		graph string
		extra []string
	}{
		{problemBFS, "road:nx=20,ny=15", nil},
		{problemBFS, "kron:scale=8", nil},
		{problemBFS, "kron:scale=8", []string{"--relabel", "degree", "--dedupe", "--drop-self-loops"}},
		{problemSSSP, "road:nx=20,ny=15", []string{"--weights", "uniform-int:20"}},
		{problemSSSP, "road:nx=20,ny=15", []string{"--weights", "uniform-float", "--delta", "0.1"}},
		{problemSSSP, "kron:scale=8", nil}, // auto: uniform-float
		{problemSSSP, "kron:scale=8", []string{"--weights", "uniform-int:1000", "--relabel", "random"}},
	} {
		name := tc.p.String() + "/" + tc.graph + strings.Join(tc.extra, "")
		t.Run(name, func(t *testing.T) {
			args := append([]string{tc.p.String(), tc.graph, "--roots", "6"}, tc.extra...)
			rep := traverseJSON(t, 0, args...)
			var names []string
			for _, r := range rep.Rows {
				names = append(names, r.Strategy)
				if r.Valid != "yes" || r.Roots != 6 || len(r.Runs) != 6 || !(r.TEPS > 0) || !(r.InspectedRate > 0) {
					t.Errorf("%s: %+v", r.Strategy, r)
				}
				for _, run := range r.Runs {
					if run.Valid != "yes" || run.InputEdges <= 0 {
						t.Errorf("%s root %d: %+v", r.Strategy, run.Root, run)
					}
				}
				if (tc.p == problemBFS) != (r.Levels > 0) {
					t.Errorf("%s: levels %d (BFS counts them, the SSSP references do not)", r.Strategy, r.Levels)
				}
			}
			if !slices.Equal(names, cpuStrategyNames(tc.p)) {
				t.Errorf("strategies %v, want all of %v", names, cpuStrategyNames(tc.p))
			}
			if !rep.Validated || len(rep.Roots) != 6 || rep.Directed {
				t.Errorf("report %+v", rep)
			}
		})
	}
}

// TestTraverseRoot: --root is 0-based and checked against the vertex
// count after loading, a usage error naming the range.
func TestTraverseRoot(t *testing.T) {
	for _, cmd := range []string{"bfs", "sssp"} {
		_, errOut, code, _ := executeStreams(t, cmd, "kron:scale=6", "--root", "64", "--quiet")
		if code != 2 || !strings.Contains(errOut, "--root 64") || !strings.Contains(errOut, "0 to 63") || !strings.Contains(errOut, "0-based") {
			t.Errorf("%s --root 64 on 64 vertices: exit %d, %q; want 2 naming 0 to 63", cmd, code, errOut)
		}
		rep := traverseJSON(t, 0, cmd, "kron:scale=6", "--root", "63")
		if len(rep.Roots) != 1 || rep.Roots[0] != 63 || rep.RootsFrom != "root 63" {
			t.Errorf("%s --root 63: roots %v (%s)", cmd, rep.Roots, rep.RootsFrom)
		}
	}
}

// path is a 1-based Matrix Market file: the path 1-2-3, vertex 4 alone and
// the edge 5-6, with values; 0-based, vertices 0 to 5.
const pathMTX = `%%MatrixMarket matrix coordinate real symmetric
6 6 3
2 1 1.5
3 2 2.5
6 5 1
`

func readNPY(t *testing.T, path, descr string, n int) schedule.NPY {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	a, err := schedule.ReadNPY(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a.Descr != descr || a.Len != n {
		t.Fatalf("%s: dtype %s shape (%d,), want %s (%d,)", path, a.Descr, a.Len, descr, n)
	}
	return a
}

func npyInt32s(t *testing.T, path string, n int) []int32 {
	t.Helper()
	v, err := readNPY(t, path, schedule.DescrInt32, n).Int32s()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTraverseOut: --out writes depth.npy and parent.npy (bfs), dist.npy
// and pred.npy (sssp) of the last root, int32 and float64 of one element
// per vertex, -1 and +Inf for unreached vertices, in the input's 0-based
// ids whatever --relabel does inside; the directory is replaced as a set.
func TestTraverseOut(t *testing.T) {
	in := writeFile(t, "path.mtx", pathMTX)
	for _, relabel := range []string{"none", "degree", "random"} {
		t.Run(relabel, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "arrays")
			traverseJSON(t, 0, "bfs", in, "--root", "0", "--out", dir, "--relabel", relabel)
			if d := npyInt32s(t, filepath.Join(dir, "depth.npy"), 6); !slices.Equal(d, []int32{0, 1, 2, -1, -1, -1}) {
				t.Errorf("depth %v", d)
			}
			if p := npyInt32s(t, filepath.Join(dir, "parent.npy"), 6); !slices.Equal(p, []int32{0, 0, 1, -1, -1, -1}) {
				t.Errorf("parent %v", p)
			}
			// The same directory now takes the SSSP set? No: it holds the
			// BFS files, which sssp does not own.
			if _, _, code, _ := executeStreams(t, "sssp", in, "--root", "1", "--out", dir, "--quiet"); code != 2 {
				t.Errorf("sssp --out over a bfs directory: exit %d, want 2", code)
			}
			dir = filepath.Join(t.TempDir(), "sssp")
			rep := traverseJSON(t, 0, "sssp", in, "--root", "1", "--out", dir, "--relabel", relabel)
			if rep.Weights != "file (auto)" {
				t.Errorf("weights %q: the file has values, auto should take them", rep.Weights)
			}
			a := readNPY(t, filepath.Join(dir, "dist.npy"), schedule.DescrFloat64, 6)
			dist, _ := a.Float64s()
			inf := math.Inf(1)
			if !slices.Equal(dist, []float64{1.5, 0, 2.5, inf, inf, inf}) {
				t.Errorf("dist %v", dist)
			}
			if p := npyInt32s(t, filepath.Join(dir, "pred.npy"), 6); !slices.Equal(p, []int32{1, 1, 1, -1, -1, -1}) {
				t.Errorf("pred %v", p)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 2 {
				t.Errorf("%s holds %d files, want dist.npy and pred.npy", dir, len(entries))
			}
		})
	}
}

// TestTraverseFormats: CSV has the header and a row per strategy; JSON
// has every root's figures; the table names its units.
func TestTraverseFormats(t *testing.T) {
	out, code, err := execute(t, "bfs", "road:nx=10,ny=10", "--roots", "3", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || !slices.Equal(recs[0], traverseCSVHeader) || recs[1][8] != "queue" || recs[3][15] != "yes" || recs[2][9] != "3" {
		t.Errorf("csv: want the header and 3 strategies of 3 roots, got %v", recs)
	}
	out, code, err = execute(t, "sssp", "road:nx=10,ny=10", "--roots", "2", "--strategy", "delta-stepping,dijkstra", "--format", "csv", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	recs, _ = csv.NewReader(strings.NewReader(out)).ReadAll()
	if len(recs) != 3 || recs[1][8] != "delta-stepping" || recs[2][8] != "dijkstra" || recs[1][13] != "" {
		t.Errorf("csv: the strategies in the order given, no levels for SSSP: %v", recs)
	}
	rep := traverseJSON(t, 0, "bfs", "kron:scale=7", "--roots", "5", "--strategy", "parallel")
	if len(rep.Rows) != 1 || len(rep.Rows[0].Runs) != 5 || rep.Vertices != 128 || rep.InputEdges != 16*128 || rep.Problem != "bfs" {
		t.Errorf("json %+v", rep)
	}
	out, code, err = execute(t, "bfs", "road:nx=10,ny=10", "--roots", "2", "--no-validate", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	for _, want := range []string{"TEPS (Graph500, hmean)", "inspected/s (arcs, hmean)", "ms/root (median)", "not checked", "not validated"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestTraverseBudget: a strategy whose searches have used its --budget
// takes no more roots, and the table and the JSON say which stopped.
func TestTraverseBudget(t *testing.T) {
	rep := traverseJSON(t, 0, "bfs", "kron:scale=7", "--roots", "4", "--strategy", "queue,parallel", "--budget", "1e-9")
	for _, r := range rep.Rows {
		if r.Roots != 1 || !r.Stopped || r.Valid != "yes" {
			t.Errorf("%s: %d roots, stopped %v, valid %q: want 1 root, stopped, valid", r.Strategy, r.Roots, r.Stopped, r.Valid)
		}
	}
	out, code, err := execute(t, "bfs", "kron:scale=7", "--roots", "4", "--strategy", "queue", "--budget", "1e-9", "--quiet")
	if code != 0 || !strings.Contains(out, "--budget stopped queue (1) before the last root") {
		t.Errorf("exit %d (%v), table:\n%s", code, err, out)
	}
	rep = traverseJSON(t, 0, "bfs", "kron:scale=7", "--roots", "4", "--strategy", "queue", "--budget", "100")
	if rep.Rows[0].Roots != 4 || rep.Rows[0].Stopped {
		t.Errorf("a budget not reached stopped the strategy: %+v", rep.Rows[0])
	}
}

// TestTraverseDirected: an edge list read with --directed is a directed
// graph (the search follows arcs only; TEPS counts the input edges leaving
// reached vertices); without it, or with --undirected, it is undirected.
func TestTraverseDirected(t *testing.T) {
	in := writeFile(t, "d.txt", "# a directed cycle and an arc\n0 1\n1 2\n2 0\n3 4\n")
	dir := filepath.Join(t.TempDir(), "out")
	rep := traverseJSON(t, 0, "bfs", in, "--directed", "--root", "4", "--out", dir)
	if !rep.Directed || rep.Rows[0].Runs[0].InputEdges != 0 {
		t.Errorf("root 4 reaches nothing along arcs: %+v", rep)
	}
	if d := npyInt32s(t, filepath.Join(dir, "depth.npy"), 5); !slices.Equal(d, []int32{-1, -1, -1, -1, 0}) {
		t.Errorf("depth %v", d)
	}
	rep = traverseJSON(t, 0, "bfs", in, "--directed", "--root", "1")
	for _, r := range rep.Rows {
		if r.Valid != "yes" || r.Runs[0].InputEdges != 3 || r.Levels != 3 {
			t.Errorf("%s from 1: %+v; want the cycle's 3 input edges over 3 levels", r.Strategy, r)
		}
	}
	for _, args := range [][]string{{"bfs", in, "--root", "4"}, {"bfs", in, "--directed", "--undirected", "--root", "4"}} {
		rep = traverseJSON(t, 0, args...)
		if rep.Directed || rep.Rows[0].Runs[0].InputEdges != 1 {
			t.Errorf("%v: %+v; want undirected, the edge 3-4 reached", args, rep)
		}
	}
	rep = traverseJSON(t, 0, "sssp", in, "--directed", "--root", "0", "--weights", "uniform-int:5")
	for _, r := range rep.Rows {
		if r.Valid != "yes" || r.Runs[0].InputEdges != 3 {
			t.Errorf("sssp %s: %+v", r.Strategy, r)
		}
	}
}

// TestTraverseUsage: the command-line mistakes exit 2 with what to do;
// --gpu in a build without CUDA exits 1 before reading anything.
func TestTraverseUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.mtx")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bfs", missing, "--gpu"}, 1, "no CUDA support"},
		{[]string{"sssp", "kron:scale=5", "--gpu", "--strategy", "all"}, 1, "no CUDA support"},
		{[]string{"bfs", missing, "--roots", "4", "--root", "1"}, 2, "give one"},
		{[]string{"bfs", missing, "--strategy", "dijkstra"}, 2, "queue, parallel or direction-optimizing"},
		{[]string{"sssp", missing, "--strategy", "queue"}, 2, "dijkstra or delta-stepping"},
		{[]string{"bfs", missing, "--strategy", "queue,lb-cull"}, 2, "lb-cull is a strategy of the GPU engine: add --gpu"},
		{[]string{"bfs", missing, "--strategy", "adaptive"}, 2, "adaptive is a strategy of the GPU engine: add --gpu"},
		{[]string{"bfs", missing, "--strategy", ","}, 2, "no strategy"},
		{[]string{"bfs", missing, "--weights", "uniform-float"}, 2, "unknown flag"},
		{[]string{"sssp", missing, "--weights", "none"}, 2, "need weights"},
		{[]string{"sssp", missing, "--weights", "uniform-int:0"}, 2, "--weights"},
		{[]string{"bfs", missing, "--relabel", "sideways"}, 2, "none, degree or random"},
		{[]string{"bfs", missing, "--model", "spmv"}, 2, "does not apply"},
		{[]string{"bfs", missing, "--validate", "--no-validate"}, 2, "contradict"},
		{[]string{"bfs", missing, "--levels", "levels.csv"}, 2, "add --gpu"},
		{[]string{"bfs", missing, "--format", "xml"}, 2, "table, csv or json"},
		{[]string{"bfs", "kron:scale=99"}, 2, "scale"},
		{[]string{"bfs", "road:nx=4,ny=4,wat=1"}, 2, "unknown parameter"},
		{[]string{"bfs", missing, "--base", "2"}, 2, "--base"},
		{[]string{"bfs", "road:side=4", "--directed"}, 2, "--directed reads files"},
		{[]string{"bfs"}, 2, "one graph"},
		{[]string{"bfs", missing}, 1, "none.mtx"},
		{[]string{"sssp", writeFile(t, "p.txt", "0 1\n"), "--weights", "file"}, 1, "no values"},
	} {
		t.Run(strings.Join(tc.args[min(2, len(tc.args)):], " "), func(t *testing.T) {
			if gpu.Built && tc.want == "no CUDA support" {
				t.Skip("this binary has CUDA")
			}
			_, errOut, code, _ := executeStreams(t, append(tc.args, "--quiet")...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
			}
		})
	}
	for _, cmd := range []string{"bfs", "sssp"} {
		out, code, _ := execute(t, cmd, "--help")
		for _, want := range []string{"0-based", "Graph500", "inspected/s", "--no-validate", "Examples:", arrayFiles(problem(slices.Index([]string{"bfs", "sssp"}, cmd)))[0]} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("%s --help (exit %d) lacks %q", cmd, code, want)
			}
		}
	}
}

// plantedTraverser returns a wrong answer: a BFS tree with one vertex one
// level too deep, or SSSP distances with one too long.
type plantedTraverser struct{ cpuTraverser }

func (p *plantedTraverser) Run(ctx context.Context, root int32, s string) (*traversal, error) {
	res, err := p.cpuTraverser.Run(ctx, root, s)
	if err != nil {
		return nil, err
	}
	for v := range res.Parent {
		if int32(v) != root && res.Parent[v] >= 0 {
			if res.Depth != nil {
				res.Depth[v]++
			} else {
				res.Dist[v] *= 2
			}
			break
		}
	}
	return res, nil
}

// TestTraverseCatchesPlantedBug: a strategy that returns a wrong result
// gets a failed row naming the first violation, and the table points to it,
// whether the checks run in turn or beside the searches (async, the GPU's).
func TestTraverseCatchesPlantedBug(t *testing.T) {
	for _, tc := range []struct {
		p     problem
		async bool
	}{{problemBFS, false}, {problemSSSP, false}, {problemBFS, true}, {problemSSSP, true}} {
		p := tc.p
		opt := graph.Options{}
		if p == problemSSSP {
			opt.Weights = graph.Weights{Kind: graph.UniformInt, Max: 7}
		}
		e := &graph.Edges{Name: "path", NumVertices: 4, Src: []int32{0, 1, 2}, Dst: []int32{1, 2, 3}}
		g, err := graph.Build(e, opt)
		if err != nil {
			t.Fatal(err)
		}
		tr := &plantedTraverser{cpuTraverser{g: g, p: p}}
		rows := []strategyRow{{Strategy: tr.Strategies()[0], Valid: "yes"}}
		checks := newChecker(g, p, rows, true, tc.async)
		for range 2 {
			res, run, err := searchOnce(context.Background(), tr, g, p, 0, rows[0].Strategy)
			if err != nil {
				t.Fatal(err)
			}
			checks.add(0, 0, res, run, nil)
		}
		checks.wait()
		row := rows[0]
		row.summarize()
		if row.Roots != 2 {
			t.Errorf("%s: %d runs checked, want 2", p, row.Roots)
		}
		if !row.failed || !strings.Contains(row.Valid, "rule broken") {
			t.Errorf("%s: the planted bug passed: %+v", p, row)
		}
		var buf bytes.Buffer
		rep := &traverseReport{Problem: p.String(), Graph: "path", Validated: true, Rows: []strategyRow{row}}
		if err := writeTraverse(&buf, formatTable, rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "NO, see below") || !strings.Contains(buf.String(), "invalid: "+row.Strategy) {
			t.Errorf("%s table:\n%s", p, buf.String())
		}
	}
}

// TestParseStrategies: all runs the names in order, a list may also name
// the extra ones (negative tests), a repeated name runs once, a wrong one
// is a usage error listing them all.
func TestParseStrategies(t *testing.T) {
	names, extra := []string{"a", "b"}, []string{"racy"}
	for _, tc := range []struct {
		list string
		want []string
		err  string
	}{
		{"all", []string{"a", "b"}, ""},
		{" ALL ", []string{"a", "b"}, ""},
		{"b,a,b", []string{"b", "a"}, ""},
		{"racy", []string{"racy"}, ""},
		{"c", nil, "a, b or racy"},
		{"", nil, "no strategy"},
	} {
		got, err := parseStrategies(tc.list, names, extra)
		if tc.err != "" {
			if exitCode(err) != 2 || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want a usage error with %q", tc.list, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.list, got, err, tc.want)
		}
	}
}

// A gen: input is the matrix 'spac gen' writes with the same seed: the
// BFS depths from a root and the SSSP distances (weights drawn with the
// seed) are those of the file.
func TestTraverseGenerated(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ba.mtx")
	if out, _, err := execute(t, "gen", "ba:n=400,m=3", "--seed", "5", "-o", file); err != nil {
		t.Fatalf("gen: %v\n%s", err, out)
	}
	for _, p := range []struct{ problem, array string }{{"bfs", "depth.npy"}, {"sssp", "dist.npy"}} {
		arrays := func(in, name string) []byte {
			out := filepath.Join(dir, name)
			args := []string{p.problem, in, "--root", "3", "--seed", "5", "--out", out}
			if p.problem == "sssp" {
				args = append(args, "--weights", "uniform-int:100") // the generated values are of either sign
			}
			traverseJSON(t, 0, args...)
			b, err := os.ReadFile(filepath.Join(out, p.array))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		fromFile, generated := arrays(file, p.problem+"-file"), arrays("gen:ba:n=400,m=3", p.problem+"-gen")
		if !bytes.Equal(fromFile, generated) {
			t.Errorf("%s: %s of gen:ba:n=400,m=3 differs from the file's", p.problem, p.array)
		}
	}
}
