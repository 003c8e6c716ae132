package adaptive

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spac-gpu/spac/internal/rng"
)

// The hyperparameters tried on the validation graphs, and the ones used
// without validation graphs.
var (
	DepthGrid = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	LeafGrid  = []int{1, 2, 4, 8, 16, 32}
)

const (
	DefaultMaxDepth = 6
	DefaultMinLeaf  = 4
)

// TrainOptions say how Train splits the graphs and bounds the tree.
type TrainOptions struct {
	// MaxDepth and MinLeaf bound the tree; 0 chooses the value on the
	// validation graphs from DepthGrid or LeafGrid (the Default* values
	// without validation graphs).
	MaxDepth, MinLeaf int
	// Test and Validation name graphs, or whole families as
	// "family:NAME". nil draws the set from the graphs not named
	// elsewhere (a fifth of all graphs, at least one, with 3 graphs or
	// more, none with fewer), uniformly with Seed; an empty non-nil list
	// is an empty set.
	Test, Validation []string
	// Candidates, when not empty, are the only candidates the tree may
	// pick (the others still define each level's oracle); Features the
	// only features it may split on.
	Candidates, Features []string
	Seed                 uint64
	// Date is recorded in the model as is (the CLI gives today's date in
	// ISO 8601); Note too.
	Date, Note string
}

// GridPoint is one hyperparameter setting tried on validation: the mean
// over the validation graphs of model/oracle, and the tree's size.
type GridPoint struct {
	Params     TreeParams
	Nodes      int
	Validation float64
}

// TrainReport is what Train did.
type TrainReport struct {
	Train, Validation, Test []string
	Params                  TreeParams
	Chosen                  bool // Params came from the grid on validation
	Grid                    []GridPoint
	Sets                    []SetResult // train, then validation and test when they have graphs
	Samples                 int         // training levels
}

// Train splits the dataset's graphs into training, validation and test
// sets (by graph, never by level), picks the tree's bounds on validation,
// fits the tree on the training graphs and evaluates it on all three.
// Deterministic: the same dataset and options give the same model.
func Train(d *Dataset, opt TrainOptions) (*Model, *TrainReport, error) {
	if opt.MaxDepth < 0 || opt.MinLeaf < 0 {
		return nil, nil, fmt.Errorf("max depth %d and min leaf %d: want 0 (chosen on validation) or more", opt.MaxDepth, opt.MinLeaf)
	}
	train, val, test, err := d.split(opt)
	if err != nil {
		return nil, nil, err
	}
	rep := &TrainReport{Train: d.GraphNames(train), Validation: d.GraphNames(val), Test: d.GraphNames(test)}
	depths, leaves := DepthGrid, LeafGrid
	if opt.MaxDepth != 0 {
		depths = []int{opt.MaxDepth}
	}
	if opt.MinLeaf != 0 {
		leaves = []int{opt.MinLeaf}
	}
	if len(val) == 0 {
		if opt.MaxDepth == 0 {
			depths = []int{DefaultMaxDepth}
		}
		if opt.MinLeaf == 0 {
			leaves = []int{DefaultMinLeaf}
		}
	}
	if err := (TreeParams{slices.Max(depths), slices.Min(leaves)}).check(); err != nil {
		return nil, nil, err
	}
	menu, err := d.menu(opt.Candidates)
	if err != nil {
		return nil, nil, err
	}
	feats, err := featureList(opt.Features)
	if err != nil {
		return nil, nil, err
	}
	p := newProblem(d, train, menu, feats)
	if len(p.x) == 0 {
		return nil, nil, fmt.Errorf("adaptive: the training graphs (%s) have no timed level", strings.Join(rep.Train, ", "))
	}
	rep.Samples = len(p.x)
	best := GridPoint{Validation: -1}
	roots := map[int]*bnode{} // by leaf bound
	for _, leaf := range leaves {
		root := p.grow(TreeParams{MaxDepth: slices.Max(depths), MinLeaf: leaf})
		roots[leaf] = root
		for _, depth := range depths {
			gp := GridPoint{Params: TreeParams{MaxDepth: depth, MinLeaf: leaf}, Nodes: root.cut(depth).size()}
			if len(val) > 0 && len(depths)*len(leaves) > 1 {
				rs := Evaluate(d, val, func(f *Features) int { return root.predictDepth(f, depth) })
				gp.Validation = Summarise("validation", rs).ModelOracle
				rep.Grid = append(rep.Grid, gp)
				rep.Chosen = true
			}
			if best.Validation < 0 || better(gp, best) {
				best = gp
			}
		}
	}
	if rep.Chosen { // the smallest tree within ValidationSlack of the best
		limit := best.Validation * (1 + ValidationSlack)
		for _, gp := range rep.Grid {
			if gp.Validation <= limit && smaller(gp, best) {
				best = gp
			}
		}
	}
	rep.Params = best.Params
	tree, err := roots[best.Params.MinLeaf].cut(best.Params.MaxDepth).flatten(len(d.Candidates))
	if err != nil {
		return nil, nil, err
	}
	synthetic := false
	for _, g := range train {
		synthetic = synthetic || d.Graphs[g].Synthetic
	}
	m := &Model{
		Format: ModelFormat, Version: ModelVersion, Algorithm: "bfs",
		Synthetic: synthetic, Note: opt.Note,
		Candidates: slices.Clone(d.Candidates), Features: FeatureNames(), Tree: *tree,
		Training: Training{
			Graphs: rep.Train, Validation: rep.Validation, Test: rep.Test,
			Date: opt.Date, Seed: opt.Seed, MaxDepth: best.Params.MaxDepth, MinLeaf: best.Params.MinLeaf,
			Levels: rep.Samples, ChosenOnValidation: rep.Chosen,
			Candidates: slices.Clone(opt.Candidates), Features: slices.Clone(opt.Features),
		},
	}
	if synthetic && m.Note == "" {
		m.Note = SyntheticNote
	}
	for _, set := range []struct {
		name   string
		graphs []int
	}{{"train", train}, {"validation", val}, {"test", test}} {
		if len(set.graphs) == 0 {
			continue
		}
		s := Summarise(set.name, Evaluate(d, set.graphs, m.Tree.Predict))
		rep.Sets = append(rep.Sets, s)
		s.PerGraph = nil
		m.Evaluation = append(m.Evaluation, s)
	}
	return m, rep, nil
}

// ValidationSlack: of the bounds tried on validation, Train keeps the
// smallest tree whose validation ratio is within this fraction of the
// best one's. A sweep times a level to a few percent, so a larger tree
// that validates better by less than that has learnt the noise of its
// training graphs (on the sweeps of data/traverse, the best validation
// ratio, 1.067, came from a tree of 65 nodes; one of 23 nodes validates at
// 1.068).
const ValidationSlack = 0.005

// better orders grid points: a lower validation ratio (beyond rounding),
// then the smaller tree.
func better(a, b GridPoint) bool {
	tol := 1e-9 * max(a.Validation, b.Validation)
	if a.Validation < b.Validation-tol {
		return true
	}
	if a.Validation > b.Validation+tol {
		return false
	}
	return smaller(a, b)
}

// smaller orders grid points by their tree: fewer nodes, a smaller depth,
// a larger leaf.
func smaller(a, b GridPoint) bool {
	return cmp.Or(cmp.Compare(a.Nodes, b.Nodes), cmp.Compare(a.Params.MaxDepth, b.Params.MaxDepth), cmp.Compare(b.Params.MinLeaf, a.Params.MinLeaf)) < 0
}

// split assigns every graph to one set: the named ones first, then the
// drawn ones, the rest to training.
func (d *Dataset) split(opt TrainOptions) (train, val, test []int, err error) {
	set := make([]int, len(d.Graphs)) // 0 train, 1 validation, 2 test
	names := []string{"training", "validation", "test"}
	resolve := func(list []string, to int) ([]int, error) {
		var out []int
		for _, name := range list {
			var found []int
			if fam, ok := strings.CutPrefix(name, "family:"); ok {
				for i, g := range d.Graphs {
					if g.Family == fam {
						found = append(found, i)
					}
				}
				if len(found) == 0 {
					return nil, fmt.Errorf("no graph of family %q in the dataset (families: %s)", fam, strings.Join(d.families(), ", "))
				}
			} else if i := d.GraphIndex(name); i >= 0 {
				found = []int{i}
			} else {
				return nil, fmt.Errorf("no graph %q in the dataset (graphs: %s)", name, strings.Join(d.GraphNames(seq(len(d.Graphs))), ", "))
			}
			for _, i := range found {
				if set[i] != 0 && set[i] != to {
					return nil, fmt.Errorf("graph %s is named as both a %s and a %s graph", d.Graphs[i].Name, names[set[i]], names[to])
				}
				set[i] = to
				out = append(out, i)
			}
		}
		return out, nil
	}
	if _, err := resolve(opt.Test, 2); err != nil {
		return nil, nil, nil, err
	}
	if _, err := resolve(opt.Validation, 1); err != nil {
		return nil, nil, nil, err
	}
	var free []int
	for i, s := range set {
		if s == 0 {
			free = append(free, i)
		}
	}
	key := rng.NewKey(opt.Seed, 1)
	for i := len(free) - 1; i > 0; i-- {
		j := int(rng.Below(key.At(uint64(i)), uint32(i+1)))
		free[i], free[j] = free[j], free[i]
	}
	draw := 0
	if n := len(d.Graphs); n >= 3 {
		draw = max(1, n/5)
	}
	for _, s := range []struct {
		named []string
		to    int
	}{{opt.Test, 2}, {opt.Validation, 1}} {
		if s.named != nil {
			continue
		}
		for k := 0; k < draw && len(free) > 1; k++ {
			set[free[0]] = s.to
			free = free[1:]
		}
	}
	for i, s := range set {
		switch s {
		case 0:
			train = append(train, i)
		case 1:
			val = append(val, i)
		case 2:
			test = append(test, i)
		}
	}
	if len(train) == 0 {
		return nil, nil, nil, fmt.Errorf("no graph is left to train on: %d graphs, %d for validation and %d for test", len(d.Graphs), len(val), len(test))
	}
	return train, val, test, nil
}

func (d *Dataset) families() []string {
	var out []string
	for _, g := range d.Graphs {
		out = append(out, g.Family)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// menu resolves candidate names to indices of d.Candidates (nil for none
// named: every candidate).
func (d *Dataset) menu(names []string) ([]int, error) {
	var out []int
	for _, name := range names {
		c := slices.Index(d.Candidates, name)
		if c < 0 {
			return nil, fmt.Errorf("no candidate %q in the sweeps (candidates: %s)", name, strings.Join(d.Candidates, ", "))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out, nil
}

// featureList resolves feature names (nil for none named: every feature).
func featureList(names []string) ([]Feature, error) {
	var out []Feature
	for _, name := range names {
		f := slices.Index(featureNames[:], name)
		if f < 0 {
			return nil, fmt.Errorf("no feature %q (features: %s)", name, strings.Join(featureNames[:], ", "))
		}
		out = append(out, Feature(f))
	}
	return out, nil
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
