package cfd

import (
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/internal/precision"
)

// Precision is the floating-point type a run uses: the one type of every
// command and application (package precision), with its spellings.
type Precision = precision.Precision

const (
	FP32 = precision.FP32
	FP64 = precision.FP64
)

// Result is one CPU run of the solver.
type Result struct {
	Schedule   string // "original" or the partitioning method of the schedule
	Precision  Precision
	Iterations int
	Time       time.Duration // the iterations only (not set-up, not initialization)
	// Vars is the final state in the mesh's original numbering, float64.
	Vars []float64
}

// PerIteration is the mean time of one iteration.
func (r *Result) PerIteration() time.Duration {
	if r.Iterations == 0 {
		return 0
	}
	return r.Time / time.Duration(r.Iterations)
}

// Simulate initializes the state and runs iterations of the solver in the
// given precision: the original element-centric solver on m when sched is
// nil, else the schedule's face-centric executor.
func Simulate(m *Mesh, sched *Schedule, prec Precision, iterations int) (*Result, error) {
	switch prec {
	case FP32:
		return simulate[float32](m, sched, prec, iterations)
	case FP64:
		return simulate[float64](m, sched, prec, iterations)
	}
	return nil, fmt.Errorf("unknown precision %q", prec)
}

func simulate[T Float](m *Mesh, sched *Schedule, prec Precision, iterations int) (*Result, error) {
	var s *Solver[T]
	var err error
	name := "original"
	if sched == nil {
		s, err = NewSolver[T](m)
	} else {
		s, err = NewScheduledSolver[T](sched)
		name = sched.Method
	}
	if err != nil {
		return nil, err
	}
	s.Init()
	start := time.Now()
	s.Iterate(iterations)
	return &Result{Schedule: name, Precision: prec, Iterations: iterations, Time: time.Since(start), Vars: s.Variables()}, nil
}

// Diff compares one group of variables of a run with the reference.
type Diff struct {
	Group  string  // density, momentum, energy
	MaxAbs float64 // largest |got - ref|
	MaxRel float64 // MaxAbs over the largest |ref|
	L2Rel  float64 // ||got - ref||_2 / ||ref||_2
}

// Compare measures got against ref (both Var layouts of n elements) for
// density, momentum (the three components together) and energy. A NaN or
// infinity in either makes the difference infinite.
func Compare(got, ref []float64, n int) ([3]Diff, error) {
	var out [3]Diff
	if len(got) != NVar*n || len(ref) != NVar*n {
		return out, fmt.Errorf("comparing %d and %d values for %d elements", len(got), len(ref), n)
	}
	groups := [3]struct {
		name     string
		from, to int
	}{{"density", VarDensity, VarDensity + 1}, {"momentum", VarMomentum, VarMomentum + NDim}, {"energy", VarEnergy, VarEnergy + 1}}
	for g, gr := range groups {
		var maxAbs, maxRef, sd, sr float64
		for i := gr.from * n; i < gr.to*n; i++ {
			d := math.Abs(got[i] - ref[i])
			if math.IsNaN(d) || math.IsInf(got[i], 0) || math.IsInf(ref[i], 0) {
				d = math.Inf(1)
			}
			maxAbs = max(maxAbs, d)
			maxRef = max(maxRef, math.Abs(ref[i]))
			sd += d * d
			sr += ref[i] * ref[i]
		}
		out[g] = Diff{Group: gr.name, MaxAbs: maxAbs, MaxRel: ratio(maxAbs, maxRef), L2Rel: ratio(math.Sqrt(sd), math.Sqrt(sr))}
	}
	return out, nil
}

func ratio(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return a / b
}

// Tolerance is the largest Diff.MaxRel accepted between the face-centric
// and the element-centric solver after the given iterations. The two
// differ only in rounding: a face's flux is evaluated once instead of once
// per side (the dissipation's four speeds summed in another order) and an
// element's face terms are summed in another order, a few ulps per flux
// evaluation. The scheme is dissipative, so such differences are not
// amplified; at worst they add up linearly over the RK flux evaluations.
// The bound allows 16 ulps per evaluation: 1.1e-12 in fp64 and 5.7e-4 in
// fp32 after 100 iterations (measured: about 1e-15 and 1e-6).
func Tolerance(p Precision, iterations int) float64 {
	eps := 0x1p-52
	if p == FP32 {
		eps = 0x1p-23
	}
	return 16 * RK * float64(max(iterations, 1)) * eps
}
