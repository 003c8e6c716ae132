//go:build cuda

// GPU tests of the solver: every kernel against the CPU reference, the
// overlap of SPAC-adapt with real uploads on a second stream, a breakdown.
// Build with scripts/gpu-build.sh (bin/gpu/cg.test), run on the GPU
// machine: bin/gpu/cg.test -test.v
package cg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/gpu/cusparse"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
)

var dev *gpu.Device

func TestMain(m *testing.M) {
	// A kernel variant's PTX ($SPAC_PTX_DIR) is tested as the spac
	// command would run it.
	gpu.SetPTXDir(os.Getenv("SPAC_PTX_DIR"))
	d, err := gpu.Open(0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cg gpu tests:", err)
		os.Exit(1)
	}
	dev = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// gpuCase is an SPD input of the GPU tests.
type gpuCase struct {
	name string
	coo  *matrices.COO
}

func gpuCases(t *testing.T) []gpuCase {
	lap, err := matrices.Stencil2D(40, 40, 5)
	if err != nil {
		t.Fatal(err)
	}
	lap3, err := matrices.Stencil3D(12, 12, 12, 7)
	if err != nil {
		t.Fatal(err)
	}
	fem, err := matrices.FEMBlock(3000, 3, 60, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	return []gpuCase{{"laplacian-2d", lap}, {"laplacian-3d", lap3}, {"fem", fem.Expanded()}}
}

func TestGPUMatchesCPU(t *testing.T) {
	for _, tc := range gpuCases(t) {
		m, err := spmv.NewMatrix(tc.coo)
		if err != nil {
			t.Fatal(err)
		}
		b := Ones(m)
		s := buildSchedule(t, tc.coo, 256)
		for _, p := range []spmv.Precision{spmv.FP64, spmv.FP32} {
			tol := map[spmv.Precision]float64{spmv.FP64: 1e-10, spmv.FP32: 1e-5}[p]
			o := Options{Tol: tol, MaxIters: 5000, Ops: []Op{CSROp{}}}
			ref, err := Solve(context.Background(), NewCPUEngine(m, p), b, o)
			if err != nil || ref.Stop != Converged {
				t.Fatalf("%s %s: CPU reference: %v %v", tc.name, p, err, ref)
			}
			for _, k := range []spmv.Kernel{spmv.CSRScalar, spmv.CSRVector, spmv.COOAtomic, spmv.CuSPARSECSR, spmv.SPACShared, spmv.SPACReadOnly, spmv.SPACSharedX4, spmv.SPACReadOnlyX4} {
				name := fmt.Sprintf("%s/%s/%s", tc.name, p, k)
				t.Run(name, func(t *testing.T) {
					e, err := NewGPUEngine(dev, m, p, map[bool]spmv.Kernel{true: k, false: spmv.SPACReadOnly}[k.UsesSchedule()])
					if err != nil {
						t.Fatal(err)
					}
					defer e.Close()
					e.batchEvery = 1 // graphs once four iterations have been launched
					var op Op
					if k.UsesSchedule() {
						pend, err := e.Prepare(s)
						if err != nil {
							t.Fatal(err)
						}
						op, err = pend.Op()
						if err != nil {
							t.Fatal(err)
						}
					} else if op, err = e.Op(k, 256); errors.Is(err, cusparse.ErrUnavailable) {
						t.Skip(err)
					} else if err != nil {
						t.Fatal(err)
					}
					o := o
					o.Ops = []Op{op}
					res, err := Solve(context.Background(), e, b, o)
					if err != nil {
						t.Fatal(err)
					}
					checkSolution(t, m, b, res, tol)
					checkGraphs(t, e)
					slack := 3
					if p == spmv.FP32 {
						slack = max(3, ref.Iterations/10)
					}
					if abs(res.Iterations-ref.Iterations) > slack {
						t.Errorf("%d iterations, the CPU reference %d", res.Iterations, ref.Iterations)
					}
					t.Logf("%d iterations (CPU %d), residual %.3g (CPU %.3g), %.1f us/product", res.Iterations, ref.Iterations, res.Residual, ref.Residual, usOf(res.SpMVTime)/float64(res.Iterations))
				})
			}
		}
	}
}

func usOf(d interface{ Microseconds() int64 }) float64 { return float64(d.Microseconds()) }

// checkGraphs fails unless e ran graphs and captured every op it tried.
func checkGraphs(t *testing.T, e *GPUEngine) {
	t.Helper()
	failed := map[string]error{}
	for op, err := range e.noGraph {
		failed[op.Name()] = err
	}
	if e.graphLaunches == 0 || len(failed) > 0 {
		t.Errorf("%d graphs launched; captures that failed: %v", e.graphLaunches, failed)
	}
}

// hookEngine calls onStep before every iteration of the GPU engine.
type hookEngine struct {
	*GPUEngine
	iter   int
	onStep func(k int)
}

func (e *hookEngine) Start(op Op, timed bool) error {
	e.iter++
	e.onStep(e.iter)
	return e.GPUEngine.Start(op, timed)
}

func TestGPUAdapt(t *testing.T) {
	coo, err := matrices.Stencil2D(60, 60, 5)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	b := Ones(m)
	s := buildSchedule(t, coo, 256)
	for _, path := range []string{"ready at 10", "never", "error"} {
		t.Run(path, func(t *testing.T) {
			ge, err := NewGPUEngine(dev, m, spmv.FP64, spmv.SPACReadOnlyX4)
			if err != nil {
				t.Fatal(err)
			}
			defer ge.Close()
			ge.batchEvery = 1 // the switch comes while graphs run
			def, err := ge.Op(spmv.COOAtomic, 256)
			if err != nil {
				t.Fatal(err)
			}
			release, cancelled := make(chan struct{}), make(chan struct{})
			e := &hookEngine{GPUEngine: ge, onStep: func(k int) {
				if k == 10 && path != "never" {
					close(release)
					waitDelivered()
				}
			}}
			o := Options{Tol: 1e-10, MaxIters: 5000, Ops: []Op{def}, Probe: 2}
			o.Schedule = func(ctx context.Context) (*schedule.Schedule, error) {
				select {
				case <-release:
				case <-ctx.Done():
					close(cancelled)
					return nil, ctx.Err()
				}
				if path == "error" {
					return nil, errors.New("partitioner failed")
				}
				return s, nil
			}
			res, err := Solve(context.Background(), e, b, o)
			if err != nil {
				t.Fatal(err)
			}
			checkSolution(t, m, b, res, o.Tol)
			t.Logf("%s: %d iterations, switch %d (kept %v), background %s, segments %+v", path, res.Iterations, res.SwitchIter, res.SPACKept, res.Background.State, res.Segments)
			switch path {
			case "ready at 10":
				// The upload runs on its own stream: it may take a few
				// iterations, never fewer than one.
				if res.SwitchIter < 11 || res.Background.State != "ready" {
					t.Errorf("switch at %d, background %s: want a switch after iteration 10", res.SwitchIter, res.Background.State)
				}
			case "never":
				select {
				case <-cancelled:
				case <-time.After(10 * time.Second):
					t.Fatal("the partitioner's context was never cancelled")
				}
				if res.SwitchIter != 0 || res.Background.State != "cancelled" {
					t.Errorf("switch %d, background %s: want none and cancelled", res.SwitchIter, res.Background.State)
				}
			case "error":
				if res.SwitchIter != 0 || res.Background.State != "error" || !strings.Contains(res.Background.Err, "partitioner failed") {
					t.Errorf("switch %d, background %s %q", res.SwitchIter, res.Background.State, res.Background.Err)
				}
			}
		})
	}
}

func TestGPUBreakdown(t *testing.T) {
	coo := indefinite()
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewGPUEngine(dev, m, spmv.FP64, spmv.SPACReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	op, err := e.Op(spmv.CSRScalar, 32)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), e, []float64{1, 0}, Options{Tol: 1e-12, MaxIters: 100, Ops: []Op{op}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != Breakdown || res.Iterations != 1 || res.X[0] != 1 || res.X[1] != 0 {
		t.Errorf("got %s after %d iterations, x = %v: want a breakdown at iteration 2 with x = (1, 0)", res.Stop, res.Iterations, res.X)
	}
}

// The GPU engine queues iterations ahead of the host's reads, one by one
// or as graphs; its stop rule makes those after the one that stops run
// empty, so the answer is the one-at-a-time solve's bit for bit
// (csr-scalar adds in a fixed order).
func TestGPUPipelineMatchesSerial(t *testing.T) {
	lapCOO, err := matrices.Stencil2D(40, 40, 5)
	if err != nil {
		t.Fatal(err)
	}
	lap, err := spmv.NewMatrix(lapCOO)
	if err != nil {
		t.Fatal(err)
	}
	ind := lateBreakdown(t)
	for _, tc := range []struct {
		name     string
		m        *spmv.Matrix
		maxIters int
		stop     Stop
	}{
		{"converged", lap, 5000, Converged},
		{"max iterations", lap, 20, MaxIters},
		{"breakdown", ind, 5000, Breakdown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want *Result
			for _, q := range []struct{ depth, every int }{{1, batchEvery}, {pipelineDepth, batchEvery}, {maxDepth, 1}} {
				depth := q.depth
				e, err := NewGPUEngine(dev, tc.m, spmv.FP64, spmv.SPACReadOnly)
				if err != nil {
					t.Fatal(err)
				}
				defer e.Close()
				e.depth, e.batchEvery = depth, q.every
				op, err := e.Op(spmv.CSRScalar, 256)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Solve(context.Background(), e, Ones(tc.m), Options{Tol: 1e-10, MaxIters: tc.maxIters, Ops: []Op{op}})
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = res
					if res.Stop != tc.stop || res.Iterations < 8 {
						t.Fatalf("one at a time: %s after %d iterations (%s), want %s after some iterations run queued", res.Stop, res.Iterations, res.Reason, tc.stop)
					}
					continue
				}
				if res.Stop != want.Stop || res.Iterations != want.Iterations || res.Reason != want.Reason ||
					!slices.Equal(res.History, want.History) || !slices.Equal(res.X, want.X) {
					t.Errorf("depth %d: %s after %d iterations (%s), want %s after %d (%s), the same history and x",
						depth, res.Stop, res.Iterations, res.Reason, want.Stop, want.Iterations, want.Reason)
				}
				if q.every == 1 {
					checkGraphs(t, e)
				}
			}
		})
	}
}

func TestGPURepeat(t *testing.T) {
	coo, err := matrices.Stencil3D(16, 16, 16, 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmv.NewMatrix(coo)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewGPUEngine(dev, m, spmv.FP64, spmv.SPACShared)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	pend, err := e.Prepare(buildSchedule(t, coo, 512))
	if err != nil {
		t.Fatal(err)
	}
	op, err := pend.Op()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, m.NCols)
	for i := range x {
		x[i] = float64(i%11) - 5
	}
	res, err := Repeat(context.Background(), e, x, 50, Options{Ops: []Op{op}})
	if err != nil {
		t.Fatal(err)
	}
	y, err := e.Product()
	if err != nil {
		t.Fatal(err)
	}
	ref, absRef, err := m.Reference(x, spmv.FP64)
	if err != nil {
		t.Fatal(err)
	}
	if errMax := spmv.MaxRelError(y, ref, absRef); !(errMax <= spmv.Tolerance(spmv.FP64)) || res.Iterations != 50 {
		t.Errorf("%d products, max relative error %.3g", res.Iterations, errMax)
	}
}
