package traversal

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// SPAC's static edge schedule (strategy spac-schedule): the graph's
// adjacency as a sparse matrix, row = source and column = target, its
// entries the arcs in CSR order (entry k is arc k), partitioned by SPAC
// over the spmv locality graph into parts of at most B arcs and laid out
// by package schedule. Schedule block b runs part b: it stages its unique
// sources (the rows YUnique[YOffsets[b]:YOffsets[b+1]]) in shared memory,
// masked by the frontier, and slot t runs the arc NewSchedule[b*B+t]
// from the source at block-local address YLocal[slot]: a level (BFS) or a
// Bellman-Ford round over the vertices improved in the last one (SSSP) is
// a masked semiring product over the schedule. A schedule block is skipped
// unless a source of it entered the frontier (a per-block stamp written by
// the push; see kernels/traversal.cu).
//
// The schedule is the engine's Options.Schedule when given (it must be
// the schedule of this graph's adjacency, AdjacencyMatrix), otherwise it
// is built on first use with BuildSchedule (block size
// Options.ScheduleBlock, cached in Options.ScheduleCache when set).
//
// Measured on the H100 (TestSpacScheduleBench, B = 1024), it never pays:
// it is slower per root than the engine's best strategy on both graphs,
// so no number of roots recovers the partition's host time.
//
//	graph            schedule (host)  BFS ms/root (best other)     SSSP ms/root (best other)
//	road 4000x4000   19.2 s           143.9 (persistent 75.1)      1184 (near-far 904)
//	Kronecker 20     73.9 s           3.25 (lb-cull 1.31)          21.3 (lb-cull 5.81)
//
// Where it loses: on the road graph a level costs 22 us against the
// persistent kernel's 11.5 (a launch per level, and a stamp read per
// schedule block), and an SSSP round runs a whole 1024-arc block for one
// active source (6.3G arcs inspected against near-far's 49M). On Kronecker
// graphs a vertex's arcs spread over 14 blocks on average, so staging
// reads ~9M source states per heavy level, and the topology-driven sweep
// touches every arc of an active block where lb-cull touches only the
// frontier's.

// DefaultScheduleBlock is the block size of the schedule the engine builds.
const DefaultScheduleBlock = 1024

func init() {
	Module.Entries = append(Module.Entries, "spac_bfs", "spac_sssp", "spac_seed")
}

// AdjacencyMatrix is g's adjacency as a pattern matrix: entry k is arc k,
// (source, target).
func AdjacencyMatrix(g *graph.Graph) *matrices.COO {
	n := g.NumVertices
	m := &matrices.COO{Name: g.Name, NRows: n, NCols: n, Row: g.Sources(), Col: g.Adj, Field: matrices.Pattern, Symmetry: matrices.General}
	if m.Row == nil {
		m.Row = []int32{}
	}
	if m.Col == nil {
		m.Col = []int32{}
	}
	return m
}

// ScheduleConfig is the partition the engine's schedules use: SPAC with
// its defaults, seed 1.
func ScheduleConfig() pipeline.PartitionConfig {
	return pipeline.PartitionConfig{Method: "spac", Settings: spac.Options{Seed: 1, DominantWeight: spac.DefaultDominantWeight,
		Imbalance: spac.DefaultImbalance, Coarsen: spac.DefaultCoarsen, Polish: spac.DefaultPolish}}
}

// BuildSchedule partitions g's adjacency (the spmv locality graph of
// AdjacencyMatrix) with SPAC into parts of at most blockSize arcs and
// builds the schedule, from cache when it holds it (a nil cache neither
// finds nor stores). The duration is the whole host time: locality graph,
// partition and layout (near zero from the cache).
func BuildSchedule(ctx context.Context, g *graph.Graph, blockSize int, cache *schedule.Cache) (*schedule.Schedule, pipeline.Provenance, time.Duration, error) {
	start := time.Now()
	if blockSize < 1 || blockSize > 1024 {
		return nil, pipeline.Provenance{}, 0, fmt.Errorf("traversal: schedule block size %d: want 1 to 1024", blockSize)
	}
	coo := AdjacencyMatrix(g)
	in := &pipeline.Input{Matrix: coo, Used: coo, AsStored: true, Model: matrices.ModelSpMV}
	s, prov, err := pipeline.Schedule(ctx, in, ScheduleConfig(), schedule.Options{BlockSize: blockSize, ValueBytes: 4}, cache, nil)
	return s, prov, time.Since(start), err
}

// spacArrays is a schedule as the kernels read it: per schedule block its
// unique sources (yoff, yuni), per slot (b*B+t) the arc's target (tgt, -1
// for padding), its source's block-local address (sloc) and weight (ws,
// slot order); per vertex the schedule blocks where it is a source
// (vblk[vboff[v]:vboff[v+1]]).
type spacArrays struct {
	nb, bs int
	yoff   []int32
	yuni   []int32
	tgt    []int32
	sloc   []uint16
	ws     []float32
	vboff  []int64
	vblk   []int32
}

// scheduleArrays maps s, which must be the schedule of g's adjacency, to
// the kernels' arrays; it checks every slot against g's arcs.
func scheduleArrays(g *graph.Graph, s *schedule.Schedule) (*spacArrays, error) {
	n, m := g.NumVertices, int(g.NumArcs())
	if s == nil {
		return nil, fmt.Errorf("traversal: no schedule")
	}
	if s.NRows != n || s.NCols != n || s.NNZ != m {
		return nil, fmt.Errorf("traversal: a schedule of %d x %d with %d entries for a graph of %d vertices and %d arcs", s.NRows, s.NCols, s.NNZ, n, m)
	}
	if s.BlockSize < 1 || s.BlockSize > 1024 {
		return nil, fmt.Errorf("traversal: schedule block size %d: the kernel runs 1 to 1024", s.BlockSize)
	}
	nb, bs := s.NumBlocks(), s.BlockSize
	if len(s.NewSchedule) != nb*bs || len(s.YOffsets) != nb+1 {
		return nil, fmt.Errorf("traversal: a schedule of %d blocks with %d slots and %d row offsets", nb, len(s.NewSchedule), len(s.YOffsets))
	}
	a := &spacArrays{nb: nb, bs: bs, yoff: s.YOffsets, yuni: s.YUnique, tgt: make([]int32, nb*bs), sloc: make([]uint16, nb*bs)}
	if g.Weight != nil {
		a.ws = make([]float32, nb*bs)
	}
	src := g.Sources()
	seen := make([]bool, m)
	for slot, k := range s.NewSchedule {
		a.tgt[slot] = -1
		if k < 0 {
			continue
		}
		b := slot / bs
		loc := int(s.YLocal[slot])
		if int(k) >= m || seen[k] {
			return nil, fmt.Errorf("traversal: schedule slot %d runs entry %d twice or out of range", slot, k)
		}
		seen[k] = true
		y0, y1 := int(s.YOffsets[b]), int(s.YOffsets[b+1])
		if loc < 0 || loc >= y1-y0 || loc >= 1<<16 || s.YUnique[y0+loc] != src[k] || s.Rows[slot] != src[k] || s.Cols[slot] != g.Adj[k] {
			return nil, fmt.Errorf("traversal: schedule slot %d (arc %d, %d -> %d) does not match the graph", slot, k, src[k], g.Adj[k])
		}
		a.tgt[slot], a.sloc[slot] = g.Adj[k], uint16(loc)
		if a.ws != nil {
			a.ws[slot] = g.Weight[k]
		}
	}
	a.vboff = make([]int64, n+1)
	for _, u := range s.YUnique {
		a.vboff[u+1]++
	}
	for v := range n {
		a.vboff[v+1] += a.vboff[v]
	}
	a.vblk = make([]int32, len(s.YUnique))
	fill := append([]int64(nil), a.vboff[:n]...)
	for b := range nb {
		for _, u := range s.YUnique[s.YOffsets[b]:s.YOffsets[b+1]] {
			a.vblk[fill[u]] = int32(b)
			fill[u]++
		}
	}
	return a, nil
}

// spacState is the strategy's device arrays (once per engine).
type spacState struct {
	a                                      *spacArrays
	yoff, yuni, tgt, sloc, ws, vboff, vblk *gpu.Buffer
	stamp                                  *gpu.Buffer
	buildTime                              time.Duration
	prov                                   pipeline.Provenance
}

// ScheduleBuildTime is the host time the engine's schedule took (zero
// when it was given or not yet needed) and where it came from.
func (e *Engine) ScheduleBuildTime() (time.Duration, pipeline.Provenance) {
	if e.sp == nil {
		return 0, pipeline.Provenance{}
	}
	return e.sp.buildTime, e.sp.prov
}

// needSchedule builds or takes the schedule and uploads its arrays (once).
func (e *Engine) needSchedule() error {
	if e.sp != nil {
		return nil
	}
	sp := &spacState{}
	s := e.opt.Schedule
	if s == nil {
		bs := e.opt.ScheduleBlock
		if bs == 0 {
			bs = DefaultScheduleBlock
		}
		var err error
		if e.m == 0 {
			s = &schedule.Schedule{NRows: int(e.n), NCols: int(e.n), BlockSize: bs, BlockOffsets: []int32{0}, YOffsets: []int32{0}, XOffsets: []int32{0}}
		} else if s, sp.prov, sp.buildTime, err = BuildSchedule(context.Background(), e.g, bs, e.opt.ScheduleCache); err != nil {
			return err
		}
	}
	a, err := scheduleArrays(e.g, s)
	if err != nil {
		return err
	}
	sp.a = a
	for _, u := range []error{
		upload(e, &sp.yoff, a.yoff, "the schedule's source offsets"),
		upload(e, &sp.yuni, nonEmpty(a.yuni), "the schedule's sources"),
		upload(e, &sp.tgt, nonEmpty(a.tgt), "the schedule's targets"),
		upload(e, &sp.sloc, nonEmpty(a.sloc), "the schedule's local addresses"),
		upload(e, &sp.vboff, a.vboff, "the sources' block offsets"),
		upload(e, &sp.vblk, nonEmpty(a.vblk), "the sources' blocks"),
	} {
		if u != nil {
			return u
		}
	}
	if a.ws != nil {
		if err := upload(e, &sp.ws, nonEmpty(a.ws), "the schedule's weights"); err != nil {
			return err
		}
	}
	if err := e.alloc(&sp.stamp, 4*int64(max(a.nb, 1)), "the schedule blocks' stamps"); err != nil {
		return err
	}
	e.sp = sp
	return nil
}

// spacGrid is the CUDA blocks of a level: at most two of B threads per
// 2048 threads of a multiprocessor, grid-stride over the schedule blocks.
func (e *Engine) spacGrid() int {
	a := e.sp.a
	return max(1, min(a.nb, e.sms*max(1, 2048/a.bs)*2))
}

// spacLevel is the launch of one level of spac-schedule.
func (e *Engine) spacLevel(a Algorithm) ([]func() error, error) {
	if err := e.needSchedule(); err != nil {
		return nil, err
	}
	sp := e.sp
	name, s1, s2, w := "spac_bfs", gpu.Ptr(e.depth), gpu.Ptr(e.parent), uint64(0)
	if a == SSSP {
		name, s1, s2 = "spac_sssp", gpu.Ptr(e.dp), 0
		if sp.ws != nil {
			w = gpu.Ptr(sp.ws)
		}
	}
	l, err := e.mod.Launch(name, e.spacGrid(), sp.a.bs, 0,
		gpu.Ptr(e.off), gpu.Ptr(e.adj), w, 0, gpu.Int(int(e.n)), uint64(e.m), s1, s2, gpu.Ptr(e.mark), gpu.Ptr(e.ctl),
		gpu.Ptr(sp.yoff), gpu.Ptr(sp.yuni), gpu.Ptr(sp.tgt), gpu.Ptr(sp.sloc), gpu.Ptr(sp.stamp), gpu.Ptr(sp.vboff), gpu.Ptr(sp.vblk),
		gpu.Int(sp.a.nb))
	if err != nil {
		return nil, err
	}
	return []func() error{l.Run}, nil
}

// spacInit stamps every schedule block -1 and the root's 0 (before a run).
func (e *Engine) spacInit(root int32) error {
	if err := e.sp.stamp.Fill32(math.MaxUint32); err != nil {
		return err
	}
	l, err := e.mod.Launch("spac_seed", 1, 256, 0, gpu.Ptr(e.sp.stamp), gpu.Ptr(e.sp.vboff), gpu.Ptr(e.sp.vblk), gpu.Int(int(root)))
	if err != nil {
		return err
	}
	return l.Run()
}
