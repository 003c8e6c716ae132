package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/plots"
)

// rodiniaCommand groups what concerns the four Rodinia applications
// together (cfd, btree, gaussian, particlefilter): their report.
func rodiniaCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "rodinia",
		Short: "The Rodinia applications together: the report of their GPU sweeps (the paper's Figs. 14 and 15)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			c.SetOut(c.ErrOrStderr())
			c.Usage()
			return usagef("a command is missing")
		},
	}
	c.AddCommand(rodiniaReportCommand())
	return c
}

func rodiniaReportCommand() *cobra.Command {
	var out, ncu, title string
	c := &cobra.Command{
		Use:   "report RUN.json... -o DIR [--ncu DIR]",
		Short: "Render the GPU runs of cfd, btree, gaussian and particlefilter (--format json) as the paper's Figs. 14 and 15",
		Long: `Read the JSON of 'spac cfd|btree|gaussian|particlefilter --gpu --format json'
(one or more files; the schema is in package apps/btree's documentation)
and write into DIR:

  report.md    the Fig. 15 table (per application, input, kernel and
               precision: the best time of the original, RCM and SPAC over
               the block sizes (SPAC: its shared-memory kernels or, for
               b+tree, job swapping alone, whichever is faster), SPAC's
               over the original's and over RCM's,
               SPAC's partition time beside it, whether every run agreed
               with its CPU reference); per case the time at every block
               size; the agreement of every variant; and, with --ncu, the
               summed Nsight Compute counters of each profiled run and of
               each of its kernels (time, DRAM traffic, L2 and L1 sectors
               and hits))
  fig14.svg    time against block size, a panel per case, a line per
  fig14.png    variant (the paper's Fig. 14)
  fig15.svg    the best-over-best speedups of RCM and SPAC per case (the
  fig15.png    paper's Fig. 15)
  results.csv  every GPU run

--ncu DIR summarizes the files DIR/APP.VARIANT.B.csv of 'ncu --csv --page
raw' (scripts/rodinia-sweep.sh makes them). Other files in DIR stay.`,
		Example: `  spac particlefilter --gpu -b 32,64,128,256,512,1024 --format json -o pf.json
  spac cfd fvcorr-097k --gpu -b 128,256,512,1024 --format json > cfd.json
  spac rodinia report pf.json cfd.json -o out/`,
		Args: reportInputs("JSON"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := reportOutput(c, out); err != nil {
				return err
			}
			return runRodiniaReport(c.Context(), out, ncu, title, args, c.ErrOrStderr())
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "directory to write report.md, fig14.svg/png, fig15.svg/png and results.csv into")
	c.Flags().StringVar(&ncu, "ncu", "", "directory of Nsight Compute CSVs APP.VARIANT.B.csv (ncu --csv --page raw) to summarize")
	c.Flags().StringVar(&title, "title", "Rodinia on the GPU: original, RCM and SPAC (the paper's Figs. 14 and 15)", "title of the report")
	return c
}

func runRodiniaReport(ctx context.Context, dir, ncu, title string, paths []string, log io.Writer) error {
	entries, devices, err := rrRead(paths)
	if err != nil {
		return err
	}
	gs := rrGroups(entries)
	f14, err := rodiniaFig14(gs)
	if err != nil {
		return err
	}
	f15, err := rodiniaFig15(gs)
	if err != nil {
		return err
	}
	files := []output.File{{Name: "results.csv", Fill: func(w io.Writer) error { return writeRodiniaCSV(w, entries) }}}
	files = append(files, f14.Files("fig14")...)
	files = append(files, f15.Files("fig15")...)
	files = append(files, output.File{Name: "report.md", Fill: func(w io.Writer) error { return writeRodiniaReport(w, title, gs, entries, devices, ncu) }})
	if err := output.WriteFiles(ctx, dir, files); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s/%s (%d GPU runs, %d cases)\n", strings.TrimSuffix(dir, "/"), fileList(files), len(entries), len(gs))
	return nil
}

// rrEntry is one GPU run with the case it belongs to.
type rrEntry struct {
	rodiniaRun
	app, input, device, file string
}

// series is a variant's name in the tables and plots: "spac" (or
// "spac-swap") for SPAC partitions, "spac/METHOD" for a baseline
// partitioner's.
func (e *rrEntry) series() string {
	if isSPAC(e.Variant) && e.Method != "" && e.Method != "spac" {
		return e.Variant + "/" + e.Method
	}
	return e.Variant
}

// rrGroup is one case: an app, input, kernel and precision.
type rrGroup struct {
	app, input, kernel, precision string
	series                        []string // original, naive, rcm, spac, others
	blocks                        []int
	runs                          map[string]map[int]*rrEntry
}

func (g *rrGroup) title() string {
	t := g.app + ", " + g.input
	if g.kernel != "" {
		t += ", " + g.kernel
	}
	if g.precision != "" {
		t += ", " + g.precision
	}
	return t
}

// best is a series' fastest run (the smallest block size on a tie).
func (g *rrGroup) best(s string) *rrEntry {
	var b *rrEntry
	for _, e := range g.runs[s] {
		if b == nil || e.TimeMS < b.TimeMS || (e.TimeMS == b.TimeMS && e.BlockSize < b.BlockSize) {
			b = e
		}
	}
	return b
}

// bestSPAC is the fastest run of SPAC's own partitions (spac, and
// b+tree's spac-swap, the same partition as job swapping alone), not of
// the baseline partitioners' (spac/default ...).
func (g *rrGroup) bestSPAC() *rrEntry {
	var b *rrEntry
	for _, s := range g.series {
		if !isSPAC(s) || strings.Contains(s, "/") {
			continue
		}
		if e := g.best(s); e != nil && (b == nil || e.TimeMS < b.TimeMS) {
			b = e
		}
	}
	return b
}

var rrOrder = []string{"original", "naive", "rcm", "spac", "spac-swap"}

func rrRank(s string) int {
	for i, o := range rrOrder {
		if s == o {
			return i
		}
	}
	return len(rrOrder)
}

func rrRead(paths []string) ([]rrEntry, []string, error) {
	var out []rrEntry
	var devices []string
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		var r rodiniaReport
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, nil, fmt.Errorf("%s: %w (want the output of 'spac APP --gpu --format json')", path, err)
		}
		if r.App == "" {
			return nil, nil, fmt.Errorf("%s: no \"app\": not the output of 'spac APP --format json'", path)
		}
		if r.Device != "" && !slices.Contains(devices, r.Device) {
			devices = append(devices, r.Device)
		}
		for _, x := range r.Runs {
			if x.Device != "gpu" {
				continue
			}
			if x.TimeMS <= 0 || math.IsNaN(x.TimeMS) {
				return nil, nil, fmt.Errorf("%s: %s %s B=%d has no time", path, r.App, x.Variant, x.BlockSize)
			}
			out = append(out, rrEntry{rodiniaRun: x, app: r.App, input: r.Input, device: r.Device, file: filepath.Base(path)})
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("no GPU runs in %s", strings.Join(paths, ", "))
	}
	return out, devices, nil
}

func rrGroups(entries []rrEntry) []*rrGroup {
	var gs []*rrGroup
	index := map[string]*rrGroup{}
	appOrder := map[string]int{"cfd": 0, "btree": 1, "gaussian": 2, "particlefilter": 3}
	for i := range entries {
		e := &entries[i]
		key := strings.Join([]string{e.app, e.input, e.Kernel, e.Precision}, "\x00")
		g, ok := index[key]
		if !ok {
			g = &rrGroup{app: e.app, input: e.input, kernel: e.Kernel, precision: e.Precision, runs: map[string]map[int]*rrEntry{}}
			index[key] = g
			gs = append(gs, g)
		}
		s := e.series()
		if g.runs[s] == nil {
			g.runs[s] = map[int]*rrEntry{}
			g.series = append(g.series, s)
		}
		g.runs[s][e.BlockSize] = e // a later run of the same configuration replaces an earlier one
		if !slices.Contains(g.blocks, e.BlockSize) {
			g.blocks = append(g.blocks, e.BlockSize)
		}
	}
	for _, g := range gs {
		slices.Sort(g.blocks)
		slices.SortStableFunc(g.series, func(a, b string) int { return rrRank(a) - rrRank(b) })
	}
	slices.SortStableFunc(gs, func(a, b *rrGroup) int {
		ra, ok := appOrder[a.app]
		if !ok {
			ra = len(appOrder)
		}
		rb, ok := appOrder[b.app]
		if !ok {
			rb = len(appOrder)
		}
		return ra - rb
	})
	return gs
}

func rrRatio(a, b *rrEntry) string {
	if a == nil || b == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", a.TimeMS/b.TimeMS)
}

func rrBestCell(e *rrEntry) string {
	if e == nil {
		return "- | -"
	}
	return fmt.Sprintf("%s | %d", us(e.TimeMS), e.BlockSize)
}

func writeRodiniaReport(w io.Writer, title string, gs []*rrGroup, entries []rrEntry, devices []string, ncu string) error {
	fmt.Fprintf(w, "# %s\n\n", title)
	for _, d := range devices {
		fmt.Fprintf(w, "Device: %s\n\n", d)
	}
	fmt.Fprintln(w, "Times in microseconds: cfd one iteration, btree one batch of queries (one launch), gaussian the whole elimination,")
	fmt.Fprintln(w, "particlefilter all tracked frames (every kernel of every frame; naive by the wall clock, host work and copies included).")
	fmt.Fprintln(w, "particlefilter's likelihood rows time the likelihood's kernels alone (the steps the variants differ in), each frame on its own.")
	fmt.Fprintln(w, "Each variant's best is over the block sizes swept; a speedup is the original's best over the variant's best (above 1:")
	fmt.Fprintln(w, "the variant is faster). SPAC's best is its shared-memory kernels' or, for btree, job swapping's alone (spac-swap: the")
	fmt.Fprintln(w, "original kernels on the partition's query order), whichever is faster; the B column names spac-swap where it won.")
	fmt.Fprintln(w, "Partition: SPAC's partitioning (and, for particlefilter, every frame's, from the CPU reference's trajectory) at the best")
	fmt.Fprintln(w, "run's block size, on the CPU of the GPU machine.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Fig. 15: best over block sizes")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| case | original (us) | at B | rcm (us) | at B | spac (us) | at B | spac / original | spac / rcm | partition s | all runs agree |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, g := range gs {
		orig, rcm, sp := g.best("original"), g.best("rcm"), g.bestSPAC()
		part, spCell := "-", rrBestCell(sp)
		if sp != nil {
			part = fmt.Sprintf("%.2f", sp.PartitionS)
			if sp.Variant != "spac" {
				spCell += " " + sp.Variant
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", g.title(), rrBestCell(orig), rrBestCell(rcm), spCell,
			rrRatio(orig, sp), rrRatio(rcm, sp), part+" | "+rrAgree(g))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "![best over block sizes](fig15.svg)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "## Fig. 14: time against block size")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "![time against block size](fig14.svg)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "(also as [fig14.png](fig14.png) and [fig15.png](fig15.png); cfd's own sweep over four meshes is in [../cfd-h100](../cfd-h100/report.md))")
	for _, g := range gs {
		fmt.Fprintf(w, "\n### %s\n\n", g.title())
		fmt.Fprint(w, "| B |")
		for _, s := range g.series {
			fmt.Fprintf(w, " %s (us) |", s)
		}
		fmt.Fprint(w, " spac / original | spac partition s | spac copies | spac shared KiB |\n|---:|")
		fmt.Fprint(w, strings.Repeat("---:|", len(g.series)+4))
		fmt.Fprintln(w)
		bests := map[string]*rrEntry{}
		for _, s := range g.series {
			bests[s] = g.best(s)
		}
		for _, b := range g.blocks {
			fmt.Fprintf(w, "| %d |", b)
			timeCells(w, g.series, func(s string) (float64, bool, bool) {
				e := g.runs[s][b]
				if e == nil {
					return 0, false, false
				}
				return e.TimeMS, true, e == bests[s]
			})
			sp, orig := g.runs["spac"][b], g.runs["original"][b]
			if sp == nil {
				fmt.Fprintln(w, " - | - | - | - |")
				continue
			}
			fmt.Fprintf(w, " %s | %.2f | %d | %.1f |\n", rrRatio(orig, sp), sp.PartitionS, sp.Copies, float64(sp.SharedBytes)/1024)
		}
	}
	fmt.Fprintln(w, "\n## Agreement with the CPU references")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every GPU run is compared with its application's CPU reference (the applications' documentation states how and with which")
	fmt.Fprintln(w, "tolerance); mismatches: b+tree queries answered differently, gaussian values not bit-identical, particles drawn from another")
	fmt.Fprintln(w, "parent; max rel diff: the largest relative difference of the values compared.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| case | variant | runs | checked | agree | mismatches | max rel diff |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	for _, g := range gs {
		for _, s := range g.series {
			var n, checked, ok, mism int
			worst := 0.0
			for _, e := range g.runs[s] {
				n++
				if e.Checked {
					checked++
					if e.OK {
						ok++
					}
				}
				mism += e.Mismatches
				worst = math.Max(worst, e.MaxRelDiff)
			}
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %.3g |\n", g.title(), s, n, checked, ok, mism, worst)
		}
	}
	if ncu != "" {
		if err := writeRodiniaNCU(w, ncu); err != nil {
			return err
		}
	}
	return nil
}

// rrAgree says whether every run of the case was checked and agreed.
func rrAgree(g *rrGroup) string {
	for _, byBlock := range g.runs {
		for _, e := range byBlock {
			if !e.Checked {
				return "not all checked"
			}
			if !e.OK {
				return "**no**"
			}
		}
	}
	return "yes"
}

// timeCells writes a table row's time cells (ms, shown in us): "-" where a
// series did not run, its best in bold.
func timeCells(w io.Writer, series []string, at func(s string) (ms float64, ok, best bool)) {
	for _, s := range series {
		t, ok, best := at(s)
		switch {
		case !ok:
			fmt.Fprint(w, " - |")
		case best:
			fmt.Fprintf(w, " **%s** |", us(t))
		default:
			fmt.Fprintf(w, " %s |", us(t))
		}
	}
}

// blockPanel is one panel of a figure like the paper's Fig. 14: a line
// per series over block sizes; at gives a series' time at a block size
// in microseconds, or false where it did not run.
type blockPanel struct {
	title  string
	blocks []int
	series []string
	at     func(series string, block int) (float64, bool)
}

// blockLines draws the panels two to a row, time (ylabel) against block
// size.
func blockLines(title, ylabel string, panels []blockPanel) (*plots.Figure, error) {
	l := plots.Lines{Title: title, XLabel: "block size", YLabel: ylabel, Cols: 2}
	for _, bp := range panels {
		p := plots.Panel{Title: bp.title}
		for _, b := range bp.blocks {
			p.Categories = append(p.Categories, strconv.Itoa(b))
		}
		for _, s := range bp.series {
			ser := plots.Series{Name: s}
			for _, b := range bp.blocks {
				v, ok := bp.at(s, b)
				if !ok {
					v = math.NaN()
				}
				ser.Values = append(ser.Values, v)
			}
			p.Series = append(p.Series, ser)
		}
		l.Panels = append(l.Panels, p)
	}
	return plots.NewLines(l)
}

// rodiniaFig14 is a panel per case, a line per variant.
func rodiniaFig14(gs []*rrGroup) (*plots.Figure, error) {
	var panels []blockPanel
	for _, g := range gs {
		panels = append(panels, blockPanel{title: g.title(), blocks: g.blocks, series: g.series, at: func(s string, b int) (float64, bool) {
			e, ok := g.runs[s][b]
			if !ok {
				return 0, false
			}
			return e.TimeMS * 1000, true
		}})
	}
	return blockLines("Rodinia on the GPU: time against thread-block size (lower is better)", "us", panels)
}

// rodiniaFig15 is the speedups of the best RCM and SPAC runs over the best
// original run, a group per case.
func rodiniaFig15(gs []*rrGroup) (*plots.Figure, error) {
	b := plots.Bars{Title: "Best over block sizes: speedup over the original's best", YLabel: "speedup",
		Refs: []plots.Ref{{Value: 1, Name: "original", Dashed: true}}, ValueFormat: "%.2f"}
	rcm, sp := plots.Series{Name: "rcm"}, plots.Series{Name: "spac"}
	for _, g := range gs {
		orig := g.best("original")
		if orig == nil {
			continue
		}
		b.Categories = append(b.Categories, g.title())
		for _, x := range []struct {
			s    *plots.Series
			best *rrEntry
		}{{&rcm, g.best("rcm")}, {&sp, g.bestSPAC()}} {
			v := math.NaN()
			if x.best != nil {
				v = orig.TimeMS / x.best.TimeMS
			}
			x.s.Values = append(x.s.Values, v)
		}
	}
	b.Series = []plots.Series{rcm, sp}
	return plots.NewBars(b)
}

var rrCSVHeader = []string{"app", "input", "kernel", "precision", "variant", "method", "block_size", "time_ms", "partition_s", "schedule_s",
	"parts", "copies", "rf", "shared_bytes", "checked", "ok", "mismatches", "max_rel_diff", "file"}

func writeRodiniaCSV(w io.Writer, entries []rrEntry) error {
	cw := csv.NewWriter(w)
	cw.Write(rrCSVHeader)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, e := range entries {
		cw.Write([]string{e.app, e.input, e.Kernel, e.Precision, e.Variant, e.Method, strconv.Itoa(e.BlockSize), g(e.TimeMS), g(e.PartitionS),
			g(e.ScheduleS), strconv.Itoa(e.Parts), strconv.FormatInt(e.Copies, 10), g(e.RF), strconv.Itoa(e.SharedBytes),
			strconv.FormatBool(e.Checked), strconv.FormatBool(e.OK), strconv.Itoa(e.Mismatches), g(e.MaxRelDiff), e.file})
	}
	cw.Flush()
	return cw.Error()
}

// rrNCUMetrics are the counters scripts/rodinia-sweep.sh collects, summed
// over the profiled launches of a run.
var rrNCUMetrics = []string{
	"gpu__time_duration.sum",
	"dram__bytes_read.sum", "dram__bytes_write.sum",
	"lts__t_sectors_srcunit_tex.sum", "lts__t_sectors_srcunit_tex_lookup_hit.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
}

// rrProfile is one ncu CSV: the sums of every metric over its launches,
// and the same per kernel name (in the order the kernels first ran).
type rrProfile struct {
	app, variant, block string
	rrCounts
	kernel  map[string]*rrCounts
	kernels []string
}

// rrCounts is the launches of a profile, or of one of its kernels, and
// their metrics summed.
type rrCounts struct {
	launches int
	sum      map[string]float64
}

// hitPct is the share of hits in sectors, "-" where the profile has no
// hits column (an older metric set).
func (c *rrCounts) hitPct(hits, sectors string) string {
	if _, ok := c.sum[hits]; !ok {
		return "-"
	}
	return rrPct(c.sum[hits], c.sum[sectors])
}

// readRodiniaNCU reads the launches of an 'ncu --csv --page raw' log: the lines
// that are CSV (ncu's own messages start with ==PROF==), a header, a row
// of units, then a row per launch.
func readRodiniaNCU(path string) (*rrProfile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "\"") {
			lines = append(lines, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := strings.TrimSuffix(filepath.Base(path), ".csv")
	parts := strings.SplitN(base, ".", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	p := &rrProfile{app: parts[0], variant: parts[1], block: parts[2], rrCounts: rrCounts{sum: map[string]float64{}}, kernel: map[string]*rrCounts{}}
	if len(rows) == 0 {
		return p, nil
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	kc, hasKernel := col["Kernel Name"]
	for _, r := range rows[1:] {
		if id, ok := col["ID"]; ok && id < len(r) {
			if _, err := strconv.Atoi(strings.TrimSpace(r[id])); err != nil {
				continue // the units row
			}
		}
		name := "?"
		if hasKernel && kc < len(r) {
			name = r[kc]
		}
		k := p.kernel[name]
		if k == nil {
			k = &rrCounts{sum: map[string]float64{}}
			p.kernel[name] = k
			p.kernels = append(p.kernels, name)
		}
		p.launches++
		k.launches++
		for _, m := range rrNCUMetrics {
			i, ok := col[m]
			if !ok || i >= len(r) {
				continue
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(r[i], ",", ""), 64)
			if err != nil {
				continue
			}
			p.sum[m] += v
			k.sum[m] += v
		}
	}
	return p, nil
}

func rrPct(num, den float64) string {
	if den <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", 100*num/den)
}

// writeRodiniaNCU summarizes every CSV of dir.
func writeRodiniaNCU(w io.Writer, dir string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	var ps []*rrProfile
	for _, path := range paths {
		p, err := readRodiniaNCU(path)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	fmt.Fprintln(w, "\n## Counters (Nsight Compute)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Summed over the profiled launches of one run of each variant (clocks not locked; scripts/rodinia-sweep.sh says which")
	fmt.Fprintln(w, "launches): time, DRAM traffic, the sectors L1 asked of L2 and how many hit there, and the global-load sectors of L1")
	fmt.Fprintln(w, "and how many hit in L1. ncu flushes the caches before every profiled launch (its default), so DRAM counts a cold")
	fmt.Fprintln(w, "launch's reads: where an input fits the L2, the timed launches, which run warm, read less. The times the profiled")
	fmt.Fprintln(w, "processes print themselves are the wall time of ncu's replays, not kernel times.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| app | variant | B | launches | time (us) | DRAM read (MB) | DRAM write (MB) | L2 sectors from L1 (k) | L2 hit % | L1 load sectors (k) | L1 hit % |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range ps {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", p.app, p.variant, p.block, rrCountCells(&p.rrCounts))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "By kernel (summed over the kernel's profiled launches; share: of the run's profiled time):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| app | variant | B | kernel | share % | launches | time (us) | DRAM read (MB) | DRAM write (MB) | L2 sectors from L1 (k) | L2 hit % | L1 load sectors (k) | L1 hit % |")
	fmt.Fprintln(w, "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range ps {
		total := p.sum["gpu__time_duration.sum"]
		for _, name := range p.kernels {
			k := p.kernel[name]
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", p.app, p.variant, p.block, name, rrPct(k.sum["gpu__time_duration.sum"], total), rrCountCells(k))
		}
	}
	return nil
}

// rrCountCells is the cells of a counters row from launches on: launches,
// time (us), DRAM read and write (MB), L2 sectors from L1 (k) and their
// hit rate, L1 global-load sectors (k) and their hit rate.
func rrCountCells(c *rrCounts) string {
	s := c.sum
	return fmt.Sprintf("%d | %.1f | %.2f | %.2f | %.1f | %s | %.1f | %s", c.launches,
		s["gpu__time_duration.sum"]/1e3, s["dram__bytes_read.sum"]/1e6, s["dram__bytes_write.sum"]/1e6,
		s["lts__t_sectors_srcunit_tex.sum"]/1e3, c.hitPct("lts__t_sectors_srcunit_tex_lookup_hit.sum", "lts__t_sectors_srcunit_tex.sum"),
		s["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]/1e3,
		c.hitPct("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
}
