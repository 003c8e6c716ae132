package spmv

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// d16Slot is one decoded slot of csr-d16's format.
type d16Slot struct {
	row   int
	col   int // -1: no entry
	val   float64
	start bool
}

// decodeD16 reads block b's slots with entries or empty rows as the
// kernel does: rows from the row starts and the block's first row, columns
// from the base and the offsets, escapes in order from the block's first;
// a wide block's columns from Esc, slot by slot.
func decodeD16(d *D16, b int) []d16Slot {
	meta := d.Meta[8*b : 8*b+8]
	var out []d16Slot
	row, next := int(meta[0])-1, int(meta[2])
	for i := range int(meta[3]) {
		s := b*d.BlockSize + i
		sl := d16Slot{start: d.RowStarts[s/d16Slots]>>(s%d16Slots)&1 != 0, val: d.Val[s]}
		if sl.start {
			row++
		}
		sl.row = row
		switch o := d.Offset[s]; {
		case meta[4]&d16Wide != 0:
			if rel := int(d.High[s])<<16 | int(o); rel == d16WideEmpty {
				sl.col = -1
			} else {
				sl.col = int(meta[1]) + rel
			}
		case o == d16Empty:
			sl.col = -1
		case o == d16Escape:
			sl.col = int(d.Esc[next])
			next++
		default:
			sl.col = int(meta[1]) + int(o)
		}
		out = append(out, sl)
	}
	return out
}

// TestD16Format decodes every case at every block size csr-d16 runs and
// checks that the slots are CSR's entries in order with one slot per empty
// row, that Meta's per-warp counts, last rows and shared flags are what the
// slots say, that padding holds no entry, and that ZeroRows lists exactly
// the rows in more than one block; then that a product from the decoded
// blocks, each row stored plainly or added as its flags say, matches the
// reference (a wrong flag loses a block's part of a row).
func TestD16Format(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 5)
		ref, abs, err := m.Reference(x, FP64)
		if err != nil {
			t.Fatal(err)
		}
		for _, B := range []int{256, 512, 1024} {
			d, err := NewD16(m, B)
			if err != nil {
				t.Fatalf("%s B=%d: %v", tc.name, B, err)
			}
			e, r := 0, 0 // the next entry, and the next row to see
			blocksOf := map[int]int{}
			y := make([]float64, m.NRows)
			for i := range y {
				y[i] = math.NaN()
			}
			for _, z := range d.ZeroRows {
				y[z] = 0
			}
			escapes, wide := 0, 0
			for b := range d.Blocks {
				meta := d.Meta[8*b : 8*b+8]
				slots := decodeD16(d, b)
				sums := map[int]float64{}
				for i, sl := range slots {
					if i > 0 && i%seg8WarpSlots == 0 {
						rows := int(meta[4+i/seg8WarpSlots]) & 0xffff
						if started := countStarts(slots[:i]); rows != started {
							t.Fatalf("%s B=%d block %d: %d rows before warp %d, want %d", tc.name, B, b, rows, i/seg8WarpSlots, started)
						}
						if esc := int(meta[4+i/seg8WarpSlots]) >> 16; esc != countEscapes(d, b, i) {
							t.Fatalf("%s B=%d block %d: %d escapes before warp %d, want %d", tc.name, B, b, esc, i/seg8WarpSlots, countEscapes(d, b, i))
						}
					}
					if sl.start && sl.row != r && !(i == 0 && sl.row == r-1) {
						t.Fatalf("%s B=%d block %d slot %d: row %d starts, want %d", tc.name, B, b, i, sl.row, r)
					}
					if sl.start && sl.row == r {
						r++
					}
					if sl.col < 0 {
						if m.RowPtr[sl.row] != m.RowPtr[sl.row+1] || !sl.start {
							t.Fatalf("%s B=%d block %d slot %d: no entry for row %d, which has entries", tc.name, B, b, i, sl.row)
						}
						sums[sl.row] += 0
						continue
					}
					if e >= m.NNZ() || int(m.Row[e]) != sl.row || int(m.Col[e]) != sl.col || m.Val[e] != sl.val {
						t.Fatalf("%s B=%d block %d slot %d: (%d, %d, %g), want entry %d", tc.name, B, b, i, sl.row, sl.col, sl.val, e)
					}
					e++
					sums[sl.row] += sl.val * x[sl.col]
				}
				empty := uint16(d16Empty)
				if meta[4]&d16Wide != 0 {
					empty = 0xffff // and High's byte 0xff: no column
				}
				for s := b*B + int(meta[3]); s < (b+1)*B; s++ {
					if d.Offset[s] != empty || (empty == 0xffff && d.High[s] != 0xff) || d.Val[s] != 0 || d.RowStarts[s/d16Slots]>>(s%d16Slots)&1 != 0 {
						t.Fatalf("%s B=%d block %d: padding slot %d holds something", tc.name, B, b, s-b*B)
					}
				}
				last := slots[len(slots)-1].row - int(meta[0])
				if int(meta[4])>>d16RowShift != last {
					t.Fatalf("%s B=%d block %d: last local row %d, want %d", tc.name, B, b, meta[4]>>d16RowShift, last)
				}
				for row, v := range sums {
					blocksOf[row]++
					local := row - int(meta[0])
					if (local == 0 && meta[4]&1 != 0) || (local == last && meta[4]&2 != 0) {
						y[row] += v
					} else {
						y[row] = v
					}
				}
				escapes = int(meta[2]) + countEscapes(d, b, B)
				if meta[4]&d16Wide != 0 {
					wide++
					escapes = int(meta[2]) // a wide block escapes nothing
				}
			}
			if e != m.NNZ() || r != m.NRows || escapes != len(d.Esc) {
				t.Fatalf("%s B=%d: %d of %d entries, %d of %d rows, %d of %d escapes decoded", tc.name, B, e, m.NNZ(), r, m.NRows, escapes, len(d.Esc))
			}
			var shared []int32
			for row := range m.NRows {
				if blocksOf[row] > 1 {
					shared = append(shared, int32(row))
				}
			}
			if !equal(shared, d.ZeroRows) {
				t.Fatalf("%s B=%d: ZeroRows %v, want %v", tc.name, B, d.ZeroRows, shared)
			}
			if err := MaxRelError(y, ref, abs); !(err <= Tolerance(FP64)) {
				t.Errorf("%s B=%d: the decoded blocks' product is off by %.3g", tc.name, B, err)
			}
			if tc.name == "band-far" && (len(d.Esc) == 0 || wide != 0) {
				t.Errorf("band-far B=%d: %d escapes, %d wide blocks; want escapes in narrow blocks", B, len(d.Esc), wide)
			}
			if tc.name == "band-then-scattered" && (wide == 0 || wide == d.Blocks || d.High == nil) {
				t.Errorf("band-then-scattered B=%d: %d of %d blocks wide, want some", B, wide, d.Blocks)
			}
		}
	}
}

func countStarts(slots []d16Slot) int {
	n := 0
	for _, sl := range slots {
		if sl.start {
			n++
		}
	}
	return n
}

// countEscapes counts block b's escaped offsets in its first n slots (a
// wide block's offsets are halves of columns: none).
func countEscapes(d *D16, b, n int) int {
	if d.Meta[8*b+4]&d16Wide != 0 {
		return 0
	}
	c := 0
	for _, o := range d.Offset[b*d.BlockSize : b*d.BlockSize+n] {
		if o == d16Escape {
			c++
		}
	}
	return c
}

// TestD16Bytes: block sizes the kernel cannot run are refused; a matrix
// whose columns are scattered runs in wide blocks at a byte less than
// CSR's a nonzero (and no row offsets), unless they span more than 24
// bits, and the same columns in a band in narrow blocks at well under
// CSR's.
func TestD16Bytes(t *testing.T) {
	m, err := NewMatrix(randomCOO("scattered", 1000, 1_000_000, 5000, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, B := range []int{32, 128, 384, 2048} {
		if _, err := NewD16(m, B); !errors.Is(err, ErrUnsupported) {
			t.Errorf("B=%d: %v, want ErrUnsupported", B, err)
		}
	}
	d, err := NewD16(m, 256)
	if err != nil {
		t.Fatal(err)
	}
	if d.wideBlocks != d.Blocks {
		t.Errorf("scattered: %d of %d blocks wide, want all", d.wideBlocks, d.Blocks)
	}
	if got, csr := float64(d.FormatBytes(FP32))/float64(m.NNZ()), CSRBytesPerNNZ(m.NRows, m.NNZ(), FP32); got > csr-1 {
		t.Errorf("scattered: %.2f bytes per nonzero, want a byte less than CSR's %.2f", got, csr)
	}
	// Columns that span 2^24 or more do not fit a wide block's 24 bits:
	// those blocks escape.
	huge, err := NewMatrix(randomCOO("huge", 1000, 40_000_000, 5000, 5))
	if err != nil {
		t.Fatal(err)
	}
	if d, err = NewD16(huge, 256); err != nil || d.wideBlocks != 0 || len(d.Esc) == 0 {
		t.Errorf("columns over 2^24 apart: %v; want no wide block and escapes", err)
	} else {
		var cols []int32
		for b := range d.Blocks {
			for _, sl := range decodeD16(d, b) {
				if sl.col >= 0 {
					cols = append(cols, int32(sl.col))
				}
			}
		}
		if !slices.Equal(cols, huge.Col) {
			t.Error("columns over 2^24 apart: the escaped columns decode wrong")
		}
	}
	// A quarter of the rows scattered: too few wide blocks for the wide
	// form, so they escape.
	few, err := NewMatrix(bandThenScattered(rand.New(rand.NewPCG(1, 2)), 3000, 1000))
	if err != nil {
		t.Fatal(err)
	}
	if d, err = NewD16(few, 256); err != nil || d.wideBlocks != 0 || d.High != nil || len(d.Esc) == 0 {
		t.Errorf("a quarter scattered: %v; want no wide block and escapes", err)
	}
	cases := testCases()
	i := slices.IndexFunc(cases, func(tc testCase) bool { return tc.name == "band-far" })
	band, err := NewMatrix(cases[i].coo)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = NewD16(band, 1024); err != nil {
		t.Fatal(err)
	}
	if got, csr := float64(d.FormatBytes(FP32))/float64(band.NNZ()), CSRBytesPerNNZ(band.NRows, band.NNZ(), FP32); got >= 0.85*csr {
		t.Errorf("band-far: %.2f bytes per nonzero, want well under CSR's %.2f", got, csr)
	}
}

// TestD16Parallel: blocks are built in parallel runs of d16Run, which the
// small test cases never fill; on matrices of many runs, whose blocks are
// aligned to rows or cut inside them, wide or escaping columns, the format
// is the same on one core as on four, and its decoded entries give the
// reference product.
func TestD16Parallel(t *testing.T) {
	circuit, err := matrices.Circuit(300_000, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	rmat, err := matrices.RMAT(17, 8, 0.57, 0.19, 0.19, 2)
	if err != nil {
		t.Fatal(err)
	}
	stencil, err := matrices.Stencil3D(50, 50, 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	random, err := matrices.ErdosRenyi(200_000, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, coo := range []*matrices.COO{circuit, rmat, stencil, random} {
		m, err := NewMatrix(coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 3)
		ref, abs, err := m.Reference(x, FP64)
		if err != nil {
			t.Fatal(err)
		}
		for _, B := range []int{256, 1024} {
			prev := runtime.GOMAXPROCS(1)
			one, err := NewD16(m, B)
			runtime.GOMAXPROCS(4)
			four, err4 := NewD16(m, B)
			runtime.GOMAXPROCS(prev)
			if err != nil || err4 != nil {
				t.Fatalf("%s B=%d: %v, %v", coo.Name, B, err, err4)
			}
			if !reflect.DeepEqual(one, four) {
				t.Fatalf("%s B=%d: the format built on four cores differs from the one built on one", coo.Name, B)
			}
			if one.Blocks < 4*d16Run {
				t.Fatalf("%s B=%d: %d blocks, want several runs of %d", coo.Name, B, one.Blocks, d16Run)
			}
			y := make([]float64, m.NRows)
			for b := range one.Blocks {
				for _, sl := range decodeD16(one, b) {
					if sl.col >= 0 {
						y[sl.row] += sl.val * x[sl.col]
					}
				}
			}
			if e := MaxRelError(y, ref, abs); e > 1e-12 {
				t.Errorf("%s B=%d (%d blocks, %d wide, %d escaped columns, aligned %v): decoded product off by %.3g",
					coo.Name, B, one.Blocks, one.wideBlocks, len(one.Esc), len(one.ZeroRows) == 0, e)
			}
			seen["aligned"] = seen["aligned"] || len(one.ZeroRows) == 0
			seen["cut inside rows"] = seen["cut inside rows"] || len(one.ZeroRows) > 0
			seen["wide"] = seen["wide"] || one.wideBlocks > 0
			seen["escaped"] = seen["escaped"] || len(one.Esc) > 0
		}
	}
	for _, kind := range []string{"aligned", "cut inside rows", "wide", "escaped"} {
		if !seen[kind] {
			t.Errorf("no matrix had %s blocks", kind)
		}
	}
}

// BenchmarkNewD16 builds csr-d16's format of a 2M-row circuit-like
// matrix (10M nonzeros, 2.8% of them escaped) at B=1024.
func BenchmarkNewD16(b *testing.B) {
	coo, err := matrices.Circuit(2_000_000, 5, 1)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewMatrix(coo)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(m.NNZ()))
	b.ResetTimer()
	for range b.N {
		if _, err := NewD16(m, 1024); err != nil {
			b.Fatal(err)
		}
	}
}

// TestD16Layout: where every row fits a block and the padding is small,
// blocks are cut at rows (no row crosses one, nothing to clear, at most a
// d16AlignWaste-th of the slots padding); a row longer than a block cuts
// every B slots. Both layouts must occur among the test cases.
func TestD16Layout(t *testing.T) {
	seen := map[bool]int{}
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		used := 0
		longest := 0
		for r := range m.NRows {
			used += rowSlots(m, r)
			longest = max(longest, rowSlots(m, r))
		}
		for _, B := range []int{256, 1024} {
			d, err := NewD16(m, B)
			if err != nil {
				t.Fatalf("%s B=%d: %v", tc.name, B, err)
			}
			_, aligned := d16Layout(m, B, used)
			seen[aligned]++
			switch {
			case aligned && len(d.ZeroRows) != 0:
				t.Errorf("%s B=%d: aligned, yet %d rows cross blocks", tc.name, B, len(d.ZeroRows))
			case aligned && (d.Blocks*B-used)*d16AlignWaste > used+d16AlignWaste*B:
				t.Errorf("%s B=%d: aligned with %d padding slots for %d used", tc.name, B, d.Blocks*B-used, used)
			case !aligned && d.Blocks != (used+B-1)/B:
				t.Errorf("%s B=%d: %d blocks for %d slots cut every %d", tc.name, B, d.Blocks, used, B)
			case longest > B && aligned:
				t.Errorf("%s B=%d: a row of %d slots, yet aligned", tc.name, B, longest)
			}
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("layouts seen: %v, want both", seen)
	}
}

// TestByDegreeGroup: the columns of an order grouped by degree, a group per
// power of two and the highest first, each group in the order's order; the
// columns of degree 0 left out.
func TestByDegreeGroup(t *testing.T) {
	deg := []int32{1, 0, 5, 2, 7, 3, 1, 0} // groups: 5,7 (4-7); 2,3 (2-3); 1,1; 0,0
	for _, tc := range []struct {
		name  string
		order []int32
		want  []int32
	}{
		{"own order", nil, []int32{2, 4, 3, 5, 0, 6}},
		{"reversed", []int32{7, 6, 5, 4, 3, 2, 1, 0}, []int32{4, 2, 5, 3, 6, 0}},
		{"interleaved", []int32{1, 3, 5, 7, 0, 2, 4, 6}, []int32{2, 4, 3, 5, 0, 6}},
	} {
		if got := byDegreeGroup(deg, tc.order); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHotColumns: from lists every column with entries once, in groups of
// degree (a power of two each) from the highest, in their order within a
// group; the renumbered matrix times x gathered through from is m times x,
// to the bit (the entries keep their order); a matrix of equal degrees
// keeps its order.
func TestHotColumns(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		hot, from := HotColumns(m)
		cached, _ := m.hotColumns()
		if again, _ := m.hotColumns(); again != cached {
			t.Fatalf("%s: the renumbered matrix was made twice", tc.name)
		}
		deg := make([]int, m.NCols)
		for _, c := range m.Col {
			deg[c]++
		}
		used := 0
		for _, d := range deg {
			if d > 0 {
				used++
			}
		}
		if len(from) != used || hot.NCols != used {
			t.Fatalf("%s: %d columns in from (%d in the matrix), want the %d in use", tc.name, len(from), hot.NCols, used)
		}
		seen := make([]bool, m.NCols)
		for j, c := range from {
			if deg[c] == 0 || seen[c] {
				t.Fatalf("%s: from[%d] = %d, a column without entries or seen before", tc.name, j, c)
			}
			seen[c] = true
			if j > 0 {
				g, prev := bits.Len(uint(deg[c])), bits.Len(uint(deg[from[j-1]]))
				if g > prev || (g == prev && c < from[j-1]) {
					t.Fatalf("%s: column %d (degree %d) after column %d (degree %d)", tc.name, c, deg[c], from[j-1], deg[from[j-1]])
				}
			}
		}
		x := randomXFor(m.NCols, 3)
		xp := make([]float64, len(from))
		for j, c := range from {
			xp[j] = x[c]
		}
		for r := range m.NRows {
			var want, got float64
			for e := m.RowPtr[r]; e < m.RowPtr[r+1]; e++ {
				want += m.Val[e] * x[m.Col[e]]
				got += hot.Val[e] * xp[hot.Col[e]]
			}
			if got != want {
				t.Fatalf("%s row %d: %v through the hot columns, %v directly", tc.name, r, got, want)
			}
		}
	}
	// A band of half-width 2: columns 1 to 98 have degree 4 or 5 (one
	// group, in their order), the two ends degree 3.
	var coo matrices.COO
	coo.NRows, coo.NCols = 100, 100
	for i := range 100 {
		for j := max(0, i-2); j <= min(99, i+2); j++ {
			coo.Row, coo.Col, coo.Val = append(coo.Row, int32(i)), append(coo.Col, int32(j)), append(coo.Val, 1)
		}
	}
	m, err := NewMatrix(&coo)
	if err != nil {
		t.Fatal(err)
	}
	_, from := HotColumns(m)
	want := make([]int32, 0, 100)
	for c := int32(1); c <= 98; c++ {
		want = append(want, c)
	}
	if want = append(want, 0, 99); !slices.Equal(from, want) {
		t.Errorf("band: columns in the order %v, want %v", from, want)
	}
}

// TestRCMOrdered: perm is a permutation; the renumbered matrix's product
// with x gathered through perm, scattered back through it, is m's; each
// row's entries are sorted by column; and a band numbered at random comes
// back a band.
func TestRCMOrdered(t *testing.T) {
	// And a matrix of many runs of rows, which are renumbered in parallel.
	circuit, err := matrices.Circuit(300_000, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range append(testCases(), testCase{name: "circuit 300k", coo: circuit}) {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		if m.NRows != m.NCols {
			continue
		}
		rcm, perm := m.rcmOrdered()
		if again, _ := m.rcmOrdered(); again != rcm {
			t.Fatalf("%s: the renumbered matrix was made twice", tc.name)
		}
		seen := make([]bool, m.NRows)
		for _, old := range perm {
			if seen[old] {
				t.Fatalf("%s: row %d twice in the order", tc.name, old)
			}
			seen[old] = true
		}
		if len(perm) != m.NRows || rcm.NNZ() != m.NNZ() {
			t.Fatalf("%s: %d rows ordered of %d, %d entries of %d", tc.name, len(perm), m.NRows, rcm.NNZ(), m.NNZ())
		}
		x := randomXFor(m.NCols, 11)
		ref, abs, err := m.Reference(x, FP64)
		if err != nil {
			t.Fatal(err)
		}
		y, unsorted := renumberedProduct(rcm, perm, perm, x)
		if unsorted >= 0 {
			t.Fatalf("%s: renumbered row %d not sorted: %v", tc.name, unsorted, rcm.Col[rcm.RowPtr[unsorted]:rcm.RowPtr[unsorted+1]])
		}
		if err := MaxRelError(y, ref, abs); !(err <= Tolerance(FP64)) {
			t.Errorf("%s: the renumbered product is off by %.3g", tc.name, err)
		}
	}
	// A band of half-width 3 on 2000 rows, numbered at random.
	const n = 2000
	r := rand.New(rand.NewPCG(7, 7))
	shuffle := r.Perm(n)
	var coo matrices.COO
	coo.NRows, coo.NCols = n, n
	for i := range n {
		for j := max(0, i-3); j <= min(n-1, i+3); j++ {
			coo.Row, coo.Col, coo.Val = append(coo.Row, int32(shuffle[i])), append(coo.Col, int32(shuffle[j])), append(coo.Val, 1)
		}
	}
	m, err := NewMatrix(&coo)
	if err != nil {
		t.Fatal(err)
	}
	rcm, _ := RCMOrdered(m)
	width := 0
	for i := range n {
		for _, c := range rcm.Col[rcm.RowPtr[i]:rcm.RowPtr[i+1]] {
			width = max(width, absInt(i-int(c)))
		}
	}
	if width > 6 {
		t.Errorf("the shuffled band renumbered has half-width %d, want at most 6", width)
	}
}

// renumberedProduct is y = A x in the user's order for r, a matrix
// renumbered so that its row i is the user's row rowFrom[i] and its column
// j the user's column colFrom[j]; unsorted is the first row of r whose
// entries are not sorted by column (-1: none).
func renumberedProduct(r *Matrix, rowFrom, colFrom []int32, x []float64) (y []float64, unsorted int) {
	y, unsorted = make([]float64, r.NRows), -1
	for i, old := range rowFrom {
		if unsorted < 0 && !slices.IsSorted(r.Col[r.RowPtr[i]:r.RowPtr[i+1]]) {
			unsorted = i
		}
		for e := r.RowPtr[i]; e < r.RowPtr[i+1]; e++ {
			y[old] += r.Val[e] * x[colFrom[r.Col[e]]]
		}
	}
	return y, unsorted
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
