package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/order"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
)

// The orders 'spac reorder' and 'spac spmv --reorder' know.
const (
	orderNone = "none" // the input's own numbering
	orderRCM  = "rcm"
	orderND   = "nd"
	orderSPAC = "spac"
	// orderRandom is a uniformly random numbering (seeded): how an
	// unstructured mesh or a crawled graph may come, and the worst case
	// the other orders are measured against.
	orderRandom = "random"
)

var orderNames = []string{orderNone, orderRCM, orderND, orderSPAC, orderRandom}

// reorderFlags are the flags that say how an order is computed.
type reorderFlags struct {
	pf        partFlags
	blockSize int
	cache     cacheFlags
}

// register adds the partitioning flags (less --parts, --block-size and
// SPAC's clone --order, whose name the command's own --order takes) and
// the block size of the SPAC order's partition.
func (f *reorderFlags) register(c *cobra.Command, env environment, blockFlag, shorthand string) {
	tmp := &cobra.Command{}
	f.pf.register(tmp)
	tmp.Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Name != "parts" && fl.Name != "block-size" && fl.Name != "order" {
			c.Flags().AddFlag(fl)
		}
	})
	c.Flags().IntVarP(&f.blockSize, blockFlag, shorthand, 1024, "spac order: nonzeros per part of the partition it numbers part by part (a multiple of 32 from 32 to 1024, as a schedule's block; the partition is cached as that schedule)")
	f.cache.register(c, env)
}

func (f *reorderFlags) check(blockFlag string) error {
	return firstErr(gpuBlockIn(blockFlag, f.blockSize), f.pf.validate(), f.cache.check())
}

// parseOrders reads a comma-separated list of order names.
func parseOrders(flag, s string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(orderNames, name) {
			return nil, usagef("--%s %q: want one of %s", flag, name, strings.Join(orderNames, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// orderOf computes the named order of in's matrix: the new-to-old row and
// column numberings (perm[new] = old). RCM and nested dissection number a
// square matrix symmetrically (rows and columns alike, the graph of
// A + A^T), a rectangular one through its bipartite graph; the SPAC order
// numbers rows and columns part by part from the partition of the schedule
// of block size f.blockSize.
func (f *reorderFlags) orderOf(ctx context.Context, in *pipeline.Input, name string, prog *progress.Reporter, warn io.Writer) (rows, cols []int32, err error) {
	m := in.Used
	switch name {
	case orderNone:
		return identity(m.NRows), identity(m.NCols), nil
	case orderRandom:
		rng := rand.New(rand.NewPCG(uint64(f.pf.seed), 0x7e0d))
		rows = identity(m.NRows)
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		if m.NRows == m.NCols {
			return rows, rows, nil
		}
		cols = identity(m.NCols)
		rng.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
		return rows, cols, nil
	case orderRCM, orderND:
		// Stages on the terminal: on inputs of 100M entries these orders
		// run for minutes (nested dissection of R-MAT 23 was still running
		// when its 600 s device call ended).
		st, start := prog.Stages(name+" order"), time.Now()
		defer func() { st.End(err == nil, time.Since(start)) }()
		st.Begin("pattern")
		n, ptr, adj := order.Pattern(m.NRows, m.NCols, m.Row, m.Col)
		var perm []int32
		if name == orderRCM {
			st.Begin("sweep")
			perm = order.RCM(n, ptr, adj)
		} else {
			st.Begin("metis")
			if perm, err = order.ND(ctx, n, ptr, adj, int32(f.pf.seed)); err != nil {
				return nil, nil, err
			}
		}
		rows, cols = order.Sides(perm, m.NRows, m.NCols)
		return rows, cols, nil
	case orderSPAC:
		pc, err := f.pf.config("spac")
		if err != nil {
			return nil, nil, err
		}
		// The options of spmv's schedules, so that either command finds the
		// other's partition in the cache.
		sopts := schedule.Options{BlockSize: f.blockSize, Budget: schedule.DefaultBudget, ValueBytes: 8, Overflow: schedule.Auto}
		s, _, err := pipeline.Schedule(ctx, in, pc, sopts, f.cache.open(warn), prog)
		if err != nil {
			return nil, nil, err
		}
		st, start := prog.Stages(name+" order"), time.Now()
		st.Begin("by parts")
		part := make([]int32, m.NNZ())
		for slot, e := range s.NewSchedule {
			if e >= 0 {
				part[e] = int32(slot / s.BlockSize)
			}
		}
		rows, cols, err = order.ByParts(m.NRows, m.NCols, m.Row, m.Col, part, s.NumBlocks())
		st.End(err == nil, time.Since(start))
		return rows, cols, err
	}
	return nil, nil, fmt.Errorf("unknown order %q", name)
}

func identity(n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return p
}

// permuted returns m renumbered by the new-to-old orders rows and cols:
// entry (r, c) moves to (inverse(rows)[r], inverse(cols)[c]); the entries come in row-major
// order of the new numbering (as a CSR builder reads them fastest), and a
// symmetric matrix stays symmetric when rows and columns get one order.
func permuted(m *matrices.COO, rows, cols []int32) *matrices.COO {
	ir, ic := order.Inverse(rows), order.Inverse(cols)
	sym := m.Symmetry
	if sym != matrices.General && !slices.Equal(rows, cols) {
		m, sym = m.Expanded(), matrices.General
	}
	nr, nc := make([]int32, m.NNZ()), make([]int32, m.NNZ())
	for e := range m.Row {
		nr[e], nc[e] = ir[m.Row[e]], ic[m.Col[e]]
	}
	out := &matrices.COO{Name: m.Name, NRows: m.NRows, NCols: m.NCols, Field: m.Field, Symmetry: sym, Format: m.Format,
		Duplicates: m.Duplicates, Row: make([]int32, m.NNZ()), Col: make([]int32, m.NNZ())}
	if m.Val != nil {
		out.Val = make([]float64, m.NNZ())
	}
	if m.Imag != nil {
		out.Imag = make([]float64, m.NNZ())
	}
	for i, e := range matrices.RowMajor(nr, nc, m.NRows, m.NCols) {
		out.Row[i], out.Col[i] = nr[e], nc[e]
		if m.Val != nil {
			out.Val[i] = m.Val[e]
		}
		if m.Imag != nil {
			out.Imag[i] = m.Imag[e]
		}
	}
	return out
}

// diagonalDistance is the largest distance |new row - new column| over the entries
// (the bandwidth of a square matrix under a symmetric order) and its
// average: how far from the diagonal a row's x reads fall.
func diagonalDistance(m *matrices.COO, rows, cols []int32) (maxD int, meanD float64) {
	ir, ic := order.Inverse(rows), order.Inverse(cols)
	var sum float64
	for e := range m.Row {
		d := int(ir[m.Row[e]]) - int(ic[m.Col[e]])
		if d < 0 {
			d = -d
		}
		maxD = max(maxD, d)
		sum += float64(d)
	}
	if m.NNZ() > 0 {
		meanD = sum / float64(m.NNZ())
	}
	return maxD, meanD
}

func reorderCommand(env environment) *cobra.Command {
	var in inputFlags
	var rf reorderFlags
	var out, permOut, orderName string
	c := &cobra.Command{
		Use:   "reorder IN -o OUT.mtx [--order spac|rcm|nd] [--perm-out PREFIX]",
		Short: "Renumber a matrix's rows and columns for locality and write it as Matrix Market",
		Long: `Renumber the rows and columns of IN so that a plain CSR SpMV (cuSPARSE's, or
any other library's) reads x and writes y with more locality, and write the
renumbered matrix as Matrix Market ("-o -" writes standard output; a file
is replaced only once it is complete).

Orders (--order):
  spac  part by part: IN's nonzeros are partitioned with SPAC into parts of
        --block-size nonzeros (the partition of 'spac schedule', cached the
        same way); every row and every column goes to the part holding most
        of its entries, parts are numbered one after the other (in the
        partition's numbering, or along reverse Cuthill-McKee's sweep of the
        matrix where that keeps the parts that share vertices closer); inside
        a part, what no other part touches comes first, then what it shares,
        grouped by the other part. Rows and columns get different numberings.
  rcm   reverse Cuthill-McKee: breadth-first from a pseudo-peripheral
        vertex, neighbours by increasing degree, reversed; small bandwidth.
  nd    METIS nested dissection (METIS_NodeND): halves numbered one after
        the other, separators last; the fill-reducing order of direct
        solvers.
  random  a uniformly random numbering (seeded by --seed): a mesh or graph
        as it may come, without the locality of its generator's order.
  none  the input's numbering (to compare against).
rcm, nd and random number a square matrix symmetrically (the graph of A + A^T: the
same numbering for rows and columns, a symmetric matrix stays symmetric),
a rectangular one through its bipartite row-column graph.

--perm-out PREFIX writes PREFIX.rows.npy and PREFIX.cols.npy (int32, NumPy):
new-to-old numberings, row i of OUT is row rows[i] of IN and column j is
column cols[j]. With them y = A x is recovered from OUT: y[rows] = OUT @
x[cols].

A summary on standard error gives the time and how far the entries lie
from the diagonal (largest and mean |new row - new column|) before and
after.`,
		Example: `  spac reorder web.mtx -o web.spac.mtx --perm-out web.spac
  spac reorder gen:in-2004 --order rcm -o in-2004.rcm.mtx
  spac reorder cant.mtx --order nd -o - | gzip > cant.nd.mtx.gz`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("reorder takes one input, got %d arguments\nsee 'spac reorder --help'", len(args))
			}
			if out == "" {
				return usagef("reorder needs -o OUT.mtx (or -o - for standard output)")
			}
			names, err := parseOrders("order", orderName)
			if err != nil {
				return err
			}
			if len(names) != 1 {
				return usagef("--order takes one of %s", strings.Join(orderNames, ", "))
			}
			if err := firstErr(rf.check("block-size"), checkOutputs(c, "output")); err != nil {
				return err
			}
			var permFiles [2]string
			if permOut != "" {
				permFiles = [2]string{permOut + ".rows.npy", permOut + ".cols.npy"}
				for _, p := range permFiles {
					if p == out {
						return usagef("--perm-out %s would overwrite -o %s", permOut, out)
					}
					if err := output.Check(p); err != nil {
						return usagef("--perm-out %v", err)
					}
				}
			}
			ctx := c.Context()
			prog := in.progress()
			input, err := in.readSpMV(ctx, args[0], rf.pf.seed, 1)
			if err != nil {
				return err
			}
			start := time.Now()
			rows, cols, err := rf.orderOf(ctx, input, names[0], prog, c.ErrOrStderr())
			if err != nil {
				return err
			}
			took := time.Since(start)
			m := input.Matrix
			if !slices.Equal(rows, cols) {
				m = input.Used
			}
			pm := permuted(m, rows, cols)
			if err := output.Write(ctx, out, c.OutOrStdout(), func(w io.Writer) error { return matrices.WriteMatrixMarket(w, pm) }); err != nil {
				return err
			}
			if permOut != "" {
				for i, p := range [][]int32{rows, cols} {
					if err := output.Write(ctx, permFiles[i], nil, func(w io.Writer) error { return schedule.WriteNPYInt32(w, p) }); err != nil {
						return err
					}
				}
			}
			maxBefore, meanBefore := diagonalDistance(input.Used, identity(m.NRows), identity(m.NCols))
			maxAfter, meanAfter := diagonalDistance(input.Used, rows, cols)
			fmt.Fprintf(c.ErrOrStderr(), "reorder %s: %s order of %d x %d, %d entries in %.2f s; |row - column| largest %d -> %d, mean %.1f -> %.1f\n",
				input.Matrix.Name, names[0], m.NRows, m.NCols, input.Used.NNZ(), took.Seconds(), maxBefore, maxAfter, meanBefore, meanAfter)
			return nil
		},
	}
	in.register(c)
	rf.register(c, env, "block-size", "b")
	fl := c.Flags()
	fl.StringVarP(&out, "output", "o", "", "the renumbered matrix, Matrix Market ('-': standard output)")
	fl.StringVar(&orderName, "order", orderSPAC, "the numbering: "+strings.Join(orderNames, ", "))
	fl.StringVar(&permOut, "perm-out", "", "also write PREFIX.rows.npy and PREFIX.cols.npy, the new-to-old row and column numberings")
	return c
}
