package gaussian

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// fma32 is the correctly rounded float32 x*y+z: checked against exact
// rational arithmetic on random operands, on cancellations and on the
// operands where double rounding through float64 goes wrong.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	exact := func(x, y, z float32) float32 {
		v := new(big.Float).SetPrec(0).SetMode(big.ToNearestEven)
		p := new(big.Float).SetPrec(200).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
		v.SetPrec(200).Add(p, big.NewFloat(float64(z)))
		f, _ := v.Float32()
		return f
	}
	check := func(x, y, z float32) {
		if got, want := fma32(x, y, z), exact(x, y, z); got != want {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
	}
	doubled := 0
	for range 200000 {
		x := float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20)))
		y := float32(rng.NormFloat64())
		z := -x * y * float32(1+rng.NormFloat64()*1e-6) // near-cancellation
		if rng.IntN(2) == 0 {
			z = float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(60)-30)))
		}
		check(x, y, z)
		if float32(math.FMA(float64(x), float64(y), float64(z))) != exact(x, y, z) {
			doubled++
		}
	}
	// A product exactly halfway between two float32 after adding a tiny z:
	// rounding through float64 first lands on the tie.
	x, y := float32(1+0x1p-12), float32(1+0x1p-12) // x*y = 1 + 2^-11 + 2^-24
	check(x, y, 0x1p-60)
	check(x, y, -0x1p-60)
	if z := float32(0x1p-60); float32(math.FMA(float64(x), float64(y), float64(z))) == exact(x, y, z) {
		t.Error("the double-rounding case does not double-round through float64: the test lost its point")
	}
	t.Logf("float64 FMA rounded to float32 differed on %d of 200000 random cases", doubled)
}

// Forward and BackSub solve generated systems: the residual of x is at
// rounding level; the multipliers are A's.
func TestSolve(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64, 200} {
		s, err := Generate(Spec{N: n})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Precision{FP32, FP64} {
			sol, err := Solve(s, p)
			if err != nil {
				t.Fatal(err)
			}
			var worst float64
			for i := 0; i < n; i++ {
				r := -s.B[i]
				for j := 0; j < n; j++ {
					r += s.A[i*n+j] * sol.X[j]
				}
				worst = max(worst, math.Abs(r))
			}
			tol := 1e-4
			if p == FP64 {
				tol = 1e-12
			}
			if worst > tol || math.IsNaN(worst) {
				t.Errorf("n=%d %s: residual %.3g over %g", n, p, worst, tol)
			}
		}
	}
}

// Forward is independent of row order within a step: the result is the
// same bit for bit when the update order changes (here, through the
// parallel split at another worker count).
func TestForwardDeterministic(t *testing.T) {
	s, _ := Generate(Spec{N: 300, Lambda: 0.002})
	a, b := convert[float32](s.A), convert[float32](s.B)
	m := make([]float32, len(a))
	Forward(s.N, a, b, m)
	a2, b2 := convert[float32](s.A), convert[float32](s.B)
	m2 := make([]float32, len(a))
	// A sequential elimination, column by column.
	fma := fmaOf[float32]()
	n := s.N
	for t := 0; t < n-1; t++ {
		for r := n - 1; r > t; r-- {
			m2[r*n+t] = a2[r*n+t] / a2[t*n+t]
		}
		for c := n - 1; c >= t; c-- {
			for r := t + 1; r < n; r++ {
				a2[r*n+c] = fma(-m2[r*n+t], a2[t*n+c], a2[r*n+c])
			}
		}
		for r := t + 1; r < n; r++ {
			b2[r] = fma(-m2[r*n+t], b2[t], b2[r])
		}
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(a2[i]) {
			t.Fatalf("a[%d]: %g and %g", i, a[i], a2[i])
		}
	}
	for i := range b {
		if b[i] != b2[i] {
			t.Fatalf("b[%d]: %g and %g", i, b[i], b2[i])
		}
	}
}

// Compare counts values that differ and RelDiff measures x.
func TestCompare(t *testing.T) {
	ref := &Solution{A: []float64{1, 2}, B: []float64{3}, X: []float64{4, -8}}
	same := &Solution{A: []float64{1, 2}, B: []float64{3}, X: []float64{4, -8}}
	if d, err := Compare(same, ref); err != nil || d.Mismatches != 0 || d.MaxRelX != 0 {
		t.Errorf("identical: %+v %v", d, err)
	}
	off := &Solution{A: []float64{1, 2.5}, B: []float64{3}, X: []float64{4, -7}}
	if d, _ := Compare(off, ref); d.Mismatches != 2 || d.MaxRelX != 1.0/8 {
		t.Errorf("two off: %+v", d)
	}
	nan := &Solution{A: []float64{1, 2}, B: []float64{3}, X: []float64{math.NaN(), -8}}
	if d, _ := Compare(nan, ref); d.Mismatches != 1 || !math.IsInf(d.MaxRelX, 1) {
		t.Errorf("NaN: %+v", d)
	}
	if _, err := Compare(&Solution{X: []float64{1}}, ref); err == nil {
		t.Error("different sizes compared")
	}
	for _, p := range []Precision{FP32, FP64} {
		if tol := Tolerance(p, 1024); tol <= 0 || tol > 0.01 {
			t.Errorf("%s tolerance %g", p, tol)
		}
	}
}

// The RCM ordering of a dense matrix is a permutation; the permuted
// system's solution, mapped back, is the original's within Tolerance.
func TestRCMPermutedSolve(t *testing.T) {
	for _, n := range []int{5, 150} {
		s, _ := Generate(Spec{N: n})
		perm, _ := RCM(s)
		ps, err := s.Permute(perm)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Precision{FP32, FP64} {
			ref, _ := Solve(s, p)
			got, _ := Solve(ps, p)
			x := make([]float64, n)
			for i, old := range perm {
				x[old] = got.X[i]
			}
			if d := RelDiff(x, ref.X); d > Tolerance(p, n) {
				t.Errorf("n=%d %s: permuted solution off by %.3g (tolerance %.3g)", n, p, d, Tolerance(p, n))
			}
		}
	}
	s, _ := Generate(Spec{N: 4})
	if _, err := s.Permute([]int32{0, 1, 1, 3}); err == nil {
		t.Error("a repeated index was accepted")
	}
	// A sparse matrix: RCM narrows a shuffled band.
	n := 60
	band := &System{N: n, A: make([]float64, n*n), B: make([]float64, n)}
	label := rand.New(rand.NewPCG(2, 2)).Perm(n)
	for i := 0; i < n; i++ {
		for j := max(0, i-2); j <= min(n-1, i+2); j++ {
			band.A[label[i]*n+label[j]] = 1
		}
	}
	perm, _ := RCM(band)
	pb, _ := band.Permute(perm)
	width := 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if pb.A[i*n+j] != 0 {
				width = max(width, abs(i-j))
			}
		}
	}
	if width > 4 {
		t.Errorf("RCM left a bandwidth of %d on a shuffled band of 2", width)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func ExampleSolve() {
	s, _ := Generate(Spec{N: 3})
	sol, _ := Solve(s, FP64)
	// A x = b holds to rounding.
	worst := 0.0
	for i := 0; i < s.N; i++ {
		r := -s.B[i]
		for j := 0; j < s.N; j++ {
			r += s.A[i*s.N+j] * sol.X[j]
		}
		worst = max(worst, math.Abs(r))
	}
	fmt.Println("residual below 1e-12:", worst < 1e-12)
	// Output: residual below 1e-12: true
}
