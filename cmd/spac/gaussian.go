package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/gaussian"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/pipeline"
)

// gaussianFlags are the flags of the gaussian command.
type gaussianFlags struct {
	rf         rodiniaFlags
	precisions string
}

func gaussianCommand() *cobra.Command {
	var f gaussianFlags
	c := &cobra.Command{
		Use:   "gaussian IN.txt|matrix:n=N,... [--gpu]",
		Short: "Run Rodinia's gaussian elimination: original, on the RCM-renumbered system, and SPAC-scheduled",
		Long: `Run Rodinia's gaussian benchmark: forward elimination without pivoting of a
dense system A x = b (Fan1: the multipliers of a pivot step; Fan2: the
update of the rows below it), then back substitution on the host, and check
every value of the eliminated A, b and x against the CPU, bit for bit (the
CPU uses the GPU's fused multiply-adds and correctly rounded divisions, and
every value is updated once per step, so no schedule changes a bit).

The input is a file in Rodinia's format (the size n, the matrix row by row,
then b; .gz read through gzip; - is standard input) or a generated system
matrix:n=N[,lambda=L] (Rodinia's gaussian -s N: A[i][j] = 10 exp(-L |i-j|),
L = 0.01, b = 1).

Variants (--variant):
  original  Rodinia's kernels: Fan1 a thread per row; Fan2 a 2D grid over
            the whole matrix at every step, threadIdx.x down the rows (a
            warp touches one column of 32 rows).
  rcm       the same kernels on P A P^T, P b, the unknowns renumbered by
            reverse Cuthill-McKee of A's graph (a dense matrix has no band:
            the baseline shows that renumbering cannot help here); its x,
            mapped back, is also compared with the original's.
  spac      Fan2's tasks (an update reads its row's multiplier and its
            column's pivot value) form a complete bipartite locality graph
            per step; each --method partitions a 64- or 128-wide window of
            it into blocks of B tasks through the shared pipeline, and the
            kernel repeats that template over the active windows of every
            step: a block stages its rows' multipliers and columns' pivot
            values in shared memory and runs its tasks row-major.

Without --gpu every variant runs on the CPU (slow: use small n); with --gpu
on the GPU (a binary built with 'make gpu'): the n-1 steps as one CUDA
graph, timed with CUDA events over --reps runs. The table shows time,
speed-up over the original at the same block size and precision, blocks
over all steps, the partition of the window, the values Fan2 reads at step
0 (loads) and the check; --format csv and json give every field (the JSON
schema is in package apps/btree's documentation).`,
		Example: `  spac gaussian matrix:n=200                         # CPU: every variant, fp32, B=256
  spac gaussian matrix:n=2048 --gpu -b 32,64,128,256,512,1024 --precision fp32,fp64 --format json > g.json
  spac gaussian gen matrix:n=1024 -o matrix1024.txt && spac gaussian matrix1024.txt --gpu`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error { return runGaussian(c, args[0], &f) },
	}
	f.rf.pf.registerPerBlock(c)
	fl := c.Flags()
	f.rf.register(fl, "256", 3)
	fl.StringVar(&f.precisions, "precision", "fp32", "fp32 (Rodinia's), fp64, or both (fp32,fp64)")
	registerFormat(c, &f.rf.format, formatTable, formatCSV, formatJSON)
	registerQuiet(c, &f.rf.quiet)
	c.AddCommand(gaussianGenCommand())
	return c
}

// gaussianLoad generates a spec or reads a file.
func gaussianLoad(arg string) (*gaussian.System, error) {
	if strings.HasPrefix(arg, "matrix:") {
		spec, err := gaussian.ParseSpec(arg)
		if err != nil {
			return nil, usageError{err}
		}
		return gaussian.Generate(spec)
	}
	return gaussian.OpenSystem(arg)
}

func runGaussian(c *cobra.Command, arg string, f *gaussianFlags) error {
	st, err := f.rf.parse()
	if err != nil {
		return err
	}
	precs, err := precision.ParseList(f.precisions)
	if err != nil {
		return usagef("--precision: %v", err)
	}
	if f.rf.useGPU && !gpu.Built {
		return fmt.Errorf("--gpu: %w", gpu.ErrNoCUDA)
	}
	prog := progress.Stderr(f.rf.quiet)
	s, err := gaussianLoad(arg)
	if err != nil {
		return err
	}
	n := s.N
	rep := &rodiniaReport{App: "gaussian", Input: s.Name, Sizes: map[string]int{"n": n}}
	var g *gaussian.GPU
	if f.rf.useGPU {
		dev, done, err := f.rf.openGPU(prog)
		if err != nil {
			return err
		}
		defer done()
		if g, err = gaussian.NewGPU(dev); err != nil {
			return fmt.Errorf("--gpu: %w", err)
		}
		rep.Device = fmt.Sprintf("%s; gaussian kernels: %s PTX", dev.Info(), g.Source())
	}
	checked := !(f.rf.useGPU && f.rf.noReference)

	// The RCM-renumbered system, once.
	var ps *gaussian.System
	var perm []int32
	var rcmTime time.Duration
	if st.has("rcm") {
		perm, rcmTime = gaussian.RCM(s)
		if ps, err = s.Permute(perm); err != nil {
			return err
		}
	}
	// Templates, once per block size and method.
	templates := map[int][]*gaussian.Template{}
	if st.has("spac") {
		for _, b := range st.blockSizes {
			for _, m := range st.methods {
				tp, err := gaussian.NewTemplate(c.Context(), b, pipeline.PartitionConfig{Method: m.Name(), Settings: st.opts}, prog)
				if err != nil {
					return err
				}
				templates[b] = append(templates[b], tp)
			}
		}
	}
	notes := []string{fmt.Sprintf("system %s: n = %d (%d Fan2 tasks at step 0); RCM ordering %.3f s", s.Name, n, (n-1)*n, rcmTime.Seconds())}
	for _, p := range precs {
		// References: the CPU's elimination of the system and of the
		// renumbered one, in this precision.
		var ref, pref *gaussian.Solution
		var refTime, prefTime time.Duration
		if checked || g == nil {
			prog.Printf("%s: CPU reference elimination, n = %d", p, n)
			start := time.Now()
			ref, _ = gaussian.Solve(s, p)
			refTime = time.Since(start)
			if ps != nil {
				start = time.Now()
				pref, _ = gaussian.Solve(ps, p)
				prefTime = time.Since(start)
			}
		}
		for _, b := range st.blockSizes {
			base := rodiniaRun{Kernel: "elimination", Device: "cpu", Precision: p.String(), BlockSize: b, Reps: 1,
				Loads: (*gaussian.Template)(nil).Loads(n), Blocks: gaussian.Blocks(n, b, nil)}
			if g != nil {
				base.Device, base.Reps = "gpu", f.rf.reps
			}
			// The original kernels on the system and on its RCM renumbering:
			// on the CPU their references are the runs.
			type plain struct {
				variant  string
				sys      *gaussian.System
				exact    *gaussian.Solution
				cpuTime  time.Duration
				perm     []int32
				ordering time.Duration
			}
			var plains []plain
			if st.has("original") {
				plains = append(plains, plain{"original", s, ref, refTime, nil, 0})
			}
			if ps != nil {
				plains = append(plains, plain{"rcm", ps, pref, prefTime, perm, rcmTime})
			}
			for _, v := range plains {
				r := base
				r.Variant, r.PartitionS = v.variant, v.ordering.Seconds()
				sol, t := v.exact, v.cpuTime
				if g != nil {
					if sol, t, err = gaussianGPU(g, v.sys, nil, p, b, f.rf.reps, prog); err != nil {
						return err
					}
				}
				r.TimeMS = ms(t)
				if err := gaussianCheck(&r, sol, v.exact, ref, v.perm); err != nil {
					return err
				}
				rep.Runs = append(rep.Runs, r)
			}
			for _, tp := range templates[b] {
				r := base
				r.Variant, r.Loads, r.Blocks = "spac", tp.Loads(n), gaussian.Blocks(n, b, tp)
				r.setPartition(tp.Metrics, tp.BuildTime, b)
				r.SharedBytes = gaussian.SharedBytes(tp, p)
				var sol *gaussian.Solution
				var t time.Duration
				if g != nil {
					sol, t, err = gaussianGPU(g, s, tp, p, b, f.rf.reps, prog)
				} else {
					prog.Printf("%s: CPU run of the %s template, B=%d", p, tp.Method, b)
					start := time.Now()
					sol, err = gaussian.SolveTemplate(tp, s, p)
					t = time.Since(start)
				}
				if err != nil {
					return err
				}
				r.TimeMS = ms(t)
				if err := gaussianCheck(&r, sol, ref, ref, nil); err != nil {
					return err
				}
				rep.Runs = append(rep.Runs, r)
			}
		}
	}
	for _, b := range st.blockSizes {
		bx, by, _ := gaussian.Fan2Shape(b)
		line := fmt.Sprintf("B=%d: original Fan2 blocks of %d rows x %d columns", b, bx, by)
		for _, tp := range templates[b] {
			line += fmt.Sprintf("; %s template: window %d, %d parts, %.1f rows+columns staged a part (a square part stages %d)",
				tp.Method, tp.W, tp.K, float64(len(tp.Rows)+len(tp.Cols))/float64(tp.K), 2*isqrtCeil(b))
		}
		notes = append(notes, line)
	}
	return rep.write(c.OutOrStdout(), f.rf.format, notes)
}

func isqrtCeil(b int) int {
	r := 1
	for r*r < b {
		r++
	}
	return r
}

// gaussianGPU runs one elimination on the GPU.
func gaussianGPU(g *gaussian.GPU, s *gaussian.System, tp *gaussian.Template, p gaussian.Precision, b, reps int, prog *progress.Reporter) (*gaussian.Solution, time.Duration, error) {
	what := "original"
	if tp != nil {
		what = "spac (" + tp.Method + ")"
	}
	prog.Printf("%s: GPU %s, n = %d, B=%d", p, what, s.N, b)
	res, err := g.Eliminate(s, tp, p, b, reps)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s B=%d: %w", s.Name, p, b, err)
	}
	return &res.Solution, res.Time.Median, nil
}

// gaussianCheck compares a run with its exact reference (nil: unchecked)
// and, through perm (the renumbering of a permuted run, nil: none), its x
// with the original system's, which must then agree within
// gaussian.Tolerance.
func gaussianCheck(r *rodiniaRun, sol, exact, orig *gaussian.Solution, perm []int32) error {
	if exact == nil {
		return nil
	}
	d, err := gaussian.Compare(sol, exact)
	if err != nil {
		return err
	}
	r.Checked, r.Mismatches, r.OK = true, d.Mismatches, d.Mismatches == 0
	x := sol.X
	if perm != nil {
		x = make([]float64, len(sol.X))
		for i, old := range perm {
			x[old] = sol.X[i]
		}
	}
	r.MaxRelDiff = gaussian.RelDiff(x, orig.X)
	if perm != nil {
		p, _ := precision.Parse(r.Precision)
		r.OK = r.OK && r.MaxRelDiff <= gaussian.Tolerance(p, len(x))
	}
	return nil
}

func gaussianGenCommand() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "gen matrix:n=N,... -o OUT.txt",
		Short: "Write a generated system in Rodinia's gaussian input format",
		Long: `Generate a system as Rodinia's gaussian -s N does and write it in Rodinia's
input format: the size, the matrix a row a line, a blank line, b ("-o -"
writes standard output; a name ending in .gz is gzip-compressed). Values are
written in their shortest exact form: reading the file back gives the same
system bit for bit.

` + gaussian.SpecHelp,
		Example: `  spac gaussian gen matrix:n=1024 -o matrix1024.txt`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 || !strings.HasPrefix(args[0], "matrix:") {
				return usagef("gaussian gen takes one matrix: spec\nsee 'spac gaussian gen --help'")
			}
			if out == "" {
				return usagef("gaussian gen needs -o OUT.txt (or -o - for standard output)")
			}
			if err := checkOutputs(c, "output"); err != nil {
				return err
			}
			s, err := gaussianLoad(args[0])
			if err != nil {
				return err
			}
			return writeInput(c, out, func(w io.Writer) error { return gaussian.WriteSystem(w, s) }, fmt.Sprintf("n = %d", s.N))
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "output file, - for standard output")
	return c
}
