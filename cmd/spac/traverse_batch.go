package main

// spac bfs GRAPH --batch: many-source BFS (MS-BFS), 64 roots searched
// together a bit per root, against the best single-root search run root
// by root: on the GPU apps/traversal's MSBFS against do-beamer, on the CPU
// ref.MultiSourceBFS against the parallel BFS.

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/validate"
)

// The one-by-one strategies the batch is compared with: the engine's best
// BFS on power-law graphs, where many-source work is done (direction-
// optimizing, docs/traverse-h100), and the parallel CPU BFS.
const (
	batchGPUSingle = "do-beamer"
	batchCPUSingle = "parallel"
)

// registerBatch adds --batch to the bfs and sssp commands (sssp refuses
// it with a message) and teaches it in the help.
func registerBatch(c *cobra.Command, f *traverseFlags) {
	c.Flags().BoolVar(&f.batch, "batch", false, "many-source BFS: search the --roots 64 at a time, a bit per root per vertex (MS-BFS), against "+batchGPUSingle+" (--gpu) or "+batchCPUSingle+" one by one; --alpha and --beta steer its pull phase with --gpu")
	if c.Name() != problemBFS.String() {
		return
	}
	c.Long += `

--batch runs many-source BFS (MS-BFS, Then et al., VLDB 2015), the
building block of closeness and betweenness centrality: the roots are
searched 64 at a time, bit i of a 64-bit word per vertex standing for the
batch's root i, so that a vertex in the frontier of many searches has its
arcs read once per level for all of them (the last batch may be partial).
With --gpu each level pushes the frontier's words with atomic ORs, or
pulls them over the in-arcs while the frontier is large (Beamer's rule on
the batch's words: --alpha, --beta). Two rows: msbfs, where each root of
a batch of k is charged 1/k of the batch's time (so TEPS is per source,
harmonic mean, as in every other row), and the single-root search run
root by root (do-beamer with --gpu, parallel without); a line under the
table gives the mean time per root of each and their ratio. Every msbfs
root's depths must equal the CPU's BFS depths exactly (with --gpu: the
CPU's MS-BFS, computed on the host while the device runs the next batch;
without: the one-by-one search's, itself validated by the Graph500
rules). --batch takes neither --strategy, --levels, --out nor --budget.`
	c.Example += `
  spac bfs kron:scale=20 --gpu --roots 1024 --batch   # 16 batches of 64 against do-beamer one by one`
}

// batchSummary is what the line under the table says (and json's
// "batch").
type batchSummary struct {
	Width         int     `json:"width"`
	Batches       int     `json:"batches"`
	Direction     string  `json:"direction,omitempty"` // the device's rule
	PullLevels    int     `json:"pull_levels_max"`
	MSBFSMs       float64 `json:"msbfs_ms_per_root_mean"`
	Single        string  `json:"one_by_one"`
	SingleMs      float64 `json:"one_by_one_ms_per_root_mean"`
	SpeedupByMean float64 `json:"speedup"`
}

// batchReport is traverseReport with the batch's summary.
type batchReport struct {
	traverseReport
	Batch batchSummary `json:"batch"`
}

// batchUsage refuses what --batch does not combine with.
func batchUsage(c *cobra.Command, p problem, f *traverseFlags) error {
	fl := c.Flags()
	switch {
	case p != problemBFS:
		return usagef("--batch is many-source BFS, a bit per root per vertex: run it as 'spac bfs GRAPH --batch'; sssp has no batched form (drop --batch)")
	case fl.Changed("strategy") && !strings.EqualFold(strings.TrimSpace(f.strategy), "all"):
		return usagef("--batch compares MS-BFS with %s (--gpu) or %s one by one; --strategy %s does not apply (drop it, or drop --batch to run that strategy)", batchGPUSingle, batchCPUSingle, f.strategy)
	case f.levels != "":
		return usagef("--levels times the engine's single-root levels; it does not apply to --batch")
	case f.out != "":
		return usagef("--out writes one root's arrays; --batch does not write arrays (drop --out)")
	case f.budget != 0:
		return usagef("--budget limits a strategy's roots; --batch runs every root in both rows (drop --budget, or give fewer --roots)")
	}
	return nil
}

// runTraverseBatch is 'spac bfs GRAPH --batch'.
func runTraverseBatch(c *cobra.Command, p problem, arg string, f *traverseFlags) error {
	if err := batchUsage(c, p, f); err != nil {
		return err
	}
	st, err := f.parse(c, p, arg)
	if err != nil {
		return err
	}
	ctx := c.Context()
	g, err := loadTraversalGraph(arg, f, st, p, c.ErrOrStderr())
	if err != nil {
		return err
	}
	roots, err := pickRoots(c, g, f)
	if err != nil {
		return err
	}
	single := batchCPUSingle
	var t traverser
	var msbfs *engine.MSBFS
	if f.useGPU {
		single = batchGPUSingle
		if t, err = openGPU(ctx, g, p, f.device, engine.Options{}); err != nil {
			return err
		}
		defer t.Close()
		if msbfs, err = t.(*gpuTraverser).e.NewMSBFS(engine.MSBFSOptions{Alpha: f.alpha, Beta: f.beta}); err != nil {
			return err
		}
		defer msbfs.Close()
	} else {
		t = &cpuTraverser{g: g, p: p, par: cpuParams{alpha: f.alpha, beta: f.beta}}
	}
	rep := &batchReport{traverseReport: traverseReport{Problem: p.String(), Graph: g.Name, Vertices: g.NumVertices, InputEdges: g.InputEdges,
		Arcs: g.NumArcs(), Directed: g.Directed, Engine: fmt.Sprintf("cpu (%d threads)", runtime.GOMAXPROCS(0)), Validated: st.validate}}
	rep.Batch = batchSummary{Width: engine.MSBFSWidth, Single: single + " one by one"}
	if f.useGPU {
		rep.Engine = fmt.Sprintf("gpu %d", f.device)
		o := msbfs.Options()
		rep.Batch.Direction = o.Direction.String()
		if o.Direction == engine.DirectionAuto {
			rep.Batch.Direction += fmt.Sprintf(" (alpha %g, beta %g)", o.Alpha, o.Beta)
		}
	}
	rep.RootsFrom = fmt.Sprintf("%d random roots of degree > 0 (seed %d) in batches of %d", len(roots), f.seed, engine.MSBFSWidth)
	if c.Flags().Changed("root") {
		rep.RootsFrom = fmt.Sprintf("root %d", f.root)
	}
	for _, r := range roots {
		rep.Roots = append(rep.Roots, inputID(g, r))
	}
	rows := []strategyRow{{Strategy: "msbfs", Valid: "yes"}, {Strategy: single, Valid: "yes"}}
	if !st.validate {
		rows[0].Valid, rows[1].Valid = "not checked", "not checked"
	}
	bar := f.in.progress().Count("bfs --batch", len(roots))
	checks := newChecker(g, p, rows, st.validate, f.useGPU)
	batchChecks := newBatchChecker(g, &rows[0], st.validate && f.useGPU)
	fail := func(err error) error {
		checks.wait()
		batchChecks.wait()
		bar.Finish()
		return err
	}
	var msTotal, singleTotal time.Duration
	for lo := 0; lo < len(roots); lo += engine.MSBFSWidth {
		batch := roots[lo:min(lo+engine.MSBFSWidth, len(roots))]
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		rep.Batch.Batches++
		bar.Describe(fmt.Sprintf("msbfs batch %d of %d", rep.Batch.Batches, (len(roots)+engine.MSBFSWidth-1)/engine.MSBFSWidth))
		res, err := runBatch(ctx, g, msbfs, batch)
		if err != nil {
			return fail(fmt.Errorf("msbfs of %d roots from root %d: %w", len(batch), inputID(g, batch[0]), err))
		}
		msTotal += res.elapsed
		rep.Batch.PullLevels = max(rep.Batch.PullLevels, res.pulled)
		// On the GPU the host checks this batch against the CPU's MS-BFS
		// while the device runs the next searches; on the CPU, where the
		// clock times the searches, each root is checked against its
		// one-by-one search below.
		if f.useGPU || !st.validate {
			batchChecks.add(res)
		}
		bar.Describe(fmt.Sprintf("bfs %s one by one", single))
		for i, root := range batch {
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			one, run, err := searchOnce(ctx, t, g, p, root, single)
			if err != nil {
				return fail(fmt.Errorf("bfs %s from root %d: %w", single, inputID(g, root), err))
			}
			singleTotal += time.Duration(run.Ms * float64(time.Millisecond))
			checks.add(1, root, one, run, nil)
			if !f.useGPU && st.validate {
				// the reference is valid when its row says so: a failed
				// Graph500 check there names the root
				rows[0].add(res.run(g, i, validate.SameDepths(res.depths(i), one.Depth)))
			}
			bar.Add(1)
		}
	}
	checks.wait()
	batchChecks.wait()
	bar.Finish()
	for i := range rows {
		rows[i].summarize()
	}
	rep.Rows = rows
	n := time.Duration(len(roots))
	rep.Batch.MSBFSMs, rep.Batch.SingleMs = durationMs(msTotal/n), durationMs(singleTotal/n)
	if msTotal > 0 {
		rep.Batch.SpeedupByMean = float64(singleTotal) / float64(msTotal)
	}
	if err := writeBatch(c.OutOrStdout(), f.format, rep); err != nil {
		return err
	}
	var failed []string
	for _, r := range rows {
		if r.failed {
			failed = append(failed, r.Strategy+": "+r.Valid)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d rows failed validation:\n  %s", len(failed), len(rows), strings.Join(failed, "\n  "))
	}
	return nil
}

func durationMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// batchResult is one batch's depths and figures, from the device or the
// CPU.
type batchResult struct {
	roots     []int32
	n         int
	depth     []int32 // root i's at depth[i*n:(i+1)*n]
	elapsed   time.Duration
	levels    int
	pulled    int
	inspected int64
}

func (b *batchResult) depths(i int) []int32 { return b.depth[i*b.n : (i+1)*b.n] }

// run is root i's figures: 1/k of the batch's time and arcs, and the
// check's verdict (nil: valid).
func (b *batchResult) run(g *graph.Graph, i int, check error) rootRun {
	k := len(b.roots)
	per := max(b.elapsed/time.Duration(k), time.Nanosecond)
	edges := g.ReachedInputEdges(b.depths(i))
	insp := b.inspected / int64(k)
	r := rootRun{Root: inputID(g, b.roots[i]), Ms: durationMs(per), InputEdges: edges, TEPS: validate.TEPS(edges, per), Inspected: insp,
		InspectedRate: validate.InspectedPerSecond(insp, per), Levels: b.levels, Valid: "yes"}
	if check != nil {
		r.Valid = check.Error()
		if g.NewID != nil {
			r.Valid += " (vertex ids after --relabel)"
		}
	}
	return r
}

// runBatch searches from the roots together: on the device when msbfs is
// set (its events time it), else with the CPU reference (the clock).
func runBatch(ctx context.Context, g *graph.Graph, msbfs *engine.MSBFS, roots []int32) (*batchResult, error) {
	if msbfs != nil {
		r, err := msbfs.Run(ctx, roots)
		if err != nil {
			return nil, err
		}
		return &batchResult{roots: r.Roots, n: r.N, depth: r.Depth, elapsed: r.Time, levels: r.Levels, pulled: r.PullLevels, inspected: r.Inspected}, nil
	}
	start := time.Now()
	r, err := ref.MultiSourceBFS(g, roots)
	if err != nil {
		return nil, err
	}
	return &batchResult{roots: r.Roots, n: r.N, depth: r.Depth, elapsed: time.Since(start), levels: r.Levels, inspected: r.Inspected}, nil
}

// batchChecker adds every root of a batch to the msbfs row: checked
// against the CPU's MS-BFS when check is set, on a goroutine that takes
// one batch while the caller runs the next (at most two batches held);
// unchecked at once otherwise. The goroutine owns the row until wait
// returns.
type batchChecker struct {
	g    *graph.Graph
	row  *strategyRow
	jobs chan *batchResult
	done chan struct{}
}

func newBatchChecker(g *graph.Graph, row *strategyRow, check bool) *batchChecker {
	b := &batchChecker{g: g, row: row}
	if check {
		b.jobs, b.done = make(chan *batchResult), make(chan struct{})
		go func() {
			defer close(b.done)
			for r := range b.jobs {
				b.check(r)
			}
		}()
	}
	return b
}

func (b *batchChecker) add(r *batchResult) {
	if b.jobs != nil {
		b.jobs <- r
		return
	}
	for i := range r.roots {
		run := r.run(b.g, i, nil)
		run.Valid = "not checked"
		b.row.add(run)
	}
}

// check compares every root's depths with the CPU's.
func (b *batchChecker) check(r *batchResult) {
	want, err := ref.MultiSourceBFS(b.g, r.roots)
	for i := range r.roots {
		check := err
		if err != nil {
			check = fmt.Errorf("the CPU reference failed: %w", err)
		} else {
			check = validate.SameDepths(r.depths(i), want.Depths(i))
		}
		b.row.add(r.run(b.g, i, check))
	}
}

func (b *batchChecker) wait() {
	if b.jobs != nil {
		close(b.jobs)
		<-b.done
		b.jobs = nil
	}
}

// writeBatch prints the report: the rows as the bfs command prints them,
// then the comparison (json: the report with "batch").
func writeBatch(w io.Writer, format outputFormat, rep *batchReport) error {
	if format == formatJSON {
		return writeJSON(w, rep)
	}
	if err := writeTraverse(w, format, &rep.traverseReport); err != nil || format != formatTable {
		return err
	}
	b := rep.Batch
	batches := "batches"
	if b.Batches == 1 {
		batches = "batch"
	}
	fmt.Fprintf(w, "\nmany-source BFS: %d roots in %d %s of up to %d", len(rep.Roots), b.Batches, batches, b.Width)
	if b.Direction != "" {
		fmt.Fprintf(w, ", direction %s, at most %d levels pulled", b.Direction, b.PullLevels)
	}
	fmt.Fprintf(w, "\n  msbfs %.4f ms per root, %s %.4f ms per root (means): %.1fx\n", b.MSBFSMs, b.Single, b.SingleMs, b.SpeedupByMean)
	return nil
}
