package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/adaptive/synth"
)

// sweepDir writes a small synthetic dataset: six graphs, two roots each.
func sweepDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := synth.Write(dir, synth.Small(6), 2, 1); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTraverseTrain runs 'spac traverse train' end to end on a generated
// dataset: the report, the model file, JSON output, the model on standard
// output, determinism, and 'spac traverse model' on the result.
func TestTraverseTrain(t *testing.T) {
	dir := sweepDir(t)
	model := filepath.Join(t.TempDir(), "model.json")
	out, errOut, code, err := executeStreams(t, "traverse", "train", dir, "-o", model, "--test", "kron-b", "--validation", "road-b,er-a")
	if code != 0 {
		t.Fatalf("exit %d: %v\n%s", code, err, errOut)
	}
	for _, want := range []string{
		"data        6 graphs", "train       kron-a, kron-c, road-a", "validation  er-a, road-b", "test        kron-b",
		"chosen on validation among 72 settings", "ns per prediction on this host", "model/oracle", "worst model/fixed",
		"best fixed", "note: SYNTHETIC", "wrote " + model,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	m, err := adaptive.LoadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Synthetic || strings.Join(m.Training.Test, ",") != "kron-b" || len(m.Training.Graphs) != 3 || len(m.Evaluation) != 3 {
		t.Errorf("model: synthetic %v, training %+v, %d sets", m.Synthetic, m.Training, len(m.Evaluation))
	}
	// The same flags, the same model.
	model2 := filepath.Join(t.TempDir(), "model.json")
	if _, code, err := execute(t, "traverse", "train", dir, "-o", model2, "--test", "kron-b", "--validation", "road-b,er-a"); code != 0 {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(model2)
	if string(a) != string(b) {
		t.Error("two runs with the same flags wrote different models")
	}

	// JSON report, bounds given, held-out sets drawn by seed.
	out, _, code, err = executeStreams(t, "traverse", "train", filepath.Join(dir, "kron-a.csv"), filepath.Join(dir, "road-a.csv"),
		filepath.Join(dir, "kron-b.csv"), filepath.Join(dir, "road-b.csv"), "--max-depth", "3", "--min-leaf", "2", "--seed", "4", "-f", "json")
	if code != 0 {
		t.Fatal(err)
	}
	var rep trainReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if rep.Graphs != 4 || len(rep.Test) != 1 || len(rep.Validation) != 1 || rep.MaxDepth != 3 || rep.MinLeaf != 2 || rep.Chosen ||
		rep.PredictNs <= 0 || rep.Bytes <= 0 || rep.Nodes < 1 || len(rep.Sets) != 3 || len(rep.Sets[0].PerGraph) != 2 {
		t.Errorf("JSON report %+v", rep)
	}

	// -o -: the model on standard output, the report on standard error.
	out, errOut, code, err = executeStreams(t, "traverse", "train", dir, "-o", "-", "--test", "", "--validation", "")
	if code != 0 {
		t.Fatal(err)
	}
	if _, err := adaptive.Load(strings.NewReader(out), "stdout"); err != nil {
		t.Errorf("standard output is not a model: %v", err)
	}
	if !strings.Contains(errOut, "validation  none") || !strings.Contains(errOut, "given or default") {
		t.Errorf("report on standard error:\n%s", errOut)
	}

	// The model command: rules of the trained model; the default's note.
	out, errOut, code, err = executeStreams(t, "traverse", "model", model)
	if code != 0 || !strings.Contains(out, "rules (left: feature <= threshold)") || !strings.Contains(out, "-> ") ||
		!strings.Contains(out, "test        kron-b") || !strings.Contains(errOut, "is synthetic") {
		t.Errorf("spac traverse model: exit %d %v\n%s\n%s", code, err, out, errOut)
	}
	out, errOut, code, _ = executeStreams(t, "traverse", "model")
	if code != 0 || strings.Contains(errOut, "synthetic") || !strings.Contains(out, "data/traverse") || !strings.Contains(out, "kron23") {
		t.Errorf("spac traverse model (default): exit %d\n%s\n%s", code, out, errOut)
	}
	out, _, code, _ = executeStreams(t, "traverse", "model", "-f", "json")
	if _, err := adaptive.Load(strings.NewReader(out), "stdout"); code != 0 || err != nil {
		t.Errorf("spac traverse model -f json: exit %d, %v", code, err)
	}
}

// TestTraverseTrainErrors: usage errors exit 2, bad data 1, each saying
// what is wrong and where.
func TestTraverseTrainErrors(t *testing.T) {
	dir := sweepDir(t)
	bad := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(dir, "kron-a.csv"))
	lines := strings.Split(string(data), "\n")
	lines[4] = strings.Replace(lines[4], "kron-a,kron,", "kron-a,kron,x", 1)
	os.WriteFile(filepath.Join(bad, "kron-a.csv"), []byte(strings.Join(lines, "\n")), 0o644)
	sidecar, _ := os.ReadFile(filepath.Join(dir, "kron-a.json"))
	os.WriteFile(filepath.Join(bad, "kron-a.json"), sidecar, 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"traverse", "train", dir, "--max-depth", "-1"}, 2, "--max-depth -1"},
		{[]string{"traverse", "train", dir, "--min-leaf", "-3"}, 2, "--min-leaf -3"},
		{[]string{"traverse", "train", dir, "--max-depth", "x"}, 2, "invalid argument"},
		{[]string{"traverse", "train", dir, "-o", "/nonexistent/dir/m.json"}, 2, "--output"},
		{[]string{"traverse", "train", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"traverse", "train", t.TempDir()}, 1, "no sweep files"},
		{[]string{"traverse", "train", dir, "--test", "nope"}, 1, `no graph "nope" in the dataset`},
		{[]string{"traverse", "train", bad}, 1, "kron-a.csv:5: column 3 (root)"},
		{[]string{"traverse", "model", filepath.Join(dir, "kron-a.json")}, 1, "not a model file of version 1"},
		{[]string{"traverse", "frobnicate"}, 2, `unknown command "frobnicate" for "spac traverse"`},
		{[]string{"traverse"}, 2, "a command is missing"},
	}
	for _, c := range cases {
		out, code, _ := execute(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("spac %s: exit %d, want %d with %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}
