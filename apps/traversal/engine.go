package traversal

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/schedule"
)

// traversalPTX is kernels/traversal.ptx, made from traversal.cu by 'make ptx'.
//
//go:embed kernels/traversal.ptx
var traversalPTX string

// ops are the operator instances of traversal.cu: BFS with and without
// culling, BFS without the recheck of the depth (bfsd), SSSP, SSSP
// near-far.
var ops = []string{"bfs", "bfs_nc", "bfsd", "sssp", "ssspnf"}

// policies are the kernel templates instantiated for every operator.
var policies = []string{"persist", "thread", "topo", "edge", "edgechunk", "lb", "twc", "ns", "hp", "flags"}

// Module holds the traversal kernels.
var Module = gpu.PTXModule{Name: "traversal", PTX: traversalPTX, Entries: moduleEntries()}

func moduleEntries() []string {
	out := []string{"lb_degrees_k", "lb_partition", "pull_bfs", "nf_refill", "lh_degrees", "lh_switch", "coo_sources", "init", "init_racy", "post", "tp1_sssp", "tp2_sssp", "tp1_sssp_racy", "tp2_sssp_racy"}
	for _, p := range policies {
		for _, o := range ops {
			out = append(out, p+"_"+o)
		}
	}
	return out
}

// The constants of traversal.cu: THREADS, LBTILE, the control block's
// words and the mail's slots.
const (
	threads     = 256
	lbTile      = threads * 4
	cCap        = 4
	cTiles      = 6
	ctlWords    = 160
	mailSlots   = 4
	mailWords   = 4
	edgeChunk   = 8
	wdBelow     = 1024
	gridPerSM   = 8
	pullDivisor = 24
	defaultK    = 16
	// firstGraphLevels bounds the first graph of a search (Engine.run).
	firstGraphLevels = 8
	twcWarp          = 32
	twcCTA           = 512
	maxLevelsK       = 1024
)

// ErrNotApplicable is what a strategy answers for a graph it cannot run
// on: the pull of direction-optimizing BFS on a directed graph built
// without its in-arcs (graph.Options.Transpose).
var ErrNotApplicable = errors.New("traversal: the strategy needs the graph's in-arcs (build it with Transpose)")

// Options tune an Engine; the zero value takes the defaults.
type Options struct {
	// LevelsPerGraph is how many levels one captured CUDA graph runs
	// (default 16); after a first graph of at most 8 levels, the host
	// keeps two graphs queued ahead of the posts it reads, so it never
	// waits for a level.
	LevelsPerGraph int
	// TWCWarp and TWCBlock are TWC's thresholds (32 and 512): a vertex of
	// at least TWCBlock arcs is expanded by a block, of at least TWCWarp by
	// a warp.
	TWCWarp, TWCBlock int
	// MDT is node splitting's and hierarchical processing's threshold
	// (0: from the degree histogram, MDT with MDTBins bins).
	MDT int
	// Delta is the threshold step of near-far and delta-stepping SSSP,
	// and delta-stepping's light/heavy bound (0: each its default, x the
	// mean arc weight / the mean degree: near-far 32, Davidson et al.'s
	// rule of thumb; delta-stepping deltaSteppingFactor).
	Delta float32
	// PullDivisor: direction-optimizing BFS pulls while the frontier
	// holds at least n/PullDivisor vertices (default 24, Beamer's beta).
	PullDivisor int
	// Alpha and Beta are do-beamer's rule (Beamer et al.): after a
	// top-down level it pulls when the frontier's out-arcs exceed the
	// undiscovered vertices' out-arcs / Alpha (default 15); after a
	// bottom-up level it pushes again once the frontier holds fewer than
	// n / Beta vertices (default 18).
	Alpha, Beta float64
	// OneBlockArcs: a search decided on the device (BFSAdaptive) runs a
	// queued frontier of at most 2048 vertices and OneBlockArcs out-arcs
	// in one block, level after level, while the rest of the grid waits
	// (default 4096; negative: never). A level of the whole grid costs
	// about 10 us whatever its size, which is all a road graph's
	// thousands of small levels cost.
	OneBlockArcs int
	// PersistentAfter: from this level on, a search decided on the device
	// hands a queued frontier too large for the one block, on a graph of
	// at most 32 out-arcs a vertex, and every level after it to the
	// persistent strategy's kernel, whose levels cost about half a level
	// of the device-decided grid (default 32; negative: never): a large
	// road grid or 3-D mesh, thousands of levels of thousands of vertices.
	PersistentAfter int
	// OwnKernelArcs: a search decided on the device runs a heavy level in
	// a kernel of its own (ad_heavy), at twice the occupancy of the
	// device-decided kernel, whose registers its other bodies need: a
	// vertex-pull level with at least this many unexplored arcs (a scan of
	// every unvisited vertex's in-arcs) or the big vertices' arcs of a
	// do-beamer push whose frontier has this many out-arcs (a Kronecker
	// graph's hubs) (default 1<<23; negative: never).
	OwnKernelArcs int64
	// BlocksPerSM sizes the grids: at most this many blocks of 256
	// threads per multiprocessor (default 8), grid-stride beyond.
	BlocksPerSM int
	// WDBelow is the frontier size below which hierarchical processing
	// runs workload decomposition alone (default 1024).
	WDBelow int
	// Schedule is spac-schedule's schedule of the graph's adjacency
	// (AdjacencyMatrix; BuildSchedule makes one); nil: built on first use
	// with ScheduleBlock arcs per block (default 1024, at most 1024),
	// cached in ScheduleCache when it is set.
	Schedule      *schedule.Schedule
	ScheduleBlock int
	ScheduleCache *schedule.Cache
}

// Result is one traversal, in package ref's layout: BFS fills Parent and
// Depth (-1 unreached; the root its own parent at depth 0), SSSP Dist
// (+Inf unreached) and Pred (-1 unreached, the root its own).
type Result struct {
	Algorithm Algorithm
	Strategy  Strategy
	Root      int32
	Parent    []int32
	Depth     []int32
	Dist      []float32
	Pred      []int32
	// Time is the traversal on the device between CUDA events (the
	// initialization of the arrays excluded, the empty levels of the last
	// graph included).
	Time time.Duration
	// Levels is the number of non-empty frontiers processed (BFS: the
	// deepest level plus one; SSSP: the rounds).
	Levels int
	// Inspected is the number of arcs the kernels relaxed or visited.
	Inspected int64
}

// Engine runs BFS and SSSP on one graph uploaded to one device. Its
// methods must not be called concurrently.
type Engine struct {
	d    *gpu.Device
	mod  *gpu.Module
	g    *graph.Graph
	opt  Options
	n, m int64
	qcap int
	tcap int // LB's tile starts
	sms  int

	off, adj, w, src    *gpu.Buffer
	depth, parent, mark *gpu.Buffer
	dp, dp2             *gpu.Buffer
	q0, q1, deg, flags  *gpu.Buffer
	scan, total, ctl    *gpu.Buffer
	tstart              *gpu.Buffer
	pstart, powner      *gpu.Buffer
	ioff, iadj          *gpu.Buffer // in-arcs: off and adj on an undirected graph
	piles               *gpu.Buffer // near-far: two far piles and their stamps
	lhAdj, lhW, lhSplit *gpu.Buffer // delta-stepping: arcs sorted by weight, each vertex's first heavy arc
	lhList              *gpu.Buffer // delta-stepping: the bucket list and its stamps
	npieces             int
	prims               *gpu.Prims
	mail                *gpu.Mapped
	timer               *gpu.Interval
	posts               uint64 // graphs launched since Open: each posts once
	graphs              map[planKey]*gpu.Graph
	sp                  *spacState  // spac-schedule's arrays (spac.go)
	ad                  *adaptState // the adaptive module, its ring and the sweep's copies (paper.go)
	bufs                []*gpu.Buffer
}

type planKey struct {
	a    Algorithm
	s    Strategy
	k    int
	mode planMode // counted.go: the counter steps (0: none, plan's graphs)
}

// Open uploads g (CSR, weights when it has them) to d and prepares the
// kernels. Without CUDA it returns gpu.ErrNoCUDA.
func Open(d *gpu.Device, g *graph.Graph) (*Engine, error) { return OpenWith(d, g, Options{}) }

// OpenWith is Open with options.
func OpenWith(d *gpu.Device, g *graph.Graph, opt Options) (_ *Engine, err error) {
	if !gpu.Built {
		return nil, gpu.ErrNoCUDA
	}
	if d == nil {
		return nil, errors.New("traversal: no device")
	}
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := opt.fill(g); err != nil {
		return nil, err
	}
	n, m := int64(g.NumVertices), g.NumArcs()
	e := &Engine{d: d, g: g, opt: opt, n: n, m: m, sms: max(d.Info().SMs, 1), graphs: map[planKey]*gpu.Graph{}}
	// BFS without culling may push a vertex more than once: its queues
	// hold an arc each at most.
	e.qcap = int(max(n, m, 1))
	if e.qcap > math.MaxInt32-1 {
		return nil, fmt.Errorf("traversal: %s has %d arcs: the frontier queues count in int32", g.Name, m)
	}
	defer func() {
		if err != nil {
			e.Close()
		}
	}()
	if e.mod, err = d.LoadModule(Module); err != nil {
		return nil, err
	}
	steps := []func() error{
		func() error { return upload(e, &e.off, nonEmpty(g.Offsets), "the CSR offsets") },
		func() error { return upload(e, &e.adj, nonEmpty(g.Adj), "the CSR targets") },
		func() error {
			if g.Weight == nil {
				return nil
			}
			return upload(e, &e.w, nonEmpty(g.Weight), "the arc weights")
		},
		func() error { return e.alloc(&e.depth, 4*n, "the depths") },
		func() error { return e.alloc(&e.parent, 4*n, "the parents") },
		func() error { return e.alloc(&e.mark, 4*n, "the frontier stamps") },
		func() error { return e.alloc(&e.dp, 8*n, "the distances and predecessors") },
		func() error { return e.alloc(&e.q0, 4*int64(e.qcap), "frontier queue 0") },
		func() error { return e.alloc(&e.q1, 4*int64(e.qcap), "frontier queue 1") },
		func() error { return e.alloc(&e.ctl, 4*ctlWords, "the control block") },
		func() error { return e.alloc(&e.total, 8, "the frontier's edge count") },
	}
	for _, s := range steps {
		if err = s(); err != nil {
			return nil, err
		}
	}
	ctl := make([]int32, ctlWords)
	ctl[cCap] = int32(e.qcap)
	e.tcap = int(min(m/lbTile+2, math.MaxInt32))
	ctl[cTiles] = int32(e.tcap)
	if err = gpu.Write(e.ctl, ctl, "the control block"); err != nil {
		return nil, err
	}
	if e.mail, err = d.NewMapped(mailSlots * mailWords); err != nil {
		return nil, err
	}
	if e.timer, err = d.NewInterval(); err != nil {
		return nil, err
	}
	return e, nil
}

// nonEmpty keeps a zero-length upload legal.
func nonEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return make([]T, 1)
	}
	return s
}

// checkGraph refuses graphs the kernels cannot index.
func checkGraph(g *graph.Graph) error {
	if g == nil {
		return errors.New("traversal: no graph")
	}
	if len(g.Offsets) != g.NumVertices+1 || int64(len(g.Adj)) != g.Offsets[g.NumVertices] {
		return fmt.Errorf("traversal: %s: %d offsets and %d targets for %d vertices", g.Name, len(g.Offsets), len(g.Adj), g.NumVertices)
	}
	if g.Weight != nil && len(g.Weight) != len(g.Adj) {
		return fmt.Errorf("traversal: %s: %d weights for %d arcs", g.Name, len(g.Weight), len(g.Adj))
	}
	return nil
}

// fill applies the defaults and checks the options.
func (o *Options) fill(g *graph.Graph) error {
	if o.LevelsPerGraph == 0 {
		o.LevelsPerGraph = defaultK
	}
	if o.TWCWarp == 0 {
		o.TWCWarp = twcWarp
	}
	if o.TWCBlock == 0 {
		o.TWCBlock = twcCTA
	}
	if o.WDBelow == 0 {
		o.WDBelow = wdBelow
	}
	if o.PullDivisor == 0 {
		o.PullDivisor = pullDivisor
	}
	if o.BlocksPerSM == 0 {
		o.BlocksPerSM = gridPerSM
	}
	if o.Alpha == 0 {
		o.Alpha = beamerAlpha
	}
	if o.Beta == 0 {
		o.Beta = beamerBeta
	}
	if o.OneBlockArcs == 0 {
		o.OneBlockArcs = oneBlockArcs
	}
	if o.PersistentAfter == 0 {
		o.PersistentAfter = persistentAfter
	}
	if o.OwnKernelArcs == 0 {
		o.OwnKernelArcs = ownKernelArcs
	}
	switch {
	case o.LevelsPerGraph < 1 || o.LevelsPerGraph > maxLevelsK:
		return fmt.Errorf("traversal: %d levels per graph: want 1 to %d", o.LevelsPerGraph, maxLevelsK)
	case o.TWCWarp < 1 || o.TWCBlock < o.TWCWarp:
		return fmt.Errorf("traversal: TWC thresholds %d and %d: want 1 <= warp <= block", o.TWCWarp, o.TWCBlock)
	case o.Delta < 0 || math.IsNaN(float64(o.Delta)) || math.IsInf(float64(o.Delta), 0):
		return fmt.Errorf("traversal: near-far step %v", o.Delta)
	case o.PullDivisor < 1:
		return fmt.Errorf("traversal: pull divisor %d", o.PullDivisor)
	case !(o.Alpha > 0) || o.Alpha > math.MaxFloat32 || !(o.Beta > 0) || o.Beta > math.MaxFloat32:
		return fmt.Errorf("traversal: do-beamer's alpha %v and beta %v: want positive numbers", o.Alpha, o.Beta)
	case o.BlocksPerSM < 1 || o.BlocksPerSM > 32:
		return fmt.Errorf("traversal: %d blocks per multiprocessor: want 1 to 32", o.BlocksPerSM)
	case o.WDBelow < 1:
		return fmt.Errorf("traversal: workload decomposition below %d entries", o.WDBelow)
	case o.MDT < 0:
		return fmt.Errorf("traversal: split threshold %d", o.MDT)
	case o.ScheduleBlock < 0 || o.ScheduleBlock > 1024:
		return fmt.Errorf("traversal: schedule block size %d: want 1 to 1024", o.ScheduleBlock)
	}
	if o.MDT == 0 {
		mdt, err := MDT(g, MDTBins)
		if err != nil {
			return err
		}
		o.MDT = mdt
	}
	return nil
}

// deltaSteppingFactor x the mean weight / the mean degree is
// delta-stepping's default Delta. The light arcs are relaxed once per time
// their source re-enters a bucket's frontier, the heavy ones once: a
// smaller Delta re-relaxes fewer arcs but takes more levels, each of which
// costs launches and a pass over the far pile. Kronecker scale 22 with
// uniform weights in (0,1] (mean weight / mean degree 1/64) on the H100:
// factor 1 (Delta 1/64) 37.8 ms, 2: 25.5, 4: 19.2, 8: 17.0, 16: 17.6.
const deltaSteppingFactor = 8

// delta is strategy s's Delta: the option, else s's default.
func (e *Engine) delta(s Strategy) float32 {
	if e.opt.Delta > 0 {
		return e.opt.Delta
	}
	if s == DeltaStepping {
		return meanWeightPerDegree(e.g, deltaSteppingFactor)
	}
	return meanWeightPerDegree(e.g, 32)
}

// meanWeightPerDegree is factor x the mean weight / the mean degree (1
// without weights or arcs), at least the smallest normal float32.
func meanWeightPerDegree(g *graph.Graph, factor float64) float32 {
	if len(g.Weight) == 0 || g.NumVertices == 0 {
		return 1
	}
	sum := 0.0
	for _, w := range g.Weight {
		sum += float64(w)
	}
	meanDeg := float64(len(g.Weight)) / float64(g.NumVertices)
	return float32(max(factor*sum/float64(len(g.Weight))/meanDeg, 0x1p-126))
}

// MDT is the split threshold node splitting and hierarchical processing use.
func (e *Engine) MDT() int { return e.opt.MDT }

// Close frees the device memory.
func (e *Engine) Close() {
	if e == nil {
		return
	}
	for _, g := range e.graphs {
		g.Close()
	}
	e.graphs = nil
	e.ad.close()
	if e.prims != nil {
		e.prims.Close()
	}
	if e.mail != nil {
		e.mail.Close()
	}
	if e.timer != nil {
		e.timer.Close()
	}
	for _, b := range e.bufs {
		b.Free()
	}
	e.bufs = nil
}

// BFS runs a breadth-first search from root with strategy s.
func (e *Engine) BFS(ctx context.Context, root int32, s Strategy) (*Result, error) {
	r, _, err := e.run(ctx, BFS, root, s, false)
	return r, err
}

// SSSP runs single-source shortest paths from root with strategy s; the
// graph must be weighted.
func (e *Engine) SSSP(ctx context.Context, root int32, s Strategy) (*Result, error) {
	r, _, err := e.run(ctx, SSSP, root, s, false)
	return r, err
}

func (e *Engine) grid(work int64) int {
	return int(max(1, min((work+threads-1)/threads, int64(e.opt.BlocksPerSM*e.sms))))
}

func (e *Engine) alloc(b **gpu.Buffer, bytes int64, what string) error {
	if *b != nil {
		return nil
	}
	var err error
	if *b, err = e.d.Alloc(max(bytes, 8), what); err == nil {
		e.bufs = append(e.bufs, *b)
	}
	return err
}

// upload copies s to a new buffer *p that the engine frees.
func upload[T any](e *Engine, p **gpu.Buffer, s []T, what string) error {
	b, err := gpu.Upload(e.d, s, what)
	if err != nil {
		return err
	}
	*p = b
	e.bufs = append(e.bufs, b)
	return nil
}

// needCOO makes the COO sources on the device (once).
func (e *Engine) needCOO() error {
	if e.src != nil {
		return nil
	}
	if err := e.alloc(&e.src, 4*e.m, "the COO sources"); err != nil {
		return err
	}
	l, err := e.mod.Launch("coo_sources", e.grid(e.n), threads, 0, gpu.Ptr(e.off), gpu.Int(int(e.n)), gpu.Ptr(e.src))
	if err != nil {
		return err
	}
	return l.Run()
}

func (e *Engine) needPrims() error {
	if e.prims != nil {
		return nil
	}
	var err error
	e.prims, err = e.d.NewPrims(e.qcap)
	return err
}

// needInArcs uploads the in-arcs of a directed graph (once); an
// undirected graph's are its out-arcs.
func (e *Engine) needInArcs() error {
	if e.ioff != nil {
		return nil
	}
	g := e.g
	if !g.Directed {
		e.ioff, e.iadj = e.off, e.adj
		return nil
	}
	if g.InOffsets == nil {
		return ErrNotApplicable
	}
	if err := upload(e, &e.ioff, g.InOffsets, "the in-arc offsets"); err != nil {
		return err
	}
	return upload(e, &e.iadj, nonEmpty(g.InAdj), "the in-arc sources")
}

// needPieces uploads node splitting's pieces (once).
func (e *Engine) needPieces() error {
	if e.pstart != nil {
		return nil
	}
	start, owner, err := pieces(e.g, e.opt.MDT)
	if err != nil {
		return err
	}
	e.npieces = len(owner)
	if err := upload(e, &e.pstart, start, "the pieces' starts"); err != nil {
		return err
	}
	return upload(e, &e.powner, nonEmpty(owner), "the pieces' owners")
}

// level returns the work of one level of strategy s for algorithm a: the
// launches, in order, whose last closes the level.
func (e *Engine) level(a Algorithm, s Strategy) ([]func() error, error) {
	if s == SpacSchedule {
		return e.spacLevel(a)
	}
	if s.Paper() || s == DOBeamer {
		return e.paperLevel(s, false)
	}
	if s == onDevice {
		return e.adPersist()
	}
	op := "bfs"
	s1, s2 := gpu.Ptr(e.depth), gpu.Ptr(e.parent)
	switch {
	case a == SSSP:
		op, s1, s2 = "sssp", gpu.Ptr(e.dp), 0
	case s == LB:
		op = "bfs_nc"
	case s == Thread || s == Topo || s == TWC || s == Persistent || s == PersistentTWC || s == Pull || s == ScanBFS:
		op = "bfsd" // a thread walks a vertex's arcs in turn: no recheck (BfsOp)
	}
	switch s {
	case Edge, EdgeChunk:
		if err := e.needCOO(); err != nil {
			return nil, err
		}
	case LB, LBCull, Hierarchical, ScanBFS:
		if err := e.needPrims(); err != nil {
			return nil, err
		}
	case NodeSplit:
		if err := e.needPieces(); err != nil {
			return nil, err
		}
	case NearFar, DeltaStepping:
		if err := e.needPrims(); err != nil {
			return nil, err
		}
		if err := e.alloc(&e.piles, 12*e.n, "the far piles"); err != nil {
			return nil, err
		}
		op, s2 = "ssspnf", gpu.Ptr(e.piles)
		if s == DeltaStepping {
			if err := e.needLightHeavy(); err != nil {
				return nil, err
			}
		}
	case TwoPhase, TwoPhaseRacy:
		if err := e.alloc(&e.dp2, 8*e.n, "the updating distances"); err != nil {
			return nil, err
		}
		s1, s2 = gpu.Ptr(e.dp), gpu.Ptr(e.dp2)
	}
	adj, w, src, split := gpu.Ptr(e.adj), uint64(0), uint64(0), uint64(0)
	if e.w != nil {
		w = gpu.Ptr(e.w)
	}
	if s == DeltaStepping {
		adj, w, split = gpu.Ptr(e.lhAdj), gpu.Ptr(e.lhW), gpu.Ptr(e.lhSplit)
	}
	garg := func() []uint64 {
		if e.src != nil {
			src = gpu.Ptr(e.src)
		}
		return []uint64{gpu.Ptr(e.off), adj, w, src, gpu.Int(int(e.n)), uint64(e.m), s1, s2, gpu.Ptr(e.mark), gpu.Ptr(e.ctl)}
	}
	var out []func() error
	add := func(name string, grid int, extra ...uint64) error {
		l, err := e.mod.Launch(name, grid, threads, 0, append(garg(), extra...)...)
		if err != nil {
			return err
		}
		out = append(out, l.Run)
		return nil
	}
	q := e.grid(int64(e.qcap))
	lbGrid := int(max(1, min((e.m+lbTile-1)/lbTile, int64(e.opt.BlocksPerSM*e.sms))))
	lb := func(skip, maxLen int) error {
		if err := e.alloc(&e.deg, 4*int64(e.qcap), "the frontier degrees"); err != nil {
			return err
		}
		if err := e.alloc(&e.scan, 8*int64(e.qcap), "the frontier offsets"); err != nil {
			return err
		}
		var err error
		if s == DeltaStepping {
			err = add("lh_degrees", q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Ptr(e.deg), split, gpu.Ptr(e.lhList))
		} else {
			err = add("lb_degrees_k", q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Ptr(e.deg), gpu.Int(skip))
		}
		if err != nil {
			return err
		}
		if err := e.alloc(&e.tstart, 4*int64(e.tcap), "the LB tile starts"); err != nil {
			return err
		}
		out = append(out, func() error {
			return e.prims.ExclusiveScan(e.scan, e.deg, gpu.DeviceLen(e.ctl, maxLen), gpu.Int32, gpu.Int64, e.total)
		})
		part, err := e.mod.Launch("lb_partition", e.grid(int64(e.tcap)), threads, 0, gpu.Ptr(e.ctl), gpu.Ptr(e.scan), gpu.Ptr(e.total), gpu.Ptr(e.tstart))
		if err != nil {
			return err
		}
		out = append(out, part.Run)
		return add("lb_"+op, lbGrid, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Ptr(e.scan), gpu.Ptr(e.total), gpu.Int(skip), gpu.Ptr(e.tstart), split)
	}
	var err error
	switch s {
	case Thread:
		err = add("thread_"+op, q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), 0)
	case Persistent:
		// one block per multiprocessor: the grid barrier needs every
		// block resident
		err = add("persist_"+op, e.sms, gpu.Ptr(e.q0), gpu.Ptr(e.q1), 0, 0)
	case PersistentTWC:
		err = add("persist_"+op, e.sms, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(e.opt.TWCWarp), gpu.Int(e.opt.TWCBlock))
	case Topo:
		err = add("topo_"+op, e.grid(e.n))
	case Edge:
		err = add("edge_"+op, e.grid(e.m))
	case EdgeChunk:
		err = add("edgechunk_"+op, e.grid((e.m+edgeChunk-1)/edgeChunk))
	case LB:
		err = lb(0, e.qcap) // duplicates: up to an entry per arc
	case LBCull:
		err = lb(0, int(max(e.n, 1)))
	case TWC:
		err = add("twc_"+op, q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(e.opt.TWCWarp), gpu.Int(e.opt.TWCBlock), gpu.Int(math.MaxInt32))
	case Pull:
		if err = e.needInArcs(); err != nil {
			return nil, err
		}
		pullFrom := int(max(e.n/int64(e.opt.PullDivisor), 1))
		if err = add("twc_"+op, q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(e.opt.TWCWarp), gpu.Int(e.opt.TWCBlock), gpu.Int(pullFrom)); err != nil {
			return nil, err
		}
		l, err := e.mod.Launch("pull_bfs", e.grid(e.n), threads, 0, gpu.Ptr(e.ioff), gpu.Ptr(e.iadj), gpu.Int(int(e.n)),
			gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(e.mark), gpu.Ptr(e.ctl), gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(pullFrom))
		if err != nil {
			return nil, err
		}
		out = append(out, l.Run)
	case NodeSplit:
		err = add("ns_"+op, e.grid(int64(e.npieces)), gpu.Ptr(e.pstart), gpu.Ptr(e.powner), gpu.Int(e.npieces))
	case Hierarchical:
		if err = add("hp_"+op, q, gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(e.opt.MDT), gpu.Int(e.opt.WDBelow)); err == nil {
			err = lb(1, int(max(e.n, 1)))
		}
	case ScanBFS:
		if err = e.alloc(&e.flags, 4*e.n, "the frontier flags"); err != nil {
			return nil, err
		}
		if err = add("flags_"+op, e.grid(e.n), gpu.Ptr(e.flags)); err != nil {
			return nil, err
		}
		out = append(out, func() error {
			return e.prims.Select(e.q0, nil, e.flags, gpu.HostLen(int(e.n)), gpu.Int32, e.ctl)
		})
		err = add("thread_"+op, e.grid(e.n), gpu.Ptr(e.q0), gpu.Ptr(e.q0), 1)
	case NearFar, DeltaStepping:
		if err = lb(0, int(max(e.n, 1))); err != nil {
			return nil, err
		}
		if s == DeltaStepping {
			l, err := e.mod.Launch("lh_switch", e.grid(e.n), threads, 0, gpu.Ptr(e.ctl), gpu.Ptr(e.lhList), gpu.Ptr(e.q0), gpu.Ptr(e.q1))
			if err != nil {
				return nil, err
			}
			out = append(out, l.Run)
		}
		l, err := e.mod.Launch("nf_refill", e.grid(e.n), threads, 0, gpu.Ptr(e.dp), gpu.Ptr(e.piles), gpu.Ptr(e.mark), gpu.Ptr(e.ctl),
			gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Int(int(e.n)), uint64(math.Float32bits(e.delta(s))))
		if err != nil {
			return nil, err
		}
		out = append(out, l.Run)
	case TwoPhase:
		if err = add("tp1_sssp", e.grid(e.n)); err == nil {
			err = add("tp2_sssp", e.grid(e.n))
		}
	case TwoPhaseRacy:
		if err = add("tp1_sssp_racy", e.grid(e.n)); err == nil {
			err = add("tp2_sssp_racy", e.grid(e.n))
		}
	default:
		return nil, fmt.Errorf("traversal: no strategy %s", s)
	}
	return out, err
}

// plan is the captured graph of k levels of s, then a post.
func (e *Engine) plan(a Algorithm, s Strategy, k int) (*gpu.Graph, error) {
	if s == Persistent || s == PersistentTWC || s == onDevice {
		k = 1 // one launch runs every level
	}
	key := planKey{a: a, s: s, k: k}
	if g := e.graphs[key]; g != nil {
		return g, nil
	}
	body, err := e.level(a, s)
	if err != nil {
		return nil, err
	}
	post, err := e.mod.Launch("post", 1, 1, 0, gpu.Ptr(e.ctl), e.mail.Arg())
	if err != nil {
		return nil, err
	}
	g, err := e.captureLevels(nil, body, k, post.Run)
	if err != nil {
		return nil, err
	}
	e.graphs[key] = g
	return g, nil
}

// captureLevels captures one graph: pre (where not nil), k times the
// launches of a level, then post.
func (e *Engine) captureLevels(pre func() error, level []func() error, k int, post func() error) (*gpu.Graph, error) {
	return e.d.Capture(func() error {
		if pre != nil {
			if err := pre(); err != nil {
				return err
			}
		}
		for range k {
			for _, f := range level {
				if err := f(); err != nil {
					return err
				}
			}
		}
		return post()
	})
}

// checkRun refuses what a run cannot do.
func (e *Engine) checkRun(a Algorithm, root int32, s Strategy) error {
	if !s.Supports(a) && !(s == onDevice && a == BFS) {
		return fmt.Errorf("traversal: strategy %s does not run %s", s, a)
	}
	if root < 0 || int64(root) >= e.n {
		return fmt.Errorf("traversal: root %d outside the %d vertices of %s", root, e.n, e.g.Name)
	}
	if a == SSSP && e.w == nil {
		return fmt.Errorf("traversal: SSSP on %s, which has no weights", e.g.Name)
	}
	return nil
}

// run is the level loop: init, then captured graphs of k levels queued two
// ahead of the post the host reads; it stops at the first post that shows
// an empty frontier. With timed (LevelTimes), every graph runs one level
// (whatever the Options) between a pair of CUDA events, and run returns
// each level's device time; without, it returns no levels.
func (e *Engine) run(ctx context.Context, a Algorithm, root int32, s Strategy, timed bool) (*Result, []LevelTime, error) {
	if e == nil || e.mod == nil {
		return nil, nil, errors.New("traversal: a closed engine")
	}
	if err := e.checkRun(a, root, s); err != nil {
		return nil, nil, err
	}
	k := e.opt.LevelsPerGraph
	if timed {
		k = 1
	}
	// The first graph runs fewer levels and goes alone: a search of a few
	// levels (a Kronecker graph's 7 or 8) would otherwise queue two whole
	// graphs, and run their remaining levels as empty launches, which cost
	// a do-beamer search 50 launches. After the first post, two graphs of
	// k levels stay queued ahead of the posts the host reads.
	first := min(k, firstGraphLevels)
	g, err := e.plan(a, s, k)
	if err != nil {
		return nil, nil, err
	}
	g1, err := e.plan(a, s, first)
	if err != nil {
		return nil, nil, err
	}
	var depth, parent, st64, st64b uint64
	if a == BFS {
		depth, parent = gpu.Ptr(e.depth), gpu.Ptr(e.parent)
	} else {
		st64 = gpu.Ptr(e.dp)
		if s == TwoPhase {
			st64b = gpu.Ptr(e.dp2)
		}
	}
	init, err := e.mod.Launch("init", e.grid(e.n), threads, 0, gpu.Int(int(e.n)), gpu.Int(int(root)), gpu.Ptr(e.ctl),
		gpu.Ptr(e.mark), gpu.Ptr(e.q0), depth, parent, st64, st64b, uint64(math.Float32bits(e.delta(s))))
	if err != nil {
		return nil, nil, err
	}
	if err := init.Run(); err != nil {
		return nil, nil, err
	}
	if s == SpacSchedule {
		if err := e.spacInit(root); err != nil {
			return nil, nil, err
		}
	}
	if s.Paper() || s == DOBeamer || s == onDevice {
		if err := e.adaptiveBegin(root); err != nil { // paper.go: this module's control words
			return nil, nil, err
		}
	}
	if s == onDevice {
		if err := e.deviceBegin(root); err != nil {
			return nil, nil, err
		}
	}
	if s == NearFar || s == DeltaStepping {
		if err := e.piles.Fill32(math.MaxUint32); err != nil { // no stamps
			return nil, nil, err
		}
	}
	if s == DeltaStepping {
		if err := e.lhList.Fill32(math.MaxUint32); err != nil { // nor here
			return nil, nil, err
		}
	}
	if s == TwoPhaseRacy {
		l, err := e.mod.Launch("init_racy", e.grid(e.n), threads, 0, gpu.Int(int(e.n)), gpu.Int(int(root)), gpu.Ptr(e.dp), gpu.Ptr(e.dp2))
		if err != nil {
			return nil, nil, err
		}
		if err := l.Run(); err != nil {
			return nil, nil, err
		}
	}
	var ivs []*gpu.Interval // timed: one per graph launched
	defer func() {
		for _, iv := range ivs {
			iv.Close()
		}
	}()
	if err := e.timer.Start(); err != nil {
		return nil, nil, err
	}
	launched := uint64(0)
	launch := func() error {
		g := g
		if launched == 0 {
			g = g1
		}
		if !timed {
			launched++
			return g.Launch()
		}
		iv, err := e.d.NewInterval()
		if err != nil {
			return err
		}
		ivs = append(ivs, iv)
		if err := iv.Start(); err != nil {
			return err
		}
		launched++
		if err := g.Launch(); err != nil {
			return err
		}
		return iv.Stop()
	}
	// fail keeps e.posts in step with the graphs queued (each posts once)
	// and lets them finish before the error goes back.
	fail := func(err error) (*Result, []LevelTime, error) {
		e.posts += launched
		_ = e.d.Sync("a traversal that failed")
		return nil, nil, err
	}
	if err := launch(); err != nil {
		return fail(err)
	}
	var word [mailWords]float64
	var level, inspected uint64
	var levels []LevelTime
	frontier := int64(1) // timed: the entries the next level reads
	// every graph but the last advances k levels (near-far: or raises its
	// threshold, which happens at most as often as levels on the way)
	maxPosts := uint64(2*e.n+1024)/uint64(k) + 3
	for j := e.posts + 1; ; j++ {
		slot := int(j%mailSlots) * mailWords
		if err := e.mail.Await(slot+3, j); err != nil {
			return fail(err)
		}
		if err := e.mail.Float64s(slot, word[:]); err != nil {
			return fail(err)
		}
		prev := inspected
		level, inspected = math.Float64bits(word[0]), math.Float64bits(word[2])
		if level>>32 != 0 {
			if s == Persistent || s == PersistentTWC || s == onDevice {
				return fail(fmt.Errorf("traversal: %s %s from %d: a frontier queue of %d entries overflowed, or the grid barrier timed out (blocks not all resident)", a, s, root, e.qcap))
			}
			return fail(fmt.Errorf("traversal: %s %s from %d: a frontier queue of %d entries overflowed", a, s, root, e.qcap))
		}
		if timed {
			levels = append(levels, LevelTime{Level: len(levels), Frontier: frontier, Inspected: int64(inspected - prev)})
		}
		frontier = int64(math.Float64bits(word[1]))
		if frontier == 0 {
			break
		}
		if j-e.posts > maxPosts {
			return fail(fmt.Errorf("traversal: %s %s from %d did not end after %d levels", a, s, root, uint32(level)))
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		for launched-(j-e.posts) < 2 { // two graphs queued ahead
			if err := launch(); err != nil {
				return fail(err)
			}
		}
	}
	e.posts += launched
	if err := e.timer.Stop(); err != nil {
		return nil, nil, err
	}
	elapsed, err := e.timer.Elapsed()
	if err != nil {
		return nil, nil, err
	}
	for i := range levels {
		if levels[i].Time, err = ivs[i].Elapsed(); err != nil {
			return nil, nil, err
		}
	}
	r := &Result{Algorithm: a, Strategy: s, Root: root, Time: elapsed, Levels: int(uint32(level)), Inspected: int64(inspected)}
	if a == BFS {
		r.Depth, r.Parent = make([]int32, e.n), make([]int32, e.n)
		if err := gpu.Download(e.depth, r.Depth, "the depths"); err != nil {
			return nil, nil, err
		}
		if err := gpu.Download(e.parent, r.Parent, "the parents"); err != nil {
			return nil, nil, err
		}
		return r, levels, nil
	}
	packed := make([]uint64, e.n)
	if err := gpu.Download(e.dp, packed, "the distances"); err != nil {
		return nil, nil, err
	}
	r.Dist, r.Pred = Unpack(packed)
	return r, levels, nil
}

// Unpack splits SSSP's packed words (distance's float32 bits high,
// predecessor low, 0xffffffff for none) into distances and predecessors.
func Unpack(packed []uint64) (dist []float32, pred []int32) {
	dist, pred = make([]float32, len(packed)), make([]int32, len(packed))
	for i, x := range packed {
		dist[i] = math.Float32frombits(uint32(x >> 32))
		pred[i] = int32(uint32(x))
	}
	return dist, pred
}
