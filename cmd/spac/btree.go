package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/btree"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/progress"
)

// btreeFlags are the flags of the btree command.
type btreeFlags struct {
	rf       rodiniaFlags
	command  string
	queries  string
	perBlock int
	fill     float64
	dataSeed uint64
}

func btreeCommand() *cobra.Command {
	var f btreeFlags
	c := &cobra.Command{
		Use:   "btree KEYS.txt|PRESET|keys:n=N,... [--command FILE] [--gpu]",
		Short: "Run Rodinia's b+tree queries (findK, findRangeK): original, on RCM-ordered data, and SPAC-scheduled",
		Long: `Run Rodinia's b+tree benchmark: build a B+tree of the keys on the host (its
order is the thread-block size, as Rodinia's RD_WG_SIZE sets both), then
answer the queries of the commands with findK (a record per key) and
findRangeK (where a range's records start, and how many), and check every
answer against the CPU.

The input is a key file in Rodinia's format (mil.txt: the number of keys,
then the keys; .gz read through gzip; - is standard input), a preset (mil:
Rodinia's million keys and command.txt; h100: a tree several times the
H100's L2 cache), or a spec keys:n=N[,span=S] ('spac btree gen --list').
The commands come from --command (Rodinia's command.txt: "k COUNT" and
"j COUNT RANGE" lines), --queries (the same inline, ';' between commands),
the preset, or Rodinia's "j 6000 3000; k 10000". Queries are drawn from
--data-seed as Rodinia draws them from rand().

Variants (--variant):
  original  Rodinia's kernels: a block per query, its threads across a
            node's keys, the query's current node in global memory.
  rcm       the same kernels on the tree renumbered by reverse
            Cuthill-McKee of the locality graph, the queries sorted by
            their nodes' new numbers: the order a careful user applies.
  spac      the queries are the tasks of a locality graph whose vertices
            are tree nodes (a findK query joins its leaf and the leaf's
            parent, a range its two leaves); each --method partitions them
            into parts of --per-block queries (default: one per warp), and
            a block answers its part's queries one after another, sorted
            by key, keeping the last node of every level (those above
            the leaves in shared memory, the leaf's slots in registers):
            a node is read from global memory once per block, not once
            per query.
  spac-swap the same partition as job swapping alone: Rodinia's kernels,
            a block per query, the blocks of a part launched one after
            another (block i runs the schedule's i-th query), no shared
            memory. It tells the reordering's gain from the staging's.

Without --gpu every variant runs on the CPU (the spac variant as its
blocks would, counting the node records it reads); with --gpu on the GPU
(a binary built with 'make gpu'), timed with CUDA events over --reps
launches. The table shows time, speed-up over the original at the same
block size, blocks, the partition (parts, queries a part, vertex copies),
the node loads and the check; --format csv and json give every field
(the JSON schema is in package apps/btree's documentation).`,
		Example: `  spac btree mil                                   # CPU: every variant, block size 256
  spac btree mil --gpu -b 32,64,128,256,512,1024 --format json > btree.json
  spac btree h100 --gpu -b 256 --no-reference
  spac btree gen mil -o mil.txt --commands-out command.txt && spac btree mil.txt --command command.txt --gpu
  spac btree keys:n=4000000,span=8000000 --queries 'k 100000' --gpu --variant original,spac --method spac,default`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error { return runBTree(c, args[0], &f) },
	}
	f.rf.pf.registerPerBlock(c)
	fl := c.Flags()
	f.rf.register(fl, "256", 10)
	f.rf.vocab = btreeVariants
	fl.Lookup("variant").Usage = "variants to run, comma-separated: original, rcm, spac, spac-swap (see above)"
	fl.StringVar(&f.command, "command", "", "Rodinia's command file (k COUNT, j COUNT RANGE lines)")
	fl.StringVar(&f.queries, "queries", "", "commands inline, ';' between them: 'k 10000; j 6000 3000'")
	fl.IntVar(&f.perBlock, "per-block", 0, "spac: queries a block runs at most (the partition's cap); 0: one per warp of the block")
	fl.Float64Var(&f.fill, "fill", btree.DefaultFill, "share of a node's capacity the tree fills (Rodinia's random insertion leaves about ln 2)")
	fl.Uint64Var(&f.dataSeed, "data-seed", 1, "seed of generated keys and of the queries")
	registerFormat(c, &f.rf.format, formatTable, formatCSV, formatJSON)
	registerQuiet(c, &f.rf.quiet)
	c.AddCommand(btreeGenCommand())
	return c
}

// btreeVariants are the Rodinia variants and job swapping alone.
var btreeVariants = words("variant", "original", "rcm", "spac", "spac-swap")

// btreeInput reads or generates the keys and picks the commands.
func btreeInput(arg string, f *btreeFlags) (keys []int32, cmds []btree.Command, name string, err error) {
	preset, isPreset := btree.LookupPreset(arg)
	switch {
	case isPreset:
		spec := preset.Keys
		spec.Seed = f.dataSeed
		keys, err = btree.GenerateKeys(spec)
		cmds = preset.Commands
	case strings.HasPrefix(arg, "keys:"):
		spec, perr := btree.ParseSpec(arg)
		if perr != nil {
			return nil, nil, "", usageError{perr}
		}
		spec.Seed = f.dataSeed
		keys, err = btree.GenerateKeys(spec)
	default:
		keys, err = btree.OpenKeys(arg)
	}
	if err != nil {
		return nil, nil, "", err
	}
	switch {
	case f.command != "" && f.queries != "":
		return nil, nil, "", usagef("give --command or --queries, not both")
	case f.command != "":
		cmds, err = btree.OpenCommands(f.command)
	case f.queries != "":
		if cmds, err = btree.ParseCommands(f.queries); err != nil {
			err = usageError{fmt.Errorf("--queries: %w", err)}
		}
	case cmds == nil:
		cmds = btree.RodiniaCommands
	}
	return keys, cmds, arg, err
}

func runBTree(c *cobra.Command, arg string, f *btreeFlags) error {
	st, err := f.rf.parse()
	if err != nil {
		return err
	}
	if err := intIn("per-block", f.perBlock, 0, 1<<20, "0: one per warp"); err != nil {
		return err
	}
	if !(f.fill > 0 && f.fill <= 1) {
		return usagef("--fill %g: want a share in (0, 1]", f.fill)
	}
	if f.rf.useGPU && !gpu.Built {
		return fmt.Errorf("--gpu: %w", gpu.ErrNoCUDA)
	}
	prog := progress.Stderr(f.rf.quiet)
	keys, cmds, name, err := btreeInput(arg, f)
	if err != nil {
		return err
	}
	batches, err := btree.MakeQueries(cmds, len(keys), f.dataSeed)
	if err != nil {
		return usageError{err}
	}
	rep := &rodiniaReport{App: "btree", Input: name, Sizes: map[string]int{"keys": len(keys)}}
	for _, b := range batches {
		rep.Sizes[b.Kind.String()] = b.Len()
	}
	var g *btree.GPU
	if f.rf.useGPU {
		dev, done, err := f.rf.openGPU(prog)
		if err != nil {
			return err
		}
		defer done()
		if g, err = btree.NewGPU(dev); err != nil {
			return fmt.Errorf("--gpu: %w", err)
		}
		rep.Device = fmt.Sprintf("%s; btree kernels: %s PTX", dev.Info(), g.Source())
	}
	var notes []string
	var refs []btree.Answers // per batch, from the first tree (answers do not depend on the order)
	for _, bs := range st.blockSizes {
		tree, err := btree.Build(keys, btree.BuildOptions{Order: bs, Fill: f.fill})
		if err != nil {
			return err
		}
		notes = append(notes, fmt.Sprintf("order %d: %d keys, %d nodes of %d B, height %d; queries: %s", bs, tree.Keys, tree.NumNodes, tree.NodeBytes(), tree.Height, btreeQueryLine(batches)))
		if refs == nil && !(f.rf.useGPU && f.rf.noReference) {
			for _, b := range batches {
				refs = append(refs, btree.Reference(tree, b))
			}
		}
		runs, err := btreeRuns(c, st, f, g, tree, batches, refs, prog)
		if err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, runs...)
	}
	return rep.write(c.OutOrStdout(), f.rf.format, notes)
}

func btreeQueryLine(batches []*btree.Batch) string {
	var parts []string
	for _, b := range batches {
		parts = append(parts, fmt.Sprintf("%d %s", b.Len(), b.Kind))
	}
	return strings.Join(parts, ", ")
}

// btreeRuns runs every variant of every batch on one tree.
func btreeRuns(c *cobra.Command, st *rodiniaSetup, f *btreeFlags, g *btree.GPU, tree *btree.Tree, batches []*btree.Batch, refs []btree.Answers, prog *progress.Reporter) ([]rodiniaRun, error) {
	device := "cpu"
	if g != nil {
		device = "gpu"
	}
	var rcm *btree.RCM
	if st.has("rcm") {
		prog.Printf("order %d: RCM ordering of the tree and the queries", tree.Order)
		var err error
		if rcm, err = btree.NewRCM(tree, batches); err != nil {
			return nil, err
		}
	}
	per := f.perBlock
	if per == 0 {
		per = btree.DefaultPerBlock(tree.Order)
	}
	var runs []rodiniaRun
	for i, b := range batches {
		check := func(r *rodiniaRun, got btree.Answers) {
			if refs == nil {
				return
			}
			r.Checked, r.Mismatches = true, btree.Mismatches(got, refs[i])
			r.OK = r.Mismatches == 0
		}
		base := rodiniaRun{Kernel: b.Kind.String(), Device: device, BlockSize: tree.Order, Reps: 1}
		if g != nil {
			base.Reps = f.rf.reps
		}
		// measure runs r's variant on t (the original kernels in the order
		// ord, or the schedule s), checks it and adds it to runs.
		measure := func(r rodiniaRun, t *btree.Tree, ord []int32, s *btree.Schedule) error {
			got, took, err := btreeRun(g, t, b, ord, s, f.rf.reps)
			if err != nil {
				return err
			}
			r.TimeMS = ms(took)
			check(&r, got)
			runs = append(runs, r)
			return nil
		}
		if st.has("original") {
			r := base
			r.Variant, r.Blocks, r.Loads = "original", int64(b.Len()), btree.OriginalLoads(tree, b)
			if err := measure(r, tree, nil, nil); err != nil {
				return nil, err
			}
		}
		if rcm != nil {
			r := base
			r.Variant, r.Blocks, r.Loads, r.PartitionS = "rcm", int64(b.Len()), btree.OriginalLoads(tree, b), rcm.Time.Seconds()
			if err := measure(r, rcm.Tree, rcm.Orders[i], nil); err != nil {
				return nil, err
			}
		}
		if !st.has("spac") && !st.has("spac-swap") {
			continue
		}
		for _, m := range st.methods {
			prog.Printf("order %d: partitioning %d %s queries with %s into blocks of %d", tree.Order, b.Len(), b.Kind, m.Name(), per)
			s, err := btree.NewSchedule(c.Context(), tree, b, m, per, st.opts, prog)
			if err != nil {
				return nil, err
			}
			if st.has("spac") {
				r := base
				r.Variant, r.Blocks = "spac", int64(s.K)
				r.setPartition(s.Metrics, s.BuildTime, per)
				_, loads, err := s.Run(tree, b)
				if err != nil {
					return nil, err
				}
				r.Loads = loads
				if g != nil {
					r.SharedBytes = btree.SharedBytes(tree, b.Kind)
				}
				if err := measure(r, tree, nil, s); err != nil {
					return nil, err
				}
			}
			if st.has("spac-swap") {
				// Rodinia's kernels on the schedule's query order: the
				// original's loads, a block per query.
				r := base
				r.Variant, r.Blocks, r.Loads = "spac-swap", int64(b.Len()), btree.OriginalLoads(tree, b)
				r.setPartition(s.Metrics, s.BuildTime, per)
				if err := measure(r, tree, s.Order, nil); err != nil {
					return nil, err
				}
			}
		}
	}
	return runs, nil
}

// btreeRun answers a batch on the GPU (g not nil) or the CPU: the
// original on tree in the order ord (nil: as drawn), or the schedule s.
// On the CPU the time is the wall time of answering.
func btreeRun(g *btree.GPU, tree *btree.Tree, b *btree.Batch, ord []int32, s *btree.Schedule, reps int) (btree.Answers, time.Duration, error) {
	if g != nil {
		res, err := g.Run(tree, b, ord, s, reps)
		if err != nil {
			return btree.Answers{}, 0, err
		}
		return res.Answers, res.Time.Median, nil
	}
	start := time.Now()
	if s != nil {
		got, _, err := s.Run(tree, b)
		return got, time.Since(start), err
	}
	if ord == nil {
		return btree.Reference(tree, b), time.Since(start), nil
	}
	got := btree.Reference(tree, b.Permute(ord))
	elapsed := time.Since(start)
	out := btree.Answers{A: make([]int32, len(ord))}
	if got.B != nil {
		out.B = make([]int32, len(ord))
	}
	for i, q := range ord {
		out.A[q] = got.A[i]
		if got.B != nil {
			out.B[q] = got.B[i]
		}
	}
	return out, elapsed, nil
}

func btreeGenCommand() *cobra.Command {
	var out, cmdOut string
	var seed uint64
	var list bool
	c := &cobra.Command{
		Use:   "gen PRESET|keys:n=N,... -o KEYS.txt [--commands-out COMMAND.txt]",
		Short: "Write generated keys in Rodinia's key-file format (and the preset's command file)",
		Long: `Generate keys and write them in Rodinia's b+tree key-file format: the number
of keys, then one key a line ("-o -" writes standard output; a name ending in
.gz is gzip-compressed). --commands-out writes the preset's commands (for a
keys: spec, Rodinia's) in Rodinia's command-file format.`,
		Example: `  spac btree gen mil -o mil.txt --commands-out command.txt
  spac btree gen keys:n=64000000 -o big.txt.gz
  spac btree gen --list`,
		RunE: func(c *cobra.Command, args []string) error {
			if list {
				for _, p := range btree.Presets {
					fmt.Fprintf(c.OutOrStdout(), "%s\t%s\n", p.Name, p.Description)
				}
				fmt.Fprintln(c.OutOrStdout())
				fmt.Fprintln(c.OutOrStdout(), btree.SpecHelp)
				return nil
			}
			if len(args) != 1 {
				return usagef("btree gen takes one preset or keys: spec, got %d arguments\nsee 'spac btree gen --help'", len(args))
			}
			if out == "" {
				return usagef("btree gen needs -o KEYS.txt (or -o - for standard output)")
			}
			if _, ok := btree.LookupPreset(args[0]); !ok && !strings.HasPrefix(args[0], "keys:") {
				return usagef("%q is neither a preset (%s) nor a keys: spec", args[0], strings.Join(btree.PresetNames(), ", "))
			}
			if err := checkOutputs(c, "output", "commands-out"); err != nil {
				return err
			}
			keys, cmds, _, err := btreeInput(args[0], &btreeFlags{dataSeed: seed})
			if err != nil {
				return err
			}
			if err := writeInput(c, out, func(w io.Writer) error { return btree.WriteKeys(w, keys) }, fmt.Sprintf("%d keys", len(keys))); err != nil {
				return err
			}
			if cmdOut == "" {
				return nil
			}
			return writeInput(c, cmdOut, func(w io.Writer) error { return btree.WriteCommands(w, cmds) }, fmt.Sprintf("%d commands", len(cmds)))
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "output key file, - for standard output")
	c.Flags().StringVar(&cmdOut, "commands-out", "", "also write the commands to this file")
	c.Flags().Uint64Var(&seed, "seed", 1, "random seed; the same seed gives the same keys")
	c.Flags().BoolVar(&list, "list", false, "list presets and the keys: spec syntax")
	return c
}
