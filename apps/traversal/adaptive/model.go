package adaptive

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
)

// The model file's format name and the one version this build reads.
const (
	ModelFormat  = "spac-traverse-model"
	ModelVersion = 1
)

// SyntheticNote is the note of a model trained on synthetic sweeps, and
// what a command says when it uses one.
const SyntheticNote = "SYNTHETIC: trained on sweeps whose times come from a cost model (package adaptive/synth), not from the GPU; replace it with a model trained on a GPU oracle sweep ('spac traverse train data/traverse -o ...')"

// Model is a trained per-level chooser: the tree and everything needed to
// trust it, as stored in its JSON file.
type Model struct {
	Format  string `json:"format"`  // ModelFormat
	Version int    `json:"version"` // ModelVersion
	// Synthetic says the training times were not measured (SyntheticNote).
	Synthetic bool   `json:"synthetic"`
	Note      string `json:"note,omitempty"`
	Algorithm string `json:"algorithm"` // "bfs"
	// Candidates are the implementations a label names; Features the
	// feature names in order, which must equal this build's FeatureNames.
	Candidates []string    `json:"candidates"`
	Features   []string    `json:"features"`
	Tree       Tree        `json:"tree"`
	Training   Training    `json:"training"`
	Evaluation []SetResult `json:"evaluation"`
}

// Training records how a model was trained.
type Training struct {
	Graphs     []string `json:"graphs"` // the training graphs
	Validation []string `json:"validation_graphs"`
	Test       []string `json:"test_graphs"`
	Date       string   `json:"date,omitempty"`
	Seed       uint64   `json:"seed"`
	MaxDepth   int      `json:"max_depth"`
	MinLeaf    int      `json:"min_leaf"`
	Levels     int      `json:"levels"` // training levels (samples)
	// ChosenOnValidation says MaxDepth and MinLeaf came from the grid.
	ChosenOnValidation bool `json:"chosen_on_validation"`
	// Candidates and Features restricted the tree's labels and splits
	// (empty: all of them).
	Candidates []string `json:"menu,omitempty"`
	Features   []string `json:"split_features,omitempty"`
}

// Predict returns the index of the candidate the model picks for a level.
func (m *Model) Predict(f *Features) int { return m.Tree.Predict(f) }

// Choose returns the name of the candidate the model picks for a level.
func (m *Model) Choose(f *Features) string { return m.Candidates[m.Tree.Predict(f)] }

// Save writes the model as indented JSON.
func (m *Model) Save(w io.Writer) error {
	if err := m.check(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Bytes is the size of the model's file as Save writes it.
func (m *Model) Bytes() int {
	var b bytes.Buffer
	if m.Save(&b) != nil {
		return 0
	}
	return b.Len()
}

// Load reads a model and checks it: its format and version, a feature
// set equal to this build's, candidate names, and a tree that Predict can
// walk safely. name is the file's name in messages.
func Load(r io.Reader, name string) (*Model, error) {
	var m Model
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		// Say what the version is when a newer format fails on a field.
		return nil, fmt.Errorf("%s: not a model file of version %d: %w", name, ModelVersion, err)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}

// LoadFile is Load of a file.
func LoadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Load(f, path)
}

func (m *Model) check() error {
	if m.Format != ModelFormat {
		return fmt.Errorf("format %q, want %q", m.Format, ModelFormat)
	}
	if m.Version != ModelVersion {
		return fmt.Errorf("model format version %d is not known to this build, which reads version %d: use the spac that wrote it, or retrain with 'spac traverse train'", m.Version, ModelVersion)
	}
	if m.Algorithm != "bfs" {
		return fmt.Errorf("algorithm %q: this build has features for \"bfs\" only", m.Algorithm)
	}
	if err := checkFeatureNames(m.Features); err != nil {
		return err
	}
	if len(m.Candidates) == 0 {
		return errors.New("no candidate")
	}
	for i, c := range m.Candidates {
		if err := CheckCandidate(c); err != nil {
			return err
		}
		if slices.Contains(m.Candidates[:i], c) {
			return fmt.Errorf("candidate %s twice", c)
		}
	}
	return m.Tree.check(len(m.Candidates))
}

// checkFeatureNames compares a model's features with this build's.
func checkFeatureNames(got []string) error {
	want := featureNames[:]
	if slices.Equal(got, want) {
		return nil
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	var diff string
	switch {
	case i == len(got):
		diff = fmt.Sprintf("the model lacks %s", strings.Join(want[i:], ", "))
	case i == len(want):
		diff = fmt.Sprintf("the model has more: %s", strings.Join(got[i:], ", "))
	default:
		diff = fmt.Sprintf("feature %d is %q in the model, %q in this build", i, got[i], want[i])
	}
	return fmt.Errorf("feature set mismatch: %s (the model has %d features, this build %d: %s); retrain the model with this build's 'spac traverse train'", diff, len(got), len(want), strings.Join(want, ","))
}

//go:embed default_model.json
var defaultModel []byte

var loadDefault = sync.OnceValues(func() (*Model, error) {
	return Load(bytes.NewReader(defaultModel), "the embedded default model")
})

// Default returns the embedded default model (default_model.json), read
// once and shared: do not modify it. Until a GPU oracle sweep replaces it, it is trained on synthetic
// sweeps: Synthetic is true, and a command using it says so.
func Default() (*Model, error) { return loadDefault() }

// DefaultJSON returns the embedded default model's file.
func DefaultJSON() []byte { return slices.Clone(defaultModel) }
