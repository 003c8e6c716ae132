package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
)

func newStatsCmd() *cobra.Command {
	var in inputFlags
	c := &cobra.Command{
		Use:   "stats IN",
		Short: "Describe a matrix or graph and its locality graph",
		Long: `Print what IN holds: dimensions, stored and expanded entries, field and
symmetry, entries per row and per column, the diagonal, and the degree
distribution of its locality graph (the model and --as-stored apply as in
partition). Power-law degrees and dense rows are what make partitioning hard.

` + genInputs,
		Example: `  spac stats ../shared/matrices/bcsstk13.mtx.gz
  spac stats web.txt --directed`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error {
			data, err := in.open(c.Context(), args[0])
			if err != nil {
				return err
			}
			// A matrix without entries has no locality graph, and its
			// description says so instead of failing.
			if data.Used.NNZ() > 0 {
				if err := data.Locality(); err != nil {
					return err
				}
			}
			printStats(c.OutOrStdout(), data)
			return nil
		},
	}
	in.register(c)
	return c
}

// summary describes a distribution of counts.
type summary struct {
	min, median, p99, max int
	mean                  float64
	zeros                 int
}

func summarize(counts []int32) summary {
	if len(counts) == 0 {
		return summary{}
	}
	s := slices.Clone(counts)
	slices.Sort(s)
	var sum int64
	zeros := 0
	for _, c := range s {
		sum += int64(c)
		if c == 0 {
			zeros++
		}
	}
	return summary{min: int(s[0]), median: int(s[len(s)/2]), p99: int(s[len(s)*99/100]), max: int(s[len(s)-1]),
		mean: float64(sum) / float64(len(s)), zeros: zeros}
}

func (s summary) String() string {
	return fmt.Sprintf("min %d, median %d, mean %.2f, p99 %d, max %d", s.min, s.median, s.mean, s.p99, s.max)
}

func printStats(w io.Writer, in *pipeline.Input) {
	m, u := in.Matrix, in.Used
	fmt.Fprintf(w, "input              %s\n", m.Name)
	fmt.Fprintf(w, "dimensions         %d x %d\n", m.NRows, m.NCols)
	fmt.Fprintf(w, "field, symmetry    %s, %s\n", m.Field, m.Symmetry)
	fmt.Fprintf(w, "stored entries     %d\n", m.NNZ())
	if u != m {
		fmt.Fprintf(w, "expanded entries   %d (both triangles; --as-stored keeps the stored ones)\n", u.NNZ())
	}
	rowCount := make([]int32, u.NRows)
	colCount := make([]int32, u.NCols)
	diag := 0
	for e := range u.Row {
		rowCount[u.Row[e]]++
		colCount[u.Col[e]]++
		if u.Row[e] == u.Col[e] {
			diag++
		}
	}
	rs, cs := summarize(rowCount), summarize(colCount)
	fmt.Fprintf(w, "entries per row    %s; %d empty rows\n", rs, rs.zeros)
	fmt.Fprintf(w, "entries per column %s; %d empty columns\n", cs, cs.zeros)
	fmt.Fprintf(w, "diagonal entries   %d\n", diag)
	g := in.Graph
	if g == nil {
		fmt.Fprintf(w, "locality graph     none: the matrix has no entries, nothing to partition\n")
		return
	}
	deg := make([]int32, 0, g.NumVertices)
	for v := 0; v < g.NumVertices; v++ {
		if d := in.Inc.Degree(v); d > 0 {
			deg = append(deg, int32(d))
		}
	}
	fmt.Fprintf(w, "locality graph     %s model: %d vertices (%d with edges), %d edges\n", g.Model, g.NumVertices, len(deg), g.NumEdges())
	fmt.Fprintf(w, "vertex degrees     %s\n", summarize(deg))
	if g.Model == matrices.ModelSpMV {
		fmt.Fprintf(w, "                   (rows are vertices 1..%d, columns follow)\n", g.NumRowVertices)
	}
}
