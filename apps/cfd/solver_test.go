package cfd

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

func genMesh(t testing.TB, spec string) *Mesh {
	t.Helper()
	s, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// perturbed is the far-field state with every variable scaled by a random
// factor in [0.9, 1.1]: a smooth-enough, physical (positive pressure) state
// that exercises every term.
func perturbed(n int, seed uint64) []float64 {
	ff := FarFieldState()
	rng := rand.New(rand.NewPCG(seed, 1))
	vars := make([]float64, NVar*n)
	for v := 0; v < NVar; v++ {
		for i := 0; i < n; i++ {
			vars[i+v*n] = ff[v] * (0.9 + 0.2*rng.Float64())
		}
	}
	// Give the y momentum something too (the free stream has none).
	for i := 0; i < n; i++ {
		vars[i+(VarMomentum+1)*n] = 0.1 * (rng.Float64() - 0.5)
	}
	return vars
}

func schedule(t testing.TB, m *Mesh, method string, blockSize int) *Schedule {
	t.Helper()
	f, err := BuildFaces(m)
	if err != nil {
		t.Fatal(err)
	}
	meth, err := spac.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	pp, err := PartitionFaces(context.Background(), f, meth, blockSize, spac.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewSchedule(m, f, pp)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func maxRel(t *testing.T, got, ref []float64, n int) float64 {
	t.Helper()
	d, err := Compare(got, ref, n)
	if err != nil {
		t.Fatal(err)
	}
	return max(d[0].MaxRel, d[1].MaxRel, d[2].MaxRel)
}

func TestFarFieldState(t *testing.T) {
	ff := FarFieldState()
	// density 1.4, pressure 1 => speed of sound 1, speed 1.2 along x.
	want := [NVar]float64{1.4, 1.4 * 1.2, 0, 0, 1.4*0.5*1.44 + 1/0.4}
	for v := range want {
		if math.Abs(ff[v]-want[v]) > 1e-15*max(1, want[v]) {
			t.Errorf("variable %d = %.17g, want %.17g", v, ff[v], want[v])
		}
	}
}

// On a closed mesh (no boundary faces) a uniform state has zero flux in
// every element (each cell's normals sum to zero), so it stays uniform; and
// for any state the fluxes sum to zero over the mesh (each interior face
// gives one element what it takes from the other): the scheme conserves.
func TestClosedMeshConserves(t *testing.T) {
	m := genMesh(t, "mesh:n=1200,nx=40,closed=1")
	sc := schedule(t, m, "spac", 128)
	for _, tc := range []struct {
		name string
		mk   func() (*Solver[float64], error)
	}{
		{"original", func() (*Solver[float64], error) { return NewSolver[float64](m) }},
		{"spac", func() (*Solver[float64], error) { return NewScheduledSolver[float64](sc) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.mk()
			if err != nil {
				t.Fatal(err)
			}
			s.Init()
			start := s.Variables()
			s.Iterate(50)
			if d := maxRel(t, s.Variables(), start, m.N); d > 1e-13 {
				t.Errorf("uniform state moved by %.3g (relative) in 50 iterations", d)
			}

			if err := s.SetVariables(perturbed(m.N, 7)); err != nil {
				t.Fatal(err)
			}
			s.ComputeFlux()
			flux := s.Fluxes()
			for v := 0; v < NVar; v++ {
				var sum, abs float64
				for i := 0; i < m.N; i++ {
					sum += flux[i+v*m.N]
					abs += math.Abs(flux[i+v*m.N])
				}
				if (abs == 0 && v != VarMomentum+2) || math.Abs(sum) > 1e-12*abs { // 2D: no z momentum
					t.Errorf("variable %d: fluxes sum to %.3g (sum of magnitudes %.3g)", v, sum, abs)
				}
			}
		})
	}
}

// Without a wing, the free stream is a steady solution: the far-field faces
// see the state they hold.
func TestFreeStreamSteady(t *testing.T) {
	m := genMesh(t, "mesh:n=2000,wing=0")
	for _, prec := range []Precision{FP64, FP32} {
		res, err := Simulate(m, nil, prec, 20)
		if err != nil {
			t.Fatal(err)
		}
		ff := FarFieldState()
		ref := make([]float64, NVar*m.N)
		for v := 0; v < NVar; v++ {
			for i := 0; i < m.N; i++ {
				ref[i+v*m.N] = ff[v]
			}
		}
		tol := 1e-13
		if prec == FP32 {
			tol = 1e-5
		}
		if d := maxRel(t, res.Vars, ref, m.N); d > tol {
			t.Errorf("%s: free stream moved by %.3g", prec, d)
		}
	}
}

// The element-centric solver on a renumbered mesh computes bit for bit the
// same as on the original: every element does the same arithmetic.
func TestPermutedSolveIdentical(t *testing.T) {
	m := genMesh(t, "mesh:n=3000")
	sc := schedule(t, m, "spac", 256)
	if err := CheckPermutation(sc.Perm, sc.Inv, m.N); err != nil {
		t.Fatal(err)
	}
	ref, err := Simulate(m, nil, FP64, 30)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Simulate(sc.Mesh, nil, FP64, 30)
	if err != nil {
		t.Fatal(err)
	}
	n := m.N
	for v := 0; v < NVar; v++ {
		for q := 0; q < n; q++ {
			a, b := got.Vars[q+v*n], ref.Vars[int(sc.Perm[q])+v*n]
			if math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("variable %d of element %d: %.17g renumbered, %.17g original", v, sc.Perm[q], a, b)
			}
		}
	}
	// Permuting back gives the original mesh.
	if back := sc.Mesh.Permute(sc.Inv, sc.Perm); !back.Equal(m) {
		t.Error("un-permuted mesh differs")
	}
}

// Tolerance bounds the difference between the face-centric and element-
// centric solvers; see its comment. The measured differences are far below.
func TestScheduledMatchesOriginal(t *testing.T) {
	m := genMesh(t, "mesh:n=6000")
	for _, tc := range []struct {
		method    string
		blockSize int
	}{{"spac", 128}, {"spac", 1024}, {"default", 192}} {
		sc := schedule(t, m, tc.method, tc.blockSize)
		for _, prec := range []Precision{FP64, FP32} {
			ref, err := Simulate(m, nil, prec, 100)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Simulate(m, sc, prec, 100)
			if err != nil {
				t.Fatal(err)
			}
			d := maxRel(t, got.Vars, ref.Vars, m.N)
			tol := Tolerance(prec, 100)
			t.Logf("%s B=%d %s: max relative difference %.3g after 100 iterations (tolerance %.3g)", tc.method, tc.blockSize, prec, d, tol)
			if d > tol {
				t.Errorf("%s B=%d %s: difference %.3g above %.3g", tc.method, tc.blockSize, prec, d, tol)
			}
			// The flow did develop: the comparison is not of two free streams.
			if maxRel(t, ref.Vars, perturbedZero(m.N), m.N) < 0.05 {
				t.Errorf("the reference hardly moved from the free stream")
			}
		}
	}
}

// perturbedZero is the free stream, as a reference to measure change from.
func perturbedZero(n int) []float64 {
	ff := FarFieldState()
	out := make([]float64, NVar*n)
	for v := 0; v < NVar; v++ {
		for i := 0; i < n; i++ {
			out[i+v*n] = ff[v]
		}
	}
	return out
}

// One flux evaluation from a rough state: the two forms agree to a few
// ulps of the largest face term.
func TestFluxForms(t *testing.T) {
	m := genMesh(t, "mesh:n=5000,tilt=20")
	sc := schedule(t, m, "spac", 192)
	vars := perturbed(m.N, 3)
	a, _ := NewSolver[float64](m)
	b, _ := NewScheduledSolver[float64](sc)
	a.SetVariables(vars)
	b.SetVariables(vars)
	a.ComputeFlux()
	b.ComputeFlux()
	fa, fb := a.Fluxes(), b.Fluxes()
	// Scale: the largest face term is about p*|n|, the flux itself can be
	// much smaller (cancellation), so compare against that.
	var scale float64
	for _, x := range m.Normal {
		scale = max(scale, math.Abs(x))
	}
	scale *= 3
	for i := range fa {
		if d := math.Abs(fa[i] - fb[i]); d > 64*0x1p-52*scale {
			t.Fatalf("flux %d: %.17g vs %.17g", i, fa[i], fb[i])
		}
	}
}
