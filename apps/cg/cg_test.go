package cg

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/cg/kernels/cg.cu")); err != nil {
		t.Fatal(err)
	}
}

// laplacian is the 5-point Laplacian of an n x n grid (SPD).
func laplacian(t testing.TB, n int) (*matrices.COO, *spmv.Matrix) {
	t.Helper()
	coo, err := matrices.Stencil2D(n, n, 5)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	return coo, m
}

// buildSchedule partitions coo into contiguous chunks (the default method:
// no METIS, fast) and plans a schedule of blocks of bs tasks.
func buildSchedule(t testing.TB, coo *matrices.COO, bs int) *schedule.Schedule {
	t.Helper()
	g, inc, err := matrices.BuildLocality(coo, matrices.ModelSpMV)
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := spac.Resolve(g.NumEdges(), 0, bs)
	if err != nil {
		t.Fatal(err)
	}
	meth, err := spac.Lookup("default")
	if err != nil {
		t.Fatal(err)
	}
	p, err := meth.Partition(context.Background(), g, inc, spac.Options{K: k, Cap: capacity, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := schedule.Build(coo, p, schedule.Options{BlockSize: bs})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func opts(ops ...Op) Options { return Options{Tol: 1e-8, MaxIters: 1000, Ops: ops} }

// checkSolution wants a converged solve whose true residual is near the
// tolerance and whose x is close to the all-ones solution of b = A 1.
func checkSolution(t *testing.T, m *spmv.Matrix, b []float64, res *Result, tol float64) {
	t.Helper()
	if res.Stop != Converged {
		t.Fatalf("stopped: %s", res.Reason)
	}
	tr, err := TrueResidual(m, b, res.X)
	if err != nil {
		t.Fatal(err)
	}
	if tr > 10*tol {
		t.Errorf("true residual %.3g, want <= %g (recursive %.3g)", tr, 10*tol, res.Residual)
	}
	worst := 0.0
	for _, v := range res.X {
		worst = max(worst, math.Abs(v-1))
	}
	if worst > 1e3*tol {
		t.Errorf("max |x - 1| = %.3g", worst)
	}
	// The first residual is 1 up to the rounding of two different sums of b.b.
	if len(res.History) != res.Iterations+1 || math.Abs(res.History[0]-1) > 1e-6 {
		t.Errorf("history of %d entries starting at %g for %d iterations", len(res.History), res.History[0], res.Iterations)
	}
}

func TestSolveLaplacian(t *testing.T) {
	coo, m := laplacian(t, 24)
	b := Ones(m)
	s := buildSchedule(t, coo, 64)
	for _, p := range []spmv.Precision{spmv.FP64, spmv.FP32} {
		tol := 1e-8
		if p == spmv.FP32 {
			tol = 1e-5
		}
		var iters [2]int
		for i, op := range []Op{CSROp{}, ScheduleOp{s}} {
			o := opts(op)
			o.Tol = tol
			res, err := Solve(context.Background(), NewCPUEngine(m, p), b, o)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, m, b, res, tol)
			iters[i] = res.Iterations
			if res.SwitchIter != 0 && !op.UsesSchedule() || res.Background.State != "none" {
				t.Errorf("%s: switch %d, background %s without a background", op.Name(), res.SwitchIter, res.Background.State)
			}
		}
		// A 24 x 24 Laplacian needs about 70 iterations; the two products
		// differ only in rounding.
		if iters[0] < 30 || abs(iters[0]-iters[1]) > 2 {
			t.Errorf("%s: %d iterations with CSR, %d with the schedule", p, iters[0], iters[1])
		}
	}
}

func abs(a int) int { return max(a, -a) }

// indefinite is [[1 2] [2 1]]: symmetric with a positive diagonal, but
// indefinite (eigenvalues 3 and -1).
func indefinite() *matrices.COO {
	return &matrices.COO{Name: "indefinite", NRows: 2, NCols: 2, Field: matrices.Real, Symmetry: matrices.General,
		Row: []int32{0, 0, 1, 1}, Col: []int32{0, 1, 0, 1}, Val: []float64{1, 2, 2, 1}}
}

// lateBreakdown is diag(1, ..., 19, -0.2): from b = A 1, CG breaks down at
// iteration 12 (p.Ap = -7.84), late enough that iterations are queued
// behind the one that breaks down.
func lateBreakdown(t testing.TB) *spmv.Matrix {
	const n = 20
	coo := &matrices.COO{Name: "late-breakdown", NRows: n, NCols: n, Field: matrices.Real, Symmetry: matrices.General}
	for i := range int32(n) {
		coo.Row, coo.Col, coo.Val = append(coo.Row, i), append(coo.Col, i), append(coo.Val, float64(i+1))
	}
	coo.Val[n-1] = -0.2
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBreakdownOnIndefinite(t *testing.T) {
	// [[1 2] [2 1]] has eigenvalues 3 and -1. From b = e1: p.Ap = 1, then
	// p = (4, -2) with p.Ap = -12.
	coo := indefinite()
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(m); err != nil {
		t.Fatalf("Check refuses a symmetric matrix with a positive diagonal: %v", err)
	}
	res, err := Solve(context.Background(), NewCPUEngine(m, spmv.FP64), []float64{1, 0}, opts(CSROp{}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != Breakdown || res.Iterations != 1 || !strings.Contains(res.Reason, "p.Ap = -12") {
		t.Fatalf("got %s after %d iterations (%s), want a breakdown at iteration 2", res.Stop, res.Iterations, res.Reason)
	}
	// x is the first iterate, finite: alpha = 1 along e1.
	if res.X[0] != 1 || res.X[1] != 0 {
		t.Errorf("x = %v, want the last good iterate (1, 0)", res.X)
	}
}

func TestCheckRefusesWhatCannotBeSPD(t *testing.T) {
	mk := func(rows, cols []int32, vals []float64) *spmv.Matrix {
		m, err := spmv.NewMatrix(&matrices.COO{Name: "m", NRows: 2, NCols: 2, Field: matrices.Real, Symmetry: matrices.General, Row: rows, Col: cols, Val: vals})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		name string
		m    *spmv.Matrix
		want string
	}{
		{"unsymmetric", mk([]int32{0, 0, 1}, []int32{0, 1, 1}, []float64{2, 1, 2}), "not symmetric: A(1,2) = 1 but A(2,1) = 0"},
		{"negative diagonal", mk([]int32{0, 1}, []int32{0, 1}, []float64{2, -1}), "A(2,2) = -1 <= 0"},
		{"missing diagonal", mk([]int32{0, 0, 1}, []int32{0, 1, 0}, []float64{2, 1, 1}), "A(2,2) = 0 <= 0"},
		// Duplicates add up: 1 + 1 mirrors 2.
		{"duplicates", mk([]int32{0, 0, 0, 1, 1}, []int32{0, 1, 1, 0, 1}, []float64{4, 1, 1, 2, 4}), ""},
	} {
		err := Check(tc.m)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	_, m := laplacian(t, 5)
	if err := Check(m); err != nil {
		t.Errorf("the Laplacian: %v", err)
	}
}

func TestMaxItersAndZeroRHS(t *testing.T) {
	_, m := laplacian(t, 16)
	o := opts(CSROp{})
	o.MaxIters = 5
	res, err := Solve(context.Background(), NewCPUEngine(m, spmv.FP64), Ones(m), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != MaxIters || res.Iterations != 5 || len(res.History) != 6 {
		t.Errorf("got %s after %d iterations, want max-iterations after 5", res.Stop, res.Iterations)
	}
	res, err = Solve(context.Background(), NewCPUEngine(m, spmv.FP64), make([]float64, m.NRows), opts(CSROp{}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != Converged || res.Iterations != 0 {
		t.Errorf("b = 0: got %s after %d iterations, want converged at once", res.Stop, res.Iterations)
	}
}
