package main

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/cfd"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/spac"
)

// cfdFlags are the flags of the cfd command.
type cfdFlags struct {
	pf          partFlags
	useGPU      bool
	noReference bool
	gpuLock     string
	iterations  int
	blockSizes  string
	schedules   string
	methods     string
	precisions  string
	meshSeed    int64
	noShuffle   bool
	format      outputFormat
	quiet       bool
}

func cfdCommand() *cobra.Command {
	var f cfdFlags
	c := &cobra.Command{
		Use:   "cfd IN.domn|PRESET|mesh:n=N,... [--gpu]",
		Short: "Run Rodinia's cfd (euler3d) solver, original and SPAC-scheduled, and compare them",
		Long: `Run Rodinia's cfd benchmark (euler3d: an explicit finite-volume Euler solver
on an unstructured mesh of elements with four faces) for --iterations
iterations and report the time per iteration, the total time, the
partition time, and how far each schedule's result is from the CPU
reference (density, momentum, energy: max |got - ref| / max |ref|).

The input is a Rodinia .domn mesh file (optionally gzip-compressed; - reads
standard input), a preset (fvcorr-097k, fvcorr-193k, missile-0.2m: generated
meshes with the element counts of Rodinia's inputs), or a generated mesh
spec mesh:n=N,key=value,... ('spac cfd gen --list'). A file whose name looks
like a preset is read with a path: ./fvcorr-097k.

Schedules (--schedule): original is euler3d's element-centric compute_flux
(every element visits its four faces; each interior face is evaluated
twice), run on the CPU as the reference. rcm is the original on the mesh
renumbered by reverse Cuthill-McKee (the fair baseline: the order a careful
user applies before reaching for a partitioner; its partition column is the
ordering's time). spac is the face-centric flux of
the SPAC schedule: the interior faces (the locality graph's edges: a vertex
per element, an edge per pair of neighbours) are edge-partitioned into parts
of at most --block-size faces by each --method (spac, or a baseline such as
default), elements are renumbered so each part's home elements are
contiguous, and each part stages its elements in a scratch (shared memory on
a GPU), evaluates each face once, adds the flux to one element and subtracts
it from the other, and writes the scratch out. On the CPU it runs part by
part; step factor and time step run on the renumbered mesh.

--gpu runs the schedules on the GPU instead (a binary built with 'make gpu'):
original is Rodinia's kernels with --block-size threads per block, spac the
face-centric flux kernel with a thread block per part; both are compared
with the CPU reference (the original solver on the CPU, same precision),
which --no-reference skips (for timing sweeps of large meshes). GPU times
are CUDA events around the iterations, after one warm-up iteration.
--gpu-lock FILE holds an exclusive lock on FILE while the GPU runs, so that
several runs started at once (partitioning in parallel) time the GPU one at
a time.

--iterations 0 only partitions and reports the partitions: time, vertex
copies, replication factor, the largest part's elements (shared-memory
slots) and faces.

'spac cfd report' turns the CSV of GPU runs into a report and a plot like
the paper's Fig. 14.`,
		Example: `  spac cfd fvcorr-097k                                    # CPU reference vs SPAC executor, fp64, B=192
  spac cfd fvcorr-097k --precision fp32,fp64 --iterations 200
  spac cfd missile-0.2m --iterations 0 --block-size 128,256,1024 --method spac,default
  spac cfd gen fvcorr-193k -o fvcorr.domn && spac cfd fvcorr.domn
  spac cfd fvcorr-097k --gpu -b 128,192,256,384,512,1024 --precision fp32
  spac cfd mesh:n=2000000 --gpu --no-reference -b 256 --format csv`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error { return runCFD(c, args[0], &f) },
	}
	f.pf.registerPerBlock(c)
	fl := c.Flags()
	fl.BoolVar(&f.useGPU, "gpu", false, "run the schedules on the GPU (needs a binary built with 'make gpu')")
	fl.BoolVar(&f.noReference, "no-reference", false, "with --gpu: skip the CPU reference and the comparison with it")
	fl.StringVar(&f.gpuLock, "gpu-lock", "", "with --gpu: hold an exclusive lock (flock) on this file while using the GPU")
	fl.IntVarP(&f.iterations, "iterations", "n", 100, "solver iterations (each: step factor and 3 Runge-Kutta rounds of flux and time step); 0: partition only")
	fl.StringVarP(&f.blockSizes, "block-size", "b", "192", "faces per part (thread-block size), comma-separated; Rodinia's default is 192")
	fl.StringVar(&f.schedules, "schedule", "original,rcm,spac", "schedules to run, comma-separated: original (element-centric; on the CPU always run as the reference), rcm (original on the RCM-renumbered mesh) and spac (face-centric, partitioned)")
	fl.StringVarP(&f.methods, "method", "m", "spac", "partitioning methods of the spac schedule, comma-separated ("+strings.Join(spac.MethodNames(), ",")+")")
	fl.StringVar(&f.precisions, "precision", "fp64", "fp32, fp64, or both (fp32,fp64)")
	fl.Int64Var(&f.meshSeed, "mesh-seed", 1, "seed of a generated mesh (presets and mesh: specs)")
	fl.BoolVar(&f.noShuffle, "no-shuffle", false, "generated meshes keep the generator's element order (local) instead of a random one")
	registerFormat(c, &f.format, formatTable, formatCSV, formatJSON)
	registerQuiet(c, &f.quiet)
	c.AddCommand(cfdGenCommand(), cfdReportCommand())
	return c
}

// cfdSetup is the parsed command line.
type cfdSetup struct {
	blockSizes   []int
	methods      []spac.Method
	precisions   []cfd.Precision
	originalRuns bool
	rcmRuns      bool
	spacRuns     bool
}

func (f *cfdFlags) parse() (*cfdSetup, error) {
	var st cfdSetup
	for _, s := range cfdSplitList(f.blockSizes) {
		b, err := strconv.Atoi(s)
		if err != nil || b < 1 || b > 1<<16 {
			return nil, usagef("--block-size %q: want sizes from 1 to 65536 such as 128,192,256", f.blockSizes)
		}
		if f.useGPU && (b%32 != 0 || b > 1024) {
			return nil, usagef("--block-size %d: a GPU thread block is a multiple of 32 threads, at most 1024", b)
		}
		st.blockSizes = append(st.blockSizes, b)
	}
	scheds, err := cfdSchedules.ParseList(f.schedules)
	if err != nil {
		return nil, usagef("--schedule: %v", err)
	}
	st.originalRuns, st.rcmRuns, st.spacRuns = slices.Contains(scheds, "original"), slices.Contains(scheds, "rcm"), slices.Contains(scheds, "spac")
	for _, s := range cfdSplitList(f.methods) {
		m, err := spac.Lookup(s)
		if err != nil {
			return nil, usagef("--method: %v", err)
		}
		st.methods = append(st.methods, m)
	}
	if st.precisions, err = precision.ParseList(f.precisions); err != nil {
		return nil, usagef("--precision: %v", err)
	}
	if err := intIn("iterations", f.iterations, 0, maxCount, "0: partition only"); err != nil {
		return nil, err
	}
	switch {
	case len(st.blockSizes) == 0 || len(st.methods) == 0 || len(st.precisions) == 0:
		return nil, usagef("--block-size, --method and --precision each need at least one value")
	case !f.useGPU && (f.noReference || f.gpuLock != ""):
		return nil, usagef("--no-reference and --gpu-lock go with --gpu")
	}
	if err := f.pf.validate(); err != nil {
		return nil, err
	}
	return &st, nil
}

func cfdSplitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// cfdLoadMesh generates a preset or spec, or reads a .domn file.
func cfdLoadMesh(arg string, seed int64, noShuffle bool) (*cfd.Mesh, string, error) {
	spec, ok := cfd.LookupPreset(arg)
	if !ok && strings.HasPrefix(arg, "mesh:") {
		var err error
		if spec, err = cfd.ParseSpec(arg); err != nil {
			return nil, "", usageError{err}
		}
		ok = true
	}
	if !ok {
		m, err := cfd.OpenDomn(arg)
		if err != nil {
			return nil, "", err
		}
		return m, "read", nil
	}
	spec.Seed = seed
	spec.Shuffle = spec.Shuffle && !noShuffle
	m, err := cfd.Generate(spec)
	if err != nil {
		return nil, "", usageError{err}
	}
	if _, preset := cfd.LookupPreset(arg); preset {
		m.Name = arg
	}
	return m, "generated", nil
}

// cfdPart is one partition and its schedule.
type cfdPart struct {
	met       spac.Metrics
	sched     *cfd.Schedule
	buildTime time.Duration
}

// cfdRow is one solver run as the tables and CSV show it.
type cfdRow struct {
	precision  cfd.Precision
	device     string // cpu or gpu
	schedule   string // original, or the partitioning method
	blockSize  int    // 0 for the CPU original
	part       *cfdPart
	shared     int // bytes of shared memory per block (GPU spac)
	iterations int
	total      time.Duration
	diff       [3]cfd.Diff
	tolerance  float64
	checked    bool // compared with the CPU reference
	ok         bool
	reference  bool
	prep       time.Duration // rcm: computing the order and renumbering
}

// compare fills the row's difference from the reference (nil: none).
func (r *cfdRow) compare(vars []float64, ref *cfd.Result, n int) error {
	if ref == nil {
		return nil
	}
	d, err := cfd.Compare(vars, ref.Vars, n)
	if err != nil {
		return err
	}
	r.diff, r.tolerance, r.checked = d, cfd.Tolerance(r.precision, r.iterations), true
	r.ok = d[0].MaxRel <= r.tolerance && d[1].MaxRel <= r.tolerance && d[2].MaxRel <= r.tolerance
	return nil
}

func runCFD(c *cobra.Command, arg string, f *cfdFlags) error {
	st, err := f.parse()
	if err != nil {
		return err
	}
	if f.useGPU && !gpu.Built {
		return fmt.Errorf("--gpu: %w", gpu.ErrNoCUDA)
	}
	prog := progress.Stderr(f.quiet)
	start := time.Now()
	m, how, err := cfdLoadMesh(arg, f.meshSeed, f.noShuffle)
	if err != nil {
		return err
	}
	loadTime := time.Since(start)
	faces, err := cfd.BuildFaces(m)
	if err != nil && (st.spacRuns || f.iterations == 0) {
		return fmt.Errorf("%w\n(the spac schedule needs each interior face listed by both its elements; --schedule original runs without it)", err)
	}
	var rcm *cfd.Renumbered
	if st.rcmRuns && f.iterations > 0 {
		prog.Printf("renumbering %d elements by RCM", m.N)
		if rcm, err = cfd.RenumberRCM(m); err != nil {
			return err
		}
	}
	counts := m.Counts()
	w := c.OutOrStdout()
	if f.format == formatTable {
		fmt.Fprintf(w, "mesh %s: %d elements; faces: %d interior, %d wing, %d far field (%s in %.2f s)\n",
			m.Name, m.N, counts.Interior/2, counts.Wing, counts.FarField, how, loadTime.Seconds())
		if faces != nil && faces.MaxNormalMismatch > 0 {
			fmt.Fprintf(w, "note: the two normals of an interior face differ by up to %.2g of their length; the spac flux uses one of them\n", faces.MaxNormalMismatch)
		}
	}

	// Partitions, one per method and block size.
	var parts []cfdPart
	if st.spacRuns || f.iterations == 0 {
		for _, meth := range st.methods {
			for _, b := range st.blockSizes {
				opts, err := f.pf.options(max(len(faces.A), 1))
				if err != nil {
					return err
				}
				prog.Printf("partitioning %d faces: %s, block size %d", len(faces.A), meth.Name(), b)
				pp, err := cfd.PartitionFaces(c.Context(), faces, meth, b, opts, prog)
				if err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
				t0 := time.Now()
				sc, err := cfd.NewSchedule(m, faces, pp)
				if err != nil {
					return err
				}
				parts = append(parts, cfdPart{met: pp.Metrics, sched: sc, buildTime: time.Since(t0)})
			}
		}
	}

	var rows []cfdRow
	var device string
	if f.iterations > 0 {
		refs := map[cfd.Precision]*cfd.Result{}
		cpuRuns := len(st.precisions) * (1 + len(parts) + b2n(rcm != nil))
		switch {
		case f.useGPU && f.noReference:
			cpuRuns = 0
		case f.useGPU:
			cpuRuns = len(st.precisions)
		}
		bar := prog.Count("CPU runs", cpuRuns)
		for _, prec := range st.precisions {
			if f.useGPU && f.noReference {
				continue
			}
			bar.Describe(fmt.Sprintf("%s: CPU reference (original), %d iterations", prec, f.iterations))
			ref, err := cfd.Simulate(m, nil, prec, f.iterations)
			if err != nil {
				return err
			}
			bar.Add(1)
			refs[prec] = ref
			rows = append(rows, cfdRow{precision: prec, device: "cpu", schedule: "original", iterations: f.iterations, total: ref.Time, reference: true})
			if f.useGPU {
				continue
			}
			if rcm != nil {
				bar.Describe(fmt.Sprintf("%s: CPU original on the RCM-renumbered mesh, %d iterations", prec, f.iterations))
				res, err := cfd.Simulate(rcm.Mesh, nil, prec, f.iterations)
				if err != nil {
					return err
				}
				bar.Add(1)
				row := cfdRow{precision: prec, device: "cpu", schedule: "rcm", iterations: f.iterations, total: res.Time, prep: rcm.Time}
				if err := row.compare(rcm.Restore(res.Vars), ref, m.N); err != nil {
					return err
				}
				rows = append(rows, row)
			}
			for i := range parts {
				p := &parts[i]
				bar.Describe(fmt.Sprintf("%s: CPU %s schedule, block size %d, %d iterations", prec, p.met.Method, p.sched.BlockSize, f.iterations))
				res, err := cfd.Simulate(m, p.sched, prec, f.iterations)
				if err != nil {
					return err
				}
				bar.Add(1)
				row := cfdRow{precision: prec, device: "cpu", schedule: p.met.Method, blockSize: p.sched.BlockSize, part: p, iterations: f.iterations, total: res.Time}
				if err := row.compare(res.Vars, ref, m.N); err != nil {
					return err
				}
				rows = append(rows, row)
			}
		}
		bar.Finish()
		if f.useGPU {
			gpuRows, dev, err := runCFDGPU(f, st, m, rcm, parts, refs, prog)
			if err != nil {
				return err
			}
			rows, device = append(rows, gpuRows...), dev
		}
	}

	switch f.format {
	case formatJSON:
		err = writeJSON(w, cfdJSON(m, parts, rows, device))
	case formatCSV:
		err = writeCFDCSV(w, m, parts, rows)
	default:
		err = writeCFDTables(w, faces, parts, rows, device)
	}
	if err != nil {
		return err
	}
	var wrong []string
	for _, r := range rows {
		if r.checked && !r.ok {
			wrong = append(wrong, fmt.Sprintf("%s %s %s B=%d: max relative difference %.3g, %.3g, %.3g above %.3g", r.precision, r.device, r.schedule, r.blockSize, r.diff[0].MaxRel, r.diff[1].MaxRel, r.diff[2].MaxRel, r.tolerance))
		}
	}
	if len(wrong) > 0 {
		return fmt.Errorf("%d runs disagree with the CPU reference:\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
	return nil
}

// runCFDGPU runs the original kernels and each schedule on the GPU, every
// precision and block size, and compares them with the references it has.
// It returns the rows and a line naming the device.
func runCFDGPU(f *cfdFlags, st *cfdSetup, m *cfd.Mesh, rcm *cfd.Renumbered, parts []cfdPart, refs map[cfd.Precision]*cfd.Result, prog *progress.Reporter) ([]cfdRow, string, error) {
	if f.gpuLock != "" {
		prog.Printf("waiting for the GPU lock %s", f.gpuLock)
		unlock, err := lockFile(f.gpuLock)
		if err != nil {
			return nil, "", fmt.Errorf("--gpu-lock: %w", err)
		}
		defer unlock()
	}
	dev, err := gpu.Open(0)
	if err != nil {
		return nil, "", fmt.Errorf("--gpu: %w", err)
	}
	defer dev.Close()
	g, err := cfd.NewGPU(dev)
	if err != nil {
		return nil, "", fmt.Errorf("--gpu: %w", err)
	}
	device := fmt.Sprintf("%s; cfd kernels: %s PTX", dev.Info(), g.Source())
	n := 0
	for _, b := range st.blockSizes {
		if st.originalRuns {
			n++
		}
		if rcm != nil {
			n++
		}
		for i := range parts {
			if parts[i].sched.BlockSize == b {
				n++
			}
		}
	}
	bar := prog.Count("GPU runs", n*len(st.precisions))
	defer bar.Finish()
	var rows []cfdRow
	for _, prec := range st.precisions {
		for _, b := range st.blockSizes {
			var runs []*cfdPart
			if st.originalRuns {
				runs = append(runs, nil)
			}
			for i := range parts {
				if parts[i].sched.BlockSize == b {
					runs = append(runs, &parts[i])
				}
			}
			for _, p := range runs {
				var sched *cfd.Schedule
				name := "original"
				if p != nil {
					sched, name = p.sched, p.met.Method
				}
				row := cfdRow{precision: prec, device: "gpu", schedule: name, blockSize: b, part: p, iterations: f.iterations}
				bar.Describe(fmt.Sprintf("%s: GPU %s, block size %d, %d iterations", prec, row.schedule, b, f.iterations))
				res, err := g.Simulate(m, sched, prec, b, f.iterations)
				if err != nil {
					return nil, "", fmt.Errorf("%s %s %s B=%d: %w", m.Name, prec, row.schedule, b, err)
				}
				bar.Add(1)
				row.total, row.shared = res.Time, res.Shared
				if err := row.compare(res.Vars, refs[prec], m.N); err != nil {
					return nil, "", err
				}
				rows = append(rows, row)
			}
			if rcm != nil {
				row := cfdRow{precision: prec, device: "gpu", schedule: "rcm", blockSize: b, iterations: f.iterations, prep: rcm.Time}
				bar.Describe(fmt.Sprintf("%s: GPU rcm, block size %d, %d iterations", prec, b, f.iterations))
				res, err := g.Simulate(rcm.Mesh, nil, prec, b, f.iterations)
				if err != nil {
					return nil, "", fmt.Errorf("%s %s rcm B=%d: %w", m.Name, prec, b, err)
				}
				bar.Add(1)
				row.total = res.Time
				if err := row.compare(rcm.Restore(res.Vars), refs[prec], m.N); err != nil {
					return nil, "", err
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, device, nil
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lockFile takes an exclusive flock on path (creating it), waiting while
// another process holds it.
func lockFile(path string) (func(), error) {
	fd, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(fd.Fd()), syscall.LOCK_EX); err != nil {
		fd.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { fd.Close() }, nil
}

// cfdMillis formats a duration in milliseconds with four significant
// digits (GPU iterations take microseconds, CPU ones tens of milliseconds).
func cfdMillis(d time.Duration) string { return fmt.Sprintf("%.4g ms", float64(d)/1e6) }

func writeCFDTables(w io.Writer, faces *cfd.Faces, parts []cfdPart, rows []cfdRow, device string) error {
	if len(parts) > 0 {
		fmt.Fprintf(w, "\npartitions of the %d interior faces (locality graph: a vertex per element, an edge per pair of neighbours)\n", len(faces.A))
		fmt.Fprintln(w, "copies: element loads beyond one per flux evaluation; slots: elements a part stages (shared-memory demand); faces: interior + boundary")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "method\tB\tparts\tpartition\tcopies\tRF\tmax slots\tmax faces\tschedule build\t")
		for _, p := range parts {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f s\t%d\t%.4f\t%d\t%d\t%.3f s\t\n", p.met.Method, p.sched.BlockSize, p.sched.K, p.met.Time.Seconds(),
				p.sched.Copies, p.met.RF, p.sched.MaxSlots, p.sched.MaxFaces, p.buildTime.Seconds())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n%d iterations; time: the iterations only", rows[0].iterations)
	if device != "" {
		fmt.Fprintf(w, " (GPU: CUDA events around them, after a warm-up iteration; %s)", device)
	}
	fmt.Fprintln(w, "; difference from the CPU reference: max |got - ref| / max |ref|")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "prec\tschedule\tB\ttime/iter\ttotal\tpartition\tshared\tdensity\tmomentum\tenergy\tcheck\t")
	for _, r := range rows {
		b, part, shared, d, m, e, check := "-", "-", "-", "ref", "ref", "ref", "reference"
		if !r.reference {
			if r.blockSize > 0 {
				b = strconv.Itoa(r.blockSize)
			}
			if r.part != nil {
				part = fmt.Sprintf("%.3f s", r.part.met.Time.Seconds())
			} else if r.prep > 0 {
				part = fmt.Sprintf("%.3f s", r.prep.Seconds())
			}
			if r.shared > 0 {
				shared = fmt.Sprintf("%.1f KiB", float64(r.shared)/1024)
			}
			d, m, e, check = "-", "-", "-", "unchecked"
			if r.checked {
				d, m, e = fmt.Sprintf("%.2g", r.diff[0].MaxRel), fmt.Sprintf("%.2g", r.diff[1].MaxRel), fmt.Sprintf("%.2g", r.diff[2].MaxRel)
				check = fmt.Sprintf("ok (tol %.2g)", r.tolerance)
				if !r.ok {
					check = fmt.Sprintf("WRONG (tol %.2g)", r.tolerance)
				}
			}
		}
		per := r.total / time.Duration(r.iterations)
		fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%.4g s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.precision, r.device, r.schedule, b, cfdMillis(per), r.total.Seconds(), part, shared, d, m, e, check)
	}
	return tw.Flush()
}

// cfdCSVHeader names the CSV columns; 'spac cfd report' reads them by name.
var cfdCSVHeader = []string{"mesh", "elements", "precision", "device", "schedule", "block_size", "parts", "partition_s", "copies", "rf", "max_slots", "max_faces",
	"shared_bytes", "iterations", "total_s", "per_iteration_ms",
	"density_max_rel", "density_l2_rel", "momentum_max_rel", "momentum_l2_rel", "energy_max_rel", "energy_l2_rel", "tolerance", "ok"}

// writeCFDCSV writes one line per run (or per partition with
// --iterations 0), every measurement in its own column; the difference
// columns and ok are empty for runs not compared with a reference.
func writeCFDCSV(w io.Writer, m *cfd.Mesh, parts []cfdPart, rows []cfdRow) error {
	cw := csv.NewWriter(w)
	cw.Write(cfdCSVHeader)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	partCols := func(p *cfdPart) []string {
		if p == nil {
			return []string{"", "", "", "", "", ""}
		}
		return []string{strconv.Itoa(p.sched.K), g(p.met.Time.Seconds()), strconv.FormatInt(p.sched.Copies, 10),
			g(p.met.RF), strconv.Itoa(p.sched.MaxSlots), strconv.Itoa(p.sched.MaxFaces)}
	}
	head := []string{m.Name, strconv.Itoa(m.N)}
	if len(rows) == 0 {
		for i := range parts {
			rec := append(append([]string{}, head...), "", "", parts[i].met.Method, strconv.Itoa(parts[i].sched.BlockSize))
			rec = append(rec, partCols(&parts[i])...)
			cw.Write(append(rec, make([]string, len(cfdCSVHeader)-len(rec))...))
		}
	}
	for _, r := range rows {
		b, shared := "", ""
		if !r.reference && r.blockSize > 0 {
			b = strconv.Itoa(r.blockSize)
		}
		if r.shared > 0 {
			shared = strconv.Itoa(r.shared)
		}
		rec := append(append([]string{}, head...), r.precision.String(), r.device, r.schedule, b)
		pc := partCols(r.part)
		if r.part == nil && r.prep > 0 {
			pc[1] = g(r.prep.Seconds())
		}
		rec = append(rec, pc...)
		rec = append(rec, shared, strconv.Itoa(r.iterations), g(r.total.Seconds()), g(float64(r.total)/float64(r.iterations)/1e6))
		switch {
		case r.checked:
			for _, d := range r.diff {
				rec = append(rec, g(d.MaxRel), g(d.L2Rel))
			}
			rec = append(rec, g(r.tolerance), strconv.FormatBool(r.ok))
		default:
			rec = append(rec, make([]string, 8)...)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func cfdGenCommand() *cobra.Command {
	var out string
	var seed int64
	var noShuffle, list bool
	c := &cobra.Command{
		Use:   "gen PRESET|mesh:n=N,... -o OUT.domn",
		Short: "Write a generated mesh in Rodinia's .domn format",
		Long: `Generate a mesh and write it in Rodinia's .domn format ("-o -" writes standard
output; a name ending in .gz is gzip-compressed).

Meshes are quadrilaterals in the x-y plane (four faces per element, normals
with z = 0 and the length of the cell's edge), warped and jittered so that
areas and normals vary, around a wing-shaped hole whose faces are wing walls,
with far field outside. Element ids are shuffled unless --no-shuffle, so
that the element order carries no locality of its own.

The format: the element count, then per element its area and four times
"neighbour nx ny nz": neighbour ids 1-based, 0 a wing wall, -1 the far
field; normals point out of the element (euler3d negates them on reading).
Values are written in their shortest exact form: reading the file back
gives the same mesh bit for bit.`,
		Example: `  spac cfd gen fvcorr-097k -o fvcorr.domn.097K
  spac cfd gen mesh:n=5000000 --seed 2 -o big.domn.gz
  spac cfd gen --list`,
		RunE: func(c *cobra.Command, args []string) error {
			if list {
				return printCFDPresets(c.OutOrStdout())
			}
			if len(args) != 1 {
				return usagef("cfd gen takes one preset or mesh: spec, got %d arguments\nsee 'spac cfd gen --help'", len(args))
			}
			if out == "" {
				return usagef("cfd gen needs -o OUT.domn (or -o - for standard output)")
			}
			if _, ok := cfd.LookupPreset(args[0]); !ok && !strings.HasPrefix(args[0], "mesh:") {
				return usagef("%q is neither a preset (%s) nor a mesh: spec", args[0], strings.Join(cfd.PresetNames(), ", "))
			}
			if err := checkOutputs(c, "output"); err != nil {
				return err
			}
			m, _, err := cfdLoadMesh(args[0], seed, noShuffle)
			if err != nil {
				return err
			}
			write := func(w io.Writer) error {
				if !strings.HasSuffix(out, ".gz") {
					return cfd.WriteDomn(w, m)
				}
				zw := gzip.NewWriter(w)
				if err := cfd.WriteDomn(zw, m); err != nil {
					return err
				}
				return zw.Close()
			}
			if err := output.Write(c.Context(), out, c.OutOrStdout(), write); err != nil {
				return err
			}
			if out == output.Stdout {
				return nil
			}
			fmt.Fprintf(os.Stderr, "wrote %s: %d elements (%s)\n", out, m.N, m.Name)
			return nil
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "output .domn file, - for standard output")
	c.Flags().Int64Var(&seed, "seed", 1, "random seed; the same seed gives the same mesh")
	c.Flags().BoolVar(&noShuffle, "no-shuffle", false, "keep the generator's element order (local) instead of a random one")
	c.Flags().BoolVar(&list, "list", false, "list presets and the mesh: spec syntax")
	return c
}

func printCFDPresets(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "preset\tdescription")
	for _, p := range cfd.Presets {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, cfd.SpecHelp)
	return nil
}
