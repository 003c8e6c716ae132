package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/validate"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
)

// traverseFlags are the flags of the bfs and sssp commands.
type traverseFlags struct {
	in            inputFlags
	useGPU        bool
	device        int
	strategy      string
	roots         int
	root          int
	validate      bool
	noValidate    bool
	undirected    bool
	dedupe        bool
	dropSelfLoops bool
	relabel       string
	weights       string
	seed          int64
	delta         float64
	alpha, beta   float64
	oneBlock      int
	persistAfter  int
	ownKernel     int
	format        outputFormat
	out           string
	levels        string
	cache         cacheFlags // spac-schedule's SPAC schedules
	budget        float64    // seconds of searches per strategy, 0: no limit
	batch         bool       // --batch: many-source BFS (traverse_batch.go)
	adaptiveModel string     // bfs --model: the adaptive strategy's model file (parse takes it from in.model)
}

// traverseCommand is 'spac bfs' or 'spac sssp'.
func traverseCommand(p problem, env environment) *cobra.Command {
	var f traverseFlags
	c := &cobra.Command{
		Use:   p.String() + " GRAPH [--gpu] [--strategy LIST|all] [--roots N | --root V]",
		Short: map[problem]string{problemBFS: "Breadth-first search from random roots with every strategy, validated, in Graph500 TEPS", problemSSSP: "Single-source shortest paths from random roots with every strategy, validated, in Graph500 TEPS"}[p],
		Long:  traverseHelp(p),
		Example: map[problem]string{
			problemBFS: `  spac bfs kron:scale=20                              # 64 roots, every CPU strategy
  spac bfs road:nx=2000,ny=2000 --strategy parallel --roots 8
  spac bfs web.mtx --root 0 --out web-bfs/            # depth.npy, parent.npy
  spac bfs edges.txt --directed --format csv`,
			problemSSSP: `  spac sssp kron:scale=18 --weights uniform-float     # 64 roots, every CPU strategy
  spac sssp road:side=1000 --weights uniform-int:100 --strategy delta-stepping --delta 50
  spac sssp roads.mtx --root 0 --out roads-sssp/      # dist.npy, pred.npy`,
		}[p],
		Args: oneGraph,
		RunE: func(c *cobra.Command, args []string) error { return runTraverse(c, p, args[0], &f) },
	}
	f.in.register(c)
	fl := c.Flags()
	hidden := []string{"model", "as-stored"} // the locality graph's: refused here
	if p == problemBFS {
		// bfs's --model is the adaptive strategy's (parse takes it)
		hidden = hidden[1:]
		fl.Lookup("model").Usage = "with --gpu --strategy adaptive: the per-level model, a JSON file from 'spac traverse train' (default: the model embedded in spac, synthetic until a GPU sweep trains one)"
	}
	for _, name := range hidden {
		if err := fl.MarkHidden(name); err != nil {
			panic(err)
		}
	}
	fl.BoolVar(&f.useGPU, "gpu", false, "run the GPU engine's strategies instead of the CPU references")
	fl.IntVar(&f.device, "device", 0, "GPU ordinal (with --gpu)")
	fl.StringVar(&f.strategy, "strategy", "all", "strategies to run, comma-separated, or all: "+strings.Join(cpuStrategyNames(p), ", ")+" on the CPU; with --gpu the engine's")
	fl.IntVar(&f.roots, "roots", 64, "search from this many random roots of degree > 0 (Graph500: 64); fewer when fewer vertices qualify")
	fl.IntVar(&f.root, "root", 0, "search from this vertex only (0-based, whatever the file's numbering)")
	fl.BoolVar(&f.validate, "validate", true, "check every result by the Graph500 rules (the default)")
	fl.BoolVar(&f.noValidate, "no-validate", false, "skip the checks (the valid column says \"not checked\")")
	fl.BoolVar(&f.undirected, "undirected", false, "make every edge undirected (symmetrize a directed input)")
	fl.BoolVar(&f.dedupe, "dedupe", false, "keep one arc per vertex pair (the lightest); TEPS still counts every input edge")
	fl.BoolVar(&f.dropSelfLoops, "drop-self-loops", false, "store no self-loops; TEPS still counts them")
	fl.StringVar(&f.relabel, "relabel", "none", "renumber the vertices inside: none, degree (by decreasing degree) or random; flags and arrays keep the input's ids")
	fl.Int64Var(&f.seed, "seed", 1, "random seed of the roots, generated weights, --relabel random, a generator without seed= and gen: inputs")
	if p == problemSSSP {
		fl.StringVar(&f.weights, "weights", "auto", "edge weights: file (the input's values), uniform-int:W (integers 1..W, W up to 2^24), uniform-float (in (0,1]) or auto (file when the input has values, else uniform-float)")
		fl.Float64Var(&f.delta, "delta", 0, "bucket width of delta-stepping (CPU) and threshold step of near-far (--gpu); 0: delta-stepping takes the mean arc weight (at least the smallest positive weight), near-far 32 x the mean weight / the mean degree")
	} else {
		fl.Float64Var(&f.alpha, "alpha", 15, "direction-optimizing (and --gpu's do-beamer): go bottom-up when the frontier's arcs exceed the unvisited vertices' arcs / alpha (Beamer: 15)")
		fl.Float64Var(&f.beta, "beta", 18, "direction-optimizing (and --gpu's do-beamer): go back top-down when the frontier falls below vertices / beta (Beamer: 18)")
		fl.IntVar(&f.ownKernel, "own-kernel", 1<<23, "--gpu --strategy adaptive (decided on the device): a vertex-pull level with at least this many unexplored arcs, or a do-beamer push of a frontier with this many out-arcs (its big vertices' arcs), runs in a kernel of its own at twice the occupancy of the device-decided kernel (two launches more; a Kronecker graph's hubs and the level after them); 0: never")
		fl.IntVar(&f.persistAfter, "persistent-after", 32, "--gpu --strategy adaptive (decided on the device): from this level on, a queued frontier too large for the one block, on a graph of at most 32 out-arcs a vertex, and the levels after it go to the persistent strategy's kernel (a large road grid or 3-D mesh: thousands of levels); 0: never")
		fl.IntVar(&f.oneBlock, "one-block", 4096, "--gpu --strategy adaptive (decided on the device): a queued frontier of at most 2048 vertices and this many out-arcs runs in one block, level after level, while the rest of the GPU waits (a level of the whole GPU costs about 10 us however small); 0: never")
	}
	registerFormat(c, &f.format, formatTable, formatCSV, formatJSON)
	f.cache.register(c, env)
	registerBatch(c, &f)
	fl.Float64Var(&f.budget, "budget", 0, "stop giving roots to a strategy once its searches have taken this many seconds in all, as the table times them (device time with --gpu; 0: no limit); its row then counts fewer roots, and the table says so")
	fl.StringVar(&f.levels, "levels", "", "with --gpu: also time every level of one more search per strategy from the first root (one level per CUDA graph, events around each; adaptive: by the device's clock, column ran naming the body of each level) and write them to this CSV file")
	fl.StringVarP(&f.out, "out", "o", "", "write the last root's arrays (from the last strategy) as NumPy .npy files into this directory: "+strings.Join(arrayFiles(p), " and "))
	registerAllSources(c, &f) // sssp --all-sources (sssp_all.go)
	return c
}

func traverseHelp(p problem) string {
	what := `Breadth-first search from each root with every strategy: the queue BFS
(queue), a parallel level-synchronous BFS (parallel) and Beamer's
direction-optimizing BFS (direction-optimizing, --alpha and --beta).`
	arrays := `depth.npy (int32, -1 unreached) and parent.npy
(int32, -1 unreached, the root its own parent)`
	checks := `the parents form a tree rooted at the root, tree edges join levels one
apart, no edge spans more than one level, the tree reaches exactly what the
root reaches, every parent edge is an edge of the graph`
	levels := "the largest depth + 1, the most over the roots"
	if p == problemSSSP {
		what = `Shortest paths from each root with every strategy: Dijkstra with a binary
heap (dijkstra) and a parallel delta-stepping (delta-stepping, --delta).
Weights are float32 and every addition is rounded to float32, as a GPU
kernel computes it (--weights).`
		arrays = `dist.npy (float64: the float32 distances, exact;
+Inf unreached) and pred.npy (int32, -1 unreached, the root its own)`
		checks = `d(root) = 0, d(v) <= d(u) + w on every edge, every reached vertex has a
predecessor p with d(v) == d(p) + w exactly in float32, the predecessors
form a tree; with integer weights the distances also equal exact Dijkstra's`
		levels = "the strategy's iterations, the most over the roots; -\n                 where it does not count them (the CPU references)"
	}
	return what + `

GRAPH is a file (Matrix Market, edge list or METIS, gzip or not, - for
standard input; the input flags below apply) or a generator
built in-process: kron:scale=S[,ef=16][,a=0.57,b=0.19,c=0.19][,seed=N]
(Graph500's Kronecker graph) or road:nx=X,ny=Y[,extra=0.25][,seed=N] (a
road-like grid, thousands of levels); gen:PRESET or gen:KIND:k=v,... is a
matrix of 'spac gen --list' (generated with --seed), taken as the file
'spac gen' writes of it would be. A general Matrix Market file is a
directed graph, a symmetric one, a METIS graph and an edge list (unless
--directed) undirected; --undirected symmetrizes any input.

Vertex ids are 0-based in flags and arrays whatever the file's numbering: a
Matrix Market file's vertex 1 is 0 here. --relabel renumbers inside only.

Roots: --roots N random vertices with an edge to another vertex (Graph500
draws 64), from --seed; or --root V alone.

Every result is validated (--no-validate skips it):
` + checks + `.
A failed check prints the table, names the first violation and exits with
status 1.

One row per strategy, over the roots:
  ms/root        the median time of one search (validation not included)
  TEPS           Graph500's traversed edges per second: the input edges of
                 what the root reaches (each undirected edge once,
                 duplicates and self-loops included) over the time;
                 harmonic mean over the roots
  inspected/s    the arcs (directed edges) the search actually looked at
                 over the time, harmonic mean: what memory bandwidth
                 bounds. Not TEPS: an undirected edge is two arcs, and a
                 direction-optimizing BFS skips arcs, so never compare the two
  levels         ` + levels + `
  inspected      arcs looked at per search (mean over the roots)
  valid          yes, not checked, or NO with the first violation under the
                 table (csv and json: the violation itself)
--format csv gives the same columns; json adds every root's figures.

--out DIR writes the last root's arrays, from the last strategy run, in
input ids: ` + arrays + `.
DIR is replaced as a whole and may hold nothing else.

Without --gpu the CPU references run, on every core. --gpu runs the GPU
engine's strategies (apps/traversal: node-based, edge-based with and
without work chunking, workload decomposition / LB and its culling
variant, TWC, node splitting, hierarchical, the slides' topology-driven
and scan BFS, direction-optimizing pull, persistent kernels, two-phase
SSSP, near-far; for BFS also Verstraaten et al.'s edge list, reverse edge
list, vertex push and vertex pull, each counting the next frontier by
atomics, warp or block reduction, their virtual-warp push vw-push-2 to 32,
and do-beamer, direction-optimizing BFS with Beamer's rule, --alpha and
--beta); --strategy all runs every one of them. Three run only when
named: two-phase-racy, the original racy SSSP kept to show that
validation catches it; spac-schedule, SPAC's static edge schedule of
the adjacency (a level as a masked product over the schedule), whose
partition takes seconds to a minute and is kept in the schedule cache
(--cache-dir, --no-cache); and BFS's adaptive, which runs every level
with the strategy a decision tree picks from the level's features
(--model FILE from 'spac traverse train'; default the model embedded in
spac). Where every strategy the tree picks is one of the paper's or
do-beamer, the device walks the tree itself at the end of each level
and the search runs like a fixed strategy's; adaptive-host makes the
same choices on the host, a captured graph and a round trip per
decision (what a tree with other picks does by itself). A binary
without CUDA says so at once and exits with status 1 (build one with
'make gpu').`
}

// oneGraph accepts exactly one positional argument, the graph.
func oneGraph(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s takes one graph (a file, - for standard input, or kron:... / road:...), got %d arguments\nsee '%s --help'", c.Name(), len(args), c.CommandPath())
	}
	return nil
}

// arrayFiles are the files --out writes for p.
func arrayFiles(p problem) []string {
	if p == problemSSSP {
		return []string{"dist.npy", "pred.npy"}
	}
	return []string{"depth.npy", "parent.npy"}
}

// traverseSetup is the parsed command line.
type traverseSetup struct {
	strategies []string
	opt        graph.Options
	weights    string // "auto" or graph.Weights' spelling
	validate   bool
	// chooser is the adaptive strategy's model when it runs, model its
	// name in messages.
	chooser *engine.ModelChooser
	model   string
}

func (f *traverseFlags) parse(c *cobra.Command, p problem, arg string) (*traverseSetup, error) {
	st := &traverseSetup{validate: f.validate && !f.noValidate}
	fl := c.Flags()
	if fl.Changed("validate") && fl.Changed("no-validate") && f.validate && f.noValidate {
		return nil, usagef("--validate and --no-validate contradict each other: give one")
	}
	if fl.Changed("roots") && fl.Changed("root") {
		return nil, usagef("--roots %d and --root %d: give one (random roots, or that vertex alone)", f.roots, f.root)
	}
	checks := []error{
		f.cache.check(),
		intIn("roots", f.roots, 1, maxCount, "random roots to search from"),
		intIn("root", f.root, 0, maxCount, "a vertex id, 0-based"),
		intIn("device", f.device, 0, maxCount, "a GPU ordinal"),
		floatIn("budget", f.budget, 0, math.MaxInt32, false, "seconds per strategy; 0 for no limit"),
	}
	if p == problemSSSP {
		checks = append(checks, floatIn("delta", f.delta, 0, math.MaxFloat32, false, "a bucket width; 0 picks the mean arc weight"))
	} else {
		checks = append(checks,
			floatIn("alpha", f.alpha, 0, math.Inf(1), true, "direction-optimizing's top-down to bottom-up threshold"),
			floatIn("beta", f.beta, 0, math.Inf(1), true, "direction-optimizing's bottom-up to top-down threshold"),
			intIn("one-block", f.oneBlock, 0, 1<<30, "out-arcs of a frontier one block runs; 0: never"),
			intIn("persistent-after", f.persistAfter, 0, 1<<30, "a level; 0: never"),
			intIn("own-kernel", f.ownKernel, 0, 1<<40, "arcs; 0: never"))
	}
	if err := firstErr(checks...); err != nil {
		return nil, err
	}
	if p == problemBFS && f.in.model != "" {
		// bfs's --model is the adaptive strategy's, not a locality graph
		f.adaptiveModel, f.in.model = f.in.model, ""
		if !f.useGPU {
			return nil, usagef("--model %s: on bfs, --model names the adaptive strategy's model file, and does not apply without --gpu --strategy adaptive", f.adaptiveModel)
		}
	}
	if f.in.model != "" {
		return nil, usagef("--model %s: %s reads the input as a graph's adjacency; --model does not apply", f.in.model, p)
	}
	if f.levels != "" && !f.useGPU {
		return nil, usagef("--levels %s times the GPU engine's levels: add --gpu", f.levels)
	}
	if gen.IsSpec(arg) {
		for _, name := range []string{"input-format", "directed", "base", "header", "max-dimension"} {
			if fl.Changed(name) {
				return nil, usagef("--%s reads files; %s is generated (drop the flag, or give a file)", name, arg)
			}
		}
	}
	if f.in.asStored {
		return nil, usagef("--as-stored: %s reads a symmetric matrix as an undirected graph; --as-stored does not apply", p)
	}
	if _, err := f.in.config(); err != nil {
		return nil, err
	}
	relabel, err := graph.ParseRelabel(f.relabel)
	if err != nil {
		return nil, usagef("--relabel: %v", err)
	}
	st.opt = graph.Options{Undirected: f.undirected, Dedupe: f.dedupe, DropSelfLoops: f.dropSelfLoops,
		Relabel: relabel, Seed: uint64(f.seed)}
	if p == problemSSSP {
		st.weights = strings.ToLower(strings.TrimSpace(f.weights))
		if st.weights != "auto" {
			w, err := graph.ParseWeights(st.weights)
			if err != nil {
				return nil, usagef("--weights: %v, or auto", err)
			}
			if w.Kind == graph.NoWeights {
				return nil, usagef("--weights none: shortest paths need weights (file, uniform-int:W, uniform-float or auto)")
			}
			st.opt.Weights = w
		}
	}
	names, extra := cpuStrategyNames(p), []string(nil)
	if f.useGPU {
		if names, extra, err = gpuStrategyNames(p); err != nil {
			return nil, err
		}
	}
	if st.strategies, err = parseStrategies(f.strategy, names, extra); err != nil {
		if !f.useGPU {
			// a GPU strategy named without --gpu: say so rather than "unknown"
			for _, name := range strings.Split(f.strategy, ",") {
				name = strings.TrimSpace(name)
				_, cpuErr := cpuStrategies.Parse(name)
				if _, gpuErr := engine.ParseStrategy(name); (gpuErr == nil || isAdaptive(name)) && cpuErr != nil {
					return nil, usagef("--strategy: %s is a strategy of the GPU engine: add --gpu (without it: %s)", name, strings.Join(names, ", "))
				}
			}
		}
		return nil, err
	}
	switch {
	case slices.ContainsFunc(st.strategies, isAdaptive):
		if st.chooser, st.model, err = loadAdaptiveModel(f.adaptiveModel); err != nil {
			return nil, err
		}
	case f.adaptiveModel != "":
		return nil, usagef("--model %s is the adaptive strategy's model: add adaptive to --strategy", f.adaptiveModel)
	}
	// Bottom-up steps pull over in-arcs: a directed graph needs its
	// transpose (an undirected one shares its arcs).
	st.opt.Transpose = p == problemBFS && (f.useGPU || slices.Contains(st.strategies, cpuStrategies.String(cpuDirectionOptimizing)))
	return st, nil
}

// parseStrategies reads --strategy: all (the names), or a comma-separated
// list of the names and the extra ones, which only run when named (a
// planted bug kept as the validator's negative test).
func parseStrategies(list string, names, extra []string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(list), "all") {
		return names, nil
	}
	table := words("strategy", append(slices.Clone(names), extra...)...)
	s, err := table.ParseList(list)
	if err == nil && len(s) == 0 {
		err = fmt.Errorf("no strategy given (want all or %s)", table.List())
	}
	if err != nil {
		return nil, usagef("--strategy: %v", err)
	}
	return s, nil
}

// loadTraversalGraph builds the graph of arg: a generator spec or a file.
// Its stages (generate or read, build) show on a terminal.
func loadTraversalGraph(arg string, f *traverseFlags, st *traverseSetup, p problem, notice io.Writer) (g *graph.Graph, err error) {
	start := time.Now()
	stages := f.in.progress().Stages("graph")
	defer func() { stages.End(err == nil, time.Since(start)) }()
	var e *graph.Edges
	if gen.IsSpec(arg) {
		spec, err := gen.Parse(arg, uint64(f.seed))
		if err != nil {
			return nil, usageError{err}
		}
		stages.Begin("generate")
		if e, err = spec.Generate(); err != nil {
			return nil, err
		}
	} else {
		if strings.HasPrefix(arg, "gen:") {
			stages.Begin("generate")
		} else {
			stages.Begin("read")
		}
		cfg, err := f.in.config()
		if err != nil {
			return nil, err
		}
		// The matrix as stored (graph.FromCOO reads symmetric storage),
		// a gen: input generated with --seed.
		cfg.AsStored, cfg.GenSeed, cfg.Notice = true, f.seed, notice
		in, err := usage(pipeline.Read(context.Background(), arg, cfg))
		if err != nil {
			return nil, err
		}
		if e, err = graph.FromCOO(in.Matrix); err != nil {
			return nil, err
		}
	}
	if p == problemSSSP && st.weights == "auto" {
		st.opt.Weights = graph.Weights{Kind: graph.UniformFloat}
		if e.Val != nil {
			st.opt.Weights = graph.Weights{Kind: graph.FileWeights}
		}
	}
	stages.Begin("build")
	return graph.Build(e, st.opt)
}

// rootRun is one search's figures.
type rootRun struct {
	Root          int32   `json:"root"` // input id
	Ms            float64 `json:"ms"`
	InputEdges    int64   `json:"input_edges"`
	TEPS          float64 `json:"teps"`
	Inspected     int64   `json:"inspected"`
	InspectedRate float64 `json:"inspected_per_s"`
	Levels        int     `json:"levels,omitempty"`
	Valid         string  `json:"valid"`
}

// strategyRow is one strategy's line: its figures over the roots.
type strategyRow struct {
	Strategy        string    `json:"strategy"`
	Roots           int       `json:"roots"`
	MedianMs        float64   `json:"ms_per_root_median"`
	TEPS            float64   `json:"teps_hmean"`
	InspectedRate   float64   `json:"inspected_per_s_hmean"`
	Levels          int       `json:"levels_max,omitempty"`
	UsPerLevel      float64   `json:"us_per_level_median,omitempty"` // over the roots, each root's time over its own levels
	InspectedPerRun float64   `json:"inspected_per_root_mean"`
	Valid           string    `json:"valid"`
	Runs            []rootRun `json:"runs"`
	Stopped         bool      `json:"stopped_by_budget,omitempty"` // --budget: fewer roots than the others
	failed          bool
}

// traverseReport is what the command prints.
type traverseReport struct {
	Problem    string        `json:"problem"`
	Graph      string        `json:"graph"`
	Vertices   int           `json:"vertices"`
	InputEdges int64         `json:"input_edges"`
	Arcs       int64         `json:"arcs"`
	Directed   bool          `json:"directed"`
	Weights    string        `json:"weights,omitempty"`
	Engine     string        `json:"engine"`
	Validated  bool          `json:"validated"`
	RootsFrom  string        `json:"roots_from"`
	Roots      []int32       `json:"roots"` // input ids, in the order searched
	Rows       []strategyRow `json:"strategies"`
}

func runTraverse(c *cobra.Command, p problem, arg string, f *traverseFlags) error {
	if allSources(c) {
		return runSSSPAllSources(c, arg, f) // sssp_all.go
	}
	if f.batch {
		return runTraverseBatch(c, p, arg, f)
	}
	st, err := f.parse(c, p, arg)
	if err != nil {
		return err
	}
	if err := checkOutputs(c, "levels"); err != nil {
		return err
	}
	if err := checkOutputDir(c, "out", func(dir string) error {
		return output.CheckDir(dir, func(name string) bool { return slices.Contains(arrayFiles(p), name) })
	}); err != nil {
		return err
	}
	ctx := c.Context()
	prog := f.in.progress()
	g, err := loadTraversalGraph(arg, f, st, p, c.ErrOrStderr())
	if err != nil {
		return err
	}
	roots, err := pickRoots(c, g, f)
	if err != nil {
		return err
	}
	var t traverser
	if f.useGPU {
		if t, err = openGPU(ctx, g, p, f.device, engine.Options{Delta: float32(f.delta), Alpha: f.alpha, Beta: f.beta, OneBlockArcs: never(f.oneBlock), PersistentAfter: never(f.persistAfter), OwnKernelArcs: int64(never(f.ownKernel)), ScheduleCache: f.cache.open(c.ErrOrStderr())}); err != nil {
			return err
		}
		if st.chooser != nil {
			t.(*gpuTraverser).chooser = st.chooser
			if st.chooser.Model.Synthetic {
				fmt.Fprintf(c.ErrOrStderr(), "spac: note: the adaptive strategy uses %s, which is synthetic. %s\n", st.model, adaptive.SyntheticNote)
			}
		}
	} else {
		t = &cpuTraverser{g: g, p: p, par: cpuParams{alpha: f.alpha, beta: f.beta, delta: float32(f.delta)}}
	}
	defer t.Close()
	rep := &traverseReport{Problem: p.String(), Graph: g.Name, Vertices: g.NumVertices, InputEdges: g.InputEdges,
		Arcs: g.NumArcs(), Directed: g.Directed, Engine: fmt.Sprintf("cpu (%d threads)", runtime.GOMAXPROCS(0)), Validated: st.validate}
	if f.useGPU {
		rep.Engine = fmt.Sprintf("gpu %d", f.device)
	}
	rep.RootsFrom = fmt.Sprintf("%d random roots of degree > 0 (seed %d)", len(roots), f.seed)
	if c.Flags().Changed("root") {
		rep.RootsFrom = fmt.Sprintf("root %d", f.root)
	}
	for _, r := range roots {
		rep.Roots = append(rep.Roots, inputID(g, r))
	}
	if p == problemSSSP {
		rep.Weights = st.opt.Weights.String()
		if st.weights == "auto" {
			rep.Weights += " (auto)"
		}
	}
	rows := make([]strategyRow, len(st.strategies))
	for i, s := range st.strategies {
		rows[i] = strategyRow{Strategy: s, Valid: "yes"}
		if !st.validate {
			rows[i].Valid = "not checked"
		}
	}
	// Roots outer, strategies inner: every strategy meets the same state
	// of caches and clocks, and the exact distances an integer-weighted
	// SSSP is checked against are computed once per root. On the GPU the
	// host checks one search while the device runs the next (the device
	// times itself); the CPU references are timed by the clock, so there
	// the checks wait their turn.
	bar := prog.Count(p.String(), len(roots))
	checks := newChecker(g, p, rows, st.validate, f.useGPU)
	spent := make([]time.Duration, len(rows))
	var last *traversal
	fail := func(err error) error {
		checks.wait()
		bar.Finish()
		return err
	}
	for _, root := range roots {
		exact, err := exactDistances(g, p, root, st.validate)
		if err != nil {
			return fail(err)
		}
		for i, s := range st.strategies {
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			if f.budget > 0 && spent[i] >= time.Duration(f.budget*float64(time.Second)) {
				rows[i].Stopped = true
				continue
			}
			bar.Describe(fmt.Sprintf("%s %s", p, s))
			res, run, err := searchOnce(ctx, t, g, p, root, s)
			// the search's own time, as the table counts it (the device's
			// on the GPU): a strategy's one-time setup and the host's
			// copies do not use its budget
			spent[i] += time.Duration(run.Ms * float64(time.Millisecond))
			if err != nil {
				return fail(fmt.Errorf("%s %s from root %d: %w", p, s, inputID(g, root), err))
			}
			checks.add(i, root, res, run, exact)
			last = res
		}
		bar.Add(1)
	}
	checks.wait()
	bar.Finish()
	for i := range rows {
		rows[i].summarize()
	}
	rep.Rows = rows
	if err := writeTraverse(c.OutOrStdout(), f.format, rep); err != nil {
		return err
	}
	if gt, ok := t.(*gpuTraverser); ok {
		gt.tally.note(c.ErrOrStderr(), st.model)
	}
	if f.levels != "" {
		if err := writeLevelTimes(ctx, f.levels, c.OutOrStdout(), t, g, p, roots[0], st, rep.Graph); err != nil {
			return err
		}
	}
	if f.out != "" && last != nil {
		if err := writeArrays(ctx, f.out, p, g, last); err != nil {
			return err
		}
		prog.Printf("wrote %s/%s", strings.TrimSuffix(f.out, "/"), strings.Join(arrayFiles(p), " and "))
	}
	var failed []string
	for _, r := range rows {
		if r.failed {
			failed = append(failed, r.Strategy+": "+r.Valid)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d strategies failed validation:\n  %s", len(failed), len(rows), strings.Join(failed, "\n  "))
	}
	return nil
}

// pickRoots is --root (checked against the vertices, mapped to the graph's
// ids) or --roots random roots of degree > 0.
func pickRoots(c *cobra.Command, g *graph.Graph, f *traverseFlags) ([]int32, error) {
	if !c.Flags().Changed("root") {
		roots, err := g.Roots(f.roots, uint64(f.seed))
		if err != nil {
			return nil, err
		}
		if len(roots) < f.roots {
			fmt.Fprintf(c.ErrOrStderr(), "note: %d roots, not %d: only %d vertices have an edge to another vertex\n", len(roots), f.roots, len(roots))
		}
		return roots, nil
	}
	if g.NumVertices == 0 {
		return nil, usagef("--root %d: %s has no vertices", f.root, g.Name)
	}
	if err := intIn("root", f.root, 0, g.NumVertices-1, "the vertices of "+g.Name+", 0-based whatever the file's numbering"); err != nil {
		return nil, err
	}
	r := int32(f.root)
	if g.NewID != nil {
		r = g.NewID[r]
	}
	return []int32{r}, nil
}

// inputID is the input's id of graph vertex v.
func inputID(g *graph.Graph, v int32) int32 {
	if g.OldID == nil || v < 0 {
		return v
	}
	return g.OldID[v]
}

// exactDistances are exact Dijkstra's distances from root when an
// integer-weighted SSSP is validated (nil otherwise).
func exactDistances(g *graph.Graph, p problem, root int32, check bool) ([]int64, error) {
	if p != problemSSSP || !check || !g.Integer {
		return nil, nil
	}
	d, _, err := ref.DijkstraInt(g, root)
	return d, err
}

// checker validates searches, in the order given, and adds them to their
// rows: at once (sync), or one at a time on a goroutine while the caller
// runs the next search, the one before waited for (at most two results
// held). The goroutine owns the rows until wait returns.
type checker struct {
	g     *graph.Graph
	p     problem
	rows  []strategyRow
	check bool
	jobs  chan checkJob
	done  chan struct{}
}

type checkJob struct {
	row   int
	root  int32
	res   *traversal
	run   rootRun
	exact []int64
}

func newChecker(g *graph.Graph, p problem, rows []strategyRow, check, async bool) *checker {
	c := &checker{g: g, p: p, rows: rows, check: check}
	if async && check {
		c.jobs, c.done = make(chan checkJob), make(chan struct{})
		go func() {
			defer close(c.done)
			for j := range c.jobs {
				c.do(j)
			}
		}()
	}
	return c
}

func (c *checker) add(row int, root int32, res *traversal, run rootRun, exact []int64) {
	j := checkJob{row, root, res, run, exact}
	if c.jobs == nil {
		c.do(j)
		return
	}
	c.jobs <- j
}

func (c *checker) do(j checkJob) {
	if c.check {
		j.run.Valid = "yes"
		if err := checkSearch(c.g, c.p, j.root, j.res, j.exact); err != nil {
			j.run.Valid = err.Error()
			if c.g.NewID != nil {
				j.run.Valid += " (vertex ids after --relabel)"
			}
		}
	}
	c.rows[j.row].add(j.run)
}

// wait returns once every search added is checked (the checker is done).
func (c *checker) wait() {
	if c.jobs != nil {
		close(c.jobs)
		<-c.done
		c.jobs = nil
	}
}

// searchOnce runs and times one search (its run not yet checked).
func searchOnce(ctx context.Context, t traverser, g *graph.Graph, p problem, root int32, s string) (*traversal, rootRun, error) {
	start := time.Now()
	res, err := t.Run(ctx, root, s)
	elapsed := time.Since(start)
	if err != nil {
		return nil, rootRun{}, err
	}
	if res.Elapsed > 0 {
		elapsed = res.Elapsed
	}
	elapsed = max(elapsed, time.Nanosecond)
	edges := g.ReachedInputEdges(res.Parent)
	run := rootRun{Root: inputID(g, root), Ms: float64(elapsed) / 1e6, InputEdges: edges,
		TEPS: validate.TEPS(edges, elapsed), Inspected: res.Inspected,
		InspectedRate: validate.InspectedPerSecond(res.Inspected, elapsed), Levels: res.Levels, Valid: "not checked"}
	return res, run, nil
}

// checkSearch validates one search: BFS's tree and depths, or SSSP's
// distances and predecessors and, when exact is given, the distances
// against those.
func checkSearch(g *graph.Graph, p problem, root int32, res *traversal, exact []int64) error {
	if p != problemSSSP {
		return validate.BFS(g, root, res.Parent, res.Depth)
	}
	if err := validate.SSSP(g, root, res.Dist, res.Parent); err != nil || exact == nil {
		return err
	}
	return validate.SameIntDistances(res.Dist, exact)
}

func (r *strategyRow) add(run rootRun) {
	r.Runs = append(r.Runs, run)
	if run.Valid != "yes" && run.Valid != "not checked" && !r.failed {
		r.failed = true
		r.Valid = fmt.Sprintf("root %d: %s", run.Root, run.Valid)
	}
}

// summarize computes the row's figures from its runs.
func (r *strategyRow) summarize() {
	r.Roots = len(r.Runs)
	ms, teps, rate := make([]float64, r.Roots), make([]float64, r.Roots), make([]float64, r.Roots)
	var inspected float64
	var perLevel []float64
	for i, run := range r.Runs {
		ms[i], teps[i], rate[i] = run.Ms, run.TEPS, run.InspectedRate
		inspected += float64(run.Inspected)
		r.Levels = max(r.Levels, run.Levels)
		if run.Levels > 0 {
			perLevel = append(perLevel, 1000*run.Ms/float64(run.Levels))
		}
	}
	r.MedianMs = median(ms)
	// each root over its own levels: the median time over the most levels
	// of any root would flatter a graph whose depth varies with the root
	r.UsPerLevel = median(perLevel)
	r.TEPS, r.InspectedRate = validate.HarmonicMean(teps), validate.HarmonicMean(rate)
	if r.Roots > 0 {
		r.InspectedPerRun = inspected / float64(r.Roots)
	}
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// si writes x >= 0 with an SI prefix and three significant digits: 52.3M,
// 28.0M, 119k.
func si(x float64) string {
	prefix := ""
	for _, u := range []struct {
		p string
		f float64
	}{{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if x >= u.f {
			x, prefix = x/u.f, u.p
			break
		}
	}
	digits := 2
	switch {
	case x >= 99.95:
		digits = 0
	case x >= 9.995:
		digits = 1
	}
	return strconv.FormatFloat(x, 'f', digits, 64) + prefix
}

// usText is a time per level in microseconds, or none when no root had
// levels.
func usText(us float64, none string) string {
	if us == 0 {
		return none
	}
	return strconv.FormatFloat(us, 'f', 1, 64)
}

func levelsText(l int) string {
	if l == 0 {
		return "-"
	}
	return strconv.Itoa(l)
}

var traverseCSVHeader = []string{"problem", "graph", "vertices", "input_edges", "arcs", "directed", "weights", "engine",
	"strategy", "roots", "ms_per_root_median", "teps_hmean", "inspected_per_s_hmean", "levels_max", "inspected_per_root_mean", "valid", "us_per_level_median"}

func writeTraverse(w io.Writer, format outputFormat, rep *traverseReport) error {
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatCSV:
		cw := csv.NewWriter(w)
		cw.Write(traverseCSVHeader)
		for _, r := range rep.Rows {
			levels := ""
			if r.Levels > 0 {
				levels = strconv.Itoa(r.Levels)
			}
			cw.Write([]string{rep.Problem, rep.Graph, strconv.Itoa(rep.Vertices), strconv.FormatInt(rep.InputEdges, 10),
				strconv.FormatInt(rep.Arcs, 10), strconv.FormatBool(rep.Directed), rep.Weights, rep.Engine, r.Strategy,
				strconv.Itoa(r.Roots), fmt.Sprintf("%.4f", r.MedianMs), fmt.Sprintf("%.6g", r.TEPS), fmt.Sprintf("%.6g", r.InspectedRate),
				levels, fmt.Sprintf("%.1f", r.InspectedPerRun), r.Valid, usText(r.UsPerLevel, "")})
		}
		cw.Flush()
		return cw.Error()
	}
	kind := "undirected"
	if rep.Directed {
		kind = "directed"
	}
	fmt.Fprintf(w, "%s on %s: %s, %d vertices, %d input edges, %d arcs", rep.Problem, rep.Graph, kind, rep.Vertices, rep.InputEdges, rep.Arcs)
	if rep.Weights != "" {
		fmt.Fprintf(w, ", weights %s", rep.Weights)
	}
	fmt.Fprintln(w)
	check := "validated by the Graph500 rules"
	if !rep.Validated {
		check = "not validated (--no-validate)"
	}
	fmt.Fprintf(w, "%s, %s, %s\n\n", rep.RootsFrom, rep.Engine, check)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "strategy\troots\tms/root (median)\tTEPS (Graph500, hmean)\tinspected/s (arcs, hmean)\tlevels\tus/level (median)\tinspected/root\tvalid\t\n")
	var notes []string
	for _, r := range rep.Rows {
		valid := r.Valid
		if r.failed {
			valid = "NO, see below"
			notes = append(notes, fmt.Sprintf("%s: %s", r.Strategy, r.Valid))
		}
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Strategy, r.Roots, r.MedianMs, si(r.TEPS), si(r.InspectedRate),
			levelsText(r.Levels), usText(r.UsPerLevel, "-"), si(r.InspectedPerRun), valid)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(w, "\ninvalid: %s\n", n)
	}
	var stopped []string
	for _, r := range rep.Rows {
		if r.Stopped {
			stopped = append(stopped, fmt.Sprintf("%s (%d)", r.Strategy, r.Roots))
		}
	}
	if len(stopped) > 0 {
		fmt.Fprintf(w, "\n--budget stopped %s before the last root\n", strings.Join(stopped, ", "))
	}
	return nil
}

// writeArrays writes res's arrays into dir as .npy files, in input ids
// (output.WriteDir: the set replaces the directory as a whole).
func writeArrays(ctx context.Context, dir string, p problem, g *graph.Graph, res *traversal) error {
	parent := inInputIDs(g, res.Parent, true)
	i32 := func(name string, a []int32) output.File {
		return output.File{Name: name, Fill: func(w io.Writer) error { return schedule.WriteNPYInt32(w, a) }}
	}
	var files []output.File
	if p == problemSSSP {
		dist := make([]float64, g.NumVertices)
		for i := range dist {
			v := int32(i)
			if g.NewID != nil {
				v = g.NewID[i]
			}
			dist[i] = float64(res.Dist[v])
		}
		files = []output.File{
			{Name: "dist.npy", Fill: func(w io.Writer) error { return schedule.WriteNPYFloat64(w, dist) }},
			i32("pred.npy", parent),
		}
	} else {
		files = []output.File{i32("depth.npy", inInputIDs(g, res.Depth, false)), i32("parent.npy", parent)}
	}
	owned := func(name string) bool { return slices.Contains(arrayFiles(p), name) }
	return output.WriteDir(ctx, dir, owned, files)
}

// inInputIDs reorders a per-vertex array from the graph's ids to the
// input's; ids says its values are vertex ids too (-1 stays -1).
func inInputIDs(g *graph.Graph, a []int32, ids bool) []int32 {
	if g.NewID == nil {
		return a
	}
	out := make([]int32, len(a))
	for i := range out {
		x := a[g.NewID[i]]
		if ids {
			x = inputID(g, x)
		}
		out[i] = x
	}
	return out
}

// never maps a flag whose 0 means never (--one-block, --persistent-after)
// to the engine's option, whose 0 is the default and negative never.
func never(v int) int {
	if v == 0 {
		return -1
	}
	return v
}
