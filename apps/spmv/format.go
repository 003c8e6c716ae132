package spmv

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable prints each result as a header and one aligned table.
func WriteTable(w io.Writer, results []*Result) error {
	for i, res := range results {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %d x %d, %d nonzeros\n", res.Input, res.NRows, res.NCols, res.NNZ)
		fmt.Fprintf(w, "GPU: %s\n", res.GPU)
		if res.GPURan {
			fmt.Fprintf(w, "device copy: %.0f GB/s (read + write); cuSPARSE: %s; kernels: %s PTX\n", res.CopyGBps, res.CuSPARSE, res.PTX)
		}
		fmt.Fprintln(w, "GB/s: minimum traffic (values, column indices, row offsets, x and y once) over the time; vs cuSPARSE: the best time of any cuSPARSE path over this time; B/nnz: bytes of the kernel's matrix format per nonzero")
		rows := append([]Row(nil), res.Rows...)
		KernelOrder(rows)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "prec\tkernel\tschedule\tB\ttime/SpMV\tGB/s\tof copy\tvs cuSPARSE\tB/nnz\tmax rel err\tcheck\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Precision, r.Kernel, r.Schedule, blockCol(r.BlockSize),
				timeCol(r), gbpsCol(r), pctCol(r.CopyFraction), speedCol(r.Speedup), bytesCol(r.FormatBytes), errCol(r), checkCol(r))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, n := range res.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
	}
	return nil
}

func blockCol(b int) string {
	if b == 0 {
		return "-"
	}
	return strconv.Itoa(b)
}

func timeCol(r Row) string {
	if !r.Ran() {
		return "-"
	}
	switch {
	case r.Micros >= 1e6:
		return fmt.Sprintf("%.2f s", r.Micros/1e6)
	case r.Micros >= 1e3:
		return fmt.Sprintf("%.2f ms", r.Micros/1e3)
	}
	return fmt.Sprintf("%.1f us", r.Micros)
}

func gbpsCol(r Row) string {
	if !r.Ran() {
		return "-"
	}
	return fmt.Sprintf("%.0f", r.GBps)
}

func pctCol(f float64) string {
	if f == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}

func speedCol(s float64) string {
	if s == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", s)
}

func bytesCol(b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", b)
}

func errCol(r Row) string {
	if !r.Ran() {
		return "-"
	}
	return fmt.Sprintf("%.1e", r.MaxRelErr)
}

func checkCol(r Row) string {
	switch {
	case !r.Ran():
		if r.Note != "" {
			return "not run: " + r.Note
		}
		return "not run"
	case r.OK:
		return "ok"
	}
	return "WRONG"
}

var csvHeader = []string{"input", "rows", "cols", "nnz", "precision", "block_size", "kernel", "schedule", "device",
	"time_us", "time_min_us", "time_max_us", "reps", "min_bytes", "gbps", "copy_fraction", "speedup_cusparse",
	"predicted_bytes", "blocks", "shared_bytes", "max_rel_error", "ok", "note", "format_bytes_per_nnz", "setup_s", "run_s"}

// csvFieldsBefore are the field counts of files written before the format
// bytes column was added, and before the setup and run seconds: ReadCSV
// still reads them (the missing fields 0).
var csvFieldsBefore = []int{23, 24}

// WriteCSV writes every row of every result with a header line.
func WriteCSV(w io.Writer, results []*Result, header bool) error {
	cw := csv.NewWriter(w)
	if header {
		cw.Write(csvHeader)
	}
	for _, res := range results {
		rows := append([]Row(nil), res.Rows...)
		KernelOrder(rows)
		for _, r := range rows {
			cw.Write(rowRecord(r))
		}
	}
	cw.Flush()
	return cw.Error()
}

func rowRecord(r Row) []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	return []string{r.Input, strconv.Itoa(r.NRows), strconv.Itoa(r.NCols), strconv.Itoa(r.NNZ), r.Precision,
		strconv.Itoa(r.BlockSize), r.Kernel, r.Schedule, r.Device, f(r.Micros), f(r.MinMicros), f(r.MaxMicros),
		strconv.Itoa(r.Reps), strconv.FormatInt(r.MinBytes, 10), f(r.GBps), f(r.CopyFraction), f(r.Speedup),
		strconv.FormatInt(r.PredBytes, 10), strconv.Itoa(r.Blocks), strconv.Itoa(r.SharedBytes), f(r.MaxRelErr),
		strconv.FormatBool(r.OK), r.Note, f(r.FormatBytes), f(r.SetupSeconds), f(r.RunSeconds)}
}

// ReadRows reads the rows of a run's output, CSV (WriteCSV) or JSON Lines
// (WriteJSONRow; the result lines are skipped), telling them apart by the
// first character.
func ReadRows(r io.Reader) ([]Row, error) {
	br := bufio.NewReader(r)
	for {
		b, err := br.Peek(1)
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the results: %w", err)
		}
		if b[0] != ' ' && b[0] != '\n' && b[0] != '\r' && b[0] != '\t' {
			break
		}
		br.ReadByte()
	}
	if b, _ := br.Peek(1); b[0] != '{' {
		return ReadCSV(br)
	}
	dec := json.NewDecoder(br)
	var rows []Row
	for line := 1; ; line++ {
		var v struct {
			Type string `json:"type"`
			Row
			MaxRelErr jsonFloat `json:"max_rel_error"`
		}
		err := dec.Decode(&v)
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("results, JSON value %d: %w", line, err)
		}
		switch v.Type {
		case "row":
			v.Row.MaxRelErr = float64(v.MaxRelErr)
			rows = append(rows, v.Row)
		case "result":
		default:
			return nil, fmt.Errorf("results, JSON value %d: type %q, want row or result", line, v.Type)
		}
	}
}

// ReadCSV reads rows that WriteCSV wrote (any number of files concatenated,
// repeated header lines skipped).
func ReadCSV(r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var rows []Row
	line := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return rows, nil
		}
		line++
		if err != nil {
			return nil, fmt.Errorf("reading the results: %w", err)
		}
		if len(rec) > 0 && rec[0] == csvHeader[0] {
			continue
		}
		if len(rec) != len(csvHeader) && !slices.Contains(csvFieldsBefore, len(rec)) {
			return nil, fmt.Errorf("results line %d: %d fields, want %d (%s)", line, len(rec), len(csvHeader), strings.Join(csvHeader, ","))
		}
		var row Row
		var errs []string
		atoi := func(s string) int {
			v, err := strconv.Atoi(s)
			if err != nil {
				errs = append(errs, s)
			}
			return v
		}
		atoi64 := func(s string) int64 {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				errs = append(errs, s)
			}
			return v
		}
		atof := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				errs = append(errs, s)
			}
			return v
		}
		row.Input, row.NRows, row.NCols, row.NNZ = rec[0], atoi(rec[1]), atoi(rec[2]), atoi(rec[3])
		row.Precision, row.BlockSize, row.Kernel, row.Schedule, row.Device = rec[4], atoi(rec[5]), rec[6], rec[7], rec[8]
		row.Micros, row.MinMicros, row.MaxMicros, row.Reps = atof(rec[9]), atof(rec[10]), atof(rec[11]), atoi(rec[12])
		row.MinBytes, row.GBps, row.CopyFraction, row.Speedup = atoi64(rec[13]), atof(rec[14]), atof(rec[15]), atof(rec[16])
		row.PredBytes, row.Blocks, row.SharedBytes, row.MaxRelErr = atoi64(rec[17]), atoi(rec[18]), atoi(rec[19]), atof(rec[20])
		row.OK = rec[21] == "true"
		row.Note = rec[22]
		if len(rec) > 23 {
			row.FormatBytes = atof(rec[23])
		}
		if len(rec) > 24 {
			row.SetupSeconds, row.RunSeconds = atof(rec[24]), atof(rec[25])
		}
		if len(errs) > 0 {
			return nil, fmt.Errorf("results line %d: not numbers: %s", line, strings.Join(errs, ", "))
		}
		rows = append(rows, row)
	}
}

// JSON output is JSON Lines, written as the run goes: a line per row the
// moment it is measured (WriteJSONRow), and a line per input when it is
// done (WriteJSONResult: the device, the copy bandwidth, the notes; its
// rows are the lines before it). Every line has "type": "row" or "result".

// WriteJSONRow writes one row as a line of JSON.
func WriteJSONRow(w io.Writer, r Row) error {
	return json.NewEncoder(w).Encode(struct {
		Type string `json:"type"`
		Row
		MaxRelErr jsonFloat `json:"max_rel_error"` // over Row's: a wrong product's error is infinite
	}{"row", r, jsonFloat(r.MaxRelErr)})
}

// jsonFloat is a float64 that JSON carries as a number or, where it is
// not finite (MaxRelError of a product wrong beyond measure: a NaN, or an
// error in a row whose exact terms are all zero), as the string "+Inf",
// "-Inf" or "NaN", which JSON numbers cannot say: encoding/json refuses
// them, and one wrong kernel would end the run's output.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return json.Marshal(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return json.Marshal(v)
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := strconv.ParseFloat(s, 64)
		*f = jsonFloat(v)
		return err
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*f = jsonFloat(v)
	return err
}

// WriteJSONResult writes the line that ends an input: the result less its
// rows.
func WriteJSONResult(w io.Writer, res *Result) error {
	head := *res
	head.Rows = nil
	return json.NewEncoder(w).Encode(struct {
		Type string `json:"type"`
		*Result
	}{"result", &head})
}
