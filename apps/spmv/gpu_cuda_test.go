//go:build cuda

// GPU tests: every kernel against the CPU reference on the edge cases of
// testCases, in both precisions, at block sizes 32 to 1024, with schedules
// from two partitions and under budgets that force splitting and read-only
// x. Build here, run on the GPU machine:
//
//	scripts/gpu-build.sh          # or make gpu: writes bin/gpu/spmv.test
//	bin/gpu/spmv.test -test.v     # on the GPU machine (carry bin/gpu)
package spmv

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/gpu/cusparse"
	"github.com/spac-gpu/spac/matrices"
)

var dev *gpu.Device

func TestMain(m *testing.M) {
	ordinal := 0
	if s := os.Getenv("SPAC_GPU_DEVICE"); s != "" {
		ordinal, _ = strconv.Atoi(s)
	}
	// A kernel variant's PTX ($SPAC_PTX_DIR) is tested as the spac
	// command would run it (the log's first line names the PTX loaded).
	gpu.SetPTXDir(os.Getenv("SPAC_PTX_DIR"))
	d, err := gpu.Open(ordinal)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spmv tests:", err)
		os.Exit(1)
	}
	dev = d
	mod, err := d.LoadModule(Module)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spmv tests:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "spmv tests on %s, kernels from %s PTX\n", d.Info(), mod.Source())
	if path, version, err := cusparse.Version(); err != nil {
		fmt.Fprintln(os.Stderr, "spmv tests: cuSPARSE:", err)
	} else {
		fmt.Fprintf(os.Stderr, "spmv tests: cuSPARSE %s (%s)\n", version, path)
	}
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// check runs op once and compares y with the reference.
func check(t *testing.T, sp *SpMV, op *Op, ref, abs []float64, p Precision, what string) {
	t.Helper()
	y, err := sp.Product(op)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if e := MaxRelError(y, ref, abs); !(e <= Tolerance(p)) {
		worst, at := 0.0, -1
		for i := range y {
			if d := y[i] - ref[i]; d*d > worst*worst || y[i] != y[i] {
				worst, at = d, i
			}
		}
		t.Errorf("%s: max relative error %.3g over %g (row %d: got %g, want %g)", what, e, Tolerance(p), at, y[at], ref[at])
	}
}

// spmvWithX puts m on the device in precision p with x set, and returns
// the product's reference; the caller closes the SpMV.
func spmvWithX(t *testing.T, m *Matrix, x []float64, p Precision) (sp *SpMV, ref, abs []float64) {
	t.Helper()
	ref, abs, err := m.Reference(x, p)
	if err != nil {
		t.Fatal(err)
	}
	if sp, err = NewSpMV(dev, m, p); err != nil {
		t.Fatal(err)
	}
	if err := sp.SetX(x); err != nil {
		sp.Close()
		t.Fatal(err)
	}
	return sp, ref, abs
}

func TestKernelsAgreeWithReference(t *testing.T) {
	_, _, csErr := cusparse.Version()
	for _, tc := range testCases() {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMatrix(tc.coo)
			if err != nil {
				t.Fatal(err)
			}
			x := randomXFor(m.NCols, 9)
			for _, p := range []Precision{FP32, FP64} {
				sp, ref, abs := spmvWithX(t, m, x, p)
				for _, b := range []int{32, 128, 256, 512, 1024, 4096, 16384} {
					for _, k := range []Kernel{CSRScalar, CSRVector, COOAtomic, CSRD16, CSRD16Hot, CSRD16RCM} {
						op, err := sp.Op(k, b, nil)
						if b > MaxThreads && k.TasksPerThread() == 1 {
							if !errors.Is(err, ErrUnsupported) {
								t.Errorf("%s B=%d: %v, want ErrUnsupported (more than a block's threads)", k, b, err)
							}
							continue
						}
						if k == CSRD16RCM && m.NRows != m.NCols {
							if !errors.Is(err, ErrUnsupported) {
								t.Errorf("%s B=%d on a %d x %d matrix: %v, want ErrUnsupported", k, b, m.NRows, m.NCols, err)
							}
							continue
						}
						if (k == CSRD16 || k == CSRD16Hot || k == CSRD16RCM) && (b%256 != 0 || b > d16MaxSlots) {
							if !errors.Is(err, ErrUnsupported) {
								t.Errorf("%s B=%d: %v, want ErrUnsupported", k, b, err)
							}
							continue
						}
						if err != nil {
							t.Fatalf("%s B=%d: %v", k, b, err)
						}
						if k == CSRD16RCM { // the format, and the order's index read by each of the two gathers
							rcm, _ := m.rcmOrdered()
							d, err := NewD16(rcm, b)
							if err != nil {
								t.Fatal(err)
							}
							if want := d.FormatBytes(p) + 8*int64(m.NRows); op.FormatBytes != want {
								t.Errorf("%s %s B=%d: FormatBytes %d, want %d", p, k, b, op.FormatBytes, want)
							}
						}
						check(t, sp, op, ref, abs, p, fmt.Sprintf("%s %s B=%d", p, k, b))
					}
					for _, a := range scheduleArrays(t, tc.coo, b) {
						name := a.Label
						ds, err := sp.Upload(a)
						if err != nil {
							t.Fatal(err)
						}
						for _, k := range []Kernel{SPACShared, SPACReadOnly, SPACSharedX4, SPACReadOnlyX4, SPACSeg, SPACSegLdg, SPACSeg8, SPACSeg8LB, SPACSeg8PF, SPACSeg8LBPF, SPACD16, SPACD16Own, SPACD16Ord, SPACD16Hot} {
							op, err := sp.Op(k, b, ds)
							if (k.StagesX() && !a.XStaged) || b/k.TasksPerThread() < 32 || (k.IsSeg() && a.Desc == nil) || ((k.IsSeg8() || k.IsSPACD16()) && b%256 != 0) || (b > MaxThreads && !k.IsSPACD16()) {
								if !errors.Is(err, ErrUnsupported) {
									t.Errorf("%s B=%d on schedule %s (x staged: %v): %v, want ErrUnsupported", k, b, name, a.XStaged, err)
								}
								continue
							}
							if err != nil {
								t.Fatalf("%s B=%d %s: %v", k, b, name, err)
							}
							check(t, sp, op, ref, abs, p, fmt.Sprintf("%s %s B=%d schedule %s (%d blocks, x staged %v)", p, k, b, name, a.Blocks, a.XStaged))
							if p == FP32 && (k == SPACD16 || k == SPACD16Own) { // the other kernel: the row list loaded early
								sp.d16Early = 1
								op, err := sp.Op(k, b, ds)
								sp.d16Early = 0
								if err != nil {
									t.Fatalf("%s B=%d %s, the row list early: %v", k, b, name, err)
								}
								check(t, sp, op, ref, abs, p, fmt.Sprintf("%s %s B=%d schedule %s, the row list early", p, k, b, name))
							}
						}
					}
				}
				for _, k := range []Kernel{CuSPARSECSR, CuSPARSECSRAlg2, CuSPARSECOO, CuSPARSESELL, CuSPARSEBSR} {
					if csErr != nil {
						t.Logf("%s skipped: %v", k, csErr)
						continue
					}
					op, err := sp.Op(k, 0, nil)
					if m.Duplicates > 0 {
						if !errors.Is(err, ErrUnsupported) {
							t.Errorf("%s on a matrix with %d duplicate entries: %v, want ErrUnsupported", k, m.Duplicates, err)
						}
						continue
					}
					if (k == CuSPARSESELL || k == CuSPARSEBSR) && (errors.Is(err, ErrUnsupported) || errors.Is(err, cusparse.ErrUnavailable)) {
						t.Logf("%s %s: %v", p, k, err) // the format does not apply, or this cuSPARSE lacks it
						continue
					}
					if err != nil {
						t.Fatalf("%s: %v", k, err)
					}
					check(t, sp, op, ref, abs, p, fmt.Sprintf("%s %s", p, k))
				}
				if err := sp.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestNoEntries: a matrix without entries gives y = 0 from the plain
// kernels (the schedule kernels have no schedule: there is nothing to
// partition).
func TestNoEntries(t *testing.T) {
	m, err := NewMatrix(&matrices.COO{Name: "none", NRows: 5, NCols: 3, Field: matrices.Real, Val: []float64{}})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpMV(dev, m, FP64)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	x := []float64{1, 2, 3}
	if err := sp.SetX(x); err != nil {
		t.Fatal(err)
	}
	ref, abs, _ := m.Reference(x, FP64)
	for _, k := range []Kernel{CSRScalar, CSRVector, COOAtomic} {
		op, err := sp.Op(k, 128, nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, sp, op, ref, abs, FP64, string(k))
	}
}

// TestTimingAndRepeat: timing works, and a product after many timed
// repetitions is still right (nothing accumulates across runs).
func TestTimingAndRepeat(t *testing.T) {
	sp, ds, ref, abs := bandedSpMV(t, 4)
	for _, k := range []Kernel{COOAtomic, SPACShared, SPACReadOnly, SPACSharedX4, SPACReadOnlyX4, SPACSeg, SPACSegLdg, SPACSeg8, SPACSeg8LB, SPACSeg8PF, SPACSeg8LBPF, SPACD16, SPACD16Own} {
		op, err := sp.Op(k, 256, ds)
		if err != nil {
			t.Fatal(err)
		}
		tm, err := sp.Time(op, 2, 20)
		if err != nil {
			t.Fatal(err)
		}
		if tm.Reps != 20 || tm.Median <= 0 || tm.Min > tm.Median || tm.Median > tm.Max {
			t.Errorf("%s: timing %+v", k, tm)
		}
		y, err := sp.Y()
		if err != nil {
			t.Fatal(err)
		}
		if e := MaxRelError(y, ref, abs); e > Tolerance(FP64) {
			t.Errorf("%s: after 22 runs the result is off by %.3g", k, e)
		}
	}
	tm, bw, err := dev.CopyBandwidth(256<<20, 5)
	if err != nil || bw < 100e9 {
		t.Errorf("copy bandwidth %.0f GB/s (%+v), %v", bw/1e9, tm, err)
	}
	t.Logf("device copy: %.0f GB/s", bw/1e9)
}

// TestSeg8PrefetchNear runs spac-seg8-pf and -lbpf with prefetch distances
// of 1 and 2 blocks, so that the test cases' few blocks prefetch (the
// device's own distance is a wave of blocks, more than they have): the
// prefetches read nothing past the slots, and the products stay right.
func TestSeg8PrefetchNear(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 21)
		for _, p := range []Precision{FP32, FP64} {
			sp, ref, abs := spmvWithX(t, m, x, p)
			for _, a := range scheduleArrays(t, tc.coo, 256) {
				if a.XFlag == nil {
					continue
				}
				ds, err := sp.Upload(a)
				if err != nil {
					t.Fatal(err)
				}
				for _, ahead := range []int{1, 2} {
					sp.seg8Ahead = ahead
					for _, k := range []Kernel{SPACSeg8PF, SPACSeg8LBPF} {
						op, err := sp.Op(k, 256, ds)
						if err != nil {
							t.Fatalf("%s %s: %v", tc.name, k, err)
						}
						check(t, sp, op, ref, abs, p, fmt.Sprintf("%s %s %s schedule %s (%d blocks), %d ahead", tc.name, p, k, a.Label, a.Blocks, ahead))
					}
				}
			}
			if err := sp.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// bandedSpMV sets up the banded test case in fp64 with x from seed and a
// schedule of block size 256 uploaded; it returns the product's reference.
func bandedSpMV(t *testing.T, seed uint64) (sp *SpMV, ds *DeviceSchedule, ref, abs []float64) {
	t.Helper()
	tc := testCases()[len(testCases())-1]
	m, err := NewMatrix(tc.coo)
	if err != nil {
		t.Fatal(err)
	}
	x := randomXFor(m.NCols, seed)
	if ref, abs, err = m.Reference(x, FP64); err != nil {
		t.Fatal(err)
	}
	if sp, err = NewSpMV(dev, m, FP64); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sp.Close() })
	if err := sp.SetX(x); err != nil {
		t.Fatal(err)
	}
	a, err := NewScheduleArrays(schedules(t, tc.coo, 256)["random"], "random")
	if err != nil {
		t.Fatal(err)
	}
	if ds, err = sp.Upload(a); err != nil {
		t.Fatal(err)
	}
	return sp, ds, ref, abs
}

func TestErrors(t *testing.T) {
	m, _ := NewMatrix(testCases()[0].coo)
	sp, err := NewSpMV(dev, m, FP32)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if _, err := sp.Op(SPACShared, 256, nil); err == nil {
		t.Error("a SPAC kernel without a schedule: no error")
	}
	if _, err := sp.Op(CSRScalar, 100, nil); err == nil {
		t.Error("block size 100: no error")
	}
	if err := sp.SetX([]float64{1, 2}); err == nil {
		t.Error("x of the wrong length: no error")
	}
	other, _ := NewMatrix(testCases()[1].coo)
	a, _ := NewScheduleArrays(schedules(t, testCases()[1].coo, 64)["chunks"], "chunks")
	if _, err := sp.Upload(a); err == nil {
		t.Errorf("a schedule of a %d x %d matrix accepted for a 1 x 1 one", other.NRows, other.NCols)
	}
	if _, err := gpu.Open(99); err == nil {
		t.Error("device 99: no error")
	}
	var none *gpu.Device
	if _, err := NewSpMV(none, m, FP64); err == nil || errors.Is(err, gpu.ErrNoCUDA) {
		t.Errorf("a nil device: %v", err)
	}
}
