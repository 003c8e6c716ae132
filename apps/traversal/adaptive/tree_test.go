package adaptive

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/internal/rng"
)

// ruleData makes a dataset of graphs x levels samples with every feature
// uniform in [0, 1) and k candidates: the one rule picks takes base time
// (a random 1 to 100 us), every other 1.5 to 3 times that; rule nil makes
// every time random (no structure).
func ruleData(graphs, levels, k int, seed uint64, rule func(*Features) int) *Dataset {
	key := rng.NewKey(seed, 99)
	draw := uint64(0)
	u := func() float64 { draw++; return float64(rng.Unit(key.At(draw))) }
	d := &Dataset{}
	for c := range k {
		d.Candidates = append(d.Candidates, fmt.Sprintf("c%d", c))
	}
	for g := range graphs {
		d.Graphs = append(d.Graphs, GraphInfo{Name: fmt.Sprintf("g%02d", g), Family: "f"})
		for l := range levels {
			s := Sample{Graph: g, Root: int64(l % 3), Time: make([]float64, k)}
			for i := range s.Features {
				s.Features[i] = u()
			}
			base := 1 + 99*u()
			for c := range s.Time {
				s.Time[c] = base * (1 + 99*u())
				if rule != nil {
					s.Time[c] = base * (1.5 + 1.5*u())
				}
			}
			if rule != nil {
				s.Time[rule(&s.Features)] = base
			}
			d.Samples = append(d.Samples, s)
		}
	}
	return d
}

// piecewise is the rule of TestTreeRecoversRule: three regions.
func piecewise(f *Features) int {
	switch {
	case f[FrontierFraction] > 0.3:
		return 2
	case f[AvgDegree] <= 0.6:
		return 0
	}
	return 1
}

func accuracy(t *Tree, d *Dataset, rule func(*Features) int) float64 {
	hit := 0
	for i := range d.Samples {
		if t.Predict(&d.Samples[i].Features) == rule(&d.Samples[i].Features) {
			hit++
		}
	}
	return float64(hit) / float64(len(d.Samples))
}

// TestTreeRecoversRule: trained on levels whose best candidate follows a
// piecewise rule on two features, the tree is that rule: the same tests,
// thresholds within the gap between samples, no other node.
func TestTreeRecoversRule(t *testing.T) {
	d := ruleData(10, 200, 3, 1, piecewise)
	tree, err := Fit(d, seq(10), TreeParams{MaxDepth: 6, MinLeaf: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tree.Nodes() != 5 || tree.Feature[0] != int32(FrontierFraction) || math.Abs(tree.Threshold[0]-0.3) > 0.02 {
		t.Fatalf("tree %+v: want 5 nodes, frontier_fraction <= 0.3 at the root", tree)
	}
	left := tree.Left[0]
	if tree.Feature[left] != int32(AvgDegree) || math.Abs(tree.Threshold[left]-0.6) > 0.02 {
		t.Errorf("left child tests %s <= %v, want avg_degree <= 0.6", Feature(tree.Feature[left]), tree.Threshold[left])
	}
	fresh := ruleData(2, 5000, 3, 2, piecewise)
	if a := accuracy(tree, fresh, piecewise); a < 0.98 {
		t.Errorf("accuracy on fresh levels %.3f, want 0.98 or more", a)
	}
}

// TestTreeMiddleRegime: candidate 1 wins by a little in a middle band
// of the frontier fraction, candidate 0 by a lot on both sides. No single
// split lowers the cost (candidate 0 stays the cheaper on both sides of
// any threshold), so a tree on cost alone would stop at one leaf; the
// impurity tie-break cuts at one edge of the band, and the next split then
// pays. Leaves of 30 levels at least keep any split from isolating a few
// band levels by chance.
func TestTreeMiddleRegime(t *testing.T) {
	band := func(f *Features) int {
		if x := f[FrontierFraction]; x > 0.4 && x <= 0.6 {
			return 1
		}
		return 0
	}
	make := func(levels int, seed uint64) *Dataset {
		d := ruleData(6, levels, 2, seed, band)
		for i := range d.Samples {
			s := &d.Samples[i]
			lo := min(s.Time[0], s.Time[1])
			if band(&s.Features) == 1 {
				s.Time[0] = 1.2 * lo // a small loss
			} else {
				s.Time[1] = 3 * lo // a large one
			}
		}
		return d
	}
	d := make(300, 5)
	tree, err := Fit(d, seq(6), TreeParams{MaxDepth: 2, MinLeaf: 30})
	if err != nil {
		t.Fatal(err)
	}
	if tree.Nodes() != 5 || tree.Feature[0] != int32(FrontierFraction) {
		t.Errorf("tree %+v: want 5 nodes, frontier_fraction at the root", tree)
	}
	if a := accuracy(tree, make(3000, 6), band); a < 0.98 {
		t.Errorf("accuracy on fresh levels %.3f (%d nodes), want 0.98 or more", a, tree.Nodes())
	}
}

// trainingLoss is the objective Fit minimises: the mean over the graphs
// of the chosen total over the oracle's.
func trainingLoss(d *Dataset, choose func(*Features) int) float64 {
	return Summarise("", Evaluate(d, seq(len(d.Graphs)), choose)).ModelOracle
}

// TestTreeProperties: on unstructured data, at any bounds, a tree is never
// worse on its training graphs than the best fixed candidate (the
// one-leaf tree), deeper trees are never worse than shallower ones,
// training is deterministic and independent of the sample order, and the
// flat tree predicts what the growing tree does.
func TestTreeProperties(t *testing.T) {
	for seed := range uint64(6) {
		d := ruleData(5, 120, 4, seed, nil)
		graphs := seq(5)
		fixed := math.Inf(1)
		for c := range d.Candidates {
			fixed = min(fixed, trainingLoss(d, func(*Features) int { return c }))
		}
		one, err := Fit(d, graphs, TreeParams{MaxDepth: 0, MinLeaf: 1})
		if err != nil {
			t.Fatal(err)
		}
		if l := trainingLoss(d, one.Predict); one.Nodes() != 1 || math.Abs(l-fixed) > 1e-9*fixed {
			t.Errorf("seed %d: the one-leaf tree has %d nodes and loss %v, the best fixed candidate %v", seed, one.Nodes(), l, fixed)
		}
		for _, leaf := range []int{1, 5, 40} {
			prev := fixed
			for depth := 1; depth <= 8; depth++ {
				p := TreeParams{MaxDepth: depth, MinLeaf: leaf}
				tree, err := Fit(d, graphs, p)
				if err != nil {
					t.Fatal(err)
				}
				l := trainingLoss(d, tree.Predict)
				if l > prev*(1+1e-12) {
					t.Errorf("seed %d %+v: training loss %v, above %v (best fixed %v)", seed, p, l, prev, fixed)
				}
				prev = l
				if tree.Depth() > depth {
					t.Errorf("seed %d %+v: depth %d", seed, p, tree.Depth())
				}
				again, _ := Fit(d, graphs, p)
				if !reflect.DeepEqual(tree, again) {
					t.Errorf("seed %d %+v: two fits differ", seed, p)
				}
				// The same samples in another order.
				r := *d
				r.Samples = append([]Sample(nil), d.Samples...)
				for i := range r.Samples {
					j := len(r.Samples) - 1 - i
					if i < j {
						r.Samples[i], r.Samples[j] = r.Samples[j], r.Samples[i]
					}
				}
				if rev, _ := Fit(&r, graphs, p); !reflect.DeepEqual(tree.Feature, rev.Feature) || !reflect.DeepEqual(tree.Label, rev.Label) {
					t.Errorf("seed %d %+v: the sample order changes the tree", seed, p)
				}
			}
		}
		prob := newProblem(d, graphs, nil, nil)
		root := prob.grow(TreeParams{MaxDepth: 5, MinLeaf: 3})
		for depth := range 6 {
			flat, err := root.cut(depth).flatten(len(d.Candidates))
			if err != nil {
				t.Fatal(err)
			}
			for i := range d.Samples {
				f := &d.Samples[i].Features
				if a, b := flat.Predict(f), root.predictDepth(f, depth); a != b {
					t.Fatalf("seed %d depth %d: flat tree says %d, growing tree %d", seed, depth, a, b)
				}
			}
		}
	}
}

// TestTreeParallel: scanning the features in parallel or one after the
// other grows the same tree.
func TestTreeParallel(t *testing.T) {
	d := ruleData(4, 300, 4, 8, nil)
	params := TreeParams{MaxDepth: 8, MinLeaf: 2}
	seqTree, err := Fit(d, seq(4), params)
	if err != nil {
		t.Fatal(err)
	}
	defer func(old int) { parallelSamples = old }(parallelSamples)
	parallelSamples = 1
	parTree, err := Fit(d, seq(4), params)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seqTree, parTree) || seqTree.Nodes() < 15 {
		t.Errorf("parallel and sequential trees differ (or are small: %d nodes)", seqTree.Nodes())
	}
}

// TestTreeCheck: a tree that could make Predict loop, read out of range or
// name an unknown candidate is refused.
func TestTreeCheck(t *testing.T) {
	leaf := func(label int32) ([]int32, []float64, []int32, []int32, []int32) {
		return []int32{-1}, []float64{0}, []int32{0}, []int32{0}, []int32{label}
	}
	three := func() *Tree {
		return &Tree{Feature: []int32{2, -1, -1}, Threshold: []float64{1.5, 0, 0}, Left: []int32{1, 0, 0}, Right: []int32{2, 0, 0}, Label: []int32{0, 0, 1}}
	}
	cases := []struct {
		name   string
		change func(*Tree)
		want   string
	}{
		{"valid", func(*Tree) {}, ""},
		{"no node", func(t *Tree) { *t = Tree{} }, "no node"},
		{"ragged", func(t *Tree) { t.Label = t.Label[:2] }, "one entry per node"},
		{"label", func(t *Tree) { t.Label[2] = 2 }, "chooses candidate 2 of 2"},
		{"negative label", func(t *Tree) { t.Label[1] = -1 }, "chooses candidate -1"},
		{"feature", func(t *Tree) { t.Feature[0] = int32(NumFeatures) }, "tests feature 17"},
		{"NaN threshold", func(t *Tree) { t.Threshold[0] = math.NaN() }, "threshold NaN"},
		{"loop", func(t *Tree) { t.Left[0] = 0 }, "children come after their parent"},
		{"out of range", func(t *Tree) { t.Right[0] = 3 }, "children come after their parent"},
		{"shared child", func(t *Tree) { t.Right[0] = 1 }, "node 1 has 2 parents"},
		{"leaf with children", func(t *Tree) { t.Left[1] = 2 }, "a leaf has -1, 0, 0, 0"},
		{"odd leaf mark", func(t *Tree) { t.Feature[1] = -2 }, "a leaf has -1"},
		{"one leaf", func(t *Tree) { t.Feature, t.Threshold, t.Left, t.Right, t.Label = leaf(1) }, ""},
	}
	for _, c := range cases {
		tr := three()
		c.change(tr)
		err := tr.check(2)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// benchTree is a deep tree: unstructured data at depth 12, leaves of 1.
func benchTree(b *testing.B) (*Tree, []Features) {
	d := ruleData(4, 2000, 5, 7, nil)
	tree, err := Fit(d, seq(4), TreeParams{MaxDepth: 12, MinLeaf: 1})
	if err != nil {
		b.Fatal(err)
	}
	fs := make([]Features, 1024)
	for i := range fs {
		fs[i] = d.Samples[i*7%len(d.Samples)].Features
	}
	return tree, fs
}

// BenchmarkPredict: one prediction of a depth-12 tree (thousands of
// nodes), the features of a level given; the per-level cost on the host.
func BenchmarkPredict(b *testing.B) {
	tree, fs := benchTree(b)
	sink := 0
	for i := 0; b.Loop(); i++ {
		sink += tree.Predict(&fs[i&1023])
	}
	_ = sink
	b.ReportMetric(float64(tree.Nodes()), "nodes")
}

// BenchmarkPredictDefault: the embedded default model.
func BenchmarkPredictDefault(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	_, fs := benchTree(b)
	sink := 0
	for i := 0; b.Loop(); i++ {
		sink += m.Predict(&fs[i&1023])
	}
	_ = sink
	b.ReportMetric(float64(m.Tree.Nodes()), "nodes")
}

// BenchmarkPredictLevel: what the engine pays per level on the host:
// the tracker's features from three counters, then the prediction.
func BenchmarkPredictLevel(b *testing.B) {
	tree, _ := benchTree(b)
	stats := GraphStats{Vertices: 1 << 22, Arcs: 1 << 26, MaxDegree: 1 << 16, DegreeCV: 5}
	tr := NewTracker(stats)
	sink := 0
	for i := 0; b.Loop(); i++ {
		if i&15 == 0 {
			tr = NewTracker(stats)
		}
		f := tr.Next(Counters{Vertices: int64(i&1023) + 1, Arcs: int64(i&1023)*16 + 1, MaxDegree: int64(i & 1023)})
		sink += tree.Predict(&f)
	}
	_ = sink
}
