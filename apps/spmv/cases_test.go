package spmv

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// testCase is a matrix the kernels must get right.
type testCase struct {
	name string
	coo  *matrices.COO
}

// randomCOO has nnz entries at random positions (duplicates possible) with
// values in [-1, 1] away from 0.
func randomCOO(name string, rows, cols, nnz int, seed uint64) *matrices.COO {
	r := rand.New(rand.NewPCG(seed, 7))
	m := &matrices.COO{Name: name, NRows: rows, NCols: cols, Field: matrices.Real}
	for range nnz {
		put(m, r.IntN(rows), r.IntN(cols), r)
	}
	return m
}

// put appends entry (i, j) with a random value.
func put(m *matrices.COO, i, j int, r *rand.Rand) {
	m.Row = append(m.Row, int32(i))
	m.Col = append(m.Col, int32(j))
	m.Val = append(m.Val, value(r))
}

func value(r *rand.Rand) float64 {
	v := 0.25 + 0.75*r.Float64()
	if r.IntN(2) == 0 {
		return -v
	}
	return v
}

// testCases are the edge cases of the issue and a few ordinary shapes.
func testCases() []testCase {
	r := rand.New(rand.NewPCG(42, 1))
	var cases []testCase

	cases = append(cases, testCase{"1x1", &matrices.COO{Name: "1x1", NRows: 1, NCols: 1, Row: []int32{0}, Col: []int32{0}, Val: []float64{2.5}}})

	// Every third row empty, also the first and the last.
	empty := &matrices.COO{Name: "empty-rows", NRows: 301, NCols: 200}
	for i := range 301 {
		if i%3 == 0 {
			continue
		}
		for range 1 + r.IntN(9) {
			put(empty, i, r.IntN(200), r)
		}
	}
	cases = append(cases, testCase{"empty-rows", empty})

	// One dense row of 5000 entries (spanning several blocks of every size)
	// among short rows.
	dense := &matrices.COO{Name: "dense-row", NRows: 64, NCols: 5000}
	for j := range 5000 {
		put(dense, 7, j, r)
	}
	for i := range 64 {
		if i != 7 {
			put(dense, i, r.IntN(5000), r)
		}
	}
	cases = append(cases, testCase{"dense-row", dense})

	// A single row, all of it.
	one := &matrices.COO{Name: "single-row", NRows: 1, NCols: 3000}
	for j := range 3000 {
		put(one, 0, j, r)
	}
	cases = append(cases, testCase{"single-row", one})

	cases = append(cases,
		testCase{"tall", randomCOO("tall", 3000, 50, 9000, 1)},
		testCase{"wide", randomCOO("wide", 40, 4000, 6000, 2)},
		testCase{"duplicates", randomCOO("duplicates", 30, 30, 2000, 3)},
	)

	// Power-law row lengths.
	pl := &matrices.COO{Name: "power-law", NRows: 2000, NCols: 2000}
	for i := range 2000 {
		n := int(2000 / float64(i+1))
		for range n {
			put(pl, i, r.IntN(2000), r)
		}
	}
	cases = append(cases, testCase{"power-law", pl})

	// A band with a far column in about one entry of twenty (csr-d16's
	// escapes; its first blocks' columns span more than 65,534, so their
	// base lies below column 0).
	far := &matrices.COO{Name: "band-far", NRows: 20000, NCols: 200000}
	for i := range 20000 {
		for d := -3; d <= 3; d++ {
			j := 10*i + d
			if r.IntN(20) == 0 {
				j = r.IntN(200000)
			}
			if j >= 0 && j < 200000 {
				put(far, i, j, r)
			}
		}
	}
	cases = append(cases, testCase{"band-far", far})

	// A band, then three times as many rows of columns anywhere (csr-d16's
	// wide form: narrow blocks, then wide ones).
	cases = append(cases, testCase{"band-then-scattered", bandThenScattered(r, 1000, 3000)})

	// A band of 9 diagonals, as a mesh.
	band := &matrices.COO{Name: "banded", NRows: 5000, NCols: 5000}
	for i := range 5000 {
		for d := -4; d <= 4; d++ {
			if j := i + d; j >= 0 && j < 5000 {
				put(band, i, j, r)
			}
		}
	}
	cases = append(cases, testCase{"banded", band}) // last: tests take it as the banded case
	for i := range cases {
		cases[i].coo.Field = matrices.Real
	}
	return cases
}

// bandThenScattered has band rows of 7 entries around column 50i, then
// scattered rows of 7 entries anywhere in 200,000 columns.
func bandThenScattered(r *rand.Rand, band, scattered int) *matrices.COO {
	m := &matrices.COO{Name: "band-then-scattered", NRows: band + scattered, NCols: 200000, Field: matrices.Real}
	for i := range band + scattered {
		for d := -3; d <= 3; d++ {
			j := 50*i + d
			if i >= band {
				j = r.IntN(200000)
			}
			if j >= 0 && j < 200000 {
				put(m, i, j, r)
			}
		}
	}
	return m
}

// partitions returns two partitions of coo's entries into parts of at most
// b: contiguous chunks of the CSR order (rows mostly owned), and random
// chunks (most rows shared between blocks, many atomics).
func partitions(coo *matrices.COO, b int) map[string]spac.Partition {
	nnz := coo.NNZ()
	k := (nnz + b - 1) / b
	csr := matrices.RowMajor(coo.Row, coo.Col, coo.NRows, coo.NCols)
	chunks := spac.Partition{K: k, Part: make([]int32, nnz)}
	for i, e := range csr {
		chunks.Part[e] = int32(i / b)
	}
	perm := rand.New(rand.NewPCG(uint64(nnz), uint64(b))).Perm(nnz)
	random := spac.Partition{K: k, Part: make([]int32, nnz)}
	for i, e := range perm {
		random.Part[e] = int32(i / b)
	}
	return map[string]spac.Partition{"chunks": chunks, "random": random}
}

// schedules builds the schedules a case is tested with at block size b: both
// partitions with the default budget, and the random one under a budget too
// small for its blocks' x and y, once split and once with x read-only.
func schedules(t testing.TB, coo *matrices.COO, b int) map[string]*schedule.Schedule {
	t.Helper()
	out := map[string]*schedule.Schedule{}
	for name, p := range partitions(coo, b) {
		s, err := schedule.Build(coo, p, schedule.Options{BlockSize: b})
		if err != nil {
			t.Fatalf("%s, B=%d, %s: %v", coo.Name, b, name, err)
		}
		out[name] = s
		if name != "random" || s.Applied == schedule.Split {
			continue // the variants below are cut from an unsplit schedule's demand
		}
		maxY, maxXY := 0, 0
		for blk := range s.NumBlocks() {
			maxY = max(maxY, s.UniqueY(blk))
			maxXY = max(maxXY, s.UniqueX(blk)+s.UniqueY(blk))
		}
		if maxXY < 4 {
			continue
		}
		split, err := schedule.Build(coo, p, schedule.Options{BlockSize: b, Budget: maxXY * 8 / 2, Overflow: schedule.Split})
		if err != nil {
			t.Fatalf("%s, B=%d, split: %v", coo.Name, b, err)
		}
		if split.Applied != schedule.Split {
			t.Fatalf("%s, B=%d: a budget of %d bytes applied %v, want split", coo.Name, b, maxXY*8/2, split.Applied)
		}
		out["random-split"] = split
		if maxY < maxXY {
			ro, err := schedule.Build(coo, p, schedule.Options{BlockSize: b, Budget: maxY * 8, Overflow: schedule.Auto})
			if err != nil {
				t.Fatalf("%s, B=%d, read-only: %v", coo.Name, b, err)
			}
			if ro.Applied != schedule.ReadOnly {
				t.Fatalf("%s, B=%d: a budget of %d bytes applied %v, want readonly", coo.Name, b, maxY*8, ro.Applied)
			}
			out["random-readonly"] = ro
		}
	}
	return out
}

// scheduleArrays is schedules(t, coo, b) in the kernels' form, in the
// order of their names (each labelled with its name).
func scheduleArrays(t testing.TB, coo *matrices.COO, b int) []*ScheduleArrays {
	t.Helper()
	scheds := schedules(t, coo, b)
	names := make([]string, 0, len(scheds))
	for name := range scheds {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]*ScheduleArrays, len(names))
	for i, name := range names {
		a, err := NewScheduleArrays(scheds[name], name)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = a
	}
	return out
}

// randomX is x with entries in [-1, 1] away from 0.
func randomXFor(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 3))
	x := make([]float64, n)
	for i := range x {
		x[i] = value(r)
	}
	return x
}
