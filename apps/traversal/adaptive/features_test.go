package adaptive_test

import (
	"math"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/adaptive/synth"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
)

// bruteFeatures computes level l's features from their definitions, by a
// pass over every vertex: what Tracker must equal with O(1) work.
func bruteFeatures(g *graph.Graph, depth []int32, l int32) adaptive.Features {
	var f adaptive.Features
	n, m := float64(g.NumVertices), float64(g.NumArcs())
	var maxDeg, nf, mf, maxf, disc, unexpl, prev float64
	var sum, sq float64
	for v := range g.NumVertices {
		d := float64(g.Degree(int32(v)))
		maxDeg = max(maxDeg, d)
		sum += d
		switch {
		case depth[v] == l:
			nf++
			mf += d
			maxf = max(maxf, d)
		case l > 0 && depth[v] == l-1:
			prev++
		}
		if depth[v] >= 0 && depth[v] <= l {
			disc++
		} else {
			unexpl += d
		}
	}
	mean := sum / n
	for v := range g.NumVertices {
		x := float64(g.Degree(int32(v))) - mean
		sq += x * x
	}
	f[adaptive.Level] = float64(l)
	f[adaptive.Vertices], f[adaptive.Arcs] = n, m
	f[adaptive.AvgDegree], f[adaptive.MaxDegree] = m/n, maxDeg
	f[adaptive.DegreeCV] = math.Sqrt(sq/n) / mean
	f[adaptive.FrontierVertices], f[adaptive.FrontierArcs] = nf, mf
	f[adaptive.FrontierFraction], f[adaptive.DiscoveredFraction] = nf/n, disc/n
	f[adaptive.UnexploredArcFraction] = unexpl / m
	f[adaptive.FrontierMeanDegree], f[adaptive.FrontierMaxDegree] = mf/nf, maxf
	if disc < n {
		f[adaptive.UnvisitedMeanDegree] = unexpl / (n - disc)
	}
	f[adaptive.PrevFrontierVertices] = prev
	f[adaptive.Growth] = nf / max(prev, 1)
	f[adaptive.FrontierToUnexploredArcs] = mf / max(unexpl, 1)
	return f
}

func closeTo(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*max(math.Abs(a), math.Abs(b))
}

// TestTrackerMatchesDefinition: on graphs of every shape, the O(1)
// tracker fed the engine's three counters per level (here from the
// reference BFS) gives the features their definitions give.
func TestTrackerMatchesDefinition(t *testing.T) {
	for _, s := range synth.Small(6) {
		t.Run(s.Name, func(t *testing.T) {
			g, err := s.Graph()
			if err != nil {
				t.Fatal(err)
			}
			stats := adaptive.StatsOf(g)
			roots, err := g.Roots(3, 7)
			if err != nil {
				t.Fatal(err)
			}
			for _, root := range roots {
				b, err := ref.BFS(g, root)
				if err != nil {
					t.Fatal(err)
				}
				fs, err := adaptive.FromDepths(g, stats, b.Depth)
				if err != nil {
					t.Fatal(err)
				}
				if len(fs) != b.Levels {
					t.Fatalf("root %d: %d levels of features, BFS has %d", root, len(fs), b.Levels)
				}
				tr := adaptive.NewTracker(stats)
				for l := range fs {
					var maxf int64
					for v, d := range b.Depth {
						if int(d) == l {
							maxf = max(maxf, g.Degree(int32(v)))
						}
					}
					c := adaptive.Counters{Vertices: b.Frontier[l], Arcs: b.FrontierArcs[l], MaxDegree: maxf}
					if l == 0 && c != adaptive.RootCounters(g, root) {
						t.Errorf("root %d: RootCounters %+v, level 0 has %+v", root, adaptive.RootCounters(g, root), c)
					}
					got := tr.Next(c)
					want := bruteFeatures(g, b.Depth, int32(l))
					for i := range got {
						if !closeTo(got[i], want[i]) || !closeTo(fs[l][i], want[i]) {
							t.Errorf("root %d level %d: %s = %v (tracker), %v (FromDepths), want %v", root, l, adaptive.Feature(i), got[i], fs[l][i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestTrackerEdgeCases: zero denominators give 0, level 0's growth is 1,
// counters beyond the graph clamp the unexplored arcs at 0.
func TestTrackerEdgeCases(t *testing.T) {
	cases := []struct {
		name  string
		stats adaptive.GraphStats
		steps []adaptive.Counters
		check map[adaptive.Feature]float64 // of the last step
	}{
		{"isolated root", adaptive.GraphStats{Vertices: 1}, []adaptive.Counters{{Vertices: 1}},
			map[adaptive.Feature]float64{adaptive.AvgDegree: 0, adaptive.UnexploredArcFraction: 0, adaptive.FrontierMeanDegree: 0,
				adaptive.UnvisitedMeanDegree: 0, adaptive.Growth: 1, adaptive.DiscoveredFraction: 1, adaptive.FrontierToUnexploredArcs: 0}},
		{"star from the hub", adaptive.GraphStats{Vertices: 5, Arcs: 8, MaxDegree: 4}, []adaptive.Counters{{1, 4, 4}, {4, 4, 1}},
			map[adaptive.Feature]float64{adaptive.Level: 1, adaptive.Growth: 4, adaptive.PrevFrontierVertices: 1, adaptive.DiscoveredFraction: 1,
				adaptive.UnexploredArcFraction: 0, adaptive.FrontierToUnexploredArcs: 4, adaptive.FrontierMeanDegree: 1}},
		{"star from a leaf", adaptive.GraphStats{Vertices: 5, Arcs: 8, MaxDegree: 4}, []adaptive.Counters{{1, 1, 1}},
			map[adaptive.Feature]float64{adaptive.UnexploredArcFraction: 7.0 / 8, adaptive.UnvisitedMeanDegree: 7.0 / 4,
				adaptive.FrontierToUnexploredArcs: 1.0 / 7, adaptive.FrontierFraction: 0.2}},
		{"counters past the graph", adaptive.GraphStats{Vertices: 2, Arcs: 2, MaxDegree: 1}, []adaptive.Counters{{1, 1, 1}, {5, 9, 1}},
			map[adaptive.Feature]float64{adaptive.UnexploredArcFraction: 0, adaptive.UnvisitedMeanDegree: 0, adaptive.FrontierToUnexploredArcs: 9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := adaptive.NewTracker(c.stats)
			var f adaptive.Features
			for _, s := range c.steps {
				f = tr.Next(s)
			}
			for feat, want := range c.check {
				if !closeTo(f[feat], want) {
					t.Errorf("%s = %v, want %v", feat, f[feat], want)
				}
			}
			for i, x := range f {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					t.Errorf("%s = %v: not finite and non-negative", adaptive.Feature(i), x)
				}
			}
		})
	}
}

func TestStatsOf(t *testing.T) {
	// A star of 4 leaves, undirected: degrees 4,1,1,1,1, mean 1.6,
	// variance (5.76 + 4*0.36)/5 = 1.44, standard deviation 1.2.
	e := &graph.Edges{Name: "star", NumVertices: 5, Src: []int32{0, 0, 0, 0}, Dst: []int32{1, 2, 3, 4}}
	g, err := graph.Build(e, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := adaptive.StatsOf(g)
	if s.Vertices != 5 || s.Arcs != 8 || s.MaxDegree != 4 || !closeTo(s.DegreeCV, 1.2/1.6) {
		t.Errorf("StatsOf(star) = %+v, want 5 vertices, 8 arcs, max degree 4, cv 0.75", s)
	}
	if _, err := adaptive.FromDepths(g, s, []int32{0, 1}); err == nil {
		t.Error("FromDepths took 2 depths for 5 vertices")
	}
	if _, err := adaptive.FromDepths(g, s, []int32{0, 2, 2, -1, -1}); err == nil {
		t.Error("FromDepths took depths with an empty level 1")
	}
	if names := adaptive.FeatureNames(); len(names) != adaptive.NumFeatures || names[0] != "level" {
		t.Errorf("FeatureNames = %v", names)
	}
}
