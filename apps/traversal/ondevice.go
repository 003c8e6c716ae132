package traversal

// Adaptive BFS decided on the device: kernels/adaptive.cu's ad_level runs
// every level with the body a decision tree picks for it, the tree walked
// by the closer of the level before (see the package documentation,
// section "Per-level adaptive BFS"). The host uploads the tree once and
// runs the search like a fixed strategy's: captured graphs of
// LevelsPerGraph launches, two queued ahead of the post it reads.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/gpu"
)

// onDevice is the engine's internal strategy for ad_level; it is in no
// table and no user names it.
const onDevice Strategy = 255

// oneBlock is what a device-decided search's trace says of a level that
// ad_persist's block 0 ran alone (a small queued frontier, ad_solo); it is
// in no table either.
const oneBlock Strategy = 254

// oneBlockArcs is Options.OneBlockArcs' default; oneBlockVertices is
// adaptive.cu's SOLO_V, the most vertices of a frontier the one block
// holds; persistentAfter is Options.PersistentAfter's default and
// handOffMaxDegree adaptive.cu's HANDOFF_MAXDEG; ownKernelArcs is
// Options.OwnKernelArcs' default.
const (
	oneBlockArcs     = 4096
	oneBlockVertices = 2048
	persistentAfter  = 32
	handOffMaxDegree = 32
	ownKernelArcs    = 1 << 23
)

// Device bodies: adaptive.cu's B_* values.
const (
	bodyEdgeList    = 0
	bodyRevEdgeList = 3
	bodyVertexPush  = 6
	bodyVertexPull  = 9
	bodyVW          = 12
	bodyDOBeamer    = 17
	bodies          = 18
	bodyOneBlock    = 18 // B_SOLO: a level of ad_solo, in the log only
	bodyHandOff     = 19 // B_HANDOFF: this level and the rest ran in the persistent kernel, in the log only
)

// Sizes of the uploaded tree (adaptive.cu's AD_MAXNODES, AdGraph, AdNode)
// and of the device's log of levels (adLogWords words a level).
const (
	adMaxNodes  = 256
	adGraphSize = 64
	adNodeSize  = 24
	adLogLevels = ringSlots
	adLogWords  = 8 // LOG_WORDS: a level's counters, body, global timer at its opening and its end, ad_heavy's mark
	logOpen     = 4 // LOG_OPEN, LOG_END, LOG_HEAVY: words of a log row
	logEnd      = 5
	logHeavy    = 6
	adShared    = adGraphSize + adNodeSize*adMaxNodes + 4*ctlWords + 8 // ad_finish's AdShared: ad_level's dynamic shared memory
	// adBlocksPerSM is ad_level's and ad_persist's __launch_bounds__
	// minimum (AD_MINB): the blocks of 256 threads resident on an SM where
	// the device allows (64 registers a thread; at 8 blocks, 32 registers,
	// the bodies' loops spill).
	adBlocksPerSM = 4
)

// deviceBody is the ad_level body that runs strategy s, and whether one
// does: the paper's implementations and do-beamer.
func deviceBody(s Strategy) (int, bool) {
	switch {
	case s == DOBeamer:
		return bodyDOBeamer, true
	case s >= EdgeListAtomic && s <= VertexPullBlock:
		return int(s - EdgeListAtomic), true
	case s >= VWPush2 && s <= VWPush32:
		return bodyVW + int(s-VWPush2), true
	}
	return 0, false
}

// strategyOfBody is deviceBody's inverse.
func strategyOfBody(b int) (Strategy, bool) {
	switch {
	case b == bodyDOBeamer:
		return DOBeamer, true
	case b == bodyOneBlock:
		return oneBlock, true
	case b == bodyHandOff:
		return Persistent, true
	case b >= 0 && b < bodyVW:
		return EdgeListAtomic + Strategy(b), true
	case b >= bodyVW && b < bodyDOBeamer:
		return VWPush2 + Strategy(b-bodyVW), true
	}
	return 0, false
}

// OnDevice says whether the device can decide a model chooser's levels
// itself: every candidate a leaf of the tree picks has an ad_level body and the tree fits its
// shared memory. The reason comes back when it cannot.
func (c *ModelChooser) OnDevice() (bool, string) {
	t := &c.Model.Tree
	for i, f := range t.Feature {
		if s := c.Strategies[t.Label[i]]; f < 0 {
			if _, ok := deviceBody(s); !ok {
				return false, fmt.Sprintf("the tree picks %s, which has no body in the device's level kernel (only the paper's implementations and do-beamer do: train with --candidates among them)", s)
			}
		}
	}
	if n := c.Model.Tree.Nodes(); n > adMaxNodes {
		return false, fmt.Sprintf("a tree of %d nodes (the device's holds %d)", n, adMaxNodes)
	}
	return true, ""
}

// encodeDeviceTree lays out the tree as ad_level reads it: an AdGraph
// header (the graph's stats, the node count), then a node per tree node,
// each leaf's candidate replaced by its body.
func encodeDeviceTree(c *ModelChooser, g adaptive.GraphStats) ([]byte, error) {
	if ok, why := c.OnDevice(); !ok {
		return nil, fmt.Errorf("traversal: the model cannot run on the device: %s", why)
	}
	t := &c.Model.Tree
	n := t.Nodes()
	b := make([]byte, adGraphSize+adNodeSize*n)
	le := binary.LittleEndian
	for i, v := range []float64{float64(g.Vertices), float64(g.Arcs), float64(g.MaxDegree), g.DegreeCV} {
		le.PutUint64(b[8*i:], math.Float64bits(v))
	}
	le.PutUint64(b[32:], uint64(n))
	for i := range n {
		o := b[adGraphSize+adNodeSize*i:]
		le.PutUint64(o, math.Float64bits(t.Threshold[i]))
		body := int32(-1)
		if t.Feature[i] < 0 {
			bd, _ := deviceBody(c.Strategies[t.Label[i]])
			body = int32(bd)
		}
		for j, v := range []int32{t.Feature[i], t.Left[i], t.Right[i], body} {
			le.PutUint32(o[8+4*j:], uint32(v))
		}
	}
	return b, nil
}

// deviceState is what the device-decided search adds to adaptState.
type deviceState struct {
	tree  *gpu.Buffer   // header and nodes, adMaxNodes of room
	log   *gpu.Buffer   // adLogLevels rows of adLogWords uint64
	model *ModelChooser // the model whose tree is in tree (nil: a single leaf)
}

// adPersist is a search's launches: ad_persist, every level in one launch,
// with every array a body of the tree may read (the COO arcs, the in-arcs
// and their COO, do-beamer's big list), no ring; on a graph with a level
// it may yield (heavyArcs), ad_heavy and an ad_persist that yields none
// after it (a Kronecker graph's search has one such level); then the persistent
// strategy's kernel, which runs the levels ad_persist hands it
// (B_HANDOFF) and returns at once when the search is over (Engine.plan
// captures them all). Every launch after a search's end returns at once.
func (e *Engine) adPersist() ([]func() error, error) {
	heavy := e.heavyArcs()
	l, err := e.adLevelLaunch("ad_persist", 0, heavy)
	if err != nil {
		return nil, err
	}
	runs := []func() error{l.Run}
	if heavy > 0 {
		// grid-stride over twice what is resident at 8 blocks an SM
		p, err := e.adLaunch("ad_heavy", min(e.grid(max(e.n, e.m, 1)), 16*e.sms), 0, heavy)
		if err != nil {
			return nil, err
		}
		last, err := e.adLevelLaunch("ad_persist", 0, 0)
		if err != nil {
			return nil, err
		}
		runs = append(runs, p.Run, last.Run)
	}
	if e.handOff() == 0 {
		return runs, nil
	}
	rest, err := e.level(BFS, Persistent)
	if err != nil {
		return nil, err
	}
	return append(runs, rest...), nil
}

// heavyArcs is ad_persist's heavyArcs argument: Options.OwnKernelArcs
// where the graph has that many arcs, else 0 (no ad_heavy launches).
func (e *Engine) heavyArcs() int64 {
	if e.opt.OwnKernelArcs <= 0 || e.m < e.opt.OwnKernelArcs {
		return 0
	}
	return e.opt.OwnKernelArcs
}

// handOff is ad_persist's handoff argument: Options.PersistentAfter where
// a level can be handed to the persistent kernel at all (a vertex of at
// most handOffMaxDegree out-arcs, and a frontier that can outgrow the one
// block), else 0, and then no persistent kernel follows ad_persist: a graph
// whose searches never hand off pays no empty launch (a 30-vertex matrix's
// search takes 32 us), and one whose ad_persist handed off always has the
// kernel after it.
func (e *Engine) handOff() int { return handOffLevel(e.opt, e.n, e.m, e.g.MaxDegree()) }

// handOffLevel is handOff for a graph of n vertices, m arcs and largest
// out-degree maxDegree under opt (filled).
func handOffLevel(opt Options, n, m, maxDegree int64) int {
	if opt.PersistentAfter <= 0 || maxDegree > handOffMaxDegree {
		return 0
	}
	if n <= oneBlockVertices && m <= int64(max(opt.OneBlockArcs, 0)) {
		return 0 // every frontier fits the one block
	}
	return opt.PersistentAfter
}

// needDevice makes what ad_level and ad_persist read (once): every array a
// body of the tree may read (the COO arcs, the in-arcs and their COO,
// do-beamer's big list), the tree's buffer, holding a single leaf until a
// model comes, so that the closers can walk it, and the log.
func (e *Engine) needDevice() error {
	if err := e.needAdaptive(); err != nil {
		return err
	}
	if err := e.needCOO(); err != nil {
		return err
	}
	if err := e.needInCOO(); err != nil {
		return err
	}
	if err := e.alloc(&e.ad.big, 4*e.n, "do-beamer's big list"); err != nil {
		return err
	}
	d := &e.ad.dev
	if err := e.alloc(&d.log, 8*adLogWords*adLogLevels, "the adaptive search's log"); err != nil {
		return err
	}
	if d.tree != nil {
		return nil
	}
	if err := e.alloc(&d.tree, adGraphSize+adNodeSize*adMaxNodes, "the adaptive model's tree"); err != nil {
		return err
	}
	leaf := make([]byte, adGraphSize+adNodeSize)
	binary.LittleEndian.PutUint64(leaf[32:], 1)
	binary.LittleEndian.PutUint32(leaf[adGraphSize+8:], math.MaxUint32) // feature -1
	return gpu.Write(d.tree, leaf, "the adaptive model's tree")
}

// adLevelLaunch is kernel's launch (ad_level or ad_persist) over what is
// resident, posting every level's counters to ring where it is not 0,
// yielding heavy levels of heavyArcs arcs (ad_persist; 0: none).
func (e *Engine) adLevelLaunch(kernel string, ring uint64, heavyArcs int64) (*gpu.Launch, error) {
	if err := e.needDevice(); err != nil {
		return nil, err
	}
	if e.ad.perSM == 0 {
		// the launch bounds ask for adBlocksPerSM; a device with fewer
		// registers or less shared memory an SM may hold fewer, and
		// ad_persist's grid must all be resident
		r, err := e.ad.mod.Resident("ad_persist", threads, adShared, true)
		if err != nil {
			return nil, err
		}
		if r < 1 {
			return nil, fmt.Errorf("traversal: the device-decided search's kernel (ad_persist: %d threads, %d bytes of dynamic shared memory) does not fit on an SM of this device; --strategy adaptive-host decides on the host", threads, adShared)
		}
		e.ad.perSM = min(r, adBlocksPerSM)
	}
	// a grid for the widest body of one thread per item (the others
	// stride), at most what is resident at once: ad_persist's grid barrier
	// needs every block resident, and for ad_level a second wave of blocks
	// doubles the cost of the many small levels
	work := max(e.m, e.inArcCount(), e.n, 1)
	return e.adLaunch(kernel, min(e.grid(work), e.ad.perSM*e.sms), ring, heavyArcs)
}

// adLaunch is a launch of a kernel of adaptive.cu's ADARGS: the graph, the
// search's arrays, the tree and the log, the options.
func (e *Engine) adLaunch(kernel string, grid int, ring uint64, heavyArcs int64) (*gpu.Launch, error) {
	d := &e.ad.dev
	alpha, beta := uint64(math.Float32bits(float32(e.opt.Alpha))), uint64(math.Float32bits(float32(e.opt.Beta)))
	return e.ad.mod.Launch(kernel, grid, threads, adShared, gpu.Ptr(e.off), gpu.Ptr(e.adj), gpu.Ptr(e.src),
		gpu.Ptr(e.ioff), gpu.Ptr(e.iadj), gpu.Ptr(e.ad.isrc), gpu.Int(int(e.n)), uint64(e.m), uint64(e.inArcCount()),
		gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(e.mark), gpu.Ptr(e.ctl), gpu.Int(1), ring,
		gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Ptr(e.ad.big), gpu.Int(e.opt.TWCWarp), alpha, beta,
		gpu.Ptr(d.tree), gpu.Ptr(d.log), gpu.Int(adLogLevels), gpu.Int(max(e.opt.OneBlockArcs, 0)),
		gpu.Int(e.handOff()), uint64(heavyArcs))
}

// planDeviceLevel is the oracle sweep's captured graph of one level of a
// body in ad_level (OnDevice sweeps): ad_set, ad_level twice (a top-down
// do-beamer level with big vertices closes in the second; otherwise it
// returns at once), the post; the level's counters go to the ring. With
// queued the level may read the saved queue, as after a level that wrote
// one; without, it reads the stamps.
func (e *Engine) planDeviceLevel(body int, queued bool) (*gpu.Graph, error) {
	qok := 0
	if queued {
		qok = 1
	}
	key := planKey{a: BFS, s: onDevice, k: -1 - body - bodies*qok, mode: modeCounted}
	if g := e.graphs[key]; g != nil {
		return g, nil
	}
	if err := e.needRing(); err != nil {
		return nil, err
	}
	level, err := e.adLevelLaunch("ad_level", e.ad.ring.Arg(), 0)
	if err != nil {
		return nil, err
	}
	set, err := e.ad.mod.Launch("ad_set", 1, 1, 0, gpu.Ptr(e.ctl), gpu.Int(body), gpu.Int(qok))
	if err != nil {
		return nil, err
	}
	post, err := e.mod.Launch("post", 1, 1, 0, gpu.Ptr(e.ctl), e.mail.Arg())
	if err != nil {
		return nil, err
	}
	g, err := e.captureLevels(set.Run, []func() error{level.Run}, 2, post.Run)
	if err != nil {
		return nil, err
	}
	e.graphs[key] = g
	return g, nil
}

// deviceBegin readies a device-decided search from root (after init and
// abegin): the model's tree uploaded when it is not the one there, and
// level 0's body, the host's choice from the root's counters.
func (e *Engine) deviceBegin(root int32) error {
	d := &e.ad.dev
	if d.model == nil {
		return fmt.Errorf("traversal: a device-decided search without a model")
	}
	tk := adaptive.NewTracker(e.stats())
	f := tk.Next(adaptive.RootCounters(e.g, root))
	body, _ := deviceBody(d.model.Choose(&f))
	l, err := e.ad.mod.Launch("ad_begin", 1, 1, 0, gpu.Ptr(e.ctl), gpu.Int(body), gpu.Ptr(d.log))
	if err != nil {
		return err
	}
	return l.Run()
}

// bfsOnDevice is BFSAdaptive with the decisions on the device: the search
// runs as a fixed strategy's (Engine.run) and the trace comes from the
// device's log afterwards, each level's features recomputed from its
// counters by the host's Tracker.
func (e *Engine) bfsOnDevice(ctx context.Context, root int32, c *ModelChooser) (*Result, *AdaptiveTrace, error) {
	if err := e.needDevice(); err != nil {
		return nil, nil, err
	}
	d := &e.ad.dev
	if d.model != c {
		b, err := encodeDeviceTree(c, e.stats())
		if err != nil {
			return nil, nil, err
		}
		if err := gpu.Write(d.tree, b, "the adaptive model's tree"); err != nil {
			return nil, nil, err
		}
		d.model = c
	}
	r, _, err := e.run(ctx, BFS, root, onDevice, false)
	if err != nil {
		return nil, nil, err
	}
	r.Strategy = 0
	tr, err := e.deviceTrace(root, r.Levels)
	if err != nil {
		return nil, nil, err
	}
	return r, tr, nil
}

// deviceTrace reads the log of a device-decided search of `levels`
// levels: each level's counters and body (level 0's from the host), the
// features recomputed, and the host's own choice for each beside the
// device's (Chosen is the device's; they differ only if the two walks of
// the tree disagree, which the tests check).
func (e *Engine) deviceTrace(root int32, levels int) (*AdaptiveTrace, error) {
	d := &e.ad.dev
	rows := min(levels, adLogLevels)
	words := make([]uint64, adLogWords*max(rows, 1))
	if err := gpu.Download(d.log, words, "the adaptive search's log"); err != nil {
		return nil, err
	}
	tr := &AdaptiveTrace{OnDevice: true}
	tk := adaptive.NewTracker(e.stats())
	for l := range rows {
		if tr.HandOff > 0 { // the persistent kernel's levels: no row, no counters
			tr.Counters = append(tr.Counters, adaptive.Counters{})
			tr.Features = append(tr.Features, adaptive.Features{})
			tr.Chosen = append(tr.Chosen, Persistent)
			tr.Ran = append(tr.Ran, Persistent)
			tr.Times = append(tr.Times, 0)
			continue
		}
		row := words[adLogWords*l:]
		c := adaptive.RootCounters(e.g, root)
		if l > 0 {
			c = adaptive.Counters{Vertices: int64(row[0]), Arcs: int64(row[1]), MaxDegree: int64(row[2])}
		}
		f := tk.Next(c)
		start := time.Now()
		host := d.model.Choose(&f)
		tr.Predict += time.Since(start)
		body := int(row[3])
		var took time.Duration // the device's clock; unknown (0) past a hand-off
		if open, end := row[logOpen], row[logEnd]; open > 0 && end >= open {
			took = time.Duration(end - open)
		}
		tr.Times = append(tr.Times, took)
		if row[logHeavy] == 1 {
			tr.Yields++
		}
		ran, ok := strategyOfBody(body)
		if !ok {
			return nil, fmt.Errorf("traversal: the device's log names body %d at level %d", body, l)
		}
		if body == bodyHandOff {
			tr.HandOff = l
		}
		chosen := ran
		if ran == oneBlock || body == bodyHandOff { // the tree was not asked
			chosen = host
		}
		tr.Counters = append(tr.Counters, c)
		tr.Features = append(tr.Features, f)
		tr.Chosen = append(tr.Chosen, chosen)
		tr.Ran = append(tr.Ran, ran)
		if chosen != host {
			tr.Disagree++
		}
	}
	return tr, nil
}
