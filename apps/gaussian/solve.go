package gaussian

import (
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/internal/precision"
)

// Precision is the floating-point type of a run (package precision).
type Precision = precision.Precision

const (
	FP32 = precision.FP32
	FP64 = precision.FP64
)

// Float is the value type of a run.
type Float interface{ float32 | float64 }

// fma32 is x*y+z rounded once to float32, as the GPU's fmaf computes it.
// The product of two float32 is exact in float64, and their sum with z is
// rounded to odd in float64 (the exact sum's error, from TwoSum, says which
// neighbour is odd); rounding that to float32 is then correct: rounding to
// odd with two extra bits of precision never double-rounds (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", IEEE TC 2008).
func fma32(x, y, z float32) float32 {
	p, c := float64(x)*float64(y), float64(z)
	s := p + c
	bv := s - p
	e := (p - (s - bv)) + (c - bv) // the exact sum is s + e; NaN when s is not finite
	if bits := math.Float64bits(s); e != 0 && e == e && bits&1 == 0 {
		// Step to the odd neighbour on e's side: away from zero when e has
		// s's sign (s is not zero: a zero sum is exact).
		if (e > 0) == (s > 0) {
			bits++
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}

// fmaOf is the fused multiply-add of T.
func fmaOf[T Float]() func(x, y, z T) T {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return func(x, y, z T) T { return T(fma32(float32(x), float32(y), float32(z))) }
	}
	return func(x, y, z T) T { return T(math.FMA(float64(x), float64(y), float64(z))) }
}

// updateRow does row[j] = fma(-mr, prow[j], row[j]) for every j, with the
// fused multiply-add of T called directly (the inner loop of the CPU
// reference: a function value there costs a third of its time).
func updateRow[T Float](row, prow []T, mr T) {
	switch r := any(row).(type) {
	case []float32:
		p, m := any(prow).([]float32), -float32(mr)
		for j := range r {
			r[j] = fma32(m, p[j], r[j])
		}
	case []float64:
		p, m := any(prow).([]float64), -float64(mr)
		for j := range r {
			r[j] = math.FMA(m, p[j], r[j])
		}
	}
}

// Forward is Rodinia's forward elimination without pivoting, in place, as
// the GPU computes it: for every pivot step t, Fan1's multipliers
// m[r][t] = a[r][t] / a[t][t] for the rows r > t, then Fan2's update of
// those rows from column t on, a[r][c] -= m[r][t] a[t][c] as one fused
// multiply-add (column t itself included, left near zero), and
// b[r] -= m[r][t] b[t]. Every value is updated once per step by one
// correctly rounded operation, so the result does not depend on the order
// the updates run in: the GPU's kernels, whatever their schedule, give
// these values bit for bit. Rows are spread over the CPU's cores.
func Forward[T Float](n int, a, b, m []T) {
	fma := fmaOf[T]()
	for t := 0; t < n-1; t++ {
		piv, prow, bt := a[t*n+t], a[t*n:(t+1)*n], b[t]
		rows := n - 1 - t
		chunks := min(par.Workers(rows), max(1, rows*(n-t)/(1<<15)))
		par.Do(chunks, func(c int) {
			for r := t + 1 + rows*c/chunks; r < t+1+rows*(c+1)/chunks; r++ {
				mr := a[r*n+t] / piv
				m[r*n+t] = mr
				updateRow(a[r*n+t:(r+1)*n], prow[t:], mr)
				b[r] = fma(-mr, bt, b[r])
			}
		})
	}
}

// BackSub solves the upper triangle left by Forward, as Rodinia's host
// does: x[k] = (b[k] - sum over j from n-1 down to k+1 of a[k][j] x[j]) /
// a[k][k], each operation rounded (no fused multiply-add).
func BackSub[T Float](n int, a, b []T) []T {
	x := make([]T, n)
	for k := n - 1; k >= 0; k-- {
		v := b[k]
		for j := n - 1; j > k; j-- {
			v -= T(a[k*n+j] * x[j]) // the conversion forbids fusing
		}
		x[k] = v / a[k*n+k]
	}
	return x
}

// Solution is an elimination's outcome in float64: the eliminated matrix
// (the upper triangle and the residues below it), b after elimination, and
// x from back substitution.
type Solution struct {
	A, B, X []float64
}

func convert[T, U Float](v []U) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

// Solve eliminates and back-substitutes s on the CPU in precision p: the
// reference of the GPU runs.
func Solve(s *System, p Precision) (*Solution, error) {
	switch p {
	case FP32:
		return solve[float32](s), nil
	case FP64:
		return solve[float64](s), nil
	}
	return nil, fmt.Errorf("unknown precision %v", p)
}

func solve[T Float](s *System) *Solution {
	n := s.N
	a, b, m := convert[T](s.A), convert[T](s.B), make([]T, n*n)
	Forward(n, a, b, m)
	return finish(n, a, b)
}

// finish back-substitutes an eliminated system and keeps it in float64.
func finish[T Float](n int, a, b []T) *Solution {
	x := BackSub(n, a, b)
	return &Solution{A: convert[float64](a), B: convert[float64](b), X: convert[float64](x)}
}

// Diff compares a solution with a reference.
type Diff struct {
	// Mismatches counts the values of A, b and x that are not bit for bit
	// the reference's (NaN matching NaN).
	Mismatches int
	// MaxRelX is max |x - x_ref| / max |x_ref|.
	MaxRelX float64
}

// Compare measures got against ref.
func Compare(got, ref *Solution) (Diff, error) {
	if len(got.A) != len(ref.A) || len(got.B) != len(ref.B) || len(got.X) != len(ref.X) {
		return Diff{}, fmt.Errorf("comparing a solution of %d unknowns with one of %d", len(got.X), len(ref.X))
	}
	var d Diff
	for _, pair := range [][2][]float64{{got.A, ref.A}, {got.B, ref.B}, {got.X, ref.X}} {
		for i, v := range pair[0] {
			w := pair[1][i]
			if v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
				d.Mismatches++
			}
		}
	}
	d.MaxRelX = RelDiff(got.X, ref.X)
	return d, nil
}

// RelDiff is max |x - ref| / max |ref| (infinite where either has a NaN or
// an infinity, 0 for identical vectors).
func RelDiff(x, ref []float64) float64 {
	var num, den float64
	for i, r := range ref {
		d := math.Abs(x[i] - r)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return math.Inf(1)
		}
		num, den = max(num, d), max(den, math.Abs(r))
	}
	if num == 0 {
		return 0
	}
	return num / den
}

// Tolerance is the largest RelDiff accepted between solutions of the same
// system eliminated in different orders (the RCM baseline's renumbered
// system against the original): 16 n ulps of the precision, a generous
// bound for the well-conditioned generated systems (their condition number
// is about 2/lambda = 200), where the measured differences are ulps.
func Tolerance(p Precision, n int) float64 {
	eps := 0x1p-52
	if p == FP32 {
		eps = 0x1p-23
	}
	return 16 * float64(n) * eps
}
