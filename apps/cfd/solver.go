package cfd

import (
	"fmt"
	"math"
)

// euler3d's constants.
const (
	Gamma            = 1.4
	FarFieldMach     = 1.2
	AngleOfAttackDeg = 0.0
	Smoothing        = 0.2 // artificial dissipation coefficient
	RK               = 3   // Runge-Kutta rounds per iteration
)

// Float is the precision the solver runs in.
type Float interface{ ~float32 | ~float64 }

func sqrt[T Float](x T) T {
	// Rounding the float64 square root to float32 is the correctly rounded
	// float32 square root (53 >= 2*24+2 bits), as sqrtf gives.
	return T(math.Sqrt(float64(x)))
}

// cell is an element's variables and the quantities derived from them that
// every face of the element needs. Both flux forms derive them with the
// same expressions, so they are bit for bit the same in either.
type cell[T Float] struct {
	d, e    T    // density, energy
	m       [3]T // momentum
	p, c, s T    // pressure, speed of sound, speed |v|
	fcM     [3][3]T
	fcE     [3]T
}

// derive fills the derived quantities from d, m and e.
func (q *cell[T]) derive() {
	var v [3]T
	for k := range v {
		v[k] = q.m[k] / q.d
	}
	ssq := v[0]*v[0] + v[1]*v[1] + v[2]*v[2]
	q.p = T(Gamma-1) * (q.e - T(0.5)*q.d*ssq)
	q.c = sqrt(T(Gamma) * q.p / q.d)
	q.s = sqrt(ssq)
	q.contribution(v)
}

// contribution sets the flux contributions (the convective flux tensor:
// momentum rows and energy) from the velocity, pressure, momentum, energy.
func (q *cell[T]) contribution(v [3]T) {
	for r := 0; r < 3; r++ {
		for k := 0; k < 3; k++ {
			if k < r {
				q.fcM[r][k] = q.fcM[k][r] // symmetric
				continue
			}
			q.fcM[r][k] = v[r] * q.m[k]
			if k == r {
				q.fcM[r][k] += q.p
			}
		}
	}
	dep := q.e + q.p
	for k := range v {
		q.fcE[k] = v[k] * dep
	}
}

// farField is the free-stream state of the far-field faces and of the
// initial condition.
type farField[T Float] struct {
	vars [NVar]T
	cell cell[T]
}

// newFarField computes the free stream in float64 (density 1.4, pressure
// 1, so the speed of sound is 1; Mach 1.2 along the angle of attack) and
// rounds it to T; its flux contributions are then derived in T like any
// element's.
func newFarField[T Float]() farField[T] {
	const density, pressure = 1.4, 1.0
	c := math.Sqrt(Gamma * pressure / density)
	speed := FarFieldMach * c
	angle := AngleOfAttackDeg * math.Pi / 180
	vel := [3]float64{speed * math.Cos(angle), speed * math.Sin(angle), 0}
	var ff farField[T]
	ff.vars[VarDensity] = T(density)
	for k := 0; k < NDim; k++ {
		ff.vars[VarMomentum+k] = T(density * vel[k])
	}
	ff.vars[VarEnergy] = T(density*(0.5*speed*speed) + pressure/(Gamma-1))
	q := &ff.cell
	q.d, q.e, q.p = ff.vars[VarDensity], ff.vars[VarEnergy], T(pressure)
	var v [3]T
	for k := range v {
		q.m[k] = ff.vars[VarMomentum+k]
		v[k] = T(vel[k])
	}
	q.contribution(v)
	return ff
}

// FarFieldState is the free-stream state every element starts from:
// density, momentum x, y, z, energy.
func FarFieldState() [NVar]float64 { return newFarField[float64]().vars }

// Solver runs euler3d's time loop on a mesh in precision T, with the
// original element-centric flux (NewSolver) or the SPAC schedule's
// face-centric one (NewScheduledSolver).
type Solver[T Float] struct {
	n int
	// Var holds the variables, Var[i + v*n], in the solver's numbering (the
	// schedule's for a scheduled solver; Variables un-permutes).
	Var  []T
	old  []T
	step []T
	flux []T
	area []T
	ff   farField[T]

	// Element-centric geometry.
	nb     []int32
	normal []T

	// Face-centric geometry and scratch.
	sched      *Schedule
	faceNormal []T
	scratch    []cell[T]
	acc        [][NVar]T
}

// NewSolver prepares the original element-centric solver on m's numbering.
func NewSolver[T Float](m *Mesh) (*Solver[T], error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	s := newSolver[T](m)
	s.nb = m.Neighbor
	s.normal = convert[T](m.Normal)
	return s, nil
}

// NewScheduledSolver prepares the SPAC-scheduled face-centric solver; it
// runs on the schedule's numbering (sc.Mesh).
func NewScheduledSolver[T Float](sc *Schedule) (*Solver[T], error) {
	if err := sc.Mesh.Validate(); err != nil {
		return nil, err
	}
	s := newSolver[T](sc.Mesh)
	s.sched = sc
	s.faceNormal = convert[T](sc.FaceNormal)
	s.scratch = make([]cell[T], sc.MaxSlots)
	s.acc = make([][NVar]T, sc.MaxSlots)
	return s, nil
}

func newSolver[T Float](m *Mesh) *Solver[T] {
	n := m.N
	return &Solver[T]{n: n, Var: make([]T, NVar*n), old: make([]T, NVar*n), step: make([]T, n),
		flux: make([]T, NVar*n), area: convert[T](m.Area), ff: newFarField[T]()}
}

func convert[T Float](x []float64) []T {
	out := make([]T, len(x))
	for i, v := range x {
		out[i] = T(v)
	}
	return out
}

// Init is initialize_variables: every element gets the far-field state.
func (s *Solver[T]) Init() {
	for v := 0; v < NVar; v++ {
		x := s.ff.vars[v]
		row := s.Var[v*s.n : (v+1)*s.n]
		for i := range row {
			row[i] = x
		}
	}
}

// SetVariables sets the state from vars, in the mesh's original numbering
// (Variables' layout); for tests and restarts.
func (s *Solver[T]) SetVariables(vars []float64) error {
	if len(vars) != NVar*s.n {
		return fmt.Errorf("%d values for %d elements x %d variables", len(vars), s.n, NVar)
	}
	for v := 0; v < NVar; v++ {
		for i := 0; i < s.n; i++ {
			s.Var[s.index(i)+v*s.n] = T(vars[i+v*s.n])
		}
	}
	return nil
}

// index maps an element of the original numbering to the solver's.
func (s *Solver[T]) index(i int) int {
	if s.sched != nil {
		return int(s.sched.Inv[i])
	}
	return i
}

// Variables returns the state in the mesh's original numbering, as float64.
func (s *Solver[T]) Variables() []float64 { return s.unpermute(s.Var) }

// Fluxes returns the last computed fluxes in the original numbering.
func (s *Solver[T]) Fluxes() []float64 { return s.unpermute(s.flux) }

func (s *Solver[T]) unpermute(x []T) []float64 {
	out := make([]float64, len(x))
	for v := 0; v < NVar; v++ {
		for i := 0; i < s.n; i++ {
			out[i+v*s.n] = float64(x[s.index(i)+v*s.n])
		}
	}
	return out
}

// Iterate runs iterations of the time loop: copy the variables, compute
// the step factors, then RK rounds of flux and time step.
func (s *Solver[T]) Iterate(iterations int) {
	for it := 0; it < iterations; it++ {
		copy(s.old, s.Var)
		s.ComputeStepFactor()
		for j := 0; j < RK; j++ {
			s.ComputeFlux()
			s.TimeStep(j)
		}
	}
}

// ComputeStepFactor is compute_step_factor: a local time step from the
// element's size and its fastest wave, 0.5 / (sqrt(area) (|v| + c)).
func (s *Solver[T]) ComputeStepFactor() {
	n := s.n
	for i := 0; i < n; i++ {
		var q cell[T]
		s.load(&q, i)
		var v [3]T
		for k := range v {
			v[k] = q.m[k] / q.d
		}
		ssq := v[0]*v[0] + v[1]*v[1] + v[2]*v[2]
		p := T(Gamma-1) * (q.e - T(0.5)*q.d*ssq)
		c := sqrt(T(Gamma) * p / q.d)
		s.step[i] = T(0.5) / (sqrt(s.area[i]) * (sqrt(ssq) + c))
	}
}

// TimeStep is time_step for Runge-Kutta round j: Var = old + step/(RK+1-j) * flux.
func (s *Solver[T]) TimeStep(j int) {
	n := s.n
	div := T(RK + 1 - j)
	for v := 0; v < NVar; v++ {
		vr, or, fr := s.Var[v*n:(v+1)*n], s.old[v*n:(v+1)*n], s.flux[v*n:(v+1)*n]
		for i := range vr {
			vr[i] = or[i] + s.step[i]/div*fr[i]
		}
	}
}

// ComputeFlux is compute_flux in the solver's form.
func (s *Solver[T]) ComputeFlux() {
	if s.sched != nil {
		s.faceFlux()
		return
	}
	s.elementFlux()
}

func (s *Solver[T]) load(q *cell[T], i int) {
	n := s.n
	q.d = s.Var[i+VarDensity*n]
	for k := 0; k < NDim; k++ {
		q.m[k] = s.Var[i+(VarMomentum+k)*n]
	}
	q.e = s.Var[i+VarEnergy*n]
}

// dissipation is the artificial dissipation factor of a face between a and
// b: -|n| * Smoothing * 0.5 * (|v_a| + |v_b| + c_a + c_b).
func dissipation[T Float](nl T, a, b *cell[T]) T {
	return -nl * T(Smoothing) * T(0.5) * (a.s + b.s + a.c + b.c)
}

// elementFlux is the original compute_flux: every element sums over its
// four faces, deriving each neighbour's quantities anew.
func (s *Solver[T]) elementFlux() {
	n := s.n
	ff := &s.ff.cell
	for i := 0; i < n; i++ {
		var a, b cell[T]
		s.load(&a, i)
		a.derive()
		var fd, fe T
		var fm [3]T
		for j := 0; j < NNB; j++ {
			nb := s.nb[i+j*n]
			var nrm [3]T
			for k := range nrm {
				nrm[k] = s.normal[i+(j+k*NNB)*n]
			}
			switch {
			case nb >= 0:
				nl := sqrt(nrm[0]*nrm[0] + nrm[1]*nrm[1] + nrm[2]*nrm[2])
				s.load(&b, int(nb))
				b.derive()
				f := dissipation(nl, &a, &b)
				fd += f * (a.d - b.d)
				fe += f * (a.e - b.e)
				for r := 0; r < 3; r++ {
					fm[r] += f * (a.m[r] - b.m[r])
				}
				for k := 0; k < 3; k++ {
					f := T(0.5) * nrm[k]
					fd += f * (b.m[k] + a.m[k])
					fe += f * (b.fcE[k] + a.fcE[k])
					for r := 0; r < 3; r++ {
						fm[r] += f * (b.fcM[r][k] + a.fcM[r][k])
					}
				}
			case nb == Wing:
				for r := 0; r < 3; r++ {
					fm[r] += nrm[r] * a.p
				}
			default: // far field: the central flux with the free stream
				for k := 0; k < 3; k++ {
					f := T(0.5) * nrm[k]
					fd += f * (ff.m[k] + a.m[k])
					fe += f * (ff.fcE[k] + a.fcE[k])
					for r := 0; r < 3; r++ {
						fm[r] += f * (ff.fcM[r][k] + a.fcM[r][k])
					}
				}
			}
		}
		s.flux[i+VarDensity*n] = fd
		for r := 0; r < 3; r++ {
			s.flux[i+(VarMomentum+r)*n] = fm[r]
		}
		s.flux[i+VarEnergy*n] = fe
	}
}

// faceFlux is the SPAC-scheduled compute_flux: part by part, stage the
// part's elements in the scratch, evaluate each face once into the
// scratch accumulators, write them out.
func (s *Solver[T]) faceFlux() {
	sc := s.sched
	n := s.n
	nf := len(sc.FaceA)
	ff := &s.ff.cell
	// Elements several parts touch receive additions: clear them first.
	for p := 0; p < sc.K; p++ {
		for i := sc.SharedStart[p]; i < sc.HomeStart[p+1]; i++ {
			for v := 0; v < NVar; v++ {
				s.flux[int(i)+v*n] = 0
			}
		}
	}
	for p := 0; p < sc.K; p++ {
		slots := sc.Slots[sc.SlotStart[p]:sc.SlotStart[p+1]]
		scr, acc := s.scratch[:len(slots)], s.acc[:len(slots)]
		for l, e := range slots {
			q := &scr[l]
			s.load(q, int(e))
			q.derive()
			acc[l] = [NVar]T{}
		}
		for f := sc.FaceStart[p]; f < sc.FaceStart[p+1]; f++ {
			a := &scr[sc.FaceA[f]]
			var nrm [3]T
			for k := range nrm {
				nrm[k] = s.faceNormal[int(f)+k*nf]
			}
			var F [NVar]T // density, momentum x/y/z, energy into a
			switch bl := sc.FaceB[f]; {
			case bl >= 0:
				b := &scr[bl]
				nl := sqrt(nrm[0]*nrm[0] + nrm[1]*nrm[1] + nrm[2]*nrm[2])
				g := dissipation(nl, a, b)
				F[VarDensity] = g * (a.d - b.d)
				F[VarEnergy] = g * (a.e - b.e)
				for r := 0; r < 3; r++ {
					F[VarMomentum+r] = g * (a.m[r] - b.m[r])
				}
				for k := 0; k < 3; k++ {
					h := T(0.5) * nrm[k]
					F[VarDensity] += h * (b.m[k] + a.m[k])
					F[VarEnergy] += h * (b.fcE[k] + a.fcE[k])
					for r := 0; r < 3; r++ {
						F[VarMomentum+r] += h * (b.fcM[r][k] + a.fcM[r][k])
					}
				}
				ab := &acc[bl]
				for v := range F {
					ab[v] -= F[v]
				}
			case bl == Wing:
				for r := 0; r < 3; r++ {
					F[VarMomentum+r] = nrm[r] * a.p
				}
			default:
				for k := 0; k < 3; k++ {
					h := T(0.5) * nrm[k]
					F[VarDensity] += h * (ff.m[k] + a.m[k])
					F[VarEnergy] += h * (ff.fcE[k] + a.fcE[k])
					for r := 0; r < 3; r++ {
						F[VarMomentum+r] += h * (ff.fcM[r][k] + a.fcM[r][k])
					}
				}
			}
			aa := &acc[sc.FaceA[f]]
			for v := range F {
				aa[v] += F[v]
			}
		}
		// Write out: the leading exclusive home elements are stored, the
		// rest added (on a GPU: atomically).
		excl := int(sc.SharedStart[p] - sc.HomeStart[p])
		for l, e := range slots {
			for v := 0; v < NVar; v++ {
				if l < excl {
					s.flux[int(e)+v*n] = acc[l][v]
				} else {
					s.flux[int(e)+v*n] += acc[l][v]
				}
			}
		}
	}
}
