package adaptive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The sweep's file formats: the CSV of timed levels and its sidecar.
const (
	// GraphFormat and GraphVersion mark a sidecar (GraphInfo).
	GraphFormat  = "spac-traverse-graph"
	GraphVersion = 1
	// DataDir is where the sweep writes and train reads by default.
	DataDir = "data/traverse"
)

// The CSV's columns other than the features.
const (
	colGraph     = "graph"
	colFamily    = "family"
	colRoot      = "root"
	colCandidate = "candidate"
	colTime      = "time_us"
	colValid     = "valid"
	keyColumns   = 3 // graph, family, root; the features follow, level first
)

// Header returns the sweep CSV's header: graph, family, root, the
// features in order (level first), candidate, time_us, valid.
func Header() []string {
	h := []string{colGraph, colFamily, colRoot}
	h = append(h, featureNames[:]...)
	return append(h, colCandidate, colTime, colValid)
}

var (
	namePattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
	candidatePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._:+-]*$`)
)

// CheckName says whether s can name a graph or a family: letters, digits
// and . _ + - (not first), so that it is a file name and a CSV field as is.
func CheckName(what, s string) error {
	if !namePattern.MatchString(s) || len(s) > 200 {
		return fmt.Errorf("%s %q: use 1 to 200 letters, digits, '.', '_', '+' or '-', starting with a letter or digit", what, s)
	}
	return nil
}

// CheckCandidate says whether s can name a candidate implementation:
// lower-case letters, digits and . _ : + - (not first), as the engine's
// strategy names are spelled ("lb-cull", "vertex-push-warp:8").
func CheckCandidate(s string) error {
	if !candidatePattern.MatchString(s) || len(s) > 100 {
		return fmt.Errorf("candidate %q: use 1 to 100 lower-case letters, digits, '.', '_', ':', '+' or '-', starting with a letter or digit", s)
	}
	return nil
}

// GraphInfo is the sidecar of a sweep's CSV (<graph>.json beside
// <graph>.csv): what the graph is, so that it can be made again.
type GraphInfo struct {
	Format  string `json:"format"`  // GraphFormat
	Version int    `json:"version"` // GraphVersion
	Name    string `json:"name"`    // the CSV's graph column; the files' base name
	Family  string `json:"family"`  // the CSV's family column: kron, road, web, ...
	// Exactly one of Generator and File: the generator as 'spac bfs'
	// takes it with its seed ("kron:scale=20,ef=16,seed=3"), or the input
	// file (a name under ../shared/matrices or a path).
	Generator string `json:"generator,omitempty"`
	File      string `json:"file,omitempty"`
	// BuildOptions are the flags that built the graph from its input, as
	// 'spac bfs' spells them ("--undirected --dedupe"), if any.
	BuildOptions string `json:"build_options,omitempty"`
	Directed     bool   `json:"directed"`
	Vertices     int64  `json:"vertices"` // equal to every row's vertices
	Arcs         int64  `json:"arcs"`     // equal to every row's arcs
	Algorithm    string `json:"algorithm"`
	Device       string `json:"device,omitempty"`  // where the times were taken ("NVIDIA H100 80GB HBM3, driver 580")
	Created      string `json:"created,omitempty"` // when, RFC 3339
	// Synthetic marks times made by a cost model, not measured.
	Synthetic bool   `json:"synthetic,omitempty"`
	Notes     string `json:"notes,omitempty"`
}

// Check validates the sidecar's fields.
func (g *GraphInfo) Check() error {
	if g.Format != GraphFormat {
		return fmt.Errorf("format %q, want %q", g.Format, GraphFormat)
	}
	if g.Version != GraphVersion {
		return fmt.Errorf("sidecar version %d is not known to this build (it reads version %d)", g.Version, GraphVersion)
	}
	if err := CheckName("graph", g.Name); err != nil {
		return err
	}
	if err := CheckName("family", g.Family); err != nil {
		return err
	}
	if (g.Generator == "") == (g.File == "") {
		return fmt.Errorf("graph %s: give exactly one of generator and file (how to make the graph again)", g.Name)
	}
	if g.Vertices < 1 || g.Arcs < 0 {
		return fmt.Errorf("graph %s: %d vertices and %d arcs", g.Name, g.Vertices, g.Arcs)
	}
	if g.Algorithm != "bfs" {
		return fmt.Errorf("graph %s: algorithm %q, want \"bfs\" (the only one with a feature set so far)", g.Name, g.Algorithm)
	}
	return nil
}

// NewGraphInfo fills the fixed fields of a sidecar for a BFS sweep.
func NewGraphInfo(name, family string, s GraphStats) GraphInfo {
	return GraphInfo{Format: GraphFormat, Version: GraphVersion, Name: name, Family: family,
		Vertices: s.Vertices, Arcs: s.Arcs, Algorithm: "bfs"}
}

// SidecarPath is the sidecar of a sweep CSV: x.csv or x.csv.gz -> x.json.
func SidecarPath(csvPath string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(csvPath, ".gz"), ".csv")
	return base + ".json"
}

// Row is one line of a sweep: one candidate timed at one level of the
// search from one root.
type Row struct {
	Graph, Family string
	Root          int64
	Features      Features
	Candidate     string
	// TimeUS is the level's time in microseconds: finite and positive when
	// Valid; NaN (written empty) or any finite value otherwise.
	TimeUS float64
	// Valid says the candidate ran the level and the search it belongs to
	// passed validation; false for a candidate that does not apply (pull
	// on a directed graph without in-arcs) or failed.
	Valid bool
}

// Writer writes one graph's sweep: the CSV, then the sidecar on Close.
type Writer struct {
	info      GraphInfo
	csv       *csv.Writer
	buf       *bufio.Writer
	file      *os.File // nil for NewWriter
	path, tmp string
	record    []string
	err       error
}

// Create starts the sweep of one graph in dir (DataDir by convention; it
// must exist):
// <name>.csv and <name>.json appear together when Close succeeds (written
// aside, then renamed), so an interrupted sweep leaves no half file.
func Create(dir string, info GraphInfo) (*Writer, error) {
	if err := info.Check(); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, info.Name+".csv")
	f, err := os.CreateTemp(dir, "."+info.Name+".csv.*")
	if err != nil {
		return nil, err
	}
	w := NewWriter(f, info)
	w.file, w.path, w.tmp = f, path, f.Name()
	return w, nil
}

// NewWriter writes the CSV of info's sweep to w (no sidecar: see
// WriteGraphInfo). info must pass Check.
func NewWriter(w io.Writer, info GraphInfo) *Writer {
	b := bufio.NewWriter(w)
	cw := &Writer{info: info, buf: b, csv: csv.NewWriter(b), record: make([]string, len(Header()))}
	cw.err = cw.csv.Write(Header())
	return cw
}

// Write adds a row. Empty Graph and Family take the sidecar's; other
// values must equal them. The row is checked as the reader checks it.
func (w *Writer) Write(r Row) error {
	if w.err != nil {
		return w.err
	}
	if r.Graph == "" {
		r.Graph = w.info.Name
	}
	if r.Family == "" {
		r.Family = w.info.Family
	}
	if r.Graph != w.info.Name || r.Family != w.info.Family {
		return fmt.Errorf("row of graph %s (%s) in the sweep of %s (%s)", r.Graph, r.Family, w.info.Name, w.info.Family)
	}
	if err := checkRow(&r); err != nil {
		return err
	}
	if r.Features[Vertices] != float64(w.info.Vertices) || r.Features[Arcs] != float64(w.info.Arcs) {
		return fmt.Errorf("row with %v vertices and %v arcs in the sweep of a graph of %d and %d", r.Features[Vertices], r.Features[Arcs], w.info.Vertices, w.info.Arcs)
	}
	rec := w.record
	rec[0], rec[1], rec[2] = r.Graph, r.Family, strconv.FormatInt(r.Root, 10)
	for i, x := range r.Features {
		rec[keyColumns+i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	k := keyColumns + NumFeatures
	rec[k] = r.Candidate
	rec[k+1] = ""
	if !math.IsNaN(r.TimeUS) {
		rec[k+1] = strconv.FormatFloat(r.TimeUS, 'g', -1, 64)
	}
	rec[k+2] = strconv.FormatBool(r.Valid)
	w.err = w.csv.Write(rec)
	return w.err
}

// checkRow checks what a row's values must be, wherever they come from.
func checkRow(r *Row) error {
	if err := CheckName("graph", r.Graph); err != nil {
		return err
	}
	if err := CheckName("family", r.Family); err != nil {
		return err
	}
	if r.Root < 0 {
		return fmt.Errorf("root %d", r.Root)
	}
	for i, x := range r.Features {
		if err := checkFeature(Feature(i), x); err != nil {
			return err
		}
	}
	if err := CheckCandidate(r.Candidate); err != nil {
		return err
	}
	return checkTime(r.TimeUS, r.Valid)
}

func checkFeature(f Feature, x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || x < 0:
		return fmt.Errorf("%s = %v: features are finite and non-negative", f, x)
	case integral[f] && (x != math.Trunc(x) || x > 1<<53):
		return fmt.Errorf("%s = %v: a count, must be an integer", f, x)
	}
	return nil
}

func checkTime(t float64, valid bool) error {
	switch {
	case valid && !(t > 0 && !math.IsInf(t, 1)):
		return fmt.Errorf("time_us = %v on a valid row: must be a positive number of microseconds", t)
	case !valid && (math.IsInf(t, 0) || t < 0):
		return fmt.Errorf("time_us = %v: must be empty, or a finite non-negative number", t)
	}
	return nil
}

// Close flushes the CSV; for Create, writes the sidecar and moves both
// into place. After an error nothing is left behind.
func (w *Writer) Close() error {
	w.csv.Flush()
	err := errors.Join(w.err, w.csv.Error(), w.buf.Flush())
	if w.file == nil {
		return err
	}
	err = errors.Join(err, w.file.Close())
	if err == nil {
		err = WriteGraphInfo(SidecarPath(w.path), w.info)
	}
	if err == nil {
		err = os.Rename(w.tmp, w.path)
	}
	if err != nil {
		os.Remove(w.tmp)
	}
	return err
}

// Abort discards a sweep begun with Create.
func (w *Writer) Abort() {
	if w.file != nil {
		w.file.Close()
		os.Remove(w.tmp)
	}
}

// WriteGraphInfo writes a sidecar (indented JSON).
func WriteGraphInfo(path string, info GraphInfo) error {
	if err := info.Check(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadGraphInfo reads and checks a sidecar; unknown fields are errors.
func ReadGraphInfo(path string) (GraphInfo, error) {
	var g GraphInfo
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return g, fmt.Errorf("%s: the sweep's sidecar is missing: every <graph>.csv needs its <graph>.json (see 'go doc adaptive')", path)
		}
		return g, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return g, fmt.Errorf("%s: %w", path, err)
	}
	if err := g.Check(); err != nil {
		return g, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// ParseError is an error in a sweep CSV, at a line (1-based, the header is
// line 1) and a column (1-based field number, 0 for the whole line).
type ParseError struct {
	File         string
	Line, Column int
	Err          error
}

func (e *ParseError) Error() string {
	if e.Column == 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	name := "?"
	if h := Header(); e.Column <= len(h) {
		name = h[e.Column-1]
	}
	return fmt.Sprintf("%s:%d: column %d (%s): %v", e.File, e.Line, e.Column, name, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// ReadRows reads a sweep CSV strictly: the exact header, then rows that
// each pass the checks Writer makes, all of one graph and family, no
// (root, level, candidate) twice, the same features on every row of a
// (root, level), and every root's levels 0, 1, ... without a gap. name is
// the file's name in messages.
func ReadRows(r io.Reader, name string) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	header := Header()
	cr.FieldsPerRecord = -1 // counted here, to say which line and what
	fail := func(line, col int, format string, a ...any) error {
		return &ParseError{File: name, Line: line, Column: col, Err: fmt.Errorf(format, a...)}
	}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, fail(1, 0, "empty file: want the header %s", strings.Join(header, ","))
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	for i := range max(len(rec), len(header)) {
		switch {
		case i >= len(rec):
			return nil, fail(1, 0, "the header ends after %d columns; want %d: %s", len(rec), len(header), strings.Join(header, ","))
		case i >= len(header):
			return nil, fail(1, i+1, "header has %d columns, want %d (an unknown column %q: written for another feature set?)", len(rec), len(header), rec[i])
		case rec[i] != header[i]:
			return nil, fail(1, i+1, "header column %q, want %q (written for another feature set? this build reads %s)", rec[i], header[i], strings.Join(header, ","))
		}
	}
	type levelKey struct {
		root  int64
		level int
	}
	type seen struct {
		line     int
		features Features
		cands    map[string]int // candidate -> line
	}
	levels := map[levelKey]*seen{}
	maxLevel := map[int64]int{}
	var rows []Row
	for {
		rec, err = cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fail(line, 0, "%d fields, want %d", len(rec), len(header))
		}
		at := func(col int, err error) error {
			l, _ := cr.FieldPos(col)
			return &ParseError{File: name, Line: l, Column: col + 1, Err: err}
		}
		var row Row
		row.Graph, row.Family = rec[0], rec[1]
		if err := CheckName("graph", row.Graph); err != nil {
			return nil, at(0, err)
		}
		if err := CheckName("family", row.Family); err != nil {
			return nil, at(1, err)
		}
		if len(rows) > 0 && row.Graph != rows[0].Graph {
			return nil, at(0, fmt.Errorf("graph %q after %q: a sweep file holds one graph", row.Graph, rows[0].Graph))
		}
		if len(rows) > 0 && row.Family != rows[0].Family {
			return nil, at(1, fmt.Errorf("family %q after %q: a graph has one family", row.Family, rows[0].Family))
		}
		if row.Root, err = strconv.ParseInt(rec[2], 10, 64); err != nil || row.Root < 0 {
			return nil, at(2, fmt.Errorf("root %q: want a vertex id, an integer >= 0", rec[2]))
		}
		for i := range NumFeatures {
			s := rec[keyColumns+i]
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, at(keyColumns+i, fmt.Errorf("%q is not a number", s))
			}
			if err := checkFeature(Feature(i), x); err != nil {
				return nil, at(keyColumns+i, err)
			}
			row.Features[i] = x
		}
		k := keyColumns + NumFeatures
		row.Candidate = rec[k]
		if err := CheckCandidate(row.Candidate); err != nil {
			return nil, at(k, err)
		}
		switch rec[k+2] {
		case "true":
			row.Valid = true
		case "false":
		default:
			return nil, at(k+2, fmt.Errorf("%q: want true or false", rec[k+2]))
		}
		row.TimeUS = math.NaN()
		if s := rec[k+1]; s != "" {
			if row.TimeUS, err = strconv.ParseFloat(s, 64); err != nil {
				return nil, at(k+1, fmt.Errorf("%q is not a number", s))
			}
		}
		if err := checkTime(row.TimeUS, row.Valid); err != nil {
			return nil, at(k+1, err)
		}
		key := levelKey{row.Root, int(row.Features[Level])}
		s := levels[key]
		if s == nil {
			s = &seen{line: line, features: row.Features, cands: map[string]int{}}
			levels[key] = s
			maxLevel[key.root] = max(maxLevel[key.root], key.level)
		} else {
			for i := range NumFeatures {
				if row.Features[i] != s.features[i] {
					return nil, at(keyColumns+i, fmt.Errorf("%v, but line %d has %v for the same root %d and level %d: the features of a level are the same for every candidate", row.Features[i], s.line, s.features[i], key.root, key.level))
				}
			}
		}
		if first, dup := s.cands[row.Candidate]; dup {
			return nil, at(k, fmt.Errorf("candidate %s at root %d level %d again (first on line %d)", row.Candidate, key.root, key.level, first))
		}
		s.cands[row.Candidate] = line
		rows = append(rows, row)
	}
	roots := slices.Sorted(maps.Keys(maxLevel)) // the first gap in root order
	for _, root := range roots {
		top := maxLevel[root]
		for l := range top {
			if levels[levelKey{root, l}] == nil {
				return nil, &ParseError{File: name, Line: levels[levelKey{root, top}].line, Err: fmt.Errorf("root %d has level %d but no level %d: a sweep records every level of a search", root, top, l)}
			}
		}
	}
	return rows, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Line: pe.Line, Err: fmt.Errorf("byte %d: %w", pe.Column, pe.Err)}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// Sweep is one graph's sweep as read from disk.
type Sweep struct {
	Path string
	Info GraphInfo
	Rows []Row
}

// ReadSweep reads a sweep CSV (gzip-compressed when its name ends in .gz)
// and its sidecar, and checks that they agree: every row of the sidecar's
// graph, family, vertex and arc counts.
func ReadSweep(path string) (*Sweep, error) {
	info, err := ReadGraphInfo(SidecarPath(path))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReader(f)
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		r = z
	}
	rows, err := ReadRows(r, path)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows after the header", path)
	}
	r0 := rows[0]
	switch {
	case r0.Graph != info.Name || r0.Family != info.Family:
		return nil, fmt.Errorf("%s: rows of graph %s (%s), but its sidecar describes %s (%s)", path, r0.Graph, r0.Family, info.Name, info.Family)
	case r0.Features[Vertices] != float64(info.Vertices) || r0.Features[Arcs] != float64(info.Arcs):
		return nil, fmt.Errorf("%s: rows of a graph of %v vertices and %v arcs, but its sidecar says %d and %d", path, r0.Features[Vertices], r0.Features[Arcs], info.Vertices, info.Arcs)
	}
	for i := range rows {
		f := &rows[i].Features
		for _, c := range []Feature{Vertices, Arcs, AvgDegree, MaxDegree, DegreeCV} {
			if f[c] != r0.Features[c] {
				return nil, fmt.Errorf("%s: %s differs between rows (%v and %v): the graph's features are the same at every level", path, c, r0.Features[c], f[c])
			}
		}
	}
	return &Sweep{Path: path, Info: info, Rows: rows}, nil
}

// SweepFiles expands the arguments of 'spac traverse train': a directory
// stands for its *.csv and *.csv.gz files (not its subdirectories), in
// name order; a file stands for itself. A sidecar named beside its CSV
// (as data/traverse/* names both) is skipped; alone, it is an error.
func SweepFiles(args ...string) ([]string, error) {
	var files []string
	named := map[string]bool{}
	for _, a := range args {
		named[filepath.Clean(a)] = true
	}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if base, ok := strings.CutSuffix(filepath.Clean(a), ".json"); ok {
				if named[base+".csv"] || named[base+".csv.gz"] {
					continue
				}
				return nil, fmt.Errorf("%s: a sidecar, not a sweep: name its .csv (the sidecar is read with it) or the directory", a)
			}
			files = append(files, a)
			continue
		}
		var found []string
		for _, pat := range []string{"*.csv", "*.csv.gz"} {
			m, err := filepath.Glob(filepath.Join(a, pat))
			if err != nil {
				return nil, err
			}
			found = append(found, m...)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no sweep files (*.csv, *.csv.gz) in this directory", a)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}
