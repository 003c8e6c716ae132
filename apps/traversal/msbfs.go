package traversal

// Many-source BFS on the device (kernels/msbfs.cu): up to 64 roots
// searched together, a bit per root in a 64-bit word per vertex, on the
// CSR an Engine uploaded. See the package documentation's section on
// many-source BFS for the contract and the kernels' comments for the
// level's work.

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/gpu"
)

// msbfsPTX is kernels/msbfs.ptx, made from msbfs.cu by 'make ptx'.
//
//go:embed kernels/msbfs.ptx
var msbfsPTX string

// MSBFSModule holds the many-source BFS kernels.
var MSBFSModule = gpu.PTXModule{Name: "msbfs", PTX: msbfsPTX,
	Entries: []string{"msbfs_roots", "msbfs_push", "msbfs_pull", "msbfs_settle", "msbfs_post"}}

// MSBFSWidth is the most roots one batch searches: the bits of a word.
const MSBFSWidth = ref.MSBFSWidth

// Direction is how MS-BFS expands a level.
type Direction uint8

const (
	// DirectionAuto pushes, and pulls while the frontier is large (Beamer's
	// rule with MSBFSOptions.Alpha and Beta); push only on a directed
	// graph built without its in-arcs.
	DirectionAuto Direction = iota
	// DirectionPush expands every level top-down.
	DirectionPush
	// DirectionPull expands every level bottom-up (ErrNotApplicable on a
	// directed graph without in-arcs); slow, for tests and measurements.
	DirectionPull
)

func (d Direction) String() string {
	switch d {
	case DirectionAuto:
		return "auto"
	case DirectionPush:
		return "push"
	case DirectionPull:
		return "pull"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// MSBFSOptions tune an MSBFS; the zero value takes the defaults.
type MSBFSOptions struct {
	Direction Direction
	// Alpha: the next level pulls when the new frontier's out-arcs exceed
	// 1/Alpha of the in-arcs of the vertices that a root still searching
	// has not reached (default 15, Beamer's). Beta: it pushes again once
	// the frontier holds fewer than n/Beta vertices (default 18).
	Alpha, Beta float64
	// LevelsPerGraph is the levels one captured graph runs (0: the
	// Engine's). The search's time includes the empty levels of the graph
	// that ends it and of the one queued behind: fewer suit graphs of a few
	// heavy levels (Kronecker), more graphs of thousands (roads).
	LevelsPerGraph int
}

// Beamer's defaults.
const (
	msbfsAlpha = 15
	msbfsBeta  = 18
)

func (o *MSBFSOptions) fill() error {
	if o.Alpha == 0 {
		o.Alpha = msbfsAlpha
	}
	if o.Beta == 0 {
		o.Beta = msbfsBeta
	}
	switch {
	case o.LevelsPerGraph < 0 || o.LevelsPerGraph > maxLevelsK:
		return fmt.Errorf("traversal: MS-BFS %d levels per graph: want 0 (the engine's) to %d", o.LevelsPerGraph, maxLevelsK)
	case o.Direction > DirectionPull:
		return fmt.Errorf("traversal: MS-BFS direction %v", o.Direction)
	case !(o.Alpha > 0) || math.IsInf(o.Alpha, 0) || o.Alpha > math.MaxFloat32:
		return fmt.Errorf("traversal: MS-BFS alpha %v: want a positive number", o.Alpha)
	case !(o.Beta > 0) || math.IsInf(o.Beta, 0) || o.Beta > math.MaxFloat32:
		return fmt.Errorf("traversal: MS-BFS beta %v: want a positive number", o.Beta)
	}
	return nil
}

// MSBFS runs many-source BFS batches on an Engine's graph. It owns its
// state (per vertex three words and the queues, per root and vertex a
// depth) and its control block, so searches of the Engine and batches of
// the MSBFS may alternate; it reads the Engine's CSR, so it must be
// closed before the Engine. Its methods must not be called concurrently.
type MSBFS struct {
	e     *Engine
	mod   *gpu.Module
	opt   MSBFSOptions
	pull  bool // the graph's in-arcs are on the device
	n     int
	mail  *gpu.Mapped
	timer *gpu.Interval
	graph *gpu.Graph
	posts uint64 // graphs launched: each posts once

	seen, visit, next, depth *gpu.Buffer
	q0, q1, ctl, roots       *gpu.Buffer
	bufs                     []*gpu.Buffer
}

// MSBFSResult is one batch: the depths from every root, in package ref's
// layout (root i's at Depth[i*N:(i+1)*N], -1 unreached).
type MSBFSResult struct {
	Roots []int32
	N     int
	Depth []int32
	// Time is the batch on the device between CUDA events: clearing its
	// arrays, every level, and the empty levels of the last graph; the
	// copy of the depths to the host excluded.
	Time time.Duration
	// Levels is the deepest level over the roots + 1; PullLevels how many
	// of them ran bottom-up.
	Levels, PullLevels int
	// Inspected is the arcs the batch read: the out-arcs of every frontier
	// vertex of a push level (once, whatever the number of roots whose
	// frontier holds it), the in-arcs a pull level scanned.
	Inspected int64
}

// Depths returns root i's depths (a slice of Depth).
func (r *MSBFSResult) Depths(i int) []int32 { return r.Depth[i*r.N : (i+1)*r.N] }

// msbfsBytes is the device memory of an MSBFS on n vertices: seen, visit
// and next (24 bytes per vertex), two queues (8), the depths of a full
// batch (4 x 64).
func msbfsBytes(n int64) int64 { return (24 + 8 + 4*MSBFSWidth) * n }

// NewMSBFS prepares many-source BFS on e's graph: it loads the kernels,
// allocates the state and captures the level loop's graph. Without the
// device memory it needs it says how much that is.
func (e *Engine) NewMSBFS(opt MSBFSOptions) (_ *MSBFS, err error) {
	if e == nil || e.mod == nil {
		return nil, errors.New("traversal: MS-BFS on a closed engine")
	}
	if err := opt.fill(); err != nil {
		return nil, err
	}
	if opt.LevelsPerGraph == 0 {
		opt.LevelsPerGraph = e.opt.LevelsPerGraph
	}
	m := &MSBFS{e: e, opt: opt, n: int(e.n)}
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	switch err := e.needInArcs(); {
	case err == nil:
		m.pull = true
	case errors.Is(err, ErrNotApplicable) && opt.Direction != DirectionPull:
		m.opt.Direction = DirectionPush
	default:
		return nil, err
	}
	need := msbfsBytes(max(e.n, 1))
	free, total, err := e.d.MemInfo()
	if err != nil {
		return nil, err
	}
	if need > free {
		return nil, fmt.Errorf("traversal: MS-BFS on %s needs %.2f GiB of device memory (%d bytes per vertex: a depth per root of a batch of %d, three words, two queues) beside the engine's; %.2f of %.2f GiB are free",
			e.g.Name, float64(need)/(1<<30), msbfsBytes(1), MSBFSWidth, float64(free)/(1<<30), float64(total)/(1<<30))
	}
	if m.mod, err = e.d.LoadModule(MSBFSModule); err != nil {
		return nil, err
	}
	n := int64(max(m.n, 1))
	for _, a := range []struct {
		b     **gpu.Buffer
		bytes int64
		what  string
	}{
		{&m.seen, 8 * n, "the MS-BFS seen words"},
		{&m.visit, 8 * n, "the MS-BFS visit words"},
		{&m.next, 8 * n, "the MS-BFS next words"},
		{&m.depth, 4 * MSBFSWidth * n, "the MS-BFS depths"},
		{&m.q0, 4 * n, "MS-BFS frontier queue 0"},
		{&m.q1, 4 * n, "MS-BFS frontier queue 1"},
		{&m.ctl, 4 * ctlWords, "the MS-BFS control block"},
		{&m.roots, 4 * MSBFSWidth, "the MS-BFS roots"},
	} {
		if *a.b, err = e.d.Alloc(a.bytes, a.what); err != nil {
			return nil, err
		}
		m.bufs = append(m.bufs, *a.b)
	}
	if err = m.ctl.Zero(); err != nil {
		return nil, err
	}
	if m.mail, err = e.d.NewMapped(mailSlots * mailWords); err != nil {
		return nil, err
	}
	if m.timer, err = e.d.NewInterval(); err != nil {
		return nil, err
	}
	if m.graph, err = m.capture(m.opt.LevelsPerGraph); err != nil {
		return nil, err
	}
	return m, nil
}

// capture records k levels (push, pull, settle) and a post.
func (m *MSBFS) capture(k int) (*gpu.Graph, error) {
	e := m.e
	ioff, iadj := uint64(0), uint64(0)
	if m.pull {
		ioff, iadj = gpu.Ptr(e.ioff), gpu.Ptr(e.iadj)
	}
	grid := e.grid(int64(max(m.n, 1)))
	push, err := m.mod.Launch("msbfs_push", grid, threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.adj), gpu.Ptr(m.seen), gpu.Ptr(m.next),
		gpu.Ptr(m.visit), gpu.Ptr(m.ctl), gpu.Ptr(m.q0), gpu.Ptr(m.q1), gpu.Int(e.opt.TWCWarp), gpu.Int(e.opt.TWCBlock))
	if err != nil {
		return nil, err
	}
	// A level runs the expansions its direction may take (each returns at
	// once on a level of the other's) and the settle.
	var level []*gpu.Launch
	if m.opt.Direction != DirectionPull {
		level = append(level, push)
	}
	if m.pull && m.opt.Direction != DirectionPush {
		pull, err := m.mod.Launch("msbfs_pull", grid, threads, 0, ioff, iadj, gpu.Int(m.n), gpu.Ptr(m.seen), gpu.Ptr(m.next),
			gpu.Ptr(m.visit), gpu.Ptr(m.ctl), gpu.Int(e.opt.TWCWarp))
		if err != nil {
			return nil, err
		}
		level = append(level, pull)
	}
	settle, err := m.mod.Launch("msbfs_settle", grid, threads, 0, gpu.Ptr(e.off), ioff, gpu.Int(m.n), gpu.Ptr(m.seen), gpu.Ptr(m.next),
		gpu.Ptr(m.visit), gpu.Ptr(m.depth), gpu.Ptr(m.ctl), gpu.Ptr(m.q0), gpu.Ptr(m.q1), gpu.Int(int(m.opt.Direction)),
		uint64(math.Float32bits(float32(m.opt.Alpha))), uint64(math.Float32bits(float32(m.opt.Beta))))
	if err != nil {
		return nil, err
	}
	level = append(level, settle)
	post, err := m.mod.Launch("msbfs_post", 1, 1, 0, gpu.Ptr(m.ctl), m.mail.Arg())
	if err != nil {
		return nil, err
	}
	return e.d.Capture(func() error {
		for range k {
			for _, l := range level {
				if err := l.Run(); err != nil {
					return err
				}
			}
		}
		return post.Run()
	})
}

// Close frees the device memory; the Engine stays open.
func (m *MSBFS) Close() {
	if m == nil {
		return
	}
	m.graph.Close()
	m.graph = nil
	if m.mail != nil {
		m.mail.Close()
		m.mail = nil
	}
	if m.timer != nil {
		m.timer.Close()
		m.timer = nil
	}
	for _, b := range m.bufs {
		b.Free()
	}
	m.bufs = nil
	m.mod = nil
}

// Options are the options in effect: the defaults filled in, and
// DirectionPush where Auto was asked on a graph without in-arcs.
func (m *MSBFS) Options() MSBFSOptions { return m.opt }

// Run searches from 1 to MSBFSWidth roots at once (repeats allowed) and
// returns every root's depths, equal to BFS's. The host never waits for
// a level: captured graphs of LevelsPerGraph levels are queued two ahead
// of the post it reads.
func (m *MSBFS) Run(ctx context.Context, roots []int32) (*MSBFSResult, error) {
	if m == nil || m.mod == nil {
		return nil, errors.New("traversal: a closed MS-BFS")
	}
	k := len(roots)
	if k == 0 || k > MSBFSWidth {
		return nil, fmt.Errorf("traversal: MS-BFS of %d roots: a batch has 1 to %d", k, MSBFSWidth)
	}
	for _, r := range roots {
		if r < 0 || int(r) >= m.n {
			return nil, fmt.Errorf("traversal: MS-BFS root %d outside the %d vertices of %s", r, m.n, m.e.g.Name)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := m.e.d
	if err := gpu.Write(m.roots, roots, "the MS-BFS roots"); err != nil {
		return nil, err
	}
	init, err := m.mod.Launch("msbfs_roots", 1, MSBFSWidth, 0, gpu.Ptr(m.roots), gpu.Int(k), gpu.Int(m.n), gpu.Ptr(m.seen),
		gpu.Ptr(m.visit), gpu.Ptr(m.depth), gpu.Ptr(m.q0), gpu.Ptr(m.ctl), gpu.Int(int(m.opt.Direction)))
	if err != nil {
		return nil, err
	}
	if err := m.timer.Start(); err != nil {
		return nil, err
	}
	// A finished batch leaves visit and next zero, a failed one need not.
	for _, f := range []func() error{m.seen.Zero, m.visit.Zero, m.next.Zero, func() error { return m.depth.Fill32(math.MaxUint32) }, init.Run} {
		if err := f(); err != nil {
			return nil, err
		}
	}
	launched := uint64(0)
	launch := func() error {
		launched++
		return m.graph.Launch()
	}
	fail := func(err error) (*MSBFSResult, error) {
		m.posts += launched
		_ = d.Sync("an MS-BFS batch that failed")
		return nil, err
	}
	for range 2 {
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	var word [mailWords]float64
	var level, pulls, inspected uint64
	k64 := uint64(m.opt.LevelsPerGraph)
	maxPosts := (uint64(m.n)+1024)/k64 + 3 // every graph but the last runs k levels
	for j := m.posts + 1; ; j++ {
		slot := int(j%mailSlots) * mailWords
		if err := m.mail.Await(slot+3, j); err != nil {
			return fail(err)
		}
		if err := m.mail.Float64s(slot, word[:]); err != nil {
			return fail(err)
		}
		w0 := math.Float64bits(word[0])
		level, pulls, inspected = uint64(uint32(w0)), w0>>32, math.Float64bits(word[2])
		if math.Float64bits(word[1]) == 0 {
			break
		}
		if j-m.posts > maxPosts {
			return fail(fmt.Errorf("traversal: MS-BFS of %d roots did not end after %d levels", k, level))
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	m.posts += launched
	if err := m.timer.Stop(); err != nil {
		return nil, err
	}
	elapsed, err := m.timer.Elapsed()
	if err != nil {
		return nil, err
	}
	r := &MSBFSResult{Roots: append([]int32(nil), roots...), N: m.n, Depth: make([]int32, k*m.n), Time: elapsed,
		Levels: int(level), PullLevels: int(pulls), Inspected: int64(inspected)}
	if err := gpu.Download(m.depth, r.Depth, "the MS-BFS depths"); err != nil {
		return nil, err
	}
	return r, nil
}
