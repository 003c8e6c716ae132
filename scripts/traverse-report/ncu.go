package main

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The Nsight Compute counters of scripts/traverse-ncu.sh, summed per
// kernel: time, and the time-weighted mean of each throughput.
var ncuPct = []struct{ metric, head string }{
	{"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM % of peak"},
	{"lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 % of peak"},
	{"lts__t_sector_hit_rate.pct", "L2 hit %"},
	{"sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM % of peak"},
	{"sm__warps_active.avg.pct_of_peak_sustained_active", "warps active %"},
}

var ncuSum = []struct{ metric, head string }{
	{"dram__bytes_read.sum", "DRAM read MB"},
	{"dram__bytes_write.sum", "DRAM write MB"},
	{"lts__t_sectors_op_atom.sum", "L2 atomic sectors (M)"},
}

type ncuKernel struct {
	name     string
	launches int
	ns       float64
	pct      []float64 // time-weighted sums
	sum      []float64
}

// readNCU reads ncu's raw CSV page (a log whose lines before the header
// are ncu's own messages): the header row starts with "ID", a row of
// units follows, then a row per launch.
func readNCU(path string) ([]*ncuKernel, float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		in = z
	}
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	recs, err := r.ReadAll()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	h := -1
	for i, rec := range recs {
		if len(rec) > 1 && rec[0] == "ID" {
			h = i
			break
		}
	}
	if h < 0 || h+1 >= len(recs) {
		return nil, 0, fmt.Errorf("%s: no ncu header row (a column ID)", path)
	}
	col := map[string]int{}
	for i, name := range recs[h] {
		col[name] = i
	}
	need := []string{"Kernel Name", "gpu__time_duration.sum"}
	for _, m := range ncuPct {
		need = append(need, m.metric)
	}
	for _, m := range ncuSum {
		need = append(need, m.metric)
	}
	for _, n := range need {
		if _, ok := col[n]; !ok {
			return nil, 0, fmt.Errorf("%s: no column %s", path, n)
		}
	}
	if u := recs[h+1][col["gpu__time_duration.sum"]]; u != "ns" && u != "nsecond" {
		return nil, 0, fmt.Errorf("%s: kernel time in %q, want ns", path, u)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil {
			return 0 // n/a: a metric the launch did not collect
		}
		return v
	}
	by := map[string]*ncuKernel{}
	var out []*ncuKernel
	var total float64
	for _, rec := range recs[h+2:] {
		if len(rec) < len(recs[h]) {
			continue // a line cut off by a run stopped at its time limit
		}
		name := rec[col["Kernel Name"]]
		k := by[name]
		if k == nil {
			k = &ncuKernel{name: name, pct: make([]float64, len(ncuPct)), sum: make([]float64, len(ncuSum))}
			by[name] = k
			out = append(out, k)
		}
		ns := num(rec[col["gpu__time_duration.sum"]])
		k.launches++
		k.ns += ns
		total += ns
		for i, m := range ncuPct {
			k.pct[i] += ns * num(rec[col[m.metric]])
		}
		for i, m := range ncuSum {
			k.sum[i] += num(rec[col[m.metric]])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ns > out[j].ns })
	return out, total, nil
}

// ncuSection writes a table per profiled run found in raw/ncu.
func ncuSection(p func(string, ...any), raw string) error {
	files, _ := filepath.Glob(filepath.Join(raw, "ncu", "*.csv*"))
	if len(files) == 0 {
		return nil
	}
	sort.Strings(files)
	p("## Counters (Nsight Compute)\n\n")
	p("One search under `scripts/traverse-ncu.sh` (ncu, clocks not locked, every launch replayed for its counters), ")
	p("summed per kernel: time and its share of the search, the time-weighted mean of each throughput, and the totals. ")
	p("A kernel far below the DRAM and L2 peaks with most warps active waits on the latency of its dependent ")
	p("loads and atomics, not on bandwidth.\n\n")
	for _, f := range files {
		label := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".gz"), ".csv")
		ks, total, err := readNCU(f)
		if err != nil {
			return err
		}
		p("### %s\n\n", label)
		p("| kernel | launches | us | share |")
		for _, m := range ncuPct {
			p(" %s |", m.head)
		}
		for _, m := range ncuSum {
			p(" %s |", m.head)
		}
		p("\n|---|---:|---:|---:|%s\n", strings.Repeat("---:|", len(ncuPct)+len(ncuSum)))
		for _, k := range ks {
			p("| %s | %d | %.1f | %.1f%% |", k.name, k.launches, k.ns/1e3, 100*k.ns/total)
			for i := range ncuPct {
				p(" %.1f |", k.pct[i]/k.ns)
			}
			p(" %.1f | %.1f | %.2f |\n", k.sum[0]/1e6, k.sum[1]/1e6, k.sum[2]/1e6)
		}
		p("\nAll kernels: %.2f ms.\n\n", total/1e6)
	}
	return nil
}
