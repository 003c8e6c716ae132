package spac

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
	"github.com/spac-gpu/spac/transform"
)

// DefaultDominantWeight is the paper's "infinite" weight of dominant edges.
const DefaultDominantWeight = 1000

// DefaultImbalance is the imbalance METIS may leave before the cap pass
// takes over; see the closing notes of the partitioner benchmarks.
const DefaultImbalance = 0.03

// DefaultCoarsen is the most levels of matching done in Go before METIS on
// large graphs (see multilevel); the coarsening stops earlier, at about
// coarsestPerPart vertices per part.
const DefaultCoarsen = 8

// DefaultPolish asks for the polish where it pays: PolishPasses passes of
// Polish after the cap pass below polishMinTasks tasks, none from there.
// Alone the polish saves copies (5.9% on a Barabasi-Albert graph of average
// degree 8, under 0.1% on meshes), and RefinePairs, which follows it, finds
// most of the same moves: with the refinement after it, the polish still
// saved 0.02% to 2.1% of the copies below 1M tasks (CA-CondMat under the
// spmv model at block size 4096: 15,888 against 16,224), but 0.002% to 0.04%
// from 1.5M to 60M tasks, for up to 12% of the time (3 s of the circuit5M
// stand-in's 80).
const DefaultPolish = -1

// PolishPasses is how many passes of Polish DefaultPolish runs: the copies
// it saves come in the first two or three.
const PolishPasses = 4

// polishMinTasks is the size from which DefaultPolish runs no polish.
const polishMinTasks = 1 << 20

// polishPasses resolves Options.Polish for m tasks: negative asks for
// DefaultPolish's choice.
func polishPasses(polish, m int) int {
	switch {
	case polish >= 0:
		return polish
	case m < polishMinTasks:
		return PolishPasses
	}
	return 0
}

// Revision names the version of SPAC's algorithm: it changes whenever the
// same input and options give a different partition, so that schedules
// cached by an older version are not taken for this one's.
const Revision = "2026-11-28.8"

// coarsenMinEdges is the size from which the multilevel scheme applies:
// below it METIS on the whole graph is fast anyway and the matching's small
// loss of quality buys nothing. A variable, so that the tests can take the
// multilevel path on small graphs.
var coarsenMinEdges = 1 << 20

// refinePasses bounds the greedy refinement sweeps at each level projected
// back from METIS; the moves die out after a few.
const refinePasses = 4

// SPAC is the split-and-connect partitioner: transform; METIS on the
// transformed graph, inside a multilevel scheme of our own from
// coarsenMinEdges edges on; Omega back to edges (the contracted form needs
// none); the cap pass; and Polish.
type SPAC struct{}

func init() { register(SPAC{}) }

// Name implements Method.
func (SPAC) Name() string { return "spac" }

// Partition implements Method. METIS cannot be interrupted, so on
// cancellation the call returns ctx.Err() at once and the abandoned METIS
// run finishes in the background.
//
// SPAC runs from several starts (Options.Starts, DefaultStarts when nil),
// in parallel: its own split-and-connect partition and those of the
// strongest rules of the baselines; each is polished (Options.Polish) and
// refined by RefinePairs, and the one with the fewest copies is kept (ties:
// the earlier start). See starts.go for why.
func (SPAC) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := ctx.Err(); err != nil {
		return Partition{}, err
	}
	m := g.NumEdges()
	if opts.K < 1 || opts.K*opts.Cap < m {
		return Partition{}, fmt.Errorf("spac: %d parts of at most %d edges cannot hold %d edges", opts.K, opts.Cap, m)
	}
	if opts.K == 1 {
		return Partition{K: 1, Part: make([]int32, m)}, nil
	}
	return fromStarts(ctx, g, inc, opts)
}

// splitConnect is SPAC's own start: transform; METIS on the transformed
// graph, inside a multilevel scheme of our own from coarsenMinEdges edges
// on; Omega back to edges (the contracted form needs none); the cap pass.
func splitConnect(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	progress := func(stage string) {
		if opts.Progress != nil {
			opts.Progress(stage)
		}
	}
	m := g.NumEdges()
	dominant := opts.DominantWeight
	if dominant == 0 {
		dominant = DefaultDominantWeight
	}

	progress("transform")
	var tg *transform.WeightedGraph
	var err error
	switch opts.Formulation {
	case transform.Contracted:
		tg, err = transform.Contract(g, inc, opts.Order)
	case transform.Split:
		dominant = fitDominant(m, dominant, progress)
		tg, err = transform.SplitConnect(g, inc, opts.Order, dominant)
	default:
		err = fmt.Errorf("unknown formulation %v", opts.Formulation)
	}
	if err != nil {
		return Partition{}, fmt.Errorf("spac: %w", err)
	}

	// A part's vertex weight counts clones: one per edge when contracted,
	// two when split. The cap and the coarsening bound follow.
	perEdge := 1
	if opts.Formulation == transform.Split {
		perEdge = 2
	}
	maxLoad := int64(perEdge) * int64(opts.Cap)

	// Large graphs get the multilevel scheme of our own around METIS;
	// below coarsenMinEdges, or with coarsening off, METIS sees the graph.
	// METIS wants no more parts than vertices; the parts beyond stay empty.
	k := min(opts.K, m)
	var vertexPart []int32
	coarsened := m >= coarsenMinEdges && opts.Coarsen > 0
	if coarsened {
		softLoad := int64(float64(maxLoad) * (1 + imbalance(opts)))
		// An input numbered without locality (orderLocality at
		// scatteredOrder or more) has its tasks' neighbours far apart in the
		// transformed graph too, so the coarsening pairs across its ranges:
		// on a circuit of 17M tasks numbered at random that took SPAC from
		// 1,496,710 copies and a peak of 119 B/task to 1,386,447 and 97
		// (item 3's bound is 100), and a road-like graph numbered at random from
		// 42,635 to 41,692 copies (B=1024, graph model). In the natural
		// order it cost circuit5M 7-12 s for 0.16% fewer copies, and in-2004
		// 0.36% more copies: there it stays off.
		across := orderLocality(g) >= scatteredOrder
		vertexPart, err = multilevel(ctx, tg, k, softLoad, int32(max(2, perEdge*opts.Cap/16)), opts.Coarsen, across, opts.budget, metisOptions(opts), progress)
	} else {
		progress("metis")
		vertexPart, err = partitionVertices(ctx, tg, k, maxLoad, metisOptions(opts))
	}
	if err != nil {
		return Partition{}, fmt.Errorf("spac: %w", err)
	}

	// In the contracted form vertex e is edge e: the vertex partition is
	// the edge partition already, and it is ours to keep.
	part := vertexPart
	if opts.Formulation != transform.Contracted {
		progress("omega")
		if part, err = transform.Omega(g, inc, opts.Formulation, vertexPart); err != nil {
			return Partition{}, fmt.Errorf("spac: %w", err)
		}
	}
	p := Partition{K: opts.K, Part: part}

	progress("cap")
	if coarsened {
		giveBack() // the levels' room, more than what follows needs
	} else {
		reclaim()
	}
	if _, err := EnforceCap(g, inc, &p, opts.Cap); err != nil {
		return Partition{}, fmt.Errorf("spac: %w", err)
	}
	return p, nil
}

// fitDominant lowers the dominant weight where the split graph's total edge
// weight (every edge counted from both ends, as METIS sums it) would
// overflow METIS's 32-bit weights: 2m dominant ends plus at most 4m
// auxiliary ends of weight 1. Any weight above 2 already outweighs what
// cutting a dominant edge could save (two auxiliary edges), so the lowered
// weight still keeps dominant edges uncut in practice.
func fitDominant(m int, dominant int32, progress func(string)) int32 {
	limit := (math.MaxInt32 - 4*int64(m)) / (2 * int64(m))
	if int64(dominant) <= limit {
		return dominant
	}
	fitted := int32(max(limit, 3))
	progress(fmt.Sprintf("dominant weight %d lowered to %d to fit METIS's 32-bit weight sums", dominant, fitted))
	return fitted
}

// imbalance is the imbalance opts asks of METIS: DefaultImbalance when
// unset.
func imbalance(opts Options) float64 {
	if opts.Imbalance == 0 {
		return DefaultImbalance
	}
	return opts.Imbalance
}

// metisOptions translates the method options into METIS's.
func metisOptions(opts Options) metis.Options {
	ufactor := int(imbalance(opts)*1000 + 0.5)
	if ufactor < 1 {
		ufactor = 1
	}
	return metis.Options{Seed: int32(opts.Seed), UFactor: ufactor}
}

// runMETIS runs METIS through par.Await, so that a cancelled context
// returns at once; METIS itself cannot be stopped.
func runMETIS(ctx context.Context, g *metis.Graph, k int, opts metis.Options) ([]int32, error) {
	return par.Await(ctx, func() ([]int32, error) {
		part, _, err := metis.PartGraph(g, k, opts)
		return part, err
	})
}
