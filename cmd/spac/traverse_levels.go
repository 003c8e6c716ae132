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

	engine "github.com/spac-gpu/spac/apps/traversal"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/output"
)

var levelCSVHeader = []string{"problem", "graph", "strategy", "root", "level", "frontier", "inspected", "us",
	"search_ms_k1", "levels", "valid"}

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

// levelRows writes writeLevelTimes's CSV to out.
func levelRows(ctx context.Context, out io.Writer, gt *gpuTraverser, g *graph.Graph, p problem, root int32, st *traverseSetup, graphName string) error {
	w := csv.NewWriter(out)
	w.Write(levelCSVHeader)
	for _, name := range st.strategies {
		if isAdaptive(name) {
			fmt.Fprintf(os.Stderr, "--levels: adaptive has no levels of its own to time: 'spac traverse sweep' times every candidate at every level\n")
			continue
		}
		s, err := engine.ParseStrategy(name)
		if err != nil {
			return err
		}
		r, levels, err := gt.e.LevelTimes(ctx, p.algorithm(), root, s)
		if err != nil {
			// one strategy's failure is a row, not the end of the others'
			fmt.Fprintf(os.Stderr, "--levels: %s %s from root %d: %v\n", p, name, inputID(g, root), err)
			w.Write([]string{p.String(), graphName, name, strconv.Itoa(int(inputID(g, root))), "", "", "", "", "", "", "error: " + err.Error()})
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
		row := func(level int, frontier, inspected int64, us float64) {
			w.Write([]string{p.String(), graphName, name, strconv.Itoa(int(inputID(g, root))), strconv.Itoa(level),
				strconv.FormatInt(frontier, 10), strconv.FormatInt(inspected, 10), strconv.FormatFloat(us, 'f', 3, 64),
				strconv.FormatFloat(float64(r.Time)/1e6, 'f', 4, 64), strconv.Itoa(r.Levels), valid})
		}
		if levels == nil {
			row(-1, 0, r.Inspected, float64(r.Time)/1e3)
		}
		for _, l := range levels {
			row(l.Level, l.Frontier, l.Inspected, float64(l.Time)/1e3)
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
