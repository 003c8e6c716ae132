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
		name  string
		make  func() (*matrices.COO, error)
		start string
	}{
		{"web", func() (*matrices.COO, error) { return matrices.WebGraph(100000, 12, 1) }, "metis"},
		{"rmat", func() (*matrices.COO, error) { return matrices.RMAT(16, 16, 0.57, 0.19, 0.19, 1) }, "ne"},
		{"er", func() (*matrices.COO, error) { return matrices.ErdosRenyi(100000, 8, 1) }, "metis"},
		{"laplacian-3d", func() (*matrices.COO, error) { return matrices.Stencil3D(60, 60, 60, 7) }, "metis"},
		{"laplacian-2d", func() (*matrices.COO, error) { return matrices.Stencil2D(400, 400, 5) }, "metis"},
		{"circuit", func() (*matrices.COO, error) { return matrices.Circuit(200000, 5, 1) }, "metis"},
		// Symmetric, expanded, in the graph model: each task beside its
		// mirror (the graph model below).
		{"ba-graph", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(100000, 8, 1) }, "ne"},
		{"laplacian-3d-graph", func() (*matrices.COO, error) { return matrices.Stencil3D(60, 60, 60, 7) }, "metis"},
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
		if s := hugeStart(g, inc); s != c.start {
			t.Errorf("%s: huge start %s, want %s (order locality %.3f, degrees' CV %.2f)", c.name, s, c.start, orderLocality(g), degreeCV(inc))
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
	run := func(o Options) (Partition, int) {
		t.Helper()
		starts := 0
		o.K, o.Cap, o.Seed = k, capacity, 1
		o.Progress = func(stage string) {
			if strings.HasPrefix(stage, "start ") {
				starts++
			}
		}
		p, err := SPAC{}.Partition(context.Background(), g, inc, o)
		if err != nil {
			t.Fatal(err)
		}
		return p, starts
	}
	bySize, counted := run(Options{StartsBySize: hugeStartsEdges})
	named, _ := run(Options{Starts: []string{hugeStart(g, inc)}})
	if counted != 0 || !slices.Equal(bySize.Part, named.Part) {
		t.Errorf("judged by %d edges: %d starts counted, same partition as the named start %s: %v", hugeStartsEdges, counted, hugeStart(g, inc), slices.Equal(bySize.Part, named.Part))
	}
	if _, counted := run(Options{}); counted < 2 {
		t.Errorf("by its own %d edges: %d starts counted, want several", g.NumEdges(), counted)
	}
}
