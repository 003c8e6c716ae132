package spac

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

func TestParseStarts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"auto", nil, true},
		{"", nil, true},
		{"metis", []string{"metis"}, true},
		{" ne , wvp", []string{"ne", "wvp"}, true},
		{"metis,hdrf", nil, false},
	} {
		got, err := ParseStarts(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("ParseStarts(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

// The one start of huge inputs: NE's for an R-MAT graph (a scattered order
// and skewed degrees), SPAC's own for a web crawl (its hosts' pages
// together), an Erdos-Renyi graph (even degrees), 2-D and 3-D Laplacians
// and a circuit-like matrix (smaller than hugeStartsEdges here: the rule
// reads the order and the degrees, not the size).
func TestHugeStart(t *testing.T) {
	for _, c := range []struct {
		name   string
		make   func() (*matrices.COO, error)
		starts []string
	}{
		{"web", func() (*matrices.COO, error) { return matrices.WebGraph(100000, 12, 1) }, []string{"metis"}},
		{"rmat", func() (*matrices.COO, error) { return matrices.RMAT(16, 16, 0.57, 0.19, 0.19, 1) }, []string{"ne"}},
		{"er", func() (*matrices.COO, error) { return matrices.ErdosRenyi(100000, 8, 1) }, []string{"metis", "ne"}},
		{"laplacian-3d", func() (*matrices.COO, error) { return matrices.Stencil3D(60, 60, 60, 7) }, []string{"metis", "ne"}},
		{"laplacian-2d", func() (*matrices.COO, error) { return matrices.Stencil2D(400, 400, 5) }, []string{"metis", "ne"}},
		{"circuit", func() (*matrices.COO, error) { return matrices.Circuit(200000, 5, 1) }, []string{"metis"}},
		// Symmetric, expanded, in the graph model: each task beside its
		// mirror (the graph model below).
		{"ba-graph", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(100000, 8, 1) }, []string{"ne"}},
		{"laplacian-3d-graph", func() (*matrices.COO, error) { return matrices.Stencil3D(60, 60, 60, 7) }, []string{"metis", "ne"}},
	} {
		m, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		model := matrices.ModelSpMV
		if strings.HasSuffix(c.name, "-graph") {
			m, model = m.Expanded(), matrices.ModelGraph
		}
		g, inc, err := matrices.BuildLocality(m, model)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: order locality %.3f, degrees' CV %.2f", c.name, orderLocality(g), degreeCV(inc))
		if s := hugeStarts(g, inc); !slices.Equal(s, c.starts) {
			t.Errorf("%s: huge starts %v, want %v (order locality %.3f, degrees' CV %.2f)", c.name, s, c.starts, orderLocality(g), degreeCV(inc))
		}
	}
	// Every window's vertices distinct: 2, with each task's mirror beside
	// it too; a star (every task shares vertex 0): (localWindow+1) /
	// localWindow.
	distinct := &matrices.Graph{}
	mirrored := &matrices.Graph{}
	star := &matrices.Graph{}
	for e := range int32(localWindow * 4) {
		distinct.U, distinct.V = append(distinct.U, 2*e), append(distinct.V, 2*e+1)
		mirrored.U, mirrored.V = append(mirrored.U, 2*(e/2)+e%2), append(mirrored.V, 2*(e/2)+1-e%2)
		star.U, star.V = append(star.U, 0), append(star.V, e+1)
	}
	for name, c := range map[string]struct {
		g    *matrices.Graph
		want float64
	}{
		"distinct endpoints": {distinct, 2},
		"mirrored":           {mirrored, 2},
		"star":               {star, float64(localWindow+1) / localWindow},
	} {
		if l := orderLocality(c.g); l != c.want {
			t.Errorf("%s: order locality %v, want %v", name, l, c.want)
		}
	}
}

// TestStartsBySize: a graph judged by a size of hugeStartsEdges or more
// (a distributed run's share of a huge input) runs the one start the rule
// picks, exactly as if it were named, and no other; by its own small size
// it runs several.
func TestStartsBySize(t *testing.T) {
	m, err := matrices.RMAT(12, 16, 0.57, 0.19, 0.19, 1)
	run := startsFixture(t, m, err)
	g, inc := run.g, run.inc
	bySize, counted := run.partition(Options{StartsBySize: hugeStartsEdges})
	named, _ := run.partition(Options{Starts: hugeStarts(g, inc)})
	if counted != 0 || !slices.Equal(bySize.Part, named.Part) {
		t.Errorf("judged by %d edges: %d starts counted, same partition as the named starts %v: %v", hugeStartsEdges, counted, hugeStarts(g, inc), slices.Equal(bySize.Part, named.Part))
	}
	if _, counted := run.partition(Options{}); counted < 2 {
		t.Errorf("by its own %d edges: %d starts counted, want several", g.NumEdges(), counted)
	}
}

// startsRun partitions one graph with SPAC under several options.
type startsRun struct {
	t           *testing.T
	g           *matrices.Graph
	inc         *matrices.Incidence
	k, capacity int
}

// startsFixture builds m's spmv locality graph (err: m's own) and the
// parts of 256 for it.
func startsFixture(t *testing.T, m *matrices.COO, err error) startsRun {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	g, inc, err := matrices.BuildLocality(m, matrices.ModelSpMV)
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := Resolve(g.NumEdges(), 0, 256)
	if err != nil {
		t.Fatal(err)
	}
	return startsRun{t, g, inc, k, capacity}
}

// partition runs SPAC with o (seed 1), checks the partition and counts
// the starts whose copies were counted.
func (r startsRun) partition(o Options) (Partition, int) {
	r.t.Helper()
	starts := 0
	o.K, o.Cap, o.Seed = r.k, r.capacity, 1
	o.Progress = func(stage string) {
		if strings.HasPrefix(stage, "start ") {
			starts++
		}
	}
	p, err := SPAC{}.Partition(context.Background(), r.g, r.inc, o)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := Check(r.g, p, r.capacity); err != nil {
		r.t.Fatal(err)
	}
	return p, starts
}

// TestHugeStartsOneAtATime: a mesh judged by hugeStartsEdges runs the own
// start and NE's, one after the other, and keeps the better: the copies of
// the better of the two named alone.
func TestHugeStartsOneAtATime(t *testing.T) {
	m, err := matrices.Stencil2D(60, 60, 5)
	run := startsFixture(t, m, err)
	copies := func(o Options) (int64, int) {
		p, starts := run.partition(o)
		return Evaluate(run.g, run.inc, p).Copies, starts
	}
	got, counted := copies(Options{StartsBySize: hugeStartsEdges})
	own, _ := copies(Options{Starts: []string{"metis"}})
	ne, _ := copies(Options{Starts: []string{"ne"}})
	if counted != 2 || got != min(own, ne) {
		t.Errorf("judged by %d edges: %d starts counted, %d copies; want 2, the better of the own start's %d and NE's %d", hugeStartsEdges, counted, got, own, ne)
	}
}
