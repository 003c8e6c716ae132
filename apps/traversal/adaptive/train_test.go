package adaptive

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSplit: sets are disjoint, cover every graph, follow the names given
// and otherwise draw a fifth each, deterministically from the seed.
func TestSplit(t *testing.T) {
	d := ruleData(10, 3, 2, 1, nil)
	for i := range d.Graphs {
		if i >= 7 {
			d.Graphs[i].Family = "road"
		}
	}
	cases := []struct {
		name                string
		opt                 TrainOptions
		nTrain, nVal, nTest int
		wantVal, wantTest   []string
		err                 string
	}{
		{"drawn", TrainOptions{Seed: 1}, 6, 2, 2, nil, nil, ""},
		{"named", TrainOptions{Validation: []string{"g01"}, Test: []string{"g02", "g03"}}, 7, 1, 2, []string{"g01"}, []string{"g02", "g03"}, ""},
		{"family", TrainOptions{Test: []string{"family:road"}, Validation: []string{}}, 7, 0, 3, nil, []string{"g07", "g08", "g09"}, ""},
		{"test named, validation drawn", TrainOptions{Test: []string{"g00"}}, 7, 2, 1, nil, []string{"g00"}, ""},
		{"none held out", TrainOptions{Test: []string{}, Validation: []string{}}, 10, 0, 0, nil, nil, ""},
		{"unknown graph", TrainOptions{Test: []string{"g99"}}, 0, 0, 0, nil, nil, `no graph "g99" in the dataset (graphs: g00, g01`},
		{"unknown family", TrainOptions{Test: []string{"family:web"}}, 0, 0, 0, nil, nil, `no graph of family "web" in the dataset (families: f, road)`},
		{"both sets", TrainOptions{Test: []string{"g01"}, Validation: []string{"g01"}}, 0, 0, 0, nil, nil, "graph g01 is named as both a test and a validation graph"},
		{"nothing left", TrainOptions{Test: []string{"family:f"}, Validation: []string{"family:road"}}, 0, 0, 0, nil, nil, "no graph is left to train on"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			train, val, test, err := d.split(c.opt)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(train) != c.nTrain || len(val) != c.nVal || len(test) != c.nTest {
				t.Errorf("%d/%d/%d graphs, want %d/%d/%d", len(train), len(val), len(test), c.nTrain, c.nVal, c.nTest)
			}
			all := slices.Concat(train, val, test)
			slices.Sort(all)
			if !slices.Equal(all, seq(10)) {
				t.Errorf("sets %v %v %v do not partition the graphs", train, val, test)
			}
			if c.wantVal != nil && !slices.Equal(d.GraphNames(val), c.wantVal) || c.wantTest != nil && !slices.Equal(d.GraphNames(test), c.wantTest) {
				t.Errorf("validation %v test %v, want %v %v", d.GraphNames(val), d.GraphNames(test), c.wantVal, c.wantTest)
			}
			tr2, val2, test2, _ := d.split(c.opt)
			if !reflect.DeepEqual([][]int{train, val, test}, [][]int{tr2, val2, test2}) {
				t.Error("the same seed splits differently")
			}
		})
	}
	// Other seeds draw other sets (not all the same).
	seen := map[string]bool{}
	for seed := range uint64(8) {
		_, val, test, _ := d.split(TrainOptions{Seed: seed})
		seen[strings.Join(d.GraphNames(slices.Concat(val, test)), ",")] = true
	}
	if len(seen) < 4 {
		t.Errorf("8 seeds drew %d distinct held-out sets", len(seen))
	}
	small := ruleData(2, 3, 2, 1, nil)
	if train, val, test, err := small.split(TrainOptions{}); err != nil || len(train) != 2 || len(val)+len(test) != 0 {
		t.Errorf("2 graphs: %v %v %v %v, want both in training", train, val, test, err)
	}
}

// TestTrainChoosesOnValidation: the grid's choice is the smallest tree
// whose validation ratio is within ValidationSlack of the best, and the
// report's ratios are consistent: the oracle is a lower bound of the model
// and of the fixed candidate.
func TestTrainChoosesOnValidation(t *testing.T) {
	d := ruleData(8, 150, 3, 21, piecewise)
	m, rep, err := Train(d, TrainOptions{Seed: 5, Validation: []string{"g06"}, Test: []string{"g07"}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Chosen || len(rep.Grid) != len(DepthGrid)*len(LeafGrid) {
		t.Fatalf("grid of %d points, chosen %v", len(rep.Grid), rep.Chosen)
	}
	best := rep.Grid[0]
	for _, g := range rep.Grid {
		if better(g, best) {
			best = g
		}
	}
	want := best
	for _, g := range rep.Grid {
		if g.Validation <= best.Validation*(1+ValidationSlack) && smaller(g, want) {
			want = g
		}
	}
	if rep.Params != want.Params || m.Training.MaxDepth != want.Params.MaxDepth || m.Training.MinLeaf != want.Params.MinLeaf {
		t.Errorf("chose %+v, the smallest tree within the slack of the grid's best (%+v) is %+v", rep.Params, best, want)
	}
	if len(rep.Sets) != 3 || len(m.Evaluation) != 3 || m.Evaluation[0].PerGraph != nil || rep.Sets[2].Set != "test" {
		t.Fatalf("sets %+v", rep.Sets)
	}
	for _, s := range rep.Sets {
		for _, g := range s.PerGraph {
			if g.Oracle > g.Model*(1+1e-12) || g.Oracle > g.Fixed*(1+1e-12) || g.Levels != 150 || g.Searches != 3 {
				t.Errorf("%s %s: %+v", s.Set, g.Graph, g)
			}
		}
		if s.ModelOracle > 1.05 {
			t.Errorf("%s: model/oracle %v on a rule a tree represents", s.Set, s.ModelOracle)
		}
	}
	// A smaller tree within the slack wins over a better-validating larger one.
	a := GridPoint{Params: TreeParams{6, 8}, Nodes: 65, Validation: 1.067}
	b := GridPoint{Params: TreeParams{4, 8}, Nodes: 23, Validation: 1.068}
	if !better(a, b) || !smaller(b, a) || b.Validation > a.Validation*(1+ValidationSlack) {
		t.Errorf("the slack's example: better %v, smaller %v", better(a, b), smaller(b, a))
	}
	// Fixed bounds skip the grid.
	_, rep, err = Train(d, TrainOptions{MaxDepth: 3, MinLeaf: 2, Validation: []string{"g06"}, Test: []string{"g07"}})
	if err != nil || rep.Chosen || rep.Params != (TreeParams{3, 2}) {
		t.Errorf("fixed bounds: %+v, %v", rep, err)
	}
	if _, _, err := Train(d, TrainOptions{MaxDepth: MaxTreeDepth + 1}); err == nil {
		t.Error("Train took a depth beyond MaxTreeDepth")
	}
}
