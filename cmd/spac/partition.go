package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
	"github.com/spac-gpu/spac/transform"
)

// partFlags are the flags that set how many parts and how SPAC runs.
type partFlags struct {
	parts, blockSize int
	seed             int64
	formulation      string
	order            string
	dominant         int32
	imbalance        float64
	coarsen          int
	polish           int
	refine           int
	starts           string
	tau              float64
	memoryPerTask    float64
	// maxBlock is the largest --block-size the command takes (set by the
	// command after register: a part size in tasks, or a CUDA block).
	maxBlock, defaultBlock int
	blockWhy               string
	flags                  *pflag.FlagSet // to tell a flag given from its default
}

func (f *partFlags) register(c *cobra.Command) {
	fl := c.Flags()
	f.flags = fl
	f.maxBlock, f.defaultBlock, f.blockWhy = maxCount, 1024, "a part size in tasks; above the edge count it gives one part"
	fl.IntVarP(&f.parts, "parts", "k", 0, "number of parts K, 1 or more (each holds at most ceil(m/K) edges)")
	fl.IntVarP(&f.blockSize, "block-size", "b", 0, "thread-block size B, 1 or more: ceil(m/B) parts of at most B edges each (default 1024 when --parts is not given)")
	fl.Int64Var(&f.seed, "seed", 1, "random seed; every method is deterministic for a given seed")
	fl.StringVar(&f.formulation, "formulation", "contracted", "SPAC: graph METIS sees: contracted (one vertex per edge) or split (the paper's 2m clones); same optimum")
	fl.StringVar(&f.order, "order", "walk", "SPAC: order of each vertex's clones: walk (around the vertex through its neighbours' adjacency, closed into a cycle; measured best), cycle (by edge index, closed), index (the paper's path) or neighbour (by the other endpoint)")
	fl.Int32Var(&f.dominant, "dominant-weight", spac.DefaultDominantWeight, "SPAC, split formulation: weight of dominant edges, 1 to 65536")
	fl.IntVar(&f.coarsen, "coarsen", spac.DefaultCoarsen, "SPAC, from 1M tasks: at most this many levels of heavy-edge matching in Go before METIS (it stops at about 64 tasks per part; refined on the way back; 0: METIS sees the whole graph)")
	fl.Float64Var(&f.tau, "tau", spac.DefaultTau, "HEP: a vertex of more than tau times the mean degree is high; edges between two high vertices are streamed (HDRF), the rest grown by NE++ (+Inf: HEP is NE)")
	fl.IntVar(&f.polish, "polish", spac.DefaultPolish, "SPAC: passes that move single edges to parts holding both endpoints, after the cap pass (0: none; -1: 4 below 1M tasks, none from there, where the pair refinement after it finds the same moves); each move saves a copy")
	fl.IntVar(&f.refine, "refine", spac.DefaultRefine, "SPAC: rounds of Fiduccia-Mattheyses exchanges between pairs of parts that share vertices, after the polish (0: none)")
	fl.StringVar(&f.starts, "starts", "auto", "SPAC: first partitions to polish and refine, in parallel, keeping the one with the fewest copies: metis (split-and-connect), ne, hep, wvp (WVP greedy), default (row order); auto: "+strings.Join(spac.DefaultStarts, ",")+" below 1M tasks, "+strings.Join(spac.LargeStarts, ",")+" from there, and from 4M tasks, one after the other: ne where the input is scattered and its degrees skewed (an R-MAT graph; hep after it in parts of fewer than 1024 tasks below 16M tasks), ne then wvp (in one METIS call, ten times NE's time) where they are even (an Erdos-Renyi graph; ne alone under the graph model, where it leads, and from 16M tasks, for memory), metis where its numbering has locality (a web crawl, a circuit; with default too for parts of 4096 tasks or more, and ne and wvp under the graph model below 16M tasks), both where it is clustered with even degrees (a mesh; wvp after them below 2048 parts, or below 16M tasks unless the numbering is banded, where default joins them for parts of 4096 tasks or more) or clustered but numbered at random (wvp after them below 16M tasks). The wvp start is WVP greedy's one METIS call below 2048 parts, and from 4M to 16M tasks where parts times tasks is at most 1.2e11; elsewhere, from 1M tasks, two stages. From 16M tasks metis is left out where it would break --memory-per-task; with --memory-per-task 0 or 200 and more, what runs below 16M tasks for quality alone runs from there too")
	fl.Float64Var(&f.imbalance, "imbalance", spac.DefaultImbalance, "SPAC: imbalance METIS may leave (0.03 = 3%; in (0, 1]) before the cap pass makes every part fit")
	fl.Float64Var(&f.memoryPerTask, "memory-per-task", spac.DefaultMemoryPerTask, "SPAC, from 16M tasks: the peak memory in bytes per task it holds to; its own start (split-and-connect) is left out where its levels and METIS's share, as counted, would take more, and the other starts decide (NE's where none other runs); from 200 the starts that run below 16M tasks for quality alone run from there too (WVP greedy's METIS call peaks at about 180) (0: no bound, for machines with room to spare)")
}

// registerPerBlock registers the flags less --parts and --block-size, for
// commands where a block runs one part and --block-size is their own.
func (f *partFlags) registerPerBlock(c *cobra.Command) {
	tmp := &cobra.Command{}
	f.register(tmp)
	tmp.Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Name != "parts" && fl.Name != "block-size" {
			c.Flags().AddFlag(fl)
		}
	})
}

// given reports whether the flag was on the command line.
func (f *partFlags) given(name string) bool {
	fl := f.flags.Lookup(name)
	return fl != nil && fl.Changed
}

// validate checks the flags that need no input, so that a usage error
// comes before a long read.
func (f *partFlags) validate() error {
	_, err := f.options(1 << 30)
	return err
}

// checks are the ranges of the numeric flags (--seed takes any int64).
func (f *partFlags) checks() error {
	var sizes error
	if f.given("parts") || f.given("block-size") {
		sizes = firstErr(
			givenIntIn(f, "parts", f.parts, 1, maxCount, "parts of at most ceil(m/K) edges; at most the edge count"),
			givenIntIn(f, "block-size", f.blockSize, 1, f.maxBlock, f.blockWhy),
		)
	}
	return firstErr(sizes,
		intIn("dominant-weight", int(f.dominant), 1, 1<<16, "METIS adds the weights up in 32 bits"),
		intIn("coarsen", f.coarsen, 0, 8, "levels of matching"),
		intIn("polish", f.polish, -1, 64, "passes, or -1 for the default by size"),
		intIn("refine", f.refine, 0, 1024, "rounds"),
		tauIn(f.tau),
		floatIn("imbalance", f.imbalance, 0, 1, true, "a fraction, e.g. 0.03"),
		floatIn("memory-per-task", f.memoryPerTask, 0, 1e6, false, "bytes per task, or 0 for no bound"),
	)
}

// givenIntIn checks a flag only when it was given (its default is unset).
func givenIntIn(f *partFlags, flag string, v, lo, hi int, why string) error {
	if !f.given(flag) {
		return nil
	}
	return intIn(flag, v, lo, hi, why)
}

// blockSizeOrDefault is --block-size, or the default when neither it nor
// --parts was given.
func (f *partFlags) blockSizeOrDefault() int {
	if f.parts == 0 && f.blockSize == 0 {
		return f.defaultBlock
	}
	return f.blockSize
}

// options resolves the part count and cap for m edges.
func (f *partFlags) options(m int) (spac.Options, error) {
	opts, err := f.settings()
	if err != nil {
		return opts, err
	}
	if opts.K, opts.Cap, err = spac.Resolve(m, f.parts, f.blockSizeOrDefault()); err != nil {
		return spac.Options{}, usageError{err}
	}
	return opts, nil
}

// settings are the method's settings, without the part count and cap.
func (f *partFlags) settings() (spac.Options, error) {
	if err := f.checks(); err != nil {
		return spac.Options{}, err
	}
	form, err := transform.ParseFormulation(f.formulation)
	if err != nil {
		return spac.Options{}, usageError{err}
	}
	order, err := transform.ParseOrder(f.order)
	if err != nil {
		return spac.Options{}, usageError{err}
	}
	starts, err := spac.ParseStarts(f.starts)
	if err != nil {
		return spac.Options{}, usageError{err}
	}
	memory := f.memoryPerTask
	if memory == 0 {
		memory = -1 // the flag's "no bound"
	}
	return spac.Options{Starts: starts, Seed: f.seed, DominantWeight: f.dominant, Formulation: form, Order: order,
		Imbalance: f.imbalance, Coarsen: f.coarsen, Polish: f.polish, Refine: f.refine, Tau: f.tau, MemoryPerTask: memory}, nil
}

// config is how the schedules of the named method are partitioned (a
// block runs one part: the block size sets the parts).
func (f *partFlags) config(method string) (pipeline.PartitionConfig, error) {
	if _, err := spac.Lookup(method); err != nil {
		return pipeline.PartitionConfig{}, usageError{err}
	}
	opts, err := f.settings()
	return pipeline.PartitionConfig{Method: method, Settings: opts}, err
}

func newPartitionCmd() *cobra.Command {
	var in inputFlags
	var pf partFlags
	var df distFlags
	var method, assignment string
	c := &cobra.Command{
		Use:   "partition IN",
		Short: "Partition the tasks of a matrix or graph into thread-block-sized parts",
		Long: `Partition the edges of IN's locality graph (one per nonzero) into balanced
parts and print a summary: vertex copies (the data loaded more than once),
replication factor, largest part, per-part shared-memory demand, time.

Methods: spac (split-and-connect with METIS, the default), default (contiguous
chunks in row order: today's kernels), random and greedy (PowerGraph),
wvp-random and wvp-greedy (METIS vertex partition, cut edges placed randomly
or greedily), hdrf and dbh (streaming), ne (neighbourhood expansion), hep
(NE++ in memory, HDRF for the edges between hubs) and, in the MPI build,
hypergraph (the column-net model on Zoltan PHG, on as many processes as
mpirun starts). Every method holds the same cap.

--mpi partitions with SPAC over MPI (the MPI build, 'make mpi', under
mpirun): the processes share the input, the work and the memory.

--assignment writes one line "row col part" per nonzero: row and column
1-based as in the input, part 0-based, in the input's entry order (expanded
symmetric entries follow the stored entry they mirror).

` + genInputs + ` It is generated with --seed.`,
		Example: `  spac partition bcsstk13.mtx.gz --block-size 256
  spac partition web.txt --method hdrf --parts 64 --assignment web.parts.tsv
  spac gen ba:n=50000,m=8 -o - | spac partition - --method greedy
  mpirun -np 4 bin/mpi/spac partition big.mtx --mpi -o big.parts.tsv`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error {
			if df.on {
				return runDistributed(c, args[0], &in, &pf, &df, method, assignment)
			}
			m, err := lookupMethod(method)
			if err != nil {
				return usageError{err}
			}
			if err := checkOutputs(c, "assignment"); err != nil {
				return err
			}
			data, opts, err := loadToPartition(c.Context(), &in, &pf, args[0])
			if err != nil {
				return err
			}
			prog := in.progress()
			prog.Printf("%s", data.Describe())
			if err := data.DropEntries(); err != nil {
				return err
			}
			p, met, err := pipeline.Partition(c.Context(), data, m, opts, prog)
			if err != nil {
				return err
			}
			if rank, _, err := mpiRank([]spac.Method{m}); err != nil || rank != 0 {
				return err // a collective method's outputs are rank 0's
			}
			if assignment != "" {
				if err := output.Write(c.Context(), assignment, c.OutOrStdout(), func(w io.Writer) error { return writeAssignment(w, data, p) }); err != nil {
					return err
				}
			}
			summary := c.OutOrStdout()
			if assignment == output.Stdout {
				summary = c.ErrOrStderr() // standard output carries the assignment
			}
			printSummary(summary, data, met)
			return nil
		},
	}
	in.register(c)
	pf.register(c)
	df.register(c)
	c.Flags().StringVarP(&method, "method", "m", "spac", "partitioning method (see above)")
	c.Flags().StringVarP(&assignment, "assignment", "o", "", "write the part of every nonzero to this file (row col part per line)")
	return c
}

// loadToPartition checks the partition flags, reads path's structure and
// resolves the parts and the cap its edges take: what partition, compare
// and evaluate begin with.
func loadToPartition(ctx context.Context, in *inputFlags, pf *partFlags, path string) (*pipeline.Input, spac.Options, error) {
	if err := pf.validate(); err != nil {
		return nil, spac.Options{}, err
	}
	in.genSeed = pf.seed
	data, err := in.loadStructure(ctx, path)
	if err != nil {
		return nil, spac.Options{}, err
	}
	opts, err := pf.options(data.Graph.NumEdges())
	if err != nil {
		return nil, spac.Options{}, err
	}
	return data, opts, nil
}

// loadStructure is load without the matrix's values, which partitioning
// never reads (ReadOptions.NoValues: 8 bytes less per entry of a real
// matrix; the command's peak memory follows the entries).
func (f *inputFlags) loadStructure(ctx context.Context, path string) (*pipeline.Input, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	cfg.Read.NoValues = true
	return usage(pipeline.Load(ctx, path, cfg))
}

// writeAssignment writes "row col part" for every edge of the locality
// graph, row and column 1-based, from the graph (the entries are let go
// before partitioning: Input.DropEntries). The lines are formatted in pieces of
// assignmentPiece, a piece per core at a time, and written in order:
// formatted one by one with fmt they took 8 of the 9 s that followed the
// circuit5M stand-in's partition.
func writeAssignment(w io.Writer, in *pipeline.Input, p spac.Partition) error {
	n := len(p.Part)
	bufs := make([][]byte, par.Workers(max(1, (n+assignmentPiece-1)/assignmentPiece)))
	for lo := 0; lo < n; lo += len(bufs) * assignmentPiece {
		par.Do(len(bufs), func(i int) {
			b := bufs[i][:0]
			for e := lo + i*assignmentPiece; e < min(n, lo+(i+1)*assignmentPiece); e++ {
				row, col := in.Graph.Entry(e)
				b = strconv.AppendInt(b, int64(row)+1, 10)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(col)+1, 10)
				b = append(b, '\t')
				b = strconv.AppendInt(b, int64(p.Part[e]), 10)
				b = append(b, '\n')
			}
			bufs[i] = b
		})
		for _, b := range bufs {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// assignmentPiece is how many lines of the assignment one core formats at a
// time.
const assignmentPiece = 1 << 15

func printSummary(w io.Writer, in *pipeline.Input, met spac.Metrics) {
	fmt.Fprintf(w, "input            %s\n", in.Matrix.Name)
	fmt.Fprintf(w, "locality graph   %s model, %d vertices (%d with edges), %d edges\n", in.Graph.Model, in.Graph.NumVertices, met.Vertices, met.Edges)
	fmt.Fprintf(w, "method           %s\n", met.Method)
	fmt.Fprintf(w, "parts            %d of at most %d edges\n", met.K, met.Cap)
	fmt.Fprintf(w, "vertex copies    %d\n", met.Copies)
	fmt.Fprintf(w, "replication      %.4f\n", met.RF)
	fmt.Fprintf(w, "largest part     %d edges (%.4f of ideal)\n", met.MaxLoad, met.MaxLoadRatio)
	fmt.Fprintf(w, "unique vertices  %d in the largest part, %.1f on average (shared-memory demand)\n", met.MaxUnique, met.MeanUnique)
	fmt.Fprintf(w, "cut vertices     %d, average degree %.2f\n", met.CutVertices, met.AvgCutDegree)
	fmt.Fprintf(w, "degrees          min %d, median %g, mean %.2f, p99 %d, max %d\n", met.Degree.Min, met.Degree.Median, met.Degree.Mean, met.Degree.P99, met.Degree.Max)
	fmt.Fprintf(w, "partition time   %.3f s (reading and building the graph %.3f s)\n", met.Time.Seconds(), in.ReadTime.Seconds())
}

// tauIn checks --tau: a positive multiple of the mean degree, +Inf allowed
// (HEP without its streaming part).
func tauIn(tau float64) error {
	if math.IsInf(tau, 1) {
		return nil
	}
	return floatIn("tau", tau, 0, math.Inf(1), true, "a multiple of the mean degree, or +Inf (HEP is then NE)")
}
