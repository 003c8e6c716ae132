package main

// spac bfs/sssp --gpu --levels FILE.csv: every level of one search per
// strategy timed alone (apps/traversal's Engine.LevelTimes).

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/output"
)

var levelCSVHeader = []string{"problem", "graph", "strategy", "root", "level", "frontier", "inspected", "us",
	"search_ms_k1", "levels", "valid", "ran"}

// writeLevelTimes searches once more from root with every strategy of st,
// one level per CUDA graph with events around each, validates the result
// and writes one row per level (a persistent strategy, whose levels run in
// one kernel, gets one row with level -1: its whole search); the file is
// written as output.Write writes (whole or not at all, "-" standard output).
func writeLevelTimes(ctx context.Context, file string, stdout io.Writer, t traverser, g *graph.Graph, p problem, root int32, st *traverseSetup, graphName string) error {
	gt, ok := t.(*gpuTraverser)
	if !ok {
		return fmt.Errorf("--levels needs the GPU engine")
	}
	return output.Write(ctx, file, stdout, func(out io.Writer) error {
		return levelRows(ctx, out, gt, g, p, root, st, graphName)
	})
}

// searchLevels is one more search's levels: timed alone (timed: a fixed
// strategy; nil for a persistent one), or as the device's log of a
// device-decided adaptive search has them (trace: each level's time by the
// device's clock, the body that ran it).
type searchLevels struct {
	timed []engine.LevelTime
	trace *engine.AdaptiveTrace
}

// strategyLevels searches once more from root with strategy name for
// --levels.
func strategyLevels(ctx context.Context, gt *gpuTraverser, p problem, root int32, name string) (*engine.Result, searchLevels, error) {
	if name == adaptiveStrategy {
		r, tr, err := gt.adaptive(ctx, root, name)
		if err == nil && !tr.OnDevice {
			err = fmt.Errorf("the model's picks are not all decided on the device: no device clock per level (--strategy adaptive-host)")
		}
		return r, searchLevels{trace: tr}, err
	}
	s, err := engine.ParseStrategy(name)
	if err != nil {
		return nil, searchLevels{}, err
	}
	r, timed, err := gt.e.LevelTimes(ctx, p.algorithm(), root, s)
	return r, searchLevels{timed: timed}, err
}

// levelRows writes writeLevelTimes's CSV to out.
func levelRows(ctx context.Context, out io.Writer, gt *gpuTraverser, g *graph.Graph, p problem, root int32, st *traverseSetup, graphName string) error {
	w := csv.NewWriter(out)
	w.Write(levelCSVHeader)
	for _, name := range st.strategies {
		if name == adaptiveHostStrategy {
			fmt.Fprintf(os.Stderr, "--levels: %s has no device clock per level ('spac traverse sweep' times every candidate at every level)\n", name)
			continue
		}
		r, levels, err := strategyLevels(ctx, gt, p, root, name)
		if err != nil {
			// one strategy's failure is a row, not the end of the others'
			fmt.Fprintf(os.Stderr, "--levels: %s %s from root %d: %v\n", p, name, inputID(g, root), err)
			w.Write([]string{p.String(), graphName, name, strconv.Itoa(int(inputID(g, root))), "", "", "", "", "", "", "error: " + err.Error(), ""})
			w.Flush()
			continue
		}
		valid := "not checked"
		if st.validate {
			valid = "yes"
			if verr := checkSearch(g, p, root, traversalOf(r), nil); verr != nil {
				valid = verr.Error()
			}
		}
		row := func(level int, frontier int64, inspected, us, ran string) {
			w.Write([]string{p.String(), graphName, name, strconv.Itoa(int(inputID(g, root))), strconv.Itoa(level),
				strconv.FormatInt(frontier, 10), inspected, us,
				strconv.FormatFloat(float64(r.Time)/1e6, 'f', 4, 64), strconv.Itoa(r.Levels), valid, ran})
		}
		us := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e3, 'f', 3, 64) }
		switch {
		case levels.trace != nil:
			for l, ran := range levels.trace.Ran {
				t := ""
				if d := levels.trace.Times[l]; d > 0 {
					t = us(d)
				}
				row(l, levels.trace.Counters[l].Vertices, "", t, ran.String())
			}
		case levels.timed == nil:
			row(-1, 0, strconv.FormatInt(r.Inspected, 10), us(r.Time), "")
		}
		for _, l := range levels.timed {
			row(l.Level, l.Frontier, strconv.FormatInt(l.Inspected, 10), us(l.Time), "")
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
