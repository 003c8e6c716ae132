package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spac-gpu/spac/apps/cg"
	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
)

// cgFlags are the flags of the cg command.
type cgFlags struct {
	in         inputFlags
	pf         partFlags
	useGPU     bool
	device     int
	adapt      bool
	sched      string
	tol        float64
	maxIters   int
	precision  string
	blockSize  int
	rhs        string
	format     outputFormat
	defKernel  string
	spacKernel string
	probeOps   string
	adaptStart string
	background string
	nice       int
	delay      time.Duration
	timeAll    bool
	scheduleTo string
	probe      int
	repeat     int
	runs       int
	cache      cacheFlags
	history    bool
	genScale   float64
}

func cgCommand(env environment) *cobra.Command {
	var f cgFlags
	c := &cobra.Command{
		Use:   "cg IN [--gpu] [--adapt | --schedule MODE[,MODE...]] [--runs N]",
		Short: "Solve A x = b for an SPD matrix with conjugate gradient, SPAC-adapt overlapping the partitioner with the solve",
		Long: `Solve A x = b (b = A 1 unless --rhs gives it) from x = 0 with conjugate
gradient (Hestenes-Stiefel) until ||r|| / ||b|| <= --tol or --max-iters, and
print: why it stopped, iterations, the final residual (recursive, and the
true ||b - A x|| / ||b||), total time, time in the products, mean time of an
iteration before and after the switch to the SPAC kernel, the iteration of
the switch, and the partitioner's own time. --history prints the residual
after every iteration (and puts the history in the JSON, which otherwise
carries the summary). A solve that does not converge exits with status 1
after its report, saying how far it got.

Schedules (the SpMV of every iteration; --schedule takes a comma-separated
list too, solved in turn in every run, with one report per mode):
  default   --default-kernel (coo-atomic: contiguous chunks of nonzeros in
            row order, the paper's default schedule)
  spac      --spac-kernel on the SPAC schedule, partitioned before the
            solve starts (its time is reported, not counted in the total)
  cusparse  cuSPARSE's CSR SpMV (the library baseline; --gpu)
  --adapt   SPAC-adapt: starts at once with cuSPARSE's CSR SpMV on the GPU
            (--adapt-start default: with --default-kernel, as the paper
            does; cuSPARSE is the default because it is what a user would
            run otherwise, and it needs no trial to be known fast; without
            cuSPARSE, and on the CPU, the default kernel), and tries the
            kernels of --adapt-probe for 1 + --probe iterations each, keeping
            the fastest. Meanwhile the SPAC schedule is partitioned and
            planned in the background, from --adapt-delay into the solve
            on (a solve that ends sooner never pays for starting it): in a
            child process (this binary, at
            nice --background-nice, killed when the solve ends first) or
            with --background goroutine in this process, where the
            partitioner's garbage collection and threads slow the solver's
            host thread. The schedule is uploaded on a second stream,
            tried from the next iteration boundary on for 1 + --probe
            iterations, the kernel it would replace is timed again for
            --probe more, and the faster one stays. A schedule in the cache
            ($SPAC_CACHE_DIR) from an earlier run of the command is used
            from the first iteration.

Products are timed with CUDA events only while the tuner needs them (the
first 1 + --probe products of every kernel, and --probe more of the kernel
a schedule arriving later is compared with): the SpMV time is theirs,
with how many were measured; the estimate for all products counts the
others at their kernel's median (on the GPU it can exceed the total: a
timed product runs alone, the others back to back). --time-all times every
product (exact SpMV times, a few microseconds more per iteration).

On the GPU the device applies the stop rule itself, so the host queues
iterations ahead of reading their residuals: one by one for a solve's first
512 iterations, then as CUDA graphs of 4, 8 and 16 iterations (one launch
each instead of four per iteration). When a solve stops, the products of
the iterations already queued still run (at most 1/64 of the iterations
it ran); nothing else of them does.

Without --gpu the CPU runs the same iteration (cpu-csr for the default,
the schedule executor for SPAC) in the same arithmetic. A matrix that is not
symmetric or has a non-positive diagonal is refused; one that is not
positive definite stops with a breakdown (p.Ap <= 0).

--repeat N runs N products y = A x instead of a solve, with the same kernel
choice and overlap: the SpMV benchmark of SPAC-adapt. Untimed products are
queued without waiting for each other.`,
		Example: `  spac cg bcsstk13.mtx.gz                                  # CPU, default schedule
  spac cg bcsstk13.mtx.gz --gpu --adapt --tol 1e-10
  spac cg gen:stencil2d-1000@0.25 --gpu --schedule cusparse --format json
  spac cg gen:cant --gpu --adapt --repeat 1000`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error { return runCG(c, args[0], &f) },
	}
	f.in.register(c)
	f.pf.registerPerBlock(c)
	fl := c.Flags()
	fl.BoolVar(&f.useGPU, "gpu", false, "solve on the GPU (needs a binary built with 'make gpu' and an NVIDIA GPU)")
	fl.IntVar(&f.device, "device", 0, "GPU ordinal")
	fl.BoolVar(&f.adapt, "adapt", false, "SPAC-adapt: start with cuSPARSE (--adapt-start), partition in the background, switch when the schedule is ready and faster")
	fl.StringVar(&f.sched, "schedule", "default", "SpMV of every iteration: default, spac, cusparse or adapt (= --adapt); a comma-separated list solves with each in turn, every run, and prints one report per mode (ignored with --adapt)")
	fl.Float64Var(&f.tol, "tol", 1e-8, "stop when ||r|| / ||b|| <= tol")
	fl.IntVar(&f.maxIters, "max-iters", 20000, "stop after this many iterations")
	fl.StringVar(&f.precision, "precision", "fp64", "fp32 or fp64 (vectors and values; dot products accumulate in fp64)")
	fl.IntVarP(&f.blockSize, "block-size", "b", 256, "threads per block of the kernels, and tasks per block of the SPAC schedule")
	fl.StringVar(&f.rhs, "rhs", "", "right-hand side file (Matrix Market array or one value per line); default b = A 1")
	registerFormat(c, &f.format, formatTable, formatCSV, formatJSON)
	fl.StringVar(&f.defKernel, "default-kernel", string(spmv.COOAtomic), "kernel of the default schedule on the GPU: csr-scalar, csr-vector or coo-atomic")
	fl.StringVar(&f.spacKernel, "spac-kernel", string(spmv.SPACReadOnlyX4), "kernel that runs the SPAC schedule on the GPU: spac-smem, spac-ldg, spac-smem-x4 or spac-ldg-x4")
	fl.StringVar(&f.adaptStart, "adapt-start", "cusparse", "--adapt on the GPU: kernel to start with: cusparse (cuSPARSE's CSR, else the default kernel) or default (--default-kernel, the paper's start)")
	fl.StringVar(&f.probeOps, "adapt-probe", "none", "--adapt on the GPU: kernels without a schedule also tried at the start, comma-separated, or none")
	fl.StringVar(&f.background, "background", "process", "--adapt: where the partitioner runs: process (a child process of this binary) or goroutine (in this process)")
	fl.DurationVar(&f.delay, "adapt-delay", 10*time.Millisecond, "--adapt: how long the solve runs before the partitioner starts (a solve that ends sooner never pays for starting it; 0: at once)")
	fl.IntVar(&f.nice, "background-nice", 19, "--adapt --background process: nice value of the partitioner's process (0 to 19; 0: the solver's)")
	fl.BoolVar(&f.timeAll, "time-all", false, "time every product with CUDA events (by default only the products the tuner compares)")
	fl.StringVar(&f.scheduleTo, "schedule-to", "", "compute the SPAC schedule, write it to this file and exit (SPAC-adapt's child process)")
	if err := fl.MarkHidden("schedule-to"); err != nil {
		panic(err)
	}
	fl.IntVar(&f.probe, "probe", cg.DefaultProbe, "scored iterations a kernel runs (after one unscored) before SPAC-adapt compares its product time with the others'")
	fl.IntVar(&f.repeat, "repeat", 0, "run this many products y = A x instead of solving")
	fl.IntVar(&f.runs, "runs", 1, "solve (or --repeat) this many times in this process and report the run with the median total (min and max beside it); with more than one the schedule cache is off, so that SPAC-adapt partitions afresh in every run (the spac mode partitions once, before the first)")
	f.cache.register(c, env)
	fl.BoolVar(&f.history, "history", false, "print the residual after every iteration (table), or add it to the JSON")
	fl.Float64Var(&f.genScale, "gen-scale", 1, "gen: inputs: factor on the number of rows of a preset (as 'spac gen --scale')")
	return c
}

// cgSetup is the parsed command line.
type cgSetup struct {
	prec       spmv.Precision
	defKernel  spmv.Kernel
	spacKernel spmv.Kernel
	probeOps   []spmv.Kernel
	sopts      schedule.Options
	modes      []string // default, spac, cusparse, adapt: solved in turn
}

func (f *cgFlags) parse() (*cgSetup, error) {
	var st cgSetup
	var err error
	if st.prec, err = precision.Parse(f.precision); err != nil {
		return nil, usagef("--precision: %v", err)
	}
	st.modes = []string{"adapt"}
	if !f.adapt {
		st.modes = strings.Split(f.sched, ",")
	}
	for i, name := range st.modes {
		m, err := cgModeNames.Parse(name)
		if err != nil {
			return nil, usagef("--schedule: %v, or a comma-separated list of them", err)
		}
		mode := m.String()
		st.modes[i] = mode
		switch {
		case slices.Contains(st.modes[:i], mode):
			return nil, usagef("--schedule %q: %s twice", f.sched, mode)
		case mode == "cusparse" && !f.useGPU:
			return nil, usagef("--schedule cusparse runs on the GPU: add --gpu")
		}
	}
	if err := firstErr(
		intIn("runs", f.runs, 1, maxCount, "solves in this process"),
		gpuThreadsIn("block-size", f.blockSize),
		floatIn("tol", f.tol, 0, 1, false, "||r|| / ||b|| to stop at; 1 stops before the first iteration"),
		intIn("max-iters", f.maxIters, 1, maxCount, "iterations"),
		intIn("repeat", f.repeat, 0, maxCount, "products; 0 solves"),
		intIn("probe", f.probe, 1, 1<<10, "scored iterations per kernel"),
		intIn("device", f.device, 0, maxCount, "a GPU ordinal"),
		durationIn("adapt-delay", f.delay, 0, time.Hour, "0 starts the partitioner at once"),
		intIn("background-nice", f.nice, 0, 19, "0: the solver's priority"),
		floatIn("gen-scale", f.genScale, 0, math.Inf(1), true, "a factor on a preset's rows"),
	); err != nil {
		return nil, err
	}
	if f.runs > 1 {
		// SPAC-adapt partitions afresh in every run: a later run would find
		// the first one's schedule in the cache.
		f.cache.noCache = true
	}
	st.defKernel = spmv.Kernel(f.defKernel)
	if st.defKernel != spmv.CSRScalar && st.defKernel != spmv.CSRVector && st.defKernel != spmv.COOAtomic {
		return nil, usagef("--default-kernel %q: want csr-scalar, csr-vector or coo-atomic", f.defKernel)
	}
	st.spacKernel = spmv.Kernel(f.spacKernel)
	if !st.spacKernel.UsesSchedule() {
		return nil, usagef("--spac-kernel %q: want spac-smem, spac-ldg, spac-smem-x4 or spac-ldg-x4", f.spacKernel)
	}
	if f.probeOps != "none" && f.probeOps != "" {
		ks, err := spmv.ParseKernels(f.probeOps)
		if err != nil {
			return nil, usagef("--adapt-probe: %v", err)
		}
		for _, k := range ks {
			if k.UsesSchedule() {
				return nil, usagef("--adapt-probe %s: a SPAC kernel comes with the schedule (--spac-kernel)", k)
			}
			st.probeOps = append(st.probeOps, k)
		}
	}
	if f.adaptStart, err = adaptStarts.Parse(f.adaptStart); err != nil {
		return nil, usageError{err}
	}
	if f.background, err = backgrounds.Parse(f.background); err != nil {
		return nil, usageError{err}
	}
	if f.in.asStored {
		return nil, usagef("cg multiplies the whole matrix: --as-stored does not apply")
	}
	if err := firstErr(f.pf.validate(), f.cache.check()); err != nil {
		return nil, err
	}
	if f.useGPU && !gpu.Built {
		return nil, fmt.Errorf("--gpu: %w", gpu.ErrNoCUDA)
	}
	// One schedule for the precision the solve runs in.
	st.sopts = schedule.Options{BlockSize: f.blockSize, ValueBytes: st.prec.Bytes(), Overflow: schedule.Auto}
	return &st, nil
}

// cgReport is what the command prints, in every format.
type cgReport struct {
	Input        string  `json:"input"`
	Rows         int     `json:"rows"`
	NNZ          int     `json:"nnz"`
	Precision    string  `json:"precision"`
	Engine       string  `json:"engine"` // the device, or cpu
	Mode         string  `json:"mode"`   // default, spac, cusparse, adapt
	TrueResidual float64 `json:"true_residual"`
	Partition    string  `json:"partition"` // how the schedule came: computed, cached, background, none
	PartitionNS  int64   `json:"partition_ns"`
	// Runs solves ran (--runs); Result is the one with the median total.
	Runs       int   `json:"runs"`
	MinTotalNS int64 `json:"min_total_ns"`
	MaxTotalNS int64 `json:"max_total_ns"`
	// MedianIterationNS is the median over the runs of total / iterations:
	// where the iteration count varies from run to run (an ill-conditioned
	// matrix, where the summation order decides), the median total mixes
	// counts, and this compares the modes' speed.
	MedianIterationNS int64 `json:"median_iteration_ns"`
	// The spread of total / iterations over the runs: a difference between
	// modes within it is not settled by one process (scripts/cg-bench.sh
	// pairs runs for that).
	MinIterationNS int64      `json:"min_iteration_ns"`
	MaxIterationNS int64      `json:"max_iteration_ns"`
	Result         *cg.Result `json:"result"`
}

func runCG(c *cobra.Command, path string, f *cgFlags) error {
	st, err := f.parse()
	if err != nil {
		return err
	}
	if err := checkOutputs(c, "schedule-to"); err != nil {
		return err
	}
	prog := f.in.progress()
	data, err := f.in.readSpMV(c.Context(), path, f.pf.seed, f.genScale)
	if err != nil {
		return err
	}
	coo, used := data.Matrix, data.Used
	src, loadCached, err := cgScheduleSource(c, f, st, data, prog)
	if err != nil {
		return err
	}
	if f.scheduleTo != "" {
		// SPAC-adapt's child process (--background process): the schedule
		// alone, through the cache as in the parent.
		s, _, err := src(c.Context())
		if err != nil {
			return err
		}
		return schedule.WriteFile(f.scheduleTo, s)
	}
	m, err := spmv.NewMatrix(used)
	if err != nil {
		return err
	}
	if err := cg.Check(m); err != nil {
		return err
	}
	var b []float64
	if f.rhs != "" {
		fh, err := os.Open(f.rhs)
		if err != nil {
			return err
		}
		b, err = cg.ReadRHS(fh, m.NRows)
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.rhs, err)
		}
	} else {
		b = cg.Ones(m)
	}
	label := inputLabel(path, coo)
	rep := &cgReport{Input: label, Rows: m.NRows, NNZ: m.NNZ(), Precision: st.prec.String(), Engine: "cpu", Partition: "none"}
	prog.Printf("%s: %d x %d, %d entries, %s CG (%s)", label, m.NRows, m.NCols, m.NNZ(), st.prec, strings.Join(st.modes, ", "))

	var eng cg.Engine
	// kernelOp prepares a GPU kernel without a schedule (GPU only).
	var kernelOp func(k spmv.Kernel) (cg.Op, error)
	if f.useGPU {
		dev, err := gpu.Open(f.device)
		if err != nil {
			return err
		}
		defer dev.Close()
		rep.Engine = dev.Info().Name
		ge, err := cg.NewGPUEngine(dev, m, st.prec, st.spacKernel)
		if err != nil {
			return err
		}
		defer ge.Close()
		eng = ge
		kernelOp = func(k spmv.Kernel) (cg.Op, error) { return ge.Op(k, f.blockSize) }
	} else {
		eng = cg.NewCPUEngine(m, st.prec)
	}

	ms := &cgModes{c: c, path: path, f: f, st: st, eng: eng, kernelOp: kernelOp, src: src, load: loadCached, used: used, warn: c.ErrOrStderr()}
	// SPAC-adapt takes a schedule cached by an earlier command, not the
	// one the spac mode is about to store.
	if slices.Contains(st.modes, "adapt") {
		ms.cached, _ = loadCached()
	}
	ctx := c.Context()
	if err := ms.trialBeforePartition(ctx, b, label); err != nil {
		return err
	}
	reps := make([]*cgReport, len(st.modes))
	optsOf := make([]cg.Options, len(st.modes))
	for i, mode := range st.modes {
		r := *rep
		r.Mode = mode
		reps[i] = &r
		if optsOf[i], err = ms.options(&r); err != nil {
			return fmt.Errorf("%s (%s): %w", label, mode, err)
		}
	}
	var x []float64 // --repeat's input
	if f.repeat > 0 {
		x = make([]float64, m.NCols)
		for i := range x {
			x[i] = 1
		}
	}
	// Repeated runs in one process measure the solve without the noise of
	// a fresh process and GPU context each time (tens of percent on a
	// solve of a few milliseconds on the H100 machine); several modes run
	// in turn within each round, so that they share the machine's state,
	// in the orders of a balanced Latin square: over len(modes) rounds
	// every mode follows every other equally often (exactly for an even
	// count), so none always finds one other mode's data in the L2 cache.
	results := make([][]*cg.Result, len(st.modes))
	bar := prog.Count("runs", f.runs*len(st.modes))
	for run := range f.runs {
		for j := range st.modes {
			i := (run + latinStep(j, len(st.modes))) % len(st.modes)
			// The garbage of the set-up and of the last run is collected
			// now, in every mode alike, rather than during the timed run.
			runtime.GC()
			var res *cg.Result
			if f.repeat > 0 {
				res, err = cg.Repeat(ctx, eng, x, f.repeat, optsOf[i])
			} else {
				res, err = cg.Solve(ctx, eng, b, optsOf[i])
			}
			if err != nil {
				return fmt.Errorf("%s (%s): %w", label, st.modes[i], err)
			}
			results[i] = append(results[i], res)
			bar.Add(1)
		}
	}
	bar.Finish()
	var failed *cg.Result
	for i, rep := range reps {
		rs := results[i]
		slices.SortStableFunc(rs, func(a, b *cg.Result) int { return cmp.Compare(a.Total, b.Total) })
		res := rs[(len(rs)-1)/2]
		rep.Runs, rep.MinTotalNS, rep.MaxTotalNS = len(rs), int64(rs[0].Total), int64(rs[len(rs)-1].Total)
		rep.MedianIterationNS = medianIteration(rs)
		if per := iterationTimes(rs); len(per) > 0 {
			rep.MinIterationNS, rep.MaxIterationNS = per[0], per[len(per)-1]
		}
		rep.Result = res
		if rep.Partition == "background" {
			rep.PartitionNS = int64(res.Background.Time)
		}
		if f.repeat == 0 {
			if rep.TrueResidual, err = cg.TrueResidual(m, b, res.X); err != nil {
				return err
			}
		}
		if res.Stop != cg.Converged && res.Stop != cg.RepeatsDone {
			failed = res // not converged, a breakdown or an overflow: exit 1 after the report
		}
		if !f.history {
			for _, r := range rs {
				r.History = nil // the summary alone unless --history
			}
		}
	}
	w := c.OutOrStdout()
	switch f.format {
	case formatJSON:
		if len(reps) == 1 {
			err = writeJSON(w, reps[0])
		} else {
			err = writeJSON(w, reps)
		}
	case formatCSV:
		err = writeCGCSV(w, reps)
	default:
		for i, rep := range reps {
			if i > 0 {
				fmt.Fprintln(w)
			}
			writeCGTable(w, rep, f.history)
		}
	}
	if err != nil {
		return err
	}
	if failed != nil {
		return fmt.Errorf("%s: %s", label, failed.Reason)
	}
	return nil
}

// iterationTimes are total / iterations of every run of rs, sorted.
func iterationTimes(rs []*cg.Result) []int64 {
	per := make([]int64, 0, len(rs))
	for _, r := range rs {
		if r.Iterations > 0 {
			per = append(per, int64(r.Total)/int64(r.Iterations))
		}
	}
	slices.Sort(per)
	return per
}

// medianIteration is the median over rs of total / iterations.
func medianIteration(rs []*cg.Result) int64 {
	per := iterationTimes(rs)
	if len(per) == 0 {
		return 0
	}
	return per[(len(per)-1)/2]
}

// latinStep is the j-th mode offset of a balanced Latin square's first row
// (0, 1, n-1, 2, n-2, ...); round r shifts it by r.
func latinStep(j, n int) int {
	if j%2 == 1 {
		return (j + 1) / 2
	}
	return (n - j/2) % n
}

// cgModes sets up the modes of one command: what every mode's set-up
// shares.
type cgModes struct {
	c        *cobra.Command
	path     string
	f        *cgFlags
	st       *cgSetup
	eng      cg.Engine
	kernelOp func(spmv.Kernel) (cg.Op, error) // nil on the CPU
	src      func(context.Context) (*schedule.Schedule, string, error)
	load     func() (*schedule.Schedule, bool) // the cache alone
	cached   *schedule.Schedule                // SPAC-adapt's, from the cache; nil if none
	used     *matrices.COO
	warn     io.Writer // warnings: standard error
}

// trialIters is how many iterations with the default product run before
// the spac mode pays for its partition: a matrix that is not positive
// definite (but symmetric, with a positive diagonal: cg.Check lets it
// through) mostly breaks down within a few iterations, at the cost of a few
// products instead of a partition (30 s on a 4M-row matrix).
const trialIters = 16

// trialBeforePartition runs trialIters iterations with the default product
// when a mode is about to partition before its solve (spac, no schedule in
// the cache), and reports a breakdown at once as the solve's failure.
func (ms *cgModes) trialBeforePartition(ctx context.Context, b []float64, label string) error {
	if ms.f.repeat > 0 || !slices.Contains(ms.st.modes, "spac") {
		return nil
	}
	if _, cached := ms.load(); cached {
		return nil
	}
	op := cg.Op(cg.CSROp{})
	if ms.kernelOp != nil {
		var err error
		if op, err = ms.kernelOp(ms.st.defKernel); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := cg.Solve(ctx, ms.eng, b, cg.Options{Tol: ms.f.tol, MaxIters: trialIters, Ops: []cg.Op{op}})
	if err != nil {
		return fmt.Errorf("%s: trial iterations before partitioning: %w", label, err)
	}
	if res.Stop == cg.Breakdown || res.Stop == cg.NonFinite {
		return fmt.Errorf("%s: %s (found by %d trial iterations with %s in %.1f ms, before partitioning for the spac schedule)",
			label, res.Reason, res.Iterations+1, op.Name(), msOf(time.Since(start)))
	}
	return nil
}

// options sets up one mode's solve: its starting kernels (each run once
// untimed, as part of the set-up) and, for SPAC-adapt, its background. It
// fills rep's partition fields; the spac mode partitions here.
func (ms *cgModes) options(rep *cgReport) (cg.Options, error) {
	c, f, st, eng, kernelOp, warn := ms.c, ms.f, ms.st, ms.eng, ms.kernelOp, ms.warn
	opts := cg.Options{Tol: f.tol, MaxIters: f.maxIters, Probe: f.probe, TimeAll: f.timeAll}
	var err error
	switch rep.Mode {
	case "default":
		op := cg.Op(cg.CSROp{})
		if f.useGPU {
			if op, err = kernelOp(st.defKernel); err != nil {
				return opts, err
			}
		}
		opts.Ops = []cg.Op{op}
	case "cusparse":
		op, err := kernelOp(spmv.CuSPARSECSR)
		if err != nil {
			return opts, err
		}
		opts.Ops = []cg.Op{op}
	case "spac":
		start := time.Now()
		s, how, err := ms.src(c.Context())
		if err != nil {
			return opts, err
		}
		op, err := prepareNow(eng, s)
		if err != nil {
			return opts, err
		}
		rep.Partition, rep.PartitionNS = how, int64(time.Since(start))
		opts.Ops = []cg.Op{op}
	case "adapt":
		if opts.Ops, err = adaptOps(f, st, kernelOp, warn); err != nil {
			return opts, err
		}
		if s := ms.cached; s != nil {
			// From the first iteration on, the other kernels still probed.
			op, err := prepareNow(eng, s)
			if err != nil {
				return opts, err
			}
			rep.Partition = "cached"
			opts.Ops = append([]cg.Op{op}, opts.Ops...)
		} else {
			rep.Partition = "background"
			opts.ScheduleDelay = f.delay
			if opts.Schedule, err = backgroundSource(c, ms.path, f, ms.src, ms.used, warn); err != nil {
				return opts, err
			}
		}
	}
	// One untimed product with every starting kernel, as part of the set-up:
	// the first launch of a kernel (and cuSPARSE's first call) pays one-time
	// loading that no solve should be charged for. Timed, so that it also
	// waits for the product and warms the events up.
	for _, op := range opts.Ops {
		if _, err := eng.Multiply(op, true); err != nil {
			return opts, fmt.Errorf("warming up %s: %w", op.Name(), err)
		}
	}
	return opts, nil
}

// adaptOps are SPAC-adapt's starting kernels: the one of --adapt-start,
// then those of --adapt-probe; on the CPU (kernelOp nil) the CSR product.
func adaptOps(f *cgFlags, st *cgSetup, kernelOp func(spmv.Kernel) (cg.Op, error), warn io.Writer) ([]cg.Op, error) {
	if kernelOp == nil {
		return []cg.Op{cg.CSROp{}}, nil
	}
	start := st.defKernel
	var ops []cg.Op
	if f.adaptStart == "cusparse" {
		if op, err := kernelOp(spmv.CuSPARSECSR); err == nil {
			start, ops = spmv.CuSPARSECSR, []cg.Op{op}
		} else {
			fmt.Fprintf(warn, "spac: warning: %v; SPAC-adapt starts with %s\n", err, start)
		}
	}
	if ops == nil {
		op, err := kernelOp(start)
		if err != nil {
			return nil, err
		}
		ops = []cg.Op{op}
	}
	for _, k := range st.probeOps {
		if k == start {
			continue
		}
		op, err := kernelOp(k)
		if err != nil {
			fmt.Fprintf(warn, "spac: warning: --adapt-probe %s: %v\n", k, err)
			continue
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// backgroundSource is SPAC-adapt's schedule source: src in a goroutine
// (--background goroutine), or this binary run as 'spac cg FLAGS
// --schedule-to FILE -- IN' at nice --background-nice. The child gets
// every flag this run set, so that it reads the same matrix and builds the
// same schedule (and caches it under the same key).
func backgroundSource(c *cobra.Command, path string, f *cgFlags, src func(context.Context) (*schedule.Schedule, string, error), used *matrices.COO, stderr io.Writer) (cg.ScheduleSource, error) {
	if f.background == "goroutine" {
		return func(ctx context.Context) (*schedule.Schedule, error) {
			s, _, err := src(ctx)
			return s, err
		}, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--background process: finding this binary to run the partitioner: %w", err)
	}
	flags := []string{"cg"}
	c.Flags().Visit(func(fl *pflag.Flag) { flags = append(flags, "--"+fl.Name+"="+fl.Value.String()) })
	child := cg.ChildProcess{
		Path:   exe,
		Args:   func(out string) []string { return append(slices.Clip(flags), "--schedule-to="+out, "--", path) },
		Nice:   f.nice,
		Stderr: stderr, // its warnings; it draws no progress on a pipe
		Matrix: used,
	}
	return child.Source(), nil
}

// prepareNow readies a schedule before the solve (waiting for its upload).
func prepareNow(eng cg.Engine, s *schedule.Schedule) (cg.Op, error) {
	p, err := eng.Prepare(s)
	if err != nil {
		return nil, err
	}
	op, err := p.Op()
	if err != nil {
		p.Discard()
		return nil, err
	}
	return op, nil
}

// cgScheduleSource is the spac mode's and SPAC-adapt's schedule:
// pipeline.Schedule with SPAC, through the cache unless --no-cache; src
// says whether it was computed or cached; load looks it up in the cache
// alone. The locality graph is built inside, so that SPAC-adapt's
// background does that work too.
func cgScheduleSource(c *cobra.Command, f *cgFlags, st *cgSetup, in *pipeline.Input, prog *progress.Reporter) (src func(context.Context) (*schedule.Schedule, string, error), load func() (*schedule.Schedule, bool), err error) {
	pc, err := f.pf.config("spac")
	if err != nil {
		return nil, nil, err
	}
	sopts := st.sopts
	cache := f.cache.open(c.ErrOrStderr())
	load = func() (*schedule.Schedule, bool) { return pipeline.Lookup(in, pc, sopts, cache) }
	src = func(ctx context.Context) (*schedule.Schedule, string, error) {
		s, prov, err := pipeline.Schedule(ctx, in, pc, sopts, cache, prog)
		if err != nil {
			return nil, "", err
		}
		if prov.Cached {
			return s, "cached", nil
		}
		return s, "computed", nil
	}
	return src, load, nil
}

// percentOf is part as a percentage of whole (0 when whole is 0).
func percentOf(part, whole time.Duration) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func usOf(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// switchText describes the switch to the SPAC kernel.
func switchText(r *cg.Result) string {
	if r.SwitchIter == 0 {
		return "none"
	}
	if r.SPACKept {
		return fmt.Sprintf("iteration %d (SPAC kernel kept)", r.SwitchIter)
	}
	return fmt.Sprintf("iteration %d (SPAC kernel tried, slower: dropped)", r.SwitchIter)
}

func partitionText(rep *cgReport) string {
	r := rep.Result
	switch rep.Partition {
	case "none":
		return "none"
	case "background":
		bg := r.Background
		switch bg.State {
		case "ready":
			return fmt.Sprintf("%.1f ms in the background, ready after iteration %d", msOf(bg.Time), bg.ReadyIter)
		case "error":
			return fmt.Sprintf("failed after %.1f ms: %s", msOf(bg.Time), bg.Err)
		case "late":
			return fmt.Sprintf("%.1f ms, still uploading when the solve ended (discarded)", msOf(bg.Time))
		case "not-started":
			return "not started: the solve ended within --adapt-delay"
		}
		return fmt.Sprintf("cancelled after %.1f ms: the solve ended first", msOf(bg.Time))
	case "cached":
		return "from the schedule cache"
	}
	return fmt.Sprintf("%s before the solve in %.1f ms (not in the total)", rep.Partition, float64(rep.PartitionNS)/1e6)
}

func writeCGTable(w io.Writer, rep *cgReport, history bool) {
	r := rep.Result
	before, after := r.PerIteration()
	fmt.Fprintf(w, "input            %s (%d rows, %d entries)\n", rep.Input, rep.Rows, rep.NNZ)
	fmt.Fprintf(w, "engine           %s, %s, %s\n", rep.Engine, rep.Precision, rep.Mode)
	fmt.Fprintf(w, "stop             %s\n", r.Reason)
	fmt.Fprintf(w, "iterations       %d\n", r.Iterations)
	if r.Stop != cg.RepeatsDone {
		fmt.Fprintf(w, "final residual   %.3g (recursive), %.3g (true ||b - A x|| / ||b||)\n", r.Residual, rep.TrueResidual)
	}
	if rep.Runs > 1 {
		fmt.Fprintf(w, "total time       %.3f ms (median of %d runs; spread %.3f-%.3f ms, %s; the rest is that run's)\n",
			msOf(r.Total), rep.Runs, float64(rep.MinTotalNS)/1e6, float64(rep.MaxTotalNS)/1e6, spreadShare(rep.MinTotalNS, rep.MaxTotalNS, int64(r.Total)))
		fmt.Fprintf(w, "iteration time   %.1f us (median over the runs of total / iterations; spread %.1f-%.1f us, %s)\n",
			float64(rep.MedianIterationNS)/1e3, float64(rep.MinIterationNS)/1e3, float64(rep.MaxIterationNS)/1e3,
			spreadShare(rep.MinIterationNS, rep.MaxIterationNS, rep.MedianIterationNS))
	} else {
		fmt.Fprintf(w, "total time       %.3f ms\n", msOf(r.Total))
	}
	if r.SpMVTimed == r.Iterations {
		fmt.Fprintf(w, "spmv time        %.3f ms (%.0f%% of the total, every product measured)\n", msOf(r.SpMVTime), percentOf(r.SpMVTime, r.Total))
	} else {
		fmt.Fprintf(w, "spmv time        ~%.3f ms, an estimate: %d of %d products measured (%.3f ms), the others at their kernel's median (--time-all measures every product)\n",
			msOf(r.SpMVEstimate), r.SpMVTimed, r.Iterations, msOf(r.SpMVTime))
	}
	fmt.Fprintf(w, "per iteration    %.1f us before the switch, %.1f us after\n", usOf(before), usOf(after))
	fmt.Fprintf(w, "switch           %s\n", switchText(r))
	fmt.Fprintf(w, "partitioner      %s\n", partitionText(rep))
	var segs []string
	for _, s := range r.Segments {
		per := "untimed"
		if s.Timed > 0 {
			per = fmt.Sprintf("%.1f us/product", usOf(s.SpMV)/float64(s.Timed))
		}
		segs = append(segs, fmt.Sprintf("%s %d-%d (%s)", s.Kernel, s.From, s.From+s.Iters-1, per))
	}
	fmt.Fprintf(w, "kernels          %s\n", strings.Join(segs, ", "))
	if history {
		fmt.Fprintln(w, "iteration  residual")
		for k, v := range r.History {
			fmt.Fprintf(w, "%9d  %.6e\n", k, v)
		}
	}
}

// spreadShare is max - min as a share of the median: a difference between
// two medians smaller than this is not shown by these runs.
func spreadShare(lo, hi, median int64) string {
	if median <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%% of the median", 100*float64(hi-lo)/float64(median))
}

func writeCGCSV(w io.Writer, reps []*cgReport) error {
	cw := csv.NewWriter(w)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	cw.Write([]string{"input", "rows", "nnz", "precision", "engine", "mode", "final_kernel", "stop", "iterations", "residual", "true_residual",
		"total_ms", "spmv_ms", "timed_products", "spmv_estimate_ms", "iter_before_us", "iter_after_us", "switch_iteration", "spac_kept", "partition", "partition_state", "partition_ms",
		"runs", "total_min_ms", "total_max_ms", "iter_median_us", "iter_min_us", "iter_max_us"})
	for _, rep := range reps {
		r := rep.Result
		before, after := r.PerIteration()
		last := ""
		if n := len(r.Segments); n > 0 {
			last = r.Segments[n-1].Kernel
		}
		cw.Write([]string{rep.Input, strconv.Itoa(rep.Rows), strconv.Itoa(rep.NNZ), rep.Precision, rep.Engine, rep.Mode, last, string(r.Stop),
			strconv.Itoa(r.Iterations), g(r.Residual), g(rep.TrueResidual), g(msOf(r.Total)), g(msOf(r.SpMVTime)), strconv.Itoa(r.SpMVTimed), g(msOf(r.SpMVEstimate)), g(usOf(before)), g(usOf(after)),
			strconv.Itoa(r.SwitchIter), strconv.FormatBool(r.SPACKept), rep.Partition, r.Background.State, g(float64(rep.PartitionNS) / 1e6),
			strconv.Itoa(rep.Runs), g(float64(rep.MinTotalNS) / 1e6), g(float64(rep.MaxTotalNS) / 1e6), g(float64(rep.MedianIterationNS) / 1e3),
			g(float64(rep.MinIterationNS) / 1e3), g(float64(rep.MaxIterationNS) / 1e3)})
	}
	cw.Flush()
	return cw.Error()
}
