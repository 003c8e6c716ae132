// Package synth makes synthetic oracle sweeps for package adaptive: real
// BFS levels of small generated graphs (the features are exact, from the
// CPU reference BFS), timed by an invented cost model of five candidates
// instead of the GPU. It exists so that training, the model file and
// 'spac traverse train' can be built and tested without a GPU, and it
// trains the placeholder default model until a GPU sweep replaces it:
// nothing it produces says anything about real implementations, and every
// sidecar and model made from it is marked synthetic.
//
// Output is a pure function of the specs, the root count and the seed.
package synth

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/internal/rng"
)

// Spec is one synthetic graph.
type Spec struct {
	Name, Family string
	Generator    string // as 'spac bfs' takes it, with its seed
	// Directed keeps the generator's edges one-way and builds no in-arcs,
	// so that "pull" does not apply (its rows are invalid).
	Directed bool
}

// Candidates are the synthetic candidates, named after engine strategies.
var Candidates = []string{"edge", "lb-cull", "pull", "thread", "twc"}

// DefaultSpecs are the graphs of the default model: Kronecker graphs, a
// directed one among them, uniform random (Erdos-Renyi-like) ones and
// road grids. DefaultValidation and DefaultTest name the held-out ones.
func DefaultSpecs() []Spec {
	return []Spec{
		{"kron-s10-ef16", "kron", "kron:scale=10,ef=16,seed=1", false},
		{"kron-s11-ef8", "kron", "kron:scale=11,ef=8,seed=2", false},
		{"kron-s12-ef16", "kron", "kron:scale=12,ef=16,seed=3", false},
		{"kron-s12-ef4", "kron", "kron:scale=12,ef=4,seed=4", false},
		{"kron-s13-ef16", "kron", "kron:scale=13,ef=16,seed=5", false},
		{"kron-s11-ef32-directed", "kron", "kron:scale=11,ef=32,seed=6", true},
		{"er-s11-ef8", "uniform", "kron:scale=11,ef=8,a=0.25,b=0.25,c=0.25,seed=7", false},
		{"er-s12-ef16", "uniform", "kron:scale=12,ef=16,a=0.25,b=0.25,c=0.25,seed=8", false},
		{"road-40x40", "road", "road:nx=40,ny=40,seed=9", false},
		{"road-64x32-extra50", "road", "road:nx=64,ny=32,extra=0.5,seed=10", false},
		{"road-60x60-hw20", "road", "road:nx=60,ny=60,highways=20,seed=11", false},
		{"road-100x20", "road", "road:nx=100,ny=20,seed=12", false},
	}
}

// DefaultValidation and DefaultTest are the default model's held-out
// graphs: other parameters of each family than the training graphs'.
var (
	DefaultValidation = []string{"kron-s12-ef4", "road-64x32-extra50"}
	DefaultTest       = []string{"kron-s13-ef16", "er-s12-ef16", "road-60x60-hw20"}
)

// Small returns the first n of a quick set of tiny graphs (n up to 6),
// for tests.
func Small(n int) []Spec {
	all := []Spec{
		{"kron-a", "kron", "kron:scale=8,ef=8,seed=1", false},
		{"road-a", "road", "road:nx=16,ny=16,seed=2", false},
		{"kron-b", "kron", "kron:scale=9,ef=16,seed=3", false},
		{"road-b", "road", "road:nx=24,ny=12,seed=4", false},
		{"kron-c", "kron", "kron:scale=9,ef=4,seed=5", true},
		{"er-a", "uniform", "kron:scale=9,ef=8,a=0.25,b=0.25,c=0.25,seed=6", false},
	}
	return all[:min(n, len(all))]
}

// Graph builds a spec's graph.
func (s Spec) Graph() (*graph.Graph, error) {
	g, err := gen.Parse(s.Generator, 1)
	if err != nil {
		return nil, err
	}
	e, err := g.Generate()
	if err != nil {
		return nil, err
	}
	e.Name = s.Name
	e.Directed = s.Directed
	return graph.Build(e, graph.Options{})
}

// Sweep runs BFS from roots random roots of the spec's graph and times
// every level of every candidate by the cost model, with a multiplicative
// noise of +-5% drawn from seed.
func Sweep(s Spec, roots int, seed uint64) (adaptive.GraphInfo, []adaptive.Row, error) {
	g, err := s.Graph()
	if err != nil {
		return adaptive.GraphInfo{}, nil, err
	}
	stats := adaptive.StatsOf(g)
	info := adaptive.NewGraphInfo(s.Name, s.Family, stats)
	info.Generator, info.Directed, info.Synthetic = s.Generator, s.Directed, true
	info.Device = "none: synthetic cost model"
	info.Notes = "SYNTHETIC: BFS levels of the CPU reference, times from package synth's cost model, not measured on a GPU"
	rs, err := g.Roots(roots, seed)
	if err != nil {
		return info, nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(s.Name))
	key := rng.NewKey(seed, h.Sum64())
	draw := uint64(0)
	var rows []adaptive.Row
	for _, root := range rs {
		b, err := ref.BFS(g, root)
		if err != nil {
			return info, nil, err
		}
		levels, err := adaptive.FromDepths(g, stats, b.Depth)
		if err != nil {
			return info, nil, err
		}
		for _, f := range levels {
			for _, c := range Candidates {
				t, ok := Time(c, &f, g.InOffsets != nil)
				noise := 0.95 + 0.1*float64(rng.Unit(key.At(draw)))
				draw++
				row := adaptive.Row{Root: int64(root), Features: f, Candidate: c, TimeUS: math.NaN(), Valid: ok}
				if ok {
					row.TimeUS = t * noise
				}
				rows = append(rows, row)
			}
		}
	}
	return info, rows, nil
}

// workScale scales every count of the small graphs up in the cost model,
// as if each vertex and arc stood for a hundred, so that the work, not the
// launch, decides at the large levels.
const workScale = 100

// Time is the cost model, in microseconds: a launch cost plus what the
// candidate's work would take on a fast GPU. thread pays for the
// frontier's largest vertex (a thread walks it alone), twc much less,
// lb-cull a scan sized by the graph, edge every arc at every level, pull
// the unvisited vertices' in-arcs up to the first parent found (and does
// not apply without in-arcs). Invented: it only has to make the right
// candidate change with the level the way the real ones do.
func Time(candidate string, f *adaptive.Features, inArcs bool) (float64, bool) {
	n, m := workScale*f[adaptive.Vertices], workScale*f[adaptive.Arcs]
	mf, maxf := workScale*f[adaptive.FrontierArcs], workScale*f[adaptive.FrontierMaxDegree]
	unvisited := n * (1 - f[adaptive.DiscoveredFraction])
	switch candidate {
	case "thread":
		return 3 + 4e-5*mf + 2e-3*maxf, true
	case "twc":
		return 5 + 3e-5*mf + 4e-5*maxf, true
	case "lb-cull":
		return 9 + 2e-5*mf + 2e-6*n, true
	case "edge":
		return 3 + 1e-5*m, true
	case "pull":
		if !inArcs {
			return 0, false
		}
		checked := unvisited * min(f[adaptive.UnvisitedMeanDegree], m/max(mf, 1))
		return 6 + 4e-6*n + 3e-5*checked, true
	}
	panic(fmt.Sprintf("synth: no cost model for candidate %q", candidate))
}

// Write writes every spec's sweep into dir as <name>.csv and <name>.json.
func Write(dir string, specs []Spec, roots int, seed uint64) error {
	for _, s := range specs {
		info, rows, err := Sweep(s, roots, seed)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		w, err := adaptive.Create(dir, info)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				w.Abort()
				return fmt.Errorf("%s: %w", s.Name, err)
			}
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Dataset is the specs' sweeps as a dataset, without files.
func Dataset(specs []Spec, roots int, seed uint64) (*adaptive.Dataset, error) {
	var sweeps []*adaptive.Sweep
	for _, s := range specs {
		info, rows, err := Sweep(s, roots, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		for i := range rows {
			rows[i].Graph, rows[i].Family = info.Name, info.Family
		}
		sweeps = append(sweeps, &adaptive.Sweep{Info: info, Rows: rows})
	}
	return adaptive.NewDataset(sweeps...)
}
