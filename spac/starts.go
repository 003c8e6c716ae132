package spac

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// A start is a first partition that SPAC polishes and refines. SPAC's own
// is the split-and-connect partition ("metis"); the others are the rules of
// the strongest baselines, each the very partition its method returns.
//
// Why several: no single first partition wins on every family. On the
// shared inputs and the generators at block size 1024, split-and-connect
// leads on circuits and chemical-process matrices (rajat01 0.75 of the best
// baseline's copies, bayer10 0.91), neighbourhood expansion on social,
// collaboration, power-law and FEM graphs (SPAC's own start alone had 1.4
// to 1.6 times NE's copies on CA-CondMat, facebook and wiki-Vote), WVP's
// vertex partition on 2-D meshes under the spmv model (copter2: 1.56
// times), and row order on banded FEM matrices at large blocks. RefinePairs
// lowers each by a few to 10%, not 50%: it improves a start locally and
// cannot turn one family's structure into another's. Keeping the best
// refined start makes SPAC at most each of those baselines on every input,
// and below them where the refinement finds more.
var startNames = []string{"metis", "ne", "hep", "wvp", "default"}

// DefaultStarts are the starts SPAC runs when Options.Starts is nil, on
// graphs below coarsenMinEdges edges; LargeStarts from there on.
var DefaultStarts = startNames

// LargeStarts are the default starts on graphs of coarsenMinEdges edges or
// more, where every start costs seconds: HEP's start, NE's rule with HDRF
// for the hubs, never led NE's by more than 3.5% below 1M edges and row
// order never led at all, so both are left out there.
var LargeStarts = []string{"metis", "ne", "wvp"}

// hugeStartsEdges is the size from which the starts are chosen by the
// input (hugeStarts): all of them would take the in-2004 stand-in (16.5M
// edges) from 16 s to 40 s on two cores, and hold every start's memory.
const hugeStartsEdges = 4 << 20

// hugeStarts are the starts from hugeStartsEdges edges on, by the degrees'
// coefficient of variation and by clusterLocality:
//   - even degrees (CV below evenDegrees) and clustered (meshes): the
//     own start, then NE's, the better kept, and WVP greedy's after them
//     below wvpTwoStageParts parts, or below extraStartsMaxEdges edges
//     unless the numbering is banded (in one METIS call where wvpOneCall,
//     else in two stages; on a banded FEM matrix of 5.4M tasks in 5271 and
//     21,083 parts it took SPAC from 4.9 to 19.5 s and from 6.9 to 29.6 s
//     for the same copies, stop 46); from parts of
//     largeParts edges on, where the numbering is banded (bandedOrder),
//     the row order too: on a FEM matrix of 5.4M tasks in parts of 4096
//     the row order alone had 194,514 copies, SPAC without it 199,395 and
//     with it 192,180 (stop 46). On meshes neither of the first two
//     always leads (NE's by 9% on a 160^3 3-D Laplacian, the own start by
//     1.75x on a 1500^2 2-D one), and on a 100^3 Laplacian the NE method
//     alone had 0.934x the own start's copies. WVP greedy's start took
//     SPAC from 1.033x WVP greedy's copies to 0.968x on a 100x100x70
//     Laplacian (4.85M tasks, 1185 parts; 9.3 s against 4.9 s), and cut
//     the copies by 9.0% on a 160^3 one (28.5M tasks, 1741 parts; 51 s
//     against 28 s, peak 93 B/task against 88). Cut in two stages, where
//     the one call costs too much, it gained nothing where measured, at a
//     cost: the 160^3 Laplacian in 27,791 parts took 68.5 s against 37.5
//     s, and its peak went from 88 to 104 B/task (stop 44). On a 2-D
//     Markov chain of 4.5M tasks (stop 46) SPAC without it had 1.115x
//     (graph model) and 1.017x (spmv) WVP greedy's copies in 4399 parts,
//     1.081x and 1.026x in 17,596; with its start in two stages 1.006x and
//     1.012x, 0.979x and 1.002x; in one call 0.973x and 0.992x, 0.967x and
//     0.994x.
//   - even degrees, not clustered (Erdos-Renyi graphs): NE's, and under
//     the spmv model WVP greedy's after it. An expander has no clusters for
//     the own start to find: on Erdos-Renyi graphs of 4.8M edges (16 and 8
//     a row) and 16M it had 1.0014x, 0.9976x and 0.9981x NE's copies after
//     refinement, for twice the time; its coarse levels stay as dense as
//     the input, so METIS's share took its peak to 187 B/edge (NE's alone:
//     77). WVP greedy's vertex cut of the bipartite graph does better under
//     the spmv model: on one of 4.8M tasks it had 0.989x (parts of 1024)
//     and 0.984x (4096) what SPAC kept from NE's start, and with its start
//     SPAC leads it (0.9997x, 0.9995x). The price is its METIS call: 48-53
//     s against 5 s there (one call: wvpStart), and from
//     extraStartsMaxEdges its memory, so there NE's start runs alone and
//     SPAC loses to WVP greedy (1.016x its copies on a graph of 16.0M
//     tasks), unless the memory budget leaves WVP greedy's start room
//     (roomForQualityStarts). Under the graph model NE's start leads WVP greedy without it
//     (0.997x NE's copies, WVP greedy's 1.026x).
//   - numbered with locality (orderLocality below scatteredOrder: web
//     crawls with their hosts' pages together, circuits and FEM matrices
//     as they come): the own start, which leads NE's by 19-20% on web
//     crawls and 33% on a circuit-like matrix; and from parts of
//     largeParts edges on, the input's row order too, the better kept.
//     Large parts cut from the order as given keep its locality: there the
//     row order led the own start by 4.9% (parts of 4096 edges) and 16%
//     (16384) on the in-2004 stand-in, by 5.1% and 0.4% on a 20M-row
//     circuit, where the own start led by 7.7% and 0.4% at 1024; on the
//     circuit5M stand-in the own start led at every size (18-36%). Run
//     after the own start it added 2.2-7.1 s (in-2004 at 4096 and 16384
//     tasks a part, circuit5M at 4096; stop 43 in docs/partition-quality).
//     Under the graph model NE's and WVP greedy's too, below
//     extraStartsMaxEdges edges: on a circuit-like matrix of 5.2M tasks
//     SPAC without WVP greedy's had 1.006x, 1.053x and 1.069x its copies
//     (parts of 256, 1024, 4096), with it 0.986x, 0.993x and 0.998x; on a
//     web-like graph of 5.3M tasks in parts of 256 NE had 0.997x what
//     SPAC kept from the own start and WVP greedy's (stop 46).
//   - clustered but numbered at random (clusterLocality below
//     clusteredBelow): both, the better kept, and below extraStartsMaxEdges
//     WVP greedy's, whose vertex cut does not depend on the numbering. The
//     own start does: on a web crawl numbered at random it had 1.53x NE's
//     copies, on a circuit numbered at random still 0.85x; on a circuit of
//     8.8M tasks numbered at random SPAC from both had 1.105x (graph model)
//     and 1.073x (spmv) WVP greedy's copies at B=1024 (stop 46).
//   - scattered with skewed degrees (CV at least skewedDegrees: R-MAT,
//     Barabasi-Albert): NE's, 0.77x the own start's copies on a Graph500
//     R-MAT graph and 0.98x on a Barabasi-Albert one; in parts of fewer
//     than smallParts tasks, below extraStartsMaxEdges, HEP's after it: on
//     an R-MAT graph of 5.2M tasks in parts of 256 (spmv model) HEP had
//     0.991x what SPAC kept from NE's start, and with its start SPAC 0.995x
//     HEP's copies, 12.3 s against 4.7 (stop 46); in parts of 1024 and 4096
//     NE led HEP by 7-15% there, and on a Barabasi-Albert graph by 0.5-1.5%
//     at every size.
//   - scattered, neither: both, the better kept (a flatter R-MAT graph:
//     NE's 0.98x the own start's).
//
// After refinement, measured on generated inputs of 8M to 28M edges
// (docs/partition-quality, stops 29 and 31). One start where one is known
// to lead: both would take in-2004 from 16 s to 40 s on two cores. Two run
// one after the other, not side by side: the memory of one start.
func hugeStarts(g *matrices.Graph, inc *matrices.Incidence, opts Options) []string {
	capEdges := opts.Cap
	cv := degreeCV(inc)
	even := cv < evenDegrees
	roomy := roomForQualityStarts(g.NumEdges(), opts) // room for starts added for quality alone
	switch {
	case evenExpander(g, inc):
		if g.Model == matrices.ModelSpMV && roomy {
			return []string{"ne", "wvp"}
		}
		return []string{"ne"}
	case even:
		starts := []string{"metis", "ne"}
		banded := orderLocality(g) < bandedOrder
		if k := (g.NumEdges() + capEdges - 1) / capEdges; k < wvpTwoStageParts || (roomy && !banded) {
			starts = append(starts, "wvp")
		}
		if capEdges >= largeParts && banded {
			starts = append(starts, "default")
		}
		return starts
	case orderLocality(g) < scatteredOrder:
		starts := []string{"metis"}
		if capEdges >= largeParts {
			starts = append(starts, "default")
		}
		if g.Model == matrices.ModelGraph && roomy {
			starts = append(starts, "ne", "wvp")
		}
		return starts
	case clusterLocality(g, inc) < clusteredBelow:
		if roomy {
			return []string{"metis", "ne", "wvp"}
		}
		return []string{"metis", "ne"}
	case cv >= skewedDegrees:
		if capEdges < smallParts && roomy {
			return []string{"ne", "hep"}
		}
		return []string{"ne"}
	}
	return []string{"metis", "ne"}
}

// hugeStarts' thresholds. orderLocality: the circuit-like matrix 0.49, the
// web-like ones 0.31-0.32, any input numbered at random above 1.
// clusterLocality: the web-like, circuit-like and FEM inputs 0.25-0.61 (the
// in-2004 and circuit5M stand-ins 0.37 and 0.47), numbered at random or
// not; R-MAT, Barabasi-Albert and Erdos-Renyi graphs 0.87-1.00. Degrees'
// CV: meshes 0.01-0.05, Erdos-Renyi 0.35; R-MAT and Barabasi-Albert graphs
// 1.1-6.6 (a flatter R-MAT graph 0.95). smallParts: the part size below
// which a scattered, skewed input runs HEP's start too. largeParts: the part size from which
// an input numbered with locality runs its row order as a start too;
// bandedOrder, the order locality below which a mesh does (a banded FEM
// matrix 0.11-0.16; 3-D Laplacians in their grid order 0.69, 2-D ones 0.80,
// where the row order's parts are thin slabs and never led).
const (
	smallParts     = 1024
	largeParts     = 4096
	bandedOrder    = 0.5
	scatteredOrder = 0.7
	clusteredBelow = 0.75
	skewedDegrees  = 1
	evenDegrees    = 0.5
)

// clusterLocality is how many distinct vertices the tasks of a
// breadth-first ball touch, per distinct task (a task and its mirror, as a
// symmetric matrix expanded in the graph model has, count once): the
// median over clusterSamples balls of localWindow tasks, each grown from a
// random vertex. Vertices of more than clusterHub tasks are not grown from
// (their tasks would fill a ball at once with a vertex each, in any graph
// with hubs). Near 1 where every task brings a vertex of its own (an
// expander: R-MAT, Barabasi-Albert, Erdos-Renyi), well below where tasks
// close cycles nearby (meshes, circuits, web hosts): the clusters METIS
// finds, whatever the input's numbering, which orderLocality cannot tell
// (a web crawl or a circuit numbered at random reads as scattered there).
func clusterLocality(g *matrices.Graph, inc *matrices.Incidence) float64 {
	n := len(inc.Offsets) - 1
	if n == 0 {
		return 0
	}
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, 0, clusterSamples)
	tasks := make(map[int32]bool, localWindow)
	pairs := make(map[uint64]bool, localWindow)
	seen := make(map[int32]bool, 2*localWindow)
	var queue []int32
	for tries := 0; len(vals) < clusterSamples && tries < 16*clusterSamples; tries++ {
		v := int32(r.IntN(n))
		if d := inc.Degree(int(v)); d == 0 || d > clusterHub {
			continue
		}
		clear(tasks)
		clear(pairs)
		clear(seen)
		seen[v] = true
		queue = append(queue[:0], v)
		for len(queue) > 0 && len(tasks) < localWindow {
			u := queue[0]
			queue = queue[1:]
			if inc.Degree(int(u)) > clusterHub {
				continue
			}
			for _, e := range inc.Edge[inc.Offsets[u]:inc.Offsets[u+1]] {
				if len(tasks) == localWindow {
					break
				}
				if tasks[e] {
					continue
				}
				tasks[e] = true
				pairs[pairKey(g.U[e], g.V[e])] = true
				if w := g.Opposite(e, u); !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
		if len(tasks) >= localWindow/2 { // not a small component
			vals = append(vals, float64(len(seen))/float64(len(pairs)))
		}
	}
	if len(vals) == 0 {
		return 0
	}
	slices.Sort(vals)
	return vals[len(vals)/2]
}

// orderLocality is the mean number of distinct vertices that windows of
// localWindow consecutive tasks touch, per distinct task of the window (a
// task and its mirror, as a symmetric matrix expanded in the graph model
// has side by side, count once: they touch the same two vertices, and
// counted twice they halved a Barabasi-Albert graph's 1.11 to 0.56, below
// scatteredOrder): 2 where every task has two endpoints of its own, near 0
// where a window's tasks share a few vertices. localWindows windows spread
// evenly over the tasks.
func orderLocality(g *matrices.Graph) float64 {
	m := g.NumEdges()
	if m < localWindow {
		return 0
	}
	ends := make([]int32, 0, 2*localWindow)
	pairs := make([]uint64, 0, localWindow)
	var sum float64
	for w := range localWindows {
		start := int(int64(m-localWindow) * int64(w) / (localWindows - 1))
		ends = append(ends[:0], g.U[start:start+localWindow]...)
		ends = append(ends, g.V[start:start+localWindow]...)
		slices.Sort(ends)
		pairs = pairs[:0]
		for i := start; i < start+localWindow; i++ {
			pairs = append(pairs, pairKey(g.U[i], g.V[i]))
		}
		slices.Sort(pairs)
		sum += float64(len(slices.Compact(ends))) / float64(len(slices.Compact(pairs)))
	}
	return sum / localWindows
}

// pairKey is the task u-v's pair of vertices, the same for v-u (its mirror).
func pairKey(u, v int32) uint64 {
	a, b := uint32(u), uint32(v)
	return uint64(min(a, b))<<32 | uint64(max(a, b))
}

const (
	localWindow    = 1024
	localWindows   = 256
	clusterSamples = 64
	clusterHub     = 64
)

// degreeCV is the coefficient of variation of the degrees of the vertices
// with any.
func degreeCV(inc *matrices.Incidence) float64 {
	var n, sum, sq float64
	for v := range len(inc.Offsets) - 1 {
		if d := float64(inc.Degree(v)); d > 0 {
			n++
			sum += d
			sq += d * d
		}
	}
	if n == 0 {
		return 0
	}
	mean := sum / n
	return math.Sqrt(max(sq/n-mean*mean, 0)) / mean
}

// startMethod returns the function that computes the named start.
func startMethod(name string) (func(context.Context, *matrices.Graph, *matrices.Incidence, Options) (Partition, error), error) {
	switch name {
	case "metis":
		return splitConnect, nil
	case "ne":
		return NE{}.Partition, nil
	case "hep":
		return HEP{}.Partition, nil
	case "wvp":
		return wvpStart, nil
	case "default":
		return Default{}.Partition, nil
	}
	return nil, fmt.Errorf("unknown start %q (choose from %s)", name, strings.Join(startNames, ","))
}

// wvpStart is WVP greedy's partition; on graphs where SPAC coarsens
// (coarsenMinEdges edges on) and where its one K-way call costs too much
// (not wvpOneCall), its vertex partition is made in two stages, as SPAC's
// own METIS calls are (the in-2004 stand-in: the one call took 62 s of WVP
// greedy's 63 s at K = 16085). Not on an expander with even degrees
// (evenExpander: Erdos-Renyi graphs), where the two stages' cut lost to the
// one call: on one of 4.8M tasks in 4686 parts, refined, the two stages had
// 3,542,146 copies and the one call 3,537,221, against WVP greedy's
// 3,538,284; both took 41-48 s.
func wvpStart(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	cfg := wvpGreedyConfig
	cfg.twoStage = g.NumEdges() >= coarsenMinEdges && !wvpOneCall(g.NumEdges(), opts.K) && !evenExpander(g, inc)
	return wvp(ctx, "wvp-greedy", cfg, g, inc, opts)
}

// wvpOneCall reports whether the wvp start of a graph of m edges in k parts
// is WVP greedy's own partition, its vertex partition in one K-way METIS
// call: below wvpTwoStageParts parts, and from wvpOneCallMinEdges edges to
// extraStartsMaxEdges where k times m is at most wvpOneCallMaxWork. There
// the two stages' cut, refined, lost to WVP greedy's own by 0.2-1.2% on
// five of six settings measured (generated graphs of 4.5-5.2M tasks in
// 4399-20,335 parts: a circuit under the graph model, a 2-D Markov chain
// under both), where the one call kept SPAC ahead (0.967-0.994x WVP greedy's
// copies). Below hugeStartsEdges, where every start runs, the two stages
// lost nowhere measured, and the one call took the cant stand-in at B=1024
// from 8.5-9.1 s to 13.9-14.2 s for the same copies (docs/partition-quality,
// stop 46).
func wvpOneCall(m, k int) bool {
	return k < wvpTwoStageParts || (m >= wvpOneCallMinEdges && m < extraStartsMaxEdges && int64(k)*int64(m) <= wvpOneCallMaxWork)
}

// wvpOneCallMinEdges is hugeStartsEdges (a variable for the tests, whose
// graphs are smaller).
var wvpOneCallMinEdges = hugeStartsEdges

// wvpOneCallMaxWork bounds parts times edges for WVP greedy's one K-way call
// from wvpTwoStageParts parts. Its time grows about as that product, 0.2 s
// per 1e9 on this project's 2-core machine: 4-13 s at 2.0-2.8e10 (4.5-5.4M
// tasks in 4399-5271 parts), 12.5-19.4 s at 7.9e10-1.1e11 (the same in
// 17,596-21,083 parts), 62 s at 2.7e11 (the in-2004 stand-in in 16085
// parts). The bound takes in the largest measured where the one call led
// and the two stages did not (a circuit under the graph model in 20,335
// parts, 1.06e11). Where it does not lead it is time lost: on a banded FEM
// matrix of 5.4M tasks in 5271 parts SPAC took 19.5 s against 4.9 for the
// same copies (stop 46).
var wvpOneCallMaxWork int64 = 12e10

// extraStartsMaxEdges is the size from which hugeStarts adds no start for
// quality alone (WVP greedy's, HEP's; NE's under the graph model where the
// own start runs), so that item 3 of issue 19 holds (at most 100 B/edge
// from 16M edges): WVP greedy's METIS call would break it. On an
// Erdos-Renyi graph of 15,999,735 tasks in 3907 parts SPAC from NE's and
// WVP greedy's starts took 227 s and peaked at 180 B/task against NE's 17 s
// and 55 B/task, for 11,718,507 copies against 11,906,770 (WVP greedy's
// own: 11,720,119). The other added starts' memory was not measured at
// that size. A memory budget of qualityStartsPerTask or more lifts the
// bound (roomForQualityStarts).
var extraStartsMaxEdges = 16_000_000

// qualityStartsPerTask is the memory budget (Options.MemoryPerTask, bytes
// a task) from which the starts added for quality alone run from
// extraStartsMaxEdges too: WVP greedy's METIS call, the costliest of them,
// peaked at 178-180 B/task there. A user who gives SPAC that room (or no
// bound) gets its start on an Erdos-Renyi graph and SPAC at or below WVP
// greedy's copies, where NE's start alone leaves it 1.6% above.
const qualityStartsPerTask = 200

// roomForQualityStarts reports whether a graph of m edges has the memory,
// under opts' budget, for the starts added for quality alone.
func roomForQualityStarts(m int, opts Options) bool {
	perTask := opts.memoryPerTask()
	return m < extraStartsMaxEdges || perTask < 0 || perTask >= qualityStartsPerTask
}

// evenExpander reports whether g is an expander with even degrees (an
// Erdos-Renyi graph): degrees' CV below evenDegrees, clusterLocality at
// least clusteredBelow. hugeStarts and wvpStart treat such graphs apart.
func evenExpander(g *matrices.Graph, inc *matrices.Incidence) bool {
	return degreeCV(inc) < evenDegrees && clusterLocality(g, inc) >= clusteredBelow
}

// wvpTwoStageParts is the part count from which the wvp start cuts in two
// stages. Below it the one K-way call is cheap, and the two stages' cut
// can be worse than WVP greedy's own: on a 9-point 2-D Laplacian of 2M
// edges (graph model, 488 parts) SPAC kept 28,146 copies against WVP
// greedy's 28,074, its wvp start refined reaching only 29,621. WVP greedy's
// one call took 0.4-1.7 s at 488-1951 parts on the graphs of 0.6-2M edges
// of the generators, and 2.4-9.5 s at 2393-7804.
const wvpTwoStageParts = 2048

// ParseStarts reads a comma-separated list of start names; "auto" (or
// nothing) is nil, the defaults for the graph's size.
func ParseStarts(s string) ([]string, error) {
	if s = strings.TrimSpace(s); s == "" || s == "auto" {
		return nil, nil
	}
	var out []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if _, err := startMethod(n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// fromStarts computes every start of opts, in parallel (from
// hugeStartsEdges one after the other), polishes and refines each, and
// returns the one with the fewest copies. Without opts.Starts they are
// chosen by the graph's size, or by opts.StartsBySize: a share of a
// distributed run then runs what the single machine would run on the
// whole input (hugeStarts from hugeStartsEdges), not the several starts
// its own size would get, which made 4M-task shares slower than 8M-task
// ones.
func fromStarts(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	names := opts.Starts
	size := int64(g.NumEdges())
	if opts.StartsBySize > 0 {
		size = opts.StartsBySize
	}
	switch {
	case names != nil:
	case size >= hugeStartsEdges:
		names = hugeStarts(g, inc, opts)
	case size >= int64(coarsenMinEdges):
		names = LargeStarts
	default:
		names = DefaultStarts
	}
	if len(names) == 0 {
		return Partition{}, fmt.Errorf("spac: no start")
	}
	// Progress may be called from every start: one at a time.
	var mu sync.Mutex
	report := opts.Progress
	sub := opts
	sub.Progress = nil
	if report != nil {
		sub.Progress = func(stage string) {
			mu.Lock()
			defer mu.Unlock()
			report(stage)
		}
	}
	// From hugeStartsEdges the starts run one after the other, each dropped
	// once a better one is known: the memory of one start.
	oneAtATime := size >= hugeStartsEdges
	// start i, polished and refined, and its copies where there are several
	// to choose from (one needs no counting: 0.7 s on the circuit5M
	// stand-in).
	run := func(i int) (Partition, int64, error) {
		method, err := startMethod(names[i])
		if err != nil {
			return Partition{}, 0, fmt.Errorf("spac: %w", err)
		}
		p, err := method(ctx, g, inc, sub)
		if err != nil {
			return Partition{}, 0, fmt.Errorf("spac: start %s: %w", names[i], err)
		}
		if err := improve(ctx, g, inc, &p, sub); err != nil {
			return Partition{}, 0, fmt.Errorf("spac: start %s: %w", names[i], err)
		}
		var copies int64
		if len(names) > 1 {
			if oneAtATime {
				giveBack() // the start's work arrays, before the count and the next start allocate
			}
			copies = Evaluate(g, inc, p).Copies
			tell(sub, fmt.Sprintf("start %s: %d copies", names[i], copies))
		}
		return p, copies, nil
	}
	if oneAtATime {
		var best Partition
		var least int64
		for i := 0; i < len(names); i++ { // NE's may join (below)
			if names[i] == "metis" {
				sub.budget = newMemoryBudget(g, inc, opts, best.Part)
			}
			p, c, err := run(i)
			sub.budget = nil
			if over := (*overBudget)(nil); errors.As(err, &over) {
				// Left out: the process holds to the bound, and another
				// start (NE's below, where none came before) gives the parts.
				tell(sub, fmt.Sprintf("start %s: left out (%v)", names[i], over))
				giveBack()
				if i == len(names)-1 && best.Part == nil {
					names = append(names, "ne")
				}
				continue
			}
			if err != nil {
				return Partition{}, err
			}
			if best.Part == nil || c < least {
				best, least = p, c
			}
		}
		return best, nil
	}
	parts := make([]Partition, len(names))
	copies := make([]int64, len(names))
	err := par.DoCtx(ctx, len(names), func(i int) error {
		var err error
		parts[i], copies[i], err = run(i)
		return err
	})
	if err != nil {
		return Partition{}, err
	}
	best := 0
	for i := range names {
		if copies[i] < copies[best] {
			best = i
		}
	}
	return parts[best], nil
}

// improve runs the passes that follow every start: Polish (as many passes
// as Options.Polish resolves to for the input's size) and RefinePairs.
func improve(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, p *Partition, opts Options) error {
	// The start's work arrays are garbage now, and the heap is large
	// enough that the collector would not run before the passes allocate
	// theirs: collected, they take that room instead of fresh pages (on a
	// 19.1M-task 3-D mesh NE's start then refined at 1,891 MiB, against
	// 1,446 for the own start's, whose multilevel scheme collects as it
	// goes).
	reclaim()
	if passes := polishPasses(opts.Polish, g.NumEdges()); passes > 0 {
		tell(opts, "polish")
		if _, err := Polish(ctx, g, inc, p, opts.Cap, passes); err != nil {
			return err
		}
	}
	if opts.Refine > 0 {
		tell(opts, "refine")
		if _, err := RefinePairs(ctx, g, inc, p, opts.Cap, opts.Refine); err != nil {
			return err
		}
	}
	return nil
}
