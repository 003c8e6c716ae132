package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
)

func newGenCmd() *cobra.Command {
	var out string
	var scale float64
	var seed int64
	var list bool
	c := &cobra.Command{
		Use:   "gen PRESET|KIND:key=value,... -o OUT.mtx",
		Short: "Generate a test matrix: a stand-in for the paper's matrices or a random graph",
		Long: `Generate a matrix and write it as Matrix Market ("-o -" writes standard output).

Presets mimic the size and structure of the SuiteSparse matrices of the SPAC
paper (cant, circuit5M, cop20k_A, Ga41As41H72, in-2004, mac_econ_fwd500,
mc2depi, scircuit); --scale shrinks or grows the number of rows and keeps the
entries per row. "spac gen --list" shows them all.

Kinds take parameters: ba (Barabasi-Albert), er (Erdos-Renyi), rmat,
stencil2d, stencil3d, circuit, fem; see --list for their keys.`,
		Example: `  spac gen cant -o cant.mtx
  spac gen in-2004 --scale 0.1 --seed 7 -o web.mtx
  spac gen ba:n=50000,m=8 -o ba.mtx
  spac gen stencil2d:nx=1000,ny=1000,points=5 -o lap.mtx`,
		RunE: func(c *cobra.Command, args []string) error {
			if list {
				return printGenList(c.OutOrStdout())
			}
			if len(args) != 1 {
				return usagef("gen takes one preset or kind, got %d arguments\nsee 'spac gen --help'", len(args))
			}
			if out == "" {
				return usagef("gen needs -o OUT.mtx (or -o - for standard output)")
			}
			if err := floatIn("scale", scale, 0, math.Inf(1), true, "a factor on a preset's rows; the generators' row and entry limits apply"); err != nil {
				return err
			}
			if err := checkOutputs(c, "output"); err != nil {
				return err
			}
			m, err := usage(pipeline.Generate(args[0], scale, seed))
			if err != nil {
				return err
			}
			if err := output.Write(c.Context(), out, c.OutOrStdout(), func(w io.Writer) error { return matrices.WriteMatrixMarket(w, m) }); err != nil {
				return err
			}
			if out == output.Stdout {
				return nil
			}
			fmt.Fprintf(os.Stderr, "wrote %s: %d x %d, %d stored entries (%s)\n", out, m.NRows, m.NCols, m.NNZ(), m.Symmetry)
			return nil
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "output Matrix Market file, - for standard output")
	c.Flags().Float64Var(&scale, "scale", 1, "presets: factor on the number of rows (0.01 = 1% of full size)")
	c.Flags().Int64Var(&seed, "seed", 1, "random seed; the same seed gives the same matrix")
	c.Flags().BoolVar(&list, "list", false, "list presets and kinds")
	return c
}

func printGenList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "preset\tdescription")
	for _, info := range matrices.Presets() {
		fmt.Fprintf(tw, "%s\t%s\n", info.Name, info.Description)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, matrices.GenSpecHelp())
	return nil
}
