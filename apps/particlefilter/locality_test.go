package particlefilter

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

// A frame's matrix has a task per sample, in particle-major order, whose
// column is the pixel the likelihood reads; columns are distinct pixels.
func TestFrameMatrix(t *testing.T) {
	spec := Spec{X: 64, Y: 64, Frames: 4, Particles: 40, Seed: 3}
	v, _, _, tr := reference(t, spec)
	yf, frames, size := int32(v.Y*v.Frames), int32(v.Frames), int32(len(v.I))
	for k := 1; k < v.Frames; k++ {
		fm, err := NewFrameMatrix(v, tr, k)
		if err != nil {
			t.Fatal(err)
		}
		coo := fm.COO
		if coo.NRows != tr.N || coo.NNZ() != tr.N*CountOnes || coo.NCols != len(fm.ColPixel) {
			t.Fatalf("frame %d: %d x %d with %d entries", k, coo.NRows, coo.NCols, coo.NNZ())
		}
		for e := range coo.NNZ() {
			i, j := e/CountOnes, e%CountOnes
			want := sampleIndex(tr.CellX[k-1][i], tr.CellY[k-1][i], Offsets[2*j+1], Offsets[2*j], yf, frames, int32(k), size)
			if coo.Row[e] != int32(i) || fm.ColPixel[coo.Col[e]] != want {
				t.Fatalf("frame %d entry %d: (%d, pixel %d), want (%d, pixel %d)", k, e, coo.Row[e], fm.ColPixel[coo.Col[e]], i, want)
			}
		}
		sorted := slices.Clone(fm.ColPixel)
		slices.Sort(sorted)
		if len(slices.Compact(sorted)) != len(fm.ColPixel) {
			t.Fatalf("frame %d: a pixel has two columns", k)
		}
	}
	if _, err := NewFrameMatrix(v, tr, 0); err == nil {
		t.Error("frame 0 (not tracked) has a matrix")
	}
}

// Every variant on the CPU agrees with the reference: RCM bit for bit
// (the order changes no value), SPAC within the tolerances, with no
// particle resampled differently, for partitions by SPAC and by a
// baseline at several block sizes; RCM's orders are permutations that
// keep particles of one cell together more than the original order does.
func TestSimulateVariants(t *testing.T) {
	spec := Spec{X: 96, Y: 96, Frames: 5, Particles: 300, Seed: 5}
	v, seed, ref, tr := reference(t, spec)
	ctx := context.Background()
	for _, b := range []int{32, 128, 1024} {
		rcm, err := PlanRCM(ctx, v, tr, b)
		if err != nil {
			t.Fatal(err)
		}
		for f, perm := range rcm.Perm {
			sorted := slices.Clone(perm)
			slices.Sort(sorted)
			for i, p := range sorted {
				if p != int32(i) {
					t.Fatalf("B=%d frame %d: the order is not a permutation", b, f+1)
				}
			}
			if runs(perm, tr, f) > runs(nil, tr, f) {
				t.Errorf("B=%d frame %d: RCM splits the cells into %d runs, the original order into %d", b, f+1, runs(perm, tr, f), runs(nil, tr, f))
			}
		}
		plans := []*Plan{rcm}
		for _, name := range []string{"spac", "default"} {
			m, err := spac.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			p, err := PlanSPAC(ctx, v, tr, m, b, spac.Options{Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.MaxShared <= 0 || p.MaxShared > 8*b || p.Copies <= 0 {
				t.Errorf("B=%d %s: %d bytes of shared memory, %d copies", b, name, p.MaxShared, p.Copies)
			}
			plans = append(plans, p)
		}
		for _, p := range plans {
			t.Run(fmt.Sprintf("%s-%s-B%d", p.Variant, p.Method, b), func(t *testing.T) {
				got, err := Simulate(ctx, v, seed, p)
				if err != nil {
					t.Fatal(err)
				}
				d, err := Compare(got, ref)
				if err != nil {
					t.Fatal(err)
				}
				if !d.OK() || (p.Variant == RCM && !d.Identical) {
					t.Fatalf("%+v", d)
				}
				t.Logf("%+v", d)
			})
		}
	}
}

// runs counts the maximal runs of equal cells along an order of frame f's
// particles (nil: the original order).
func runs(perm []int32, tr *Trajectory, f int) int {
	n, last := 0, [2]int32{-1 << 31, 0}
	for t := 0; t < tr.N; t++ {
		i := t
		if perm != nil {
			i = int(perm[t])
		}
		c := [2]int32{tr.CellX[f][i], tr.CellY[f][i]}
		if c != last {
			n++
			last = c
		}
	}
	return n
}

// A schedule built for other cells is refused, not silently used.
func TestSimulateRefusesStaleSchedule(t *testing.T) {
	spec := Spec{X: 64, Y: 64, Frames: 3, Particles: 50, Seed: 8}
	v, seed, _, tr := reference(t, spec)
	m, _ := spac.Lookup("default")
	p, err := PlanSPAC(context.Background(), v, tr, m, 64, spac.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := &Trajectory{N: tr.N}
	for f := range tr.CellX {
		cx := slices.Clone(tr.CellX[f])
		cx[7]++
		moved.CellX, moved.CellY = append(moved.CellX, cx), append(moved.CellY, tr.CellY[f])
	}
	p.Cells = moved
	if _, err := Simulate(context.Background(), v, seed, p); err == nil {
		t.Fatal("a schedule of other cells was used")
	}
}
