package spmv

import (
	"math"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// TestSeg8Emulation runs the CPU emulation of spac-seg8 on every test case
// and schedule at the block sizes it runs (multiples of 256: B/8 threads in
// whole warps) and checks it against the reference in both precisions.
func TestSeg8Emulation(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 13)
		for _, b := range []int{256, 512, 1024} {
			for _, a := range scheduleArrays(t, tc.coo, b) {
				if !a.XStaged {
					if a.XFlag != nil {
						t.Errorf("%s B=%d %s: x read-only, yet spac-seg8's format was made", tc.name, b, a.Label)
					}
					continue
				}
				if a.XFlag == nil {
					t.Fatalf("%s B=%d %s: no spac-seg8 format", tc.name, b, a.Label)
				}
				for _, p := range []Precision{FP32, FP64} {
					if e, row, got, want := seg8Error(m, a, x, p); !(e <= Tolerance(p)) {
						t.Errorf("%s %s B=%d schedule %s: max rel err %.3g (row %d: %g, want %g)", tc.name, p, b, a.Label, e, row, got, want)
					}
				}
			}
		}
	}
}

// seg8Error runs the emulation from a y of NaN (a row nobody writes shows)
// and returns the largest relative error and the worst row.
func seg8Error(m *Matrix, a *ScheduleArrays, x []float64, p Precision) (e float64, row int, got, want float64) {
	ref, abs, _ := m.Reference(x, p)
	y := make([]float64, m.NRows)
	for i := range y {
		y[i] = math.NaN()
	}
	emulateSeg8(a, x, y, p)
	for i := range y {
		if !(math.Abs(y[i]-ref[i]) <= math.Abs(y[row]-ref[row])) {
			row = i
		}
	}
	return MaxRelError(y, ref, abs), row, y[row], ref[row]
}

// TestSeg8Format checks the format's invariants on every case at B=1024:
// the x addresses are XLocal's, the row-start bits mark exactly where the
// local row changes, padding is zero, and Meta's per-warp counts are the
// row starts before each warp; then that the emulation notices a flipped
// row-start bit (the test can fail).
func TestSeg8Format(t *testing.T) {
	const b = 1024
	for _, tc := range testCases() {
		for _, a := range scheduleArrays(t, tc.coo, b) {
			if a.XFlag == nil {
				continue
			}
			for blk := range a.Blocks {
				tasks, starts := int(a.Meta[8*blk+4]), 0
				for s := range b {
					slot := blk*b + s
					f := a.XFlag[slot]
					if s >= tasks {
						if f != 0 {
							t.Fatalf("%s %s block %d slot %d: padding holds %#x", tc.name, a.Label, blk, s, f)
						}
						continue
					}
					if s%seg8WarpSlots == 0 && s > 0 {
						if got := int(a.Meta[8*blk+4+s/seg8WarpSlots]); got != starts {
							t.Fatalf("%s %s block %d: %d rows before warp %d, Meta says %d", tc.name, a.Label, blk, starts, s/seg8WarpSlots, got)
						}
					}
					start := s == 0 || a.YLocal[slot] != a.YLocal[slot-1]
					if (f&seg8Start != 0) != start || f&seg8AddrMask != a.XLocal[slot] {
						t.Fatalf("%s %s block %d slot %d: flag word %#x, want start %v and address %d", tc.name, a.Label, blk, s, f, start, a.XLocal[slot])
					}
					if start {
						starts++
					}
				}
			}
		}
	}

	// A planted bug: one row start dropped in the middle of a block.
	tc := testCases()[len(testCases())-1] // banded: rows of nine
	m, _ := NewMatrix(tc.coo)
	a, err := NewScheduleArrays(schedules(t, tc.coo, b)["chunks"], "chunks")
	if err != nil {
		t.Fatal(err)
	}
	x := randomXFor(m.NCols, 5)
	if e, _, _, _ := seg8Error(m, a, x, FP64); e > Tolerance(FP64) {
		t.Fatalf("intact format: max rel err %.3g", e)
	}
	for s := 300; ; s++ {
		if a.XFlag[s]&seg8Start != 0 {
			a.XFlag[s] &^= seg8Start
			break
		}
	}
	if e, _, _, _ := seg8Error(m, a, x, FP64); !(e > Tolerance(FP64)) {
		t.Errorf("a row start dropped: max rel err %.3g, want it caught", e)
	}
}

// TestSeg8Bytes: on the banded case spac-seg8 reads fewer bytes of its
// format per nonzero than spac-seg (no descriptors) and than CSR, and
// needs B=256 multiples.
func TestSeg8Bytes(t *testing.T) {
	tc := testCases()[len(testCases())-1]
	m, _ := NewMatrix(tc.coo)
	a, err := NewScheduleArrays(schedules(t, tc.coo, 1024)["chunks"], "chunks")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Precision{FP32, FP64} {
		seg8 := float64(a.FormatBytes(SPACSeg8, p)) / float64(a.NNZ)
		seg, csr := a.SegBytesPerNNZ(p), CSRBytesPerNNZ(m.NRows, m.NNZ(), p)
		t.Logf("banded, %s: spac-seg8 %.2f bytes per nonzero, spac-seg %.2f, CSR %.2f", p, seg8, seg, csr)
		if !(seg8 < seg && seg8 < csr) {
			t.Errorf("%s: spac-seg8 reads %.2f bytes per nonzero, spac-seg %.2f, CSR %.2f: want the fewest", p, seg8, seg, csr)
		}
	}
	if got, want := a.SharedBytes(SPACSeg8, FP64), a.MaxX*8; got < want || got > want+4*a.MaxY {
		t.Errorf("shared bytes %d, want between %d and %d", got, want, want+4*a.MaxY)
	}
	small, err := NewScheduleArrays(schedules(t, tc.coo, 128)["chunks"], "chunks")
	if err != nil || small.XFlag != nil {
		t.Errorf("B=128: spac-seg8 format %v (%v), want none", small.XFlag != nil, err)
	}
}

// TestSeg8Variants: spac-seg8's variants run its format unchanged (same
// threads, bytes and shared memory), only -pf and -lbpf take a prefetch
// distance, and every kernel named spac-seg8* is one of them (a new variant
// cannot miss the launch path).
func TestSeg8Variants(t *testing.T) {
	tc := testCases()[len(testCases())-1]
	a, err := NewScheduleArrays(schedules(t, tc.coo, 1024)["chunks"], "chunks")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kernels() {
		if strings.HasPrefix(string(k), string(SPACSeg8)) != k.IsSeg8() {
			t.Errorf("%s: IsSeg8 %v", k, k.IsSeg8())
		}
		if !k.IsSeg8() {
			if k.Prefetches() {
				t.Errorf("%s prefetches, but is no spac-seg8 variant", k)
			}
			continue
		}
		if k.TasksPerThread() != seg8Slots || !k.StagesX() || !k.UsesSchedule() || k.ReadOnlyVariant() != SPACSegLdg {
			t.Errorf("%s: %d tasks a thread, stages x %v, read-only variant %s", k, k.TasksPerThread(), k.StagesX(), k.ReadOnlyVariant())
		}
		for _, p := range []Precision{FP32, FP64} {
			if got, want := a.FormatBytes(k, p), a.FormatBytes(SPACSeg8, p); got != want {
				t.Errorf("%s %s: %d format bytes, spac-seg8 %d", k, p, got, want)
			}
			if got, want := a.SharedBytes(k, p), a.SharedBytes(SPACSeg8, p); got != want {
				t.Errorf("%s %s: %d shared bytes, spac-seg8 %d", k, p, got, want)
			}
		}
		if want := strings.HasSuffix(string(k), "pf"); k.Prefetches() != want {
			t.Errorf("%s: prefetches %v, want %v", k, k.Prefetches(), want)
		}
	}
}

// TestSeg8PrefetchDistance: eight blocks per SM ahead, fewer where their
// slots would take more than a quarter of the L2, none without the
// device's figures.
func TestSeg8PrefetchDistance(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name      string
		sms, l2   int
		blockSize int
		p         Precision
		want      int
	}{
		{"H100 fp64 B=1024", 132, 50 * mib, 1024, FP64, 132 * 8},
		{"H100 fp32 B=512", 132, 50 * mib, 512, FP32, 132 * 8},
		{"small L2 fp64 B=1024", 132, 4 * mib, 1024, FP64, mib / 1024 / 10},
		{"L2 unknown", 10, 0, 1024, FP64, 80},
		{"nothing known", 0, 0, 1024, FP64, 0},
	} {
		got := seg8PrefetchDistance(gpu.DeviceInfo{SMs: c.sms, L2Bytes: c.l2}, c.blockSize, c.p)
		if got != c.want {
			t.Errorf("%s: distance %d blocks, want %d", c.name, got, c.want)
		}
		if ahead := got * c.blockSize * (c.p.Bytes() + 2); c.l2 > 0 && ahead > c.l2/4 {
			t.Errorf("%s: %d bytes prefetched ahead, over a quarter of the %d-byte L2", c.name, ahead, c.l2)
		}
	}
}
