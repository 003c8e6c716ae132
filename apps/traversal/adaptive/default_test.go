package adaptive_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/adaptive/synth"
)

var update = flag.Bool("update", false, "rewrite default_model.json from the synthetic sweep")

// The default model's recipe: synth.DefaultSpecs, 4 roots, seed 1, the
// named validation and test graphs, bounds chosen on validation.
const (
	defaultRoots = 4
	defaultSeed  = 1
	defaultDate  = "2026-11-26"
)

func trainDefault(t testing.TB) *adaptive.Model {
	t.Helper()
	d, err := synth.Dataset(synth.DefaultSpecs(), defaultRoots, defaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := adaptive.Train(d, adaptive.TrainOptions{
		Seed: defaultSeed, Validation: synth.DefaultValidation, Test: synth.DefaultTest, Date: defaultDate,
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDefaultModel checks that the embedded model is what its recipe
// trains (go test -run TestDefaultModel -update rewrites it), and that it
// is marked synthetic until a GPU sweep replaces it.
func TestDefaultModel(t *testing.T) {
	m := trainDefault(t)
	if *update {
		var b bytes.Buffer
		if err := m.Save(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("default_model.json", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("default_model.json rewritten: rebuild to embed it")
	}
	def, err := adaptive.Default()
	if err != nil {
		t.Fatalf("the embedded default model does not load: %v (go test -run TestDefaultModel -update)", err)
	}
	if !def.Synthetic || def.Note != adaptive.SyntheticNote {
		t.Errorf("the default model is not marked synthetic: synthetic=%v note=%q", def.Synthetic, def.Note)
	}
	close := func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b)) }
	same := slices.Equal(def.Candidates, m.Candidates) && slices.Equal(def.Tree.Feature, m.Tree.Feature) &&
		slices.Equal(def.Tree.Left, m.Tree.Left) && slices.Equal(def.Tree.Right, m.Tree.Right) &&
		slices.Equal(def.Tree.Label, m.Tree.Label) && slices.EqualFunc(def.Tree.Threshold, m.Tree.Threshold, close) &&
		slices.EqualFunc(def.Training.Graphs, m.Training.Graphs, func(a, b string) bool { return a == b })
	if !same {
		t.Errorf("default_model.json is not what its recipe trains: regenerate it with go test -run TestDefaultModel -update ./apps/traversal/adaptive")
	}
}
