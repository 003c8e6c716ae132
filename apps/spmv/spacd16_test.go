package spmv

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/matrices"
)

// TestSPACD16 decodes spac-d16's format of every schedule of every case at
// every block size it runs, as the kernel reads it: each block's rows
// summed, then stored into y's row the map names, plainly or, where the
// map's bit 31 or the block's own flags say that other blocks add to the
// row, added to a row the clearing zeroed. The product must match the
// reference (a row stored plainly by two blocks loses one's part; one
// never cleared stays NaN), every task must be read once, and the format's
// blocks must follow the schedule's: block by block, rows in its order.
// spac-d16-own's format (NewSPACD16Owned) is checked the same way, and
// must store every row of y exactly once and plainly.
func TestSPACD16(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 9)
		ref, abs, err := m.Reference(x, FP64)
		if err != nil {
			t.Fatal(err)
		}
		for _, B := range []int{256, 512, 1024, 2048, 4096, 16384} {
			for _, a := range scheduleArrays(t, tc.coo, B) {
			builds:
				for _, owned := range []bool{false, true} {
					build := NewSPACD16
					if owned {
						build = NewSPACD16Owned
					}
					d, rowMap, err := build(a)
					if err != nil {
						t.Fatalf("%s B=%d %s owned %v: %v", tc.name, B, a.Label, owned, err)
					}
					if !owned && len(rowMap) != len(a.YUnique) {
						t.Fatalf("%s B=%d %s: %d rows in the map, the schedule has %d", tc.name, B, a.Label, len(rowMap), len(a.YUnique))
					}
					if owned {
						seen := make([]bool, m.NRows)
						for _, r := range rowMap {
							if r < 0 || seen[r] {
								t.Errorf("%s B=%d %s: row %d of y shared or stored twice", tc.name, B, a.Label, r&math.MaxInt32)
								continue builds
							}
							seen[r] = true
						}
						if len(rowMap) != m.NRows {
							t.Errorf("%s B=%d %s: %d rows stored, y has %d", tc.name, B, a.Label, len(rowMap), m.NRows)
						}
					}
					if !slices.IsSorted(d.ZeroRows) {
						t.Fatalf("%s B=%d %s: ZeroRows not ascending", tc.name, B, a.Label)
					}
					y := make([]float64, m.NRows)
					for i := range y {
						y[i] = math.NaN()
					}
					for _, r := range d.ZeroRows {
						y[r] = 0
					}
					tasks, prev := 0, -1
					for b := range d.Blocks {
						meta := d.Meta[8*b : 8*b+8]
						slots := decodeD16(d, b)
						last := slots[len(slots)-1].row - int(meta[0])
						sums := map[int]float64{}
						for _, sl := range slots {
							if sl.row < prev {
								t.Fatalf("%s B=%d %s block %d: row %d after %d", tc.name, B, a.Label, b, sl.row, prev)
							}
							prev = sl.row
							if sl.col < 0 { // an empty row's slot: the kernel stores 0
								sums[sl.row] += 0
								continue
							}
							tasks++
							sums[sl.row] += sl.val * x[sl.col]
						}
						for row, v := range sums {
							local := row - int(meta[0])
							to := int(rowMap[row] & math.MaxInt32)
							if rowMap[row] < 0 || (local == 0 && meta[4]&1 != 0) || (local == last && meta[4]&2 != 0) {
								y[to] += v
							} else {
								y[to] = v
							}
						}
					}
					if tasks != m.NNZ() {
						t.Fatalf("%s B=%d %s: %d tasks decoded, want %d", tc.name, B, a.Label, tasks, m.NNZ())
					}
					if e := MaxRelError(y, ref, abs); !(e <= Tolerance(FP64)) {
						t.Errorf("%s B=%d %s owned %v: the decoded product is off by %.3g", tc.name, B, a.Label, owned, e)
					}
				}
			}
		}
	}
}

// TestSPACOrder: the orders SPACOrder takes from a schedule are
// permutations of the rows and of the columns; the matrix renumbered by
// them, multiplied by x gathered through the column order and scattered
// back through the row order, is the reference product; and the rows of a
// block come as one run (the locality spac-d16-ord is for). A schedule
// whose arrays disagree is refused.
func TestSPACOrder(t *testing.T) {
	for _, tc := range testCases() {
		m, err := NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		x := randomXFor(m.NCols, 13)
		ref, abs, err := m.Reference(x, FP64)
		if err != nil {
			t.Fatal(err)
		}
		for _, B := range []int{256, 1024, 4096} {
			for _, a := range scheduleArrays(t, tc.coo, B) {
				rowFrom, colFrom, err := SPACOrder(a)
				if err != nil {
					t.Fatalf("%s B=%d %s: %v", tc.name, B, a.Label, err)
				}
				if !isPermutation(rowFrom, m.NRows) || !isPermutation(colFrom, m.NCols) {
					t.Fatalf("%s B=%d %s: the orders are not permutations of %d rows and %d columns", tc.name, B, a.Label, m.NRows, m.NCols)
				}
				// Each row and column in the block holding most of its tasks
				// (the lowest number of equals), the blocks numbered by
				// partsNear, the original order inside.
				near, _ := partsNear(a)
				var row, col, part []int32
				eachTask(a, func(b, r, c int32) {
					row, col, part = append(row, r), append(col, c), append(part, near[b])
				})
				if want := homeOrder(m.NRows, row, part, a.Blocks); !slices.Equal(rowFrom, want) {
					t.Fatalf("%s B=%d %s: the row order differs from the blocks'", tc.name, B, a.Label)
				}
				if want := homeOrder(m.NCols, col, part, a.Blocks); !slices.Equal(colFrom, want) {
					t.Fatalf("%s B=%d %s: the column order differs from the blocks'", tc.name, B, a.Label)
				}
				y, unsorted := renumberedProduct(renumbered(m, rowFrom, colFrom), rowFrom, colFrom, x)
				if unsorted >= 0 {
					t.Fatalf("%s B=%d %s: renumbered row %d not sorted", tc.name, B, a.Label, unsorted)
				}
				if e := MaxRelError(y, ref, abs); !(e <= Tolerance(FP64)) {
					t.Errorf("%s B=%d %s: the renumbered product is off by %.3g", tc.name, B, a.Label, e)
				}
				// What spac-d16-ord and spac-d16-hot gather: the columns with
				// entries, in that order or grouped by degree.
				deg := columnDegrees(m)
				for _, hot := range []bool{false, true} {
					used := usedColumns(m, colFrom, hot)
					want := byDegreeGroup(deg, colFrom)
					if !hot {
						want = nil
						for _, c := range colFrom {
							if deg[c] > 0 {
								want = append(want, c)
							}
						}
					}
					if !slices.Equal(used, want) {
						t.Fatalf("%s B=%d %s hot %v: gathered columns %v, want %v", tc.name, B, a.Label, hot, used, want)
					}
					y, _ = renumberedProduct(renumbered(m, rowFrom, used), rowFrom, used, x)
					if e := MaxRelError(y, ref, abs); !(e <= Tolerance(FP64)) {
						t.Errorf("%s B=%d %s hot %v: the product over the used columns is off by %.3g", tc.name, B, a.Label, hot, e)
					}
				}
				// A row's block: the one holding most of its tasks. Along
				// the order each block's rows come as one run (the blocks
				// themselves in an order of their own); rows that two
				// blocks hold equally are left out.
				home := rowHomes(a)
				done := map[int32]bool{}
				last := int32(-1)
				for i, r := range rowFrom {
					h, ok := home[r]
					if !ok {
						continue
					}
					if h != last {
						if done[h] {
							t.Fatalf("%s B=%d %s: row %d (new %d) returns to block %d", tc.name, B, a.Label, r, i, h)
						}
						done[last], last = true, h
					}
				}
			}
		}
	}
	a := scheduleArrays(t, testCases()[0].coo, 256)[0]
	broken := *a
	broken.Col = broken.Col[:len(broken.Col)-1]
	if _, _, err := SPACOrder(&broken); err == nil {
		t.Error("a schedule with a column too few: no error")
	}
}

func isPermutation(p []int32, n int) bool {
	if len(p) != n {
		return false
	}
	seen := make([]bool, n)
	for _, v := range p {
		if v < 0 || int(v) >= n || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// rowHomes returns each row's block in schedule a where one block holds
// more of its tasks than any other (rows without tasks, or with a tie, are
// not in the map).
func rowHomes(a *ScheduleArrays) map[int32]int32 {
	count := map[[2]int32]int{}
	eachTask(a, func(b, r, _ int32) { count[[2]int32{r, b}]++ })
	home, most, tied := map[int32]int32{}, map[int32]int{}, map[int32]bool{}
	for key, c := range count {
		r, b := key[0], key[1]
		switch {
		case c > most[r]:
			home[r], most[r], tied[r] = b, c, false
		case c == most[r]:
			tied[r] = true
		}
	}
	for r := range tied {
		if tied[r] {
			delete(home, r)
		}
	}
	return home
}

// TestPartsNear: blocks that share columns along a path, numbered at
// random, come back numbered along the path (reverse Cuthill-McKee on a
// path is the path), and the numbers are a permutation.
func TestPartsNear(t *testing.T) {
	const k = 200
	shuffled := rand.New(rand.NewPCG(3, 3)).Perm(k)
	// Block shuffled[c] holds a task of columns c-1 and c, in rows of its own.
	blocks := make([][][2]int32, k)
	for c := range k {
		b := shuffled[c]
		blocks[b] = append(blocks[b], [2]int32{int32(2 * b), int32(c)})
		if c > 0 {
			blocks[b] = append(blocks[b], [2]int32{int32(2*b + 1), int32(c - 1)})
		}
	}
	near, tasks := partsNear(taskSchedule(2*k, k, blocks))
	if tasks != 2*k-1 || !isPermutation(near, k) {
		t.Fatalf("%d tasks, numbers %v", tasks, near)
	}
	for c := 0; c+1 < k; c++ {
		if d := near[shuffled[c]] - near[shuffled[c+1]]; d != 1 && d != -1 {
			t.Fatalf("blocks %d and %d, neighbours on the path, numbered %d and %d", shuffled[c], shuffled[c+1], near[shuffled[c]], near[shuffled[c+1]])
		}
	}
}

// taskSchedule is a schedule of the given blocks' tasks (row, column), as
// far as SPACOrder reads one: each block's rows are its unique y.
func taskSchedule(nRows, nCols int, blocks [][][2]int32) *ScheduleArrays {
	size := 1
	for _, tasks := range blocks {
		size = max(size, len(tasks))
	}
	a := &ScheduleArrays{Label: "tasks", NRows: nRows, NCols: nCols, BlockSize: size, Blocks: len(blocks),
		YOffsets: []int32{0}, YLocal: make([]uint16, size*len(blocks)), Col: make([]int32, size*len(blocks))}
	for b, tasks := range blocks {
		local := map[int32]uint16{}
		for i, task := range tasks {
			l, ok := local[task[0]]
			if !ok {
				l = uint16(len(local))
				local[task[0]] = l
				a.YUnique = append(a.YUnique, task[0])
			}
			a.YLocal[b*size+i], a.Col[b*size+i] = l, task[1]
			a.NNZ++
		}
		for i := len(tasks); i < size; i++ {
			a.YLocal[b*size+i] = PaddingSlot
		}
		a.YOffsets = append(a.YOffsets, int32(len(a.YUnique)))
	}
	return a
}

// BenchmarkSPACOrder takes the order and builds spac-d16-ord's matrix and
// format from a schedule of a 100^3 7-point stencil (6.9M tasks) in 1024-task
// chunks of its rows, what spac-d16-ord's setup does before the upload.
func BenchmarkSPACOrder(b *testing.B) {
	coo, err := matrices.Stencil3D(100, 100, 100, 7)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewMatrix(coo)
	if err != nil {
		b.Fatal(err)
	}
	a := scheduleArrays(b, coo, 1024)[0] // "chunks"
	b.SetBytes(int64(m.NNZ()))
	b.ResetTimer()
	for range b.N {
		rowFrom, colFrom, err := SPACOrder(a)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := NewD16(renumbered(m, rowFrom, colFrom), 1024); err != nil {
			b.Fatal(err)
		}
	}
}

// TestKeepFormats: arrays that keep their formats build each kernel's once
// and hand the same one to the next op; others build it every time; a
// failed build is not kept.
func TestKeepFormats(t *testing.T) {
	a := scheduleArrays(t, testCases()[0].coo, 256)[0]
	builds := 0
	build := func() (*d16Format, error) {
		builds++
		d, rowMap, err := NewSPACD16Owned(a)
		return &d16Format{d: d, rowMap: rowMap}, err
	}
	for range 2 {
		if _, err := a.d16Format(SPACD16Own, build); err != nil {
			t.Fatal(err)
		}
	}
	if builds != 2 {
		t.Errorf("without KeepFormats: %d builds for two ops, want 2", builds)
	}
	a.KeepFormats()
	builds = 0
	first, err := a.d16Format(SPACD16Own, build)
	if err != nil {
		t.Fatal(err)
	}
	again, err := a.d16Format(SPACD16Own, build)
	if err != nil {
		t.Fatal(err)
	}
	if builds != 1 || again != first {
		t.Errorf("with KeepFormats: %d builds for two ops (want 1), the same format: %v", builds, again == first)
	}
	fail := func() (*d16Format, error) { builds++; return nil, ErrUnsupported }
	builds = 0
	for range 2 {
		if _, err := a.d16Format(SPACD16, fail); err == nil {
			t.Error("a failed build: no error")
		}
	}
	if builds != 2 {
		t.Errorf("a failed build was kept: %d builds for two ops, want 2", builds)
	}
}

// TestD16EarlyRows: the early row-list kernel is fp32's, and only where x
// and y exceed the L2 (the 20M-row circuit, not circuit5M or in-2004) and
// the format is narrow (not the 3-D mesh numbered at random).
func TestD16EarlyRows(t *testing.T) {
	h100 := gpu.DeviceInfo{L2Bytes: 50 << 20}
	for _, tc := range []struct {
		name       string
		info       gpu.DeviceInfo
		rows, cols int
		p          Precision
		wide       bool
		early      bool
	}{
		{"20M-row circuit fp32", h100, 20_000_000, 20_000_000, FP32, false, true},
		{"20M-row circuit fp64", h100, 20_000_000, 20_000_000, FP64, false, false},
		{"circuit5M fp32", h100, 5_558_326, 5_558_326, FP32, false, false},
		{"in-2004 fp32", h100, 1_382_908, 1_382_908, FP32, false, false},
		{"just over the L2", h100, 1 << 23, 9<<19 + 1, FP32, false, true},
		{"just within it", h100, 1 << 23, 9 << 19, FP32, false, false},
		{"200^3 mesh at random, wide", h100, 8_000_000, 8_000_000, FP32, true, false},
		{"L2 unknown", gpu.DeviceInfo{}, 20_000_000, 20_000_000, FP32, false, false},
	} {
		if got := d16EarlyRows(tc.info, tc.rows, tc.cols, tc.p, tc.wide); got != tc.early {
			t.Errorf("%s: d16EarlyRows = %v, want %v", tc.name, got, tc.early)
		}
	}
}

// homeOrder is the oracle of SPACOrder's order of one side: the n vertices
// sorted by the part holding most of their entries (vertex[e] and part[e]
// are entry e's; the lowest of equals; k for none), then by index.
func homeOrder(n int, vertex, part []int32, k int) []int32 {
	count := make([]map[int32]int, n)
	for e, v := range vertex {
		if count[v] == nil {
			count[v] = map[int32]int{}
		}
		count[v][part[e]]++
	}
	home := make([]int32, n)
	for v := range home {
		home[v] = int32(k)
		best := 0
		for p, c := range count[v] {
			if c > best || (c == best && p < home[v]) {
				best, home[v] = c, p
			}
		}
	}
	out := make([]int32, n)
	for v := range out {
		out[v] = int32(v)
	}
	slices.SortStableFunc(out, func(a, b int32) int { return int(home[a] - home[b]) })
	return out
}
