package main

// spac sssp GRAPH --all-sources: shortest paths from every vertex, the n x
// n matrix that spac apsp --method sssp-all writes (apsp.go does the
// work; this file reads sssp's flags into it).

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/apsp"
	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
)

// allSourcesIgnores are sssp's flags that --all-sources has no use for:
// every vertex is a source, the result is a matrix rather than a table of
// strategies, and it is kept in the input's ids.
var allSourcesIgnores = []string{"strategy", "roots", "root", "validate", "no-validate", "levels", "budget", "delta", "batch",
	"relabel", "no-cache", "cache-dir", "cache-max-size"}

// registerAllSources adds --all-sources to spac sssp (after --out, whose
// help it extends).
func registerAllSources(c *cobra.Command, f *traverseFlags) {
	if c.Name() != problemSSSP.String() {
		return
	}
	fl := c.Flags()
	fl.Bool("all-sources", false, "shortest paths from every vertex: the n x n distance matrix (as spac apsp --method sssp-all), written by -o FILE.npy")
	if out := fl.Lookup("out"); out != nil {
		out.Usage += "; with --all-sources: the n x n distance .npy file (- for standard output)"
	}
	c.Long += `

--all-sources computes shortest paths from every vertex instead: the
n x n matrix that 'spac apsp --method sssp-all' writes, with the same
--weights. -o FILE (--out) writes it as a NumPy .npy of shape (n, n), row
= source: int32 (2147483647 unreachable) when every weight is an
integer, else float32 (+Inf unreachable); the summary (time, reachable
pairs, largest and mean distance) goes to standard output, or standard
error when -o is -. Without --gpu, Dijkstra from every source on every
core; with --gpu, batches of sources searched together on the device
(the matrix stays on the host). Both give the same distances bit for bit.
--all-sources takes neither ` + "--" + strings.Join(allSourcesIgnores, ", --") + `; spac apsp
has next hops (--paths), the distance type (--dtype) and the GPU's
batch size (--batch).`
	c.Example += `
  spac sssp road:nx=60,ny=40 --weights uniform-int:100 --all-sources -o dist.npy
  spac sssp kron:scale=13 --all-sources --gpu -o dist.npy`
}

// allSources reports whether --all-sources was given.
func allSources(c *cobra.Command) bool {
	on, err := c.Flags().GetBool("all-sources")
	return err == nil && on
}

// runSSSPAllSources is spac sssp --all-sources: sssp's graph flags read
// into apsp's run with method sssp-all.
func runSSSPAllSources(c *cobra.Command, arg string, f *traverseFlags) error {
	fl := c.Flags()
	for _, name := range allSourcesIgnores {
		if fl.Lookup(name) != nil && fl.Changed(name) {
			return usagef("--%s does not apply with --all-sources (every vertex is a source, and the matrix is written in the input's ids); drop it, or see spac apsp", name)
		}
	}
	if f.format == formatCSV {
		return usagef("--format csv: --all-sources prints a summary (table or json) and writes the matrix with -o")
	}
	if err := intIn("device", f.device, 0, maxCount, "a GPU ordinal"); err != nil {
		return err
	}
	if f.in.model != "" || f.in.asStored {
		return usagef("sssp reads the input as a graph's adjacency: --model and --as-stored do not apply")
	}
	if gen.IsSpec(arg) {
		for _, name := range []string{"input-format", "directed", "base", "header", "max-dimension"} {
			if fl.Lookup(name) != nil && fl.Changed(name) {
				return usagef("--%s reads files; %s is generated (drop the flag, or give a file)", name, arg)
			}
		}
	}
	if _, err := f.in.config(); err != nil {
		return err
	}
	if err := checkOutputs(c, "out"); err != nil {
		return err
	}
	st := &traverseSetup{opt: graph.Options{Undirected: f.undirected, Dedupe: f.dedupe, DropSelfLoops: f.dropSelfLoops, Seed: uint64(f.seed)}}
	if err := parseAPSPWeights(st, f.weights); err != nil {
		return err
	}
	af := &apspFlags{tf: *f, method: apsp.SSSPAll.String(), tile: apsp.DefaultTile, dtype: "auto"}
	return runAPSPOn(c, arg, af, st, apsp.Options{Method: apsp.SSSPAll})
}
