package adaptive

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func testModel(t *testing.T) *Model {
	t.Helper()
	d := ruleData(6, 100, 3, 11, piecewise)
	m, _, err := Train(d, TrainOptions{Seed: 3, Date: "2026-11-26", Validation: []string{"g04"}, Test: []string{"g05"}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestModelRoundTrip: Save then Load gives the same model, the same
// predictions and the same bytes again.
func TestModelRoundTrip(t *testing.T) {
	m := testModel(t)
	path := filepath.Join(t.TempDir(), "m.json")
	var b bytes.Buffer
	if err := m.Save(&b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	got, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("loaded %+v\nsaved %+v", got, m)
	}
	var again bytes.Buffer
	got.Save(&again)
	if !bytes.Equal(again.Bytes(), b.Bytes()) || m.Bytes() != b.Len() {
		t.Error("saving the loaded model gives other bytes")
	}
	d := ruleData(1, 500, 3, 12, piecewise)
	for i := range d.Samples {
		f := &d.Samples[i].Features
		if got.Predict(f) != m.Predict(f) || got.Choose(f) != m.Candidates[m.Predict(f)] {
			t.Fatal("the loaded model predicts otherwise")
		}
	}
	if m.Training.Date != "2026-11-26" || m.Training.Seed != 3 || len(m.Training.Graphs) != 4 || m.Synthetic {
		t.Errorf("training record %+v, synthetic %v", m.Training, m.Synthetic)
	}
}

// TestModelLoadRefuses: an unknown version, another feature set, a bad
// tree, an unknown field: each refused with a message that says what to
// do.
func TestModelLoadRefuses(t *testing.T) {
	var b bytes.Buffer
	if err := testModel(t).Save(&b); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func(map[string]any)
		want   string
	}{
		{"version", func(m map[string]any) { m["version"] = 2 }, "model format version 2 is not known to this build, which reads version 1"},
		{"format", func(m map[string]any) { m["format"] = "other" }, `format "other"`},
		{"renamed feature", func(m map[string]any) { m["features"].([]any)[3] = "mean_degree" },
			`feature set mismatch: feature 3 is "mean_degree" in the model, "avg_degree" in this build`},
		{"fewer features", func(m map[string]any) { m["features"] = m["features"].([]any)[:16] }, "the model lacks frontier_to_unexplored_arcs"},
		{"more features", func(m map[string]any) { m["features"] = append(m["features"].([]any), "diameter") }, "the model has more: diameter"},
		{"unknown field", func(m map[string]any) { m["colour"] = "blue" }, `unknown field "colour"`},
		{"no candidate", func(m map[string]any) { m["candidates"] = []any{} }, "no candidate"},
		{"bad candidate", func(m map[string]any) { m["candidates"].([]any)[0] = "Two Words" }, "candidate \"Two Words\""},
		{"duplicate candidate", func(m map[string]any) { c := m["candidates"].([]any); c[1] = c[0] }, "twice"},
		{"bad tree", func(m map[string]any) { m["tree"].(map[string]any)["left"].([]any)[0] = 0 }, "children come after their parent"},
		{"algorithm", func(m map[string]any) { m["algorithm"] = "sssp" }, `algorithm "sssp"`},
	}
	for _, c := range cases {
		var m map[string]any
		if err := json.Unmarshal(b.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		c.change(m)
		in, _ := json.Marshal(m)
		_, err := Load(bytes.NewReader(in), "m.json")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("%s: %v, want an error about %q", c.name, err, c.want)
		}
	}
	if _, err := Load(strings.NewReader("not json"), "m.json"); err == nil {
		t.Error("Load took garbage")
	}
}
