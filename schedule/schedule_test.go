package schedule

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// tiny is a 4 x 5 matrix with 8 entries given out of order:
//
//	row 0: (0,0)=1 (0,3)=2
//	row 1: (1,1)=3 (1,3)=4
//	row 2: (2,0)=5 (2,4)=6
//	row 3: (3,2)=7 (3,3)=8
func tiny() *matrices.COO {
	return &matrices.COO{Name: "tiny", NRows: 4, NCols: 5,
		Row: []int32{3, 0, 1, 2, 0, 1, 3, 2},
		Col: []int32{3, 0, 1, 4, 3, 3, 2, 0},
		Val: []float64{8, 1, 3, 6, 2, 4, 7, 5}}
}

func TestBuildTiny(t *testing.T) {
	coo := tiny()
	// Part 0: rows 0 and 1 plus (2,0); part 1: the rest. Row 2 is shared.
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	s := build(t, coo, p, Options{BlockSize: 6, Params: []Param{{"method", "hand"}}})
	want := &Schedule{
		NewSchedule:  []int32{1, 4, 2, 5, 7, -1, 3, 6, 0, -1, -1, -1},
		BlockOffsets: []int32{0, 5, 8},
		Rows:         []int32{0, 0, 1, 1, 2, -1, 2, 3, 3, -1, -1, -1},
		Cols:         []int32{0, 3, 1, 3, 0, -1, 4, 2, 3, -1, -1, -1},
		Vals:         []float64{1, 2, 3, 4, 5, 0, 6, 7, 8, 0, 0, 0},
		XOffsets:     []int32{0, 3, 6},
		XUnique:      []int32{0, 1, 3, 2, 3, 4},
		XLocal:       []int32{0, 2, 1, 2, 0, 0, 2, 0, 1, 0, 0, 0},
		YOffsets:     []int32{0, 3, 5},
		YUnique:      []int32{0, 1, 2, 2, 3},
		YShared:      []uint8{0, 0, 1, 1, 0},
		YLocal:       []int32{0, 0, 1, 1, 2, 0, 0, 1, 1, 0, 0, 0},
		Slot:         []int32{8, 0, 2, 6, 1, 3, 7, 4},
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"NewSchedule", s.NewSchedule, want.NewSchedule}, {"BlockOffsets", s.BlockOffsets, want.BlockOffsets},
		{"Rows", s.Rows, want.Rows}, {"Cols", s.Cols, want.Cols}, {"Vals", s.Vals, want.Vals},
		{"XOffsets", s.XOffsets, want.XOffsets}, {"XUnique", s.XUnique, want.XUnique}, {"XLocal", s.XLocal, want.XLocal},
		{"YOffsets", s.YOffsets, want.YOffsets}, {"YUnique", s.YUnique, want.YUnique}, {"YShared", s.YShared, want.YShared},
		{"YLocal", s.YLocal, want.YLocal}, {"Slot", s.Slot, want.Slot},
		{"Perm", s.Perm(), []int32{1, 4, 2, 5, 7, 3, 6, 0}}, {"Inverse", s.Inverse(), []int32{7, 0, 2, 5, 1, 3, 6, 4}},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s.Applied != None || s.NumBlocks() != 2 {
		t.Errorf("applied %v, %d blocks; want none, 2", s.Applied, s.NumBlocks())
	}
	if got := s.MaxSharedBytes(8); got != 6*8 {
		t.Errorf("largest fp64 demand %d bytes, want 48 (3 x + 3 y slots)", got)
	}
	if got := s.SharedBytes(1, 4); got != 5*4 {
		t.Errorf("block 1 fp32 demand %d bytes, want 20", got)
	}
	if s.Fingerprint != StructureFingerprint(coo) {
		t.Error("fingerprint differs from the matrix's")
	}
}

func TestBuildRefuses(t *testing.T) {
	coo := tiny()
	cases := []struct {
		name string
		p    spac.Partition
		opts Options
	}{
		{"part above block size", spac.Partition{K: 2, Part: []int32{0, 0, 0, 0, 0, 1, 1, 1}}, Options{BlockSize: 4}},
		{"part out of range", spac.Partition{K: 2, Part: []int32{0, 0, 0, 0, 2, 1, 1, 1}}, Options{BlockSize: 8}},
		{"short partition", spac.Partition{K: 1, Part: []int32{0, 0}}, Options{BlockSize: 8}},
		{"no block size", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{}},
		{"budget above Hopper", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{BlockSize: 8, Budget: MaxBudget + 1}},
		{"value size", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{BlockSize: 8, ValueBytes: 2}},
		{"bad parameter", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{BlockSize: 8, Params: []Param{{"a=b", "c"}}}},
		{"readonly cannot fit y", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{BlockSize: 8, Budget: 16, Overflow: ReadOnly}},
		{"budget below one task", spac.Partition{K: 1, Part: make([]int32, 8)}, Options{BlockSize: 8, Budget: 8, Overflow: Split}},
	}
	for _, c := range cases {
		if _, err := Build(coo, c.p, c.opts); err == nil {
			t.Errorf("%s: Build accepted it", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
}

// The overflow policies: with a budget too small for some blocks, split
// makes more blocks that all fit, readonly keeps the blocks and drops x
// from shared memory, auto picks readonly when y alone fits and split
// otherwise. Every result still computes A x exactly like CSR.
func TestOverflowPolicies(t *testing.T) {
	coo, err := matrices.Preset("scircuit", 0.02, 1)
	if err != nil {
		t.Fatal(err)
	}
	coo = coo.Expanded()
	p := partition(t, coo, "greedy", 256)
	full := build(t, coo, p, Options{BlockSize: 256})
	need := full.MaxSharedBytes(8)
	yOnly := 0
	for b := range full.NumBlocks() {
		yOnly = max(yOnly, full.UniqueY(b)*8)
	}
	cases := []struct {
		policy  Overflow
		budget  int
		applied Overflow
	}{
		{Auto, need, None},
		{Split, need, None},
		{ReadOnly, need - 8, ReadOnly},
		{Auto, yOnly, ReadOnly},
		{Split, yOnly, Split},
		{Auto, yOnly - 8, Split},
		{Split, need / 4, Split},
	}
	ref, scale, count := csrSpMV(coo, testVector(coo.NCols))
	for _, c := range cases {
		s := build(t, coo, p, Options{BlockSize: 256, Budget: c.budget, Overflow: c.policy})
		if s.Applied != c.applied {
			t.Errorf("policy %v, budget %d (full demand %d, y only %d): applied %v, want %v", c.policy, c.budget, need, yOnly, s.Applied, c.applied)
		}
		if got := s.MaxSharedBytes(8); got > c.budget {
			t.Errorf("policy %v, budget %d: largest demand %d", c.policy, c.budget, got)
		}
		if (s.Applied == Split) != (s.NumBlocks() > p.K) || s.SplitBlocks != s.NumBlocks()-p.K {
			t.Errorf("policy %v, budget %d: %d blocks for %d parts, %d split", c.policy, c.budget, s.NumBlocks(), p.K, s.SplitBlocks)
		}
		y := make([]float64, coo.NRows)
		if err := s.SpMV(y, y[:0]); err == nil {
			t.Error("SpMV accepted vectors of the wrong length")
		}
		if err := s.SpMV(testVector(coo.NCols), y); err != nil {
			t.Fatal(err)
		}
		if worst, ok := maxRelError(y, ref, scale, count, 0x1p-53); !ok {
			t.Errorf("policy %v, budget %d: max relative error %.3g", c.policy, c.budget, worst)
		}
		t.Logf("policy %-8v budget %6d: applied %-8v %4d blocks (%d parts), largest fp64 demand %6d bytes",
			c.policy, c.budget, s.Applied, s.NumBlocks(), p.K, s.MaxSharedBytes(8))
	}
}

// executorCase runs both executors on one matrix and partition and
// returns the max relative errors.
func executorCase(t *testing.T, coo *matrices.COO, p spac.Partition, blockSize int) (e64, e32 float64) {
	t.Helper()
	s := build(t, coo, p, Options{BlockSize: blockSize})
	x := testVector(coo.NCols)
	ref, scale, count := csrSpMV(coo, x)
	y := make([]float64, coo.NRows)
	for i := range y {
		y[i] = 42 // the executor must zero y itself
	}
	if err := s.SpMV(x, y); err != nil {
		t.Fatal(err)
	}
	e64, ok := maxRelError(y, ref, scale, count, 0x1p-53)
	if !ok {
		t.Errorf("%s, B=%d: fp64 executor differs from CSR SpMV: max relative error %.3g", coo.Name, blockSize, e64)
	}
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	y32 := make([]float32, coo.NRows)
	if err := s.SpMV32(x32, y32); err != nil {
		t.Fatal(err)
	}
	e32, ok = maxRelError(y32, ref, scale, count, 0x1p-24)
	if !ok {
		t.Errorf("%s, B=%d: fp32 executor differs from CSR SpMV: max relative error %.3g", coo.Name, blockSize, e32)
	}
	return e64, e32
}

// The CPU executor agrees with CSR SpMV on every shared matrix at every
// block size, with fast partitions (greedy, default) in the big loop and
// SPAC's on every matrix at one block size each (cycling through them).
func TestExecutorSharedMatrices(t *testing.T) {
	mats := sharedMatrices(t)
	start := time.Now()
	worst64, worst32 := 0.0, 0.0
	for _, m := range mats {
		for i, bs := range []int{128, 256, 512, 1024} {
			method := []string{"greedy", "default"}[i%2]
			e64, e32 := executorCase(t, m.coo, partition(t, m.coo, method, bs), bs)
			worst64, worst32 = max(worst64, e64), max(worst32, e32)
			t.Logf("%-32s B=%4d %-7s max rel error fp64 %.2e fp32 %.2e", m.name, bs, method, e64, e32)
		}
	}
	for i, m := range mats {
		bs := []int{128, 256, 512, 1024}[i%4]
		e64, e32 := executorCase(t, m.coo, partition(t, m.coo, "spac", bs), bs)
		worst64, worst32 = max(worst64, e64), max(worst32, e32)
		t.Logf("%-32s B=%4d %-7s max rel error fp64 %.2e fp32 %.2e", m.name, bs, "spac", e64, e32)
	}
	t.Logf("all shared matrices: worst max relative error fp64 %.2e, fp32 %.2e (%.1f s)", worst64, worst32, time.Since(start).Seconds())
}

func TestExecutorGenerated(t *testing.T) {
	type gen struct {
		name string
		make func() (*matrices.COO, error)
	}
	gens := []gen{
		{"ba", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(3000, 4, 1) }},
		{"er", func() (*matrices.COO, error) { return matrices.ErdosRenyi(2000, 6, 2) }},
		{"stencil2d", func() (*matrices.COO, error) { return matrices.Stencil2D(60, 50, 5) }},
	}
	for _, name := range []string{"cant", "cop20k_A", "mac_econ_fwd500", "mc2depi", "scircuit"} {
		gens = append(gens, gen{name, func() (*matrices.COO, error) { return matrices.Preset(name, 0.01, 1) }})
	}
	for _, g := range gens {
		coo, err := g.make()
		if err != nil {
			t.Fatal(err)
		}
		coo = coo.Expanded()
		for i, bs := range []int{128, 256, 512, 1024} {
			method := []string{"default", "greedy"}[i%2]
			if i == 3 {
				method = "spac"
			}
			e64, e32 := executorCase(t, coo, partition(t, coo, method, bs), bs)
			t.Logf("%-40s B=%4d %-7s max rel error fp64 %.2e fp32 %.2e", coo.Name, bs, method, e64, e32)
		}
	}
}

// A rectangular matrix, one with empty rows and columns, a complex one
// (structure only) and duplicates all schedule.
func TestBuildEdgeCases(t *testing.T) {
	rect := &matrices.COO{Name: "rect", NRows: 3, NCols: 7, Row: []int32{0, 2, 2, 0, 2}, Col: []int32{6, 0, 6, 6, 3},
		Val: []float64{1, 2, 3, 4, 5}} // (0,6) twice
	p := spac.Partition{K: 3, Part: []int32{0, 1, 2, 0, 2}} // part 1 of one task, parts may be uneven
	s := build(t, rect, p, Options{BlockSize: 2})
	x := testVector(7)
	y := make([]float64, 3)
	if err := s.SpMV(x, y); err != nil {
		t.Fatal(err)
	}
	ref, scale, count := csrSpMV(rect, x)
	if e, ok := maxRelError(y, ref, scale, count, 0x1p-53); !ok {
		t.Errorf("rectangular: error %g", e)
	}
	cplx := &matrices.COO{Name: "complex", NRows: 2, NCols: 2, Row: []int32{0, 1}, Col: []int32{1, 0}, Val: []float64{1, 2}, Imag: []float64{1, 1}, Field: matrices.Complex}
	s = build(t, cplx, spac.Partition{K: 1, Part: []int32{0, 0}}, Options{BlockSize: 32})
	if s.Vals != nil {
		t.Error("a complex matrix got real values")
	}
	if err := s.SpMV(make([]float64, 2), make([]float64, 2)); err == nil {
		t.Error("SpMV ran without values")
	}
	// An empty part is an idle block.
	s = build(t, tiny(), spac.Partition{K: 3, Part: []int32{0, 0, 0, 0, 2, 2, 2, 2}}, Options{BlockSize: 4})
	if s.Tasks(1) != 0 || s.UniqueX(1) != 0 || !slices.Equal(s.NewSchedule[4:8], []int32{-1, -1, -1, -1}) {
		t.Errorf("empty part: block 1 has %d tasks", s.Tasks(1))
	}
}

func TestParseOverflow(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Overflow
		ok   bool
	}{{"auto", Auto, true}, {"split", Split, true}, {"readonly", ReadOnly, true}, {"read-only", ReadOnly, true}, {"none", 0, false}, {"x", 0, false}} {
		got, err := ParseOverflow(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseOverflow(%q) = %v, %v", c.in, got, err)
		}
	}
}
