package cg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/schedule"
)

// Op is an SpMV implementation an engine runs: a kernel, with its schedule
// where it has one.
type Op interface {
	Name() string
	// UsesSchedule reports whether the op runs a SPAC schedule.
	UsesSchedule() bool
}

// StepResult is what one iteration reports to the solver.
type StepResult struct {
	PQ   float64       // p.Ap
	RR   float64       // r.r after the update (unchanged when the update was skipped)
	SpMV time.Duration // time of the product q = A p; 0 when it was not timed
	// Stop is why the solve stops after this iteration by the rule of
	// stopPQ and stopRR ("" when it goes on).
	Stop Stop
}

// Engine runs the iteration of the package doc on one device. Iterations
// are queued (Start) and their results read in order (Finish); an engine
// may run up to Depth of them ahead of the reads, so that a GPU need not
// wait for the host to decide after every iteration whether to go on: the
// engine applies the stop rule itself.
type Engine interface {
	// Init starts from x = 0: r = p = b, with the stop rule's ||b|| and
	// tolerance. It returns r.r.
	Init(b []float64, bnorm, tol float64) (rr float64, err error)
	// Start queues an iteration with op: q = A p, pq = p.q; unless stopPQ
	// stops on pq, x += alpha p and r -= alpha q with alpha = rr / pq;
	// unless stopRR stops on the new r.r, p = r + beta p with beta = r.r
	// after / before. An iteration queued after one that stopped changes
	// nothing. It times the product only when timed is set (on the GPU a
	// timed product costs two event records and a read of the events); a
	// timed iteration must be the last one queued before its Finish.
	Start(op Op, timed bool) error
	// Finish waits for the oldest iteration queued and not yet finished,
	// and returns what it reports.
	Finish() (StepResult, error)
	// Depth is how many iterations may be queued and not finished.
	Depth() int
	// Multiply runs q = A p with op alone (the repeated-product loop). When
	// timed it waits for the product and returns its time; otherwise it may
	// return before the product is done (0), and Wait waits for it.
	Multiply(op Op, timed bool) (time.Duration, error)
	// Wait returns when every product queued so far is done.
	Wait() error
	// Solution returns x.
	Solution() ([]float64, error)
	// Prepare makes what the engine's SPAC op needs of a schedule (on the GPU:
	// the kernels' arrays, uploaded on a stream of their own). It runs on the
	// partitioner's goroutine, concurrently with Start and Finish; the
	// pending result is used from the solver's goroutine.
	Prepare(s *schedule.Schedule) (Pending, error)
}

// stopPQ is the stop rule on p.Ap, before the update: a breakdown when it
// is not positive or not finite (the matrix is not SPD). kernels/cg.cu's
// dot_pq applies the same rule on the GPU.
func stopPQ(pq float64) Stop {
	if !(pq > 0) || math.IsInf(pq, 0) {
		return Breakdown
	}
	return ""
}

// stopRR is the stop rule on the updated r.r: not finite (an overflow in
// the precision), or converged. kernels/cg.cu's set_rr applies the same
// rule, in the same arithmetic, on the GPU.
func stopRR(rr, bnorm, tol float64) Stop {
	switch {
	case math.IsNaN(rr) || math.IsInf(rr, 0):
		return NonFinite
	case relResidual(rr, bnorm) <= tol:
		return Converged
	}
	return ""
}

// relResidual is ||r|| / ||b|| from r.r (0 when b is 0).
func relResidual(rr, bnorm float64) float64 {
	if bnorm == 0 {
		return 0
	}
	return math.Sqrt(rr) / bnorm
}

// Pending is a schedule on its way to the engine.
type Pending interface {
	// Ready reports without blocking whether Op can be called without waiting.
	Ready() (bool, error)
	// Op waits until the schedule is in place and returns the op running it.
	Op() (Op, error)
	// Discard frees a schedule whose Op was not taken.
	Discard()
	// Release frees a schedule whose Op was taken, once nothing runs the
	// op any more (the solve that took it has ended).
	Release()
}

// ScheduleSource computes the SPAC schedule of the matrix (partition and
// plan, or the cache); it must return soon after ctx is cancelled, except
// from inside a call that cannot be interrupted.
type ScheduleSource func(ctx context.Context) (*schedule.Schedule, error)

// Options say how Solve runs.
type Options struct {
	Tol      float64 // stop when ||r|| / ||b|| <= Tol
	MaxIters int     // stop after this many iterations
	// Ops are the kernels to start with: Ops[0] runs first; with more than
	// one, each runs 1 + Probe iterations and the fastest stays (the first
	// product of an op is not scored).
	Ops []Op
	// Schedule, when set, runs in the background (SPAC-adapt): its op is
	// tried as soon as it is ready and kept if it is faster.
	Schedule ScheduleSource
	// ScheduleDelay holds Schedule back until the first iteration
	// boundary this far into the solve. Starting the partitioner costs the
	// solve's host thread something (a goroutine, a child process), and no
	// schedule is ready sooner than a partition takes (0.15 s and up on
	// the GPU machine): a solve that ends within the delay runs exactly as
	// one without Schedule, and a longer one switches at most the delay
	// (plus an iteration) later.
	ScheduleDelay time.Duration
	Probe         int // scored iterations an op runs before it is compared; 0: DefaultProbe
	// TimeAll times every product. Otherwise an op's products are timed
	// only until it has the 1 + Probe samples the tuner compares (the
	// later ones are counted at its median in SpMVEstimate): the solver needs
	// no times once the tuner has decided, and on the GPU timing costs a
	// few microseconds of host time per iteration.
	TimeAll bool
}

// DefaultProbe is how many scored iterations an op runs before the tuner
// compares it: event-timed products of one kernel vary by a few percent,
// and each probe iteration of a slower kernel costs time.
const DefaultProbe = 2

// Stop says why the solver stopped.
type Stop string

const (
	Converged   Stop = "converged"
	MaxIters    Stop = "max-iterations"
	Breakdown   Stop = "breakdown"
	NonFinite   Stop = "non-finite"
	RepeatsDone Stop = "repeats-done" // Repeat ran every product
)

// Segment is a run of consecutive iterations with one kernel.
type Segment struct {
	Kernel string        `json:"kernel"`
	From   int           `json:"from"` // first iteration (1-based)
	Iters  int           `json:"iterations"`
	Time   time.Duration `json:"time_ns"` // wall time of its iterations
	// SpMV is the measured time of its Timed products (CUDA events on the
	// GPU); SpMV / Timed is the kernel's time per product.
	SpMV  time.Duration `json:"spmv_ns"`
	Timed int           `json:"timed_products"`
}

// Background reports the partitioner of SPAC-adapt.
type Background struct {
	// State: none (no background), ready (its schedule was offered to the
	// tuner), not-started (the solver stopped within Options.ScheduleDelay),
	// cancelled (the solver stopped while it partitioned), late (the
	// solver stopped while it uploaded), error.
	State string `json:"state"`
	// Time is the partitioner's: from its start, after the delay.
	Time time.Duration `json:"time_ns"`
	Err  string        `json:"error,omitempty"`
	// ReadyIter is the iteration after which the schedule was found on the
	// device (0 when it never was).
	ReadyIter int `json:"ready_iteration"`
}

// Result is a solve's outcome and its timings.
type Result struct {
	Iterations int       `json:"iterations"`
	Stop       Stop      `json:"stop"`
	Reason     string    `json:"reason"`
	Residual   float64   `json:"residual"`          // ||r|| / ||b|| of the recursive residual
	History    []float64 `json:"history,omitempty"` // the residual before the first iteration and after each (spac cg: with --history)
	X          []float64 `json:"-"`

	Total time.Duration `json:"total_ns"` // wall time from the start to the answer, the background's end included
	// SpMVTime is the measured time of the SpMVTimed products that were
	// timed (the tuner's, or all with Options.TimeAll): a part of Total.
	SpMVTime  time.Duration `json:"spmv_ns"`
	SpMVTimed int           `json:"timed_products"`
	// SpMVEstimate counts every product, the untimed ones at the median of
	// their kernel's timed products. It is an estimate and on the GPU can
	// exceed Total: a timed product runs alone, after the queue drained,
	// so its events take in the launch gap, while the untimed products run
	// back to back (in CUDA graphs), faster than that median. With
	// Options.TimeAll it equals SpMVTime.
	SpMVEstimate time.Duration `json:"spmv_estimate_ns"`
	Segments     []Segment     `json:"segments"`
	// SwitchIter is the first iteration run with the SPAC kernel (0: none);
	// SPACKept says whether it stayed after its probe.
	SwitchIter int        `json:"switch_iteration"`
	SPACKept   bool       `json:"spac_kept"`
	Background Background `json:"partitioner"`
}

// PerIteration returns the mean wall time of an iteration before the
// switch to the SPAC kernel and from it on (0 where there is none). The
// switch starts a segment: the iteration before it ran another kernel.
func (r *Result) PerIteration() (before, after time.Duration) {
	var sum [2]time.Duration
	var n [2]int
	for _, s := range r.Segments {
		i := 0
		if r.SwitchIter > 0 && s.From >= r.SwitchIter {
			i = 1
		}
		sum[i] += s.Time
		n[i] += s.Iters
	}
	mean := func(i int) time.Duration {
		if n[i] == 0 {
			return 0
		}
		return sum[i] / time.Duration(n[i])
	}
	return mean(0), mean(1)
}

// KernelAt returns the kernel iteration k ran (1-based), or "".
func (r *Result) KernelAt(k int) string {
	for _, s := range r.Segments {
		if k >= s.From && k < s.From+s.Iters {
			return s.Kernel
		}
	}
	return ""
}

func (o *Options) check() error {
	if len(o.Ops) == 0 {
		return errors.New("cg: no SpMV op to start with")
	}
	if !(o.Tol >= 0) || math.IsInf(o.Tol, 0) {
		return fmt.Errorf("cg: tolerance %g: want a finite value >= 0", o.Tol)
	}
	if o.MaxIters < 0 {
		return fmt.Errorf("cg: max iterations %d: want >= 0", o.MaxIters)
	}
	if o.Probe < 0 {
		return fmt.Errorf("cg: probe %d: want >= 0 iterations", o.Probe)
	}
	if o.Probe == 0 {
		o.Probe = DefaultProbe
	}
	return nil
}

// run is the state a solve shares with its loop helpers.
type run struct {
	res   *Result
	tn    *tuner
	bg    *background
	start time.Time
	// The background still to start, at the first iteration boundary
	// Options.ScheduleDelay into the solve: until then a solve runs exactly
	// as one without a background.
	startBG func() *background // nil once started, or without a background
	bgAt    time.Duration      // how far into the solve it starts
}

func newRun(ctx context.Context, eng Engine, o *Options) (*run, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	r := &run{res: &Result{Background: Background{State: "none"}}, tn: newTuner(o.Ops, o.Probe, o.TimeAll), start: time.Now()}
	if o.Schedule != nil {
		src := o.Schedule
		r.startBG = func() *background { return startBackground(ctx, eng, src) }
		r.bgAt = o.ScheduleDelay
		r.startDue()
	}
	return r, nil
}

// iteration records iteration k's op and times (the tuner has its own
// record, which must come before a poll can offer a new op); spmv counts
// when timed.
func (r *run) iteration(k int, op Op, wall, spmv time.Duration, timed bool) {
	res := r.res
	n := len(res.Segments)
	if n == 0 || res.Segments[n-1].Kernel != op.Name() {
		res.Segments = append(res.Segments, Segment{Kernel: op.Name(), From: k})
		n++
	}
	s := &res.Segments[n-1]
	s.Iters++
	s.Time += wall
	if timed {
		s.Timed++
		s.SpMV += spmv
		res.SpMVTime += spmv
		res.SpMVTimed++
	}
	if op.UsesSchedule() && res.SwitchIter == 0 {
		res.SwitchIter = k
	}
}

// poll takes the background's schedule when it is on the device; an error
// there is reported, and the solve goes on with what it has.
func (r *run) poll(k int) {
	if r.bg == nil {
		r.startDue()
		return
	}
	op, err, done := r.bg.poll()
	if !done {
		return
	}
	bgr := &r.res.Background
	bgr.Time = r.bg.elapsed
	if err != nil {
		bgr.State, bgr.Err = "error", err.Error()
		return
	}
	bgr.State, bgr.ReadyIter = "ready", k
	r.tn.offer(op)
}

// startDue starts the pending background once its delay has passed.
func (r *run) startDue() {
	if r.startBG != nil && time.Since(r.start) >= r.bgAt {
		r.bg = r.startBG()
		r.startBG = nil
	}
}

// finish stops the background and fills the totals.
func (r *run) finish() {
	if r.startBG != nil {
		r.res.Background.State = "not-started"
	}
	if r.bg != nil {
		if state, err := r.bg.stop(); state != "" {
			bgr := &r.res.Background
			bgr.State, bgr.Time = state, r.bg.elapsed
			if err != nil {
				bgr.Err = err.Error()
			}
		}
	}
	r.res.Total = time.Since(r.start)
	// The estimate: the untimed products at their kernel's median.
	r.res.SpMVEstimate = r.res.SpMVTime
	for _, s := range r.res.Segments {
		r.res.SpMVEstimate += time.Duration(s.Iters-s.Timed) * r.tn.median(s.Kernel)
	}
	if r.res.SwitchIter > 0 {
		r.res.SPACKept = r.tn.cur.op.UsesSchedule()
	}
}

// Solve runs CG on eng for the right-hand side b. It returns an error only
// when the engine fails or ctx is cancelled; a breakdown or a solve that
// does not converge is a Result with its Stop and Reason.
func Solve(ctx context.Context, eng Engine, b []float64, o Options) (*Result, error) {
	r, err := newRun(ctx, eng, &o)
	if err != nil {
		return nil, err
	}
	defer r.finish()
	res := r.res
	var bb float64
	for _, v := range b {
		bb = math.FMA(v, v, bb)
	}
	if !(bb < math.Inf(1)) {
		return nil, fmt.Errorf("cg: the right-hand side has %s entries", map[bool]string{true: "NaN", false: "infinite"}[math.IsNaN(bb)])
	}
	bnorm := math.Sqrt(bb)
	rr, err := eng.Init(b, bnorm, o.Tol)
	if err != nil {
		return nil, err
	}
	res.Residual = relResidual(rr, bnorm)
	res.History = append(res.History, res.Residual)
	if res.Residual <= o.Tol {
		res.converged(o.Tol)
	} else if err := r.iterate(ctx, eng, bnorm, o); err != nil {
		return nil, err
	}
	if res.X, err = eng.Solution(); err != nil {
		return nil, err
	}
	return res, nil
}

// converged records the stop of a solve whose residual met tol.
func (res *Result) converged(tol float64) {
	res.Stop, res.Reason = Converged, fmt.Sprintf("converged: ||r||/||b|| = %.3g <= %g after %d iterations", res.Residual, tol, res.Iterations)
}

// queued is an iteration started and not finished.
type queued struct {
	k     int
	op    Op
	timed bool
}

// iterate runs the iterations until one stops or MaxIters have run,
// keeping up to eng.Depth() of them queued. The stop rule runs on the
// engine, so the iterations queued after the one that stops change
// nothing. A timed iteration is the last one queued until it finishes, so
// that its sample reaches the tuner before the tuner picks another op (it
// records samples only from timed iterations; the one offer of the
// background comes at a poll, when the timed iterations of the first
// probe have finished, and the probe it starts queues its timed
// iterations after it). An iteration's wall time is the time between its
// Finish and the previous one's.
func (r *run) iterate(ctx context.Context, eng Engine, bnorm float64, o Options) error {
	res := r.res
	depth := max(1, eng.Depth())
	var q []queued
	last := time.Now()
	for next := 1; ; {
		for len(q) < depth && next <= o.MaxIters && (len(q) == 0 || !q[len(q)-1].timed) {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("cg: after %d iterations: %w", res.Iterations, err)
			}
			it := queued{k: next, op: r.tn.op(), timed: r.tn.timed()}
			if err := eng.Start(it.op, it.timed); err != nil {
				return fmt.Errorf("cg: iteration %d (%s): %w", it.k, it.op.Name(), err)
			}
			q = append(q, it)
			next++
		}
		if len(q) == 0 {
			res.Stop, res.Reason = MaxIters, fmt.Sprintf("not converged: %d iterations, the most allowed, left ||r||/||b|| = %.3g > %g", o.MaxIters, res.Residual, o.Tol)
			return nil
		}
		it := q[0]
		q = q[1:]
		st, err := eng.Finish()
		if err != nil {
			return fmt.Errorf("cg: iteration %d (%s): %w", it.k, it.op.Name(), err)
		}
		now := time.Now()
		wall := now.Sub(last)
		last = now
		if it.timed {
			r.tn.record(st.SpMV)
		}
		r.iteration(it.k, it.op, wall, st.SpMV, it.timed)
		switch st.Stop {
		case Breakdown:
			res.Stop = Breakdown
			res.Reason = fmt.Sprintf("breakdown at iteration %d: p.Ap = %.3g <= 0 (or not finite): the matrix is not positive definite, and CG needs an SPD matrix; x is the iterate of iteration %d", it.k, st.PQ, it.k-1)
			return nil
		case NonFinite:
			res.Stop = NonFinite
			res.Reason = fmt.Sprintf("stopped at iteration %d: r.r is %g (an overflow in the chosen precision)", it.k, st.RR)
			return nil
		}
		res.Iterations = it.k
		res.Residual = relResidual(st.RR, bnorm)
		res.History = append(res.History, res.Residual)
		if st.Stop == Converged {
			res.converged(o.Tol)
			return nil
		}
		// The boundary where a new kernel can take over: the next
		// iteration to start.
		r.poll(it.k)
	}
}

// Repeat runs n products q = A p (p = x) with the same kernel choice and
// overlap as Solve: the repeated-SpMV benchmark of SPAC-adapt. Result's
// iterations are the products; it has no residuals. Untimed products are
// queued without waiting (nothing is read back between them), so an
// iteration's wall time is its launch, and the total includes the wait
// for the last one.
func Repeat(ctx context.Context, eng Engine, x []float64, n int, o Options) (*Result, error) {
	o.MaxIters = n
	r, err := newRun(ctx, eng, &o)
	if err != nil {
		return nil, err
	}
	defer r.finish()
	// No stop rule: the products alone run.
	if _, err := eng.Init(x, 0, 0); err != nil {
		return nil, err
	}
	for k := 1; k <= n; k++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cg: after %d products: %w", k-1, err)
		}
		t0 := time.Now()
		op, timed := r.tn.op(), r.tn.timed()
		d, err := eng.Multiply(op, timed)
		if err != nil {
			return nil, fmt.Errorf("cg: product %d (%s): %w", k, op.Name(), err)
		}
		if timed {
			r.tn.record(d)
		}
		r.poll(k)
		r.iteration(k, op, time.Since(t0), d, timed)
		r.res.Iterations = k
	}
	if err := eng.Wait(); err != nil {
		return nil, fmt.Errorf("cg: waiting for the products: %w", err)
	}
	r.res.Stop, r.res.Reason = RepeatsDone, fmt.Sprintf("ran %d products", n)
	return r.res, nil
}

// TrueResidual is ||b - A x|| / ||b|| in float64 with the CSR matrix: the
// residual of the answer, which the recursive one only approximates.
func TrueResidual(m *spmv.Matrix, b, x []float64) (float64, error) {
	if len(b) != m.NRows || len(x) != m.NCols {
		return 0, fmt.Errorf("cg: residual of a %d x %d matrix with len(b) = %d, len(x) = %d", m.NRows, m.NCols, len(b), len(x))
	}
	var rr, bb float64
	for i := range m.NRows {
		s := b[i]
		for j := m.RowPtr[i]; j < m.RowPtr[i+1]; j++ {
			s -= m.Val[j] * x[m.Col[j]]
		}
		rr += s * s
		bb += b[i] * b[i]
	}
	if bb == 0 {
		return math.Sqrt(rr), nil
	}
	return math.Sqrt(rr / bb), nil
}

// Check refuses what cannot be SPD: a matrix that is not square, an entry
// whose mirror differs by more than a few rounding units, a diagonal entry
// that is not positive (or missing). Duplicates add up, as in the products.
func Check(m *spmv.Matrix) error {
	if m.NRows != m.NCols {
		return fmt.Errorf("%s is %d x %d: CG needs a square (symmetric positive definite) matrix", m.Name, m.NRows, m.NCols)
	}
	// The transpose by a counting sort on the column: its rows come out with
	// ascending columns because A's rows are visited in order.
	n := m.NRows
	tptr := make([]int32, n+1)
	for _, c := range m.Col {
		tptr[c+1]++
	}
	for i := range n {
		tptr[i+1] += tptr[i]
	}
	tcol := make([]int32, m.NNZ())
	tval := make([]float64, m.NNZ())
	next := slices.Clone(tptr[:n])
	for e, c := range m.Col {
		tcol[next[c]], tval[next[c]] = m.Row[e], m.Val[e]
		next[c]++
	}
	for i := range n {
		a := mergedRow(m.Col[m.RowPtr[i]:m.RowPtr[i+1]], m.Val[m.RowPtr[i]:m.RowPtr[i+1]])
		t := mergedRow(tcol[tptr[i]:tptr[i+1]], tval[tptr[i]:tptr[i+1]])
		var diag float64
		for len(a) > 0 || len(t) > 0 {
			var x, y entry
			switch {
			case len(t) == 0 || (len(a) > 0 && a[0].col < t[0].col):
				x, a = a[0], a[1:]
				y.col = x.col
			case len(a) == 0 || t[0].col < a[0].col:
				y, t = t[0], t[1:]
				x.col = y.col
			default:
				x, y, a, t = a[0], t[0], a[1:], t[1:]
			}
			if math.Abs(x.val-y.val) > 1e-12*max(math.Abs(x.val), math.Abs(y.val)) {
				return fmt.Errorf("%s is not symmetric: A(%d,%d) = %g but A(%d,%d) = %g: CG needs a symmetric positive definite matrix", m.Name, i+1, x.col+1, x.val, x.col+1, i+1, y.val)
			}
			if int(x.col) == i {
				diag = x.val
			}
		}
		if !(diag > 0) {
			return fmt.Errorf("%s is not positive definite: diagonal entry A(%d,%d) = %g <= 0 (CG needs an SPD matrix)", m.Name, i+1, i+1, diag)
		}
	}
	return nil
}

type entry struct {
	col int32
	val float64
}

// mergedRow adds up the duplicates of a row with ascending columns.
func mergedRow(cols []int32, vals []float64) []entry {
	out := make([]entry, 0, len(cols))
	for j, c := range cols {
		if n := len(out); n > 0 && out[n-1].col == c {
			out[n-1].val += vals[j]
			continue
		}
		out = append(out, entry{c, vals[j]})
	}
	return out
}
