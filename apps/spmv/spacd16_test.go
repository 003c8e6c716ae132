package spmv

import (
	"math"
	"slices"
	"testing"
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
