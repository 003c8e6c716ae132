package matrices

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/spac-gpu/spac/internal/par"
)

// HeaderMode says whether an edge list starts with a header line "n m"
// (vertex and edge counts) rather than an edge.
type HeaderMode uint8

const (
	// HeaderAuto takes a first line of exactly two integers "a b" as a
	// header when the rest of the file agrees: its edge lines carry
	// weights (so a two-column line cannot be an edge), or there are b (or
	// 2b, both directions listed) of them and every id fits in a vertices.
	// A file of a single two-column line is read as one edge.
	HeaderAuto HeaderMode = iota
	HeaderYes             // the first data line is "n m"
	HeaderNo              // every data line is an edge
)

func (h HeaderMode) String() string {
	switch h {
	case HeaderAuto:
		return "auto"
	case HeaderYes:
		return "yes"
	case HeaderNo:
		return "no"
	}
	return fmt.Sprintf("HeaderMode(%d)", uint8(h))
}

// ParseHeaderMode reads a header mode as the command line spells it.
func ParseHeaderMode(s string) (HeaderMode, error) {
	switch s {
	case "", "auto":
		return HeaderAuto, nil
	case "yes", "true":
		return HeaderYes, nil
	case "no", "false":
		return HeaderNo, nil
	}
	return 0, fmt.Errorf("unknown edge list header mode %q (want auto, yes or no)", s)
}

// IDBase says whether vertex ids in an edge list start at 0 or at 1.
type IDBase uint8

const (
	// BaseAuto takes the ids as 0-based when the smallest id is 0 and as
	// 1-based otherwise.
	BaseAuto  IDBase = iota
	ZeroBased        // ids are 0 .. n-1
	OneBased         // ids are 1 .. n; an id 0 is an error
)

func (b IDBase) String() string {
	switch b {
	case BaseAuto:
		return "auto"
	case ZeroBased:
		return "0"
	case OneBased:
		return "1"
	}
	return fmt.Sprintf("IDBase(%d)", uint8(b))
}

// ParseIDBase reads an id base as the command line spells it: auto, 0 or 1.
func ParseIDBase(s string) (IDBase, error) {
	switch s {
	case "", "auto":
		return BaseAuto, nil
	case "0":
		return ZeroBased, nil
	case "1":
		return OneBased, nil
	}
	return 0, fmt.Errorf("unknown edge list id base %q (want auto, 0 or 1)", s)
}

// EdgeListOptions says how to read an edge list. The zero value reads an
// undirected graph and detects the header and the id base.
type EdgeListOptions struct {
	// Directed keeps every edge as given (row = source, column = target).
	// The default, undirected, fits most SNAP graphs (collaboration,
	// social, road networks); wiki-Vote and web graphs are directed.
	Directed bool
	Header   HeaderMode
	Base     IDBase
}

// ReadEdgeList reads a graph given as one edge per line, "source target" or
// "source target weight", SNAP style: ids are non-negative integers
// separated by spaces, tabs or commas; lines starting with # or % are
// comments; blank lines and CRLF line ends are fine. See HeaderMode and
// IDBase for the optional "n m" first line and the id base.
//
// The result is the n x n adjacency matrix, n being the header's n or else
// the largest id + 1 (after the base shift; ids that never occur become
// isolated vertices). A weight becomes Val (Field Real); without weights the
// matrix is a pattern. An undirected graph becomes a Symmetric matrix
// storing each edge once, in the lower triangle (row >= column); a directed
// one a General matrix. In both cases a repeated pair is kept once (the
// first occurrence, with its weight), so an undirected file listing both
// (u,v) and (v,u) gives one entry. Self-loops are kept, on the diagonal.
// Entries keep the order of the file; Duplicates counts the pairs dropped.
// More vertices than 64 per edge + 2^20 are refused (see
// ReadOptions.MaxDimension, which Read takes).
func ReadEdgeList(r io.Reader, name string, opt EdgeListOptions) (*COO, error) {
	size := sizeHint(r)
	return readEdgeList(newLineReader(r, name, size), size, opt, 0)
}

// edgeFields splits an edge line at white space and commas into at most 4
// tokens (4 means "too many").
func edgeFields(line []byte, out *[4][]byte) int {
	n := 0
	i := 0
	for n < 4 {
		for i < len(line) && (isSpace(line[i]) || line[i] == ',') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace(line[j]) && line[j] != ',' {
			j++
		}
		out[n] = line[i:j]
		n++
		i = j
	}
	return n
}

// idStats tracks the extreme ids and where they occur, for the base choice
// and for error messages that name a line.
type idStats struct {
	min, max         int64
	minLine, maxLine int
}

func (s *idStats) add(id int64, line int) {
	if s.minLine == 0 || id < s.min {
		s.min, s.minLine = id, line
	}
	if s.maxLine == 0 || id > s.max {
		s.max, s.maxLine = id, line
	}
}

func (s *idStats) merge(o idStats) {
	if o.minLine != 0 {
		s.add(o.min, o.minLine)
	}
	if o.maxLine != 0 {
		s.add(o.max, o.maxLine)
	}
}

func readEdgeList(lr *lineReader, size int64, opt EdgeListOptions, maxDim int) (*COO, error) {
	n0 := 1024
	if size > 0 {
		n0 = int(min(size/8+1, 1<<26))
	}
	u := make([]int32, 0, n0)
	v := make([]int32, 0, n0)
	var w []float64
	var (
		firstLine int      // line of the first data line; 0 before it
		firstCols int      // its column count
		first     [2]int64 // its ids, which may be a header "n m" instead
		pending   bool     // whether it may still be a header
		cols      int      // column count every later line must have
		colsLine  int      // the line that set cols
		ids       idStats  // over the lines after the first
		firstIDs  idStats
	)
	var f [4][]byte
	// edge takes one line of lr (a blank or comment line included).
	edge := func(lr *lineReader, line []byte) error {
		if isBlankOrComment(line, "#%") {
			return nil
		}
		nf := edgeFields(line, &f)
		if nf < 2 || nf > 3 {
			what := "one column"
			if nf > 3 {
				what = "more than 3 columns"
			}
			return lr.errorf("expected an edge \"source target\" or \"source target weight\", got %s: %s", what, quote(line))
		}
		var id [2]int64
		for k := range 2 {
			x, ok := parseUint(f[k])
			if !ok {
				return lr.errorf("expected a vertex id (a non-negative integer), got %s", quote(f[k]))
			}
			id[k] = x
		}
		st := &ids // the stats the line's ids go to; nil to leave them out
		if firstLine == 0 {
			firstLine, firstCols, first = lr.line, nf, id
			pending = nf == 2 && opt.Header != HeaderNo
			if !pending {
				if opt.Header == HeaderYes {
					return lr.errorf("expected a header line \"n m\", got %d columns", nf)
				}
				cols, colsLine = nf, lr.line
			}
			st = &firstIDs
			if pending && (id[0] > math.MaxInt32 || id[1] > math.MaxInt32) {
				id = [2]int64{} // a placeholder: it cannot be an edge
				st = nil
			}
		} else {
			if cols == 0 {
				cols, colsLine = nf, lr.line
				if nf == 3 && w == nil {
					// The pending first line has no weight: it is a header
					// (or, with HeaderNo, would have set cols already).
					w = make([]float64, 1, cap(u))
				}
			}
			if nf != cols {
				return lr.errorf("expected %d columns like line %d, got %d", cols, colsLine, nf)
			}
		}
		if st != nil {
			for k := range 2 {
				if id[k] > math.MaxInt32 {
					return lr.errorf("expected a vertex id up to %d, got %s", math.MaxInt32, quote(f[k]))
				}
				st.add(id[k], lr.line)
			}
		}
		u = push(u, int32(id[0]))
		v = push(v, int32(id[1]))
		if nf == 3 {
			x, err := edgeWeight(lr, f[2])
			if err != nil {
				return err
			}
			w = push(w, x)
		}
		return nil
	}
	for cols == 0 { // the first data lines settle the columns
		line, ok := lr.next()
		if !ok {
			break
		}
		if err := edge(lr, line); err != nil {
			return nil, err
		}
	}
	if cols != 0 {
		// The rest, in parallel where the input is large (appended to u,
		// v, w and ids in order).
		var err error
		if size < 0 || size >= parallelMinBytes {
			err = readEdgesParallel(lr, cols, &u, &v, &w, &ids, edge)
		} else {
			err = readEdges(lr, edge)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := lr.failure(); err != nil {
		return nil, err
	}
	if firstLine == 0 {
		return nil, lr.eofError("expected at least one edge \"source target [weight]\", got none")
	}

	rest := int64(len(u) - 1)
	header := false
	if pending {
		switch opt.Header {
		case HeaderYes:
			header = true
		case HeaderAuto:
			header = looksLikeHeader(first, rest, cols, ids, opt.Base)
		}
	}
	n := int64(-1)
	if header {
		if first[0] > math.MaxInt32 {
			return nil, lr.errorAt(firstLine, "expected the vertex count of the header \"n m\" to be at most %d, got %d", math.MaxInt32, first[0])
		}
		n = first[0]
		u, v = u[1:], v[1:]
		if w != nil {
			w = w[1:]
		}
	} else {
		if pending {
			// The first line is an edge after all.
			if first[0] > math.MaxInt32 || first[1] > math.MaxInt32 {
				return nil, lr.errorAt(firstLine, "expected a vertex id up to %d, got \"%d\"", math.MaxInt32, max(first[0], first[1]))
			}
			if cols != 0 && cols != firstCols {
				return nil, lr.errorAt(colsLine, "expected %d columns like line %d, got %d", firstCols, firstLine, cols)
			}
		}
		ids.merge(firstIDs)
	}

	base := int64(0)
	switch opt.Base {
	case OneBased:
		base = 1
		if ids.maxLine != 0 && ids.min < 1 {
			return nil, lr.errorAt(ids.minLine, "expected vertex ids from 1 (the edge list is 1-based), got %d", ids.min)
		}
	case BaseAuto:
		if ids.maxLine != 0 && ids.min > 0 {
			base = 1
		}
	}
	if n < 0 {
		n = ids.max + 1 - base
		if n > math.MaxInt32 {
			return nil, lr.errorAt(ids.maxLine, "expected vertex ids below %d, got %d", math.MaxInt32+base, ids.max)
		}
	} else if ids.maxLine != 0 && ids.max-base >= n {
		return nil, lr.errorAt(ids.maxLine, "expected %d-based vertex ids below %d (n = %d from the header on line %d), got %d", base, n+base, n, firstLine, ids.max)
	}
	if header {
		err := lr.checkDimension(firstLine, "vertices (the header's n)", n, int64(len(u)), "edge", "edges", maxDim)
		if err != nil {
			return nil, err
		}
	} else if err := lr.checkDimension(ids.maxLine, fmt.Sprintf("vertices (the largest id, %d, + 1)", ids.max-base), n, int64(len(u)), "edge", "edges", maxDim); err != nil {
		return nil, err
	}

	m := &COO{Name: lr.name, NRows: int(n), NCols: int(n), Row: u, Col: v, Val: w, Field: Pattern}
	if w != nil {
		m.Field = Real
	}
	b := int32(base)
	for e := range u {
		r, c := u[e]-b, v[e]-b
		if !opt.Directed && r < c {
			r, c = c, r
		}
		u[e], v[e] = r, c
	}
	if !opt.Directed {
		m.Symmetry = Symmetric
	}
	if err := dedupe(m); err != nil {
		return nil, err
	}
	return m, nil
}

// readEdges reads the rest of lr one line at a time with edge.
func readEdges(lr *lineReader, edge func(*lineReader, []byte) error) error {
	for {
		line, ok := lr.next()
		if !ok {
			return lr.failure()
		}
		if err := edge(lr, line); err != nil {
			return err
		}
	}
}

// edgeLines are a chunk's edges and the extremes of their ids.
type edgeLines struct {
	u, v []int32
	w    []float64
	ids  idStats
}

// readEdgesParallel reads the rest of lr, edge lines of cols columns, on
// several cores (see parallelLines), appending to u, v, w and ids what
// edge, which reads one line, would append, or failing as it would.
func readEdgesParallel(lr *lineReader, cols int, u, v *[]int32, w *[]float64, ids *idStats, edge func(*lineReader, []byte) error) error {
	workers := par.Workers(parallelMaxWorkers)
	if workers < 2 {
		return readEdges(lr, edge)
	}
	return parallelLines(lr, workers, func(data []byte, line int, res *edgeLines) bool {
		n := bytes.Count(data, []byte{'\n'}) + 1 // at most this many edges: no append grows
		if cap(res.u) < n {
			res.u, res.v = make([]int32, 0, n), make([]int32, 0, n)
		}
		res.u, res.v, res.ids = res.u[:0], res.v[:0], idStats{}
		if cols == 3 {
			if res.w = res.w[:0]; cap(res.w) < n {
				res.w = make([]float64, 0, n)
			}
		}
		var f [4][]byte
		return eachLine(data, func(l []byte, k int) bool {
			if isBlankOrComment(l, "#%") {
				return true
			}
			if edgeFields(l, &f) != cols {
				return false
			}
			var id [2]int64
			for j := range 2 {
				x, ok := parseUint(f[j])
				if !ok || x > math.MaxInt32 {
					return false
				}
				id[j] = x
			}
			if cols == 3 {
				x, ok := parseFloat(f[2])
				if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
					return false
				}
				res.w = append(res.w, x)
			}
			res.ids.add(id[0], line+k)
			res.ids.add(id[1], line+k)
			res.u = append(res.u, int32(id[0]))
			res.v = append(res.v, int32(id[1]))
			return true
		})
	}, func(data []byte, line int, res *edgeLines, fast bool) error {
		if !fast {
			return readEdges(lr.subReader(data, line), edge)
		}
		*u = append(*u, res.u...)
		*v = append(*v, res.v...)
		if cols == 3 {
			*w = append(*w, res.w...)
		}
		ids.merge(res.ids)
		return nil
	})
}

func edgeWeight(lr *lineReader, tok []byte) (float64, error) {
	x, ok := parseFloat(tok)
	if !ok {
		return 0, lr.errorf("expected a weight (a real number) in the third column, got %s", quote(tok))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, lr.errorf("expected a finite weight, got %s", quote(tok))
	}
	return x, nil
}

// looksLikeHeader decides whether a first line "a b" is a header: see
// HeaderAuto. rest is the number of edge lines after it, cols their column
// count and ids their id range.
func looksLikeHeader(first [2]int64, rest int64, cols int, ids idStats, base IDBase) bool {
	return LooksLikeEdgeListHeader(first, rest, int64(cols), ids.min, ids.max, base)
}

// LooksLikeEdgeListHeader is HeaderAuto's rule for a first line "a b": a
// header when the other lines (rest of them, with cols columns and ids
// from minID to maxID) are b or 2b edges whose ids fit a vertex count of a,
// or carry weights (3 columns).
func LooksLikeEdgeListHeader(first [2]int64, rest, cols, minID, maxID int64, base IDBase) bool {
	a, b := first[0], first[1]
	switch {
	case rest == 0:
		return false
	case cols == 3:
		return true
	case rest != b && rest != 2*b:
		return false
	}
	zero := base == ZeroBased || (base == BaseAuto && minID == 0)
	if zero {
		return maxID < a
	}
	return maxID <= a
}

// dedupe removes repeated (row, column) pairs from m in place, keeping the
// first occurrence of each and the order of the rest, and counts them in
// m.Duplicates.
func dedupe(m *COO) error {
	nnz := len(m.Row)
	if nnz > math.MaxInt32 {
		return fmt.Errorf("%s: %d entries exceed the int32 range", m.Name, nnz)
	}
	dup, count := duplicates(m)
	m.Duplicates = count
	if dup == nil {
		return nil
	}
	k := 0
	for e := range nnz {
		if dup[e/64]&(1<<(e%64)) != 0 {
			continue
		}
		m.Row[k], m.Col[k] = m.Row[e], m.Col[e]
		if m.Val != nil {
			m.Val[k] = m.Val[e]
		}
		if m.Imag != nil {
			m.Imag[k] = m.Imag[e]
		}
		k++
	}
	m.Row, m.Col = m.Row[:k], m.Col[:k]
	if m.Val != nil {
		m.Val = m.Val[:k]
	}
	if m.Imag != nil {
		m.Imag = m.Imag[:k]
	}
	return nil
}

// duplicates returns a bit set of the entries of m that repeat an earlier
// one and their number, or nil and 0 if none does. Entries sorted by row
// or by column (most Matrix Market files) are recognized in one pass
// without allocating; otherwise the bucketing of dupByRows runs when the
// dimensions are within a few times the entries, and the sort of dupBySort
// when they are not, so that memory stays O(entries) either way.
func duplicates(m *COO) ([]uint64, int) {
	nnz := len(m.Row)
	if nnz < 2 || sortedStrictly(m.Row, m.Col) || sortedStrictly(m.Col, m.Row) {
		return nil, 0
	}
	var dup []uint64
	if int64(m.NRows)+int64(m.NCols) <= 4*int64(nnz)+4096 {
		dup = dupByRows(m)
	} else {
		dup = dupBySort(m)
	}
	count := 0
	for _, w := range dup {
		count += bits.OnesCount64(w)
	}
	return dup, count
}

// sortedStrictly reports whether the pairs (a[e], b[e]) increase strictly.
func sortedStrictly(a, b []int32) bool {
	for e := 1; e < len(a); e++ {
		if a[e] < a[e-1] || (a[e] == a[e-1] && b[e] <= b[e-1]) {
			return false
		}
	}
	return true
}

// dupByRows returns a bit set of the entries that repeat an earlier one,
// or nil if none does. It buckets the entries by row (a counting sort,
// stable) and marks the columns seen in each row: linear time, no sort, no
// hash map, but arrays of NRows and NCols. On several cores: each worker
// counts and places a share of the entries (the shares in input order, so
// the buckets keep it), then marks a range of rows with a bit set of its
// own, cleared row by row.
func dupByRows(m *COO) []uint64 {
	nnz := len(m.Row)
	// A worker's counts take NRows entries: at most about twice the
	// entries in all.
	w := par.Workers(min(parallelMaxWorkers, max(1, 2*nnz/max(1, m.NRows))))
	if int64(nnz) < parallelMinEntries/16 {
		w = 1
	}
	share := (nnz + w - 1) / w
	cnt := make([][]int32, w) // cnt[i][r]: share i's entries in row r, then where its next one goes
	par.Do(w, func(i int) {
		c := make([]int32, m.NRows)
		for _, r := range m.Row[i*share : min(nnz, (i+1)*share)] {
			c[r]++
		}
		cnt[i] = c
	})
	start := make([]int32, m.NRows+1)
	pos := int32(0)
	for r := range m.NRows {
		start[r] = pos
		for _, c := range cnt {
			n := c[r]
			c[r] = pos
			pos += n
		}
	}
	start[m.NRows] = pos
	order := make([]int32, nnz)
	par.Do(w, func(i int) {
		c := cnt[i]
		for e := i * share; e < min(nnz, (i+1)*share); e++ {
			r := m.Row[e]
			order[c[r]] = int32(e)
			c[r]++
		}
	})
	cnt = nil
	dup := make([]uint64, (nnz+63)/64)
	var found atomic.Bool
	par.Do(w, func(i int) {
		// The rows whose entries begin in the i-th w-th of the buckets.
		lo, _ := slices.BinarySearch(start[:m.NRows], int32(i*share))
		hi, _ := slices.BinarySearch(start[:m.NRows], int32(min(nnz, (i+1)*share)))
		if i == w-1 {
			hi = m.NRows
		}
		seen := make([]uint64, (m.NCols+63)/64)
		for r := lo; r < hi; r++ {
			es := order[start[r]:start[r+1]]
			for _, e := range es {
				c := m.Col[e]
				if seen[c>>6]&(1<<(c&63)) != 0 {
					atomic.OrUint64(&dup[e>>6], 1<<(e&63)) // rows of other workers share the word
					found.Store(true)
				} else {
					seen[c>>6] |= 1 << (c & 63)
				}
			}
			for _, e := range es {
				c := m.Col[e]
				seen[c>>6] &^= 1 << (c & 63)
			}
		}
	})
	if !found.Load() {
		return nil
	}
	return dup
}

// dupBySort does what dupByRows does in O(nnz) memory, sorting the entries
// by (row, column, position).
func dupBySort(m *COO) []uint64 {
	nnz := len(m.Row)
	order := make([]int32, nnz)
	for e := range order {
		order[e] = int32(e)
	}
	key := func(e int32) uint64 { return uint64(m.Row[e])<<32 | uint64(m.Col[e]) }
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	dup := make([]uint64, (nnz+63)/64)
	found := false
	for i := 1; i < nnz; i++ {
		if e := order[i]; key(e) == key(order[i-1]) {
			dup[e/64] |= 1 << (e % 64)
			found = true
		}
	}
	if !found {
		return nil
	}
	return dup
}
