package adaptive

import (
	"fmt"
	"math"

	"github.com/spac-gpu/spac/apps/traversal/graph"
)

// Feature names one entry of Features.
type Feature uint8

// The features, in the order of Features, the sweep's CSV columns and a
// model's feature table. Level comes first: it is also the CSV's level
// column. See the package documentation for each definition.
const (
	Level                    Feature = iota // the level's index: 0 for the root alone
	Vertices                                // n, vertices of the graph
	Arcs                                    // m, stored arcs (out-arcs) of the graph
	AvgDegree                               // m / n
	MaxDegree                               // the largest out-degree
	DegreeCV                                // degree skew: standard deviation of the out-degree / its mean
	FrontierVertices                        // n_f, vertices in the level's frontier
	FrontierArcs                            // m_f, their out-arcs
	FrontierFraction                        // n_f / n
	DiscoveredFraction                      // vertices discovered so far, the frontier included, / n
	UnexploredArcFraction                   // m_u / m: m_u the out-arcs of the vertices not yet discovered
	FrontierMeanDegree                      // m_f / n_f
	FrontierMaxDegree                       // the largest out-degree in the frontier
	UnvisitedMeanDegree                     // m_u / (n - discovered); 0 once every vertex is discovered
	PrevFrontierVertices                    // the previous level's n_f; 0 at level 0
	Growth                                  // n_f / max(previous n_f, 1): 1 at level 0
	FrontierToUnexploredArcs                // m_f / max(m_u, 1): Beamer's push-or-pull ratio
	numFeatures
)

// NumFeatures is the number of features of a level.
const NumFeatures = int(numFeatures)

var featureNames = [NumFeatures]string{
	Level:                    "level",
	Vertices:                 "vertices",
	Arcs:                     "arcs",
	AvgDegree:                "avg_degree",
	MaxDegree:                "max_degree",
	DegreeCV:                 "degree_cv",
	FrontierVertices:         "frontier_vertices",
	FrontierArcs:             "frontier_arcs",
	FrontierFraction:         "frontier_fraction",
	DiscoveredFraction:       "discovered_fraction",
	UnexploredArcFraction:    "unexplored_arc_fraction",
	FrontierMeanDegree:       "frontier_mean_degree",
	FrontierMaxDegree:        "frontier_max_degree",
	UnvisitedMeanDegree:      "unvisited_mean_degree",
	PrevFrontierVertices:     "prev_frontier_vertices",
	Growth:                   "growth",
	FrontierToUnexploredArcs: "frontier_to_unexplored_arcs",
}

// integral says which features are counts (integers in the CSV).
var integral = [NumFeatures]bool{
	Level: true, Vertices: true, Arcs: true, MaxDegree: true,
	FrontierVertices: true, FrontierArcs: true, FrontierMaxDegree: true,
	PrevFrontierVertices: true,
}

func (f Feature) String() string {
	if int(f) < NumFeatures {
		return featureNames[f]
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// FeatureNames returns the feature names in order (a new slice).
func FeatureNames() []string { return append([]string(nil), featureNames[:]...) }

// Features describes one BFS level: the graph's constants and the level's
// counters, indexed by Feature. Every entry is finite and non-negative.
type Features [NumFeatures]float64

// GraphStats are the features of a graph, computed once (StatsOf) and the
// same at every level.
type GraphStats struct {
	Vertices, Arcs int64
	MaxDegree      int64
	DegreeCV       float64 // standard deviation of the out-degree / its mean; 0 without arcs
}

// StatsOf computes a graph's stats from its CSR: two passes over the
// offsets, O(n), no allocation.
func StatsOf(g *graph.Graph) GraphStats {
	n := g.NumVertices
	s := GraphStats{Vertices: int64(n), Arcs: g.NumArcs()}
	if n == 0 || s.Arcs == 0 {
		return s
	}
	mean := float64(s.Arcs) / float64(n)
	var sq float64
	for v := range n {
		d := g.Offsets[v+1] - g.Offsets[v]
		s.MaxDegree = max(s.MaxDegree, d)
		x := float64(d) - mean
		sq += x * x
	}
	s.DegreeCV = math.Sqrt(sq/float64(n)) / mean
	return s
}

// Counters are what the engine counts of one level's frontier while the
// previous level builds it: each vertex once (the winner of its visit, not
// a duplicate queue entry), the sum of the out-degrees and their maximum.
type Counters struct {
	Vertices  int64 // n_f
	Arcs      int64 // m_f: the sum of the frontier's out-degrees
	MaxDegree int64 // the largest out-degree in the frontier
}

// RootCounters are the counters of level 0: the root alone.
func RootCounters(g *graph.Graph, root int32) Counters {
	d := g.Degree(root)
	return Counters{Vertices: 1, Arcs: d, MaxDegree: d}
}

// Tracker turns each level's Counters into its Features in O(1): it keeps
// the graph's stats, the level index, the vertices and out-arcs discovered
// so far (sums of the counters of the levels before) and the previous
// frontier's size. The zero Tracker is not usable: start with NewTracker.
type Tracker struct {
	g              GraphStats
	level          int64
	discovered     int64 // vertices discovered, frontiers up to the current one
	discoveredArcs int64 // their out-arcs
	prev           int64 // the previous frontier's n_f
}

// NewTracker starts a search on a graph with these stats: the next call of
// Next describes level 0.
func NewTracker(g GraphStats) Tracker { return Tracker{g: g} }

// Next returns the features of the next level, whose frontier has the
// counters c, and moves to the level after it. O(1), no allocation.
func (t *Tracker) Next(c Counters) Features {
	t.discovered += c.Vertices
	t.discoveredArcs += c.Arcs
	var f Features
	g := &t.g
	n, m := float64(g.Vertices), float64(g.Arcs)
	nf, mf := float64(c.Vertices), float64(c.Arcs)
	unexplored := float64(max(g.Arcs-t.discoveredArcs, 0))
	unvisited := float64(max(g.Vertices-t.discovered, 0))
	f[Level] = float64(t.level)
	f[Vertices] = n
	f[Arcs] = m
	f[AvgDegree] = ratio(m, n)
	f[MaxDegree] = float64(g.MaxDegree)
	f[DegreeCV] = g.DegreeCV
	f[FrontierVertices] = nf
	f[FrontierArcs] = mf
	f[FrontierFraction] = ratio(nf, n)
	f[DiscoveredFraction] = ratio(float64(t.discovered), n)
	f[UnexploredArcFraction] = ratio(unexplored, m)
	f[FrontierMeanDegree] = ratio(mf, nf)
	f[FrontierMaxDegree] = float64(c.MaxDegree)
	f[UnvisitedMeanDegree] = ratio(unexplored, unvisited)
	f[PrevFrontierVertices] = float64(t.prev)
	f[Growth] = nf / float64(max(t.prev, 1))
	f[FrontierToUnexploredArcs] = mf / max(unexplored, 1)
	t.prev = c.Vertices
	t.level++
	return f
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// FromDepths computes the features of every level of a finished BFS from
// its depths (-1 unreached), as the engine's counters would give them:
// what an offline sweep records beside each level's times. depth must have
// a vertex count of entries. O(n) plus O(levels).
func FromDepths(g *graph.Graph, s GraphStats, depth []int32) ([]Features, error) {
	if len(depth) != g.NumVertices {
		return nil, fmt.Errorf("adaptive: %d depths for a graph of %d vertices", len(depth), g.NumVertices)
	}
	var levels []Counters
	for v, d := range depth {
		if d < 0 {
			continue
		}
		for int(d) >= len(levels) {
			levels = append(levels, Counters{})
		}
		deg := g.Offsets[v+1] - g.Offsets[v]
		c := &levels[d]
		c.Vertices++
		c.Arcs += deg
		c.MaxDegree = max(c.MaxDegree, deg)
	}
	t := NewTracker(s)
	out := make([]Features, len(levels))
	for l, c := range levels {
		if c.Vertices == 0 {
			return nil, fmt.Errorf("adaptive: level %d of %d has no vertex: the depths are not a BFS's", l, len(levels))
		}
		out[l] = t.Next(c)
	}
	return out, nil
}
