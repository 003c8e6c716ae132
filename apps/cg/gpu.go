package cg

import (
	_ "embed"
	"fmt"
	"time"

	"github.com/spac-gpu/spac/apps/spmv"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/schedule"
)

// cgPTX is kernels/cg.ptx, made from cg.cu by 'make ptx'.
//
//go:embed kernels/cg.ptx
var cgPTX string

// Module holds the solver's vector kernels.
var Module = gpu.PTXModule{Name: "cg", PTX: cgPTX, Entries: []string{
	"cg_final_rr",
	"cg_dot_partial_f32", "cg_init_f32", "cg_dot_pq_f32", "cg_update_f32", "cg_xpay_f32",
	"cg_dot_partial_f64", "cg_init_f64", "cg_dot_pq_f64", "cg_update_f64", "cg_xpay_f64",
}}

// vecThreads is THREADS of cg.cu; maxVecBlocks caps the grid of the vector
// kernels (grid-stride loops), which is also the number of partial sums a
// dot product leaves: 1024 blocks of 256 threads fill an H100.
const (
	vecThreads   = 256
	maxVecBlocks = 1024
)

// The scalars of cg.cu (S): two slots of r.r, p.Ap, ||b||, the tolerance
// and the state, whose codes are cg.cu's CONVERGED, BREAKDOWN, NONFINITE;
// and its mail slots of mailWords words, the post's number last.
const (
	slotPQ    = 2
	slotState = 5
	nScalars  = 6
	mailWords = 8
)

var stateStop = map[float64]Stop{0: "", 1: Converged, 2: Breakdown, 3: NonFinite}

// The GPU engine keeps iterations queued ahead of the host's reads, so
// that the device need not wait for the host to decide after each one.
// Early in a solve it launches them one by one, pipelineDepth at most: one
// more than the iteration running lets the host decide while the device
// computes, a third absorbs the host's hiccups. Once a solve has run
// batchEvery*k iterations it launches them k at a time as a CUDA graph
// (k a power of two from minBatch to maxBatch, two graphs at most in
// flight): the host then makes one launch per k iterations instead of four
// per iteration, which on small matrices is most of an iteration's time,
// and the partitioner running beside the solve has little to slow. The
// iterations queued after the one that stops cost a product each (the
// SpMV kernels do not read the state) and a few launches that return at
// once: batchEvery keeps them under 2/batchEvery of the iterations run.
const (
	pipelineDepth = 3
	minBatch      = 4
	maxBatch      = 16
	batchEvery    = 128
	maxDepth      = 2 * maxBatch
)

// GPUEngine runs the iteration on a GPU: the products with package gpu's
// kernels on the SpMV's own x (which holds p) and y (which holds q), the
// vector operations with kernels/cg.cu.
type GPUEngine struct {
	d          *gpu.Device
	sp         *spmv.SpMV
	m          *spmv.Matrix
	prec       spmv.Precision
	spacKernel spmv.Kernel
	x, r       *gpu.Buffer
	scalars    *gpu.Buffer // S of cg.cu
	words      *gpu.Buffer // W of cg.cu
	partials   *gpu.Buffer
	timer      *gpu.Interval
	mail       *gpu.Mapped // cg.cu's mail: S after each iteration, maxDepth slots
	posts      uint64      // iterations launched since NewGPUEngine: the number of the last post
	mod        *gpu.Module
	grid       int

	dotPQ, dotRR, finalRR *gpu.Launch    // dotRR and finalRR: Init's r.r
	update, xpay          [2]*gpu.Launch // by the slot of r.r before the update
	parity                int            // slot of r.r before the next iteration started
	host                  []float64      // the scalars read back (a slice of its own: cgo forbids passing memory inside a struct holding Go pointers)

	// The iterations started and not finished, the oldest at head of a
	// ring; the first launched of them are on the device, the others wait
	// for a graph's worth.
	depth                  int // maxDepth; tests compare it with 1 and pipelineDepth
	batchEvery             int // batchEvery; tests lower it to run graphs in short solves
	ring                   [maxDepth]started
	head, queued, launched int
	solveLaunched          int // iterations launched since Init
	graphs                 map[graphKey]*gpu.Graph
	noGraph                map[Op]error // ops whose capture failed: they run launch by launch
	graphLaunches          int          // since NewGPUEngine (tests check that graphs ran)
}

// started is an iteration Start queued.
type started struct {
	op     Op
	timed  bool
	parity int // the r.r slot before its update
}

// graphKey names a graph: k iterations of op from r.r slot parity.
type graphKey struct {
	op        Op
	k, parity int
}

// NewGPUEngine uploads m in precision p and prepares the kernels; SPAC
// schedules will run with spacKernel.
func NewGPUEngine(d *gpu.Device, m *spmv.Matrix, p spmv.Precision, spacKernel spmv.Kernel) (_ *GPUEngine, err error) {
	if !spacKernel.UsesSchedule() {
		return nil, fmt.Errorf("cg: %s is not a SPAC kernel", spacKernel)
	}
	if m.NRows != m.NCols {
		return nil, fmt.Errorf("cg: %s is %d x %d, not square", m.Name, m.NRows, m.NCols)
	}
	e := &GPUEngine{d: d, m: m, prec: p, spacKernel: spacKernel, host: make([]float64, nScalars), depth: maxDepth,
		batchEvery: batchEvery, graphs: map[graphKey]*gpu.Graph{}, noGraph: map[Op]error{}}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	if e.mod, err = d.LoadModule(Module); err != nil {
		return nil, err
	}
	if e.sp, err = spmv.NewSpMV(d, m, p); err != nil {
		return nil, err
	}
	n, w := m.NRows, int64(p.Bytes())
	e.grid = min((n+vecThreads-1)/vecThreads, maxVecBlocks)
	if e.x, err = d.Alloc(int64(n)*w, "x"); err != nil {
		return nil, err
	}
	if e.r, err = d.Alloc(int64(n)*w, "r"); err != nil {
		return nil, err
	}
	if e.scalars, err = d.Alloc(nScalars*8, "the CG scalars"); err != nil {
		return nil, err
	}
	if e.words, err = d.Alloc(3*8, "the CG words"); err != nil {
		return nil, err
	}
	if err = e.words.Zero(); err != nil {
		return nil, err
	}
	if e.mail, err = d.NewMapped(maxDepth * mailWords); err != nil {
		return nil, err
	}
	if e.partials, err = d.Alloc(int64(max(e.grid, 1))*8, "partial sums"); err != nil {
		return nil, err
	}
	if e.timer, err = d.NewInterval(); err != nil {
		return nil, err
	}
	pv, qv := e.sp.VectorArgs()
	S := gpu.Ptr(e.scalars)
	suffix := kernelSuffix(p)
	launch := func(name string, grid int, args ...uint64) *gpu.Launch {
		if err != nil {
			return nil
		}
		var l *gpu.Launch
		l, err = e.mod.Launch(name, grid, vecThreads, 0, args...)
		return l
	}
	N, P, W := gpu.Int(n), gpu.Ptr(e.partials), gpu.Ptr(e.words)
	e.dotPQ = launch("cg_dot_pq"+suffix, e.grid, N, S, pv, qv, P, W)
	e.dotRR = launch("cg_dot_partial"+suffix, e.grid, N, gpu.Ptr(e.r), gpu.Ptr(e.r), P)
	e.finalRR = launch("cg_final_rr", 1, gpu.Int(e.grid), P, S, gpu.Int(0))
	for s := range 2 {
		e.update[s] = launch("cg_update"+suffix, e.grid, N, S, gpu.Int(s), gpu.Ptr(e.x), gpu.Ptr(e.r), pv, qv, P, W, e.mail.Arg(), gpu.Int(maxDepth))
		e.xpay[s] = launch("cg_xpay"+suffix, e.grid, N, S, gpu.Int(s), gpu.Int(1-s), gpu.Ptr(e.r), pv)
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// kernelSuffix ends the names of the vector kernels of precision p.
func kernelSuffix(p spmv.Precision) string { return "_" + p.Suffix() }

// gpuOp is a prepared product.
type gpuOp struct{ op *spmv.Op }

func (o gpuOp) Name() string       { return string(o.op.Kernel) }
func (o gpuOp) UsesSchedule() bool { return o.op.Kernel.UsesSchedule() }

// Op prepares a kernel that needs no schedule (CSR, COO, cuSPARSE) with
// blockSize threads per block.
func (e *GPUEngine) Op(k spmv.Kernel, blockSize int) (Op, error) {
	if k.UsesSchedule() {
		return nil, fmt.Errorf("cg: %s runs a schedule: it comes from Prepare", k)
	}
	op, err := e.sp.Op(k, blockSize, nil)
	if err != nil {
		return nil, err
	}
	return gpuOp{op}, nil
}

func (e *GPUEngine) Init(b []float64, bnorm, tol float64) (float64, error) {
	if len(b) != e.m.NRows {
		return 0, fmt.Errorf("cg: b has %d entries, the matrix %d rows", len(b), e.m.NRows)
	}
	// b and the stop rule are needed only by what Init queues; the
	// read-back below waits for that, before the deferred frees.
	db, err := spmv.UploadValues(e.d, b, e.prec, "b")
	if err != nil {
		return 0, err
	}
	defer db.Free()
	s0 := make([]float64, nScalars)
	s0[3], s0[4] = bnorm, tol
	rule, err := gpu.Upload(e.d, s0, "the stop rule")
	if err != nil {
		return 0, err
	}
	defer rule.Free()
	if err := e.scalars.CopyFrom(rule); err != nil {
		return 0, err
	}
	pv, _ := e.sp.VectorArgs()
	initL, err := e.mod.Launch("cg_init"+kernelSuffix(e.prec), e.grid, vecThreads, 0, gpu.Int(e.m.NRows), gpu.Ptr(db), gpu.Ptr(e.x), gpu.Ptr(e.r), pv)
	if err != nil {
		return 0, err
	}
	for _, l := range []*gpu.Launch{initL, e.dotRR, e.finalRR} {
		if err := l.Run(); err != nil {
			return 0, err
		}
	}
	// Iterations left unlaunched by the last solve are dropped; those it
	// launched have posted (the read-back below waits for them).
	e.parity, e.head, e.queued, e.launched, e.solveLaunched = 0, 0, 0, 0, 0
	if err := gpu.ReadBack(e.scalars, e.host, "the CG scalars"); err != nil {
		return 0, err
	}
	return e.host[0], nil
}

// Depth is how many iterations the solver may start ahead of its reads.
func (e *GPUEngine) Depth() int { return e.depth }

// product enqueues q = A p, between the timer's events when timed.
func (e *GPUEngine) product(op Op, timed bool) error {
	o, ok := op.(gpuOp)
	if !ok {
		return fmt.Errorf("cg: the GPU engine cannot run %s", op.Name())
	}
	if !timed {
		return e.sp.Run(o.op)
	}
	if err := e.timer.Start(); err != nil {
		return err
	}
	if err := e.sp.Run(o.op); err != nil {
		return err
	}
	return e.timer.Stop()
}

// iteration enqueues an iteration's kernels from r.r slot parity; they
// post its scalars.
func (e *GPUEngine) iteration(op Op, timed bool, parity int) error {
	if err := e.product(op, timed); err != nil {
		return err
	}
	for _, l := range []*gpu.Launch{e.dotPQ, e.update[parity], e.xpay[parity]} {
		if err := l.Run(); err != nil {
			return err
		}
	}
	return nil
}

// Start queues an iteration: it is launched now or with the next graph.
func (e *GPUEngine) Start(op Op, timed bool) error {
	if e.queued == e.depth {
		return fmt.Errorf("cg: %d iterations already queued", e.queued)
	}
	if _, ok := op.(gpuOp); !ok {
		return fmt.Errorf("cg: the GPU engine cannot run %s", op.Name())
	}
	e.ring[(e.head+e.queued)%e.depth] = started{op: op, timed: timed, parity: e.parity}
	e.queued++
	e.parity = 1 - e.parity
	return e.pump()
}

// batch is the iterations per graph at this point of the solve (0: one by
// one).
func (e *GPUEngine) batch() int {
	k := 0
	for c := minBatch; c <= maxBatch && 2*c <= e.depth && e.solveLaunched >= e.batchEvery*c; c *= 2 {
		k = c
	}
	return k
}

// pump launches the started iterations that are due: a graph of k when k
// untimed ones of one op wait and at most k run, otherwise one at a time
// while fewer than pipelineDepth run (a timed one always alone).
func (e *GPUEngine) pump() error {
	for e.launched < e.queued {
		first := e.ring[(e.head+e.launched)%e.depth]
		if k := e.batch(); k > 0 && e.launched <= k && e.queued-e.launched >= k && e.uniform(k) {
			if g := e.graph(first.op, k, first.parity); g != nil {
				if err := g.Launch(); err != nil {
					return err
				}
				e.graphLaunches++
				e.launchedN(k)
				continue
			}
		}
		if e.launched >= pipelineDepth {
			return nil
		}
		if err := e.iteration(first.op, first.timed, first.parity); err != nil {
			return err
		}
		e.launchedN(1)
	}
	return nil
}

func (e *GPUEngine) launchedN(n int) {
	e.launched += n
	e.solveLaunched += n
	e.posts += uint64(n)
}

// uniform reports whether the next k iterations to launch are untimed and
// of one op.
func (e *GPUEngine) uniform(k int) bool {
	first := e.ring[(e.head+e.launched)%e.depth]
	for j := range k {
		it := e.ring[(e.head+e.launched+j)%e.depth]
		if it.timed || it.op != first.op {
			return false
		}
	}
	return true
}

// graph returns the graph of k iterations of op from r.r slot parity,
// capturing it the first time; nil where op cannot be captured (it then
// runs launch by launch: a graph only saves the host's time).
func (e *GPUEngine) graph(op Op, k, parity int) *gpu.Graph {
	key := graphKey{op, k, parity}
	if g, ok := e.graphs[key]; ok {
		return g
	}
	if _, failed := e.noGraph[op]; failed {
		return nil
	}
	g, err := e.d.Capture(func() error {
		for j := range k {
			if err := e.iteration(op, false, parity^(j&1)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		e.noGraph[op] = err
		return nil
	}
	e.graphs[key] = g
	return g
}

// dropGraphs frees op's graphs (its schedule is about to be freed).
func (e *GPUEngine) dropGraphs(op Op) {
	for key, g := range e.graphs {
		if key.op == op {
			g.Close()
			delete(e.graphs, key)
		}
	}
	delete(e.noGraph, op)
}

// Finish waits for the post of the oldest queued iteration.
func (e *GPUEngine) Finish() (StepResult, error) {
	if e.queued == 0 {
		return StepResult{}, fmt.Errorf("cg: Finish without a queued iteration")
	}
	seq := e.posts - uint64(e.launched) + 1
	slot := int(seq%maxDepth) * mailWords
	it := e.ring[e.head]
	e.head, e.queued, e.launched = (e.head+1)%e.depth, e.queued-1, e.launched-1
	if err := e.mail.Await(slot+mailWords-1, seq); err != nil {
		return StepResult{}, err
	}
	if err := e.mail.Float64s(slot, e.host); err != nil {
		return StepResult{}, err
	}
	stop, ok := stateStop[e.host[slotState]]
	if !ok {
		return StepResult{}, fmt.Errorf("cg: the device's solver state is %g, not one of cg.cu's", e.host[slotState])
	}
	st := StepResult{PQ: e.host[slotPQ], RR: e.host[1-it.parity], Stop: stop}
	if it.timed {
		var err error
		if st.SpMV, err = e.timer.Elapsed(); err != nil {
			return StepResult{}, err
		}
	}
	// The device is one iteration further from the host: launch what is due.
	return st, e.pump()
}

func (e *GPUEngine) Multiply(op Op, timed bool) (time.Duration, error) {
	if timed {
		// The timed product follows an untimed one (the same q = A p), so
		// that the GPU runs it back to back, as it runs the untimed
		// products, which are queued without waiting: its events then time
		// the kernel and not the host's launch, which an idle GPU waits for.
		if err := e.product(op, false); err != nil {
			return 0, err
		}
	}
	if err := e.product(op, timed); err != nil {
		return 0, err
	}
	if !timed {
		return 0, nil
	}
	return e.timer.Elapsed()
}

// Wait reads the scalars back: a read-back waits for the work queued on
// the default stream (and not for a schedule's upload on its own).
func (e *GPUEngine) Wait() error {
	return gpu.ReadBack(e.scalars, e.host, "the CG scalars")
}

func (e *GPUEngine) Solution() ([]float64, error) {
	if e.prec == spmv.FP64 {
		out := make([]float64, e.m.NCols)
		return out, gpu.Download(e.x, out, "x")
	}
	f := make([]float32, e.m.NCols)
	if err := gpu.Download(e.x, f, "x"); err != nil {
		return nil, err
	}
	return widen(f), nil
}

// Product returns q, the last product (tests compare kernels with it).
func (e *GPUEngine) Product() ([]float64, error) { return e.sp.Y() }

// Prepare converts the schedule and uploads it on a stream of its own
// (spmv.SpMV.UploadAsync); it runs on the partitioner's goroutine.
func (e *GPUEngine) Prepare(s *schedule.Schedule) (Pending, error) {
	a, err := spmv.NewScheduleArrays(s, "spac")
	if err != nil {
		return nil, err
	}
	ps, err := e.sp.UploadAsync(a)
	if err != nil {
		return nil, err
	}
	return &gpuPending{e: e, ps: ps}, nil
}

type gpuPending struct {
	e  *GPUEngine
	ps *spmv.PendingSchedule
	ds *spmv.DeviceSchedule // once adopted
	op Op                   // made on ds
}

func (p *gpuPending) Ready() (bool, error) { return p.ps.Ready() }
func (p *gpuPending) Discard()             { p.ps.Discard() }

// Release frees the adopted schedule and the ops made on it: a process
// that solves many times (spac cg --runs) would otherwise keep every run's
// schedule on the device until the engine closes.
func (p *gpuPending) Release() {
	if p.op != nil {
		p.e.dropGraphs(p.op)
		p.op = nil
	}
	if p.ds != nil {
		// A failure here leaves the schedule to Close; the solve is done.
		_ = p.e.sp.Drop(p.ds)
		p.ds = nil
	}
}

// Op adopts the schedule and prepares the SPAC kernel on it. A kernel that
// stages x in shared memory falls back to its read-only variant where the
// schedule's x does not fit (the plan applied the read-only policy).
func (p *gpuPending) Op() (Op, error) {
	ds, err := p.ps.Adopt()
	if err != nil {
		return nil, err
	}
	p.ds = ds
	k := p.e.spacKernel
	if !ds.Arrays().XStaged {
		k = k.ReadOnlyVariant()
	}
	op, err := p.e.sp.Op(k, 0, ds)
	if err != nil {
		return nil, err
	}
	p.op = gpuOp{op}
	return p.op, nil
}

// Close frees the device memory.
func (e *GPUEngine) Close() error {
	for _, g := range e.graphs {
		g.Close()
	}
	if e.mail != nil {
		e.mail.Close()
	}
	for _, b := range []*gpu.Buffer{e.x, e.r, e.scalars, e.words, e.partials} {
		b.Free()
	}
	if e.timer != nil {
		e.timer.Close()
	}
	if e.sp != nil {
		return e.sp.Close()
	}
	return nil
}
