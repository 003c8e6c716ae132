package main

// spac traverse sweep: the oracle sweep of the per-level adaptive BFS
// (issue 17 item 3) on the GPU: every candidate strategy timed at every
// level of searches from several roots, each level from the same saved
// state (apps/traversal's Engine.SweepBFS), written as package adaptive's
// sweep files with a per-level plot.

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/plots"
)

type sweepFlags struct {
	tf           traverseFlags // the graph's input flags, --gpu, --device, --roots, --seed
	candidates   string
	dir          string
	name, family string
	reps         int
	onDevice     bool
	format       outputFormat
}

func traverseSweepCommand() *cobra.Command {
	var f sweepFlags
	c := &cobra.Command{
		Use:   "sweep GRAPH --gpu [--roots N] [--candidates LIST|all] [-o DIR]",
		Short: "Time every candidate strategy at every BFS level on the GPU (the oracle sweep the model trains on)",
		Long: `The oracle sweep of the per-level adaptive BFS, on the GPU: from each of
--roots random roots, at every level of the search, every candidate strategy
runs that level from the same state, saved on the device before the level
(depths, parents, visited bitmap, the level's queue, the control block),
timed by CUDA events around its captured graph (the level, the counter
step that posts the next frontier's counters, the post to host memory),
and checked there against the CPU reference BFS (the depths after the
level, the new frontier's parents, its size and counters). The state is
restored after each; the fastest valid candidate (the per-level oracle)
advances the search, whose end passes the Graph500 rules.

A candidate is not valid at a level where it does not apply (a pull on a
directed graph read without its in-arcs: this command builds them), where it
ran two levels in one step (pull, whose push closes a level its pull then
expands), or where its level was wrong: a fault, which the command reports
and which makes it exit with status 1 (the data is written anyway, the
fault's rows invalid).

Output, in DIR (default ` + adaptive.DataDir + `, created if missing):
  NAME.csv         one row per root, level and candidate: the level's
                   features, the candidate, its time in microseconds and
                   whether it was valid ('go doc ` + "github.com/spac-gpu/spac/apps/traversal/adaptive" + `')
  NAME.json        the sidecar: how to make the graph again, the device
  NAME.levels.svg  the first root's time per level of every candidate (log
  NAME.levels.png  scale), the oracle's choice and the model's pick marked
NAME is --name (default: from GRAPH), FAMILY --family (default: the
generator's name, or "file"). 'spac traverse train DIR' trains on the files.

The table: per root its levels, the oracle's total time (the fastest valid
candidate at every level), the best single candidate's (a candidate not
valid at a level is charged the level's slowest valid time, as training
charges it) and the ratio, and the model's (--model FILE, default the
embedded one), each level's pick charged the same way.

Candidates: every strategy that can run one BFS level at a time (--candidates
all, the default: spac bfs --gpu --help lists them), or a comma-separated
list. The sweep is slow, by design: per level and candidate a copy of the
state, the level and a check, a host round trip each (a road graph of
thousands of levels takes minutes per root).`,
		Example: `  spac traverse sweep kron:scale=20 --gpu --roots 4
  spac traverse sweep road:nx=1000,ny=1000 --gpu --roots 2 --candidates push-warp,vw-push-8,thread,lb-cull,do-beamer
  spac traverse sweep web-Google.mtx --gpu --family web -o data/traverse`,
		Args: oneGraph,
		RunE: func(c *cobra.Command, args []string) error { return runTraverseSweep(c, args[0], &f) },
	}
	f.tf.in.register(c)
	fl := c.Flags()
	if err := fl.MarkHidden("as-stored"); err != nil {
		panic(err)
	}
	fl.Lookup("model").Usage = "the model whose picks the table and the plot show: a JSON file from 'spac traverse train' (default: the model embedded in spac)"
	fl.BoolVar(&f.tf.useGPU, "gpu", false, "run on the GPU (required: the sweep times the GPU engine)")
	fl.IntVar(&f.tf.device, "device", 0, "GPU ordinal")
	fl.IntVar(&f.tf.roots, "roots", 4, "sweep the searches from this many random roots of degree > 0")
	fl.Int64Var(&f.tf.seed, "seed", 1, "random seed of the roots and of a generator without seed=")
	fl.BoolVar(&f.tf.undirected, "undirected", false, "make every edge undirected (symmetrize a directed input)")
	fl.BoolVar(&f.tf.dedupe, "dedupe", false, "keep one arc per vertex pair")
	fl.BoolVar(&f.tf.dropSelfLoops, "drop-self-loops", false, "store no self-loops")
	fl.StringVar(&f.candidates, "candidates", "all", "the strategies to time, comma-separated, or all (every strategy that runs a BFS level at a time)")
	fl.StringVarP(&f.dir, "output", "o", adaptive.DataDir, "the directory of the sweep's files (created if missing)")
	fl.StringVar(&f.name, "name", "", "the graph's name in the files (letters, digits, . _ + -; default: from GRAPH)")
	fl.StringVar(&f.family, "family", "", "the graph's family: kron, road, web, social, mesh, ... (default: the generator's name, or file)")
	fl.IntVar(&f.reps, "reps", 1, "time each candidate this many times per level and keep the least")
	fl.BoolVar(&f.onDevice, "on-device", false, "time the paper's implementations and do-beamer as bodies of the device-decided adaptive kernel (ad_level), as a model that runs on the device uses them")
	registerFormat(c, &f.format, formatTable, formatJSON)
	return c
}

// sweepName is a graph's default name in the sweep's files: the
// generator spec, or the file's base name without its extensions, with
// what a name may not hold replaced by '-'.
func sweepName(arg string) string {
	base := arg
	if !gen.IsSpec(arg) {
		base = filepath.Base(arg)
		base = strings.TrimSuffix(base, ".gz")
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	base = regexp.MustCompile(`[^A-Za-z0-9._+-]+`).ReplaceAllString(base, "-")
	base = strings.Trim(base, "-._+")
	if base == "" {
		return "graph"
	}
	return base
}

// sweepFamily is a graph's default family: the generator's name, or file.
func sweepFamily(arg string) string {
	if gen.IsSpec(arg) {
		name, _, _ := strings.Cut(arg, ":")
		return strings.ToLower(name)
	}
	return "file"
}

// parseCandidates reads --candidates: all (every strategy that runs a BFS
// level at a time) or a list of them.
func parseCandidates(list string) ([]engine.Strategy, error) {
	if strings.EqualFold(strings.TrimSpace(list), "all") {
		return engine.PerLevelStrategies(), nil
	}
	ss, err := engine.ParseStrategies(list)
	if err != nil {
		return nil, usagef("--candidates: %v", err)
	}
	if len(ss) == 0 {
		return nil, usagef("--candidates: none given (want all or a list)")
	}
	for _, s := range ss {
		if !s.PerLevel() {
			return nil, usagef("--candidates: %s cannot run one BFS level at a time (a persistent kernel, an offline schedule, a negative test or an SSSP strategy)", s)
		}
	}
	return ss, nil
}

// sweepRootSummary is one root's line of the table.
type sweepRootSummary struct {
	Root        int32   `json:"root"` // the graph's id
	Levels      int     `json:"levels"`
	OracleUS    float64 `json:"oracle_us"`
	Fixed       string  `json:"best_fixed"`
	FixedUS     float64 `json:"best_fixed_us"`
	ModelUS     float64 `json:"model_us"`
	FixedOracle float64 `json:"fixed_oracle"`
	ModelOracle float64 `json:"model_oracle"`
}

type sweepReport struct {
	Graph      string             `json:"graph"`
	Family     string             `json:"family"`
	Vertices   int                `json:"vertices"`
	Arcs       int64              `json:"arcs"`
	Directed   bool               `json:"directed"`
	Device     string             `json:"device"`
	Candidates []string           `json:"candidates"`
	Model      string             `json:"model"`
	Roots      []sweepRootSummary `json:"roots"`
	Faults     []string           `json:"faults"`
	Files      []string           `json:"files"`
}

func runTraverseSweep(c *cobra.Command, arg string, f *sweepFlags) error {
	fl := c.Flags()
	if !f.tf.useGPU {
		return usagef("the sweep times the GPU engine's strategies: add --gpu")
	}
	if err := firstErr(
		intIn("roots", f.tf.roots, 1, maxCount, "random roots to sweep from"),
		intIn("device", f.tf.device, 0, maxCount, "a GPU ordinal"),
		intIn("reps", f.reps, 1, 1000, "timings per candidate and level")); err != nil {
		return err
	}
	cands, err := parseCandidates(f.candidates)
	if err != nil {
		return err
	}
	if f.tf.in.asStored {
		return usagef("--as-stored: the sweep reads a symmetric matrix as an undirected graph; --as-stored does not apply")
	}
	modelPath := f.tf.in.model
	f.tf.in.model = "" // --model is the adaptive model here, not a locality graph
	name, family := f.name, f.family
	if name == "" {
		name = sweepName(arg)
	}
	if family == "" {
		family = sweepFamily(arg)
	}
	if err := adaptive.CheckName("--name", name); err != nil {
		return usageError{err}
	}
	if err := adaptive.CheckName("--family", family); err != nil {
		return usageError{err}
	}
	if gen.IsSpec(arg) {
		for _, flag := range []string{"input-format", "directed", "base", "header", "max-dimension"} {
			if fl.Changed(flag) {
				return usagef("--%s reads files; %s is generated (drop the flag, or give a file)", flag, arg)
			}
		}
	}
	if _, err := f.tf.in.config(); err != nil {
		return err
	}
	if !gpu.Built {
		return gpu.ErrNoCUDA
	}
	model, modelName, err := loadAdaptiveModel(modelPath)
	if err != nil {
		return err
	}
	ctx := c.Context()
	st := &traverseSetup{opt: graph.Options{Undirected: f.tf.undirected, Dedupe: f.tf.dedupe, DropSelfLoops: f.tf.dropSelfLoops,
		Seed: uint64(f.tf.seed), Transpose: true}}
	g, err := loadTraversalGraph(arg, &f.tf, st, problemBFS, c.ErrOrStderr())
	if err != nil {
		return err
	}
	roots, err := pickRoots(c, g, &f.tf)
	if err != nil {
		return err
	}
	d, err := gpu.Open(f.tf.device)
	if err != nil {
		return err
	}
	defer d.Close()
	e, err := engine.Open(d, g)
	if err != nil {
		return err
	}
	defer e.Close()
	info := adaptive.NewGraphInfo(name, family, adaptive.StatsOf(g))
	info.Directed = g.Directed
	info.Device = d.Info().String()
	info.Created = time.Now().UTC().Format(time.RFC3339)
	info.BuildOptions = sweepBuildOptions(fl)
	if gen.IsSpec(arg) {
		info.Generator = arg
		if !strings.Contains(arg, "seed=") {
			info.Generator += fmt.Sprintf(",seed=%d", f.tf.seed)
		}
	} else {
		info.File = arg
	}
	info.Notes = fmt.Sprintf("oracle sweep ('spac traverse sweep'): %d roots (seed %d), %d candidates, the least of %d timing(s) per level and candidate; every level checked against the CPU reference",
		len(roots), f.tf.seed, len(cands), f.reps)
	if f.onDevice {
		info.Notes += "; --on-device: the paper's implementations and do-beamer timed as bodies of the device-decided kernel (ad_level)"
	}
	if err := os.MkdirAll(f.dir, 0o777); err != nil {
		return err
	}
	w, err := adaptive.Create(f.dir, info)
	if err != nil {
		return err
	}
	rep := &sweepReport{Graph: name, Family: family, Vertices: g.NumVertices, Arcs: g.NumArcs(), Directed: g.Directed,
		Device: info.Device, Model: modelName}
	for _, s := range cands {
		rep.Candidates = append(rep.Candidates, s.String())
	}
	prog := f.tf.in.progress()
	bar := prog.Count("sweep", len(roots))
	var first *engine.SweepRoot
	var sweepErr error
	for i, root := range roots {
		bar.Describe(fmt.Sprintf("sweep root %d", root))
		r, err := e.SweepBFS(ctx, root, cands, engine.SweepOptions{Reps: f.reps, Warmup: i == 0, OnDevice: f.onDevice})
		if r != nil {
			for _, row := range r.Rows() {
				if werr := w.Write(row); werr != nil {
					w.Abort()
					bar.Finish()
					return werr
				}
			}
			rep.Faults = append(rep.Faults, r.Faults...)
			if len(r.Levels) > 0 {
				rep.Roots = append(rep.Roots, summarizeSweep(r, model))
				if first == nil {
					first = r
				}
			}
		}
		if err != nil {
			sweepErr = fmt.Errorf("root %d: %w", root, err)
			break
		}
		bar.Add(1)
	}
	bar.Finish()
	if err := w.Close(); err != nil {
		return err
	}
	rep.Files = []string{filepath.Join(f.dir, name+".csv"), filepath.Join(f.dir, name+".json")}
	if first != nil {
		fig, err := sweepPlot(name, first, model, modelName)
		if err != nil {
			return err
		}
		if err := output.WriteFiles(ctx, f.dir, fig.Files(name+".levels")); err != nil {
			return err
		}
		for _, format := range plots.Formats {
			rep.Files = append(rep.Files, filepath.Join(f.dir, name+".levels."+string(format)))
		}
	}
	if model.Model.Synthetic {
		fmt.Fprintf(c.ErrOrStderr(), "spac: note: the model column is %s, which is synthetic. %s\n", modelName, adaptive.SyntheticNote)
	}
	if f.format == formatJSON {
		if err := writeJSON(c.OutOrStdout(), rep); err != nil {
			return err
		}
	} else if err := printSweep(c.OutOrStdout(), rep); err != nil {
		return err
	}
	switch {
	case sweepErr != nil:
		return fmt.Errorf("the sweep stopped (the rows so far are written): %w", sweepErr)
	case len(rep.Faults) > 0:
		return fmt.Errorf("%d wrong levels (bugs of the strategies named; their rows are marked invalid):\n  %s", len(rep.Faults), strings.Join(rep.Faults, "\n  "))
	}
	return nil
}

// sweepBuildOptions are the flags that built the graph, as the sidecar
// records them.
func sweepBuildOptions(fl interface{ Changed(string) bool }) string {
	var opts []string
	for _, name := range []string{"undirected", "dedupe", "drop-self-loops"} {
		if fl.Changed(name) {
			opts = append(opts, "--"+name)
		}
	}
	return strings.Join(opts, " ")
}

// modelPick is the sweep's index of the model's pick at a level, -1 when
// it was not swept.
func modelPick(r *engine.SweepRoot, m *engine.ModelChooser, level int) int {
	s := m.Choose(&r.Features[level])
	for i, c := range r.Candidates {
		if c == s {
			return i
		}
	}
	return -1
}

// summarizeSweep is a root's line: the oracle's, the best fixed
// candidate's and the model's total times.
func summarizeSweep(r *engine.SweepRoot, m *engine.ModelChooser) sweepRootSummary {
	s := sweepRootSummary{Root: r.Root, Levels: len(r.Levels)}
	fixed := make([]time.Duration, len(r.Candidates))
	var oracle, model time.Duration
	for i := range r.Levels {
		lv := &r.Levels[i]
		oracle += lv.Time[lv.Chosen]
		model += lv.Cost(modelPick(r, m, lv.Level))
		for c := range fixed {
			fixed[c] += lv.Cost(c)
		}
	}
	best := 0
	for c := range fixed {
		if fixed[c] < fixed[best] {
			best = c
		}
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	s.OracleUS, s.Fixed, s.FixedUS, s.ModelUS = us(oracle), r.Candidates[best].String(), us(fixed[best]), us(model)
	if oracle > 0 {
		s.FixedOracle, s.ModelOracle = float64(fixed[best])/float64(oracle), float64(model)/float64(oracle)
	}
	return s
}

// sweepPlot is the first root's time per level of every candidate, the
// oracle's choice and the model's pick marked.
func sweepPlot(name string, r *engine.SweepRoot, m *engine.ModelChooser, modelName string) (*plots.Figure, error) {
	series := make([]plots.Series, len(r.Candidates))
	for i, c := range r.Candidates {
		series[i] = plots.Series{Name: c.String(), Values: make([]float64, len(r.Levels))}
	}
	oracle := plots.Series{Name: "oracle (the fastest valid)", Values: make([]float64, len(r.Levels))}
	pick := plots.Series{Name: "the model's pick (" + modelName + ")", Values: make([]float64, len(r.Levels))}
	for l := range r.Levels {
		lv := &r.Levels[l]
		for i := range r.Candidates {
			series[i].Values[l] = math.NaN()
			if lv.Why[i] == "" {
				series[i].Values[l] = float64(lv.Time[i].Nanoseconds()) / 1e3
			}
		}
		oracle.Values[l] = series[lv.Chosen].Values[l]
		pick.Values[l] = math.NaN()
		if p := modelPick(r, m, lv.Level); p >= 0 {
			pick.Values[l] = series[p].Values[l]
		}
	}
	return plots.NewLevels(plots.Levels{
		Title:  fmt.Sprintf("%s: device time of each candidate per BFS level, root %d", name, r.Root),
		XLabel: "level", YLabel: "us (log scale)",
		Series: series, Marks: []plots.Series{oracle, pick},
	})
}

func printSweep(w io.Writer, rep *sweepReport) error {
	kind := "undirected"
	if rep.Directed {
		kind = "directed"
	}
	fmt.Fprintf(w, "sweep of %s (%s): %s, %d vertices, %d arcs, on %s\n", rep.Graph, rep.Family, kind, rep.Vertices, rep.Arcs, rep.Device)
	fmt.Fprintf(w, "%d candidates: %s\n\n", len(rep.Candidates), strings.Join(rep.Candidates, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "root\tlevels\toracle us\tbest fixed\tfixed us\tfixed/oracle\tmodel us\tmodel/oracle\t\n")
	var fo, mo float64
	for _, r := range rep.Roots {
		fmt.Fprintf(tw, "%d\t%d\t%.1f\t%s\t%.1f\t%.3f\t%.1f\t%.3f\t\n", r.Root, r.Levels, r.OracleUS, r.Fixed, r.FixedUS, r.FixedOracle, r.ModelUS, r.ModelOracle)
		fo += r.FixedOracle
		mo += r.ModelOracle
	}
	if n := float64(len(rep.Roots)); n > 1 {
		fmt.Fprintf(tw, "mean\t\t\t\t\t%.3f\t\t%.3f\t\n", fo/n, mo/n)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nmodel: %s\n", rep.Model)
	for _, fault := range rep.Faults {
		fmt.Fprintf(w, "FAULT: %s\n", fault)
	}
	fmt.Fprintf(w, "wrote %s\n", strings.Join(rep.Files, ", "))
	return nil
}
