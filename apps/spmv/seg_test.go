package spmv

import (
	"math"
	"testing"
)

// TestSegEmulation runs the CPU emulation of spac-seg and spac-seg-ldg on
// every test case, schedule and block size the GPU tests use (from 128:
// the kernels run B/4 threads, whole warps) and checks it against the
// reference.
func TestSegEmulation(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 11)
		for _, b := range []int{128, 256, 512, 1024} {
			for _, a := range scheduleArrays(t, tc.coo, b) {
				name := a.Label
				if a.Desc == nil {
					t.Fatalf("%s B=%d %s: no descriptors", tc.name, b, name)
				}
				for _, k := range []Kernel{SPACSeg, SPACSegLdg} {
					if k.StagesX() && !a.XStaged {
						continue // the kernel refuses these
					}
					for _, p := range []Precision{FP32, FP64} {
						ref, abs, _ := m.Reference(x, p)
						y := make([]float64, m.NRows)
						for i := range y {
							y[i] = math.NaN() // a row nobody writes shows
						}
						emulateSeg(k, a, x, y, p)
						if e := MaxRelError(y, ref, abs); !(e <= Tolerance(p)) {
							worst := 0
							for i := range y {
								if !(math.Abs(y[i]-ref[i]) <= math.Abs(y[worst]-ref[worst])) {
									worst = i
								}
							}
							t.Errorf("%s %s %s B=%d schedule %s: max rel err %.3g (row %d: %g, want %g)", tc.name, k, p, b, name, e, worst, y[worst], ref[worst])
						}
					}
				}
			}
		}
	}
}

// TestSegDescriptors checks the descriptors' invariants on the banded
// case: a thread's rows are consecutive local rows, the lanes of a segment
// start are within the warp, a head carry goes with a row begun in an
// earlier warp; and the byte count against CSR's.
func TestSegDescriptors(t *testing.T) {
	tc := testCases()[len(testCases())-1]
	m, _ := NewMatrix(tc.coo)
	for _, b := range []int{128, 1024} {
		a, err := NewScheduleArrays(schedules(t, tc.coo, b)["chunks"], "chunks")
		if err != nil {
			t.Fatal(err)
		}
		threads := b / segSlots
		for i, d := range a.Desc {
			blk, th := i/threads, i%threads
			lo := th * segSlots
			tasks := int(a.Meta[8*blk+4])
			if (d&segActive != 0) != (lo < tasks) {
				t.Fatalf("B=%d block %d thread %d: active bit %v with %d tasks", b, blk, th, d&segActive != 0, tasks)
			}
			if lo >= tasks {
				continue
			}
			if got := int(d & segMaxLocalRow); got != int(a.YLocal[blk*b+lo]) {
				t.Fatalf("B=%d block %d thread %d: first row %d, slot says %d", b, blk, th, got, a.YLocal[blk*b+lo])
			}
			if lane := int(d >> segLaneShift & 31); lane > th%32 {
				t.Fatalf("B=%d block %d thread %d: segment starts at lane %d, after the thread", b, blk, th, lane)
			}
		}
		seg, csr := a.SegBytesPerNNZ(FP64), CSRBytesPerNNZ(m.NRows, m.NNZ(), FP64)
		t.Logf("banded, B=%d, row-order chunks: spac-seg %.2f bytes per nonzero, CSR %.2f (fp64)", b, seg, csr)
		if b == 1024 && seg >= csr {
			t.Errorf("B=%d: spac-seg reads %.2f bytes per nonzero, CSR %.2f: want fewer on a banded matrix", b, seg, csr)
		}
	}
	// A block size that does not fill warps with B/4 threads: no descriptors.
	a, err := NewScheduleArrays(schedules(t, tc.coo, 64)["chunks"], "chunks")
	if err != nil || a.Desc != nil {
		t.Errorf("B=64: descriptors %v (%v), want none", a.Desc != nil, err)
	}
}
