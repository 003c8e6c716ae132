package main

// spac traverse: the per-level adaptive BFS (issue 17): the oracle sweep
// on the GPU (traverse_sweep.go), training the model from sweeps, and
// showing a model.

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/internal/output"
)

// traverseGroupCommand is 'spac traverse', the parent of its commands.
func traverseGroupCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "traverse",
		Short: "Per-level adaptive BFS: sweep on the GPU, train and inspect the model that picks an implementation at every level",
		Long: `The per-level adaptive BFS picks, at every BFS level, the implementation
expected to be fastest from the level's features (graph size, frontier size
in vertices and arcs, fraction discovered, degree summaries), with a CART
decision tree trained offline on oracle sweeps: every candidate timed at
every level of searches on many graphs (Verstraaten, Varbanescu and de Laat,
2017). 'spac traverse sweep GRAPH --gpu' times the candidates, 'spac
traverse train' fits the tree, 'spac bfs GRAPH --gpu --strategy adaptive
[--model FILE]' runs it. 'go doc github.com/spac-gpu/spac/apps/traversal/adaptive'
documents the features, the sweep's CSV and sidecar, and the model file.`,
		// Without a command, the usage on standard error and exit status 2,
		// as the root does.
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for %q\nsee '%s --help'", args[0], c.CommandPath(), c.CommandPath())
			}
			c.SetOut(c.ErrOrStderr())
			c.Usage()
			return usagef("a command is missing")
		},
	}
	c.AddCommand(traverseSweepCommand(), traverseTrainCommand(), traverseModelCommand())
	return c
}

type trainFlags struct {
	out               string
	maxDepth, minLeaf int
	seed              uint64
	test, validation  []string
	candidates, feats []string
	format            outputFormat
}

func traverseTrainCommand() *cobra.Command {
	var f trainFlags
	c := &cobra.Command{
		Use:   "train [DATA_DIR|SWEEP.csv...] [-o model.json]",
		Short: "Train the per-level model (a cost-sensitive CART tree) from oracle sweeps, split by graph",
		Long: `Train the decision tree that picks a BFS implementation per level, from oracle
sweeps, and report how it does.

Input: sweep files, <graph>.csv (or .csv.gz) each with its sidecar
<graph>.json beside it; a directory stands for every sweep in it (default:
` + adaptive.DataDir + `). One row per graph, root, level and candidate:
the level's features, the candidate's time in microseconds and whether it
was valid. The reader is strict: a wrong header, value or sidecar is an
error naming the file, the line and the column.

Sets: graphs, never levels, are split into training, validation and test
sets. --test and --validation name graphs (or family:NAME for a whole
family); a set not named is drawn from the other graphs with --seed (a fifth
of the graphs each, at least one, when there are 3 graphs or more); an
empty --test "" or --validation "" holds none out.

Training: the tree minimises the mean over the training graphs of the
chosen candidates' total time over the per-level oracle's (each graph
counting once; a candidate without a valid time at a level is charged the
level's slowest valid time). --max-depth and --min-leaf bound it; 0 chooses
each on the validation graphs (depths 1 to 12, leaves of 1 to 32 levels),
the best validation ratio winning, ties to the smaller tree. Training is
deterministic: the same sweeps and flags give the same model.
--candidates restricts the tree's picks to a menu (every level's oracle
still counts every candidate); --features the features it may split on
(the default model's choice, and why, is in the README).

Report: per set the mean over its graphs of model/oracle (the model's total
time over the per-level optimum), fixed/oracle (the graph's best single
candidate) and model/fixed, and the worst graph; then every graph; the
model's size in nodes and bytes, and the cost of one prediction on this
host. -o writes the model (versioned JSON, 'spac traverse model' shows it);
- writes it to standard output and the report to standard error.`,
		Example: `  spac traverse train                                      # every sweep in data/traverse
  spac traverse train data/traverse --test kron22,road-4000 -o bfs-model.json
  spac traverse train a.csv b.csv c.csv --validation family:road --max-depth 6`,
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkOutputs(c, "output"); err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{adaptive.DataDir}
			}
			opt := adaptive.TrainOptions{MaxDepth: f.maxDepth, MinLeaf: f.minLeaf, Seed: f.seed, Date: time.Now().Format(time.DateOnly)}
			if c.Flags().Changed("test") {
				opt.Test = append([]string{}, f.test...)
			}
			if c.Flags().Changed("validation") {
				opt.Validation = append([]string{}, f.validation...)
			}
			opt.Candidates, opt.Features = f.candidates, f.feats
			if f.maxDepth < 0 || f.maxDepth > adaptive.MaxTreeDepth {
				return usagef("--max-depth %d: want 0 (chosen on validation) to %d", f.maxDepth, adaptive.MaxTreeDepth)
			}
			if f.minLeaf < 0 {
				return usagef("--min-leaf %d: want 0 (chosen on validation) or more", f.minLeaf)
			}
			return runTraverseTrain(c, args, opt, &f)
		},
	}
	fl := c.Flags()
	fl.StringVarP(&f.out, "output", "o", "", "write the model (JSON) to this file; - for standard output")
	fl.IntVar(&f.maxDepth, "max-depth", 0, fmt.Sprintf("the tree's depth, 1 to %d; 0 chooses it on the validation graphs", adaptive.MaxTreeDepth))
	fl.IntVar(&f.minLeaf, "min-leaf", 0, "the fewest levels in a leaf; 0 chooses it on the validation graphs")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed of the drawn validation and test graphs (recorded in the model)")
	fl.StringSliceVar(&f.test, "test", nil, "test graphs, comma-separated names or family:NAME; default: drawn")
	fl.StringSliceVar(&f.validation, "validation", nil, "validation graphs, comma-separated names or family:NAME; default: drawn")
	fl.StringSliceVar(&f.candidates, "candidates", nil, "the only candidates the tree may pick, comma-separated (default: every candidate of the sweeps)")
	fl.StringSliceVar(&f.feats, "features", nil, "the only features the tree may split on, comma-separated (default: all; 'go doc github.com/spac-gpu/spac/apps/traversal/adaptive' lists them)")
	registerFormat(c, &f.format, formatTable, formatJSON)
	return c
}

// trainReport is what 'spac traverse train' prints (--format json).
type trainReport struct {
	Files      []string             `json:"files"`
	Graphs     int                  `json:"graphs"`
	Levels     int                  `json:"levels"`
	Unmeasured int                  `json:"unmeasured_levels"`
	Candidates []string             `json:"candidates"`
	Synthetic  bool                 `json:"synthetic"`
	Seed       uint64               `json:"seed"`
	Train      []string             `json:"train"`
	Validation []string             `json:"validation"`
	Test       []string             `json:"test"`
	MaxDepth   int                  `json:"max_depth"`
	MinLeaf    int                  `json:"min_leaf"`
	Chosen     bool                 `json:"chosen_on_validation"`
	Settings   int                  `json:"settings_tried"`
	Sets       []adaptive.SetResult `json:"sets"`
	Nodes      int                  `json:"nodes"`
	Depth      int                  `json:"depth"`
	Bytes      int                  `json:"bytes"`
	PredictNs  float64              `json:"predict_ns"`
	Output     string               `json:"output,omitempty"`
}

func runTraverseTrain(c *cobra.Command, args []string, opt adaptive.TrainOptions, f *trainFlags) error {
	d, err := adaptive.LoadDataset(args...)
	if err != nil {
		return err
	}
	m, rep, err := adaptive.Train(d, opt)
	if err != nil {
		return err
	}
	r := trainReport{
		Files: d.Files, Graphs: len(d.Graphs), Levels: len(d.Samples), Unmeasured: d.Unmeasured,
		Candidates: d.Candidates, Synthetic: m.Synthetic, Seed: opt.Seed,
		Train: rep.Train, Validation: rep.Validation, Test: rep.Test,
		MaxDepth: rep.Params.MaxDepth, MinLeaf: rep.Params.MinLeaf, Chosen: rep.Chosen, Settings: len(rep.Grid),
		Sets: rep.Sets, Nodes: m.Tree.Nodes(), Depth: m.Tree.Depth(), Bytes: m.Bytes(),
		PredictNs: predictNs(m, d), Output: f.out,
	}
	report := c.OutOrStdout()
	if f.out != "" {
		if f.out == output.Stdout {
			report = c.ErrOrStderr()
		}
		if err := output.Write(c.Context(), f.out, c.OutOrStdout(), m.Save); err != nil {
			return err
		}
	}
	if f.format == formatJSON {
		return writeJSON(report, r)
	}
	return printTrainReport(report, &r)
}

// predictNs measures one prediction on this host: the model over every
// level of the dataset, round after round, for 20 ms at least.
func predictNs(m *adaptive.Model, d *adaptive.Dataset) float64 {
	if len(d.Samples) == 0 {
		return 0
	}
	n := 0
	start := time.Now()
	for time.Since(start) < 20*time.Millisecond {
		for i := range d.Samples {
			predictSink += m.Predict(&d.Samples[i].Features)
		}
		n += len(d.Samples)
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// predictSink keeps predictNs's loop from being optimised away.
var predictSink int

func printTrainReport(w io.Writer, r *trainReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "data\t%d graphs, %d levels from %d sweep files; %d candidates: %s\n", r.Graphs, r.Levels, len(r.Files), len(r.Candidates), strings.Join(r.Candidates, ", "))
	if r.Unmeasured > 0 {
		fmt.Fprintf(tw, "\t%d levels left out: no candidate ran them validly\n", r.Unmeasured)
	}
	fmt.Fprintf(tw, "train\t%s\n", list(r.Train))
	fmt.Fprintf(tw, "validation\t%s\n", list(r.Validation))
	fmt.Fprintf(tw, "test\t%s\n", list(r.Test))
	how := "as given"
	if r.Chosen {
		how = fmt.Sprintf("chosen on validation among %d settings", r.Settings)
	} else if len(r.Validation) == 0 {
		how = "given or default: no validation graph to choose on"
	}
	fmt.Fprintf(tw, "bounds\tmax depth %d, min leaf %d (%s)\n", r.MaxDepth, r.MinLeaf, how)
	fmt.Fprintf(tw, "model\t%d nodes, depth %d, %d bytes as JSON; %.1f ns per prediction on this host\n", r.Nodes, r.Depth, r.Bytes, r.PredictNs)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tgraphs\tlevels\tmodel/oracle\tfixed/oracle\tmodel/fixed\tworst model/oracle\tworst model/fixed\t")
	for _, s := range r.Sets {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", s.Set, len(s.Graphs), s.Levels, s.ModelOracle, s.FixedOracle, s.ModelFixed, s.WorstModelOracle, s.WorstModelFixed)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tgraph\tfamily\troots\tlevels\toracle us\tmodel/oracle\tfixed/oracle\tbest fixed\t")
	for _, s := range r.Sets {
		for _, g := range s.PerGraph {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.1f\t%.3f\t%.3f\t%s\t\n", s.Set, g.Graph, g.Family, g.Searches, g.Levels, g.Oracle, g.ModelOracle(), g.FixedOracle(), g.FixedCandidate)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Synthetic {
		fmt.Fprintf(w, "\nnote: %s\n", adaptive.SyntheticNote)
	}
	switch r.Output {
	case "":
		fmt.Fprintln(w, "\nthe model was not written: give -o FILE to keep it")
	case output.Stdout:
	default:
		fmt.Fprintf(w, "\nwrote %s\n", r.Output)
	}
	return nil
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func traverseModelCommand() *cobra.Command {
	var format outputFormat
	c := &cobra.Command{
		Use:   "model [MODEL.json]",
		Short: "Show a per-level model (default: the embedded one): its training, its ratios and its tree",
		Long: `Show a per-level model file written by 'spac traverse train', or without an
argument the default model embedded in spac: the candidates it chooses
among, the graphs that trained, validated and tested it, its ratios to the
per-level oracle, and its tree as rules. --format json prints the file
itself. A model trained on synthetic sweeps is marked as such: the embedded
one is, until a GPU oracle sweep replaces it.`,
		Example: `  spac traverse model
  spac traverse model bfs-model.json
  spac traverse model --format json > default-model.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			var m *adaptive.Model
			var err error
			name := "the embedded default model"
			if len(args) == 1 {
				name = args[0]
				m, err = adaptive.LoadFile(name)
			} else {
				m, err = adaptive.Default()
			}
			if err != nil {
				return err
			}
			if m.Synthetic {
				fmt.Fprintf(c.ErrOrStderr(), "spac: note: %s is synthetic. %s\n", name, adaptive.SyntheticNote)
			}
			if format == formatJSON {
				return m.Save(c.OutOrStdout())
			}
			return printModel(c.OutOrStdout(), name, m)
		},
	}
	registerFormat(c, &format, formatTable, formatJSON)
	return c
}

func printModel(w io.Writer, name string, m *adaptive.Model) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	t := m.Training
	fmt.Fprintf(tw, "model\t%s: format %s version %d, %s\n", name, m.Format, m.Version, m.Algorithm)
	if m.Synthetic {
		fmt.Fprintf(tw, "\tSYNTHETIC: trained on a cost model's times, not the GPU's\n")
	}
	fmt.Fprintf(tw, "candidates\t%s\n", strings.Join(m.Candidates, ", "))
	fmt.Fprintf(tw, "tree\t%d nodes, depth %d, %d bytes as JSON\n", m.Tree.Nodes(), m.Tree.Depth(), m.Bytes())
	fmt.Fprintf(tw, "trained\t%s, seed %d, max depth %d, min leaf %d, %d levels\n", orNone(t.Date), t.Seed, t.MaxDepth, t.MinLeaf, t.Levels)
	fmt.Fprintf(tw, "train\t%s\n", list(t.Graphs))
	fmt.Fprintf(tw, "validation\t%s\n", list(t.Validation))
	fmt.Fprintf(tw, "test\t%s\n", list(t.Test))
	for _, s := range m.Evaluation {
		fmt.Fprintf(tw, "%s\tmodel/oracle %.3f (worst %.3f), fixed/oracle %.3f, model/fixed %.3f (worst %.3f)\n", s.Set, s.ModelOracle, s.WorstModelOracle, s.FixedOracle, s.ModelFixed, s.WorstModelFixed)
	}
	if m.Note != "" {
		fmt.Fprintf(tw, "note\t%s\n", m.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	const shown = 63
	if m.Tree.Nodes() > shown {
		_, err := fmt.Fprintf(w, "\nthe tree has more than %d nodes: --format json prints it\n", shown)
		return err
	}
	fmt.Fprintln(w, "\nrules (left: feature <= threshold):")
	var walk func(i, depth int)
	walk = func(i, depth int) {
		pad := strings.Repeat("  ", depth+1)
		if m.Tree.Feature[i] < 0 {
			fmt.Fprintf(w, "%s-> %s\n", pad, m.Candidates[m.Tree.Label[i]])
			return
		}
		feat := adaptive.Feature(m.Tree.Feature[i])
		fmt.Fprintf(w, "%sif %s <= %s\n", pad, feat, fmtThreshold(m.Tree.Threshold[i]))
		walk(int(m.Tree.Left[i]), depth+1)
		fmt.Fprintf(w, "%selse\n", pad)
		walk(int(m.Tree.Right[i]), depth+1)
	}
	walk(0, 0)
	return nil
}

func fmtThreshold(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.6g", x)
}

func orNone(s string) string {
	if s == "" {
		return "undated"
	}
	return s
}
