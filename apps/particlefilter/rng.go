package particlefilter

import "math"

// Rodinia's random numbers: every particle owns a 32-bit linear
// congruential generator with GCC's constants, advanced in place; the
// kernels (kernels/particlefilter.cu, pf_randu and pf_randn) compute the
// same sequence. The arithmetic is C's int arithmetic: the product wraps
// to 32 bits and % truncates toward zero, so a state may be negative (the
// draw takes its absolute value).
const (
	lcgA = 1103515245
	lcgC = 12345
	lcgM = math.MaxInt32
)

// randu advances seed[i] and returns a uniform draw in [0, 1).
//
// A state of 0 would give a draw of 0 and an infinite Box-Muller radius
// (Rodinia's code has that flaw, once in 2^31 draws); the smallest
// positive draw 1/M is returned instead, here and in the kernels.
func randu(seed []int32, i int) float64 {
	num := int32(lcgA)*seed[i] + lcgC
	seed[i] = num % lcgM
	if seed[i] == 0 {
		return 1 / float64(lcgM)
	}
	return math.Abs(float64(seed[i]) / float64(lcgM))
}

// randn returns a standard normal draw by Box-Muller from two uniform
// draws of seed[i].
func randn(seed []int32, i int) float64 {
	u := randu(seed, i)
	v := randu(seed, i)
	// float64() keeps each product rounded on its own: Go may otherwise
	// fuse a multiply-add, which the kernels do not (they use __dmul_rn).
	cosine := math.Cos(float64(2*math.Pi) * v)
	rt := float64(-2 * math.Log(u))
	return math.Sqrt(rt) * cosine
}
