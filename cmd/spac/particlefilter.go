package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	pf "github.com/spac-gpu/spac/apps/particlefilter"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/spac"
)

// pfFlags are the flags of the particlefilter command.
type pfFlags struct {
	pf          partFlags
	x, y, z, np int
	videoSeed   int64
	useGPU      bool
	gpuLock     string
	blockSizes  string
	variants    string
	methods     string
	precisions  string
	format      outputFormat
	out         string
	quiet       bool
	flagsGiven  func(name string) bool
}

var pfVariants = words("variant", pf.Original, pf.Naive, pf.RCM, pf.SPAC)

func particlefilterCommand() *cobra.Command {
	var f pfFlags
	c := &cobra.Command{
		Use:   "particlefilter [rodinia|h100|pf:x=X,y=Y,z=FRAMES,np=N] [--gpu]",
		Short: "Run Rodinia's particlefilter, original, RCM-ordered and SPAC-scheduled, and compare them",
		Long: `Run Rodinia's particlefilter (a particle filter tracking a disk through a
synthetic noisy video) and report, per variant and block size, the time of
all frames, the inspector's time (RCM orders, SPAC partitions), and how far
each run's final state is from the CPU reference.

The input is a preset (rodinia: Rodinia's -x 128 -y 128 -z 10 -np 1000, the
default; h100: a 256 x 256 video of 10 frames and 4096 particles) or a spec
pf:x=X,y=Y,z=FRAMES,np=N[,seed=S]; -x, -y, -z and --np override it, as
Rodinia's flags do. --video-seed stands for Rodinia's time(0).

Variants (--variant): original is Rodinia's particlefilter_float, every
step on the GPU (a thread per particle; find-index searches the cumulative
weights linearly, quadratic in the particle count); naive is Rodinia's
particlefilter_naive, only find-index on the GPU, the rest on the host with
copies every frame; rcm is the original with the likelihood's threads in
reverse Cuthill-McKee order of each frame's particle-pixel graph; spac
computes the likelihood by samples (a thread per particle's pixel) on each
frame's SPAC schedule (--method: spac or a baseline), a block staging its
pixels and adding into its particles' sums in shared memory. Particles move
every frame, so rcm and spac order or partition every frame, from the CPU
reference's trajectory (the inspector; the frames run in parallel): the
partition column is what that costs, all frames together.

Without --gpu the variants run on the CPU (rcm and spac as their kernels
compute), each checked against the reference. With --gpu (a binary built
with 'make gpu') they run on the GPU, timed between CUDA events after a
warm-up run (naive by the wall clock, its host work included), and are
checked against the CPU reference: positions within 1e-9 pixels, weights
within 1e-9 of the largest, and no particle drawn from another parent.
Rodinia's program is double precision throughout: --precision takes fp64
only (in fp32 the weights exp(+-330) overflow).

The table, --format csv and --format json are those of 'spac btree' and
'spac gaussian' (the JSON schema is in package apps/btree's documentation:
kernel "filter", time_ms all tracked frames, partition_s the inspector's
time; on the GPU every variant but naive has a second row, kernel
"likelihood", whose time_ms is the likelihood's kernels alone, the steps
the variants differ in, each frame's timed on its own), which
scripts/rodinia-sweep.sh reads; -o writes them to a file
instead of standard output.`,
		Example: `  spac particlefilter                                     # Rodinia's input on the CPU: reference vs rcm and spac at B=512
  spac particlefilter --gpu -b 32,64,128,256,512,1024
  spac particlefilter h100 --gpu -b 128,1024 --variant original,naive,rcm,spac
  spac particlefilter -x 256 -y 256 -z 20 --np 4000 --gpu --format json -o pf.json`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("%s takes one input (a preset or a pf: spec), got %d arguments\nsee '%s --help'", c.Name(), len(args), c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			input := "rodinia"
			if len(args) == 1 {
				input = args[0]
			}
			f.flagsGiven = func(name string) bool { return c.Flags().Changed(name) }
			return runParticleFilter(c, input, &f)
		},
	}
	f.pf.registerPerBlock(c)
	fl := c.Flags()
	fl.IntVarP(&f.x, "x", "x", 0, "frame rows (Rodinia's -x); 0: the input's")
	fl.IntVarP(&f.y, "y", "y", 0, "frame columns (Rodinia's -y); 0: the input's")
	fl.IntVarP(&f.z, "z", "z", 0, "frames (Rodinia's -z); 0: the input's")
	fl.IntVar(&f.np, "np", 0, "particles (Rodinia's -np); 0: the input's")
	fl.Int64Var(&f.videoSeed, "video-seed", pf.DefaultSeed, "Rodinia's time(0): particle i's generator starts at seed*i")
	fl.BoolVar(&f.useGPU, "gpu", false, "run the variants on the GPU (needs a binary built with 'make gpu')")
	fl.StringVar(&f.gpuLock, "gpu-lock", "", "with --gpu: hold an exclusive lock (flock) on this file while using the GPU")
	fl.StringVarP(&f.blockSizes, "block-size", "b", "512", "threads per block, comma-separated multiples of 32 up to 1024; Rodinia's is 512")
	fl.StringVar(&f.variants, "variant", "original,rcm,spac", "variants, comma-separated: "+strings.Join(pf.Variants, ", ")+" (the CPU reference always runs)")
	fl.StringVarP(&f.methods, "method", "m", "spac", "partitioning methods of the spac variant, comma-separated ("+strings.Join(spac.MethodNames(), ",")+")")
	fl.StringVar(&f.precisions, "precision", "fp64", "fp64 (Rodinia's; fp32 is refused: its weights overflow)")
	fl.StringVarP(&f.out, "output", "o", output.Stdout, "where the results go (- for standard output)")
	registerFormat(c, &f.format, formatTable, formatCSV, formatJSON)
	registerQuiet(c, &f.quiet)
	return c
}

// pfSetup is the parsed command line.
type pfSetup struct {
	spec       pf.Spec
	blockSizes []int
	variants   []string
	methods    []spac.Method
}

func (f *pfFlags) parse(input string) (*pfSetup, error) {
	var st pfSetup
	var ok bool
	if st.spec, ok = pf.LookupPreset(input); !ok {
		if !strings.HasPrefix(input, "pf:") {
			return nil, usagef("%q is neither a preset (%s) nor a pf: spec\n%s", input, strings.Join(pf.PresetNames(), ", "), pf.SpecHelp)
		}
		var err error
		if st.spec, err = pf.ParseSpec(input); err != nil {
			return nil, usageError{err}
		}
	}
	for _, o := range []struct {
		name string
		v    int
		to   *int
	}{{"x", f.x, &st.spec.X}, {"y", f.y, &st.spec.Y}, {"z", f.z, &st.spec.Frames}, {"np", f.np, &st.spec.Particles}} {
		if f.flagsGiven(o.name) {
			*o.to = o.v
		}
	}
	if f.flagsGiven("video-seed") {
		st.spec.Seed = f.videoSeed
	}
	if err := st.spec.Validate(); err != nil {
		return nil, usageError{err}
	}
	// Block sizes, methods and the GPU lock are checked as the other
	// Rodinia apps check them; the variants are the particle filter's.
	rf := rodiniaFlags{pf: f.pf, useGPU: f.useGPU, gpuLock: f.gpuLock, blockSizes: f.blockSizes, variants: pf.Original, methods: f.methods, reps: 1}
	shared, err := rf.parse()
	if err != nil {
		return nil, err
	}
	for _, b := range shared.blockSizes {
		if !slices.Contains(st.blockSizes, b) {
			st.blockSizes = append(st.blockSizes, b)
		}
	}
	st.methods = shared.methods
	if st.variants, err = pfVariants.ParseList(f.variants); err != nil {
		return nil, usagef("--variant: %v", err)
	}
	precs, err := precision.ParseList(f.precisions)
	if err != nil {
		return nil, usagef("--precision: %v", err)
	}
	if slices.Contains(precs, precision.FP32) {
		return nil, usagef("--precision fp32: Rodinia's particlefilter is double precision; in fp32 its weights exp(likelihood), likelihoods of +-330, overflow and underflow")
	}
	switch {
	case len(st.variants) == 0:
		return nil, usagef("--variant needs at least one value")
	case !f.useGPU && slices.Equal(st.variants, []string{pf.Naive}):
		return nil, usagef("--variant naive: on the CPU the naive program is the reference; run it with --gpu")
	}
	return &st, nil
}

// pfRun is one run in the Rodinia apps' report (rodiniaReport, the schema
// of apps/btree's package documentation): kernel "filter", time_ms all
// tracked frames (on the GPU a second row, kernel "likelihood", has
// time_ms the likelihood's kernels alone, GPUResult.Likelihood), partition_s the inspector's time over all frames (RCM
// orders, SPAC partitions and schedules), parts the frames' parts
// together, mismatches the particles drawn from another parent, and
// max_rel_diff the larger of the weights' difference (relative to the
// largest weight) and the positions' (relative to the largest position).
func pfRun(p *pf.Plan, device string, t time.Duration, blocks int64, shared int, d *pf.Diff, ref *pf.Result) rodiniaRun {
	r := rodiniaRun{Kernel: "filter", Variant: pf.Original, Device: device, Precision: "fp64", Blocks: blocks, TimeMS: ms(t), Reps: 1, SharedBytes: shared}
	if p != nil {
		r.Variant, r.BlockSize, r.PartitionS = p.Variant, p.BlockSize, p.Prep.Seconds()
		if p.Variant == pf.SPAC {
			r.Method, r.PerBlock, r.Copies = p.Method, p.BlockSize, p.Copies
			var vertices int64
			for _, fs := range p.Frames {
				r.Parts += fs.Metrics.K
				vertices += int64(fs.Metrics.Vertices)
			}
			if vertices > 0 {
				r.RF = 1 + float64(p.Copies)/float64(vertices)
			}
		}
	}
	if d != nil {
		r.Checked, r.OK, r.Mismatches = true, d.OK(), d.Moved
		scale := 0.0
		for i := range ref.X {
			scale = math.Max(scale, math.Max(math.Abs(ref.X[i]), math.Abs(ref.Y[i])))
		}
		r.MaxRelDiff = d.MaxWeight
		if scale > 0 {
			r.MaxRelDiff = math.Max(r.MaxRelDiff, d.MaxPosition/scale)
		}
	}
	return r
}

func runParticleFilter(c *cobra.Command, input string, f *pfFlags) error {
	st, err := f.parse(input)
	if err != nil {
		return err
	}
	if f.useGPU && !gpu.Built {
		return fmt.Errorf("--gpu: %w", gpu.ErrNoCUDA)
	}
	if err := checkOutputs(c, "output"); err != nil {
		return err
	}
	ctx := c.Context()
	prog := progress.Stderr(f.quiet)
	spec := st.spec
	prog.Printf("particle filter %s: video %d x %d x %d, %d particles", spec.Name(), spec.X, spec.Y, spec.Frames, spec.Particles)
	v, seed, err := pf.NewVideo(spec)
	if err != nil {
		return err
	}
	ref, tr, err := pf.ReferenceOn(ctx, v, seed)
	if err != nil {
		return err
	}
	rep := &rodiniaReport{App: "particlefilter", Input: spec.Name(),
		Sizes: map[string]int{"x": spec.X, "y": spec.Y, "frames": spec.Frames, "particles": spec.Particles, "samples": pf.CountOnes}}
	rep.Runs = append(rep.Runs, pfRun(nil, "cpu", ref.Time, 0, 0, nil, ref))

	// Plans: the inspector's orders and partitions, per block size.
	var plans []*pf.Plan
	for _, b := range st.blockSizes {
		for _, variant := range st.variants {
			switch variant {
			case pf.Original, pf.Naive:
				plans = append(plans, &pf.Plan{Variant: variant, BlockSize: b})
			case pf.RCM:
				prog.Printf("ordering %d frames by RCM, block size %d", spec.Frames-1, b)
				p, err := pf.PlanRCM(ctx, v, tr, b)
				if err != nil {
					return err
				}
				plans = append(plans, p)
			case pf.SPAC:
				for _, m := range st.methods {
					opts, err := f.pf.settings()
					if err != nil {
						return err
					}
					prog.Printf("partitioning %d frames of %d samples: %s, block size %d", spec.Frames-1, spec.Particles*pf.CountOnes, m.Name(), b)
					p, err := pf.PlanSPAC(ctx, v, tr, m, b, opts, prog)
					if err != nil {
						return err
					}
					plans = append(plans, p)
				}
			}
		}
	}

	if f.useGPU {
		if rep.Device, err = runPFGPU(ctx, f, v, seed, plans, ref, rep, prog); err != nil {
			return err
		}
	} else {
		bar := prog.Count("CPU runs", len(plans))
		for _, p := range plans {
			if p.Variant == pf.Original || p.Variant == pf.Naive {
				bar.Add(1)
				continue // the reference itself
			}
			bar.Describe(fmt.Sprintf("CPU %s, block size %d", p.Variant, p.BlockSize))
			res, err := pf.Simulate(ctx, v, seed, p)
			if err != nil {
				return err
			}
			bar.Add(1)
			d, err := pf.Compare(res, ref)
			if err != nil {
				return err
			}
			rep.Runs = append(rep.Runs, pfRun(p, "cpu", res.Time, 0, p.MaxShared, &d, ref))
		}
		bar.Finish()
	}

	notes := []string{fmt.Sprintf("particle filter %s: video %d x %d, %d frames (%d tracked), %d particles, %d samples each",
		spec.Name(), spec.X, spec.Y, spec.Frames, spec.Frames-1, spec.Particles, pf.CountOnes)}
	if n := len(ref.Estimate); n > 0 {
		e := ref.Estimate[n-1]
		notes = append(notes, fmt.Sprintf("reference estimate of the last frame: (%.3f, %.3f)", e[0], e[1]))
	}
	notes = append(notes, "the cpu original (B 0) is the reference; time: all tracked frames (naive on the GPU by the wall clock, host work included); partition: the inspector's per-frame RCM orders or SPAC partitions and schedules, all frames",
		"check: positions within 1e-9 pixels, weights within 1e-9 of the largest, no particle drawn from another parent (x: the larger relative difference; WRONG (n): n particles drawn from another parent)")
	// The document is complete before it is written, so that -o keeps the
	// runs also when one disagrees with the reference (the error follows).
	var buf bytes.Buffer
	werr := rep.write(&buf, f.format, notes)
	if err := output.Write(ctx, f.out, c.OutOrStdout(), func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
		return err
	}
	return werr
}

// runPFGPU runs every plan on the GPU, compares it with the reference and
// adds it to rep; it returns a line naming the device.
func runPFGPU(ctx context.Context, f *pfFlags, v *pf.Video, seed []int32, plans []*pf.Plan, ref *pf.Result, rep *rodiniaReport, prog *progress.Reporter) (string, error) {
	rf := rodiniaFlags{gpuLock: f.gpuLock}
	dev, done, err := rf.openGPU(prog)
	if err != nil {
		return "", err
	}
	defer done()
	g, err := pf.NewGPU(dev)
	if err != nil {
		return "", fmt.Errorf("--gpu: %w", err)
	}
	device := fmt.Sprintf("%s; particlefilter kernels: %s PTX", dev.Info(), g.Source())
	bar := prog.Count("GPU runs", len(plans))
	defer bar.Finish()
	for _, p := range plans {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		bar.Describe(fmt.Sprintf("GPU %s %s, block size %d", p.Variant, p.Method, p.BlockSize))
		res, err := g.Run(v, seed, p)
		if err != nil {
			return "", fmt.Errorf("%s %s B=%d: %w", p.Variant, p.Method, p.BlockSize, err)
		}
		bar.Add(1)
		d, err := pf.Compare(&res.Result, ref)
		if err != nil {
			return "", err
		}
		r := pfRun(p, "gpu", res.Time, int64(res.Blocks), res.Shared, &d, ref)
		rep.Runs = append(rep.Runs, r)
		if res.Likelihood > 0 {
			// The steps the variants differ in, alone: the paper's
			// likelihood kernel.
			r.Kernel, r.TimeMS = "likelihood", ms(res.Likelihood)
			rep.Runs = append(rep.Runs, r)
		}
	}
	return device, nil
}
