package particlefilter

import (
	"fmt"
	"math"
)

// Tolerances of a run against the CPU reference.
//
// Positions: every variant computes the same motion model from the same
// generators; they differ where the math library does (exp, log and cos
// on the GPU and in Go disagree by an ulp at times), a few ulps of a
// position of a few hundred pixels (1e-13) per frame. PositionTolerance
// leaves four orders of magnitude above that over a hundred frames.
//
// Weights: the original sums the likelihood ratios in sample order and
// the weights by blocks of threads (the CPU in particle order), SPAC sums
// the ratios exactly (as integers) and divides once; the likelihoods, of
// magnitude up to 840, differ by some ulps (1e-11), and the weights
// exp(likelihood) by as much relatively. WeightTolerance is relative to
// the largest weight.
//
// Resampling: a particle draws the first particle whose cumulative weight
// reaches its point. Those comparisons agree wherever the point is farther
// from a cumulative weight than the rounding differences above (1e-16 of
// the total); when it is not, the particle draws its neighbour and its
// position moves by about a pixel. Moved counts such particles; it is
// expected to be zero, and a non-zero count fails the check.
const (
	PositionTolerance = 1e-9 // pixels
	WeightTolerance   = 1e-9 // relative to the largest weight
)

// Diff is how far a run's final state is from the reference's.
type Diff struct {
	MaxPosition float64 // largest |got - ref| of the positions and drawn positions, pixels
	MaxWeight   float64 // largest |w - w_ref| over the largest |w_ref|
	Moved       int     // particles whose drawn position is more than PositionTolerance away
	Identical   bool    // every value bit for bit the same
}

// OK reports whether the run agrees within the tolerances.
func (d Diff) OK() bool {
	return d.Moved == 0 && d.MaxPosition <= PositionTolerance && d.MaxWeight <= WeightTolerance
}

// Compare measures got against ref. A NaN or infinity where the other has
// none counts as an infinite difference (NaN against NaN is equal: both
// took the same path through Rodinia's arithmetic).
func Compare(got, ref *Result) (Diff, error) {
	n := len(ref.X)
	for _, s := range [][]float64{got.X, got.Y, got.W, got.XJ, got.YJ, ref.Y, ref.W, ref.XJ, ref.YJ} {
		if len(s) != n {
			return Diff{}, fmt.Errorf("comparing states of %d and %d particles", len(s), n)
		}
	}
	d := Diff{Identical: true}
	diff := func(a, b float64) float64 {
		switch {
		case a == b || (math.IsNaN(a) && math.IsNaN(b)):
			return 0
		case math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0):
			return math.Inf(1)
		}
		return math.Abs(a - b)
	}
	var maxW, maxDW float64
	for i := 0; i < n; i++ {
		for _, p := range [][2]float64{{got.X[i], ref.X[i]}, {got.Y[i], ref.Y[i]}} {
			d.MaxPosition = max(d.MaxPosition, diff(p[0], p[1]))
		}
		drawn := max(diff(got.XJ[i], ref.XJ[i]), diff(got.YJ[i], ref.YJ[i]))
		d.MaxPosition = max(d.MaxPosition, drawn)
		if drawn > PositionTolerance {
			d.Moved++
		}
		maxW = max(maxW, math.Abs(ref.W[i]))
		maxDW = max(maxDW, diff(got.W[i], ref.W[i]))
		if math.Float64bits(got.X[i]) != math.Float64bits(ref.X[i]) || math.Float64bits(got.Y[i]) != math.Float64bits(ref.Y[i]) ||
			math.Float64bits(got.W[i]) != math.Float64bits(ref.W[i]) || math.Float64bits(got.XJ[i]) != math.Float64bits(ref.XJ[i]) ||
			math.Float64bits(got.YJ[i]) != math.Float64bits(ref.YJ[i]) {
			d.Identical = false
		}
	}
	d.MaxWeight = maxDW
	if maxDW > 0 && maxW > 0 && !math.IsInf(maxDW, 0) {
		d.MaxWeight = maxDW / maxW
	}
	return d, nil
}
