package apsp

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/par"
)

// ssspAllPTX is kernels/ssspall.ptx, made from ssspall.cu by 'make ptx'.
//
//go:embed kernels/ssspall.ptx
var ssspAllPTX string

// SSSPAllModule holds the kernels of SSSPAll on the GPU (AllSourcesGPU):
// msssp_<init|relax|out>_<f32|i32>[_paths], msssp_pred_<f32|i32> and
// msssp_post.
var SSSPAllModule = gpu.PTXModule{Name: "ssspall", PTX: ssspAllPTX, Entries: ssspAllEntries()}

func ssspAllEntries() []string {
	out := []string{"msssp_post"}
	for _, typ := range []string{"f32", "i32"} {
		for _, p := range []bool{false, true} {
			for _, k := range []string{"init", "relax", "out"} {
				out = append(out, msKernel(k, typ, p))
			}
		}
		out = append(out, "msssp_pred_"+typ)
	}
	return out
}

func msKernel(kind, typ string, paths bool) string {
	return "msssp_" + kind + "_" + typ + pathsSuffix(paths)
}

// Batches: DefaultBatch sources at a time unless Options.Batch says
// otherwise (a multiple of 32 up to MaxBatch), fewer when the device
// memory is short or the graph has fewer vertices.
const (
	DefaultBatch = 1024
	MaxBatch     = 4096
)

// The constants of ssspall.cu: the control block's words (CTL_WORDS,
// C_CAP, the uint64 counters C_RELAXED and C_WALKED), the mail's slots,
// and the blocks of the relaxation kernel that fit a multiprocessor
// (RELAX_BLOCKS, RELAX_BLOCKS_P). roundsPerGraph rounds run per captured
// graph, two graphs queued ahead of the post the host reads.
const (
	msCtlWords     = 128
	msCap          = 4
	msRelaxed      = 96
	msWalked       = 112
	msMailSlots    = 4
	msMailWords    = 4
	relaxBlocks    = 4
	relaxBlocksP   = 3
	roundsPerGraph = 8
)

// Run says what a GPU solve did.
type Run struct {
	Method Method
	// Elapsed is the kernels' device time between CUDA events; the copies
	// between host and device are not in it.
	Elapsed time.Duration
	// sssp-all: sources per batch, batches, relaxation rounds over every
	// batch, (source, arc) relaxations, and arcs walked by a warp for its
	// 32 sources (LaneUse).
	Batch, Batches, Rounds int
	Relaxed, Walked        int64
}

// LaneUse is the fraction of the relaxation lanes that had a source to
// relax for: Relaxed / (32 Walked). A warp walks a vertex's arcs for the
// 32 sources of a group at once, active or not.
func (r Run) LaneUse() float64 {
	if r.Walked == 0 {
		return 0
	}
	return float64(r.Relaxed) / (32 * float64(r.Walked))
}

// CheckBatch refuses a batch size (Options.Batch) the kernels cannot take.
func CheckBatch(batch int) error {
	if batch == 0 || batch%32 == 0 && batch >= 32 && batch <= MaxBatch {
		return nil
	}
	return fmt.Errorf("apsp: a batch of %d sources: want a multiple of 32 from 32 to %d (0: %d, or fewer when memory is short)", batch, MaxBatch, DefaultBatch)
}

// BatchBytes is the device memory of one batch of sssp-all on the GPU:
// per (vertex, source) pair 4 bytes of distance and 4 of its copy in rows
// for the host, half a byte of frontier (two masks and two queues of a word
// per vertex and group of 32 sources); with paths 4 more of distance (the
// 64-bit keys), 4 of predecessor and 4 of its rows. The graph comes on
// top (GraphBytes).
func BatchBytes(n, batch int, paths bool) int64 {
	pairs := int64(n) * int64(batch)
	b := pairs*8 + pairs/2
	if paths {
		b += pairs * 12
	}
	return b
}

// GraphBytes is the device memory of g's CSR with its weights.
func GraphBytes(g *graph.Graph) int64 {
	return 8*int64(g.NumVertices+1) + 8*g.NumArcs()
}

// pickBatch is the batch for n vertices: want (0: DefaultBatch), at most
// the vertices rounded up to 32, halved (in multiples of 32) until a batch
// fits in avail bytes. It fails when 32 sources do not fit.
func pickBatch(n, want int, avail int64, paths bool) (int, error) {
	if want == 0 {
		want = DefaultBatch
	}
	b := min(want, (n+31)/32*32)
	for b > 32 && BatchBytes(n, b, paths) > avail {
		b = max(32, b/2/32*32)
	}
	if need := BatchBytes(n, b, paths); need > avail {
		return 0, fmt.Errorf("apsp: sssp-all on %d vertices needs %.2f GiB of device memory for a batch of %d sources, %.2f GiB are left once the graph is in: the n x n result stays on the host, but a batch holds %d bytes per vertex and source",
			n, gib(need), b, gib(max(avail, 0)), BatchBytes(1, 2, paths)/2)
	}
	if int64(n)*int64(b/32) > math.MaxInt32 {
		return 0, fmt.Errorf("apsp: sssp-all on %d vertices: the frontier counts its (vertex, 32 sources) slots in int32; use a batch below %d", n, int64(math.MaxInt32)/int64(n)*32)
	}
	return b, nil
}

// ssspAllBatch is the batch that AllSourcesGPU would take for g on the
// device now, or why none fits.
func (s *Solver) ssspAllBatch(g *graph.Graph, opt Options) (int, error) {
	free, _, err := s.d.MemInfo()
	if err != nil {
		return 0, err
	}
	return pickBatch(g.NumVertices, opt.Batch, free-reserve-GraphBytes(g), opt.Paths)
}

// weightBits are g's arc weights as the kernels read them: float32 bits
// (-0 stored as +0, so that the bits order as the values) or int32.
func weightBits[T Weight](g *graph.Graph) []uint32 {
	_, integer := any(Inf[T]()).(int32)
	out := make([]uint32, max(len(g.Weight), 1))
	for e, w := range g.Weight {
		switch {
		case integer:
			out[e] = uint32(int32(w))
		case w == 0:
			out[e] = 0
		default:
			out[e] = math.Float32bits(w)
		}
	}
	return out
}

// AllSourcesGPU computes g's all-pairs shortest paths on the device by
// shortest paths from every source, Batch sources at a time (a
// label-correcting search per batch, kernels/ssspall.cu), and returns them
// with what the run did. The distances equal AllSources' bit for bit,
// float32 included (each sum rounded to float32 as Dijkstra rounds it, and
// the minimum over paths of those sums is unique). With opt.Paths the next
// hops come from each source's predecessor tree, the same on every run and
// for every batch size: each next hop starts a shortest path of the
// fewest hops, so with int32 distances the walks of Path never loop and
// their weights add up to the distances exactly; with float32 they add up
// within Tolerance (the next hop's own row rounded its sums from another
// start), and could loop only through an arc lighter than half a unit in
// the last place of the distances it joins. The n x n result stays on the
// host: the device holds the graph and one batch (BatchBytes), so n is
// bounded by the host's memory, not the device's.
func AllSourcesGPU[T Weight](ctx context.Context, s *Solver, g *graph.Graph, opt Options) (*Matrix[T], Run, error) {
	run := Run{Method: SSSPAll}
	if s == nil {
		return nil, run, errors.New("apsp: no solver (NewSolver)")
	}
	if err := CheckBatch(opt.Batch); err != nil {
		return nil, run, err
	}
	if err := checkWeights[T](g); err != nil {
		return nil, run, err
	}
	if err := checkGraph(g); err != nil {
		return nil, run, err
	}
	n := g.NumVertices
	m := &Matrix[T]{N: n, Dist: make([]T, n*n)}
	if opt.Paths {
		m.Next = make([]int32, n*n)
	}
	if n == 0 {
		return m, run, nil
	}
	batch, err := s.ssspAllBatch(g, opt)
	if err != nil {
		return nil, run, err
	}
	ms, err := newMultiSource(s, g, weightBits[T](g), batch, kernelType[T](), opt.Paths)
	if err != nil {
		return nil, run, err
	}
	defer ms.close()
	run.Batch = batch
	var preds []int32
	if opt.Paths {
		preds = make([]int32, batch*n)
	}
	for base := 0; base < n; base += batch {
		b := min(batch, n-base)
		rounds, elapsed, err := ms.solve(ctx, base, b)
		if err != nil {
			return nil, run, err
		}
		run.Batches++
		run.Rounds += rounds
		run.Elapsed += elapsed
		if err := gpu.Download(ms.outD, m.Dist[base*n:(base+b)*n], "a batch's distances"); err != nil {
			return nil, run, err
		}
		if !opt.Paths {
			continue
		}
		if err := gpu.Download(ms.outP, preds[:b*n], "a batch's predecessors"); err != nil {
			return nil, run, err
		}
		if err := par.DoCtx(ctx, b, func(r int) error {
			return nextHops(int32(base+r), preds[r*n:(r+1)*n], m.Next[(base+r)*n:(base+r+1)*n])
		}); err != nil {
			return nil, run, fmt.Errorf("apsp: sssp-all on the GPU, sources %d to %d: %w", base, base+b-1, err)
		}
	}
	var ctl [msCtlWords / 2]uint64
	if err := gpu.Download(ms.ctl, ctl[:], "the counters"); err != nil {
		return nil, run, err
	}
	run.Relaxed, run.Walked = int64(ctl[msRelaxed/2]), int64(ctl[msWalked/2])
	return m, run, nil
}

// checkGraph refuses a graph the kernels cannot index.
func checkGraph(g *graph.Graph) error {
	if len(g.Offsets) != g.NumVertices+1 || int64(len(g.Adj)) != g.Offsets[g.NumVertices] || len(g.Weight) != len(g.Adj) {
		return fmt.Errorf("apsp: %s: %d offsets, %d targets and %d weights for %d vertices", g.Name, len(g.Offsets), len(g.Adj), len(g.Weight), g.NumVertices)
	}
	return nil
}

// multiSource is sssp-all's state on the device: the graph, one batch's
// arrays, the control block and mail, and the captured rounds.
type multiSource struct {
	s                     *Solver
	n, batch, groups, sms int
	paths                 bool
	typ                   string
	off, adj, w           *gpu.Buffer
	dist, m0, m1, q0, q1  *gpu.Buffer
	ctl, outD, pred, outP *gpu.Buffer
	mail                  *gpu.Mapped
	timer                 *gpu.Interval
	rounds                *gpu.Graph // roundsPerGraph rounds, then a post
	posts                 uint64     // graphs launched: each posts once
	bufs                  []*gpu.Buffer
}

func newMultiSource(s *Solver, g *graph.Graph, weights []uint32, batch int, typ string, paths bool) (_ *multiSource, err error) {
	n := g.NumVertices
	ms := &multiSource{s: s, n: n, batch: batch, groups: batch / 32, sms: max(s.d.Info().SMs, 1), paths: paths, typ: typ}
	defer func() {
		if err != nil {
			ms.close()
		}
	}()
	pairs := int64(n) * int64(batch)
	slots := int64(n) * int64(ms.groups)
	distBytes := 4 * pairs
	if paths {
		distBytes = 8 * pairs
	}
	adj := g.Adj
	if len(adj) == 0 {
		adj = make([]int32, 1)
	}
	steps := []func() error{
		func() error { return msUpload(ms, &ms.off, g.Offsets, "the CSR offsets") },
		func() error { return msUpload(ms, &ms.adj, adj, "the CSR targets") },
		func() error { return msUpload(ms, &ms.w, weights, "the arc weights") },
		func() error { return ms.alloc(&ms.dist, distBytes, "a batch's distances") },
		func() error { return ms.alloc(&ms.m0, 4*slots, "frontier masks 0") },
		func() error { return ms.alloc(&ms.m1, 4*slots, "frontier masks 1") },
		func() error { return ms.alloc(&ms.q0, 4*slots, "frontier queue 0") },
		func() error { return ms.alloc(&ms.q1, 4*slots, "frontier queue 1") },
		func() error { return ms.alloc(&ms.outD, 4*pairs, "a batch's distance rows") },
		func() error { return ms.alloc(&ms.ctl, 4*msCtlWords, "the control block") },
	}
	if paths {
		steps = append(steps,
			func() error { return ms.alloc(&ms.pred, 4*pairs, "a batch's predecessors") },
			func() error { return ms.alloc(&ms.outP, 4*pairs, "a batch's predecessor rows") })
	}
	for _, step := range steps {
		if err = step(); err != nil {
			return nil, err
		}
	}
	ctl := make([]int32, msCtlWords)
	ctl[msCap] = int32(slots) // a round lists each slot once at most
	if err = gpu.Write(ms.ctl, ctl, "the control block"); err != nil {
		return nil, err
	}
	if ms.mail, err = s.d.NewMapped(msMailSlots * msMailWords); err != nil {
		return nil, err
	}
	if ms.timer, err = s.d.NewInterval(); err != nil {
		return nil, err
	}
	blocks := relaxBlocks
	if paths {
		blocks = relaxBlocksP
	}
	relax, err := s.ms.Launch(msKernel("relax", typ, paths), ms.grid(slots*32, blocks), threads, 0,
		gpu.Ptr(ms.off), gpu.Ptr(ms.adj), gpu.Ptr(ms.w), gpu.Int(ms.groups), gpu.Ptr(ms.dist),
		gpu.Ptr(ms.m0), gpu.Ptr(ms.m1), gpu.Ptr(ms.q0), gpu.Ptr(ms.q1), gpu.Ptr(ms.ctl))
	if err != nil {
		return nil, err
	}
	post, err := s.ms.Launch("msssp_post", 1, 1, 0, gpu.Ptr(ms.ctl), ms.mail.Arg())
	if err != nil {
		return nil, err
	}
	ms.rounds, err = s.d.Capture(func() error {
		for range roundsPerGraph {
			if err := relax.Run(); err != nil {
				return err
			}
		}
		return post.Run()
	})
	if err != nil {
		return nil, err
	}
	return ms, nil
}

// grid is the number of blocks for threads of work, at most perSM blocks
// per multiprocessor (grid-stride beyond).
func (ms *multiSource) grid(work int64, perSM int) int {
	return int(max(1, min((work+threads-1)/threads, int64(perSM*ms.sms))))
}

func (ms *multiSource) alloc(b **gpu.Buffer, bytes int64, what string) error {
	var err error
	if *b, err = ms.s.d.Alloc(max(bytes, 8), what); err == nil {
		ms.bufs = append(ms.bufs, *b)
	}
	return err
}

func msUpload[E any](ms *multiSource, b **gpu.Buffer, s []E, what string) error {
	var err error
	if *b, err = gpu.Upload(ms.s.d, s, what); err == nil {
		ms.bufs = append(ms.bufs, *b)
	}
	return err
}

func (ms *multiSource) close() {
	if ms.rounds != nil {
		ms.rounds.Close()
	}
	if ms.mail != nil {
		ms.mail.Close()
	}
	if ms.timer != nil {
		ms.timer.Close()
	}
	for _, b := range ms.bufs {
		b.Free()
	}
	ms.bufs = nil
}

// solve runs the batch of sources base .. base+b-1 to the end and leaves
// its rows in outD (and outP): the search (with paths, a second one for
// the fewest hops: see ssspall.cu), then the predecessors and the rows.
// It returns the rounds and the device time between events around the
// batch's kernels.
func (ms *multiSource) solve(ctx context.Context, base, b int) (int, time.Duration, error) {
	n := ms.n
	pairs := int64(n) * int64(ms.batch)
	predPtr := uint64(0)
	if ms.paths {
		predPtr = gpu.Ptr(ms.pred)
	}
	if err := ms.timer.Start(); err != nil {
		return 0, 0, err
	}
	searches := 1
	if ms.paths {
		searches = 2
	}
	rounds := 0
	for keep := range searches {
		init, err := ms.s.ms.Launch(msKernel("init", ms.typ, ms.paths), ms.grid(pairs, 8), threads, 0,
			gpu.Int(n), gpu.Int(ms.groups), gpu.Int(base), gpu.Int(b), gpu.Int(keep), gpu.Ptr(ms.dist), predPtr,
			gpu.Ptr(ms.m0), gpu.Ptr(ms.m1), gpu.Ptr(ms.q0), gpu.Ptr(ms.ctl))
		if err != nil {
			return 0, 0, err
		}
		if err := init.Run(); err != nil {
			return 0, 0, err
		}
		r, err := ms.search(ctx, base, b)
		if err != nil {
			return 0, 0, err
		}
		rounds += r
	}
	if ms.paths {
		pred, err := ms.s.ms.Launch("msssp_pred_"+ms.typ, ms.grid(pairs, relaxBlocksP), threads, 0,
			gpu.Ptr(ms.off), gpu.Ptr(ms.adj), gpu.Ptr(ms.w), gpu.Int(n), gpu.Int(ms.groups), gpu.Ptr(ms.dist), gpu.Ptr(ms.pred))
		if err != nil {
			return 0, 0, err
		}
		if err := pred.Run(); err != nil {
			return 0, 0, err
		}
	}
	outP := uint64(0)
	if ms.paths {
		outP = gpu.Ptr(ms.outP)
	}
	out, err := ms.s.ms.Launch(msKernel("out", ms.typ, ms.paths), (n+31)/32*((b+31)/32), threads, 0,
		gpu.Int(n), gpu.Int(ms.groups), gpu.Int(b), gpu.Ptr(ms.dist), predPtr, gpu.Ptr(ms.outD), outP)
	if err != nil {
		return 0, 0, err
	}
	if err := out.Run(); err != nil {
		return 0, 0, err
	}
	if err := ms.timer.Stop(); err != nil {
		return 0, 0, err
	}
	elapsed, err := ms.timer.Elapsed()
	if err != nil {
		return 0, 0, fmt.Errorf("apsp: sssp-all on the device: %w", err)
	}
	return rounds, elapsed, nil
}

// search runs the rounds of the search that init set up: captured graphs
// of roundsPerGraph rounds queued two ahead of the post the host reads,
// until a post shows an empty frontier. It returns the rounds that had a
// frontier.
func (ms *multiSource) search(ctx context.Context, base, b int) (int, error) {
	launched := uint64(0)
	launch := func() error {
		launched++
		return ms.rounds.Launch()
	}
	// fail keeps ms.posts in step with the graphs queued (each posts
	// once) and lets them finish before the error goes back.
	fail := func(err error) (int, error) {
		ms.posts += launched
		_ = ms.s.d.Sync("sssp-all that failed")
		return 0, err
	}
	for range 2 {
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	// Each round settles the pairs whose shortest path (in the second
	// search with next hops: tight path of the fewest hops) has one more
	// hop, so a search ends within n rounds; twice that is a kernel bug.
	n := ms.n
	maxPosts := uint64(2*n+8)/roundsPerGraph + 3
	var word [msMailWords]float64
	var round uint64
	for j := ms.posts + 1; ; j++ {
		slot := int(j%msMailSlots) * msMailWords
		if err := ms.mail.Await(slot+3, j); err != nil {
			return fail(err)
		}
		if err := ms.mail.Float64s(slot, word[:]); err != nil {
			return fail(err)
		}
		round = math.Float64bits(word[0])
		if round>>32 != 0 {
			return fail(fmt.Errorf("apsp: sssp-all, sources %d to %d: a frontier queue of %d slots overflowed (a kernel bug: a round lists a slot once)", base, base+b-1, int64(n)*int64(ms.groups)))
		}
		if math.Float64bits(word[1]) == 0 {
			break
		}
		if j-ms.posts > maxPosts {
			return fail(fmt.Errorf("apsp: sssp-all, sources %d to %d: no end after %d rounds on %d vertices (a kernel bug)", base, base+b-1, uint32(round), n))
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if err := launch(); err != nil {
			return fail(err)
		}
	}
	ms.posts += launched
	return int(uint32(round)), nil
}
