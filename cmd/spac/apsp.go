package main

// spac apsp: all-pairs shortest paths (package apps/apsp) on the CPU or
// the GPU, the distances (and next hops) written as n x n .npy files.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/apps/apsp"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/schedule"
)

// apspFlags are the flags of spac apsp; the graph's (input, weights,
// seed, --undirected) sit in tf, as bfs and sssp read them.
type apspFlags struct {
	tf     traverseFlags
	method string
	tile   int
	batch  int
	paths  bool
	dtype  string
	next   string
}

func apspCommand() *cobra.Command {
	var f apspFlags
	c := &cobra.Command{
		Use:   "apsp GRAPH [--gpu] [--method fw|fw-blocked|sssp-all|auto] [--paths] [-o dist.npy]",
		Short: "All-pairs shortest paths (Floyd-Warshall naive or blocked, Dijkstra from every source) as an n x n .npy",
		Long:  apspHelp,
		Example: `  spac apsp road:nx=40,ny=30 --weights uniform-int:100 -o dist.npy
  spac apsp kron:scale=12 --gpu --method fw-blocked -o dist.npy
  spac apsp kron:scale=13 --gpu --method sssp-all --batch 512 -o dist.npy
  spac apsp roads.mtx --method sssp-all --paths -o dist.npy    # also dist.next.npy`,
		Args: oneGraph,
		RunE: func(c *cobra.Command, args []string) error { return runAPSP(c, args[0], &f) },
	}
	f.tf.in.register(c)
	fl := c.Flags()
	for _, name := range []string{"model", "as-stored"} { // the locality graph's: they do not apply
		if err := fl.MarkHidden(name); err != nil {
			panic(err)
		}
	}
	fl.BoolVar(&f.tf.useGPU, "gpu", false, "run the GPU kernels (Floyd-Warshall's, or sssp-all's batched searches) instead of the CPU references")
	fl.IntVar(&f.tf.device, "device", 0, "GPU ordinal (with --gpu)")
	fl.StringVar(&f.method, "method", "auto", "algorithm: "+strings.Join(apsp.MethodNames(), ", ")+" (see below)")
	fl.IntVar(&f.tile, "tile", apsp.DefaultTile, fmt.Sprintf("fw-blocked's tile size: %v", apsp.Tiles))
	fl.IntVar(&f.batch, "batch", 0, fmt.Sprintf("sssp-all on the GPU: sources per batch, a multiple of 32 up to %d (0: %d, fewer when the device memory is short)", apsp.MaxBatch, apsp.DefaultBatch))
	fl.BoolVar(&f.paths, "paths", false, "also compute the next-hop matrix (path reconstruction), written to --next")
	fl.StringVar(&f.next, "next", "", "with --paths: the next-hop .npy file (default: -o's name with .next.npy)")
	fl.StringVar(&f.dtype, "dtype", "auto", "distance type: float32, int32, or auto (int32 when every weight is an integer, else float32)")
	fl.StringVar(&f.tf.weights, "weights", "auto", "edge weights: file (the input's values), uniform-int:W (integers 1..W), uniform-float (in (0,1]) or auto (file when the input has values, else uniform-float)")
	fl.BoolVar(&f.tf.undirected, "undirected", false, "make every edge undirected (symmetrize a directed input)")
	fl.Int64Var(&f.tf.seed, "seed", 1, "random seed of generated weights and of a generator without seed=")
	registerFormat(c, &f.tf.format, formatTable, formatJSON)
	fl.StringVarP(&f.tf.out, "out", "o", "", "write the distances as an n x n .npy (row = source; float32 with +Inf, or int32 with 2147483647, for unreachable pairs); - for standard output")
	return c
}

var apspHelp = `All-pairs shortest paths of a weighted graph, on the CPU (every core) or,
with --gpu, on the GPU.

Methods (--method):
  fw          Floyd-Warshall, one step per k over the whole matrix (on the
              GPU a kernel launch per k: the naive kernel)
  fw-blocked  blocked Floyd-Warshall: per round of --tile values of k, the
              diagonal tile, its row and column of tiles, then the rest,
              tiles in shared memory on the GPU
  sssp-all    shortest paths from every source, for sparse graphs: on the
              CPU Dijkstra from each; on the GPU --batch sources at a time
              (1024 by default), a label-correcting search of the batch's
              sources together, the n x n result kept on the host (the
              device holds the graph and one batch, so n can exceed what
              fw-blocked fits)
  auto        on the CPU sssp-all when arcs x log2(n) x 32 < n^2, else fw
              (the blocked order only costs there); on the GPU ` + gpuAutoHint() + `

Distances are int32 (exact) when every weight is an integer (--dtype
auto), else float32 with every sum rounded to float32 as the kernels
round it. Weights must be non-negative: negative ones are refused. Each
Floyd-Warshall kernel equals its CPU reference bit for bit (the same sums
in the same order), and sssp-all on the GPU equals Dijkstra's distances
bit for bit, float32 included (each sum rounded to float32 as Dijkstra
rounds it); float32 Floyd-Warshall and Dijkstra differ by rounding only.
The n x n matrix must fit in memory: 4 n^2 bytes (8 n^2 with --paths) on
the host and, with --gpu and fw or fw-blocked, on the device (sssp-all
needs a batch there: 8.5 bytes per vertex and source, 20.5 with --paths);
a graph too large is refused up front with what it needs.

GRAPH is a file (Matrix Market, edge list or METIS, gzip or not, - for
standard input) or a generator: kron:scale=S[,ef=16][,seed=N] or
road:nx=X,ny=Y[,seed=N]. Vertex ids are 0-based: row i of the matrix is
vertex i, a Matrix Market file's vertex 1 is row 0.

Outputs: -o FILE writes the distances as a NumPy .npy of shape (n, n),
row = source: float32 (+Inf unreachable) or int32 (2147483647
unreachable). --paths adds the next-hop matrix, int32 (n, n): the vertex
after i on a shortest path from i to j, i on the diagonal, -1 when j is
unreachable; follow it from i until j. It goes to --next (default: -o's
name with .next.npy). With zero-weight cycles Floyd-Warshall's next hops
may loop between vertices joined by them; sssp-all's never do (on the
GPU each next hop starts a shortest path of the fewest hops, the same on
every run). spac sssp GRAPH --all-sources writes the same matrix.
The summary (method, time, reachable pairs, the largest and the mean
finite distance) goes to standard output, or standard error when -o is -.`

// gpuAutoHint is auto's GPU rule in words, GPUCrossover's first and last
// rows once they are measured.
func gpuAutoHint() string {
	if !apsp.GPUCrossoverMeasured {
		return `fw-blocked
              (sssp-all once its crossover with fw-blocked is measured on
              the device), or sssp-all when fw-blocked's matrix does not
              fit the device`
	}
	t := apsp.GPUCrossover
	first, last := t[0], t[len(t)-1]
	return fmt.Sprintf(`sssp-all
              when the average degree is at most the crossover measured
              against fw-blocked at that n (apsp.GPUCrossover: degree %.3g
              at n = %d ... %.3g at n = %d), or when fw-blocked's matrix
              does not fit the device; else fw-blocked`, first.Degree, first.N, last.Degree, last.N)
}

// apspReport is what the command prints.
type apspReport struct {
	Graph     string  `json:"graph"`
	Vertices  int     `json:"vertices"`
	Arcs      int64   `json:"arcs"`
	Directed  bool    `json:"directed"`
	Weights   string  `json:"weights"`
	Type      string  `json:"dtype"`
	Method    string  `json:"method"`
	Tile      int     `json:"tile,omitempty"`
	Engine    string  `json:"engine"`
	Ms        float64 `json:"ms"`                // the algorithm: device time between events with --gpu
	TotalMs   float64 `json:"total_ms"`          // with building the matrix and the copies
	Batch     int     `json:"batch,omitempty"`   // sssp-all on the GPU: sources per batch
	Batches   int     `json:"batches,omitempty"` // and their number
	Rounds    int     `json:"rounds,omitempty"`  // relaxation rounds over every batch
	Reachable int64   `json:"reachable"`         // ordered pairs (i, j), i != j, with a path
	MaxDist   float64 `json:"max_distance"`
	MeanDist  float64 `json:"mean_distance"`
	Paths     bool    `json:"paths"`
}

func runAPSP(c *cobra.Command, arg string, f *apspFlags) error {
	method, err := apsp.ParseMethod(f.method)
	if err != nil {
		return usagef("--method: %v", err)
	}
	if err := checkTile(f.tile); err != nil {
		return err
	}
	if err := checkBatch(f.batch); err != nil {
		return err
	}
	if f.next != "" && !f.paths {
		return usagef("--next %s writes the next hops: add --paths", f.next)
	}
	if f.paths && f.next == "" && f.tf.out != "" && f.tf.out != output.Stdout {
		f.next = strings.TrimSuffix(f.tf.out, ".npy") + ".next.npy"
		if err := c.Flags().Set("next", f.next); err != nil {
			return err
		}
	}
	if err := checkOutputs(c, "out", "next"); err != nil {
		return err
	}
	st, err := apspSetup(c, arg, f)
	if err != nil {
		return err
	}
	return runAPSPOn(c, arg, f, st, apsp.Options{Method: method, Paths: f.paths, Tile: f.tile, Batch: f.batch})
}

// runAPSPOn builds the graph of arg and solves it with opt: the part of
// apsp that spac sssp --all-sources shares, once the flags are checked.
func runAPSPOn(c *cobra.Command, arg string, f *apspFlags, st *traverseSetup, opt apsp.Options) error {
	if f.tf.useGPU && !gpu.Built {
		return gpu.ErrNoCUDA
	}
	g, err := loadTraversalGraph(arg, &f.tf, st, problemSSSP, c.ErrOrStderr())
	if err != nil {
		return err
	}
	if err := checkHostMemory(g.NumVertices, opt.Paths); err != nil {
		return err
	}
	integer := g.Integer
	switch strings.ToLower(strings.TrimSpace(f.dtype)) {
	case "float32":
		integer = false
	case "int32":
		integer = true
	}
	if integer {
		return solveAPSP[int32](c, g, st, f, opt)
	}
	return solveAPSP[float32](c, g, st, f, opt)
}

func checkBatch(batch int) error {
	if apsp.CheckBatch(batch) == nil {
		return nil
	}
	return usagef("--batch %d: want a multiple of 32 from 32 to %d, or 0 for %d", batch, apsp.MaxBatch, apsp.DefaultBatch)
}

func checkTile(tile int) error {
	for _, t := range apsp.Tiles {
		if t == tile {
			return nil
		}
	}
	return usagef("--tile %d: the blocked kernels come in tiles of %v", tile, apsp.Tiles)
}

// apspSetup checks the graph flags and says how to build the graph.
func apspSetup(c *cobra.Command, arg string, f *apspFlags) (*traverseSetup, error) {
	switch strings.ToLower(strings.TrimSpace(f.dtype)) {
	case "auto", "float32", "int32":
	default:
		return nil, usagef("--dtype %q: want auto, float32 or int32", f.dtype)
	}
	if err := intIn("device", f.tf.device, 0, maxCount, "a GPU ordinal"); err != nil {
		return nil, err
	}
	if f.tf.in.model != "" || f.tf.in.asStored {
		return nil, usagef("apsp reads the input as a graph's adjacency: --model and --as-stored do not apply")
	}
	if _, err := f.tf.in.config(); err != nil {
		return nil, err
	}
	st := &traverseSetup{opt: graph.Options{Undirected: f.tf.undirected, Seed: uint64(f.tf.seed)}}
	return st, parseAPSPWeights(st, f.tf.weights)
}

// parseAPSPWeights reads --weights into st: auto (decided once the input
// is read), or a weighting that gives weights.
func parseAPSPWeights(st *traverseSetup, spelling string) error {
	st.weights = strings.ToLower(strings.TrimSpace(spelling))
	if st.weights == "auto" {
		return nil
	}
	w, err := graph.ParseWeights(st.weights)
	if err == nil && w.Kind == graph.NoWeights {
		err = fmt.Errorf("shortest paths need weights")
	}
	if err != nil {
		return usagef("--weights: %v (want file, uniform-int:W, uniform-float or auto)", err)
	}
	st.opt.Weights = w
	return nil
}

// checkHostMemory refuses a matrix larger than the memory available now
// (Linux's MemAvailable; no check where it cannot be read).
func checkHostMemory(n int, paths bool) error {
	need := apsp.Bytes(n, paths)
	avail, ok := memAvailable()
	if !ok || need <= avail {
		return nil
	}
	return fmt.Errorf("apsp: %d vertices need %s of host memory for the n x n matrix%s, %s are available: all-pairs results grow as n^2 (sssp --root computes one row)",
		n, formatBytes(need), map[bool]string{true: " and its next hops"}[paths], formatBytes(avail))
}

// memAvailable reads MemAvailable from /proc/meminfo.
func memAvailable() (int64, bool) {
	fh, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

func solveAPSP[T apsp.Weight](c *cobra.Command, g *graph.Graph, st *traverseSetup, f *apspFlags, opt apsp.Options) error {
	ctx := c.Context()
	start := time.Now()
	rep := &apspReport{Graph: g.Name, Vertices: g.NumVertices, Arcs: g.NumArcs(), Directed: g.Directed,
		Weights: st.opt.Weights.String(), Type: apsp.TypeName[T](), Paths: opt.Paths,
		Engine: fmt.Sprintf("cpu (%d threads)", runtime.GOMAXPROCS(0))}
	if st.weights == "auto" {
		rep.Weights += " (auto)"
	}
	var (
		m       *apsp.Matrix[T]
		method  apsp.Method
		elapsed time.Duration
		err     error
	)
	if f.tf.useGPU {
		var run apsp.Run
		m, run, err = solveOnGPU[T](ctx, g, f.tf.device, opt, rep)
		method, elapsed = run.Method, run.Elapsed
		if method == apsp.SSSPAll {
			rep.Batch, rep.Batches, rep.Rounds = run.Batch, run.Batches, run.Rounds
		}
	} else {
		m, method, err = apsp.Solve[T](ctx, g, opt)
		elapsed = time.Since(start)
	}
	if err != nil {
		return err
	}
	rep.Method, rep.Ms, rep.TotalMs = method.String(), float64(elapsed)/1e6, float64(time.Since(start))/1e6
	if method == apsp.FWBlocked {
		rep.Tile = opt.Tile
	}
	rep.Reachable, rep.MaxDist, rep.MeanDist = distanceSummary(m)
	summary := c.OutOrStdout()
	if f.tf.out == output.Stdout {
		summary = c.ErrOrStderr()
	}
	if f.tf.out != "" {
		if err := output.Write(ctx, f.tf.out, c.OutOrStdout(), func(w io.Writer) error { return writeMatrix(w, m.Dist, m.N) }); err != nil {
			return err
		}
	}
	if f.next != "" {
		if err := output.Write(ctx, f.next, c.OutOrStdout(), func(w io.Writer) error {
			return schedule.WriteNPYInt32Matrix(w, m.Next, m.N, m.N)
		}); err != nil {
			return err
		}
	}
	return writeAPSP(summary, f.tf.format, rep)
}

// solveOnGPU opens the device and runs the kernels.
func solveOnGPU[T apsp.Weight](ctx context.Context, g *graph.Graph, device int, opt apsp.Options, rep *apspReport) (*apsp.Matrix[T], apsp.Run, error) {
	d, err := gpu.Open(device)
	if err != nil {
		return nil, apsp.Run{}, err
	}
	defer d.Close()
	rep.Engine = fmt.Sprintf("gpu %d: %s", device, d.Info().Name)
	s, err := apsp.NewSolver(d)
	if err != nil {
		return nil, apsp.Run{}, err
	}
	return apsp.SolveGPU[T](ctx, s, g, opt)
}

// writeMatrix writes the distances as float32 or int32 .npy.
func writeMatrix[T apsp.Weight](w io.Writer, dist []T, n int) error {
	switch d := any(dist).(type) {
	case []float32:
		return schedule.WriteNPYFloat32Matrix(w, d, n, n)
	case []int32:
		return schedule.WriteNPYInt32Matrix(w, d, n, n)
	}
	return fmt.Errorf("apsp: no .npy type for %T", dist)
}

// distanceSummary counts the reachable ordered pairs (i != j) and gives the
// largest and the mean of their distances.
func distanceSummary[T apsp.Weight](m *apsp.Matrix[T]) (reachable int64, largest, mean float64) {
	inf := apsp.Inf[T]()
	var sum float64
	for k, d := range m.Dist {
		if d == inf || k/m.N == k%m.N {
			continue
		}
		reachable++
		sum += float64(d)
		largest = math.Max(largest, float64(d))
	}
	if reachable > 0 {
		mean = sum / float64(reachable)
	}
	return reachable, largest, mean
}

func writeAPSP(w io.Writer, format outputFormat, rep *apspReport) error {
	if format == formatJSON {
		return writeJSON(w, rep)
	}
	kind := "undirected"
	if rep.Directed {
		kind = "directed"
	}
	method := rep.Method
	if rep.Tile > 0 {
		method = fmt.Sprintf("%s (tile %d)", method, rep.Tile)
	}
	pairs := int64(rep.Vertices) * int64(rep.Vertices-1)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "graph\t%s: %s, %d vertices, %d arcs, weights %s\n", rep.Graph, kind, rep.Vertices, rep.Arcs, rep.Weights)
	fmt.Fprintf(tw, "method\t%s, %s distances, %s\n", method, rep.Type, rep.Engine)
	fmt.Fprintf(tw, "time\t%.3f ms (%.3f ms with the matrix's set-up and copies)\n", rep.Ms, rep.TotalMs)
	if rep.Batches > 0 {
		fmt.Fprintf(tw, "batches\t%d of %d sources, %d rounds in all\n", rep.Batches, rep.Batch, rep.Rounds)
	}
	fmt.Fprintf(tw, "reachable\t%d of %d ordered pairs\n", rep.Reachable, pairs)
	fmt.Fprintf(tw, "distance\tlargest %.6g, mean %.6g\n", rep.MaxDist, rep.MeanDist)
	return tw.Flush()
}
