package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/plots"
)

func cfdReportCommand() *cobra.Command {
	var out, title string
	c := &cobra.Command{
		Use:   "report RESULTS.csv... -o DIR",
		Short: "Render GPU cfd runs (spac cfd --gpu --format csv) as a report and a plot like the paper's Fig. 14",
		Long: `Read the CSV output of 'spac cfd --gpu --format csv' (one or more files,
each from any mesh, precision and block sizes) and write into DIR:

  report.md   per mesh and precision the best time per iteration of the
              original kernels and of each schedule, at which block size,
              and the speedup (best original over best SPAC: above 1 means
              SPAC is faster); the time per iteration at every block size;
              the largest difference from the CPU reference of every run
  fig14.svg   time per iteration against block size, original vs SPAC, a
  fig14.png   panel per mesh and precision (the paper's Fig. 14), as SVG
              and as PNG
  results.csv the GPU rows of every input, merged`,
		Example: `  spac cfd fvcorr-097k --gpu -b 128,192,256,384,512,1024 --precision fp32 --format csv > a.csv
  spac cfd report a.csv b.csv -o out/`,
		Args: reportInputs("CSV"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := reportOutput(c, out); err != nil {
				return err
			}
			return runCFDReport(c.Context(), args, out, title, c.ErrOrStderr())
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "directory to write report.md, fig14.svg, fig14.png and results.csv into")
	c.Flags().StringVar(&title, "title", "cfd (euler3d) on the GPU: original vs SPAC", "title of the report")
	return c
}

// cfdResult is one GPU run read back from the CSV.
type cfdResult struct {
	mesh      string
	elements  int
	precision string
	schedule  string
	block     int
	perIter   float64 // ms
	iters     int
	partition string // seconds, as written; empty for the original
	parts     string
	copies    string
	rf        string
	maxSlots  string
	shared    int
	checked   bool
	maxDiff   float64 // largest of the three max relative differences
	tolerance float64
	ok        bool
	record    []string
}

func readCFDResults(paths []string) ([]string, []cfdResult, error) {
	var header []string
	var rows []cfdResult
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(recs) == 0 {
			return nil, nil, fmt.Errorf("%s: empty file", path)
		}
		if header == nil {
			header = recs[0]
		} else if !slices.Equal(header, recs[0]) {
			return nil, nil, fmt.Errorf("%s: its columns differ from those of %s", path, paths[0])
		}
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		for _, name := range []string{"mesh", "elements", "precision", "device", "schedule", "block_size", "per_iteration_ms", "iterations"} {
			if _, ok := col[name]; !ok {
				return nil, nil, fmt.Errorf("%s: no column %q: not the CSV of 'spac cfd --format csv'", path, name)
			}
		}
		get := func(rec []string, name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return rec[i]
			}
			return ""
		}
		for line, rec := range recs[1:] {
			if get(rec, "device") != "gpu" {
				continue
			}
			r := cfdResult{mesh: get(rec, "mesh"), precision: get(rec, "precision"), schedule: get(rec, "schedule"),
				partition: get(rec, "partition_s"), parts: get(rec, "parts"), copies: get(rec, "copies"), rf: get(rec, "rf"),
				maxSlots: get(rec, "max_slots"), record: rec}
			var errs []error
			num := func(name string) float64 {
				v, err := strconv.ParseFloat(get(rec, name), 64)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s %q", name, get(rec, name)))
				}
				return v
			}
			r.elements, r.block, r.iters = int(num("elements")), int(num("block_size")), int(num("iterations"))
			r.perIter = num("per_iteration_ms")
			if get(rec, "shared_bytes") != "" {
				r.shared = int(num("shared_bytes"))
			}
			if get(rec, "ok") != "" {
				r.checked, r.ok = true, get(rec, "ok") == "true"
				for _, g := range []string{"density", "momentum", "energy"} {
					r.maxDiff = math.Max(r.maxDiff, num(g+"_max_rel"))
				}
				r.tolerance = num("tolerance")
			}
			if len(errs) > 0 {
				return nil, nil, fmt.Errorf("%s line %d: bad %w", path, line+2, errors.Join(errs...))
			}
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("no GPU rows in %s", strings.Join(paths, ", "))
	}
	return header, rows, nil
}

// cfdGroup is one mesh and precision: its runs by schedule and block size.
type cfdGroup struct {
	mesh, precision string
	elements        int
	schedules       []string // original first
	blocks          []int
	runs            map[string]map[int]*cfdResult
}

// best is a schedule's fastest run.
func (g *cfdGroup) best(schedule string) *cfdResult {
	var b *cfdResult
	for _, r := range g.runs[schedule] {
		if b == nil || r.perIter < b.perIter || (r.perIter == b.perIter && r.block < b.block) {
			b = r
		}
	}
	return b
}

func groupCFDResults(rows []cfdResult) []*cfdGroup {
	var groups []*cfdGroup
	index := map[string]*cfdGroup{}
	for i := range rows {
		r := &rows[i]
		key := r.mesh + "\x00" + r.precision
		g, ok := index[key]
		if !ok {
			g = &cfdGroup{mesh: r.mesh, precision: r.precision, elements: r.elements, runs: map[string]map[int]*cfdResult{}}
			index[key] = g
			groups = append(groups, g)
		}
		if g.runs[r.schedule] == nil {
			g.runs[r.schedule] = map[int]*cfdResult{}
			// The original schedule first, the others in the order seen.
			if r.schedule == "original" {
				g.schedules = slices.Insert(g.schedules, 0, r.schedule)
			} else {
				g.schedules = append(g.schedules, r.schedule)
			}
		}
		// A later run of the same configuration replaces an earlier one.
		g.runs[r.schedule][r.block] = r
		if !slices.Contains(g.blocks, r.block) {
			g.blocks = append(g.blocks, r.block)
		}
	}
	for _, g := range groups {
		slices.Sort(g.blocks)
	}
	// Smallest mesh first, as the files may come in any order.
	slices.SortStableFunc(groups, func(a, b *cfdGroup) int {
		if a.elements != b.elements {
			return a.elements - b.elements
		}
		return strings.Compare(a.precision, b.precision)
	})
	return groups
}

// runCFDReport writes the report into dir (output.WriteFiles: all files
// complete before any is put in place; the CSV inputs and logs that
// scripts/cfd-sweep.sh keeps there stay).
func runCFDReport(ctx context.Context, paths []string, dir, title string, log io.Writer) error {
	header, rows, err := readCFDResults(paths)
	if err != nil {
		return err
	}
	groups := groupCFDResults(rows)
	writeCSV := func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write(header)
		for _, r := range rows {
			cw.Write(r.record)
		}
		cw.Flush()
		return cw.Error()
	}
	fig, err := cfdFigure(groups)
	if err != nil {
		return err
	}
	files := []output.File{{Name: "results.csv", Fill: writeCSV}}
	files = append(files, fig.Files("fig14")...)
	files = append(files, output.File{Name: "report.md", Fill: func(w io.Writer) error { return writeCFDReport(w, groups, rows, title) }})
	if err := output.WriteFiles(ctx, dir, files); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s/%s (%d GPU runs)\n", strings.TrimSuffix(dir, "/"), fileList(files), len(rows))
	return nil
}

// rounded shows a number from the CSV with the given decimals (as written
// when it is not a number, "-" when empty).
func rounded(s string, decimals int) string {
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case s == "":
		return "-"
	case err != nil:
		return s
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func us(ms float64) string { return strconv.FormatFloat(ms*1000, 'f', 1, 64) }

func writeCFDReport(w io.Writer, groups []*cfdGroup, rows []cfdResult, title string) error {
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintln(w, "Time per iteration (one iteration: copy of the variables, step factor, 3 Runge-Kutta rounds of flux and time step),")
	fmt.Fprintln(w, "in microseconds, CUDA events around all iterations after a warm-up iteration. Speedup: the original's best time over")
	fmt.Fprintln(w, "the schedule's best time, each at its own best block size (above 1: SPAC faster).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Summary")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| mesh | elements | precision | original best (us) | at B | schedule | best (us) | at B | speedup | faster |")
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---|---:|---:|---:|---|")
	for _, g := range groups {
		orig := g.best("original")
		for _, s := range g.schedules {
			if s == "original" {
				continue
			}
			b := g.best(s)
			if orig == nil {
				fmt.Fprintf(w, "| %s | %d | %s | - | - | %s | %s | %d | - | - |\n", g.mesh, g.elements, g.precision, s, us(b.perIter), b.block)
				continue
			}
			verdict := "yes"
			if b.perIter >= orig.perIter {
				verdict = "**no**"
			}
			fmt.Fprintf(w, "| %s | %d | %s | %s | %d | %s | %s | %d | %.2f | %s |\n", g.mesh, g.elements, g.precision, us(orig.perIter), orig.block,
				s, us(b.perIter), b.block, orig.perIter/b.perIter, verdict)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "![time per iteration against block size](fig14.svg)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "(also as [fig14.png](fig14.png))")
	for _, g := range groups {
		fmt.Fprintf(w, "\n## %s (%d elements), %s\n\n", g.mesh, g.elements, g.precision)
		fmt.Fprint(w, "| B |")
		for _, s := range g.schedules {
			fmt.Fprintf(w, " %s (us) |", s)
		}
		var others []string
		for _, s := range g.schedules {
			if s != "original" {
				others = append(others, s)
			}
		}
		for _, s := range others {
			fmt.Fprintf(w, " %s speedup | %s parts | copies | RF | max slots | shared KiB | partition s |", s, s)
		}
		fmt.Fprintln(w)
		fmt.Fprint(w, "|---:|")
		fmt.Fprint(w, strings.Repeat("---:|", len(g.schedules)+7*len(others)))
		fmt.Fprintln(w)
		bests := map[string]*cfdResult{}
		for _, s := range g.schedules {
			bests[s] = g.best(s)
		}
		for _, b := range g.blocks {
			fmt.Fprintf(w, "| %d |", b)
			timeCells(w, g.schedules, func(s string) (float64, bool, bool) {
				r := g.runs[s][b]
				if r == nil {
					return 0, false, false
				}
				return r.perIter, true, r == bests[s]
			})
			orig := g.runs["original"][b]
			for _, s := range others {
				r := g.runs[s][b]
				if r == nil {
					fmt.Fprint(w, strings.Repeat(" - |", 7))
					continue
				}
				speed := "-"
				if orig != nil {
					speed = fmt.Sprintf("%.2f", orig.perIter/r.perIter)
				}
				fmt.Fprintf(w, " %s | %s | %s | %s | %s | %.1f | %s |", speed, r.parts, r.copies, rounded(r.rf, 4), r.maxSlots, float64(r.shared)/1024, rounded(r.partition, 2))
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintln(w, "\n## Agreement with the CPU reference")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Largest max |got - ref| / max |ref| over density, momentum and energy, and over the block sizes, after the runs' iterations;")
	fmt.Fprintln(w, "the reference is the original solver on the CPU in the same precision.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| mesh | precision | schedule | iterations | runs checked | largest difference | tolerance | all within |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---|")
	for _, g := range groups {
		for _, s := range g.schedules {
			var n, iters int
			var worst, tol float64
			ok := true
			for _, b := range g.blocks {
				r := g.runs[s][b]
				if r == nil || !r.checked {
					continue
				}
				n++
				iters = r.iters
				worst = math.Max(worst, r.maxDiff)
				tol = r.tolerance
				ok = ok && r.ok
			}
			if n == 0 {
				fmt.Fprintf(w, "| %s | %s | %s | - | 0 | - | - | not checked |\n", g.mesh, g.precision, s)
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s | %d | %d | %.3g | %.3g | %s |\n", g.mesh, g.precision, s, iters, n, worst, tol, map[bool]string{true: "yes", false: "**no**"}[ok])
		}
	}
	return nil
}

// cfdFigure plots a panel per mesh and precision: time per iteration (us)
// against block size, a line per schedule (the paper's Fig. 14).
func cfdFigure(groups []*cfdGroup) (*plots.Figure, error) {
	var panels []blockPanel
	for _, g := range groups {
		panels = append(panels, blockPanel{title: fmt.Sprintf("%s, %d elements, %s", g.mesh, g.elements, g.precision), blocks: g.blocks, series: g.schedules,
			at: func(s string, b int) (float64, bool) {
				r, ok := g.runs[s][b]
				if !ok {
					return 0, false
				}
				return r.perIter * 1000, true
			}})
	}
	return blockLines("cfd: time per iteration against thread-block size (lower is better)", "us per iteration", panels)
}
