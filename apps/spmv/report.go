package spmv

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spac-gpu/spac/internal/plots"
	"github.com/spac-gpu/spac/internal/precision"
)

// Class is the kind of input a goal is stated for.
type Class string

const (
	Circuit   Class = "circuit"
	PowerLaw  Class = "power-law"
	Mesh      Class = "mesh"
	OtherKind Class = "other"
)

// Classify guesses an input's class from its name: the paper's matrices and
// their stand-ins, the shared test matrices, the generator kinds.
func Classify(input string) Class {
	name := strings.ToLower(filepath.Base(input))
	for _, suffix := range []string{".gz", ".mtx", ".mm", ".txt", ".graph", ".edgelist"} {
		name = strings.TrimSuffix(name, suffix)
	}
	name = strings.TrimPrefix(name, "gen:")
	has := func(keys ...string) bool {
		for _, k := range keys {
			if strings.Contains(name, k) {
				return true
			}
		}
		return false
	}
	switch {
	case has("circuit", "rajat", "scircuit"):
		return Circuit
	case has("in-2004", "ba-", "ba:", "rmat", "kron", "wiki", "facebook", "condmat", "web", "er-", "er:"):
		return PowerLaw
	case has("cant", "cop20k", "ga41", "mc2depi", "stencil", "mesh", "bcsstk", "4elt", "copter", "fem", "pores", "lund"):
		return Mesh
	}
	return OtherKind
}

// DefaultL2Bytes is the last-level cache of the GPU issue 20 states its
// goals for (an H100: 50 MiB): a report judges "beyond L2" by it when it
// knows no device (rows merged from files, ReportMeta.L2Bytes 0).
const DefaultL2Bytes = 50 << 20

// GoalNNZ is the size from which a goal applies: below it a product takes
// a few microseconds, launch latency whatever the kernel.
const GoalNNZ = 1_000_000

// BeyondL2 reports whether x and y of a product do not fit an L2 cache of
// l2Bytes (DefaultL2Bytes when 0) together: from there every block's x
// reads may go to DRAM, the regime a locality schedule is for.
func BeyondL2(nRows, nCols int, p Precision, l2Bytes int64) bool {
	return int64(nRows+nCols)*int64(p.Bytes()) > l2OrDefault(l2Bytes)
}

// l2OrDefault is l2Bytes, or DefaultL2Bytes where no L2 is known (0).
func l2OrDefault(l2Bytes int64) int64 {
	if l2Bytes <= 0 {
		return DefaultL2Bytes
	}
	return l2Bytes
}

// goal is the speedup over cuSPARSE's best path of all that issue 20 asks
// of the best SPAC kernel: at least as fast on every input of GoalNNZ
// nonzeros or more, 1.2x where x and y exceed the L2 cache; no goal below.
func goal(nnz int, beyondL2 bool) float64 {
	switch {
	case nnz < GoalNNZ:
		return 0
	case beyondL2:
		return 1.2
	}
	return 1
}

// Summary is one input and precision of a report.
type Summary struct {
	Input, Precision string
	Class            Class
	NNZ              int
	BeyondL2         bool    // x and y exceed the L2 cache (BeyondL2)
	Best             Row     // fastest GPU row that is correct
	BestSPAC         Row     // fastest correct spac-* row
	BestOurs         Row     // fastest correct GPU row of a kernel of ours (not cuSPARSE's): spac-*, csr-d16, the plain CSR kernels
	BestCuSPARSE     Row     // fastest correct cuSPARSE row, of any path
	Speedup          float64 // cuSPARSE's best path over the best SPAC kernel
	OursSpeedup      float64 // cuSPARSE's best path over the best kernel of ours
	MaxErr           float64 // over every row that ran
	AllOK            bool
	Rows             int
}

// Summarize groups rows by input and precision, in the order they come;
// l2Bytes is the device's L2 cache (BeyondL2).
func Summarize(rows []Row, l2Bytes int64) []Summary {
	var out []Summary
	index := map[string]int{}
	for _, r := range rows {
		key := r.Input + "\x00" + r.Precision
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			p, _ := precision.Parse(r.Precision)
			out = append(out, Summary{Input: r.Input, Precision: r.Precision, Class: Classify(r.Input), NNZ: r.NNZ,
				BeyondL2: BeyondL2(r.NRows, r.NCols, p, l2Bytes), AllOK: true})
		}
		s := &out[i]
		if !r.Ran() {
			continue
		}
		s.Rows++
		s.MaxErr = math.Max(s.MaxErr, r.MaxRelErr)
		s.AllOK = s.AllOK && r.OK
		if r.Device != "gpu" || !r.OK {
			continue
		}
		if !s.Best.Ran() || r.Micros < s.Best.Micros {
			s.Best = r
		}
		if Kernel(r.Kernel).UsesSchedule() && (!s.BestSPAC.Ran() || r.Micros < s.BestSPAC.Micros) {
			s.BestSPAC = r
		}
		if Kernel(r.Kernel).IsCuSPARSE() {
			if !s.BestCuSPARSE.Ran() || r.Micros < s.BestCuSPARSE.Micros {
				s.BestCuSPARSE = r
			}
		} else if !s.BestOurs.Ran() || r.Micros < s.BestOurs.Micros {
			s.BestOurs = r
		}
	}
	for i := range out {
		s := &out[i]
		if s.BestSPAC.Ran() && s.BestCuSPARSE.Ran() {
			s.Speedup = s.BestCuSPARSE.Micros / s.BestSPAC.Micros
		}
		if s.BestOurs.Ran() && s.BestCuSPARSE.Ran() {
			s.OursSpeedup = s.BestCuSPARSE.Micros / s.BestOurs.Micros
		}
	}
	return out
}

// ReportMeta is what a report says besides the rows.
type ReportMeta struct {
	Title    string
	Device   string
	CopyGBps float64
	L2Bytes  int64    // the device's L2 cache, for "beyond L2" (0: DefaultL2Bytes)
	Plot     string   // base name of the speedup plot beside the report: Plot.svg, Plot.png
	Commands []string // how the numbers were made
	Extra    string   // more markdown at the end (e.g. counters)
}

func label(r Row) string {
	if !r.Ran() {
		return "-"
	}
	s := r.Kernel
	if r.Schedule != "-" && r.Schedule != "" {
		s += " (" + r.Schedule + ")"
	}
	if r.BlockSize > 0 {
		s += fmt.Sprintf(" B=%d", r.BlockSize)
	}
	return s
}

// WriteReport writes a markdown report: the goals, a summary per input and
// precision, the plot, and every row.
func WriteReport(w io.Writer, rows []Row, meta ReportMeta) error {
	KernelOrder(rows)
	sums := Summarize(rows, meta.L2Bytes)
	title := meta.Title
	if title == "" {
		title = "SpMV on the GPU: SPAC schedules against cuSPARSE"
	}
	fmt.Fprintf(w, "# %s\n\n", title)
	if meta.Device != "" {
		fmt.Fprintf(w, "Device: %s. ", meta.Device)
	}
	if meta.CopyGBps > 0 {
		fmt.Fprintf(w, "Measured device-to-device copy: %.0f GB/s (bytes read + written), the ceiling of a memory-bound kernel.", meta.CopyGBps)
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintf(w, `Times are medians of the timed repetitions (CUDA events, after warm-up), one product y = A x each. GB/s counts the
minimum traffic of one product (every value and int32 column index once, the row offsets, x and y once), the same
bytes for every kernel of an input and precision; "of copy" divides that by the copy bandwidth. Speedups are over
cuSPARSE's best path of all of the same precision (CSR default and ALG2, COO, sliced ELL and BSR where their padding
stays under 3x), and the table names the path that won. B/nnz is what a kernel reads of its matrix format per
nonzero (values, indices, offsets, per-block lists, padding; not x and y). Every kernel's result is checked against
a float64 CPU reference: the error of row i is |y_i - ref_i| / sum_j |a_ij x_j|; the largest must stay below 1e-3
(fp32) or 1e-9 (fp64).

Goals (issue 20): on every input of 1M nonzeros or more, the best SPAC kernel at least as fast as cuSPARSE's best
path (1.00x), and 1.2x where x and y together exceed the L2 cache ("beyond L2"); the fastest kernel of every input
at 80%% or more of the copy bandwidth under the minimum-traffic model. "Best of ours" is the fastest of the
toolkit's own kernels, the SPAC schedule kernels, csr-d16 and the plain CSR kernels, whose speedup over cuSPARSE's best
path is in the next column; the goal columns judge the SPAC kernels. The repetitions run back to back on the same
data: an input whose traffic fits the device's L2 cache (%d MiB here%s) is served from L2 after the first, so its
"of copy" is not a DRAM figure and can exceed 100%%; inputs of a few hundred thousand nonzeros take a few
microseconds, launch latency, whatever the kernel.

`, l2OrDefault(meta.L2Bytes)>>20, l2Source(meta.L2Bytes))
	fmt.Fprintln(w, "| input | class | prec | nnz | beyond L2 | fastest kernel | time | of copy | >= 80% | best SPAC | time | B/nnz | best cuSPARSE path | time | B/nnz | SPAC speedup | goal | met | best of ours | speedup | max rel err | all correct |")
	fmt.Fprintln(w, "|---|---|---|---:|---|---|---:|---:|---|---|---:|---:|---|---:|---:|---:|---:|---|---|---:|---:|---|")
	for _, s := range sums {
		goalCol, met := "-", "-"
		if g := goal(s.NNZ, s.BeyondL2); g > 0 {
			goalCol = fmt.Sprintf("%.2fx", g)
			if s.Speedup > 0 {
				met = yesNo(s.Speedup >= g)
			}
		}
		bw := "-"
		if s.Best.CopyFraction > 0 {
			bw = yesNo(s.Best.CopyFraction >= 0.8)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1e | %s |\n",
			s.Input, s.Class, s.Precision, s.NNZ, yesNo(s.BeyondL2), label(s.Best), timeCol(s.Best), pctCol(s.Best.CopyFraction), bw,
			label(s.BestSPAC), timeCol(s.BestSPAC), bytesCol(s.BestSPAC.FormatBytes), label(s.BestCuSPARSE), timeCol(s.BestCuSPARSE),
			bytesCol(s.BestCuSPARSE.FormatBytes), speedCol(s.Speedup), goalCol, met, label(s.BestOurs), speedCol(s.OursSpeedup), s.MaxErr, yesNo(s.AllOK))
	}
	if meta.Plot != "" {
		fmt.Fprintf(w, "\n![speedup of the best SPAC kernel over cuSPARSE's best path](%s.svg)\n\n(also as [%[1]s.png](%[1]s.png))\n", meta.Plot)
	}
	if rs := Renumberings(sums); len(rs) > 0 {
		fmt.Fprint(w, `
## Renumberings

cuSPARSE's best path on each input renumbered (`+"`--reorder`"+`: IN~ORDER) against the same path search on the
input as given: the locality a renumbering gives any library's CSR kernel. "vs as given" is the input's own
cuSPARSE time over the renumbered one's (above 1: the order helps); "SPAC as given" is the best SPAC kernel on the
input as given over cuSPARSE on the renumbered input (above 1: SPAC's kernel still wins). "Ours in this order" is
the fastest of our kernels on the renumbered input, and its speedup over cuSPARSE's best path on the input as given:
what renumbering once (an iterative solver keeps x and y in the new order) and our kernel give together.

| input | prec | order | best cuSPARSE path | time | vs as given | best SPAC kernel as given | time | SPAC as given vs this | ours in this order | time | vs cuSPARSE as given |
|---|---|---|---|---:|---:|---|---:|---:|---|---:|---:|
`)
		for _, r := range rs {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Input, r.Precision, r.Order, label(r.Ordered.BestCuSPARSE),
				timeCol(r.Ordered.BestCuSPARSE), speedCol(r.Gain), label(r.Given.BestSPAC), timeCol(r.Given.BestSPAC), speedCol(r.SPACvs),
				label(r.Ordered.BestOurs), timeCol(r.Ordered.BestOurs), speedCol(r.Ours))
		}
	}
	fmt.Fprint(w, "\n## Every measurement\n\n")
	fmt.Fprintln(w, "| input | prec | kernel | schedule | B | time | GB/s | of copy | vs cuSPARSE | B/nnz | predicted MB | max rel err | check |")
	fmt.Fprintln(w, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range rows {
		pred := "-"
		if r.PredBytes > 0 {
			pred = fmt.Sprintf("%.1f", float64(r.PredBytes)/1e6)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Input, r.Precision, r.Kernel, r.Schedule,
			blockCol(r.BlockSize), timeCol(r), gbpsCol(r), pctCol(r.CopyFraction), speedCol(r.Speedup), bytesCol(r.FormatBytes), pred, errCol(r), checkCol(r))
	}
	if len(meta.Commands) > 0 {
		fmt.Fprint(w, "\n## How these numbers were made\n\n```sh\n")
		for _, c := range meta.Commands {
			fmt.Fprintln(w, c)
		}
		fmt.Fprint(w, "```\n")
	}
	if meta.Extra != "" {
		fmt.Fprintf(w, "\n%s\n", meta.Extra)
	}
	return nil
}

// Renumbering is an input renumbered by --reorder (IN~ORDER) beside the
// input as given, both of one precision.
type Renumbering struct {
	Input, Precision, Order string
	Given, Ordered          Summary
	// Gain is cuSPARSE's best time on the input as given over its best on
	// the renumbered one; SPACvs the best SPAC kernel's on the input as
	// given over cuSPARSE's best on the renumbered one; Ours cuSPARSE's
	// best on the input as given over the best kernel of ours on the
	// renumbered one (0 where a side did not run).
	Gain, SPACvs, Ours float64
}

// Renumberings pairs every summary of an input IN~ORDER with the summary
// of IN of the same precision, in the order the renumbered ones come.
func Renumberings(sums []Summary) []Renumbering {
	given := map[string]Summary{}
	for _, s := range sums {
		given[s.Input+"\x00"+s.Precision] = s
	}
	var out []Renumbering
	for _, s := range sums {
		i := strings.LastIndex(s.Input, "~")
		if i < 0 {
			continue
		}
		g, ok := given[s.Input[:i]+"\x00"+s.Precision]
		if !ok {
			continue
		}
		r := Renumbering{Input: g.Input, Precision: s.Precision, Order: s.Input[i+1:], Given: g, Ordered: s}
		if g.BestCuSPARSE.Ran() && s.BestCuSPARSE.Ran() {
			r.Gain = g.BestCuSPARSE.Micros / s.BestCuSPARSE.Micros
		}
		if g.BestSPAC.Ran() && s.BestCuSPARSE.Ran() {
			r.SPACvs = s.BestCuSPARSE.Micros / g.BestSPAC.Micros
		}
		if g.BestCuSPARSE.Ran() && s.BestOurs.Ran() {
			r.Ours = g.BestCuSPARSE.Micros / s.BestOurs.Micros
		}
		out = append(out, r)
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// l2Source says where a report's L2 size came from.
func l2Source(l2Bytes int64) string {
	if l2Bytes > 0 {
		return ""
	}
	return ", an H100's: no device given"
}

// SpeedupFigure plots the speedup of the best SPAC kernel over cuSPARSE's
// best path: a group of bars per input, a bar per precision, and the goals
// as lines at 1 (inputs of 1M nonzeros or more) and 1.2 (beyond the L2).
// Inputs without both kinds of result are left out.
func SpeedupFigure(rows []Row) (*plots.Figure, error) {
	var inputs, precs []string
	val := map[string]float64{}
	for _, s := range Summarize(rows, 0) { // the speedups alone: any L2
		if s.Speedup == 0 {
			continue
		}
		if !slices.Contains(inputs, s.Input) {
			inputs = append(inputs, s.Input)
		}
		if !slices.Contains(precs, s.Precision) {
			precs = append(precs, s.Precision)
		}
		val[s.Input+"\x00"+s.Precision] = s.Speedup
	}
	b := plots.Bars{
		Title:       "Best SPAC kernel over cuSPARSE's best SpMV path (higher is better)",
		YLabel:      "speedup",
		ValueFormat: "%.2f",
		Refs: []plots.Ref{
			{Value: goal(GoalNNZ, false), Name: fmt.Sprintf("goal %.2fx: 1M nonzeros or more", goal(GoalNNZ, false))},
			{Value: goal(GoalNNZ, true), Name: fmt.Sprintf("goal %.2fx: beyond the L2", goal(GoalNNZ, true)), Dashed: true},
		},
	}
	for _, in := range inputs {
		b.Categories = append(b.Categories, shortName(in))
	}
	for _, p := range precs {
		s := plots.Series{Name: p}
		for _, in := range inputs {
			v, ok := val[in+"\x00"+p]
			if !ok {
				v = math.NaN()
			}
			s.Values = append(s.Values, v)
		}
		b.Series = append(b.Series, s)
	}
	return plots.NewBars(b)
}

func shortName(s string) string {
	s = filepath.Base(s)
	for _, suffix := range []string{".gz", ".mtx"} {
		s = strings.TrimSuffix(s, suffix)
	}
	return s
}
