//go:build cuda

package traversal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

// msbfsVariant is an MSBFS's options under a name.
type msbfsVariant struct {
	name string
	opt  MSBFSOptions
}

// msbfsVariants are the directions the device MS-BFS is tested with:
// Beamer's rule with its defaults, push only, pull only, and a rule that
// pulls from the second level on and pushes again below n/4 vertices, so
// that small graphs switch both ways.
var msbfsVariants = []msbfsVariant{
	{"auto", MSBFSOptions{}},
	{"push", MSBFSOptions{Direction: DirectionPush}},
	{"pull", MSBFSOptions{Direction: DirectionPull}},
	{"auto-eager", MSBFSOptions{Alpha: 1e6, Beta: 4}},
}

// spreadRoots are k roots spread over the n vertices, repeats where k > n
// (a single-vertex graph gets vertex 0 k times).
func spreadRoots(n, k int, seed uint64) []int32 {
	out := make([]int32, k)
	for i := range out {
		out[i] = int32((uint64(i)*2654435761 + seed) % uint64(n))
	}
	return out
}

// checkBatch compares every root's depths with the queue BFS's and the
// batch's levels with the deepest search's, and the pull levels with the
// direction asked.
func checkBatch(t *testing.T, g *graph.Graph, m *MSBFS, roots []int32) {
	t.Helper()
	r, err := m.Run(context.Background(), roots)
	if err != nil {
		t.Fatalf("roots %v: %v", roots, err)
	}
	if r.N != g.NumVertices || len(r.Depth) != len(roots)*g.NumVertices {
		t.Fatalf("result of %d vertices, %d depths for %d roots", r.N, len(r.Depth), len(roots))
	}
	levels := 0
	for i, root := range roots {
		q, err := ref.BFS(g, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate.SameDepths(r.Depths(i), q.Depth); err != nil {
			t.Fatalf("root %d (#%d of %d, %s): %v", root, i, len(roots), m.opt.Direction, err)
		}
		levels = max(levels, q.Levels)
	}
	if r.Levels != levels {
		t.Fatalf("%d levels, the deepest search has %d", r.Levels, levels)
	}
	switch m.opt.Direction {
	case DirectionPush:
		if r.PullLevels != 0 {
			t.Fatalf("push only, but %d levels pulled", r.PullLevels)
		}
	case DirectionPull:
		if r.PullLevels != r.Levels {
			t.Fatalf("pull only, but %d of %d levels pulled", r.PullLevels, r.Levels)
		}
	}
}

// TestMSBFSConformance: on every graph of the conformance corpus, in every
// direction, with TWC's thresholds at 4 and 32 arcs (so that small graphs
// reach the warp and block paths) and 4 levels per captured graph, every
// root of every batch (the corpus's roots, a full batch with repeats, a
// partial one) has the queue BFS's depths. A directed graph without its
// in-arcs refuses pull only and runs auto as push.
func TestMSBFSConformance(t *testing.T) {
	device(t)
	for _, v := range msbfsVariants {
		t.Run(v.name, func(t *testing.T) {
			for _, seed := range traversaltest.Seeds {
				for _, c := range traversaltest.Cases(seed) {
					t.Run(fmt.Sprintf("%s/seed=%d", c.Name, seed), func(t *testing.T) {
						g, err := c.Build(graph.Weights{}, seed)
						if err != nil {
							t.Fatal(err)
						}
						e, err := OpenWith(device(t), g, Options{LevelsPerGraph: 4, TWCWarp: 4, TWCBlock: 32})
						if err != nil {
							t.Fatal(err)
						}
						defer e.Close()
						m, err := e.NewMSBFS(v.opt)
						noInArcs := g.Directed && g.InOffsets == nil
						if noInArcs && v.opt.Direction == DirectionPull {
							if !errors.Is(err, ErrNotApplicable) {
								t.Fatalf("pull only without in-arcs: %v, want ErrNotApplicable", err)
							}
							return
						}
						if err != nil {
							t.Fatal(err)
						}
						defer m.Close()
						if noInArcs && m.Options().Direction != DirectionPush {
							t.Fatalf("auto without in-arcs runs %v, want push", m.Options().Direction)
						}
						for _, roots := range [][]int32{
							traversaltest.Roots(g, 3, seed),
							spreadRoots(g.NumVertices, MSBFSWidth, seed),
							spreadRoots(g.NumVertices, 33, seed+1),
						} {
							checkBatch(t, g, m, roots)
						}
					})
				}
			}
		})
	}
}

// TestMSBFSKronecker: Kronecker scale 16 (hubs of thousands of arcs, a
// pull phase under the default rule), 130 roots in three batches, each
// root's depths equal to the CPU's; engine searches between the batches
// (the two share the graph, not their state) stay valid.
func TestMSBFSKronecker(t *testing.T) {
	d := device(t)
	edges, err := gen.DefaultKronecker(16).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(edges, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	roots, err := g.Roots(130, 5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.MultiSourceBFS(g, roots)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, v := range msbfsVariants {
		m, err := e.NewMSBFS(v.opt)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(roots); lo += MSBFSWidth {
			batch := roots[lo:min(lo+MSBFSWidth, len(roots))]
			r, err := m.Run(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			for i := range batch {
				if err := validate.SameDepths(r.Depths(i), want.Depths(lo+i)); err != nil {
					t.Fatalf("%s: root %d: %v", v.name, batch[i], err)
				}
			}
			t.Logf("%-10s batch of %2d: %8.3f ms, %d levels (%d pulled), %d arcs inspected (the CPU's push: %d for all batches)",
				v.name, len(batch), ms(r.Time), r.Levels, r.PullLevels, r.Inspected, want.Inspected)
			if v.name == "auto" && len(batch) == MSBFSWidth && r.PullLevels == 0 {
				t.Logf("note: Beamer's rule never pulled on Kronecker scale 16")
			}
			b, err := e.BFS(context.Background(), batch[0], LBCull)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate.BFS(g, batch[0], b.Parent, b.Depth); err != nil {
				t.Fatalf("lb-cull between MS-BFS batches: %v", err)
			}
		}
		m.Close()
	}
}

// Arguments Run refuses, and a closed MSBFS.
func TestMSBFSErrors(t *testing.T) {
	d := device(t)
	g, err := traversaltest.Cases(1)[5].Build(graph.Weights{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	m, err := e.NewMSBFS(MSBFSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, roots := range [][]int32{nil, make([]int32, MSBFSWidth+1), {-1}, {int32(g.NumVertices)}} {
		if _, err := m.Run(ctx, roots); err == nil {
			t.Errorf("%d roots %v: no error", len(roots), roots[:min(len(roots), 2)])
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Run(cancelled, []int32{0}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
	checkBatch(t, g, m, []int32{0, 1}) // still usable
	m.Close()
	if _, err := m.Run(ctx, []int32{0}); err == nil {
		t.Error("a closed MSBFS ran")
	}
	if _, err := e.NewMSBFS(MSBFSOptions{Alpha: -1}); err == nil {
		t.Error("alpha -1 accepted")
	}
}

// TestMSBFSBench (SPAC_MSBFS_BENCH=1) is issue 18's measurement of
// many-source BFS: on Kronecker scale 20 (SPAC_MSBFS_SCALE) with 64 and
// 1024 random roots of degree > 0 (SPAC_MSBFS_ROOTS), the device time per
// root and Graph500 TEPS per source (harmonic mean; a root of a batch of
// k is charged 1/k of the batch's time) of MS-BFS in every direction and
// with other settings of its rule and its level loop, against lb-cull
// (the engine's best top-down single-root BFS) and do-beamer
// (direction-optimizing, the fastest on Kronecker graphs) run root by
// root. Every MS-BFS root's depths are checked against the CPU's MS-BFS
// (on the host while the device runs the next batch), every single-root
// search by the Graph500 rules.
func TestMSBFSBench(t *testing.T) {
	if os.Getenv("SPAC_MSBFS_BENCH") == "" {
		t.Skip("set SPAC_MSBFS_BENCH=1")
	}
	d := device(t)
	t.Logf("device: %v", d.Info())
	scale := 20
	if s := os.Getenv("SPAC_MSBFS_SCALE"); s != "" {
		var err error
		if scale, err = strconv.Atoi(s); err != nil {
			t.Fatalf("SPAC_MSBFS_SCALE=%s: %v", s, err)
		}
	}
	counts := []int{64, 1024}
	if s := os.Getenv("SPAC_MSBFS_ROOTS"); s != "" {
		counts = nil
		for _, f := range splitList(s) {
			k, err := strconv.Atoi(f)
			if err != nil || k < 1 {
				t.Fatalf("SPAC_MSBFS_ROOTS=%s: %q", s, f)
			}
			counts = append(counts, k)
		}
	}
	edges, err := gen.DefaultKronecker(scale).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(edges, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(d, g)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	t.Logf("kron%d: %d vertices, %d input edges, %d arcs", scale, g.NumVertices, g.InputEdges, g.NumArcs())
	variants := append(slices.Clone(msbfsVariants),
		msbfsVariant{"auto-k4", MSBFSOptions{LevelsPerGraph: 4}},
		msbfsVariant{"auto-alpha4", MSBFSOptions{Alpha: 4}},
		msbfsVariant{"auto-alpha60", MSBFSOptions{Alpha: 60}})
	for _, count := range counts {
		roots, err := g.Roots(count, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-22s %5s %7s %10s %10s %9s %7s %6s %12s %s", "method", "roots", "batches", "ms/root", "total_ms", "GTEPS", "levels", "pulled", "arcs/root", "valid")
		best, bestName := benchMSBFS(t, e, g, variants, roots)
		// one by one: the best top-down search and direction-optimizing BFS
		for _, s := range []Strategy{LBCull, DOBeamer} {
			single := benchOneByOne(t, e, g, s, roots)
			if best > 0 && single > 0 {
				t.Logf("kron%d, %d roots: MS-BFS (%s, the fastest) %.4f ms per root, %s one by one %.4f ms: %.1fx",
					scale, len(roots), bestName, ms(best), s, ms(single), float64(single)/float64(best))
			}
		}
	}
}

// msbfsRow is one variant's figures over the roots.
type msbfsRow struct {
	total                   time.Duration
	inspected               int64
	levels, pulled, batches int
	teps                    []float64
	invalid                 []string
}

// benchMSBFS runs the roots in batches of MSBFSWidth with every variant
// (each warmed up by one batch first), checks every variant's batch
// against one CPU MS-BFS of it on a goroutine while the device runs the
// next, logs a row per variant and returns the fastest variant's device
// time per root (0 when none ran).
func benchMSBFS(t *testing.T, e *Engine, g *graph.Graph, variants []msbfsVariant, roots []int32) (time.Duration, string) {
	ctx := context.Background()
	runs := make([]*MSBFS, len(variants))
	for i, v := range variants {
		m, err := e.NewMSBFS(v.opt)
		if err != nil {
			t.Errorf("%s: %v", v.name, err)
			return 0, ""
		}
		defer m.Close()
		if _, err := m.Run(ctx, roots[:min(len(roots), MSBFSWidth)]); err != nil {
			t.Errorf("%s: warm-up: %v", v.name, err)
			return 0, ""
		}
		runs[i] = m
	}
	rows := make([]msbfsRow, len(variants))
	for i := range rows {
		rows[i].teps = make([]float64, len(roots))
	}
	var mu sync.Mutex // rows' teps and invalid, which the checks fill
	var wg sync.WaitGroup
	sem := make(chan struct{}, 1) // one check at a time: each uses every core
	for lo := 0; lo < len(roots); lo += MSBFSWidth {
		batch := roots[lo:min(lo+MSBFSWidth, len(roots))]
		res := make([]*MSBFSResult, len(variants))
		for i, m := range runs {
			r, err := m.Run(ctx, batch)
			if err != nil {
				t.Errorf("%s: batch at root %d: %v", variants[i].name, lo, err)
				wg.Wait()
				return 0, ""
			}
			res[i] = r
			rw := &rows[i]
			rw.total += r.Time
			rw.inspected += r.Inspected
			rw.levels, rw.pulled, rw.batches = max(rw.levels, r.Levels), max(rw.pulled, r.PullLevels), rw.batches+1
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(lo int, batch []int32, res []*MSBFSResult) {
			defer func() { <-sem; wg.Done() }()
			want, err := ref.MultiSourceBFS(g, batch)
			mu.Lock()
			defer mu.Unlock()
			for v, r := range res {
				if err != nil {
					rows[v].invalid = append(rows[v].invalid, err.Error())
					continue
				}
				perRoot := r.Time / time.Duration(len(batch))
				for i, root := range batch {
					if err := validate.SameDepths(r.Depths(i), want.Depths(i)); err != nil {
						rows[v].invalid = append(rows[v].invalid, fmt.Sprintf("root %d: %v", root, err))
					}
					rows[v].teps[lo+i] = validate.TEPS(g.ReachedInputEdges(r.Depths(i)), perRoot)
				}
			}
		}(lo, batch, res)
	}
	wg.Wait()
	var best time.Duration
	bestName := ""
	for i, rw := range rows {
		valid := "yes"
		if len(rw.invalid) > 0 {
			valid = fmt.Sprintf("NO (%d roots): %s", len(rw.invalid), rw.invalid[0])
			t.Errorf("msbfs-%s: %s", variants[i].name, valid)
		}
		perRoot := rw.total / time.Duration(len(roots))
		t.Logf("%-22s %5d %7d %10.4f %10.3f %9.3f %7d %6d %12.0f %s", "msbfs-"+variants[i].name, len(roots), rw.batches, ms(perRoot), ms(rw.total),
			validate.HarmonicMean(rw.teps)/1e9, rw.levels, rw.pulled, float64(rw.inspected)/float64(len(roots)), valid)
		if len(rw.invalid) == 0 && (best == 0 || perRoot < best) {
			best, bestName = perRoot, variants[i].name
		}
	}
	return best, bestName
}

// benchOneByOne searches from every root with s (one search first to warm
// up), validates each by the Graph500 rules, logs the row and returns the
// mean device time per root (0 on a failure).
func benchOneByOne(t *testing.T, e *Engine, g *graph.Graph, s Strategy, roots []int32) time.Duration {
	ctx := context.Background()
	if _, err := e.BFS(ctx, roots[0], s); err != nil {
		t.Errorf("%s: %v", s, err)
		return 0
	}
	var total time.Duration
	var teps []float64
	var inspected int64
	levels, bad := 0, 0
	first := ""
	for _, root := range roots {
		r, err := e.BFS(ctx, root, s)
		if err != nil {
			t.Errorf("%s root %d: %v", s, root, err)
			return 0
		}
		if err := validate.BFS(g, root, r.Parent, r.Depth); err != nil {
			if bad++; first == "" {
				first = fmt.Sprintf("root %d: %v", root, err)
			}
		}
		total += r.Time
		teps = append(teps, validate.TEPS(g.ReachedInputEdges(r.Parent), r.Time))
		inspected += r.Inspected
		levels = max(levels, r.Levels)
	}
	valid := "yes"
	if bad > 0 {
		valid = fmt.Sprintf("NO (%d roots): %s", bad, first)
		t.Errorf("%s one by one: %s", s, valid)
	}
	perRoot := total / time.Duration(len(roots))
	t.Logf("%-22s %5d %7s %10.4f %10.3f %9.3f %7d %6s %12.0f %s", s.String()+" one by one", len(roots), "-", ms(perRoot), ms(total),
		validate.HarmonicMean(teps)/1e9, levels, "-", float64(inspected)/float64(len(roots)), valid)
	return perRoot
}
