package cg

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/schedule"
)

// testEngine is the CPU engine with a hook before every iteration, fixed
// product times per kernel (so that the tuner's choices are
// deterministic), uploads that take a given number of polls, and a queue
// of depth iterations (as the GPU engine's): Start runs the iteration and
// Finish hands out the results in order.
type testEngine struct {
	*CPUEngine
	iter       int
	onStep     func(k int)
	cost       map[string]time.Duration
	readyAfter int // polls before a prepared schedule is ready
	timed      int // products the solver asked to time
	discarded  atomic.Int32
	released   atomic.Int32
	depth      int
	results    []StepResult // started and not finished
	timedQ     []bool       // whether each was timed
}

func newTestEngine(m *spmv.Matrix, csr, sched time.Duration) *testEngine {
	return &testEngine{CPUEngine: NewCPUEngine(m, spmv.FP64), depth: 1,
		cost: map[string]time.Duration{CSROp{}.Name(): csr, ScheduleOp{}.Name(): sched}}
}

// spmv is the fixed time of op's product, when timed.
func (e *testEngine) spmv(op Op, timed bool) time.Duration {
	if !timed {
		return 0
	}
	return e.cost[op.Name()]
}

// tick counts an iteration (a step or a product), runs the hook before it
// and counts it as timed when the solver asked to time it.
func (e *testEngine) tick(timed bool) {
	e.iter++
	if e.onStep != nil {
		e.onStep(e.iter)
	}
	if timed {
		e.timed++
	}
}

func (e *testEngine) Start(op Op, timed bool) error {
	if len(e.results) == e.depth {
		return errors.New("test engine: queue full")
	}
	if n := len(e.timedQ); n > 0 && e.timedQ[n-1] {
		// Nothing may follow a timed iteration before its Finish (the
		// Engine contract): its sample must reach the tuner first.
		return errors.New("test engine: an iteration queued behind a timed one")
	}
	e.tick(timed)
	if err := e.CPUEngine.Start(op, timed); err != nil {
		return err
	}
	st, err := e.CPUEngine.Finish()
	st.SpMV = e.spmv(op, timed)
	e.results = append(e.results, st)
	e.timedQ = append(e.timedQ, timed)
	return err
}

func (e *testEngine) Finish() (StepResult, error) {
	if len(e.results) == 0 {
		return StepResult{}, errors.New("test engine: Finish without Start")
	}
	st := e.results[0]
	e.results, e.timedQ = e.results[1:], e.timedQ[1:]
	return st, nil
}

func (e *testEngine) Depth() int { return e.depth }

func (e *testEngine) Multiply(op Op, timed bool) (time.Duration, error) {
	e.tick(timed)
	_, err := e.CPUEngine.Multiply(op, timed)
	return e.spmv(op, timed), err
}

func (e *testEngine) Prepare(s *schedule.Schedule) (Pending, error) {
	p, err := e.CPUEngine.Prepare(s)
	if err != nil {
		return nil, err
	}
	return &slowPending{Pending: p, e: e, left: e.readyAfter}, nil
}

type slowPending struct {
	Pending
	e    *testEngine
	left int
}

func (p *slowPending) Ready() (bool, error) {
	if p.left > 0 {
		p.left--
		return false, nil
	}
	return true, nil
}

func (p *slowPending) Discard() { p.e.discarded.Add(1) }
func (p *slowPending) Release() { p.e.released.Add(1) }

// lastBackground is the background of the solve running now.
var lastBackground atomic.Pointer[background]

func init() { testHookBackground = func(b *background) { lastBackground.Store(b) } }

// waitDelivered makes the iteration wait until the background's outcome is
// in its channel, so that the poll at the iteration's end finds it.
func waitDelivered() {
	deadline := time.Now().Add(10 * time.Second)
	for len(lastBackground.Load().results) == 0 {
		if time.Now().After(deadline) {
			panic("the background never delivered")
		}
		runtime.Gosched()
	}
}

func TestAdaptPaths(t *testing.T) {
	coo, m := laplacian(t, 24)
	b := Ones(m)
	s := buildSchedule(t, coo, 64)
	ref, err := Solve(context.Background(), NewCPUEngine(m, spmv.FP64), b, opts(CSROp{}))
	if err != nil {
		t.Fatal(err)
	}
	fast, slow := 5*time.Microsecond, 10*time.Microsecond
	ready := func(ctx context.Context) (*schedule.Schedule, error) { return s, nil }

	type check func(t *testing.T, e *testEngine, res *Result)
	// With iterations queued ahead (depth > 1) the switch comes with the
	// first iteration started after the poll that found the schedule: at
	// most depth iterations after it.
	wantSwitch := func(lo int, kept bool) check {
		return func(t *testing.T, e *testEngine, res *Result) {
			ready := res.Background.ReadyIter
			switch {
			case res.SPACKept != kept:
				t.Errorf("kept %v, want %v; segments %+v", res.SPACKept, kept, res.Segments)
			case e.depth == 1 && res.SwitchIter != lo:
				t.Errorf("switch at %d, want %d; segments %+v", res.SwitchIter, lo, res.Segments)
			case e.depth > 1 && (res.SwitchIter <= ready || res.SwitchIter > ready+e.depth):
				t.Errorf("switch at %d, want after the poll that found the schedule (%d) by at most %d; segments %+v", res.SwitchIter, ready, e.depth, res.Segments)
			}
			if res.Background.State != "ready" {
				t.Errorf("background %s (%s), want ready", res.Background.State, res.Background.Err)
			}
			for k := 1; k < res.SwitchIter; k++ {
				if got := res.KernelAt(k); got != "cpu-csr" {
					t.Errorf("iteration %d ran %s before the schedule was there", k, got)
				}
			}
			want := map[bool]string{true: "cpu-schedule", false: "cpu-csr"}[kept]
			if got := res.KernelAt(res.Iterations); got != want {
				t.Errorf("the last iteration ran %s, want %s", got, want)
			}
		}
	}
	for _, tc := range []struct {
		name       string
		csr, sched time.Duration
		readyAfter int
		source     func(release <-chan struct{}, cancelled chan<- struct{}) ScheduleSource
		releaseAt  int // iteration whose start releases the source and waits for Prepare
		check      check
	}{
		{name: "ready early", csr: slow, sched: fast, releaseAt: 1,
			source: func(<-chan struct{}, chan<- struct{}) ScheduleSource { return ready },
			check:  wantSwitch(2, true)},
		{name: "ready late", csr: slow, sched: fast, releaseAt: 20,
			source: func(release <-chan struct{}, _ chan<- struct{}) ScheduleSource {
				return func(ctx context.Context) (*schedule.Schedule, error) { <-release; return s, nil }
			},
			check: wantSwitch(21, true)},
		{name: "upload in flight for 6 polls", csr: slow, sched: fast, releaseAt: 1, readyAfter: 6,
			source: func(<-chan struct{}, chan<- struct{}) ScheduleSource { return ready },
			check:  wantSwitch(8, true)},
		{name: "slower schedule is dropped", csr: fast, sched: slow, releaseAt: 1,
			source: func(<-chan struct{}, chan<- struct{}) ScheduleSource { return ready },
			check: func(t *testing.T, e *testEngine, res *Result) {
				wantSwitch(2, false)(t, e, res)
				if n := len(res.Segments); n != 3 || res.Segments[1].Iters != 1+DefaultProbe {
					t.Errorf("segments %+v, want csr, %d probe iterations of the schedule, csr", res.Segments, 1+DefaultProbe)
				}
			}},
		{name: "never ready before convergence", csr: slow, sched: fast,
			source: func(_ <-chan struct{}, cancelled chan<- struct{}) ScheduleSource {
				return func(ctx context.Context) (*schedule.Schedule, error) {
					<-ctx.Done()
					close(cancelled)
					return nil, ctx.Err()
				}
			},
			check: func(t *testing.T, e *testEngine, res *Result) {
				if res.SwitchIter != 0 || res.Background.State != "cancelled" {
					t.Errorf("switch %d, background %s: want no switch and a cancelled partitioner", res.SwitchIter, res.Background.State)
				}
			}},
		{name: "upload still running at convergence", csr: slow, sched: fast, releaseAt: 1, readyAfter: 1 << 30,
			source: func(<-chan struct{}, chan<- struct{}) ScheduleSource { return ready },
			check: func(t *testing.T, e *testEngine, res *Result) {
				if res.SwitchIter != 0 || res.Background.State != "late" || e.discarded.Load() != 1 {
					t.Errorf("switch %d, background %s, %d discarded: want no switch, late, the schedule freed", res.SwitchIter, res.Background.State, e.discarded.Load())
				}
			}},
		{name: "partitioner error", csr: slow, sched: fast, releaseAt: 3,
			source: func(release <-chan struct{}, _ chan<- struct{}) ScheduleSource {
				return func(ctx context.Context) (*schedule.Schedule, error) {
					<-release
					return nil, errors.New("metis: out of memory")
				}
			},
			check: func(t *testing.T, e *testEngine, res *Result) {
				if res.SwitchIter != 0 || res.Background.State != "error" || !strings.Contains(res.Background.Err, "metis: out of memory") {
					t.Errorf("switch %d, background %s (%q): want no switch and the error", res.SwitchIter, res.Background.State, res.Background.Err)
				}
			}},
	} {
		for _, depth := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/depth %d", tc.name, depth), func(t *testing.T) {
				e := newTestEngine(m, tc.csr, tc.sched)
				e.depth = depth
				e.readyAfter = tc.readyAfter
				release, cancelled := make(chan struct{}), make(chan struct{})
				e.onStep = func(k int) {
					if k == tc.releaseAt {
						close(release)
						waitDelivered()
					}
				}
				o := opts(CSROp{})
				o.Schedule = tc.source(release, cancelled)
				res, err := Solve(context.Background(), e, b, o)
				if err != nil {
					t.Fatal(err)
				}
				checkSolution(t, m, b, res, o.Tol)
				if d := abs(res.Iterations - ref.Iterations); d > 3 {
					t.Errorf("%d iterations, %d with CSR alone", res.Iterations, ref.Iterations)
				}
				tc.check(t, e, res)
				// A schedule the solver took is released when the solve ends,
				// whether its op was kept or dropped; one it never took is not.
				if want := map[bool]int32{true: 1}[res.SwitchIter > 0]; e.released.Load() != want {
					t.Errorf("%d schedules released, want %d", e.released.Load(), want)
				}
				if tc.name == "partitioner error" && res.Background.ReadyIter != 0 {
					t.Errorf("an error reported as ready at iteration %d", res.Background.ReadyIter)
				}
				if tc.name == "never ready before convergence" {
					select {
					case <-cancelled:
					case <-time.After(10 * time.Second):
						t.Error("the partitioner's context was never cancelled")
					}
				}
			})
		}
	}
}

// Queuing iterations ahead changes nothing in the answer: the engine's
// stop rule makes the iterations queued after the one that stops run
// empty, so every outcome (converged, max-iterations, breakdown) matches
// the one-at-a-time solve bit for bit.
func TestPipelineMatchesSerial(t *testing.T) {
	_, lap := laplacian(t, 24)
	ind := lateBreakdown(t)
	short := opts(CSROp{})
	short.MaxIters = 9
	for _, tc := range []struct {
		name string
		m    *spmv.Matrix
		b    []float64
		o    Options
		stop Stop
	}{
		{"converged", lap, Ones(lap), opts(CSROp{}), Converged},
		{"max iterations", lap, Ones(lap), short, MaxIters},
		{"breakdown", ind, Ones(ind), opts(CSROp{}), Breakdown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			solve := func(depth int) (*Result, *testEngine) {
				e := newTestEngine(tc.m, 10*time.Microsecond, 0)
				e.depth = depth
				res, err := Solve(context.Background(), e, tc.b, tc.o)
				if err != nil {
					t.Fatal(err)
				}
				return res, e
			}
			want, _ := solve(1)
			if want.Stop != tc.stop || want.Iterations < 8 {
				t.Fatalf("one at a time: %s after %d iterations (%s), want %s after some iterations run queued", want.Stop, want.Iterations, want.Reason, tc.stop)
			}
			for _, depth := range []int{2, 3, 5} {
				got, e := solve(depth)
				if got.Stop != want.Stop || got.Iterations != want.Iterations || got.Reason != want.Reason ||
					!slices.Equal(got.History, want.History) || !slices.Equal(got.X, want.X) {
					t.Errorf("depth %d: %s after %d iterations (%s), want %s after %d (%s), the same history and x",
						depth, got.Stop, got.Iterations, got.Reason, want.Stop, want.Iterations, want.Reason)
				}
				ran := 0
				for _, s := range got.Segments {
					ran += s.Iters
				}
				if last := want.Iterations + map[bool]int{true: 1}[tc.stop == Breakdown]; ran != last {
					t.Errorf("depth %d: segments cover %d iterations, want %d", depth, ran, last)
				}
				if e.iter > ran+depth-1 || e.iter > tc.o.MaxIters {
					t.Errorf("depth %d: %d iterations started for %d run", depth, e.iter, ran)
				}
			}
		})
	}
}

// ScheduleDelay: a solve that ends within it never starts the source; a
// longer one starts it at the first boundary after the delay and switches
// as usual.
func TestScheduleDelay(t *testing.T) {
	coo, m := laplacian(t, 24)
	b := Ones(m)
	s := buildSchedule(t, coo, 64)
	t.Run("solve ends first", func(t *testing.T) {
		e := newTestEngine(m, 10*time.Microsecond, 5*time.Microsecond)
		var called atomic.Bool
		o := opts(CSROp{})
		o.ScheduleDelay = time.Hour
		o.Schedule = func(ctx context.Context) (*schedule.Schedule, error) { called.Store(true); return s, nil }
		res, err := Solve(context.Background(), e, b, o)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, m, b, res, o.Tol)
		if res.Background.State != "not-started" || called.Load() || res.SwitchIter != 0 {
			t.Errorf("background %s, source called %v, switch %d: want not-started, never called, no switch",
				res.Background.State, called.Load(), res.SwitchIter)
		}
	})
	t.Run("source after the delay", func(t *testing.T) {
		const delay = 50 * time.Millisecond
		e := newTestEngine(m, 10*time.Microsecond, 5*time.Microsecond)
		var calledAfter atomic.Int64
		start := time.Now()
		o := opts(CSROp{})
		o.ScheduleDelay = delay
		o.Schedule = func(ctx context.Context) (*schedule.Schedule, error) {
			calledAfter.Store(int64(time.Since(start)))
			return s, nil
		}
		// The first iteration outlasts the delay, so the boundary after it
		// starts the source; the second waits for its schedule.
		e.onStep = func(k int) {
			switch k {
			case 1:
				time.Sleep(delay)
			case 2:
				waitDelivered()
			}
		}
		res, err := Solve(context.Background(), e, b, o)
		if err != nil {
			t.Fatal(err)
		}
		checkSolution(t, m, b, res, o.Tol)
		if got := time.Duration(calledAfter.Load()); got < delay {
			t.Errorf("source started %v into the solve, before the %v delay", got, delay)
		}
		if res.Background.State != "ready" || res.SwitchIter != 3 || !res.SPACKept {
			t.Errorf("background %s, switch %d (kept %v): want ready, switch at 3, kept", res.Background.State, res.SwitchIter, res.SPACKept)
		}
		if res.Background.Time >= delay {
			t.Errorf("partitioner time %v includes the delay", res.Background.Time)
		}
	})
}

// Several starting ops are probed in turn and the fastest stays.
func TestTunerProbesStartingOps(t *testing.T) {
	coo, m := laplacian(t, 24)
	s := buildSchedule(t, coo, 64)
	e := newTestEngine(m, 10*time.Microsecond, 5*time.Microsecond)
	res, err := Solve(context.Background(), e, Ones(m), opts(CSROp{}, ScheduleOp{s}))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Segments) != 2 || res.Segments[0].Iters != 1+DefaultProbe || res.Segments[1].Kernel != "cpu-schedule" || !res.SPACKept {
		t.Errorf("segments %+v: want %d iterations of CSR, then the schedule for good", res.Segments, 1+DefaultProbe)
	}
	if res.SwitchIter != DefaultProbe+2 {
		t.Errorf("switch at %d, want %d", res.SwitchIter, DefaultProbe+2)
	}
}

// The repeated-product loop switches as the solver does and computes A x.
func TestRepeatAdapts(t *testing.T) {
	coo, m := laplacian(t, 16)
	s := buildSchedule(t, coo, 64)
	e := newTestEngine(m, 10*time.Microsecond, 5*time.Microsecond)
	release := make(chan struct{})
	e.onStep = func(k int) {
		if k == 5 {
			close(release)
			waitDelivered()
		}
	}
	x := make([]float64, m.NCols)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	o := Options{Ops: []Op{CSROp{}}, Schedule: func(ctx context.Context) (*schedule.Schedule, error) { <-release; return s, nil }}
	res, err := Repeat(context.Background(), e, x, 20, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 20 || res.SwitchIter != 6 || !res.SPACKept {
		t.Errorf("%d products, switch at %d (kept %v), want 20 and a switch at 6", res.Iterations, res.SwitchIter, res.SPACKept)
	}
	want, _, err := m.Reference(x, spmv.FP64)
	if err != nil {
		t.Fatal(err)
	}
	got := e.Product()
	for i := range want {
		if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
			t.Fatalf("row %d: %g, want %g", i, got[i], want[i])
		}
	}
	// CSR runs 5 products, the schedule its 1 + probe, CSR is timed again
	// for 1 + probe products beside it, and the schedule runs the rest.
	// The untimed products count at their kernel's median.
	nCSR := 5 + 1 + DefaultProbe
	if want := time.Duration(nCSR)*10*time.Microsecond + time.Duration(20-nCSR)*5*time.Microsecond; res.SpMVEstimate != want {
		t.Errorf("estimated product time %v, want %v (%d CSR products, %d with the schedule)", res.SpMVEstimate, want, nCSR, 20-nCSR)
	}
	if want := 3 * (1 + DefaultProbe); e.timed != want {
		t.Errorf("%d products timed, want %d (the probes of CSR and of the schedule, CSR's again)", e.timed, want)
	}
	if n := len(res.Segments); n != 4 || res.Segments[2].Kernel != "cpu-csr" || res.Segments[2].Iters != 1+DefaultProbe {
		t.Errorf("segments %+v: want CSR, the schedule's probe, CSR's second probe of %d, the schedule", res.Segments, 1+DefaultProbe)
	}
}

// Products are timed only while the tuner needs them, unless TimeAll.
func TestTimingOnlyWhileProbing(t *testing.T) {
	_, m := laplacian(t, 24)
	for _, all := range []bool{false, true} {
		e := newTestEngine(m, 10*time.Microsecond, 0)
		o := opts(CSROp{})
		o.TimeAll = all
		res, err := Solve(context.Background(), e, Ones(m), o)
		if err != nil {
			t.Fatal(err)
		}
		want := 1 + DefaultProbe
		if all {
			want = res.Iterations
		}
		if e.timed != want || res.Segments[0].Timed != want {
			t.Errorf("TimeAll %v: %d products timed (segment: %d) of %d, want %d", all, e.timed, res.Segments[0].Timed, res.Iterations, want)
		}
		if got := res.SpMVTime; got != time.Duration(want)*10*time.Microsecond || res.Segments[0].SpMV != got || res.SpMVTimed != want {
			t.Errorf("TimeAll %v: measured product time %v over %d (segment %v), want %d x 10us", all, got, res.SpMVTimed, res.Segments[0].SpMV, want)
		}
		if got := res.SpMVEstimate; got != time.Duration(res.Iterations)*10*time.Microsecond {
			t.Errorf("TimeAll %v: estimated product time %v, want %d x 10us", all, got, res.Iterations)
		}
	}
}

// A schedule offered late is compared with the current op timed again
// beside it, not with the current op's samples from the start.
func TestTunerReprobesCurrentOp(t *testing.T) {
	us := func(n int) time.Duration { return time.Duration(n) * time.Microsecond }
	for _, tc := range []struct {
		name    string
		again   int // the current op's product time when timed again
		wantCSR bool
	}{
		{"the current op got faster", 4, true},
		{"the current op is as slow as before", 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tn := newTuner([]Op{CSROp{}}, 2, false)
			for range 3 {
				tn.record(us(10))
			}
			if tn.timed() {
				t.Fatal("a lone op timed past its probe")
			}
			tn.offer(ScheduleOp{})
			for range 3 {
				if !tn.timed() || !tn.op().UsesSchedule() {
					t.Fatalf("the offered op is not being probed (op %s, timed %v)", tn.op().Name(), tn.timed())
				}
				tn.record(us(5))
			}
			for range 3 {
				if !tn.timed() || tn.op().UsesSchedule() {
					t.Fatalf("the current op is not timed again (op %s, timed %v)", tn.op().Name(), tn.timed())
				}
				tn.record(us(tc.again))
			}
			if got := !tn.op().UsesSchedule(); got != tc.wantCSR || tn.timed() {
				t.Errorf("kept %s (timed %v), want CSR %v and no more timing", tn.op().Name(), tn.timed(), tc.wantCSR)
			}
		})
	}
}

// After a late offer only the new op and the current one are compared: an
// op that lost the first round keeps its old samples, and must not win on
// them.
func TestTunerLateRoundIgnoresStaleOps(t *testing.T) {
	us := func(n int) time.Duration { return time.Duration(n) * time.Microsecond }
	tn := newTuner([]Op{CSROp{}, ScheduleOp{}}, 2, false)
	for _, d := range []int{4, 4, 4, 3, 3, 3} { // CSR 4 us, then the first schedule 3 us
		tn.record(us(d))
	}
	first := tn.op()
	if !first.UsesSchedule() {
		t.Fatalf("the first round kept %s, want the faster schedule", first.Name())
	}
	late := ScheduleOp{}
	tn.offer(late)
	for _, d := range []int{5, 5, 5, 6, 6, 6} { // the late op 5 us, the current one again 6 us
		tn.record(us(d))
	}
	if tn.cur.samples[len(tn.cur.samples)-1] != us(5) {
		t.Errorf("kept the op last timed at %v, want the late one (5us); CSR's 4us are from the first round", tn.cur.samples[len(tn.cur.samples)-1])
	}
}
