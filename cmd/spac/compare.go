package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

func newCompareCmd() *cobra.Command {
	var in inputFlags
	var pf partFlags
	var methods string
	var format outputFormat
	c := &cobra.Command{
		Use:   "compare IN",
		Short: "Run every partitioning method on one input and print one table",
		Long: `Run SPAC and the baselines on the same input, with the same parts and cap,
and print one row per method, like the paper's Fig. 4: vertex copies,
replication factor, largest part over ideal, the largest per-part count of
unique vertices (shared-memory demand of a block), partition time, and the
predicted global-memory traffic of one fp64 SpMV: the 32-byte sectors the
plain row-order kernel loads over those the method's shared-memory schedule
loads (see 'spac schedule --help'; above 1 means the schedule saves); a
part is a thread block there, so with parts of more than 1024 edges (as
--parts gives on large inputs) there is no such schedule and the column
shows -. The last column gives each method's copies relative to the first
method's.

` + genInputs + ` It is generated with --seed.`,
		Example: `  spac compare bcsstk13.mtx.gz --block-size 1024
  spac compare cant.mtx --as-stored --methods spac,greedy,wvp-greedy --format csv`,
		Args: oneInput,
		RunE: func(c *cobra.Command, args []string) error {
			names := allMethods()
			if methods != "" && methods != "all" {
				names = strings.Split(methods, ",")
			}
			var ms []spac.Method
			for _, n := range names {
				m, err := lookupMethod(strings.TrimSpace(n))
				if err != nil {
					return usageError{err}
				}
				ms = append(ms, m)
			}
			// Under mpirun, every rank runs the collective methods
			// (hypergraph) together and rank 0 alone the others.
			rank, _, err := mpiRank(ms)
			if err != nil {
				return err
			}
			data, opts, err := loadToPartition(c.Context(), &in, &pf, args[0])
			if err != nil {
				return err
			}
			prog := in.progress()
			prog.Printf("%s\n%d parts of at most %d edges", data.Describe(), opts.K, opts.Cap)
			if rank != 0 {
				prog = nil
			}
			var rows []comparisonRow
			for _, m := range ms {
				if rank != 0 && !collective(m) {
					continue
				}
				p, met, err := pipeline.Partition(c.Context(), data, m, opts, prog)
				if err != nil {
					return err
				}
				if rank != 0 {
					continue
				}
				row := newComparisonRow(data.Matrix.Name, met)
				// Parts larger than a CUDA block have no schedule: no traffic.
				t, err := schedule.PredictTraffic(data.Used, p, opts.Cap)
				switch {
				case err == nil:
					row.addTraffic(t)
				case !errors.Is(err, schedule.ErrBlockTooLarge):
					return fmt.Errorf("predicting the traffic of %s's schedule: %w", m.Name(), err)
				}
				rows = append(rows, row)
			}
			if rank != 0 {
				return nil
			}
			return writeComparison(c.OutOrStdout(), format, rows)
		},
	}
	in.register(c)
	pf.register(c)
	c.Flags().StringVar(&methods, "methods", "all", "comma-separated methods to run: "+strings.Join(methodNames(), ",")+" (hypergraph needs the MPI build, 'make mpi'; all includes it there)")
	registerFormat(c, &format, formatTable, formatCSV, formatJSON)
	return c
}

// comparisonRow is one method's line of a comparison, as CSV and JSON write it.
type comparisonRow struct {
	Input        string  `json:"input"`
	Method       string  `json:"method"`
	Parts        int     `json:"parts"`
	Cap          int     `json:"cap"`
	Edges        int     `json:"edges"`
	Vertices     int     `json:"vertices"`
	Copies       int64   `json:"copies"`
	RF           float64 `json:"replication_factor"`
	MaxLoadRatio float64 `json:"max_load_over_ideal"`
	MaxUnique    int     `json:"max_unique_vertices"`
	AvgCutDegree float64 `json:"avg_cut_degree"`
	Seconds      float64 `json:"seconds"`
	// The traffic prediction; nil when the parts are larger than a CUDA
	// block.
	DefaultSectors  *int64   `json:"default_kernel_sectors,omitempty"`
	ScheduleSectors *int64   `json:"schedule_sectors,omitempty"`
	SectorRatio     *float64 `json:"sector_ratio,omitempty"`
	VsFirst         float64  `json:"copies_vs_first"`
}

func newComparisonRow(input string, m spac.Metrics) comparisonRow {
	return comparisonRow{Input: input, Method: m.Method, Parts: m.K, Cap: m.Cap, Edges: m.Edges,
		Vertices: m.Vertices, Copies: m.Copies, RF: m.RF, MaxLoadRatio: m.MaxLoadRatio,
		MaxUnique: m.MaxUnique, AvgCutDegree: m.AvgCutDegree, Seconds: m.Time.Seconds()}
}

func (r *comparisonRow) addTraffic(t schedule.Traffic) {
	_, def := t.Default.Total()
	_, opt := t.Optimized.Total()
	ratio := t.SectorRatio()
	r.DefaultSectors, r.ScheduleSectors, r.SectorRatio = &def, &opt, &ratio
}

// trafficText formats an optional traffic figure ("" when there is none).
func trafficText[T int64 | float64](v *T, format string) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf(format, *v)
}

func writeComparison(w io.Writer, format outputFormat, rows []comparisonRow) error {
	for i := range rows {
		if rows[0].Copies > 0 {
			rows[i].VsFirst = float64(rows[i].Copies) / float64(rows[0].Copies)
		}
	}
	switch format {
	case formatJSON:
		return writeJSON(w, rows)
	case formatCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"input", "method", "parts", "cap", "edges", "vertices", "copies", "replication_factor", "max_load_over_ideal", "max_unique_vertices", "avg_cut_degree", "seconds", "default_kernel_sectors", "schedule_sectors", "sector_ratio", "copies_vs_first"})
		for _, r := range rows {
			cw.Write([]string{r.Input, r.Method, strconv.Itoa(r.Parts), strconv.Itoa(r.Cap), strconv.Itoa(r.Edges),
				strconv.Itoa(r.Vertices), strconv.FormatInt(r.Copies, 10), fmt.Sprintf("%.4f", r.RF),
				fmt.Sprintf("%.4f", r.MaxLoadRatio), strconv.Itoa(r.MaxUnique), fmt.Sprintf("%.2f", r.AvgCutDegree),
				fmt.Sprintf("%.3f", r.Seconds), trafficText(r.DefaultSectors, "%d"), trafficText(r.ScheduleSectors, "%d"),
				trafficText(r.SectorRatio, "%.3f"), fmt.Sprintf("%.3f", r.VsFirst)})
		}
		cw.Flush()
		return cw.Error()
	}
	if len(rows) > 0 {
		fmt.Fprintf(w, "%s: %d edges, %d vertices, %d parts of at most %d edges\n\n", rows[0].Input, rows[0].Edges, rows[0].Vertices, rows[0].Parts, rows[0].Cap)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\tcopies\tRF\tmax load/ideal\tmax unique\tcut-vertex degree\ttime\tsectors default/schedule\tcopies vs %s\t\n", firstName(rows))
	for _, r := range rows {
		sectors := trafficText(r.SectorRatio, "%.3fx")
		if sectors == "" {
			sectors = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%d\t%.2f\t%.3fs\t%s\t%.3f\t\n", r.Method, r.Copies, r.RF, r.MaxLoadRatio,
			r.MaxUnique, r.AvgCutDegree, r.Seconds, sectors, r.VsFirst)
	}
	return tw.Flush()
}

func firstName(rows []comparisonRow) string {
	if len(rows) == 0 {
		return "first"
	}
	return rows[0].Method
}
