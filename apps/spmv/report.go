package spmv

import (
	"fmt"
	"html"
	"io"
	"math"
	"path/filepath"
	"strings"
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
	case has("in-2004", "ba-", "ba:", "rmat", "wiki", "facebook", "condmat", "web", "er-", "er:"):
		return PowerLaw
	case has("cant", "cop20k", "ga41", "mc2depi", "stencil", "bcsstk", "4elt", "copter", "fem", "pores", "lund"):
		return Mesh
	}
	return OtherKind
}

// goal is the speedup over cuSPARSE's best CSR algorithm the issue asks of
// SPAC on a class: at least as fast on circuit-like and power-law inputs,
// within 5% on meshes.
func (c Class) goal() float64 {
	switch c {
	case Circuit, PowerLaw:
		return 1
	case Mesh:
		return 0.95
	}
	return 0
}

// Summary is one input and precision of a report.
type Summary struct {
	Input, Precision string
	Class            Class
	NNZ              int
	Best             Row // fastest GPU row that is correct
	BestSPAC         Row // fastest correct spac-* row
	BestCuSPARSE     Row // fastest correct cuSPARSE CSR row
	Speedup          float64
	MaxErr           float64 // over every row that ran
	AllOK            bool
	Rows             int
}

// Summarize groups rows by input and precision, in the order they come.
func Summarize(rows []Row) []Summary {
	var out []Summary
	index := map[string]int{}
	for _, r := range rows {
		key := r.Input + "\x00" + r.Precision
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Summary{Input: r.Input, Precision: r.Precision, Class: Classify(r.Input), NNZ: r.NNZ, AllOK: true})
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
		if (r.Kernel == string(CuSPARSECSR) || r.Kernel == string(CuSPARSECSRAlg2)) && (!s.BestCuSPARSE.Ran() || r.Micros < s.BestCuSPARSE.Micros) {
			s.BestCuSPARSE = r
		}
	}
	for i := range out {
		s := &out[i]
		if s.BestSPAC.Ran() && s.BestCuSPARSE.Ran() {
			s.Speedup = s.BestCuSPARSE.Micros / s.BestSPAC.Micros
		}
	}
	return out
}

// ReportMeta is what a report says besides the rows.
type ReportMeta struct {
	Title    string
	Device   string
	CopyGBps float64
	Plot     string   // file name of the speedup plot (SVG), beside the report
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
	sums := Summarize(rows)
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
	fmt.Fprint(w, `Times are medians of the timed repetitions (CUDA events, after warm-up), one product y = A x each. GB/s counts the
minimum traffic of one product (every value and int32 column index once, the row offsets, x and y once), the same
bytes for every kernel of an input and precision; "of copy" divides that by the copy bandwidth. Speedups are over
cuSPARSE's best CSR algorithm (default or ALG2) of the same precision. Every kernel's result is checked against a
float64 CPU reference: the error of row i is |y_i - ref_i| / sum_j |a_ij x_j|; the largest must stay below 1e-3 (fp32)
or 1e-9 (fp64).

Goals: best SPAC kernel at least as fast as cuSPARSE's best CSR on circuit-like and power-law inputs, within 5% (0.95x)
on meshes; the fastest kernel of every input at 80% or more of the copy bandwidth under the minimum-traffic model.
The repetitions run back to back on the same data: an input whose traffic fits the device's L2 cache (50 MB on an
H100) is served from L2 after the first, so its "of copy" is not a DRAM figure and can exceed 100%; inputs of a few
hundred thousand nonzeros take a few microseconds, launch latency, whatever the kernel.

`)
	fmt.Fprintln(w, "| input | class | prec | nnz | fastest kernel | time | of copy | >= 80% | best SPAC | time | best cuSPARSE CSR | time | SPAC speedup | goal | met | max rel err | all correct |")
	fmt.Fprintln(w, "|---|---|---|---:|---|---:|---:|---|---|---:|---|---:|---:|---:|---|---:|---|")
	for _, s := range sums {
		goal, met := "-", "-"
		if g := s.Class.goal(); g > 0 {
			goal = fmt.Sprintf("%.2fx", g)
			if s.Speedup > 0 {
				met = yesNo(s.Speedup >= g)
			}
		}
		bw := "-"
		if s.Best.CopyFraction > 0 {
			bw = yesNo(s.Best.CopyFraction >= 0.8)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1e | %s |\n",
			s.Input, s.Class, s.Precision, s.NNZ, label(s.Best), timeCol(s.Best), pctCol(s.Best.CopyFraction), bw,
			label(s.BestSPAC), timeCol(s.BestSPAC), label(s.BestCuSPARSE), timeCol(s.BestCuSPARSE), speedCol(s.Speedup),
			goal, met, s.MaxErr, yesNo(s.AllOK))
	}
	if meta.Plot != "" {
		fmt.Fprintf(w, "\n![speedup of the best SPAC kernel over cuSPARSE's best CSR algorithm](%s)\n", meta.Plot)
	}
	fmt.Fprint(w, "\n## Every measurement\n\n")
	fmt.Fprintln(w, "| input | prec | kernel | schedule | B | time | GB/s | of copy | vs cuSPARSE | predicted MB | max rel err | check |")
	fmt.Fprintln(w, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range rows {
		pred := "-"
		if r.PredBytes > 0 {
			pred = fmt.Sprintf("%.1f", float64(r.PredBytes)/1e6)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Input, r.Precision, r.Kernel, r.Schedule,
			blockCol(r.BlockSize), timeCol(r), gbpsCol(r), pctCol(r.CopyFraction), speedCol(r.Speedup), pred, errCol(r), checkCol(r))
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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// WriteSpeedupSVG draws the speedup of the best SPAC kernel over cuSPARSE's
// best CSR algorithm, one group of bars per input, one bar per precision,
// with lines at 1 and 0.95 (the goals).
func WriteSpeedupSVG(w io.Writer, rows []Row) error {
	sums := Summarize(rows)
	var inputs []string
	var precs []string
	val := map[string]float64{}
	for _, s := range sums {
		if s.Speedup == 0 {
			continue
		}
		if !contains(inputs, s.Input) {
			inputs = append(inputs, s.Input)
		}
		if !contains(precs, s.Precision) {
			precs = append(precs, s.Precision)
		}
		val[s.Input+"\x00"+s.Precision] = s.Speedup
	}
	const (
		left, right, top, bottom = 60.0, 20.0, 40.0, 120.0
		groupW                   = 70.0
		height                   = 300.0
	)
	width := left + right + groupW*float64(max(len(inputs), 1))
	ymax := 1.2
	for _, v := range val {
		ymax = math.Max(ymax, v*1.1)
	}
	ymax = math.Ceil(ymax*5) / 5
	y := func(v float64) float64 { return top + height*(1-v/ymax) }
	colors := []string{"#4477aa", "#ee7733", "#228833", "#aa3377"}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, top+height+bottom)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(w, `<text x="%.0f" y="20" font-size="13">Best SPAC kernel over cuSPARSE's best CSR SpMV (higher is better)</text>`+"\n", left)
	for t := 0.0; t <= ymax+1e-9; t += 0.2 {
		fmt.Fprintf(w, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.0f" y="%.1f" text-anchor="end">%.1f</text>`+"\n",
			left, width-right, y(t), y(t), left-5, y(t)+4, t)
	}
	fmt.Fprintf(w, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, width-right, y(1), y(1))
	fmt.Fprintf(w, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="black" stroke-dasharray="4 3"/>`+"\n", left, width-right, y(0.95), y(0.95))
	barW := (groupW - 20) / float64(max(len(precs), 1))
	for i, in := range inputs {
		x0 := left + groupW*float64(i) + 10
		for j, p := range precs {
			v, ok := val[in+"\x00"+p]
			if !ok {
				continue
			}
			x := x0 + barW*float64(j)
			fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %.2fx</title></rect>`+"\n",
				x, y(v), barW-2, y(0)-y(v), colors[j%len(colors)], html.EscapeString(in), p, v)
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">%.2f</text>`+"\n", x+barW/2-1, y(v)-3, v)
		}
		cx := x0 + (groupW-20)/2
		fmt.Fprintf(w, `<text transform="translate(%.1f,%.1f) rotate(-35)" text-anchor="end">%s</text>`+"\n", cx, top+height+14, html.EscapeString(shortName(in)))
	}
	fmt.Fprintf(w, `<text transform="translate(15,%.0f) rotate(-90)" text-anchor="middle">speedup</text>`+"\n", top+height/2)
	for j, p := range precs {
		lx := width - right - 70*float64(len(precs)-j)
		fmt.Fprintf(w, `<rect x="%.0f" y="26" width="10" height="10" fill="%s"/><text x="%.0f" y="35">%s</text>`+"\n", lx, colors[j%len(colors)], lx+14, p)
	}
	_, err := fmt.Fprintln(w, "</svg>")
	return err
}

func shortName(s string) string {
	s = filepath.Base(s)
	for _, suffix := range []string{".gz", ".mtx"} {
		s = strings.TrimSuffix(s, suffix)
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
