package main

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/enum"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/spac"
)

// The report of 'spac btree' and 'spac gaussian' (the Rodinia apps that
// compare the original kernels, the original on RCM-ordered data and
// SPAC): one schema for both, documented in package apps/btree, read by
// scripts/rodinia-sweep.sh.

// rodiniaReport is the whole output of one command.
type rodiniaReport struct {
	App    string         `json:"app"`
	Input  string         `json:"input"`
	Device string         `json:"device"`
	Sizes  map[string]int `json:"sizes"`
	Runs   []rodiniaRun   `json:"runs"`
}

// rodiniaRun is one variant of one kernel at one block size.
type rodiniaRun struct {
	Kernel      string  `json:"kernel"`
	Variant     string  `json:"variant"`
	Method      string  `json:"method"`
	Device      string  `json:"device"`
	Precision   string  `json:"precision"`
	BlockSize   int     `json:"block_size"`
	Blocks      int64   `json:"blocks"`
	TimeMS      float64 `json:"time_ms"`
	Reps        int     `json:"reps"`
	PartitionS  float64 `json:"partition_s"`
	ScheduleS   float64 `json:"schedule_s"`
	Parts       int     `json:"parts"`
	PerBlock    int     `json:"per_block"`
	Copies      int64   `json:"copies"`
	RF          float64 `json:"rf"`
	Loads       int64   `json:"loads"`
	SharedBytes int     `json:"shared_bytes"`
	Checked     bool    `json:"checked"`
	OK          bool    `json:"ok"`
	Mismatches  int     `json:"mismatches"`
	MaxRelDiff  float64 `json:"max_rel_diff"`
}

// setPartition fills the partition's columns of a spac run.
func (r *rodiniaRun) setPartition(met spac.Metrics, build time.Duration, perBlock int) {
	r.Method, r.PartitionS, r.ScheduleS = met.Method, met.Time.Seconds(), build.Seconds()
	r.Parts, r.PerBlock, r.Copies, r.RF = met.K, perBlock, met.Copies, met.RF
}

// rodiniaVariants are the variants a run may choose (--variant).
var rodiniaVariants = words("variant", "original", "rcm", "spac")

// isSPAC says whether a variant runs a SPAC partition (spac, and b+tree's
// spac-swap).
func isSPAC(variant string) bool { return variant == "spac" || strings.HasPrefix(variant, "spac-") }

// rodiniaFlags are the flags 'spac btree' and 'spac gaussian' share.
type rodiniaFlags struct {
	pf          partFlags
	useGPU      bool
	noReference bool
	gpuLock     string
	blockSizes  string
	variants    string
	vocab       *enum.Table[string] // the variants --variant accepts; nil: rodiniaVariants
	methods     string
	reps        int
	format      outputFormat
	quiet       bool
}

func (f *rodiniaFlags) register(fl interface {
	BoolVar(*bool, string, bool, string)
	StringVar(*string, string, string, string)
	StringVarP(*string, string, string, string, string)
	IntVar(*int, string, int, string)
}, defaultBlocks string, reps int) {
	fl.BoolVar(&f.useGPU, "gpu", false, "run on the GPU (needs a binary built with 'make gpu')")
	fl.BoolVar(&f.noReference, "no-reference", false, "with --gpu: skip the CPU reference and the check against it (timing sweeps of large inputs)")
	fl.StringVar(&f.gpuLock, "gpu-lock", "", "with --gpu: hold an exclusive lock (flock) on this file while using the GPU")
	fl.StringVarP(&f.blockSizes, "block-size", "b", defaultBlocks, "threads per block, comma-separated")
	fl.StringVar(&f.variants, "variant", "original,rcm,spac", "variants to run, comma-separated: original (Rodinia's kernels), rcm (the original on RCM-ordered data), spac")
	fl.StringVarP(&f.methods, "method", "m", "spac", "partitioning methods of the spac variant, comma-separated ("+strings.Join(spac.MethodNames(), ",")+")")
	fl.IntVar(&f.reps, "reps", reps, "timed repetitions on the GPU (the median is reported), after one warm-up")
}

// rodiniaSetup is the parsed shared flags.
type rodiniaSetup struct {
	blockSizes []int
	variants   []string
	methods    []spac.Method
	opts       spac.Options
}

func (s *rodiniaSetup) has(variant string) bool { return slices.Contains(s.variants, variant) }

func (f *rodiniaFlags) parse() (*rodiniaSetup, error) {
	var st rodiniaSetup
	for _, s := range cfdSplitList(f.blockSizes) {
		b, err := strconv.Atoi(s)
		if err != nil || b < 32 || b > 1024 || b%32 != 0 {
			return nil, usagef("--block-size %q: a thread block is a multiple of 32 threads from 32 to 1024, such as 32,64,128,256,512,1024", s)
		}
		st.blockSizes = append(st.blockSizes, b)
	}
	vocab := f.vocab
	if vocab == nil {
		vocab = rodiniaVariants
	}
	var err error
	if st.variants, err = vocab.ParseList(f.variants); err != nil {
		return nil, usagef("--variant: %v", err)
	}
	for _, s := range cfdSplitList(f.methods) {
		m, err := spac.Lookup(s)
		if err != nil {
			return nil, usagef("--method: %v", err)
		}
		st.methods = append(st.methods, m)
	}
	switch {
	case len(st.blockSizes) == 0 || len(st.variants) == 0 || len(st.methods) == 0:
		return nil, usagef("--block-size, --variant and --method each need at least one value")
	case !f.useGPU && (f.noReference || f.gpuLock != ""):
		return nil, usagef("--no-reference and --gpu-lock go with --gpu")
	}
	if err := intIn("reps", f.reps, 1, 10000, "timed launches"); err != nil {
		return nil, err
	}
	if st.opts, err = f.pf.settings(); err != nil {
		return nil, err
	}
	return &st, nil
}

// openGPU takes the GPU lock if asked and opens the device.
func (f *rodiniaFlags) openGPU(prog *progress.Reporter) (*gpu.Device, func(), error) {
	unlock := func() {}
	if f.gpuLock != "" {
		prog.Printf("waiting for the GPU lock %s", f.gpuLock)
		u, err := lockFile(f.gpuLock)
		if err != nil {
			return nil, nil, fmt.Errorf("--gpu-lock: %w", err)
		}
		unlock = u
	}
	dev, err := gpu.Open(0)
	if err != nil {
		unlock()
		return nil, nil, fmt.Errorf("--gpu: %w", err)
	}
	return dev, func() { dev.Close(); unlock() }, nil
}

// write prints the report in the chosen format and fails when a run
// disagrees with the CPU.
func (rep *rodiniaReport) write(w io.Writer, format outputFormat, notes []string) error {
	var err error
	switch format {
	case formatJSON:
		for i := range rep.Runs {
			if d := rep.Runs[i].MaxRelDiff; math.IsNaN(d) || math.IsInf(d, 0) {
				rep.Runs[i].MaxRelDiff = math.MaxFloat64 // JSON has no infinity
			}
		}
		err = writeJSON(w, rep)
	case formatCSV:
		err = rep.writeCSV(w)
	default:
		err = rep.writeTable(w, notes)
	}
	if err != nil {
		return err
	}
	var wrong []string
	for _, r := range rep.Runs {
		if r.Checked && !r.OK {
			wrong = append(wrong, fmt.Sprintf("%s %s %s %s B=%d: %d mismatches", r.Kernel, r.Precision, r.Device, r.name(), r.BlockSize, r.Mismatches))
		}
	}
	if len(wrong) > 0 {
		return fmt.Errorf("%d runs disagree with the CPU reference:\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
	return nil
}

// name is the variant, with the method of a spac run.
func (r *rodiniaRun) name() string {
	if isSPAC(r.Variant) && r.Method != "spac" {
		return r.Variant + ":" + r.Method
	}
	return r.Variant
}

// rodiniaCSVHeader names the CSV columns: the JSON fields of a run, after
// the report's app and input.
var rodiniaCSVHeader = []string{"app", "input", "kernel", "variant", "method", "device", "precision", "block_size", "blocks",
	"time_ms", "reps", "partition_s", "schedule_s", "parts", "per_block", "copies", "rf", "loads", "shared_bytes",
	"checked", "ok", "mismatches", "max_rel_diff"}

func (rep *rodiniaReport) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(rodiniaCSVHeader)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, r := range rep.Runs {
		cw.Write([]string{rep.App, rep.Input, r.Kernel, r.Variant, r.Method, r.Device, r.Precision, strconv.Itoa(r.BlockSize),
			strconv.FormatInt(r.Blocks, 10), g(r.TimeMS), strconv.Itoa(r.Reps), g(r.PartitionS), g(r.ScheduleS),
			strconv.Itoa(r.Parts), strconv.Itoa(r.PerBlock), strconv.FormatInt(r.Copies, 10), g(r.RF),
			strconv.FormatInt(r.Loads, 10), strconv.Itoa(r.SharedBytes), strconv.FormatBool(r.Checked),
			strconv.FormatBool(r.OK), strconv.Itoa(r.Mismatches), g(r.MaxRelDiff)})
	}
	cw.Flush()
	return cw.Error()
}

// writeTable prints the notes, then a line per run with the speed-up over
// the original at the same kernel, precision and block size.
func (rep *rodiniaReport) writeTable(w io.Writer, notes []string) error {
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	if len(rep.Runs) == 0 {
		return nil
	}
	if rep.Device != "" {
		fmt.Fprintf(w, "GPU: %s; times: CUDA events, median of the timed repetitions after a warm-up\n", rep.Device)
	}
	fmt.Fprintln(w, "loads: global loads of data objects (b+tree: nodes whose keys are read; gaussian: values Fan2 reads at step 0); speed-up: the original's time at the same B over this run's")
	orig := map[string]float64{}
	key := func(r rodiniaRun) string { return fmt.Sprint(r.Kernel, r.Precision, r.Device, r.BlockSize) }
	for _, r := range rep.Runs {
		if r.Variant == "original" {
			orig[key(r)] = r.TimeMS
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\tprec\tdevice\tB\tvariant\ttime\tspeed-up\tblocks\tparts\tper block\tcopies\tloads\tshared\tpartition\tcheck\t")
	for _, r := range rep.Runs {
		prec, speed, parts, per, copies, shared, part := "-", "-", "-", "-", "-", "-", "-"
		if r.Precision != "" {
			prec = r.Precision
		}
		if o, ok := orig[key(r)]; ok && r.TimeMS > 0 {
			speed = fmt.Sprintf("%.2f", o/r.TimeMS)
		}
		if r.Parts > 0 {
			parts, per, copies = strconv.Itoa(r.Parts), strconv.Itoa(r.PerBlock), strconv.FormatInt(r.Copies, 10)
		}
		if r.SharedBytes > 0 {
			shared = fmt.Sprintf("%.1f KiB", float64(r.SharedBytes)/1024)
		}
		if r.PartitionS > 0 {
			part = fmt.Sprintf("%.3f s", r.PartitionS)
		}
		check := "unchecked"
		switch {
		case r.Checked && r.OK && r.MaxRelDiff > 0:
			check = fmt.Sprintf("ok (x %.2g)", r.MaxRelDiff)
		case r.Checked && r.OK:
			check = "ok"
		case r.Checked:
			check = fmt.Sprintf("WRONG (%d)", r.Mismatches)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%.4g ms\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t\n", r.Kernel, prec, r.Device, r.BlockSize, r.name(),
			r.TimeMS, speed, r.Blocks, parts, per, copies, r.Loads, shared, part, check)
	}
	return tw.Flush()
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// writeInput writes a generated input file through output.Write ("-":
// standard output), gzip-compressed when the name ends in .gz, and says so
// on standard error.
func writeInput(c *cobra.Command, path string, fill func(io.Writer) error, what string) error {
	write := fill
	if strings.HasSuffix(path, ".gz") {
		write = func(w io.Writer) error {
			zw := gzip.NewWriter(w)
			if err := fill(zw); err != nil {
				return err
			}
			return zw.Close()
		}
	}
	if err := output.Write(c.Context(), path, c.OutOrStdout(), write); err != nil {
		return err
	}
	if path != output.Stdout {
		fmt.Fprintf(os.Stderr, "wrote %s: %s\n", path, what)
	}
	return nil
}
