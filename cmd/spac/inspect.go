package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/schedule"
)

func newInspectCmd() *cobra.Command {
	var in inputFlags
	var matrixPath string
	c := &cobra.Command{
		Use:   "inspect FILE.sched",
		Short: "Check a schedule file and summarize it: blocks, shared-memory demand, predicted traffic",
		Long: `Read a schedule file written by 'spac schedule -o', check it (header and
payload checksums, every structural invariant) and print a summary: blocks
and tasks, unique x and y per block, a histogram of the blocks' shared-memory
demand, and the predicted global-memory traffic of the scheduled kernel
against the plain one.

With --matrix, also check that the schedule was made for that matrix (its
structure fingerprint). The matrix is read as the schedule says it was
(--as-stored as recorded) unless the flag is given.

A damaged, truncated or foreign file is refused with exit status 1.`,
		Example: `  spac inspect cant.sched
  spac inspect cant.sched --matrix cant.mtx`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("inspect takes one schedule file, got %d arguments\nsee '%s --help'", len(args), c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			s, err := schedule.ReadFile(args[0], nil)
			if err != nil {
				return err
			}
			w := c.OutOrStdout()
			if matrixPath != "" {
				if !c.Flags().Changed("as-stored") {
					if v, ok := s.Param("as-stored"); ok {
						in.asStored, _ = strconv.ParseBool(v)
					}
				}
				data, err := in.open(c.Context(), matrixPath)
				if err != nil {
					return err
				}
				if err := s.CheckMatrix(data.Used); err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
			}
			fmt.Fprintf(w, "schedule file    %s (format version %d)\n", args[0], schedule.Version)
			if matrixPath != "" {
				fmt.Fprintf(w, "matrix check     %s matches the fingerprint\n", matrixPath)
			}
			printScheduleSummary(w, s)
			printDemandHistogram(w, s)
			return nil
		},
	}
	in.register(c)
	c.Flags().StringVar(&matrixPath, "matrix", "", "check the schedule against this matrix")
	return c
}

// printDemandHistogram shows how the blocks' shared-memory demand (for the
// value size the budget was checked for) spreads between the smallest and
// the largest, in at most ten equal-width bins of whole values.
func printDemandHistogram(w io.Writer, s *schedule.Schedule) {
	vb := s.ValueBytes
	lo, hi := s.SharedBytes(0, vb), 0
	for b := range s.NumBlocks() {
		d := s.SharedBytes(b, vb)
		lo, hi = min(lo, d), max(hi, d)
	}
	const bins = 10
	width := max(vb, (hi-lo+bins*vb)/(bins*vb)*vb) // a multiple of the value size
	n := (hi-lo)/width + 1
	count := make([]int, n)
	for b := range s.NumBlocks() {
		count[(s.SharedBytes(b, vb)-lo)/width]++
	}
	most := 1
	for _, c := range count {
		most = max(most, c)
	}
	fmt.Fprintf(w, "demand histogram fp%d bytes per block (budget %d)\n", 8*vb, s.Budget)
	for i, c := range count {
		from := lo + i*width
		fmt.Fprintf(w, "  %7d - %-7d %7d  %s\n", from, from+width-vb, c, strings.Repeat("#", (c*40+most-1)/most))
	}
}
