package spmv

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/gpu/cusparse"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

// ScheduleFunc returns the schedule of the matrix for a partitioning method
// and block size (the caller partitions, or reads its cache).
type ScheduleFunc func(ctx context.Context, method string, blockSize int) (*schedule.Schedule, error)

// SpMVConfig says what RunSpMV measures.
type SpMVConfig struct {
	Input      string        // the matrix's name in the table
	Matrix     *matrices.COO // the entries multiplied (symmetric storage expanded)
	Precisions []Precision
	BlockSizes []int
	Kernels    []Kernel
	Methods    []string     // partitioning methods whose schedules the SPAC kernels (and the CPU executor) run
	Schedule   ScheduleFunc // nil: no schedules
	GPU        bool         // run the GPU kernels
	Device     int          // GPU ordinal
	Warmup     int          // untimed runs before timing
	Iters      int          // timed repetitions (the median is reported)
	CPUIters   int          // timed repetitions of the CPU rows (0: 3)
	Seed       int64        // of x
	CopyBytes  int64        // size of the device-to-device copy that measures the bandwidth ceiling (0: 512 MiB)
	Progress   io.Writer    // one line per measurement, numbered; nil for none
	// Emit, when set, receives every row as soon as it is measured, with
	// its GB/s, copy fraction and speedup filled in (cuSPARSE's paths run
	// first in each precision, so the speedup is final when emitted); an
	// error stops the run.
	Emit func(Row) error
	// Budget, when above 0, caps a GPU kernel's time at Budget times the
	// fastest correct GPU row of its precision so far: a kernel whose
	// first timed runs (1 warm-up, 3 timed) exceed that keeps those runs
	// and a note instead of its full timing.
	Budget float64
}

// budgetReps are the timed runs that decide whether a kernel is within
// the budget.
const budgetReps = 3

// Row is one kernel's measurement, as the table, CSV and JSON show it.
type Row struct {
	Input        string  `json:"input"`
	NRows        int     `json:"rows"`
	NCols        int     `json:"cols"`
	NNZ          int     `json:"nnz"`
	Precision    string  `json:"precision"`
	BlockSize    int     `json:"block_size"` // 0 where the kernel takes none (cuSPARSE, CPU CSR)
	Kernel       string  `json:"kernel"`
	Schedule     string  `json:"schedule"` // partitioning method of the schedule, or "-"
	Device       string  `json:"device"`   // "gpu" or "cpu"
	Micros       float64 `json:"time_us"`  // median time of one product, microseconds; 0 when not run
	MinMicros    float64 `json:"time_min_us"`
	MaxMicros    float64 `json:"time_max_us"`
	Reps         int     `json:"reps"`
	MinBytes     int64   `json:"min_bytes"`        // MinimumBytes
	GBps         float64 `json:"gbps"`             // MinBytes / time
	CopyFraction float64 `json:"copy_fraction"`    // GBps over the measured device copy bandwidth (GPU rows)
	Speedup      float64 `json:"speedup_cusparse"` // best time of any cuSPARSE path over this time (GPU rows)
	PredBytes    int64   `json:"predicted_bytes"`  // schedule.Traffic's sectors x 32 for the kernels it models, else 0
	Blocks       int     `json:"blocks"`
	SharedBytes  int     `json:"shared_bytes"`
	MaxRelErr    float64 `json:"max_rel_error"`
	OK           bool    `json:"ok"`
	Note         string  `json:"note,omitempty"`
	// FormatBytes is what the kernel reads of its matrix format per
	// nonzero (Op.FormatBytes over the nonzeros; 0 for the CPU rows).
	FormatBytes float64 `json:"format_bytes_per_nnz,omitempty"`
	// SetupSeconds is the wall time spent on what this row alone needed
	// before it ran: a GPU row's format, built and uploaded; a cpu-csr row's
	// float64 reference; a cpu-schedule row's schedule (from the cache or
	// partitioned) and its device arrays, on the first precision's row, and
	// their upload on each. RunSeconds is the row's measurement: the checked
	// product, the warm-up and the timed repetitions. Together they say
	// where a long run's time went.
	SetupSeconds float64 `json:"setup_s,omitempty"`
	RunSeconds   float64 `json:"run_s,omitempty"`
}

// Ran reports whether the row has a measurement.
func (r Row) Ran() bool { return r.Micros > 0 }

// Result is one matrix's measurements.
type Result struct {
	best    map[string]float64 // per precision, the fastest correct GPU row so far (Budget)
	bestCS  map[string]float64 // per precision, the fastest correct cuSPARSE row so far (Speedup)
	planned int                // measurements planned, for the progress lines

	Input    string   `json:"input"`
	NRows    int      `json:"rows"`
	NCols    int      `json:"cols"`
	NNZ      int      `json:"nnz"`
	GPU      string   `json:"gpu"` // the device, or why no GPU ran
	GPURan   bool     `json:"gpu_ran"`
	CopyGBps float64  `json:"copy_gbps"`          // device-to-device copy, bytes read + written
	L2Bytes  int64    `json:"l2_bytes,omitempty"` // the device's L2 cache
	CuSPARSE string   `json:"cusparse"`           // library file and version, or why it is missing
	PTX      string   `json:"ptx,omitempty"`      // where the kernels came from
	Rows     []Row    `json:"rows_measured,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	GPUErr   error    `json:"-"` // why the GPU did not run although asked for

	// The seconds of what no row alone needed (the rows' setup_s and run_s
	// have the rest): the matrix in CSR order; the device opened, the
	// kernels loaded (the driver compiles their PTX) and the copy measured;
	// the matrix and x uploaded in every precision.
	MatrixSeconds float64 `json:"matrix_s,omitempty"`
	DeviceSeconds float64 `json:"device_s,omitempty"`
	UploadSeconds float64 `json:"upload_s,omitempty"`

	// Set by the caller, around RunSpMV: the input read or generated (and
	// renumbered, or reordered), and RunSpMV's own wall time, the device
	// released included. What wall_s has beyond the other seconds is
	// work no row or step above accounts for.
	InputSeconds float64 `json:"input_s,omitempty"`
	WallSeconds  float64 `json:"wall_s,omitempty"`
}

// Failed lists the rows whose result disagrees with the reference.
func (r *Result) Failed() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Ran() && !row.OK {
			out = append(out, row)
		}
	}
	return out
}

func (c *SpMVConfig) progressf(format string, a ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format+"\n", a...)
	}
}

// RunSpMV measures y = A x with every configured kernel. The GPU part
// needs cfg.GPU and a CUDA build; where it cannot run, the CPU rows are
// still measured and Result.GPU says why (Result.GPUErr holds the error
// when the GPU was asked for). An error is returned only when nothing
// sensible can be measured (no values, a bad configuration, a device
// failure in the middle of a run).
func RunSpMV(ctx context.Context, cfg SpMVConfig) (*Result, error) {
	if len(cfg.Precisions) == 0 {
		cfg.Precisions = []Precision{FP64}
	}
	if len(cfg.BlockSizes) == 0 {
		cfg.BlockSizes = []int{1024}
	}
	if cfg.Kernels == nil {
		cfg.Kernels = Kernels()
	}
	if cfg.Iters < 1 {
		cfg.Iters = 50
	}
	if cfg.CPUIters < 1 {
		cfg.CPUIters = 3
	}
	if cfg.CopyBytes <= 0 {
		cfg.CopyBytes = 512 << 20
	}
	for _, b := range cfg.BlockSizes {
		if err := CheckBlockSize(b); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	m, err := NewMatrix(cfg.Matrix)
	if err != nil {
		return nil, err
	}
	res := &Result{Input: cfg.Input, NRows: m.NRows, NCols: m.NCols, NNZ: m.NNZ(),
		best: map[string]float64{}, bestCS: map[string]float64{}, planned: cfg.planned(),
		MatrixSeconds: time.Since(t0).Seconds()}
	x := randomX(m.NCols, cfg.Seed)

	// The reference of every precision, and the CPU CSR rows.
	type prec struct {
		p        Precision
		ref, abs []float64
		sp       *SpMV
	}
	precs := make([]*prec, len(cfg.Precisions))
	for i, p := range cfg.Precisions {
		t0 := time.Now()
		ref, abs, err := m.Reference(x, p)
		if err != nil {
			return nil, err
		}
		precs[i] = &prec{p: p, ref: ref, abs: abs}
		row := res.newRow(m, p, 0, "cpu-csr", "-", "cpu")
		row.SetupSeconds = time.Since(t0).Seconds()
		t0 = time.Now()
		y := make([]float64, m.NRows)
		t := timeCPU(cfg.CPUIters, func() { cpuCSR(m, x, y, p) })
		row.setTime(t)
		row.check(y, ref, abs, p)
		row.RunSeconds = time.Since(t0).Seconds()
		if err := res.add(&cfg, row); err != nil {
			return nil, err
		}
	}

	// The GPU: device, copy ceiling, matrix upload per precision.
	var dev *gpu.Device
	t0 = time.Now()
	switch {
	case !cfg.GPU:
		res.GPU = "not run (no --gpu)"
	case !gpu.Built:
		res.GPU = "not run: " + gpu.ErrNoCUDA.Error()
		res.GPUErr = gpu.ErrNoCUDA
	default:
		dev, err = gpu.Open(cfg.Device)
		if err != nil {
			res.GPU = "not run: " + err.Error()
			res.GPUErr = err
			dev = nil
		}
	}
	if dev != nil {
		defer dev.Close()
		res.GPURan = true
		res.GPU = dev.Info().String()
		res.L2Bytes = int64(dev.Info().L2Bytes)
		mod, err := dev.LoadModule(Module)
		if err != nil {
			return nil, err
		}
		res.PTX = mod.Source()
		if path, version, err := cusparse.Version(); err != nil {
			res.CuSPARSE = err.Error()
		} else {
			res.CuSPARSE = fmt.Sprintf("%s %s", path, version)
		}
		t, bw, err := dev.CopyBandwidth(cfg.CopyBytes, 20)
		if err != nil {
			return nil, err
		}
		res.CopyGBps = bw / 1e9
		res.DeviceSeconds = time.Since(t0).Seconds()
		cfg.progressf("device %s: copy of %d MiB in %.1f us: %.0f GB/s (read + write)", res.GPU, cfg.CopyBytes>>20, micros(t.Median), res.CopyGBps)
		for _, pc := range precs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t0 := time.Now()
			sp, err := NewSpMV(dev, m, pc.p)
			if err != nil {
				return nil, err
			}
			defer sp.Close()
			if err := sp.SetX(x); err != nil {
				return nil, err
			}
			res.UploadSeconds += time.Since(t0).Seconds()
			pc.sp = sp
			// cuSPARSE first: every later row's speedup is final when emitted.
			plain := slices.DeleteFunc(slices.Clone(cfg.Kernels), Kernel.UsesSchedule)
			slices.SortStableFunc(plain, func(a, b Kernel) int { return boolRank(b.IsCuSPARSE()) - boolRank(a.IsCuSPARSE()) })
			for _, k := range plain {
				sizes := cfg.BlockSizes
				if !k.UsesBlockSize() {
					sizes = []int{0}
				}
				for _, b := range sizes {
					row := res.newRow(m, pc.p, b, string(k), "-", "gpu")
					t0 := time.Now()
					op, err := sp.Op(k, b, nil)
					row.SetupSeconds = time.Since(t0).Seconds()
					if err != nil {
						if errors.Is(err, cusparse.ErrUnavailable) || errors.Is(err, ErrUnsupported) {
							row.Note = err.Error()
							if errors.Is(err, cusparse.ErrUnavailable) {
								row.Note = "cuSPARSE missing"
								res.Notes = appendOnce(res.Notes, err.Error())
							}
							if err := res.add(&cfg, row); err != nil {
								return nil, err
							}
							continue
						}
						return nil, fmt.Errorf("%s, %s: %w", k, pc.p, err)
					}
					if err := res.measure(&cfg, sp, op, &row, pc.ref, pc.abs, pc.p); err != nil {
						return nil, err
					}
					if err := res.add(&cfg, row); err != nil {
						return nil, err
					}
				}
			}
		}
	}

	// Schedules: the CPU executor, the predicted traffic, the SPAC kernels.
	var schedKernels []Kernel
	for _, k := range cfg.Kernels {
		if k.UsesSchedule() {
			schedKernels = append(schedKernels, k)
		}
	}
	// On a device with no kernel that runs a schedule, partitioning one
	// would only feed the CPU executor's row: minutes on a large input.
	if cfg.Schedule != nil && m.NNZ() > 0 && (dev == nil || len(schedKernels) > 0) {
		for _, b := range cfg.BlockSizes {
			for _, method := range cfg.Methods {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				t0 := time.Now()
				s, err := cfg.Schedule(ctx, method, b)
				if err != nil {
					return nil, fmt.Errorf("schedule %s, block size %d: %w", method, b, err)
				}
				if method == cfg.Methods[0] {
					res.predictDefault(s)
				}
				var arrays *ScheduleArrays
				if dev != nil && len(schedKernels) > 0 {
					if arrays, err = NewScheduleArrays(s, method); err != nil {
						return nil, err
					}
					if len(precs) > 1 {
						arrays.KeepFormats()
					}
				}
				setup := time.Since(t0).Seconds() // the first precision's row carries it
				for _, pc := range precs {
					row := res.newRow(m, pc.p, b, "cpu-schedule", method, "cpu")
					var ds *DeviceSchedule
					if pc.sp != nil && arrays != nil {
						t0 := time.Now()
						if ds, err = pc.sp.Upload(arrays); err != nil {
							return nil, err
						}
						setup += time.Since(t0).Seconds()
					}
					row.SetupSeconds, setup = setup, 0
					t0 := time.Now()
					y, t, err := cpuSchedule(s, x, pc.p, cfg.CPUIters)
					if err != nil {
						return nil, err
					}
					row.setTime(t)
					row.Blocks = s.NumBlocks()
					row.check(y, pc.ref, pc.abs, pc.p)
					row.RunSeconds = time.Since(t0).Seconds()
					if err := res.add(&cfg, row); err != nil {
						return nil, err
					}
					if ds == nil {
						continue // no device, or no kernel that runs a schedule: the CPU row alone
					}
					for _, k := range schedKernels {
						row := res.newRow(m, pc.p, b, string(k), method, "gpu")
						row.PredBytes = predictedBytes(s, k, pc.p)
						t0 := time.Now()
						op, err := pc.sp.Op(k, b, ds)
						row.SetupSeconds = time.Since(t0).Seconds()
						if err != nil {
							row.Note = err.Error()
							if err := res.add(&cfg, row); err != nil {
								return nil, err
							}
							continue
						}
						if err := res.measure(&cfg, pc.sp, op, &row, pc.ref, pc.abs, pc.p); err != nil {
							return nil, err
						}
						if err := res.add(&cfg, row); err != nil {
							return nil, err
						}
					}
				}
			}
		}
	}
	res.finish()
	return res, nil
}

// predictDefault fills the predicted traffic of the coo-atomic rows of the
// schedule's block size: coo-atomic is schedule.Traffic's default kernel,
// which does not depend on the partition.
func (res *Result) predictDefault(s *schedule.Schedule) {
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.Kernel == string(COOAtomic) && r.BlockSize == s.BlockSize {
			p, _ := precision.Parse(r.Precision)
			r.PredBytes = predictedBytes(s, COOAtomic, p)
		}
	}
}

func (res *Result) newRow(m *Matrix, p Precision, b int, kernel, sched, device string) Row {
	return Row{Input: res.Input, NRows: m.NRows, NCols: m.NCols, NNZ: m.NNZ(), Precision: p.String(), BlockSize: b,
		Kernel: kernel, Schedule: sched, Device: device, MinBytes: MinimumBytes(m.NRows, m.NCols, m.NNZ(), p)}
}

// planned counts the measurements RunSpMV will make (for the progress
// lines): CPU rows, plain and cuSPARSE kernels, and per block size and
// method the CPU executor and the SPAC kernels, in every precision.
func (c *SpMVConfig) planned() int {
	perPrec := 1
	for _, k := range c.Kernels {
		switch {
		case k.UsesSchedule():
		case k.UsesBlockSize():
			perPrec += len(c.BlockSizes)
		default:
			perPrec++
		}
	}
	if c.Schedule != nil {
		sched := 1
		for _, k := range c.Kernels {
			if k.UsesSchedule() {
				sched++
			}
		}
		perPrec += sched * len(c.BlockSizes) * len(c.Methods)
	}
	return perPrec * len(c.Precisions)
}

// add records a row: it fills the columns that compare it with the rows so
// far, says it on the progress writer and hands it to cfg.Emit.
func (res *Result) add(cfg *SpMVConfig, row Row) error {
	if row.Ran() {
		row.GBps = float64(row.MinBytes) / (row.Micros * 1e3)
		if row.Device == "gpu" && res.CopyGBps > 0 {
			row.CopyFraction = row.GBps / res.CopyGBps
		}
		if row.Device == "gpu" && row.OK {
			if b, ok := res.best[row.Precision]; !ok || row.Micros < b {
				res.best[row.Precision] = row.Micros
			}
			if b, ok := res.bestCS[row.Precision]; Kernel(row.Kernel).IsCuSPARSE() && (!ok || row.Micros < b) {
				res.bestCS[row.Precision] = row.Micros
			}
		}
		if b, ok := res.bestCS[row.Precision]; ok && row.Device == "gpu" {
			row.Speedup = b / row.Micros
		}
	}
	res.Rows = append(res.Rows, row)
	b := "-"
	if row.BlockSize > 0 {
		b = fmt.Sprint(row.BlockSize)
	}
	n := fmt.Sprintf("[%d/%d]", len(res.Rows), max(res.planned, len(res.Rows)))
	switch {
	case row.Ran():
		note := map[bool]string{true: "", false: "  WRONG"}[row.OK]
		if row.Note != "" {
			note += "  (" + row.Note + ")"
		}
		cfg.progressf("  %s %s %-17s %-8s B=%-4s %10.1f us  %7.1f GB/s  max rel err %.2g%s", n, row.Precision, row.Kernel, row.Schedule, b,
			row.Micros, row.GBps, row.MaxRelErr, note)
	default:
		cfg.progressf("  %s %s %-17s %-8s B=%-4s not run: %s", n, row.Precision, row.Kernel, row.Schedule, b, row.Note)
	}
	if cfg.Emit != nil {
		return cfg.Emit(row)
	}
	return nil
}

// finish fills the columns that compare rows: GB/s, the copy fraction and
// the speedup over cuSPARSE's best path of the same precision.
func (res *Result) finish() {
	for i := range res.Rows {
		r := &res.Rows[i]
		if !r.Ran() {
			continue
		}
		r.GBps = float64(r.MinBytes) / (r.Micros * 1e3)
		if r.Device == "gpu" && res.CopyGBps > 0 {
			r.CopyFraction = r.GBps / res.CopyGBps
		}
	}
	Speedups(res.Rows)
}

// Speedups sets every GPU row's speedup over the fastest correct cuSPARSE
// row of its input and precision, whichever path won (CSR default or ALG2,
// COO, sliced ELL, BSR), so that rows merged from several runs compare
// with the same reference; rows of an input and precision without one get
// 0.
func Speedups(rows []Row) {
	best := map[string]float64{}
	key := func(r Row) string { return r.Input + "\x00" + r.Precision }
	for _, r := range rows {
		if r.Ran() && r.OK && Kernel(r.Kernel).IsCuSPARSE() {
			if b, ok := best[key(r)]; !ok || r.Micros < b {
				best[key(r)] = r.Micros
			}
		}
	}
	for i := range rows {
		r := &rows[i]
		r.Speedup = 0
		if b, ok := best[key(*r)]; ok && r.Ran() && r.Device == "gpu" {
			r.Speedup = b / r.Micros
		}
	}
}

func (r *Row) setTime(t gpu.Timing) {
	r.Micros, r.MinMicros, r.MaxMicros, r.Reps = micros(t.Median), micros(t.Min), micros(t.Max), t.Reps
	if r.Micros <= 0 {
		r.Micros = 1e-3 // ran, faster than the clock resolves
	}
}

func (r *Row) check(y, ref, abs []float64, p Precision) {
	r.MaxRelErr = MaxRelError(y, ref, abs)
	r.OK = r.MaxRelErr <= Tolerance(p)
}

// measure checks one product of op against the reference, then times it:
// cfg.Iters runs after cfg.Warmup, or, with a budget that the first
// budgetReps runs exceed, those runs alone with a note.
func (res *Result) measure(cfg *SpMVConfig, sp *SpMV, op *Op, row *Row, ref, abs []float64, p Precision) error {
	t0 := time.Now()
	defer func() { row.RunSeconds = time.Since(t0).Seconds() }()
	warmup, iters := cfg.Warmup, cfg.Iters
	row.Blocks, row.SharedBytes = op.Blocks, op.Shared
	if row.NNZ > 0 {
		row.FormatBytes = float64(op.FormatBytes) / float64(row.NNZ)
	}
	y, err := sp.Product(op)
	if err != nil {
		return fmt.Errorf("%s, %s, block size %d: %w", op.Kernel, p, op.BlockSize, err)
	}
	row.check(y, ref, abs, p)
	if best, ok := res.best[row.Precision]; ok && cfg.Budget > 0 && iters > budgetReps {
		t, err := sp.Time(op, 1, budgetReps)
		if err != nil {
			return fmt.Errorf("%s, %s, block size %d: %w", op.Kernel, p, op.BlockSize, err)
		}
		if limit := cfg.Budget * best; micros(t.Median) > limit {
			row.setTime(t)
			row.Note = fmt.Sprintf("--budget: %d runs only, %.1f us over %g x the best so far (%.1f us)", budgetReps, micros(t.Median), cfg.Budget, best)
			return nil
		}
	}
	t, err := sp.Time(op, warmup, iters)
	if err != nil {
		return fmt.Errorf("%s, %s, block size %d: %w", op.Kernel, p, op.BlockSize, err)
	}
	row.setTime(t)
	return nil
}

// predictedBytes is schedule.Traffic's prediction of what kernel k moves
// between L1 and L2 (32-byte sectors), for the kernels it models.
func predictedBytes(s *schedule.Schedule, k Kernel, p Precision) int64 {
	switch k {
	case SPACShared, SPACSharedX4:
		if s.XReadOnly() {
			return 0
		}
		_, sec := s.Traffic(p.Bytes()).Optimized.Total()
		return sec * 32
	case SPACReadOnly, SPACReadOnlyX4:
		ro := *s
		ro.Applied = schedule.ReadOnly
		_, sec := ro.Traffic(p.Bytes()).Optimized.Total()
		return sec * 32
	case COOAtomic:
		_, sec := s.Traffic(p.Bytes()).Default.Total()
		return sec * 32
	}
	return 0
}

// randomX is a deterministic x with entries in [-1, -0.1] and [0.1, 1]: no
// zeros, which would hide wrong indexing.
func randomX(n int, seed int64) []float64 {
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed5eed))
	x := make([]float64, n)
	for i := range x {
		v := 0.1 + 0.9*r.Float64()
		if r.IntN(2) == 0 {
			v = -v
		}
		x[i] = v
	}
	return x
}

// cpuCSR is y = A x row by row in the precision's arithmetic.
func cpuCSR(m *Matrix, x, y []float64, p Precision) {
	if p == FP32 {
		for r := range m.NRows {
			var s float32
			for j := m.RowPtr[r]; j < m.RowPtr[r+1]; j++ {
				s += float32(float32(m.Val[j]) * float32(x[m.Col[j]]))
			}
			y[r] = float64(s)
		}
		return
	}
	for r := range m.NRows {
		var s float64
		for j := m.RowPtr[r]; j < m.RowPtr[r+1]; j++ {
			s += float64(m.Val[j] * x[m.Col[j]])
		}
		y[r] = s
	}
}

// cpuSchedule runs the schedule's CPU executor (the GPU kernel's semantics)
// iters times and returns its result and time.
func cpuSchedule(s *schedule.Schedule, x []float64, p Precision, iters int) ([]float64, gpu.Timing, error) {
	y := make([]float64, s.NRows)
	var err error
	if p == FP32 {
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
		}
		y32 := make([]float32, s.NRows)
		t := timeCPU(iters, func() {
			if e := s.SpMV32(x32, y32); e != nil {
				err = e
			}
		})
		for i, v := range y32 {
			y[i] = float64(v)
		}
		return y, t, err
	}
	t := timeCPU(iters, func() {
		if e := s.SpMV(x, y); e != nil {
			err = e
		}
	})
	return y, t, err
}

func timeCPU(iters int, f func()) gpu.Timing {
	samples := make([]time.Duration, iters)
	for i := range samples {
		start := time.Now()
		f()
		samples[i] = time.Since(start)
	}
	return gpu.Summarize(samples)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// KernelOrder sorts rows as the tables show them: by input, precision, the
// CPU rows first, then the kernels in Kernels order, schedule, block
// size.
func KernelOrder(rows []Row) {
	rank := map[string]int{"cpu-csr": -2, "cpu-schedule": -1}
	for i, k := range Kernels() {
		rank[string(k)] = i
	}
	inputs := map[string]int{}
	for _, r := range rows {
		if _, ok := inputs[r.Input]; !ok {
			inputs[r.Input] = len(inputs)
		}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		switch {
		case a.Input != b.Input:
			return inputs[a.Input] - inputs[b.Input]
		case a.Precision != b.Precision:
			return cmp.Compare(a.Precision, b.Precision)
		case rank[a.Kernel] != rank[b.Kernel]:
			return rank[a.Kernel] - rank[b.Kernel]
		case a.Schedule != b.Schedule:
			return cmp.Compare(a.Schedule, b.Schedule)
		}
		return a.BlockSize - b.BlockSize
	})
}
