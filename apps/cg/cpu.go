package cg

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/schedule"
)

// CPUEngine runs the iteration on the CPU in one precision: the reference
// the GPU is checked against, and the engine the overlap tests drive.
type CPUEngine struct {
	m          *spmv.Matrix
	f32        *cpuVectors[float32]
	f64        *cpuVectors[float64]
	bnorm, tol float64    // Init's stop rule
	stop       Stop       // why an iteration stopped the solve ("" while it goes on)
	done       StepResult // the iteration Start ran, until Finish
	pending    bool       // done holds an iteration not yet finished
}

// cpuVectors holds the iteration's state in precision T.
type cpuVectors[T float32 | float64] struct {
	val        []T // the matrix's values, rounded to T
	x, r, p, q []T
	rr         float64 // r.r now
}

// NewCPUEngine prepares m for CG in precision p.
func NewCPUEngine(m *spmv.Matrix, p spmv.Precision) *CPUEngine {
	e := &CPUEngine{m: m}
	if p == spmv.FP32 {
		e.f32 = newCPUVectors[float32](m)
	} else {
		e.f64 = newCPUVectors[float64](m)
	}
	return e
}

func newCPUVectors[T float32 | float64](m *spmv.Matrix) *cpuVectors[T] {
	v := &cpuVectors[T]{val: make([]T, m.NNZ()), x: make([]T, m.NCols), r: make([]T, m.NRows), p: make([]T, m.NCols), q: make([]T, m.NRows)}
	for i, a := range m.Val {
		v.val[i] = T(a)
	}
	return v
}

// CSROp is the CPU's row-by-row product.
type CSROp struct{}

func (CSROp) Name() string       { return "cpu-csr" }
func (CSROp) UsesSchedule() bool { return false }

// ScheduleOp is the schedule executor (package schedule's SpMV: the SPAC
// kernels' semantics, block by block).
type ScheduleOp struct{ S *schedule.Schedule }

func (ScheduleOp) Name() string       { return "cpu-schedule" }
func (ScheduleOp) UsesSchedule() bool { return true }

// fma is a fused multiply-add in T: exact in float64, and in float32 the
// exact result rounded twice, which almost always equals a float32 fma.
func fma[T float32 | float64](a, b, c T) T { return T(math.FMA(float64(a), float64(b), float64(c))) }

func dot[T float32 | float64](a, b []T) float64 {
	var s float64
	for i := range a {
		s = math.FMA(float64(a[i]), float64(b[i]), s)
	}
	return s
}

func (e *CPUEngine) Init(b []float64, bnorm, tol float64) (float64, error) {
	if len(b) != e.m.NRows {
		return 0, fmt.Errorf("cg: b has %d entries, the matrix %d rows", len(b), e.m.NRows)
	}
	e.bnorm, e.tol, e.stop, e.pending = bnorm, tol, "", false
	if e.f32 != nil {
		return cpuInit(e.f32, b), nil
	}
	return cpuInit(e.f64, b), nil
}

func cpuInit[T float32 | float64](v *cpuVectors[T], b []float64) float64 {
	for i, x := range b {
		v.x[i], v.r[i], v.p[i] = 0, T(x), T(x)
	}
	v.rr = dot(v.r, v.r)
	return v.rr
}

// Start runs the iteration at once (Depth is 1); Finish returns its result.
func (e *CPUEngine) Start(op Op, timed bool) error {
	if e.pending {
		return errors.New("cg: Start before the last iteration's Finish")
	}
	var st StepResult
	var err error
	if e.f32 != nil {
		st, err = cpuStep(e, e.f32, op, timed)
	} else {
		st, err = cpuStep(e, e.f64, op, timed)
	}
	if err != nil {
		return err
	}
	e.done, e.pending = st, true
	return nil
}

func (e *CPUEngine) Finish() (StepResult, error) {
	if !e.pending {
		return StepResult{}, errors.New("cg: Finish without a Start")
	}
	e.pending = false
	return e.done, nil
}

// Depth is 1: the CPU runs an iteration as it is queued.
func (e *CPUEngine) Depth() int { return 1 }

// cpuStep is one iteration with the stop rule of stopPQ and stopRR; after
// a stop nothing changes, as on the GPU.
func cpuStep[T float32 | float64](e *CPUEngine, v *cpuVectors[T], op Op, timed bool) (StepResult, error) {
	if e.stop != "" {
		return StepResult{PQ: math.NaN(), RR: v.rr, Stop: e.stop}, nil
	}
	d, err := cpuProduct(e, v, op, timed)
	if err != nil {
		return StepResult{}, err
	}
	st := StepResult{PQ: dot(v.p, v.q), RR: v.rr, SpMV: d}
	if st.Stop = stopPQ(st.PQ); st.Stop == "" {
		a := T(v.rr / st.PQ)
		for i := range v.x {
			v.x[i] = fma(a, v.p[i], v.x[i])
			v.r[i] = fma(-a, v.q[i], v.r[i])
		}
		rrPrev := v.rr
		v.rr = dot(v.r, v.r)
		st.RR = v.rr
		if st.Stop = stopRR(v.rr, e.bnorm, e.tol); st.Stop == "" {
			beta := T(v.rr / rrPrev)
			for i := range v.p {
				v.p[i] = fma(beta, v.p[i], v.r[i])
			}
		}
	}
	e.stop = st.Stop
	return st, nil
}

// cpuProduct is q = A p with op; its time when timed, else 0 (as on the
// GPU, where only timed products pay for it).
func cpuProduct[T float32 | float64](e *CPUEngine, v *cpuVectors[T], op Op, timed bool) (time.Duration, error) {
	t0 := time.Now()
	switch o := op.(type) {
	case CSROp:
		m := e.m
		for r := range m.NRows {
			var s T
			for j := m.RowPtr[r]; j < m.RowPtr[r+1]; j++ {
				// The conversion keeps Go from fusing: the GPU's CSR kernels
				// may fuse, so neither form is "the" answer; this one is the
				// schedule executor's.
				s += T(v.val[j] * v.p[m.Col[j]])
			}
			v.q[r] = s
		}
	case ScheduleOp:
		var err error
		switch q := any(v.q).(type) {
		case []float32:
			err = o.S.SpMV32(any(v.p).([]float32), q)
		case []float64:
			err = o.S.SpMV(any(v.p).([]float64), q)
		}
		if err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("cg: the CPU engine cannot run %s", op.Name())
	}
	if !timed {
		return 0, nil
	}
	return time.Since(t0), nil
}

func (e *CPUEngine) Multiply(op Op, timed bool) (time.Duration, error) {
	if e.f32 != nil {
		return cpuProduct(e, e.f32, op, timed)
	}
	return cpuProduct(e, e.f64, op, timed)
}

// Wait has nothing to wait for: the CPU's products are done on return.
func (e *CPUEngine) Wait() error { return nil }

func (e *CPUEngine) Solution() ([]float64, error) {
	if e.f32 != nil {
		return widen(e.f32.x), nil
	}
	return widen(e.f64.x), nil
}

// Product returns q, the last product (tests compare kernels with it).
func (e *CPUEngine) Product() []float64 {
	if e.f32 != nil {
		return widen(e.f32.q)
	}
	return widen(e.f64.q)
}

func widen[T float32 | float64](s []T) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

// Prepare has nothing to upload: the schedule is ready at once.
func (e *CPUEngine) Prepare(s *schedule.Schedule) (Pending, error) {
	if s.NRows != e.m.NRows || s.NCols != e.m.NCols || s.NNZ != e.m.NNZ() {
		return nil, fmt.Errorf("cg: schedule for a %d x %d matrix with %d entries, not %d x %d with %d", s.NRows, s.NCols, s.NNZ, e.m.NRows, e.m.NCols, e.m.NNZ())
	}
	return readyPending{ScheduleOp{s}}, nil
}

// readyPending is a schedule that needs no upload.
type readyPending struct{ op Op }

func (p readyPending) Ready() (bool, error) { return true, nil }
func (p readyPending) Op() (Op, error)      { return p.op, nil }
func (p readyPending) Discard()             {}
func (p readyPending) Release()             {}
