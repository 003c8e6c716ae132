package particlefilter

import (
	"math"
	"slices"
	"testing"
)

// Compare catches a particle drawn from another parent, a weight off by
// more than the tolerance and a NaN, and accepts rounding-sized changes.
func TestCompare(t *testing.T) {
	_, _, ref, _ := reference(t, Spec{X: 64, Y: 64, Frames: 3, Particles: 20, Seed: 2})
	clone := func() *Result {
		r := *ref
		r.X, r.Y, r.W, r.XJ, r.YJ = slices.Clone(ref.X), slices.Clone(ref.Y), slices.Clone(ref.W), slices.Clone(ref.XJ), slices.Clone(ref.YJ)
		return &r
	}
	heaviest := 0
	for i, w := range ref.W {
		if w > ref.W[heaviest] {
			heaviest = i
		}
	}
	for _, tc := range []struct {
		name      string
		change    func(r *Result)
		ok, exact bool
		moved     int
	}{
		{"same", func(r *Result) {}, true, true, 0},
		{"an ulp", func(r *Result) { r.X[3] = math.Nextafter(r.X[3], 1e9) }, true, false, 0},
		{"weight rounding", func(r *Result) { r.W[heaviest] *= 1 + 1e-13 }, true, false, 0},
		{"other parent", func(r *Result) { r.XJ[5] += 0.7 }, false, false, 1},
		{"weight", func(r *Result) { r.W[heaviest] *= 1 + 1e-6 }, false, false, 0},
		{"NaN", func(r *Result) { r.Y[0] = math.NaN() }, false, false, 0},
	} {
		got := clone()
		tc.change(got)
		d, err := Compare(got, ref)
		if err != nil {
			t.Fatal(err)
		}
		if d.OK() != tc.ok || d.Identical != tc.exact || d.Moved != tc.moved {
			t.Errorf("%s: %+v (OK %v), want OK %v, identical %v, %d moved", tc.name, d, d.OK(), tc.ok, tc.exact, tc.moved)
		}
	}
	short := clone()
	short.W = short.W[1:]
	if _, err := Compare(short, ref); err == nil {
		t.Error("states of different sizes compared")
	}
}
