package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/dist"
	"github.com/spac-gpu/spac/hypergraph"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

// lookupMethod finds a partitioning method by name: spac's, or the
// hypergraph baseline, which runs on Zoltan over MPI.
func lookupMethod(name string) (spac.Method, error) {
	if name == hypergraph.Name {
		return hypergraph.Method{}, nil
	}
	m, err := spac.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("unknown method %q (choose from %v)", name, methodNames())
	}
	return m, nil
}

// methodNames lists every method, the hypergraph baseline last.
func methodNames() []string { return append(spac.MethodNames(), hypergraph.Name) }

// allMethods is what 'compare --methods all' runs: every method, the
// hypergraph baseline only in a build that has MPI.
func allMethods() []string {
	if mpi.Available() {
		return methodNames()
	}
	return spac.MethodNames()
}

// collective reports a method that every MPI rank runs together.
func collective(m spac.Method) bool {
	c, ok := m.(interface{ Collective() bool })
	return ok && c.Collective()
}

// mpiRank is this process's rank and the job's size when the command
// runs a collective method: MPI is started then (mpirun's world, or one
// process), else the process is alone.
func mpiRank(ms []spac.Method) (rank, size int, err error) {
	if !slices.ContainsFunc(ms, collective) {
		return 0, 1, nil
	}
	c, err := mpi.Init()
	if err != nil {
		return 0, 0, err
	}
	return c.Rank(), c.Size(), nil
}

// distFlags are partition's flags for the distributed run.
type distFlags struct {
	on       bool
	passes   int
	grouping string
}

func (f *distFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.BoolVar(&f.on, "mpi", false, "distributed SPAC over MPI: start the MPI build (bin/mpi/spac, 'make mpi') under mpirun -np P; each process reads its byte range of IN (a file every process can open), PT-Scotch splits the tasks between the processes, each runs SPAC on its share, the assignment is written in parallel")
	fl.IntVar(&f.passes, "passes", 0, "--mpi: times the shares are partitioned, 1 to 16 (0: 2 below 1M tasks, 1 from there); each pass after the first regroups the parts of the one before between the processes, and the best is kept")
	fl.StringVar(&f.grouping, "grouping", "auto", "--mpi: what PT-Scotch splits between the processes: tasks (a vertex per task), clusters (a vertex per row, or per graph vertex with its edges to neighbours of higher degree, weighted by its tasks: faster, less memory) or auto (clusters from 1M tasks)")
}

// check validates the flags and returns the grouping.
func (f *distFlags) check() (dist.Grouping, error) {
	if err := intIn("passes", f.passes, 0, 16, "passes; 0 chooses by size"); err != nil {
		return 0, err
	}
	g, err := dist.ParseGrouping(f.grouping)
	if err != nil {
		return 0, usagef("--grouping: %v", err)
	}
	return g, nil
}

// runDistributed is 'spac partition --mpi': dist.Read, dist.Partition and
// dist.WriteAssignment on MPI's world; rank 0 prints the summary.
func runDistributed(c *cobra.Command, path string, in *inputFlags, pf *partFlags, df *distFlags, method, assignment string) error {
	if method != "spac" {
		return usagef("--mpi runs SPAC (--method spac); %s runs on one machine, or, for hypergraph, under mpirun without --mpi", method)
	}
	grouping, err := df.check()
	if err != nil {
		return err
	}
	if err = pf.validate(); err != nil {
		return err
	}
	if err = checkOutputs(c, "assignment"); err != nil {
		return err
	}
	cfg, err := in.config()
	if err != nil {
		return err
	}
	comm, err := mpi.Init()
	if errors.Is(err, mpi.ErrNoMPI) {
		return fmt.Errorf("--mpi: %w", err)
	}
	if err != nil {
		return err
	}
	prog := in.progress()
	if comm.Rank() != 0 {
		prog = nil
	}
	start := time.Now()
	sh, err := dist.Read(comm, path, dist.ReadConfig{Format: cfg.Read.Format, EdgeList: cfg.Read.EdgeList, AsStored: cfg.AsStored, Model: cfg.Model})
	if err != nil {
		return err
	}
	readTime := time.Since(start)
	opts, err := pf.options(int(sh.Total))
	if err = mpi.Agree(comm, err); err != nil {
		return err
	}
	prog.Printf("%s: %d x %d, %d stored entries (%s %s), %d used; %d processes; %d parts of at most %d tasks",
		sh.Name, sh.NRows, sh.NCols, sh.Stored, sh.Field, sh.Symmetry, sh.Total, comm.Size(), opts.K, opts.Cap)
	stages := prog.Stages("spac --mpi")
	res, err := dist.Partition(c.Context(), comm, sh, dist.Options{K: opts.K, Cap: opts.Cap, Local: opts, Passes: df.passes, Grouping: grouping, Progress: stages.Begin})
	stages.End(err == nil, time.Since(start)-readTime)
	if err != nil {
		return err
	}
	res.Metrics.Method = "spac"
	if assignment != "" {
		if err := dist.WriteAssignment(comm, sh, res.Part, assignment, c.OutOrStdout()); err != nil {
			return err
		}
	}
	if comm.Rank() != 0 {
		return nil
	}
	summary := c.OutOrStdout()
	if assignment == "-" {
		summary = c.ErrOrStderr()
	}
	printDistSummary(summary, sh, res, readTime)
	return nil
}

// printDistSummary is printSummary's report for a distributed run, with a
// line per process.
func printDistSummary(w io.Writer, sh *dist.Shard, res *dist.Result, readTime time.Duration) {
	g := &matrices.Graph{NumVertices: sh.NRows, Model: sh.Model}
	if sh.Model == matrices.ModelSpMV {
		g.NumVertices += sh.NCols
	}
	met := res.Metrics
	met.Method = fmt.Sprintf("spac, distributed over %d processes (PT-Scotch between them, SPAC within each)", len(res.Ranks))
	printSummary(w, &pipeline.Input{Matrix: &matrices.COO{Name: sh.Name}, Graph: g, ReadTime: readTime}, met)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\ttasks\tparts\tmoved\tpeak memory\tcpu s\t%s\t\n", strings.Join(dist.Stages[:], " s\t")+" s")
	for r, st := range res.Ranks {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.1f MiB\t%.2f\t", r, st.Tasks, st.Parts, st.Moved, float64(st.PeakRSS)/(1<<20), st.CPUSeconds)
		for _, s := range st.Seconds {
			fmt.Fprintf(tw, "%.2f\t", s)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	// The peak reached by the end of each stage, the largest over the ranks.
	fmt.Fprintf(w, "\npeak memory by the end of each stage (largest rank):")
	for i, name := range dist.Stages {
		top := int64(0)
		for _, st := range res.Ranks {
			top = max(top, st.PeakBy[i])
		}
		fmt.Fprintf(w, " %s %.0f MiB;", name, float64(top)/(1<<20))
	}
	fmt.Fprintln(w)
}

// mpiFinalize ends MPI when the command started it: every rank must, or
// mpirun reports the job as failed.
func mpiFinalize() {
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, "spac:", err)
	}
}
