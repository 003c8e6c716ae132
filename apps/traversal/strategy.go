package traversal

import (
	"fmt"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/enum"
)

// Algorithm is what a traversal computes.
type Algorithm uint8

const (
	BFS  Algorithm = iota + 1 // breadth-first search: depth and parent
	SSSP                      // single-source shortest paths: float32 distance and predecessor
)

var algorithms = enum.New("algorithm",
	enum.Name[Algorithm]{Value: BFS, Name: "bfs"},
	enum.Name[Algorithm]{Value: SSSP, Name: "sssp"},
)

func (a Algorithm) String() string { return algorithms.String(a) }

// Strategy is a load-balancing policy: how a level's frontier edges map to
// GPU threads. Every strategy runs the same operator (BFS's visit, SSSP's
// relax); see the package documentation.
type Strategy uint8

const (
	Thread        Strategy = iota + 1 // node-based, data-driven: a thread per frontier vertex (Gunrock's ThreadExpand; the slides' queue BFS)
	Persistent                        // node-based, data-driven, in one persistent kernel: levels separated by a software grid barrier
	PersistentTWC                     // TWC's thread/warp/CTA grouping in one persistent kernel
	Topo                              // node-based, topology-driven: a thread per vertex, active when stamped with the level (the slides' parallel BFS)
	Edge                              // edge-based over the COO arcs, topology-driven, one atomic per push
	EdgeChunk                         // edge-based with work chunking: 8 arcs per thread, one atomic per warp's batch of pushes
	LB                                // workload decomposition / Gunrock LB: scan of frontier degrees, equal edge ranges, merge-path search
	LBCull                            // LB whose output drops duplicate vertices (BFS: CAS visit; SSSP always culls)
	TWC                               // Gunrock's thread / warp / CTA grouping (thresholds 32 and 512)
	NodeSplit                         // node splitting: pieces of at most MDT arcs, a thread per piece, topology-driven
	Hierarchical                      // hierarchical processing: MDT arcs per vertex, then WD for the rest; WD alone below 1024 entries
	ScanBFS                           // the slides' scan BFS: frontier flags compacted by a scan into a queue, then a thread per entry
	Pull                              // direction-optimizing BFS: TWC's push below a frontier of n/PullDivisor vertices, a bottom-up pull over the in-arcs above
	NearFar                           // SSSP near-far: LB-cull over the vertices below a threshold, the others in a far pile until the threshold rises by Delta
	DeltaStepping                     // SSSP delta-stepping: near-far relaxing light arcs (weight < Delta) per level, a settled bucket's heavy arcs once
	TwoPhase                          // Harish-Narayanan two-phase SSSP with the atomic (CAS) update
	TwoPhaseRacy                      // the same with the original racy update: a negative test, fails validation
	SpacSchedule                      // SPAC's static edge schedule: a level as a masked product over the schedule, sources staged in shared memory

	// The implementations of Verstraaten, Varbanescu and de Laat
	// (mix-and-match BFS, 2018; kernels/adaptive.cu, paper.go):
	// topology-driven, the frontier read from the depth stamps, no queue,
	// each with the next frontier counted by a plain atomic per vertex, a
	// warp reduction or a block reduction.
	EdgeListAtomic    // edge list: a thread per COO arc, active when its source is in the frontier
	EdgeListWarp      //   the same, counted by warp reduction
	EdgeListBlock     //   the same, counted by block reduction
	RevEdgeListAtomic // reverse edge list: a thread per in-arc, active when its target is unvisited and its source in the frontier
	RevEdgeListWarp
	RevEdgeListBlock
	VertexPushAtomic // vertex push: a thread per frontier vertex over its out-arcs
	VertexPushWarp
	VertexPushBlock
	VertexPullAtomic // vertex pull: a thread per unvisited vertex over its in-arcs, to the first in the frontier
	VertexPullWarp
	VertexPullBlock
	VWPush2  // vertex push with virtual warps of 2 lanes per vertex, counted by warp reduction
	VWPush4  //   of 4 lanes
	VWPush8  //   of 8
	VWPush16 //   of 16
	VWPush32 //   of 32 (a warp per vertex)
	// DOBeamer is direction-optimizing BFS with Beamer's alpha/beta rule
	// decided on the device from the frontier's counters: a push that
	// deals large vertices' arcs over the grid, a bottom-up pull over the
	// in-arcs while the rule says so.
	DOBeamer
)

// strategyInfo is the one table of the strategies: name, aliases and what
// each supports.
type strategyInfo struct {
	bfs, sssp bool
	negative  bool
	doc       string
}

var strategyNames = enum.New("strategy",
	enum.Name[Strategy]{Value: Thread, Name: "thread", Aliases: []string{"node", "queue", "bs"}},
	enum.Name[Strategy]{Value: Persistent, Name: "persistent", Aliases: []string{"persist"}},
	enum.Name[Strategy]{Value: PersistentTWC, Name: "persistent-twc"},
	enum.Name[Strategy]{Value: Topo, Name: "topo", Aliases: []string{"parallel"}},
	enum.Name[Strategy]{Value: Edge, Name: "edge", Aliases: []string{"ep"}},
	enum.Name[Strategy]{Value: EdgeChunk, Name: "edge-chunk", Aliases: []string{"chunk"}},
	enum.Name[Strategy]{Value: LB, Name: "lb", Aliases: []string{"wd"}},
	enum.Name[Strategy]{Value: LBCull, Name: "lb-cull"},
	enum.Name[Strategy]{Value: TWC, Name: "twc"},
	enum.Name[Strategy]{Value: NodeSplit, Name: "ns", Aliases: []string{"node-split"}},
	enum.Name[Strategy]{Value: Hierarchical, Name: "hp", Aliases: []string{"hierarchical"}},
	enum.Name[Strategy]{Value: ScanBFS, Name: "scan"},
	enum.Name[Strategy]{Value: Pull, Name: "pull", Aliases: []string{"do", "direction-optimizing"}},
	enum.Name[Strategy]{Value: NearFar, Name: "near-far", Aliases: []string{"nf"}},
	enum.Name[Strategy]{Value: DeltaStepping, Name: "delta-stepping", Aliases: []string{"delta"}},
	enum.Name[Strategy]{Value: TwoPhase, Name: "two-phase"},
	enum.Name[Strategy]{Value: TwoPhaseRacy, Name: "two-phase-racy"},
	enum.Name[Strategy]{Value: SpacSchedule, Name: "spac-schedule", Aliases: []string{"spac"}},
	enum.Name[Strategy]{Value: EdgeListAtomic, Name: "edge-list-atomic"},
	enum.Name[Strategy]{Value: EdgeListWarp, Name: "edge-list-warp"},
	enum.Name[Strategy]{Value: EdgeListBlock, Name: "edge-list-block"},
	enum.Name[Strategy]{Value: RevEdgeListAtomic, Name: "rev-edge-list-atomic", Aliases: []string{"reverse-edge-list-atomic"}},
	enum.Name[Strategy]{Value: RevEdgeListWarp, Name: "rev-edge-list-warp", Aliases: []string{"reverse-edge-list-warp"}},
	enum.Name[Strategy]{Value: RevEdgeListBlock, Name: "rev-edge-list-block", Aliases: []string{"reverse-edge-list-block"}},
	enum.Name[Strategy]{Value: VertexPushAtomic, Name: "push-atomic", Aliases: []string{"vertex-push-atomic"}},
	enum.Name[Strategy]{Value: VertexPushWarp, Name: "push-warp", Aliases: []string{"vertex-push-warp"}},
	enum.Name[Strategy]{Value: VertexPushBlock, Name: "push-block", Aliases: []string{"vertex-push-block"}},
	enum.Name[Strategy]{Value: VertexPullAtomic, Name: "pull-atomic", Aliases: []string{"vertex-pull-atomic"}},
	enum.Name[Strategy]{Value: VertexPullWarp, Name: "pull-warp", Aliases: []string{"vertex-pull-warp"}},
	enum.Name[Strategy]{Value: VertexPullBlock, Name: "pull-block", Aliases: []string{"vertex-pull-block"}},
	enum.Name[Strategy]{Value: VWPush2, Name: "vw-push-2"},
	enum.Name[Strategy]{Value: VWPush4, Name: "vw-push-4"},
	enum.Name[Strategy]{Value: VWPush8, Name: "vw-push-8"},
	enum.Name[Strategy]{Value: VWPush16, Name: "vw-push-16"},
	enum.Name[Strategy]{Value: VWPush32, Name: "vw-push-32"},
	enum.Name[Strategy]{Value: DOBeamer, Name: "do-beamer", Aliases: []string{"beamer"}},
)

var strategyTable = map[Strategy]strategyInfo{
	Thread:        {true, true, false, "node-based, a thread per frontier vertex (ThreadExpand; queue BFS)"},
	Persistent:    {true, true, false, "a thread per frontier vertex in one persistent kernel, a grid barrier per level"},
	PersistentTWC: {true, true, false, "TWC's grouping in one persistent kernel, a grid barrier per level"},
	Topo:          {true, true, false, "node-based, topology-driven: a thread per vertex (level-synchronous parallel BFS)"},
	Edge:          {true, true, false, "edge-based over the COO arcs, topology-driven"},
	EdgeChunk:     {true, true, false, "edge-based with work chunking (one atomic per batch)"},
	LB:            {true, true, false, "workload decomposition: scan of frontier degrees, equal edge ranges (merge-path)"},
	LBCull:        {true, true, false, "LB with duplicate culling of the output frontier"},
	TWC:           {true, true, false, "thread/warp/CTA grouping at degrees 32 and 512"},
	NodeSplit:     {true, true, false, "node splitting at the MDT of the degree histogram"},
	Hierarchical:  {true, true, false, "hierarchical processing: MDT arcs per vertex, then WD; WD below 1024"},
	ScanBFS:       {true, true, false, "scan-based frontier compaction, then a thread per entry"},
	Pull:          {true, false, false, "direction-optimizing BFS: TWC push, bottom-up pull on large frontiers (needs in-arcs)"},
	NearFar:       {false, true, false, "near-far SSSP: lb-cull below a threshold raised by Delta, a far pile above"},
	DeltaStepping: {false, true, false, "delta-stepping SSSP: near-far over the light arcs, each settled bucket's heavy arcs once"},
	TwoPhase:      {false, true, false, "two-phase SSSP (Harish-Narayanan) with the atomic update"},
	TwoPhaseRacy:  {false, true, true, "two-phase SSSP with the racy update (negative test: fails validation)"},
	SpacSchedule:  {true, true, false, "SPAC's static edge schedule: sources staged in shared memory, blocks without an active source skipped"},

	EdgeListAtomic:    {true, false, false, "edge list (Verstraaten et al.): a thread per COO arc, topology-driven; next frontier counted by an atomic per vertex"},
	EdgeListWarp:      {true, false, false, "edge list, the next frontier counted by warp reduction"},
	EdgeListBlock:     {true, false, false, "edge list, the next frontier counted by block reduction"},
	RevEdgeListAtomic: {true, false, false, "reverse edge list: a thread per in-arc into an unvisited vertex, bottom-up over arcs (needs in-arcs); atomic count"},
	RevEdgeListWarp:   {true, false, false, "reverse edge list, counted by warp reduction (needs in-arcs)"},
	RevEdgeListBlock:  {true, false, false, "reverse edge list, counted by block reduction (needs in-arcs)"},
	VertexPushAtomic:  {true, false, false, "vertex push: a thread per vertex, active when in the frontier, over its out-arcs; atomic count"},
	VertexPushWarp:    {true, false, false, "vertex push, counted by warp reduction"},
	VertexPushBlock:   {true, false, false, "vertex push, counted by block reduction"},
	VertexPullAtomic:  {true, false, false, "vertex pull (bottom-up every level, not direction-optimizing): a thread per unvisited vertex over its in-arcs; atomic count"},
	VertexPullWarp:    {true, false, false, "vertex pull, counted by warp reduction (needs in-arcs)"},
	VertexPullBlock:   {true, false, false, "vertex pull, counted by block reduction (needs in-arcs)"},
	VWPush2:           {true, false, false, "vertex push with virtual warps of 2 lanes per vertex; warp-reduced count"},
	VWPush4:           {true, false, false, "vertex push with virtual warps of 4 lanes per vertex; warp-reduced count"},
	VWPush8:           {true, false, false, "vertex push with virtual warps of 8 lanes per vertex; warp-reduced count"},
	VWPush16:          {true, false, false, "vertex push with virtual warps of 16 lanes per vertex; warp-reduced count"},
	VWPush32:          {true, false, false, "vertex push with a warp per vertex; warp-reduced count"},
	DOBeamer:          {true, false, false, "direction-optimizing BFS with Beamer's alpha/beta rule on the device's counters: load-balanced push, warp-assisted bottom-up pull (needs in-arcs)"},
}

func (s Strategy) String() string {
	switch s {
	case onDevice:
		return "adaptive (decided on the device)"
	case oneBlock:
		return "one-block push"
	}
	return strategyNames.String(s)
}

// ParseStrategy reads a strategy's name or alias.
func ParseStrategy(name string) (Strategy, error) { return strategyNames.Parse(name) }

// ParseStrategies reads a comma-separated list; "all" is every strategy
// that is neither a negative test nor offline.
func ParseStrategies(list string) ([]Strategy, error) {
	if list == "all" {
		var out []Strategy
		for _, s := range Strategies() {
			if !s.Negative() && !s.Offline() {
				out = append(out, s)
			}
		}
		return out, nil
	}
	return strategyNames.ParseList(list)
}

// StrategyNames lists the names, for help texts.
func StrategyNames() []string { return strategyNames.Names() }

// Strategies returns every strategy, in the table's order.
func Strategies() []Strategy { return strategyNames.Values() }

// Supports says whether the strategy runs algorithm a.
func (s Strategy) Supports(a Algorithm) bool {
	i, ok := strategyTable[s]
	return ok && (a == BFS && i.bfs || a == SSSP && i.sssp)
}

// Negative says the strategy is a planted bug kept for the validator's
// test (its results are wrong on purpose); "all" leaves it out.
func (s Strategy) Negative() bool { return strategyTable[s].negative }

// Offline says the strategy needs a host-side preprocess of the graph
// that takes seconds to minutes (spac-schedule: a SPAC partition of the
// adjacency, about 74 s on Kronecker scale 20) unless its schedule is
// given or cached; "all" leaves it out, naming it runs it.
func (s Strategy) Offline() bool { return s == SpacSchedule }

// Doc is a one-line description.
func (s Strategy) Doc() string { return strategyTable[s].doc }

// Paper says the strategy is one of Verstraaten et al.'s implementations
// (kernels/adaptive.cu): edge list, reverse edge list, vertex push and
// pull, virtual-warp push.
func (s Strategy) Paper() bool { return s >= EdgeListAtomic && s <= VWPush32 }

// MDTBins is the default number of bins of the degree histogram that
// gives the split threshold.
const MDTBins = 1024

// MDT is Raval et al.'s maximum degree threshold for node splitting and
// hierarchical processing: the out-degrees counted in bins equal-width bins
// over [0, maxDeg] (degree d in bin d*bins/(maxDeg+1)); with t the index of
// the tallest bin counted from 1 (the lowest bin on ties), MDT =
// ceil(t/bins * maxDeg), at least 1. O(n).
func MDT(g *graph.Graph, bins int) (int, error) {
	if bins < 1 {
		return 0, fmt.Errorf("traversal: a degree histogram of %d bins", bins)
	}
	n := g.NumVertices
	if n == 0 {
		return 1, nil
	}
	maxDeg := g.MaxDegree()
	count := make([]int64, bins)
	for v := range n {
		d := g.Offsets[v+1] - g.Offsets[v]
		count[int(d*int64(bins)/(maxDeg+1))]++
	}
	tallest := 0
	for i, c := range count {
		if c > count[tallest] {
			tallest = i
		}
	}
	mdt := (int64(tallest+1)*maxDeg + int64(bins) - 1) / int64(bins)
	return int(max(mdt, 1)), nil
}

// pieces splits every vertex's arcs into pieces of at most mdt arcs:
// piece p covers arcs [start[p], start[p+1]) of vertex owner[p]; vertices
// without arcs have none. O(n + pieces).
func pieces(g *graph.Graph, mdt int) (start []int64, owner []int32, err error) {
	if mdt < 1 {
		return nil, nil, fmt.Errorf("traversal: split threshold %d", mdt)
	}
	for v := range g.NumVertices {
		b, e := g.Offsets[v], g.Offsets[v+1]
		for k := b; k < e; k += int64(mdt) {
			start = append(start, k)
			owner = append(owner, int32(v))
		}
	}
	if len(owner) > 1<<31-2 {
		return nil, nil, fmt.Errorf("traversal: %d pieces at split threshold %d: more than an int32 counts", len(owner), mdt)
	}
	start = append(start, g.Offsets[g.NumVertices])
	return start, owner, nil
}
