package spac

import (
	"cmp"
	"context"
	"math/rand/v2"
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

// TestHugeStart: the starts from hugeStartsEdges per family, numbered as
// generated and at random (the second list): a clustered input numbered at
// random runs both starts and WVP greedy's, since the own start depends on
// the numbering.
func TestHugeStart(t *testing.T) {
	own, ne, both := []string{"metis"}, []string{"ne"}, []string{"metis", "ne"}
	mesh, expander := []string{"metis", "ne", "wvp"}, []string{"ne", "wvp"}
	ownGraph := mesh        // numbered with locality, graph model: the own start, NE's and WVP greedy's
	clusteredRandom := mesh // clustered, numbered at random: the same
	for _, c := range []struct {
		name           string
		make           func() (*matrices.COO, error)
		starts, random []string
	}{
		{"web", func() (*matrices.COO, error) { return matrices.WebGraph(100000, 12, 1) }, own, clusteredRandom},
		{"rmat", func() (*matrices.COO, error) { return matrices.RMAT(16, 16, 0.57, 0.19, 0.19, 1) }, ne, ne},
		{"rmat-flat", func() (*matrices.COO, error) { return matrices.RMAT(16, 8, 0.45, 0.15, 0.15, 2) }, both, both},
		{"er", func() (*matrices.COO, error) { return matrices.ErdosRenyi(100000, 8, 1) }, expander, expander},
		{"laplacian-3d", func() (*matrices.COO, error) { return matrices.Stencil3D(60, 60, 60, 7) }, mesh, mesh},
		{"laplacian-2d", func() (*matrices.COO, error) { return matrices.Stencil2D(400, 400, 5) }, mesh, mesh},
		{"circuit", func() (*matrices.COO, error) { return matrices.Circuit(200000, 5, 1) }, own, clusteredRandom},
		{"circuit-graph", func() (*matrices.COO, error) { return matrices.Circuit(200000, 5, 1) }, ownGraph, clusteredRandom},
		// Banded: from largeParts the row order too.
		{"fem", func() (*matrices.COO, error) { return matrices.FEMBlock(40000, 3, 40, 80, 2) }, mesh, mesh},
		// Symmetric, expanded, in the graph model: each task beside its
		// mirror.
		{"ba-graph", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(100000, 8, 1) }, ne, ne},
		// Under the graph model NE's start leads WVP greedy on an
		// Erdos-Renyi graph without its start.
		{"er-graph", func() (*matrices.COO, error) { return matrices.ErdosRenyi(100000, 8, 1) }, ne, ne},
	} {
		m, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		model := matrices.ModelSpMV
		if strings.HasSuffix(c.name, "-graph") {
			model = matrices.ModelGraph
		}
		m = m.Expanded()
		for _, shuffle := range []bool{false, true} {
			in, want := m, c.starts
			if shuffle {
				in, want = shuffled(m, 9), c.random
			}
			g, inc, err := matrices.BuildLocality(in, model)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s (shuffled: %v): order locality %.3f, cluster locality %.3f, degrees' CV %.2f", c.name, shuffle, orderLocality(g), clusterLocality(g, inc), degreeCV(inc))
			// Expanders with even degrees (Erdos-Renyi), whose wvp start
			// keeps WVP greedy's one METIS call whatever the part count.
			if one, er := evenExpander(g, inc), strings.HasPrefix(c.name, "er"); one != er {
				t.Errorf("%s (shuffled: %v): evenExpander %v, want %v", c.name, shuffle, one, er)
			}
			if s := hugeStarts(g, inc, Options{Cap: 1024}); !slices.Equal(s, want) {
				t.Errorf("%s (shuffled: %v): huge starts %v, want %v (order locality %.3f, cluster locality %.3f, degrees' CV %.2f)", c.name, shuffle, s, want, orderLocality(g), clusterLocality(g, inc), degreeCV(inc))
			}
			base := want
			// Parts of largeParts edges or more: the row order too where
			// the numbering has locality (the own start's inputs) or is
			// banded (a FEM matrix as generated).
			switch {
			case slices.Equal(want, own):
				want = []string{"metis", "default"}
			case c.name == "circuit-graph" && !shuffle:
				want = []string{"metis", "default", "ne", "wvp"}
			case c.name == "fem" && !shuffle:
				want = append(slices.Clone(mesh), "default")
			}
			if s := hugeStarts(g, inc, Options{Cap: largeParts}); !slices.Equal(s, want) {
				t.Errorf("%s (shuffled: %v), parts of %d edges: huge starts %v, want %v", c.name, shuffle, largeParts, s, want)
			}
			// Parts of fewer than smallParts edges: HEP's start after NE's
			// on a scattered, skewed input.
			if slices.Equal(want, ne) && !strings.HasPrefix(c.name, "er") {
				if s := hugeStarts(g, inc, Options{Cap: smallParts / 4}); !slices.Equal(s, []string{"ne", "hep"}) {
					t.Errorf("%s (shuffled: %v), parts of %d edges: huge starts %v, want [ne hep]", c.name, shuffle, smallParts/4, s)
				}
			}
			// From extraStartsMaxEdges, for its memory, no WVP start on an
			// expander, unless the memory budget leaves it room.
			if slices.Equal(want, expander) {
				was := extraStartsMaxEdges
				extraStartsMaxEdges = g.NumEdges()
				for _, b := range []struct {
					perTask float64
					want    []string
				}{{0, ne}, {DefaultMemoryPerTask, ne}, {qualityStartsPerTask - 1, ne}, {qualityStartsPerTask, expander}, {-1, expander}} {
					if s := hugeStarts(g, inc, Options{Cap: 1024, MemoryPerTask: b.perTask}); !slices.Equal(s, b.want) {
						t.Errorf("%s (shuffled: %v), %d edges, as many as extraStartsMaxEdges, %g B/task: huge starts %v, want %v", c.name, shuffle, g.NumEdges(), b.perTask, s, b.want)
					}
				}
				extraStartsMaxEdges = was
			}
			// A mesh in wvpTwoStageParts parts or more: WVP greedy's
			// start below extraStartsMaxEdges edges (in one call or in two
			// stages, as wvpStart decides) unless banded, none from there.
			if slices.Equal(base, mesh) && c.name != "circuit-graph" {
				small := g.NumEdges() / wvpTwoStageParts
				many := mesh
				if c.name == "fem" && !shuffle {
					many = both
				}
				if s := hugeStarts(g, inc, Options{Cap: small}); !slices.Equal(s, many) {
					t.Errorf("%s (shuffled: %v), parts of %d edges (%d parts): huge starts %v, want %v", c.name, shuffle, small, (g.NumEdges()+small-1)/small, s, many)
				}
				was := extraStartsMaxEdges
				extraStartsMaxEdges = g.NumEdges()
				s := hugeStarts(g, inc, Options{Cap: small})
				extraStartsMaxEdges = was
				if !slices.Equal(s, both) {
					t.Errorf("%s (shuffled: %v), parts of %d edges (%d parts), as many edges as extraStartsMaxEdges: huge starts %v, want %v", c.name, shuffle, small, (g.NumEdges()+small-1)/small, s, both)
				}
			}
		}
	}
	// A complete graph's balls close every cycle: few vertices per task.
	// A star has one hub, which is not grown from: no ball.
	clique := matrices.Graph{NumVertices: 101, NumRowVertices: 101, Model: matrices.ModelGraph}
	star := clique
	for u := range int32(100) {
		for v := u + 1; v < 100; v++ {
			clique.U, clique.V = append(clique.U, u), append(clique.V, v)
		}
		star.U, star.V = append(star.U, 0), append(star.V, u+1)
	}
	for name, c := range map[string]struct {
		g        *matrices.Graph
		low, top float64
	}{
		"clique": {&clique, 0, 0.1},
		"star":   {&star, 0, 0},
	} {
		inc, err := matrices.BuildIncidence(c.g)
		if err != nil {
			t.Fatal(err)
		}
		if l := clusterLocality(c.g, inc); l < c.low || l > c.top {
			t.Errorf("%s: cluster locality %v, want %v to %v", name, l, c.low, c.top)
		}
	}
	// The order: every window's vertices distinct: 2, with each task's
	// mirror beside it too; a star (every task shares vertex 0):
	// (localWindow+1) / localWindow.
	distinct := &matrices.Graph{}
	mirrored := &matrices.Graph{}
	fan := &matrices.Graph{}
	for e := range int32(localWindow * 4) {
		distinct.U, distinct.V = append(distinct.U, 2*e), append(distinct.V, 2*e+1)
		mirrored.U, mirrored.V = append(mirrored.U, 2*(e/2)+e%2), append(mirrored.V, 2*(e/2)+1-e%2)
		fan.U, fan.V = append(fan.U, 0), append(fan.V, e+1)
	}
	for name, c := range map[string]struct {
		g    *matrices.Graph
		want float64
	}{
		"distinct endpoints": {distinct, 2},
		"mirrored":           {mirrored, 2},
		"star":               {fan, float64(localWindow+1) / localWindow},
	} {
		if l := orderLocality(c.g); l != c.want {
			t.Errorf("%s: order locality %v, want %v", name, l, c.want)
		}
	}
}

// shuffled is m with its rows and columns numbered at random, its entries
// sorted by the new numbers (as a file written in that numbering is).
func shuffled(m *matrices.COO, seed uint64) *matrices.COO {
	r := rand.New(rand.NewPCG(seed, 3))
	pr, pc := r.Perm(m.NRows), r.Perm(m.NCols)
	if m.NRows == m.NCols {
		pc = pr
	}
	idx := make([]int, len(m.Row))
	for e := range idx {
		idx[e] = e
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(pr[m.Row[a]], pr[m.Row[b]]), cmp.Compare(pc[m.Col[a]], pc[m.Col[b]]))
	})
	out := *m
	out.Row, out.Col, out.Val = make([]int32, len(idx)), make([]int32, len(idx)), nil
	for i, e := range idx {
		out.Row[i], out.Col[i] = int32(pr[m.Row[e]]), int32(pc[m.Col[e]])
	}
	return &out
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
	named, _ := run.partition(Options{Starts: hugeStarts(g, inc, Options{Cap: run.capacity})})
	if counted != 0 || !slices.Equal(bySize.Part, named.Part) {
		t.Errorf("judged by %d edges: %d starts counted, same partition as the named starts %v: %v", hugeStartsEdges, counted, hugeStarts(g, inc, Options{Cap: run.capacity}), slices.Equal(bySize.Part, named.Part))
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
// start, NE's and WVP greedy's, one after the other, and keeps the best:
// the copies of the best of the three named alone.
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
	wvp, _ := copies(Options{Starts: []string{"wvp"}})
	if counted != 3 || got != min(own, ne, wvp) {
		t.Errorf("judged by %d edges: %d starts counted, %d copies; want 3, the best of the own start's %d, NE's %d and WVP greedy's %d", hugeStartsEdges, counted, got, own, ne, wvp)
	}
}

// TestWVPStartOneCall: on a graph where SPAC coarsens, the wvp start is
// WVP greedy's own partition (one K-way call) below wvpTwoStageParts parts,
// although past twoLevelMinParts, from which the two stages would apply,
// and from wvpTwoStageParts parts on a graph of wvpOneCallMinEdges edges or
// more where parts times edges stays within wvpOneCallMaxWork; with that
// bound at nothing, or on a smaller graph, the two stages cut instead.
func TestWVPStartOneCall(t *testing.T) {
	saved := coarsenMinEdges
	coarsenMinEdges = 1 // the 80 x 80 mesh counts as large
	defer func() { coarsenMinEdges = saved }()
	g, inc := stencilGraph(t, 80, 80)
	m, err := Lookup("wvp-greedy")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		parts    int
		minEdges int
		work     int64
		oneCall  bool
	}{
		{twoLevelMinParts + 44, wvpOneCallMinEdges, wvpOneCallMaxWork, true},
		{wvpTwoStageParts + 44, 1, wvpOneCallMaxWork, true},
		{wvpTwoStageParts + 44, 1, 0, false},
		{wvpTwoStageParts + 44, wvpOneCallMinEdges, wvpOneCallMaxWork, false}, // this graph is smaller
	} {
		was, minEdges := wvpOneCallMaxWork, wvpOneCallMinEdges
		wvpOneCallMaxWork, wvpOneCallMinEdges = c.work, c.minEdges
		k, capacity, err := Resolve(g.NumEdges(), c.parts, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := wvpOneCall(g.NumEdges(), k); got != c.oneCall {
			t.Errorf("%d parts, work bound %d: wvpOneCall %v, want %v", k, c.work, got, c.oneCall)
		}
		opts := Options{K: k, Cap: capacity, Seed: 1}
		start, err := wvpStart(context.Background(), g, inc, opts)
		wvpOneCallMaxWork, wvpOneCallMinEdges = was, minEdges
		if err != nil {
			t.Fatal(err)
		}
		if !c.oneCall {
			continue
		}
		own, err := m.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(start.Part, own.Part) {
			t.Errorf("%d parts: the wvp start (%d copies) is not WVP greedy's partition (%d)", k, Evaluate(g, inc, start).Copies, Evaluate(g, inc, own).Copies)
		}
	}
}
