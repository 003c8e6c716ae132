package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/apsp"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

// readMatrix reads an n x n .npy of descr that apsp wrote.
func readMatrix(t *testing.T, path, descr string, n int) schedule.NPY {
	t.Helper()
	a := readNPY(t, path, descr, n*n)
	if !slices.Equal(a.Shape, []int{n, n}) {
		t.Fatalf("%s: shape %v, want (%d, %d)", path, a.Shape, n, n)
	}
	return a
}

// TestAPSPMatchesDijkstra: every method writes the int32 distances of
// exact Dijkstra from every source, row = source, and next hops that
// lead along shortest paths; the summary counts the pairs.
func TestAPSPMatchesDijkstra(t *testing.T) {
	const spec = "road:nx=7,ny=5"
	g, err := gen.Open(spec, 1, matrices.ReadOptions{}, graph.Options{Weights: graph.Weights{Kind: graph.UniformInt, Max: 9}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	w, err := apsp.Dense[int32](g, false)
	if err != nil {
		t.Fatal(err)
	}
	n := g.NumVertices
	for _, method := range []string{"fw", "fw-blocked", "sssp-all", "auto"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "dist.npy")
		stdout, errOut, code, _ := executeStreams(t, "apsp", spec, "--weights", "uniform-int:9", "--method", method, "--paths", "-o", out, "--format", "json", "--quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, errOut)
		}
		var rep apspReport
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", method, err, stdout)
		}
		if rep.Vertices != n || rep.Type != "int32" || rep.Reachable != int64(n*(n-1)) || !rep.Paths {
			t.Errorf("%s: report %+v", method, rep)
		}
		dist, err := readMatrix(t, out, schedule.DescrInt32, n).Int32s()
		if err != nil {
			t.Fatal(err)
		}
		for s := range n {
			d, _, err := ref.DijkstraInt(g, int32(s))
			if err != nil {
				t.Fatal(err)
			}
			for v, x := range d {
				if int64(dist[s*n+v]) != x {
					t.Fatalf("%s: %d->%d = %d, Dijkstra %d", method, s, v, dist[s*n+v], x)
				}
			}
		}
		next, err := readMatrix(t, filepath.Join(dir, "dist.next.npy"), schedule.DescrInt32, n).Int32s()
		if err != nil {
			t.Fatal(err)
		}
		if err := apsp.Check(&apsp.Matrix[int32]{N: n, Dist: dist, Next: next}, w); err != nil {
			t.Errorf("%s: %v", method, err)
		}
	}
}

// TestAPSPFloatUnreachable: a directed float graph gives float32 (n, n)
// with +Inf where there is no path, on a file read with --directed.
func TestAPSPFloatUnreachable(t *testing.T) {
	in := writeFile(t, "g.txt", "0 1 0.5\n1 2 0.25\n2 0 0\n3 3 1\n")
	out := filepath.Join(t.TempDir(), "d.npy")
	if _, errOut, code, _ := executeStreams(t, "apsp", in, "--directed", "--weights", "file", "--dtype", "float32", "-o", out, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d, err := readMatrix(t, out, schedule.DescrFloat32, 4).Float32s()
	if err != nil {
		t.Fatal(err)
	}
	inf := float32(math.Inf(1))
	want := []float32{0, 0.5, 0.75, inf, 0.25, 0, 0.25, inf, 0, 0.5, 0, inf, inf, inf, inf, 0}
	if !slices.Equal(d, want) {
		t.Errorf("distances %v, want %v", d, want)
	}
}

// TestAPSPRefuses: bad command lines are usage errors (2); negative
// weights, and --gpu in a binary without CUDA, fail (1) saying why.
func TestAPSPRefuses(t *testing.T) {
	neg := writeFile(t, "neg.txt", "0 1 1\n1 2 -2\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"apsp", "road:nx=3,ny=3", "--method", "johnson"}, 2, "method"},
		{[]string{"apsp", "road:nx=3,ny=3", "--tile", "48"}, 2, "tile"},
		{[]string{"apsp", "road:nx=3,ny=3", "--next", "n.npy"}, 2, "--paths"},
		{[]string{"apsp", "road:nx=3,ny=3", "--gpu", "--method", "sssp-all", "--batch", "48"}, 2, "multiple of 32"},
		{[]string{"apsp", "road:nx=3,ny=3", "--batch", "8192"}, 2, "--batch"},
		{[]string{"apsp", "road:nx=3,ny=3", "--dtype", "float64"}, 2, "dtype"},
		{[]string{"apsp", "road:nx=3,ny=3", "--weights", "none"}, 2, "weights"},
		{[]string{"apsp", neg, "--weights", "file"}, 1, "non-negative"},
		{[]string{"apsp", "road:nx=3,ny=3", "--weights", "uniform-float", "--dtype", "int32"}, 1, "integer weights"},
	}
	if !gpu.Built {
		cases = append(cases, struct {
			args []string
			code int
			want string
		}{[]string{"apsp", "road:nx=3,ny=3", "--gpu"}, 1, "no CUDA support"})
	}
	for _, c := range cases {
		out, code, _ := execute(t, append(c.args, "--quiet")...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", c.args, code, c.code, c.want, out)
		}
	}
}

// TestSSSPAllSources: spac sssp --all-sources writes the matrix of spac
// apsp --method sssp-all, byte for byte, with integer weights (int32) and
// float ones (float32, unreachable pairs on a directed file), -o and --out
// alike.
func TestSSSPAllSources(t *testing.T) {
	directed := writeFile(t, "g.txt", "0 1 0.5\n1 2 0.25\n2 0 0\n3 3 1\n2 4 1.5\n")
	for _, c := range []struct {
		name  string
		graph []string
		descr string
		n     int
	}{
		{"road int", []string{"road:nx=9,ny=6", "--weights", "uniform-int:20"}, schedule.DescrInt32, 54},
		{"road float", []string{"road:nx=9,ny=6", "--weights", "uniform-float", "--seed", "3"}, schedule.DescrFloat32, 54},
		{"directed file", []string{directed, "--directed", "--weights", "file"}, schedule.DescrFloat32, 5},
	} {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")
		if out, code, _ := execute(t, append(append([]string{"sssp"}, c.graph...), "--all-sources", "-o", a, "--quiet")...); code != 0 {
			t.Fatalf("%s: sssp --all-sources: exit %d: %s", c.name, code, out)
		}
		if out, code, _ := execute(t, append(append([]string{"apsp"}, c.graph...), "--method", "sssp-all", "--out", b, "--quiet")...); code != 0 {
			t.Fatalf("%s: apsp: exit %d: %s", c.name, code, out)
		}
		if ra, rb := readMatrix(t, a, c.descr, c.n), readMatrix(t, b, c.descr, c.n); !slices.Equal(ra.Data, rb.Data) {
			t.Errorf("%s: sssp --all-sources and apsp --method sssp-all wrote different distances", c.name)
		}
	}
	stdout, _, code, _ := executeStreams(t, "sssp", directed, "--directed", "--weights", "file", "--all-sources", "--format", "json", "--quiet")
	var rep apspReport
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Method != "sssp-all" || rep.Vertices != 5 || rep.Reachable != 9 {
		t.Errorf("json summary: exit %d, %+v\n%s", code, rep, stdout)
	}
}

// TestSSSPAllSourcesRefuses: the flags of sssp's per-root searches are
// usage errors with --all-sources; without CUDA, --gpu says so.
func TestSSSPAllSourcesRefuses(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--strategy", "dijkstra"}, 2, "--strategy does not apply"},
		{[]string{"--roots", "4"}, 2, "--roots does not apply"},
		{[]string{"--root", "0"}, 2, "--root does not apply"},
		{[]string{"--relabel", "degree"}, 2, "--relabel does not apply"},
		{[]string{"--batch"}, 2, "--batch does not apply"},
		{[]string{"--format", "csv"}, 2, "csv"},
		{[]string{"--weights", "none"}, 2, "weights"},
		{[]string{"--directed"}, 2, "--directed reads files"},
	}
	if !gpu.Built {
		cases = append(cases, struct {
			args []string
			code int
			want string
		}{[]string{"--gpu"}, 1, "no CUDA support"})
	}
	for _, c := range cases {
		args := append([]string{"sssp", "road:nx=3,ny=3", "--all-sources", "--quiet"}, c.args...)
		out, code, _ := execute(t, args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s", c.args, code, c.code, c.want, out)
		}
	}
}
