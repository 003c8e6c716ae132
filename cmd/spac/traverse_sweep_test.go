package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/plots"
)

func TestSweepNames(t *testing.T) {
	for arg, want := range map[string][2]string{
		"kron:scale=20,ef=16":            {"kron-scale-20-ef-16", "kron"},
		"road:nx=40,ny=30":               {"road-nx-40-ny-30", "road"},
		"/data/web-Google.mtx.gz":        {"web-Google", "file"},
		"../shared/matrices/cant.mtx":    {"cant", "file"},
		"edges with spaces & symbols.el": {"edges-with-spaces-symbols", "file"},
		"----":                           {"graph", "file"},
	} {
		if got := sweepName(arg); got != want[0] {
			t.Errorf("sweepName(%q) = %q, want %q", arg, got, want[0])
		} else if err := adaptive.CheckName("graph", got); err != nil {
			t.Errorf("sweepName(%q) = %q: %v", arg, got, err)
		}
		if got := sweepFamily(arg); got != want[1] {
			t.Errorf("sweepFamily(%q) = %q, want %q", arg, got, want[1])
		}
	}
}

func TestParseCandidates(t *testing.T) {
	all, err := parseCandidates(" ALL ")
	if err != nil || !slices.Equal(all, engine.PerLevelStrategies()) {
		t.Fatalf("all: %v %v", all, err)
	}
	some, err := parseCandidates("thread,vw-push-8,do-beamer,thread")
	if err != nil || !slices.Equal(some, []engine.Strategy{engine.Thread, engine.VWPush8, engine.DOBeamer}) {
		t.Fatalf("a list: %v %v", some, err)
	}
	for list, want := range map[string]string{"persistent": "cannot run one BFS level", "near-far": "cannot run", "nope": "unknown strategy", ",": "none given"} {
		_, err := parseCandidates(list)
		if err == nil || !strings.Contains(err.Error(), want) || exitCode(err) != 2 {
			t.Errorf("--candidates %s: %v (exit %d)", list, err, exitCode(err))
		}
	}
}

// A hand-made sweep of two levels: lb-cull wins level 0, do-beamer level
// 1; thread is invalid at level 1 (charged the slowest, 50 us).
func fakeSweepRoot() *engine.SweepRoot {
	us := func(x float64) time.Duration { return time.Duration(x * 1e3) }
	r := &engine.SweepRoot{Root: 7, Candidates: []engine.Strategy{engine.Thread, engine.LBCull, engine.DOBeamer},
		Features: make([]adaptive.Features, 2)}
	r.Features[1][adaptive.Level] = 1
	r.Levels = []engine.SweepLevel{
		{Level: 0, Time: []time.Duration{us(10), us(4), us(6)}, Why: []string{"", "", ""}, Chosen: 1},
		{Level: 1, Time: []time.Duration{0, us(50), us(20)}, Why: []string{"ran 2 levels in one step", "", ""}, Chosen: 2},
	}
	return r
}

// constChooser picks one strategy at every level: a one-leaf model.
func constChooser(t *testing.T, s engine.Strategy) *engine.ModelChooser {
	t.Helper()
	features, _ := json.Marshal(adaptive.FeatureNames())
	doc := `{"format": "spac-traverse-model", "version": 1, "synthetic": false, "algorithm": "bfs", "candidates": ["` + s.String() +
		`"], "features": ` + string(features) + `, "tree": {"feature": [-1], "threshold": [0], "left": [0], "right": [0], "label": [0]},
		"training": {"graphs": [], "validation_graphs": [], "test_graphs": [], "seed": 0, "max_depth": 0, "min_leaf": 1, "levels": 0, "chosen_on_validation": false},
		"evaluation": []}`
	m, err := adaptive.Load(strings.NewReader(doc), "one-leaf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.NewModelChooser(m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The table's figures: the oracle, the best fixed candidate (an invalid
// level charged its slowest valid time) and the model's picks.
func TestSummarizeSweep(t *testing.T) {
	r := fakeSweepRoot()
	s := summarizeSweep(r, constChooser(t, engine.Thread))
	// oracle 4 + 20 = 24; thread 10 + 50 = 60, lb-cull 54, do-beamer 26
	if s.OracleUS != 24 || s.Fixed != "do-beamer" || s.FixedUS != 26 || s.ModelUS != 60 || s.Levels != 2 || s.Root != 7 {
		t.Fatalf("%+v", s)
	}
	if math.Abs(s.FixedOracle-26.0/24) > 1e-12 || math.Abs(s.ModelOracle-60.0/24) > 1e-12 {
		t.Fatalf("ratios %+v", s)
	}
	// a pick that was not swept is charged the slowest valid time
	if s := summarizeSweep(r, constChooser(t, engine.Edge)); s.ModelUS != 10+50 {
		t.Fatalf("an unswept pick: %+v", s)
	}
	fig, err := sweepPlot("kron-x", r, constChooser(t, engine.LBCull), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := fig.Write(&svg, plots.SVG); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lb-cull", "do-beamer", "oracle (the fastest valid)", "the model&#39;s pick (m.json)", "kron-x"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("the plot lacks %q", want)
		}
	}
	var out bytes.Buffer
	rep := &sweepReport{Graph: "kron-x", Family: "kron", Vertices: 4, Arcs: 8, Device: "fake", Candidates: []string{"thread", "lb-cull", "do-beamer"},
		Model: "m.json", Roots: []sweepRootSummary{s, s}, Faults: []string{"root 7 level 1 thread: wrong"}, Files: []string{"a.csv", "a.json"}}
	if err := printSweep(&out, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sweep of kron-x (kron)", "fixed/oracle", "mean", "FAULT: root 7", "wrote a.csv, a.json"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// loadAdaptiveModel: the default, a file, and a file whose candidate the
// engine lacks (refused, naming the file and the candidate).
func TestLoadAdaptiveModel(t *testing.T) {
	c, name, err := loadAdaptiveModel("")
	if err != nil || name != "the embedded default model" || c.Model.Synthetic {
		t.Fatalf("default: %v %q %v", c, name, err)
	}
	var m adaptive.Model
	if err := json.Unmarshal(adaptive.DefaultJSON(), &m); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(file string, m *adaptive.Model) string {
		var b bytes.Buffer
		if err := m.Save(&b); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.json", &m)
	if c, name, err := loadAdaptiveModel(good); err != nil || name != good || len(c.Strategies) != len(m.Candidates) {
		t.Fatalf("a file: %v %q %v", c, name, err)
	}
	m.Candidates = slices.Clone(m.Candidates)
	m.Candidates[0] = "warp-centric"
	bad := write("bad.json", &m)
	_, _, err = loadAdaptiveModel(bad)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), `"warp-centric" is not a strategy of this engine`) {
		t.Fatalf("an unknown candidate: %v", err)
	}
}

// The sweep's and adaptive's usage errors (exit 2) and, in a binary
// without CUDA, the refusal at once (exit 1).
func TestSweepCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"traverse", "sweep", "kron:scale=6"}, 2, "add --gpu"},
		{[]string{"traverse", "sweep", "kron:scale=6", "--gpu", "--candidates", "persistent"}, 2, "cannot run one BFS level"},
		{[]string{"traverse", "sweep", "kron:scale=6", "--gpu", "--roots", "0"}, 2, "--roots"},
		{[]string{"traverse", "sweep", "kron:scale=6", "--gpu", "--name", "a/b"}, 2, "--name"},
		{[]string{"traverse", "sweep", "kron:scale=6", "--gpu", "--directed"}, 2, "--directed reads files"},
		{[]string{"traverse", "sweep"}, 2, "takes one graph"},
		{[]string{"bfs", "kron:scale=6", "--model", "m.json"}, 2, "does not apply without --gpu"},
	}
	if !gpu.Built {
		cases = append(cases,
			struct {
				args []string
				code int
				want string
			}{[]string{"traverse", "sweep", "kron:scale=6", "--gpu"}, 1, "CUDA"},
			struct {
				args []string
				code int
				want string
			}{[]string{"bfs", "kron:scale=6", "--gpu", "--strategy", "adaptive"}, 1, "CUDA"})
	}
	for _, c := range cases {
		out, code, _ := execute(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("spac %s: exit %d, want %d with %q:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
	out, code, _ := execute(t, "traverse", "sweep", "--help")
	for _, want := range []string{"oracle sweep", "NAME.levels.svg", "--candidates", "--reps", "--model"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("sweep --help lacks %q (exit %d)", want, code)
		}
	}
	out, code, _ = execute(t, "bfs", "--help")
	if code != 0 || !strings.Contains(out, "--strategy adaptive: the per-level model") || !strings.Contains(out, "do-beamer") {
		t.Errorf("bfs --help does not teach adaptive and do-beamer:\n%s", out)
	}
}
