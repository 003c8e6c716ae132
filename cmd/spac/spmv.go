package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// spmvFlags are the flags of the spmv command.
type spmvFlags struct {
	in         inputFlags
	pf         partFlags
	kernels    string
	schedules  string
	blockSizes string
	precisions string
	iters      int
	warmup     int
	cpuIters   int
	useGPU     bool
	device     int
	format     outputFormat
	report     string
	merge      []string
	title      string
	reportL2   string
	budget     string
	overflow   string
	cache      cacheFlags
	genScale   float64
	timeBudget float64
	reorders   string
	reorderB   int
	renumber   string
}

func spmvCommand(env environment) *cobra.Command {
	var f spmvFlags
	c := &cobra.Command{
		Use:   "spmv IN... [--gpu]",
		Short: "Run y = A x with every kernel (CPU reference, SPAC schedule, GPU kernels, cuSPARSE), check and time them",
		Long: `Multiply each input matrix by a random x and print one table per input: every
kernel, the schedule it ran (the partitioning method), the block size, the
median time of one product, GB/s under the minimum-traffic model (values,
int32 column indices, row offsets, x and y once), that as a fraction of the
device-to-device copy bandwidth measured in the same run, the speedup over
cuSPARSE's best path of all (whichever of its formats and algorithms was
fastest on this input and precision), the bytes per nonzero the kernel
reads of its matrix format, and the largest error against a float64 CPU
reference (row error |y_i - ref_i| / sum_j |a_ij x_j|).

Without --gpu, or in a binary built without CUDA support, only the CPU rows
run: the reference CSR product and the SPAC schedule's CPU executor (the
GPU kernel's exact semantics); the table says why no GPU ran. With --gpu in
a binary without CUDA support the command says how to build one and exits
with status 1 after the table.

GPU kernels (--kernels): csr-scalar (a thread per row), csr-vector (a warp
per row), coo-atomic (a thread per nonzero, atomics), csr-d16 (CSR's
entries eight a thread, each column a 16-bit offset from its block's,
rows from a bit per entry: a quarter fewer bytes than CSR where the order
keeps a block's columns close, as SPAC's order does, and 24-bit columns
in the scattered blocks of a matrix whose blocks mostly are; block sizes
256, 512, 768, 1024), csr-d16-hot (csr-d16 with the columns numbered by
degree, the highest first, and x gathered into that order each product:
for power-law matrices without locality, such as R-MAT), csr-d16-rcm
(csr-d16 on the square matrix renumbered by reverse Cuthill-McKee, x
moved into and y out of that order each product: for a matrix given in
an order without locality),
spac-smem (the SPAC
schedule, x and y in shared memory), spac-ldg (x through the read-only
cache, y in shared memory), spac-smem-x4 and spac-ldg-x4 (four tasks per
thread), spac-seg (four tasks per thread, a value and a uint16 x address
per task, rows precomputed, one segmented reduction per block; block sizes
that are multiples of 128), spac-seg-ldg (the same with x through the
read-only cache) and spac-seg8 (eight tasks per thread, a value and one
uint16 per task that holds the x address and whether the task starts a
row: no descriptor; block sizes that are multiples of 256), with its
variants spac-seg8-lb (registers capped for more resident blocks),
spac-seg8-pf (each block prefetches a later block's slots into the L2)
and spac-seg8-lbpf (both), spac-d16 (csr-d16's format over the SPAC
schedule: a thread block per part, its rows stored through the
schedule's row list, nothing staged; block sizes: multiples of 256 up to
16384, a part of more than 1024 tasks run as blocks of 1024), spac-d16-own
(spac-d16 with each row the parts share made whole in the part holding
most of it: no atomics, nothing cleared), spac-d16-ord (csr-d16 on the
matrix numbered part by part in the schedule's order, x gathered into it
and y gathered back each product: for inputs in an order without
locality), spac-d16-hot (spac-d16-ord with the columns grouped by degree,
the highest first: for power-law inputs);
cuSPARSE: cusparse-csr (default algorithm),
cusparse-csr-alg2, cusparse-coo, cusparse-sell (sliced ELL, 32 rows a
slice) and cusparse-bsr (the block size of 2 to 8 that stores the fewest
bytes), the last two where their padding stays under 3x the nonzeros.
Timings are CUDA events after --warmup untimed runs, median of --iters.

Schedules (--method: one or more partitioning methods) are partitioned as
'spac schedule' does, one per method and block size, and cached the same
way ($SPAC_CACHE_DIR): 'spac schedule IN -b B' (gen: inputs too) builds
one ahead, on another machine's cores or in the background, for a later
'spac spmv IN -b B' to load. With --gpu and no kernel that runs a schedule
(--kernels of csr-*, coo-atomic and cusparse-* only), none is partitioned.

An input is a file (any format 'spac partition' reads; symmetric storage is
expanded: the product needs every entry) or gen:PRESET / gen:KIND:k=v,...
for a generated matrix ('spac gen --list'), optionally gen:PRESET@SCALE.

Rows go out as they are measured: --format csv writes each row when it is
measured (the header once), --format json writes JSON Lines (a line
{"type": "row", ...} per row as measured, and {"type": "result", ...} when
an input is done: device, copy bandwidth, notes); the table comes per
input. Progress lines on a terminal number the measurements ([12/40]).
cuSPARSE's paths run first in each precision, so every speedup is final
when its row is written. --budget F keeps a long run short: a GPU kernel
whose first 3 timed runs take more than F times the fastest correct kernel
of its precision so far keeps those 3 runs and a note instead of its full
--iters.

--renumber LIST renumbers each input by each order in turn before
anything else (random: a mesh or graph as it may come, without its
generator's locality; random,spac: such an input, then SPAC's order, so
that the SPAC kernels too run on renumbered data).
--reorder LIST also multiplies each input renumbered by each order
(none, rcm, nd, spac, random: see 'spac reorder --help'; spac partitions with
--reorder-block-size nonzeros per part) with the kernels that need no
schedule, cuSPARSE's included, as inputs named IN~ORDER: the locality a
renumbering gives any library's CSR kernel, next to the SPAC kernels.

--report DIR writes DIR/report.md (summary against the goals, every row),
DIR/speedup.svg and DIR/speedup.png (the best SPAC kernel's speedup over
cuSPARSE's best path, by input and precision) and DIR/results.csv; --merge adds rows of earlier
--format csv or json output (or results.csv files), and with no IN only renders.`,
		Example: `  spac spmv bcsstk13.mtx.gz                                   # CPU only
  spac spmv gen:cant --gpu --block-size 256,512,1024 --precision fp32,fp64
  spac spmv gen:circuit5M --gpu -b 1024,16384 --kernels spac-d16-own,csr-d16,cusparse-csr,cusparse-coo   # large parts
  spac spmv web.mtx --gpu --kernels spac-seg8,spac-seg,cusparse-csr,cusparse-coo --format csv --budget 3
  spac spmv gen:in-2004 --gpu -b 512 --reorder rcm,nd,spac
  spac spmv --merge a.csv --merge b.csv --report out/        # render a report`,
		RunE: func(c *cobra.Command, args []string) error { return runSpMVCmd(c, args, &f) },
	}
	f.in.register(c)
	f.pf.registerPerBlock(c)
	fl := c.Flags()
	fl.StringVar(&f.kernels, "kernels", "all", "kernels to run, comma-separated: all or "+kernelNames())
	fl.StringVarP(&f.schedules, "method", "m", "spac", "partitioning methods whose schedules the SPAC kernels run, comma-separated ("+strings.Join(spac.MethodNames(), ",")+")")
	deprecatedAlias(c, "methods", "kernels")
	deprecatedAlias(c, "schedules", "method")
	fl.StringVarP(&f.blockSizes, "block-size", "b", "1024", "tasks per block, comma-separated (multiples of 32, 32 to 16384): each gets its own SPAC schedule. Every kernel runs up to 1024 (a thread a task or row; four a thread for -x4 and spac-seg, eight for spac-seg8 and the d16 kernels); spac-d16 also parts of 1280 to 16384 tasks, as blocks of 1024 (larger parts share fewer rows); a kernel skips the sizes it does not run")
	fl.StringVar(&f.precisions, "precision", "fp64", "fp32, fp64, or both (fp32,fp64)")
	fl.IntVar(&f.iters, "iters", 50, "timed repetitions per kernel (the median is reported)")
	fl.IntVar(&f.warmup, "warmup", 5, "untimed runs before timing")
	fl.IntVar(&f.cpuIters, "cpu-iters", 3, "timed repetitions of the CPU rows (reference and schedule executor)")
	fl.BoolVar(&f.useGPU, "gpu", false, "run the GPU kernels (needs a binary built with 'make gpu' and an NVIDIA GPU)")
	fl.IntVar(&f.device, "device", 0, "GPU ordinal")
	registerFormat(c, &f.format, formatTable, formatCSV, formatJSON)
	fl.StringVar(&f.report, "report", "", "write report.md, speedup.svg, speedup.png and results.csv into this directory")
	fl.StringArrayVar(&f.merge, "merge", nil, "add the rows of this file (--format csv or json output, or a results.csv) to the report; repeatable")
	fl.StringVar(&f.title, "title", "", "title of the report")
	fl.StringVar(&f.reportL2, "report-l2", "", "L2 cache by which the report judges \"beyond L2\" (x and y together larger: the 1.2x goal), 1MiB to 1GiB (default: the device's when this run used one, else 50MiB, the H100's of issue 20)")
	fl.StringVar(&f.budget, "smem-budget", "48KiB", "shared memory a block of a schedule may use, 1KiB to 48KiB (the kernels do not opt into more)")
	fl.StringVar(&f.overflow, "overflow", "auto", "when a block's x and y exceed the budget: auto, split or readonly (see 'spac schedule --help')")
	f.cache.register(c, env)
	fl.Float64Var(&f.genScale, "gen-scale", 1, "gen: inputs: factor on the number of rows of a preset (as 'spac gen --scale')")
	fl.Float64Var(&f.timeBudget, "budget", 0, "skip the full timing of a GPU kernel whose first 3 runs take over this many times the fastest so far (0: time every kernel fully)")
	fl.StringVar(&f.reorders, "reorder", "", "also multiply each input renumbered by these orders, comma-separated: "+strings.Join(orderNames, ", ")+" (kernels without a schedule, as input IN~ORDER)")
	fl.StringVar(&f.renumber, "renumber", "", "renumber each input by these orders in turn before anything else, as input IN~ORDER~... (random: a mesh or graph without its generator's locality; "+strings.Join(orderNames, ", ")+")")
	fl.IntVar(&f.reorderB, "reorder-block-size", 1024, "--reorder spac: nonzeros per part of the partition the order numbers part by part")
	return c
}

func kernelNames() string {
	var names []string
	for _, k := range spmv.Kernels() {
		names = append(names, string(k))
	}
	return strings.Join(names, ",")
}

// spmvSetup is the parsed command line.
type spmvSetup struct {
	kernels    []spmv.Kernel
	names      []string
	blockSizes []int
	precisions []spmv.Precision
	sopts      schedule.Options
	orders     []string
	renumber   []string
	reportL2   int64 // --report-l2 in bytes; 0: the device's, else the H100's
}

func (f *spmvFlags) parse() (*spmvSetup, error) {
	var st spmvSetup
	var err error
	if st.kernels, err = spmv.ParseKernels(f.kernels); err != nil {
		return nil, usagef("--kernels: %v", err)
	}
	for _, name := range strings.Split(f.schedules, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, err := spac.Lookup(name); err != nil {
			return nil, usagef("--method: %v", err)
		}
		st.names = append(st.names, name)
	}
	for _, s := range strings.Split(f.blockSizes, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, usagef("--block-size %q: want numbers such as 256,512,1024", f.blockSizes)
		}
		if err := gpuBlockIn("block-size", b); err != nil {
			return nil, err
		}
		st.blockSizes = append(st.blockSizes, b)
	}
	if st.orders, err = parseOrders("reorder", f.reorders); err != nil {
		return nil, err
	}
	if st.renumber, err = parseOrders("renumber", f.renumber); err != nil {
		return nil, err
	}
	if st.precisions, err = precision.ParseList(f.precisions); err != nil {
		return nil, usagef("--precision: %v", err)
	}
	if err := firstErr(
		intIn("iters", f.iters, 1, maxCount, "timed repetitions"),
		intIn("warmup", f.warmup, 0, maxCount, "untimed runs"),
		intIn("cpu-iters", f.cpuIters, 1, maxCount, "timed repetitions"),
		intIn("device", f.device, 0, maxCount, "a GPU ordinal"),
		floatIn("gen-scale", f.genScale, 0, math.Inf(1), true, "a factor on a preset's rows"),
		floatIn("budget", f.timeBudget, 0, math.Inf(1), false, "a factor on the fastest time, 0 for none"),
		gpuBlockIn("reorder-block-size", f.reorderB),
	); err != nil {
		return nil, err
	}
	if f.in.asStored {
		return nil, usagef("spmv multiplies the whole matrix: --as-stored does not apply")
	}
	if f.in.model != "" && f.in.model != "spmv" {
		return nil, usagef("--model %s: spmv schedules use the spmv model (a vertex per row and per column)", f.in.model)
	}
	budget, err := bytesIn("smem-budget", f.budget, minBudget, schedule.DefaultBudget, minBudgetWhy+"; 48KiB is what a block gets without opting in")
	if err != nil {
		return nil, err
	}
	if f.reportL2 != "" {
		if st.reportL2, err = bytesIn("report-l2", f.reportL2, 1<<20, 1<<30, "a GPU's last-level cache"); err != nil {
			return nil, err
		}
	}
	policy, err := schedule.ParseOverflow(f.overflow)
	if err != nil {
		return nil, usagef("--overflow: %v", err)
	}
	// One schedule serves both precisions: an fp64 plan fits fp32.
	st.sopts = schedule.Options{Budget: int(budget), ValueBytes: 8, Overflow: policy}
	if err := firstErr(f.pf.validate(), f.cache.check()); err != nil {
		return nil, err
	}
	return &st, nil
}

func runSpMVCmd(c *cobra.Command, args []string, f *spmvFlags) error {
	if len(args) == 0 && len(f.merge) == 0 {
		return usagef("spmv takes one or more inputs (or --merge CSV --report DIR to render a report)\nsee '%s --help'", c.CommandPath())
	}
	if len(args) == 0 && f.report == "" {
		return usagef("--merge without inputs only renders a report: add --report DIR")
	}
	st, err := f.parse()
	if err != nil {
		return err
	}
	if err := checkOutputDir(c, "report", reportDir); err != nil {
		return err
	}
	prog := f.in.progress()
	var results []*spmv.Result
	var gpuErr error
	w := c.OutOrStdout()
	// Rows go out as they are measured (CSV rows, JSON Lines); the table
	// comes per input, once its rows are complete.
	csvHeader := true
	emit := func(r spmv.Row) error {
		switch f.format {
		case formatCSV:
			err := spmv.WriteCSV(w, []*spmv.Result{{Rows: []spmv.Row{r}}}, csvHeader)
			csvHeader = false
			return err
		case formatJSON:
			return spmv.WriteJSONRow(w, r)
		}
		return nil
	}
	for _, path := range args {
		res, err := spmvOne(c, path, f, st, prog, emit)
		if err != nil {
			return err
		}
		for _, r := range res {
			results = append(results, r)
			if r.GPUErr != nil && gpuErr == nil {
				gpuErr = r.GPUErr
			}
			switch f.format {
			case formatJSON:
				err = spmv.WriteJSONResult(w, r)
			case formatTable:
				if len(results) > 1 {
					fmt.Fprintln(w)
				}
				err = spmv.WriteTable(w, []*spmv.Result{r})
			}
			if err != nil {
				return err
			}
		}
	}
	if f.report != "" {
		if err := writeSpMVReport(c.Context(), f, st.reportL2, results, c.ErrOrStderr()); err != nil {
			return err
		}
	}
	var wrong []string
	for _, res := range results {
		for _, r := range res.Failed() {
			wrong = append(wrong, fmt.Sprintf("%s %s %s (%s, B=%d): max rel error %.2g", res.Input, r.Precision, r.Kernel, r.Schedule, r.BlockSize, r.MaxRelErr))
		}
	}
	if len(wrong) > 0 {
		return fmt.Errorf("%d kernel results disagree with the CPU reference:\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
	if gpuErr != nil {
		return fmt.Errorf("--gpu: %w", gpuErr)
	}
	return nil
}

// spmvOne loads one input, builds its schedules on demand and measures it,
// then measures it renumbered by each order of --reorder; every row goes
// to emit as it is measured.
func spmvOne(c *cobra.Command, path string, f *spmvFlags, st *spmvSetup, prog *progress.Reporter, emit func(spmv.Row) error) ([]*spmv.Result, error) {
	ctx := c.Context()
	start := time.Now()
	in, err := f.in.readSpMV(ctx, path, f.pf.seed, f.genScale)
	if err != nil {
		return nil, err
	}
	m, used := in.Matrix, in.Used
	prog.Printf("%s: %d x %d, %d entries to multiply (read in %.1f s)", m.Name, m.NRows, m.NCols, used.NNZ(), time.Since(start).Seconds())
	rf := reorderFlags{pf: f.pf, blockSize: f.reorderB, cache: f.cache}
	label := inputLabel(path, m)
	for _, o := range st.renumber {
		rows, cols, err := rf.orderOf(ctx, in, o, prog, c.ErrOrStderr())
		if err != nil {
			return nil, fmt.Errorf("%s, --renumber %s: %w", label, o, err)
		}
		used = permuted(used, rows, cols)
		in = &pipeline.Input{Matrix: used, Used: used, Model: in.Model, Generated: in.Generated}
		label += "~" + o
	}
	cache := f.cache.open(c.ErrOrStderr())
	schedFn := func(ctx context.Context, method string, b int) (*schedule.Schedule, error) {
		pc, err := f.pf.config(method)
		if err != nil {
			return nil, err
		}
		sopts := st.sopts
		sopts.BlockSize = b
		s, _, err := pipeline.Schedule(ctx, in, pc, sopts, cache, prog)
		return s, err
	}
	inputSeconds := time.Since(start).Seconds()
	cfg := spmv.SpMVConfig{
		Input: label, Matrix: used, Precisions: st.precisions, BlockSizes: st.blockSizes,
		Kernels: st.kernels, Methods: st.names, Schedule: schedFn, GPU: f.useGPU, Device: f.device,
		Warmup: f.warmup, Iters: f.iters, CPUIters: f.cpuIters, Seed: f.pf.seed, Progress: prog.Writer(),
		Emit: emit, Budget: f.timeBudget,
	}
	t0 := time.Now()
	res, err := spmv.RunSpMV(ctx, cfg)
	if err != nil {
		return nil, err
	}
	res.InputSeconds, res.WallSeconds = inputSeconds, time.Since(t0).Seconds()
	out := []*spmv.Result{res}
	if len(st.orders) == 0 {
		return out, nil
	}
	// The renumbered inputs: the kernels that need no schedule, cuSPARSE's
	// among them, on the matrix as a library would get it.
	cfg.Kernels = slices.DeleteFunc(slices.Clone(st.kernels), spmv.Kernel.UsesSchedule)
	cfg.Schedule, cfg.Methods = nil, nil
	for _, o := range st.orders {
		t0 := time.Now()
		rows, cols, err := rf.orderOf(ctx, in, o, prog, c.ErrOrStderr())
		if err != nil {
			return nil, fmt.Errorf("%s, --reorder %s: %w", label, o, err)
		}
		cfg.Input, cfg.Matrix = label+"~"+o, permuted(used, rows, cols)
		orderSeconds := time.Since(t0).Seconds()
		prog.Printf("%s: %s order in %.1f s", label, o, orderSeconds)
		t0 = time.Now()
		r, err := spmv.RunSpMV(ctx, cfg)
		if err != nil {
			return nil, err
		}
		r.InputSeconds, r.WallSeconds = orderSeconds, time.Since(t0).Seconds()
		out = append(out, r)
	}
	return out, nil
}

// inputLabel names an input of readSpMV in tables: a generated
// matrix by its name, a file by its base name without .gz.
func inputLabel(path string, m *matrices.COO) string {
	if strings.HasPrefix(path, "gen:") {
		return m.Name
	}
	return strings.TrimSuffix(filepath.Base(path), ".gz")
}

// dedupeRows keeps the first row of each input, precision, kernel,
// schedule and block size: runs of one input split by block size repeat the
// rows that do not depend on it (the CPU reference).
func dedupeRows(rows []spmv.Row) []spmv.Row {
	seen := map[string]bool{}
	out := rows[:0:0]
	for _, r := range rows {
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", r.Input, r.Precision, r.Kernel, r.Schedule, r.BlockSize)
		if !seen[key] {
			seen[key] = true
			out = append(out, r)
		}
	}
	return out
}

// writeSpMVReport writes report.md, speedup.svg, speedup.png and
// results.csv into the report directory (output.WriteFiles: all complete
// before any is put in place; other files there stay): this run's rows and
// those of --merge.
func writeSpMVReport(ctx context.Context, f *spmvFlags, l2Bytes int64, results []*spmv.Result, warn io.Writer) error {
	var rows []spmv.Row
	for _, path := range f.merge {
		fh, err := os.Open(path)
		if err != nil {
			return err
		}
		more, err := spmv.ReadRows(fh)
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rows = append(rows, more...)
	}
	meta := spmv.ReportMeta{Title: f.title, Plot: "speedup"}
	for _, res := range results {
		rows = append(rows, res.Rows...)
	}
	rows = dedupeRows(rows)
	spmv.Speedups(rows)
	for _, res := range results {
		if res.GPURan && meta.Device == "" {
			meta.Device, meta.CopyGBps, meta.L2Bytes = res.GPU, res.CopyGBps, res.L2Bytes
		}
	}
	if l2Bytes > 0 {
		meta.L2Bytes = l2Bytes
	}
	if meta.CopyGBps == 0 {
		for _, r := range rows {
			if r.CopyFraction > 0 {
				meta.CopyGBps = r.GBps / r.CopyFraction
				break
			}
		}
	}
	merged := []*spmv.Result{{Rows: rows}}
	fig, err := spmv.SpeedupFigure(rows)
	if err != nil {
		return err
	}
	files := []output.File{{Name: "results.csv", Fill: func(w io.Writer) error { return spmv.WriteCSV(w, merged, true) }}}
	files = append(files, fig.Files(meta.Plot)...)
	files = append(files, output.File{Name: "report.md", Fill: func(w io.Writer) error { return spmv.WriteReport(w, rows, meta) }})
	if err := output.WriteFiles(ctx, f.report, files); err != nil {
		return err
	}
	fmt.Fprintf(warn, "wrote %s/%s (%d rows)\n", strings.TrimSuffix(f.report, "/"), fileList(files), len(rows))
	return nil
}
