package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
)

// scheduleCommands are the commands that make and read locality schedules;
// the root command adds them.
func scheduleCommands(env environment) []*cobra.Command {
	return []*cobra.Command{newScheduleCmd(env), newInspectCmd()}
}

// planFlags are the flags of the shared-memory plan.
type planFlags struct {
	budget    string
	overflow  string
	precision string
}

func (f *planFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.budget, "smem-budget", "48KiB", "shared memory a block may use: bytes, or with a unit KiB/K/KB or MiB (all binary); 1KiB to 227KiB (Hopper's most)")
	fl.StringVar(&f.overflow, "overflow", "auto", "when a block's x and y exceed the budget: split (cut such parts in halves: more blocks, same cap), readonly (x through the read-only cache, only y in shared memory) or auto (readonly if that fits, else split)")
	fl.StringVar(&f.precision, "precision", "fp64", "value type the budget is checked for: fp64 or fp32 (an fp64 plan also fits fp32)")
}

func (f *planFlags) options(blockSize int) (schedule.Options, error) {
	budget, err := bytesIn("smem-budget", f.budget, minBudget, schedule.MaxBudget, minBudgetWhy+"; 227KiB is the most a Hopper block can have")
	if err != nil {
		return schedule.Options{}, err
	}
	policy, err := schedule.ParseOverflow(f.overflow)
	if err != nil {
		return schedule.Options{}, usagef("--overflow: %v", err)
	}
	prec, err := precision.Parse(f.precision)
	if err != nil {
		return schedule.Options{}, usagef("--precision: %v", err)
	}
	return schedule.Options{BlockSize: blockSize, Budget: int(budget), ValueBytes: prec.Bytes(), Overflow: policy}, nil
}

// minBudget is the smallest --smem-budget: 64 fp64 x-and-y pairs. A part
// whose plan exceeds the budget is split in halves, and every block keeps
// its B threads: in the worst case (every task a row and a column of its
// own) a budget of b bytes leaves b/16 tasks per block, and the schedule's
// arrays grow by B/(b/16) over the nonzeros. 16 bytes left one task per
// block of 1024 threads (a 2 GB schedule for 500K nonzeros); from 1 KiB the
// growth is at most 16x, and every GPU has at least 16 KiB per block.
const minBudget = 1 << 10

const minBudgetWhy = "below 1KiB a block that does not fit is split into blocks of a few tasks, each padded to the block size"

func newScheduleCmd(env environment) *cobra.Command {
	var in inputFlags
	var pf partFlags
	var plan planFlags
	var method, out, npyDir, textOut string
	var cf cacheFlags
	var clearCache bool
	c := &cobra.Command{
		Use:   "schedule IN",
		Short: "Build the locality schedule of a matrix: newSchedule, reordered data, shared-memory plan",
		Long: `Partition the nonzeros of IN into thread-block-sized parts (as 'spac partition'
does) and turn the partition into what a GPU kernel consumes: the job-swapping
array newSchedule (thread id -> nonzero, -1 for idle threads), the nonzeros in
schedule order, and per block the sorted unique x and y elements with every
nonzero's shared-memory addresses. Print a summary, with the predicted
global-memory traffic of the plain kernel and of the scheduled one.

Outputs: -o writes the binary schedule file (checksummed; 'spac inspect'
reads it), --npy a directory of NumPy .npy arrays plus meta.json, --text a
plain text listing (for small cases).

Built schedules are cached under --cache-dir ($SPAC_CACHE_DIR, else the user
cache directory, ~/.cache/spac/schedules), keyed by the matrix structure and
every parameter; the next run on the same matrix skips the partitioner. The
cache holds at most --cache-max-size ($SPAC_CACHE_MAX_SIZE, else 2GiB): after
each store the schedules used least recently (stored or found) are removed.
--no-cache neither reads nor writes the cache; --clear-cache empties it
first (alone, without IN, it only empties it).

` + genInputs + ` It is generated with --seed.`,
		Example: `  spac schedule cant.mtx --block-size 256 -o cant.sched
  spac schedule bcsstk13.mtx.gz -b 1024 --npy bcsstk13.npy --text bcsstk13.txt
  spac schedule web.mtx -b 512 --smem-budget 16KiB --overflow split -o web.sched
  spac schedule --clear-cache`,
		Args: func(c *cobra.Command, args []string) error {
			if clearCache && len(args) == 0 {
				return nil
			}
			return oneInput(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			if err := cf.check(); err != nil {
				return err
			}
			if clearCache {
				if err := cf.clear(c.ErrOrStderr()); err != nil {
					return err
				}
				if len(args) == 0 {
					return nil
				}
			}
			if pf.given("parts") {
				return usagef("schedule takes --block-size (threads per block), not --parts: a block runs one part")
			}
			pc, err := pf.config(method)
			if err != nil {
				return err
			}
			sopts, err := plan.options(pf.blockSizeOrDefault())
			if err != nil {
				return err
			}
			if err := checkOutputs(c, "output", "text"); err != nil {
				return err
			}
			if err := checkOutputDir(c, "npy", schedule.CheckNPYDir); err != nil {
				return err
			}
			in.genSeed = pf.seed
			data, err := in.load(c.Context(), args[0])
			if err != nil {
				return err
			}
			if _, err := pf.options(data.Graph.NumEdges()); err != nil {
				return err
			}
			prog := in.progress()
			prog.Printf("%s", data.Describe())
			s, prov, err := pipeline.Schedule(c.Context(), data, pc, sopts, cf.open(c.ErrOrStderr()), prog)
			if err != nil {
				return err
			}

			w := c.OutOrStdout()
			if out == output.Stdout || textOut == output.Stdout {
				w = c.ErrOrStderr() // standard output carries the schedule
			}
			fmt.Fprintf(w, "input            %s\n", data.Matrix.Name)
			printScheduleSummary(w, s)
			if prov.Cached {
				fmt.Fprintf(w, "partition time   cached (%s)\n", prov.CacheDir)
			} else {
				part, build := prov.Metrics.Time.Seconds(), prov.BuildTime.Seconds()
				fmt.Fprintf(w, "partition time   %.3f s (%s)\n", part, method)
				fmt.Fprintf(w, "build time       %.3f s (%.1f%% of the partition)\n", build, 100*build/max(part, 1e-9))
			}
			if out != "" {
				var size int64
				if err := output.Write(c.Context(), out, c.OutOrStdout(), func(w io.Writer) (err error) { size, err = s.WriteTo(w); return err }); err != nil {
					return err
				}
				fmt.Fprintf(w, "schedule file    %s (%d bytes)\n", out, size)
			}
			if npyDir != "" {
				if err := schedule.ExportNPY(npyDir, s); err != nil {
					return err
				}
				fmt.Fprintf(w, "npy arrays       %s/\n", strings.TrimSuffix(npyDir, "/"))
			}
			if textOut != "" {
				if err := output.Write(c.Context(), textOut, c.OutOrStdout(), func(w io.Writer) error { return schedule.WriteText(w, s) }); err != nil {
					return err
				}
				fmt.Fprintf(w, "text listing     %s\n", textOut)
			}
			return nil
		},
	}
	in.register(c)
	pf.register(c)
	pf.maxBlock, pf.blockWhy = spmv.MaxBlockSize, "tasks of a block: the kernels of a thread a task run up to 1024, spac-d16 up to 16384"
	c.Flags().Lookup("block-size").Usage = "tasks per block B, 1 to 16384: parts of at most B nonzeros; the kernels of a thread a task run B up to 1024, spac-d16 multiples of 256 up to 16384, a part above 1024 as thread blocks of 1024 tasks (default 1024)"
	plan.register(c)
	c.Flags().StringVarP(&method, "method", "m", "spac", "partitioning method (see 'spac partition --help')")
	c.Flags().StringVarP(&out, "output", "o", "", "write the binary schedule file here")
	c.Flags().StringVar(&npyDir, "npy", "", "write the arrays as NumPy .npy files (and meta.json) into this directory")
	c.Flags().StringVar(&textOut, "text", "", "write a plain text listing of the schedule here (for small cases)")
	cf.register(c, env)
	c.Flags().BoolVar(&clearCache, "clear-cache", false, "empty the schedule cache first; without IN, only that")
	return c
}

// printScheduleSummary prints what a schedule holds, its shared-memory
// demand and its predicted traffic, one "key value" line each.
func printScheduleSummary(w io.Writer, s *schedule.Schedule) {
	nb := s.NumBlocks()
	idle := nb*s.BlockSize - s.NNZ
	fmt.Fprintf(w, "matrix           %d x %d, %d nonzeros, fingerprint %016x\n", s.NRows, s.NCols, s.NNZ, s.Fingerprint)
	var kv []string
	for _, p := range s.Params {
		kv = append(kv, p.Key+"="+p.Value)
	}
	fmt.Fprintf(w, "parameters       %s\n", strings.Join(kv, " "))
	fmt.Fprintf(w, "blocks           %d of %d tasks (%d parts, %d added by splitting), %d idle slots\n", nb, s.BlockSize, s.Parts, s.SplitBlocks, idle)
	tasks, ux, uy := make([]int32, nb), make([]int32, nb), make([]int32, nb)
	for b := range nb {
		tasks[b], ux[b], uy[b] = int32(s.Tasks(b)), int32(s.UniqueX(b)), int32(s.UniqueY(b))
	}
	shared := 0
	for _, f := range s.YShared {
		shared += int(f)
	}
	fmt.Fprintf(w, "tasks per block  %s\n", spread(tasks))
	if s.XReadOnly() {
		fmt.Fprintf(w, "unique x         read-only cache (not staged)\n")
	} else {
		fmt.Fprintf(w, "unique x         %d in all; per block %s\n", len(s.XUnique), spread(ux))
	}
	fmt.Fprintf(w, "unique y         %d in all (%d shared rows: atomic flush, %d owned: plain store); per block %s\n", len(s.YUnique), shared, len(s.YUnique)-shared, spread(uy))
	where := "x and y in shared memory"
	if s.XReadOnly() {
		where = "y in shared memory, x through the read-only cache"
	}
	fmt.Fprintf(w, "shared memory    %d bytes fp64, %d bytes fp32 in the largest block (%s)\n", s.MaxSharedBytes(8), s.MaxSharedBytes(4), where)
	fmt.Fprintf(w, "overflow         budget %d bytes for fp%d, policy %s, applied %s\n", s.Budget, 8*s.ValueBytes, s.Policy, s.Applied)
	fmt.Fprintf(w, "local addresses  uint16\n")
	for _, vb := range []int{8, 4} {
		t := s.Traffic(vb)
		de, ds := t.Default.Total()
		oe, os := t.Optimized.Total()
		fmt.Fprintf(w, "traffic fp%d     default %d elements %d sectors; schedule %d elements %d sectors; ratio %.3f elements %.3f sectors\n",
			8*vb, de, ds, oe, os, t.ElementRatio(), t.SectorRatio())
	}
}

// spread summarizes per-block counts: min, mean, max.
func spread(a []int32) string {
	if len(a) == 0 {
		return "-"
	}
	lo, hi, sum := a[0], a[0], int64(0)
	for _, v := range a {
		lo, hi = min(lo, v), max(hi, v)
		sum += int64(v)
	}
	return fmt.Sprintf("min %d, mean %.1f, max %d", lo, float64(sum)/float64(len(a)), hi)
}
