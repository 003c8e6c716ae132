package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

func newEvaluateCmd() *cobra.Command {
	var in inputFlags
	var pf partFlags
	var assignment string
	c := &cobra.Command{
		Use:   "evaluate IN --assignment FILE",
		Short: "Check and measure a partition written by 'spac partition --assignment'",
		Long: `Read IN and an assignment file ("row col part" per entry, as 'spac partition
--assignment' writes it, with or without --mpi), check it (every entry in
its place, every part under the cap that --block-size or --parts gives) and
print the same summary as 'spac partition', computed by the single-machine
metrics code. Use the same input flags as for the partition.

` + genInputs + ` It is generated with --seed.`,
		Example: `  mpirun -np 4 bin/mpi/spac partition m.mtx --mpi -o m.parts.tsv
  spac evaluate m.mtx --assignment m.parts.tsv`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error {
			if assignment == "" {
				return usagef("--assignment FILE is required")
			}
			data, opts, err := loadToPartition(c.Context(), &in, &pf, args[0])
			if err != nil {
				return err
			}
			p, err := readAssignment(assignment, data, opts.K)
			if err != nil {
				return err
			}
			if err := spac.Check(data.Graph, p, opts.Cap); err != nil {
				return fmt.Errorf("%s: %w", assignment, err)
			}
			met := spac.Evaluate(data.Graph, data.Inc, p)
			met.Method, met.Cap = "from "+assignment, opts.Cap
			printSummary(c.OutOrStdout(), data, met)
			return nil
		},
	}
	in.register(c)
	pf.register(c)
	c.Flags().StringVarP(&assignment, "assignment", "a", "", "the assignment file to evaluate (row col part per line)")
	return c
}

// readAssignment reads "row col part" lines, one per entry of the input
// in its order, checking that each names its entry and a part below k.
func readAssignment(path string, data *pipeline.Input, k int) (spac.Partition, error) {
	f, err := os.Open(path)
	if err != nil {
		return spac.Partition{}, err
	}
	defer f.Close()
	m := data.Used
	p := spac.Partition{K: k, Part: make([]int32, m.NNZ())}
	br := bufio.NewReaderSize(f, 1<<20)
	e := 0
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if len(b) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return p, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		fields := bytes.Fields(b)
		if len(fields) != 3 {
			return p, fmt.Errorf("%s: line %d: expected \"row col part\", got %d fields", path, line, len(fields))
		}
		var v [3]int64
		for i, fld := range fields {
			if v[i], err = strconv.ParseInt(string(fld), 10, 64); err != nil {
				return p, fmt.Errorf("%s: line %d: expected an integer, got %q", path, line, fld)
			}
		}
		if e >= m.NNZ() {
			return p, fmt.Errorf("%s: line %d: the input has %d entries, the file more", path, line, m.NNZ())
		}
		if v[0] != int64(m.Row[e])+1 || v[1] != int64(m.Col[e])+1 {
			return p, fmt.Errorf("%s: line %d: entry %d is (%d,%d) in the input, (%d,%d) in the file: not an assignment of this input (same --as-stored and input flags?)", path, line, e+1, m.Row[e]+1, m.Col[e]+1, v[0], v[1])
		}
		if v[2] < 0 || v[2] >= int64(k) {
			return p, fmt.Errorf("%s: line %d: part %d out of range [0, %d)", path, line, v[2], k)
		}
		p.Part[e] = int32(v[2])
		e++
	}
	if e != m.NNZ() {
		return p, fmt.Errorf("%s: %d lines for %d entries", path, e, m.NNZ())
	}
	return p, nil
}
