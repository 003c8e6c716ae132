package spmv

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/precision"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

func TestNewMatrixCSROrder(t *testing.T) {
	coo := &matrices.COO{Name: "m", NRows: 3, NCols: 4, Field: matrices.Real,
		Row: []int32{2, 0, 2, 0, 2}, Col: []int32{3, 1, 0, 1, 1}, Val: []float64{1, 2, 3, 4, 5}}
	m, err := NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	want := struct {
		rowptr, row, col []int32
		val              []float64
	}{[]int32{0, 2, 2, 5}, []int32{0, 0, 2, 2, 2}, []int32{1, 1, 0, 1, 3}, []float64{2, 4, 3, 5, 1}}
	if !equal(m.RowPtr, want.rowptr) || !equal(m.Row, want.row) || !equal(m.Col, want.col) || !equal(m.Val, want.val) || m.MaxRowNNZ != 3 {
		t.Errorf("got rowptr %v row %v col %v val %v max %d", m.RowPtr, m.Row, m.Col, m.Val, m.MaxRowNNZ)
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNewMatrixRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		coo  *matrices.COO
		want string
	}{
		{"complex", &matrices.COO{Name: "c", NRows: 1, NCols: 1, Row: []int32{0}, Col: []int32{0}, Field: matrices.Complex}, "complex"},
		{"out of range", &matrices.COO{Name: "o", NRows: 1, NCols: 1, Row: []int32{0}, Col: []int32{3}, Val: []float64{1}}, "outside"},
		{"no values", &matrices.COO{Name: "n", NRows: 1, NCols: 1, Row: []int32{0}, Col: []int32{0}}, "no values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewMatrix(tc.coo)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestPatternMatrixIsOnes(t *testing.T) {
	m, err := NewMatrix(&matrices.COO{Name: "p", NRows: 2, NCols: 2, Row: []int32{0, 1}, Col: []int32{1, 0}, Field: matrices.Pattern})
	if err != nil {
		t.Fatal(err)
	}
	y, _, err := m.Reference([]float64{3, 5}, FP64)
	if err != nil || y[0] != 5 || y[1] != 3 {
		t.Errorf("y = %v, %v; want [5 3]", y, err)
	}
}

func TestReferenceAndError(t *testing.T) {
	coo := &matrices.COO{Name: "m", NRows: 3, NCols: 2, Field: matrices.Real,
		Row: []int32{0, 0, 2}, Col: []int32{0, 1, 1}, Val: []float64{1, -1, 0.1}}
	m, _ := NewMatrix(coo)
	y, abs, err := m.Reference([]float64{1, 1}, FP64)
	if err != nil {
		t.Fatal(err)
	}
	if y[0] != 0 || abs[0] != 2 || y[1] != 0 || abs[1] != 0 || y[2] != 0.1 {
		t.Fatalf("y %v abs %v", y, abs)
	}
	y32, _, _ := m.Reference([]float64{1, 1}, FP32)
	if y32[2] != float64(float32(0.1)) {
		t.Errorf("fp32 reference %v, want the product of the rounded values", y32[2])
	}
	for _, tc := range []struct {
		name string
		got  []float64
		want float64
	}{
		{"exact", []float64{0, 0, 0.1}, 0},
		{"cancelling row", []float64{1e-16, 0, 0.1}, 0.5e-16},
		{"empty row written", []float64{0, 1e-300, 0.1}, math.Inf(1)},
		{"NaN", []float64{0, math.NaN(), 0.1}, math.Inf(1)},
		{"short", []float64{0, 0}, math.Inf(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MaxRelError(tc.got, y, abs); math.Abs(got-tc.want) > 1e-30 && got != tc.want {
				t.Errorf("MaxRelError = %g, want %g", got, tc.want)
			}
		})
	}
}

func TestScheduleArrays(t *testing.T) {
	for _, tc := range testCases() {
		for _, b := range []int{32, 256} {
			for name, s := range schedules(t, tc.coo, b) {
				a, err := NewScheduleArrays(s, name)
				if err != nil {
					t.Fatalf("%s B=%d %s: %v", tc.name, b, name, err)
				}
				// ZeroRows: exactly the rows no block stores plainly.
				stored := make([]bool, s.NRows)
				for i, f := range s.YShared {
					if f == 0 {
						stored[s.YUnique[i]] = true
					}
				}
				var want []int32
				for r, ok := range stored {
					if !ok {
						want = append(want, int32(r))
					}
				}
				if !equal(a.ZeroRows, want) {
					t.Errorf("%s B=%d %s: ZeroRows %v, want %v", tc.name, b, name, a.ZeroRows, want)
				}
				if a.XStaged == s.XReadOnly() {
					t.Errorf("%s B=%d %s: XStaged %v with applied %v", tc.name, b, name, a.XStaged, s.Applied)
				}
				// Every task's addresses point at its row and column; padding
				// is marked; Meta holds the offsets and counts.
				for blk := range s.NumBlocks() {
					meta := a.Meta[8*blk : 8*blk+8]
					if meta[0] != s.XOffsets[blk] || int(meta[1]) != s.UniqueX(blk) || meta[2] != s.YOffsets[blk] || int(meta[3]) != s.UniqueY(blk) || int(meta[4]) != s.Tasks(blk) {
						t.Fatalf("%s B=%d %s: block %d meta %v", tc.name, b, name, blk, meta)
					}
					// The row starts give back the local y addresses.
					yl := -1
					for tt := range s.Tasks(blk) {
						slot := blk*b + tt
						if a.RowStart[slot/32]>>(slot%32)&1 != 0 {
							yl++
						}
						if yl != int(s.YLocal[slot]) {
							t.Fatalf("%s B=%d %s: slot %d: the row starts give y address %d, want %d", tc.name, b, name, slot, yl, s.YLocal[slot])
						}
					}
					for tt := s.Tasks(blk); tt < b; tt++ {
						if a.YLocal[blk*b+tt] != PaddingSlot {
							t.Fatalf("%s B=%d %s: padding slot %d not marked", tc.name, b, name, blk*b+tt)
						}
					}
					for tt := range s.Tasks(blk) {
						slot := blk*b + tt
						if s.YUnique[int(s.YOffsets[blk])+int(a.YLocal[slot])] != s.Rows[slot] || a.Col[slot] != s.Cols[slot] ||
							(a.XStaged && s.XUnique[int(s.XOffsets[blk])+int(a.XLocal[slot])] != s.Cols[slot]) {
							t.Fatalf("%s B=%d %s: slot %d addresses wrong", tc.name, b, name, slot)
						}
					}
				}
				if a.SharedBytes(SPACShared, FP64) != a.MaxXY*8+128 || a.SharedBytes(SPACReadOnly, FP32) != a.MaxY*4+128 {
					t.Errorf("%s: shared bytes %d %d for max xy %d y %d", tc.name, a.SharedBytes(SPACShared, FP64), a.SharedBytes(SPACReadOnly, FP32), a.MaxXY, a.MaxY)
				}
			}
		}
	}
}

func TestScheduleArraysRefuses(t *testing.T) {
	tc := testCases()[1]
	s := schedules(t, tc.coo, 64)["chunks"]
	if _, err := NewScheduleArrays(s, "x"); err != nil {
		t.Fatal(err)
	}
	odd, err := schedule.Build(tc.coo, partitions(tc.coo, 48)["chunks"], schedule.Options{BlockSize: 48})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewScheduleArrays(odd, "odd"); err == nil || !strings.Contains(err.Error(), "multiple of 32") {
		t.Errorf("block size 48: %v", err)
	}
	bad := *s
	bad.YLocal = append([]int32(nil), s.YLocal...)
	bad.YLocal[0], bad.YLocal[1] = 5, 0 // unsorted within the block
	if _, err := NewScheduleArrays(&bad, "bad"); err == nil {
		t.Error("unsorted local y addresses accepted")
	}
	noVals := *s
	noVals.Vals = nil
	if _, err := NewScheduleArrays(&noVals, "novals"); err == nil {
		t.Error("a schedule without values accepted")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Kernel
		ok   bool
	}{
		{"", Kernels(), true},
		{"all", Kernels(), true},
		{"spac-smem, cusparse-csr,spac-smem", []Kernel{SPACShared, CuSPARSECSR}, true},
		{"csr", nil, false},
	} {
		got, err := ParseKernels(tc.in)
		if (err == nil) != tc.ok || (tc.ok && !equal(got, tc.want)) {
			t.Errorf("ParseKernels(%q) = %v, %v", tc.in, got, err)
		}
	}
	for in, want := range map[string]Precision{"fp32": FP32, "double": FP64, "F64": FP64} {
		if p, err := precision.Parse(in); err != nil || p != want {
			t.Errorf("precision.Parse(%q) = %v, %v", in, p, err)
		}
	}
	if _, err := precision.Parse("fp16"); err == nil {
		t.Error("fp16 accepted")
	}
	for b, ok := range map[int]bool{32: true, 128: true, 1024: true, 4096: true, 16384: true, 0: false, 48: false, 16416: false, 32768: false} {
		if err := CheckBlockSize(b); (err == nil) != ok {
			t.Errorf("CheckBlockSize(%d) = %v", b, err)
		}
	}
}

func TestMinimumBytes(t *testing.T) {
	// DESIGN.md's cuSPARSE figure: 16.8M rows, 83.9M nonzeros, fp32, 0.41 ms, 2.1 TB/s.
	b := MinimumBytes(16_777_216, 16_777_216, 83_886_080, FP32)
	if tbs := float64(b) / 0.41e-3 / 1e12; math.Abs(tbs-2.13) > 0.02 {
		t.Errorf("%d bytes in 0.41 ms = %.3f TB/s, want about 2.13", b, tbs)
	}
}

// TestPTXMatchesSource: the embedded PTX was generated from the current
// spmv.cu ('make ptx' records the source's SHA-256) and has every kernel.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/spmv/kernels/spmv.cu")); err != nil {
		t.Fatal(err)
	}
}

// TestEveryKernelIsLoaded: the entry point every kernel of ours launches,
// in both precisions, is among the module's entries (a kernel missing there
// fails at launch, on the device only).
func TestEveryKernelIsLoaded(t *testing.T) {
	for _, k := range Kernels() {
		if k.IsCuSPARSE() {
			continue
		}
		bases := []string{k.entryBase()}
		switch k {
		case CSRD16: // the narrow and the wide form
			bases = []string{"csr_d16", "csr_d16_wide"}
		case CSRD16Hot, CSRD16RCM, SPACD16Ord, SPACD16Hot: // x gathered into their order (and y back), then csr-d16
			bases = []string{"gather", "csr_d16", "csr_d16_wide"}
		case SPACD16, SPACD16Own: // the two forms over a schedule's rows
			bases = []string{"spac_d16", "spac_d16_wide"}
		}
		for _, p := range []Precision{FP32, FP64} {
			for _, base := range bases {
				if name := entryName(base, p); !slices.Contains(Module.Entries, name) {
					t.Errorf("%s %s launches %s, which the module does not load", k, p, name)
				}
			}
		}
		if k == SPACD16 || k == SPACD16Own { // in fp32 beyond the L2, narrow, the row list loaded early
			if name := entryName(d16EarlyBase, FP32); !slices.Contains(Module.Entries, name) || !strings.Contains(spmvPTX, ".entry "+name+"(") {
				t.Errorf("%s fp32 launches %s, which the module does not load or the PTX lacks", k, name)
			}
		}
	}
}

// TestD16KernelsCarryL2Hints: spac-d16's entries (both forms and
// precisions; spac-d16-own runs them too) in the embedded PTX store y
// evict-first and gather x under an evict-last policy, and csr-d16's, which
// the hints slowed, do neither (spmv.cu, "spac-d16's gathers of x"). The
// hints change no result, so only the PTX can show that an edit or a
// rebuild lost them or spread them.
func TestD16KernelsCarryL2Hints(t *testing.T) {
	hints := []string{"createpolicy.fractional.L2::evict_last", "L2::cache_hint", "st.global.cs"}
	for _, p := range []Precision{FP32, FP64} {
		bases := []string{"spac_d16", "spac_d16_wide"}
		if p == FP32 {
			bases = append(bases, d16EarlyBase)
		}
		for _, base := range bases {
			body := ptxEntry(t, spmvPTX, entryName(base, p))
			for _, want := range hints {
				if !strings.Contains(body, want) {
					t.Errorf("%s: no %q in its PTX", entryName(base, p), want)
				}
			}
		}
		for _, base := range []string{"csr_d16", "csr_d16_wide", "csr_scalar"} {
			body := ptxEntry(t, spmvPTX, entryName(base, p))
			for _, unwanted := range hints {
				if strings.Contains(body, unwanted) {
					t.Errorf("%s: %q in its PTX", entryName(base, p), unwanted)
				}
			}
		}
	}
}

// TestD16EarlyKernelFillsTheSM: spac-d16's early fp32 kernel asks for 16
// resident blocks (every warp slot of an SM; 4% faster on the 20M-row
// circuit, issue20.md round 22) and the stores' form does not (it spills
// at that bound and was slower). A rebuild that lost the bound would still
// compute the same products.
func TestD16EarlyKernelFillsTheSM(t *testing.T) {
	const bound = ".minnctapersm 16"
	if body := ptxEntry(t, spmvPTX, entryName(d16EarlyBase, FP32)); !strings.Contains(body, bound) {
		t.Errorf("%s: no %q in its PTX", entryName(d16EarlyBase, FP32), bound)
	}
	for _, p := range []Precision{FP32, FP64} {
		if body := ptxEntry(t, spmvPTX, entryName("spac_d16", p)); strings.Contains(body, ".minnctapersm") {
			t.Errorf("%s: a resident-block bound in its PTX", entryName("spac_d16", p))
		}
	}
}

// ptxEntry returns entry name's body in ptx, from its .entry line to the
// next entry's.
func ptxEntry(t *testing.T, ptx, name string) string {
	t.Helper()
	start := strings.Index(ptx, ".entry "+name+"(")
	if start < 0 {
		t.Fatalf("no entry %s in the PTX", name)
	}
	body := ptx[start+1:]
	if end := strings.Index(body, ".entry "); end >= 0 {
		body = body[:end]
	}
	return body
}
