package spmv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/plots"
	"github.com/spac-gpu/spac/internal/plots/plotstest"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// chunks partitions coo's entries, in index order, into parts of at most b.
func chunks(coo *matrices.COO, b int) spac.Partition {
	p := spac.Partition{K: (coo.NNZ() + b - 1) / b, Part: make([]int32, coo.NNZ())}
	for e := range p.Part {
		p.Part[e] = int32(e / b)
	}
	return p
}

func testMatrix(t *testing.T) *matrices.COO {
	t.Helper()
	m, err := matrices.Stencil2D(20, 15, 5)
	if err != nil {
		t.Fatal(err)
	}
	m.Name = "stencil"
	return m
}

func TestRunSpMVOnTheCPU(t *testing.T) {
	coo := testMatrix(t)
	calls := 0
	cfg := SpMVConfig{
		Input: "stencil", Matrix: coo, Precisions: []Precision{FP32, FP64}, BlockSizes: []int{32, 64},
		Methods: []string{"chunks"}, GPU: true, Iters: 2,
		Schedule: func(ctx context.Context, method string, b int) (*schedule.Schedule, error) {
			calls++
			return schedule.Build(coo, chunks(coo, b), schedule.Options{BlockSize: b})
		},
	}
	res, err := RunSpMV(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("%d schedules built, want one per block size", calls)
	}
	if gpu.Built {
		t.Skip("a CUDA build: the CPU-only expectations below do not apply")
	}
	if res.GPURan || !errors.Is(res.GPUErr, gpu.ErrNoCUDA) || !strings.Contains(res.GPU, "no CUDA support") {
		t.Errorf("GPU %q, err %v: want the no-CUDA message", res.GPU, res.GPUErr)
	}
	// cpu-csr per precision, cpu-schedule per precision and block size.
	if len(res.Rows) != 2+2*2 {
		t.Fatalf("%d rows: %+v", len(res.Rows), res.Rows)
	}
	for _, r := range res.Rows {
		if !r.Ran() || !r.OK || r.Device != "cpu" || r.MinBytes != MinimumBytes(300, 300, coo.NNZ(), mustPrec(t, r.Precision)) {
			t.Errorf("row %+v", r)
		}
		if r.Kernel == "cpu-schedule" && (r.Schedule != "chunks" || r.Blocks == 0) {
			t.Errorf("schedule row %+v", r)
		}
		if r.Speedup != 0 || r.CopyFraction != 0 {
			t.Errorf("a CPU row with GPU columns: %+v", r)
		}
		// Every CPU row had its reference or schedule made, and ran;
		// the schedule's making is on the first precision's row only.
		if r.RunSeconds <= 0 || (r.SetupSeconds <= 0) != (r.Kernel == "cpu-schedule" && r.Precision != "fp32") {
			t.Errorf("setup %g s, run %g s: %+v", r.SetupSeconds, r.RunSeconds, r)
		}
	}
	if res.MatrixSeconds <= 0 || res.DeviceSeconds != 0 || res.UploadSeconds != 0 {
		t.Errorf("matrix %g s, device %g s, upload %g s: want the matrix's time alone without a device", res.MatrixSeconds, res.DeviceSeconds, res.UploadSeconds)
	}
	if len(res.Failed()) != 0 {
		t.Errorf("failed rows: %+v", res.Failed())
	}
}

func mustPrec(t *testing.T, s string) Precision {
	p, err := precision.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunSpMVErrors(t *testing.T) {
	coo := testMatrix(t)
	for _, tc := range []struct {
		name string
		cfg  SpMVConfig
	}{
		{"block size", SpMVConfig{Matrix: coo, BlockSizes: []int{100}}},
		{"complex", SpMVConfig{Matrix: &matrices.COO{Name: "c", NRows: 1, NCols: 1, Row: []int32{0}, Col: []int32{0}, Field: matrices.Complex}}},
		{"schedule", SpMVConfig{Matrix: coo, Methods: []string{"x"}, Schedule: func(context.Context, string, int) (*schedule.Schedule, error) {
			return nil, errors.New("no partition")
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := RunSpMV(context.Background(), tc.cfg); err == nil {
				t.Error("no error")
			}
		})
	}
}

// gpuRows are rows as a GPU run reports them.
func gpuRows() []Row {
	mk := func(input, prec, kernel, sched string, b int, us float64, ok bool) Row {
		return Row{Input: input, NRows: 10, NCols: 10, NNZ: 40, Precision: prec, BlockSize: b, Kernel: kernel,
			Schedule: sched, Device: "gpu", Micros: us, MinMicros: us, MaxMicros: us, Reps: 5, MinBytes: 1000,
			GBps: 1000 / (us * 1e3), CopyFraction: 0.5, MaxRelErr: 1e-16, OK: ok}
	}
	return []Row{
		{Input: "scircuit", Precision: "fp64", Kernel: "cpu-csr", Schedule: "-", Device: "cpu", Micros: 500, OK: true, MinBytes: 1000},
		mk("scircuit", "fp64", "spac-ldg-x4", "spac", 256, 8, true),
		mk("scircuit", "fp64", "cusparse-csr", "-", 0, 10, true),
		mk("scircuit", "fp64", "cusparse-csr-alg2", "-", 0, 12, true),
		mk("scircuit", "fp64", "csr-vector", "-", 256, 6, false), // wrong: not the fastest correct one
		mk("cant", "fp32", "spac-smem", "spac", 512, 11, true),
		mk("cant", "fp32", "cusparse-csr-alg2", "-", 0, 10, true),
		mk("cant", "fp32", "cusparse-sell", "-", 0, 9, true), // the library's best path here
		{Input: "cant", Precision: "fp32", Kernel: "cusparse-coo", Schedule: "-", Device: "gpu", Note: "cuSPARSE missing"},
	}
}

func TestSpeedupsAndSummary(t *testing.T) {
	rows := gpuRows()
	Speedups(rows)
	want := map[string]float64{
		"scircuit spac-ldg-x4": 10.0 / 8, "scircuit cusparse-csr": 1, "scircuit cusparse-csr-alg2": 10.0 / 12,
		"scircuit csr-vector": 10.0 / 6, "scircuit cpu-csr": 0, "cant spac-smem": 9.0 / 11, "cant cusparse-csr-alg2": 9.0 / 10,
		"cant cusparse-sell": 1, "cant cusparse-coo": 0,
	}
	for _, r := range rows {
		if w := want[r.Input+" "+r.Kernel]; math.Abs(r.Speedup-w) > 1e-12 {
			t.Errorf("%s %s speedup %g, want %g", r.Input, r.Kernel, r.Speedup, w)
		}
	}
	sums := Summarize(rows, 0)
	if len(sums) != 2 {
		t.Fatalf("%d summaries", len(sums))
	}
	s := sums[0]
	if s.Class != Circuit || s.Best.Kernel != "spac-ldg-x4" || s.BestSPAC.Kernel != "spac-ldg-x4" || s.BestCuSPARSE.Kernel != "cusparse-csr" ||
		math.Abs(s.Speedup-1.25) > 1e-12 || s.BestOurs.Kernel != "spac-ldg-x4" || math.Abs(s.OursSpeedup-1.25) > 1e-12 || s.AllOK {
		t.Errorf("scircuit summary %+v", s)
	}
	if c := sums[1]; c.Class != Mesh || c.BestCuSPARSE.Kernel != "cusparse-sell" || math.Abs(c.Speedup-9.0/11) > 1e-12 ||
		c.BestOurs.Kernel != "spac-smem" || math.Abs(c.OursSpeedup-9.0/11) > 1e-12 || !c.AllOK {
		t.Errorf("cant summary %+v", c)
	}
}

func TestGoals(t *testing.T) {
	for _, tc := range []struct {
		nnz    int
		beyond bool
		want   float64
	}{{999_999, false, 0}, {999_999, true, 0}, {1_000_000, false, 1}, {1_000_000, true, 1.2}} {
		if g := goal(tc.nnz, tc.beyond); g != tc.want {
			t.Errorf("goal(%d, beyond L2 %v) = %g, want %g", tc.nnz, tc.beyond, g, tc.want)
		}
	}
	// 14M entries of x and y: 112 MB in fp64, beyond both; 56 MB in fp32,
	// beyond the H100's 50 MiB (the default) but not an H200's 60 MiB.
	for _, tc := range []struct {
		p    Precision
		l2   int64
		want bool
	}{{FP64, 0, true}, {FP64, 60 << 20, true}, {FP32, 0, true}, {FP32, DefaultL2Bytes, true}, {FP32, 60 << 20, false}} {
		if got := BeyondL2(7_000_000, 7_000_000, tc.p, tc.l2); got != tc.want {
			t.Errorf("BeyondL2(14M entries, %v, L2 %d) = %v, want %v", tc.p, tc.l2, got, tc.want)
		}
	}
}

// A report states the L2 it judged by: the device's, else the H100's.
func TestReportL2(t *testing.T) {
	rows := []Row{{Input: "big", NRows: 7_000_000, NCols: 7_000_000, NNZ: 35_000_000, Precision: "fp32", Kernel: "cusparse-csr",
		Device: "gpu", Reps: 5, Micros: 100, OK: true}}
	for _, tc := range []struct {
		l2           int64
		says, beyond string
	}{{0, "(50 MiB here, an H100's: no device given)", "| big | other | fp32 | 35000000 | yes |"},
		{60 << 20, "(60 MiB here)", "| big | other | fp32 | 35000000 | no |"}} {
		var b strings.Builder
		if err := WriteReport(&b, rows, ReportMeta{L2Bytes: tc.l2}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.says) || !strings.Contains(b.String(), tc.beyond) {
			t.Errorf("L2 %d: the report does not say %q and %q:\n%s", tc.l2, tc.says, tc.beyond, b.String())
		}
	}
}

func TestClassify(t *testing.T) {
	for in, want := range map[string]Class{
		"gen:circuit5M": Circuit, "rajat01.mtx": Circuit, "gen:in-2004@0.3": PowerLaw, "wiki-Vote.txt": PowerLaw,
		"gen:cant": Mesh, "../shared/matrices/bcsstk13.mtx.gz": Mesh, "gen:mac_econ_fwd500": OtherKind, "bayer10.mtx": OtherKind,
	} {
		if got := Classify(in); got != want {
			t.Errorf("Classify(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestFormats(t *testing.T) {
	rows := gpuRows()
	Speedups(rows)
	for i := range rows {
		rows[i].SetupSeconds, rows[i].RunSeconds = 0.25*float64(i), 1.5
	}
	res := []*Result{{Input: "scircuit", NRows: 10, NCols: 10, NNZ: 40, GPU: "test GPU", GPURan: true, CopyGBps: 3000, Rows: rows}}
	var csvBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, res, true); err != nil {
		t.Fatal(err)
	}
	// Two runs concatenated, the second with its header again.
	twice := csvBuf.String() + csvBuf.String()
	back, err := ReadCSV(strings.NewReader(twice))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2*len(rows) {
		t.Fatalf("read %d rows, want %d", len(back), 2*len(rows))
	}
	sorted := append([]Row(nil), rows...)
	KernelOrder(sorted)
	for i := range sorted {
		a, b := sorted[i], back[i]
		if a.Input != b.Input || a.Kernel != b.Kernel || a.BlockSize != b.BlockSize || a.OK != b.OK || a.Note != b.Note ||
			math.Abs(a.Micros-b.Micros) > 1e-9 || math.Abs(a.Speedup-b.Speedup) > 1e-5 ||
			a.SetupSeconds != b.SetupSeconds || a.RunSeconds != b.RunSeconds {
			t.Errorf("row %d: wrote %+v, read %+v", i, a, b)
		}
	}
	// Files from before the setup and run seconds (24 fields) and before the
	// format bytes too (23) still read, those fields 0.
	for _, drop := range []int{2, 3} {
		var old strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(csvBuf.String()), "\n") {
			fields := strings.Split(line, ",")
			old.WriteString(strings.Join(fields[:len(fields)-drop], ",") + "\n")
		}
		back, err := ReadCSV(strings.NewReader(old.String()))
		if err != nil || len(back) != len(rows) {
			t.Fatalf("a file of %d fields: %d rows, %v", len(csvHeader)-drop, len(back), err)
		}
		if back[1].SetupSeconds != 0 || back[1].RunSeconds != 0 || back[1].Kernel != sorted[1].Kernel {
			t.Errorf("a file of %d fields: read %+v", len(csvHeader)-drop, back[1])
		}
	}
	if _, err := ReadCSV(strings.NewReader("a,b\n")); err == nil {
		t.Error("a foreign CSV accepted")
	}

	var table bytes.Buffer
	if err := WriteTable(&table, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"test GPU", "spac-ldg-x4", "WRONG", "not run: cuSPARSE missing", "1.25x"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, table.String())
		}
	}
	var js bytes.Buffer
	for _, r := range res[0].Rows {
		if err := WriteJSONRow(&js, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteJSONResult(&js, res[0]); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadRows(bytes.NewReader(js.Bytes())); err != nil || len(back) != len(res[0].Rows) || back[0].Kernel != res[0].Rows[0].Kernel {
		t.Errorf("ReadRows of JSON Lines: %d rows, %v", len(back), err)
	}
	if back, err := ReadRows(strings.NewReader("\n" + twice)); err != nil || len(back) != 2*len(rows) {
		t.Errorf("ReadRows of CSV: %d rows, %v", len(back), err)
	}
	lines := strings.Split(strings.TrimSpace(js.String()), "\n")
	if len(lines) != len(res[0].Rows)+1 {
		t.Fatalf("JSON Lines: %d lines for %d rows and a result", len(lines), len(res[0].Rows))
	}
	for i, line := range lines {
		var decoded map[string]any
		if err := json.Unmarshal([]byte(line), &decoded); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		want := "row"
		if i == len(lines)-1 {
			want = "result"
		}
		if decoded["type"] != want || (want == "row" && decoded["kernel"] != res[0].Rows[i].Kernel) || (want == "result" && decoded["rows_measured"] != nil) {
			t.Errorf("line %d: %v", i, decoded)
		}
	}

	var md, svg, png bytes.Buffer
	if err := WriteReport(&md, rows, ReportMeta{Device: "test GPU", CopyGBps: 3000, Plot: "speedup", Commands: []string{"spac spmv x"}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| scircuit | circuit | fp64 |", "1.25x", "![speedup", "](speedup.svg)", "(speedup.png)", "spac spmv x", "## Every measurement"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	fig, err := SpeedupFigure(rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := fig.Write(&svg, plots.SVG); err != nil {
		t.Fatal(err)
	}
	if err := fig.Write(&png, plots.PNG); err != nil {
		t.Fatal(err)
	}
	plotstest.Check(t, svg.Bytes(), png.Bytes(), "scircuit", "fp64", "1.25", "speedup", "goal 1.00x: 1M nonzeros or more", "goal 1.20x: beyond the L2")
}

// TestScheduleWithoutScheduleKernels: methods and a schedule but only
// kernels that run none (as spac spmv --reorder's first run has). On a
// device no schedule is partitioned (minutes on a large input, for the CPU
// executor's row alone); without one (a build without CUDA) the
// schedule's CPU row is measured. A CUDA build on a device used to upload
// a schedule it never converted and crash (Upload(nil)); here Upload of
// nothing is an error, not a crash.
func TestScheduleWithoutScheduleKernels(t *testing.T) {
	coo := testMatrix(t)
	built := 0
	cfg := SpMVConfig{
		Input: "stencil", Matrix: coo, Precisions: []Precision{FP64}, BlockSizes: []int{64},
		Kernels: []Kernel{CSRScalar}, Methods: []string{"chunks"}, GPU: true, Iters: 2,
		Schedule: func(ctx context.Context, method string, b int) (*schedule.Schedule, error) {
			built++
			return schedule.Build(coo, chunks(coo, b), schedule.Options{BlockSize: b})
		},
	}
	res, err := RunSpMV(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sched, gpuRows := 0, 0
	for _, r := range res.Rows {
		if r.Kernel == "cpu-schedule" && r.Ran() && r.OK {
			sched++
		}
		if r.Device == "gpu" && r.Ran() {
			gpuRows++
		}
		if Kernel(r.Kernel).UsesSchedule() {
			t.Errorf("a row of a kernel not asked for: %+v", r)
		}
	}
	want := 1 // no device: the CPU rows
	if gpuRows > 0 {
		want = 0
	}
	if sched != want || built != want {
		t.Errorf("%d correct cpu-schedule rows and %d schedules built with %d GPU rows, want %d: %+v", sched, built, gpuRows, want, res.Rows)
	}
	m, err := NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&SpMV{m: m, p: FP64}).Upload(nil); err == nil {
		t.Error("Upload(nil): no error")
	}
}

// TestRenumberings: each input IN~ORDER of a precision is paired with IN of
// the same precision (an input renumbered before anything else, IN~random,
// is an input as given of its own), and the report has their table.
func TestRenumberings(t *testing.T) {
	mk := func(input, prec, kernel string, us float64) Row {
		return Row{Input: input, NRows: 10, NCols: 10, NNZ: 40, Precision: prec, Kernel: kernel, Schedule: "-",
			Device: "gpu", Micros: us, MinMicros: us, MaxMicros: us, Reps: 5, MinBytes: 1000, OK: true}
	}
	rows := []Row{
		mk("m~random", "fp64", "cusparse-csr", 10),
		mk("m~random", "fp64", "cusparse-coo", 11),
		mk("m~random", "fp64", "spac-seg8", 8),
		mk("m~random", "fp32", "cusparse-csr", 6),
		mk("m~random~spac", "fp64", "cusparse-csr", 4),
		mk("m~random~spac", "fp64", "cusparse-coo", 5),
		mk("m~random~spac", "fp64", "csr-d16", 2.5),
		mk("m~random~rcm", "fp64", "cusparse-csr", 20),
		mk("other~nd", "fp64", "cusparse-csr", 3), // no "other" of its own: no pair
	}
	rs := Renumberings(Summarize(rows, 0))
	if len(rs) != 2 {
		t.Fatalf("%d renumberings, want 2: %+v", len(rs), rs)
	}
	for i, want := range []struct {
		order              string
		gain, spacvs, ours float64
	}{{"spac", 10.0 / 4, 4.0 / 8, 10.0 / 2.5}, {"rcm", 10.0 / 20, 20.0 / 8, 0}} { // rcm: no kernel of ours ran
		r := rs[i]
		if r.Input != "m~random" || r.Precision != "fp64" || r.Order != want.order || math.Abs(r.Gain-want.gain) > 1e-12 ||
			math.Abs(r.SPACvs-want.spacvs) > 1e-12 || math.Abs(r.Ours-want.ours) > 1e-12 {
			t.Errorf("renumbering %d: %+v, want %s gain %g, SPAC %g and ours %g", i, r, want.order, want.gain, want.spacvs, want.ours)
		}
	}
	var md bytes.Buffer
	if err := WriteReport(&md, rows, ReportMeta{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Renumberings", "| m~random | fp64 | spac | cusparse-csr | 4.0 us | 2.50x | spac-seg8 | 8.0 us | 0.50x | csr-d16 | 2.5 us | 4.00x |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
}

// A wrong product's error is infinite (or NaN): the JSON Lines output
// must still carry the row, and reading it back must give the same error,
// not a 0 that would pass for a correct kernel.
func TestNonFiniteErrorRoundTrips(t *testing.T) {
	for _, e := range []float64{math.Inf(1), math.NaN(), 2.5e-7} {
		r := Row{Input: "x", Precision: "fp64", Kernel: "spac-d16", Device: "gpu", Micros: 3, MaxRelErr: e}
		var js bytes.Buffer
		if err := WriteJSONRow(&js, r); err != nil {
			t.Fatalf("error %v: writing JSON: %v", e, err)
		}
		var csvOut bytes.Buffer
		if err := WriteCSV(&csvOut, []*Result{{Rows: []Row{r}}}, true); err != nil {
			t.Fatalf("error %v: writing CSV: %v", e, err)
		}
		for name, in := range map[string][]byte{"JSON": js.Bytes(), "CSV": csvOut.Bytes()} {
			back, err := ReadRows(bytes.NewReader(in))
			if err != nil || len(back) != 1 {
				t.Fatalf("error %v: reading %s back: %d rows, %v\n%s", e, name, len(back), err, in)
			}
			got := back[0].MaxRelErr
			if got != e && !(math.IsNaN(e) && math.IsNaN(got)) {
				t.Errorf("error %v: %s gave back %v", e, name, got)
			}
		}
	}
}
