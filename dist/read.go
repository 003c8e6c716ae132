package dist

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spac-gpu/spac/internal/rng"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
)

// ReadConfig says how to read an input, as pipeline.ReadConfig does for
// one process.
type ReadConfig struct {
	// Format is the file format; FormatAuto looks for a Matrix Market
	// banner, then at the extension (.mtx/.mm, .graph/.metis, edge lists'
	// .txt/.edgelist/.el/.edges/.tsv/.csv), through a .gz suffix.
	Format   matrices.Format
	EdgeList matrices.EdgeListOptions
	// AsStored keeps the stored triangle of a symmetric matrix alone.
	AsStored bool
	// Model is the locality model; nil: graph for edge lists and METIS
	// graphs, spmv for matrices.
	Model *matrices.Model
}

// Shard is one rank's share of an input: the entries that the lines in its
// byte range hold, after the symmetric storage is expanded (unless
// AsStored), in the order a single-machine read gives them. Entry e of the
// whole input is Row[e-First], Col[e-First] on the rank whose range holds
// it.
type Shard struct {
	Name         string
	Format       matrices.Format
	Field        matrices.Field
	Symmetry     matrices.Symmetry // as stored in the file
	NRows, NCols int
	Model        matrices.Model
	AsStored     bool
	Stored       int64 // entries stored in the file, over all ranks (edge lists: after merging repeated pairs)
	Total        int64 // entries used (expanded), over all ranks
	First        int64 // index of Row[0] among the entries used
	Row, Col     []int32
	Duplicates   int64 // edge lists: repeated pairs merged; Matrix Market: not counted
}

// Read reads this rank's share of the file at path. Collective over c:
// every rank opens the file (it must be reachable from every process under
// the same path), parses the header and the lines starting in its own
// byte range of the (decompressed) content, and the ranks agree on what
// the content as a whole says: entry counts, an edge list's header line
// and id base, repeated pairs. Any rank's error is every rank's
// (mpi.Agree), naming the file and the line.
//
// Matrix Market (coordinate; array format is refused), edge lists and
// METIS graphs are read with the single-machine readers' rules (see
// package matrices) and give the same entries in the same order. A gzip
// file is decompressed by every rank up to the end of its range, after
// rank 0 has decompressed it once to learn its length: fine for the small
// files of the tests, slow for large ones, which are better decompressed
// first.
func Read(c mpi.Comm, path string, cfg ReadConfig) (*Shard, error) {
	src, err := openSource(c, path)
	if err != nil {
		return nil, err
	}
	format := cfg.Format
	var hdr header
	err = func() error {
		if format == matrices.FormatAuto {
			if format, err = src.detect(); err != nil {
				return err
			}
		}
		hdr, err = src.header(format)
		return err
	}()
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	lo := hdr.dataStart + (src.size-hdr.dataStart)*int64(c.Rank())/int64(c.Size())
	hi := hdr.dataStart + (src.size-hdr.dataStart)*int64(c.Rank()+1)/int64(c.Size())
	sh := &Shard{Name: path, Format: format, AsStored: cfg.AsStored}
	switch format {
	case matrices.FormatMatrixMarket:
		err = readMatrixMarket(c, src, hdr, lo, hi, sh)
	case matrices.FormatEdgeList:
		err = readEdgeList(c, src, lo, hi, cfg.EdgeList, sh)
	case matrices.FormatMETIS:
		err = readMETIS(c, src, hdr, lo, hi, sh)
	default:
		err = mpi.Agree(c, fmt.Errorf("reading %s: unknown format %v", path, format))
	}
	if err != nil {
		return nil, err
	}
	sh.Model = matrices.ModelSpMV
	switch {
	case cfg.Model != nil:
		sh.Model = *cfg.Model
	case format == matrices.FormatEdgeList || format == matrices.FormatMETIS:
		sh.Model = matrices.ModelGraph
	}
	if sh.Model == matrices.ModelGraph && sh.NRows != sh.NCols {
		return nil, fmt.Errorf("%s: model graph needs a square matrix, this one is %d x %d (use --model spmv)", path, sh.NRows, sh.NCols)
	}
	sh.expand()
	before, total, err := mpi.Exscan(c, int64(len(sh.Row)))
	if err != nil {
		return nil, err
	}
	sh.First, sh.Total = before, total
	if total == 0 {
		return nil, fmt.Errorf("%s: the matrix has no entries: nothing to partition", path)
	}
	return sh, nil
}

// expand adds the mirror of every off-diagonal entry of a symmetric,
// skew-symmetric or hermitian matrix right after it, as
// matrices.COO.Expanded does.
func (sh *Shard) expand() {
	if sh.Symmetry == matrices.General || sh.AsStored {
		return
	}
	n := len(sh.Row)
	for e := range n {
		if sh.Row[e] != sh.Col[e] {
			n++
		}
	}
	row, col := make([]int32, 0, n), make([]int32, 0, n)
	for e, r := range sh.Row {
		c := sh.Col[e]
		row, col = append(row, r), append(col, c)
		if r != c {
			row, col = append(row, c), append(col, r)
		}
	}
	sh.Row, sh.Col = row, col
}

// header is what a file says before its data lines.
type header struct {
	dataStart   int64 // where the data lines start
	line        []byte
	field       matrices.Field
	symmetry    matrices.Symmetry
	nrows, ncol int64
	nnz         int64
	// METIS
	skip       int // values before the neighbours: vertex size and weights
	edgeWeight bool
}

const mmBanner = "%%MatrixMarket"

// detect finds the format: a Matrix Market banner, else the extension.
func (s *source) detect() (matrices.Format, error) {
	r, closer, err := s.open(0)
	if err != nil {
		return 0, err
	}
	defer closer()
	head := make([]byte, 3+len(mmBanner))
	n, _ := r.Read(head)
	head = bytes.TrimPrefix(head[:n], []byte("\xEF\xBB\xBF"))
	if len(head) >= len(mmBanner) && bytes.EqualFold(head[:len(mmBanner)], []byte(mmBanner)) {
		return matrices.FormatMatrixMarket, nil
	}
	name := strings.TrimSuffix(strings.ToLower(s.path), ".gz")
	switch filepath.Ext(name) {
	case ".mtx", ".mm":
		return matrices.FormatMatrixMarket, nil
	case ".graph", ".metis":
		return matrices.FormatMETIS, nil
	case ".txt", ".edgelist", ".el", ".edges", ".tsv", ".csv":
		return matrices.FormatEdgeList, nil
	}
	return 0, fmt.Errorf("reading %s: cannot tell the format from the banner or the file name: pass --input-format mm|edgelist|metis", s.path)
}

// header reads the lines before the data: a Matrix Market banner, comments
// and size line; a METIS header line; nothing for an edge list.
func (s *source) header(format matrices.Format) (header, error) {
	var h header
	if format == matrices.FormatEdgeList {
		return h, nil
	}
	lr, err := s.lines(0, s.size)
	if err != nil {
		return h, err
	}
	defer lr.close()
	first := true
	for {
		start := lr.pos
		line, ok := lr.next()
		if !ok {
			if lr.err != nil {
				return h, fmt.Errorf("reading %s: %w", s.path, lr.err)
			}
			return h, fmt.Errorf("%s: the file ends before its first data line", s.path)
		}
		if format == matrices.FormatMatrixMarket && first {
			first = false
			if err := h.banner(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))); err != nil {
				return h, s.errorAt(start, "%v", err)
			}
			continue
		}
		if blankOrComment(line, "%") {
			continue
		}
		h.dataStart, h.line = lr.pos, slices.Clone(line)
		if format == matrices.FormatMatrixMarket {
			err = h.sizeLine(line)
		} else {
			err = h.metisLine(line)
		}
		if err != nil {
			return h, s.errorAt(start, "%v", err)
		}
		return h, nil
	}
}

// banner reads the Matrix Market banner by the single-machine reader's
// rules; the distributed reader takes coordinate files only.
func (h *header) banner(line []byte) error {
	array, field, symmetry, err := matrices.ParseMatrixMarketBanner(line)
	if err != nil {
		return err
	}
	if array {
		return fmt.Errorf("a dense (array) Matrix Market file: the distributed reader takes coordinate files; partition it with the single-machine spac")
	}
	h.field, h.symmetry = field, symmetry
	return nil
}

func (h *header) sizeLine(line []byte) error {
	var tok [3][]byte
	if fields(line, tok[:], false) != 3 {
		return fmt.Errorf("expected the size line \"rows columns entries\", got %s", quote(line))
	}
	for i, dst := range []*int64{&h.nrows, &h.ncol, &h.nnz} {
		v, ok := parseID(tok[i])
		what := [...]string{"rows", "columns", "entries"}[i]
		if !ok || (i < 2 && v > math.MaxInt32) {
			return fmt.Errorf("expected the number of %s (an integer from 0 to %d) on the size line, got %s", what, math.MaxInt32, quote(tok[i]))
		}
		*dst = v
	}
	if h.symmetry != matrices.General && h.nrows != h.ncol {
		return fmt.Errorf("expected a square matrix for a %v matrix, got %d x %d", h.symmetry, h.nrows, h.ncol)
	}
	return nil
}

func (h *header) metisLine(line []byte) error {
	var tok [4][]byte
	n := fields(line, tok[:], false)
	if n < 2 || n > 4 {
		return fmt.Errorf("expected the METIS header \"n m [fmt [ncon]]\", got %s", quote(line))
	}
	nv, ok := parseID(tok[0])
	if !ok || nv > math.MaxInt32 {
		return fmt.Errorf("expected the number of vertices (an integer from 0 to %d) in the header, got %s", math.MaxInt32, quote(tok[0]))
	}
	ne, ok := parseID(tok[1])
	if !ok {
		return fmt.Errorf("expected the number of edges (a non-negative integer) in the header, got %s", quote(tok[1]))
	}
	h.nrows, h.ncol, h.nnz = nv, nv, ne
	var size, vw bool
	if n >= 3 {
		f := tok[2]
		if len(f) > 3 || len(bytes.Trim(f, "01")) != 0 {
			return fmt.Errorf("expected fmt (up to three binary digits: vertex sizes, vertex weights, edge weights) in the header, got %s", quote(f))
		}
		d := func(k int) bool { return len(f) > k && f[len(f)-1-k] == '1' }
		h.edgeWeight, vw, size = d(0), d(1), d(2)
	}
	ncon := 0
	if vw {
		ncon = 1
		if n == 4 {
			c, ok := parseID(tok[3])
			if !ok || c < 1 || c > 1<<20 {
				return fmt.Errorf("expected ncon (the number of vertex weights, at least 1) in the header, got %s", quote(tok[3]))
			}
			ncon = int(c)
		}
	}
	h.skip = ncon
	if size {
		h.skip++
	}
	return nil
}

// readMatrixMarket parses the entry lines of [lo, hi).
func readMatrixMarket(c mpi.Comm, src *source, h header, lo, hi int64, sh *Shard) error {
	sh.Field, sh.Symmetry, sh.NRows, sh.NCols = h.field, h.symmetry, int(h.nrows), int(h.ncol)
	want := map[matrices.Field]int{matrices.Pattern: 2, matrices.Real: 3, matrices.Integer: 3, matrices.Complex: 4}[h.field]
	err := func() error {
		lr, err := src.lines(lo, hi)
		if err != nil {
			return err
		}
		defer lr.close()
		// About 10 bytes an entry; grown as needed.
		sh.Row = make([]int32, 0, (hi-lo)/10+16)
		sh.Col = make([]int32, 0, (hi-lo)/10+16)
		var tok [4][]byte
		for {
			start := lr.pos
			line, ok := lr.next()
			if !ok {
				break
			}
			if blankOrComment(line, "%") {
				continue
			}
			n := fields(line, tok[:], false)
			if n != want {
				return src.errorAt(start, "expected %d tokens in an entry of a %v matrix (row column%s), got %d: %s",
					want, h.field, map[int]string{2: "", 3: " value", 4: " real imaginary"}[want], min(n, 4), quote(line))
			}
			r, ok1 := parseID(tok[0])
			col, ok2 := parseID(tok[1])
			switch {
			case !ok1 || r < 1 || r > h.nrows:
				return src.errorAt(start, "expected a row index from 1 to %d, got %s", h.nrows, quote(tok[0]))
			case !ok2 || col < 1 || col > h.ncol:
				return src.errorAt(start, "expected a column index from 1 to %d, got %s", h.ncol, quote(tok[1]))
			case h.symmetry == matrices.SkewSymmetric && r <= col:
				return src.errorAt(start, "expected an entry below the diagonal (row > column) of a skew-symmetric matrix, got (%d,%d)", r, col)
			case h.symmetry != matrices.General && r < col:
				return src.errorAt(start, "expected an entry on or below the diagonal (row >= column) of a %v matrix, got (%d,%d)", h.symmetry, r, col)
			}
			for k := 2; k < n; k++ {
				if !finite(tok[k]) {
					return src.errorAt(start, "expected a finite number, got %s", quote(tok[k]))
				}
			}
			sh.Row, sh.Col = append(sh.Row, int32(r-1)), append(sh.Col, int32(col-1))
		}
		if lr.err != nil {
			return fmt.Errorf("reading %s: %w", src.path, lr.err)
		}
		return nil
	}()
	if err = mpi.Agree(c, err); err != nil {
		return err
	}
	total, err := mpi.Sum(c, int64(len(sh.Row)))
	if err != nil {
		return err
	}
	if total != h.nnz {
		return fmt.Errorf("%s: expected %d entries as the size line %q says, got %d", src.path, h.nnz, h.line, total)
	}
	sh.Stored = total
	return nil
}

// readMETIS parses the vertex lines of [lo, hi): line i after the header
// is vertex i; entry (u, j) is kept for every neighbour j < u, as
// matrices.ReadMETISGraph stores each edge once below the diagonal.
func readMETIS(c mpi.Comm, src *source, h header, lo, hi int64, sh *Shard) error {
	sh.Field, sh.Symmetry, sh.NRows, sh.NCols = matrices.Pattern, matrices.Symmetric, int(h.nrows), int(h.ncol)
	if h.edgeWeight {
		sh.Field = matrices.Integer
	}
	// First pass: the lines, so that their global numbers can be agreed.
	var lines int64
	var starts []int64 // where each vertex line starts
	var adjacency [][]int32
	err := func() error {
		lr, err := src.lines(lo, hi)
		if err != nil {
			return err
		}
		defer lr.close()
		tok := make([][]byte, 0, 64)
		for {
			start := lr.pos
			line, ok := lr.next()
			if !ok {
				break
			}
			i := 0
			for i < len(line) && isSpace(line[i]) {
				i++
			}
			if i < len(line) && line[i] == '%' {
				continue
			}
			tok = tok[:0]
			for i < len(line) {
				j := i
				for j < len(line) && !isSpace(line[j]) {
					j++
				}
				tok = append(tok, line[i:j])
				for j < len(line) && isSpace(line[j]) {
					j++
				}
				i = j
			}
			lines++
			starts = append(starts, start)
			if len(tok) < h.skip {
				return src.errorAt(start, "expected %d vertex size and weight values before the neighbours, got %d", h.skip, len(tok))
			}
			for k := range h.skip {
				if _, ok := parseID(tok[k]); !ok {
					return src.errorAt(start, "expected a vertex size or weight (a non-negative integer), got %s", quote(tok[k]))
				}
			}
			rest := tok[h.skip:]
			step := 1
			if h.edgeWeight {
				step = 2
				if len(rest)%2 != 0 {
					return src.errorAt(start, "expected neighbour and edge weight pairs, got an odd count of %d values", len(rest))
				}
			}
			adj := make([]int32, 0, len(rest)/step)
			for k := 0; k < len(rest); k += step {
				j, ok := parseID(rest[k])
				if !ok || j < 1 || j > h.nrows {
					return src.errorAt(start, "expected a neighbour from 1 to %d, got %s", h.nrows, quote(rest[k]))
				}
				if step == 2 {
					if w, ok := parseID(rest[k+1]); !ok || w < 1 {
						return src.errorAt(start, "expected an edge weight (a positive integer), got %s", quote(rest[k+1]))
					}
				}
				adj = append(adj, int32(j-1))
			}
			adjacency = append(adjacency, adj)
		}
		if lr.err != nil {
			return fmt.Errorf("reading %s: %w", src.path, lr.err)
		}
		return nil
	}()
	if err = mpi.Agree(c, err); err != nil {
		return err
	}
	first, total, err := mpi.Exscan(c, lines)
	if err != nil {
		return err
	}
	var arcs, kept int64
	err = func() error {
		for i, adj := range adjacency {
			u := first + int64(i)
			if u >= h.nrows {
				if len(adj) > 0 {
					return src.errorAt(starts[i], "expected %d vertex lines as the header says, got more", h.nrows)
				}
				continue // trailing blank lines
			}
			for _, j := range adj {
				if int64(j) == u {
					return src.errorAt(starts[i], "vertex %d lists itself (a self loop): METIS graphs have none", u+1)
				}
				arcs++
				if int64(j) < u {
					sh.Row, sh.Col = append(sh.Row, int32(u)), append(sh.Col, j)
					kept++
				}
			}
		}
		return nil
	}()
	if err = mpi.Agree(c, err); err != nil {
		return err
	}
	sums := []int64{arcs, kept}
	if err := c.Allreduce(sums, mpi.OpSum); err != nil {
		return err
	}
	switch {
	case total < h.nrows:
		return fmt.Errorf("%s: expected %d vertex lines as the header %q says, got %d: the file is truncated", src.path, h.nrows, h.line, total)
	case sums[0] != 2*h.nnz || sums[1] != h.nnz:
		return fmt.Errorf("%s: the header %q says %d edges, each listed at both ends, but the lists hold %d entries (%d below the diagonal)", src.path, h.line, h.nnz, sums[0], sums[1])
	}
	sh.Stored = h.nnz
	return nil
}

// edgeStats is what the ranks tell each other about their edge-list
// lines; positions are byte offsets in the file.
type edgeStats struct {
	lines          int64
	first          [2]int64 // the rank's first line's ids
	firstCols      int64
	firstPos       int64
	minID, maxID   int64 // over the lines after the rank's first
	minPos, maxPos int64 // where they are
	cols2, cols3   int64 // where a later line with 2 or 3 columns starts (-1: none)
}

// readEdgeList parses the edge lines of [lo, hi) and applies the global
// rules of matrices.ReadEdgeList: the first data line of the file may be
// an "n m" header, the id base is guessed from the smallest id, an
// undirected edge is stored below the diagonal, and a repeated pair keeps
// its first occurrence.
func readEdgeList(c mpi.Comm, src *source, lo, hi int64, opt matrices.EdgeListOptions, sh *Shard) error {
	st := edgeStats{minID: math.MaxInt64, maxID: -1, cols2: -1, cols3: -1, firstPos: -1}
	var u, v []int64
	err := func() error {
		lr, err := src.lines(lo, hi)
		if err != nil {
			return err
		}
		defer lr.close()
		var tok [3][]byte
		for {
			start := lr.pos
			line, ok := lr.next()
			if !ok {
				break
			}
			if blankOrComment(line, "#%") {
				continue
			}
			nf := fields(line, tok[:], true)
			if nf < 2 || nf > 3 {
				what := "one column"
				if nf > 3 {
					what = "more than 3 columns"
				}
				return src.errorAt(start, "expected an edge \"source target\" or \"source target weight\", got %s: %s", what, quote(line))
			}
			var id [2]int64
			for k := range 2 {
				x, ok := parseID(tok[k])
				if !ok {
					return src.errorAt(start, "expected a vertex id (a non-negative integer), got %s", quote(tok[k]))
				}
				id[k] = x
			}
			if nf == 3 && !finite(tok[2]) {
				return src.errorAt(start, "expected a finite weight in the third column, got %s", quote(tok[2]))
			}
			if st.lines == 0 {
				st.first, st.firstCols, st.firstPos = id, int64(nf), start
			} else {
				for _, x := range id {
					if x < st.minID {
						st.minID, st.minPos = x, start
					}
					if x > st.maxID {
						st.maxID, st.maxPos = x, start
					}
				}
				if nf == 2 && st.cols2 < 0 {
					st.cols2 = start
				}
				if nf == 3 && st.cols3 < 0 {
					st.cols3 = start
				}
			}
			st.lines++
			u, v = append(u, id[0]), append(v, id[1])
		}
		if lr.err != nil {
			return fmt.Errorf("reading %s: %w", src.path, lr.err)
		}
		return nil
	}()
	if err = mpi.Agree(c, err); err != nil {
		return err
	}
	all, err := mpi.Allgather(c, []edgeStats{st})
	if err != nil {
		return err
	}
	// The file's first data line, and the statistics of every other line.
	g := edgeStats{minID: math.MaxInt64, maxID: -1, cols2: -1, cols3: -1}
	firstRank := -1
	var lineBefore int64 // data lines on the ranks before this one
	for q, a := range all {
		s := a[0]
		if q < c.Rank() {
			lineBefore += s.lines
		}
		g.lines += s.lines
		if s.lines == 0 {
			continue
		}
		merge := func(x int64, pos int64) {
			if x < g.minID {
				g.minID, g.minPos = x, pos
			}
			if x > g.maxID {
				g.maxID, g.maxPos = x, pos
			}
		}
		if s.lines > 1 {
			merge(s.minID, s.minPos)
			merge(s.maxID, s.maxPos)
		}
		mergeCols := func(pos2, pos3 int64) {
			if pos2 >= 0 && g.cols2 < 0 {
				g.cols2 = pos2
			}
			if pos3 >= 0 && g.cols3 < 0 {
				g.cols3 = pos3
			}
		}
		if firstRank < 0 {
			firstRank = q
			g.first, g.firstCols, g.firstPos = s.first, s.firstCols, s.firstPos
		} else {
			// This rank's first line is an ordinary later line.
			merge(s.first[0], s.firstPos)
			merge(s.first[1], s.firstPos)
			if s.firstCols == 2 {
				mergeCols(s.firstPos, -1)
			} else {
				mergeCols(-1, s.firstPos)
			}
		}
		mergeCols(s.cols2, s.cols3)
	}
	if firstRank < 0 {
		return fmt.Errorf("%s: expected at least one edge \"source target [weight]\", got none", src.path)
	}
	// The column count of the lines after the first.
	cols := int64(0)
	switch {
	case g.cols2 >= 0 && g.cols3 >= 0:
		later := max(g.cols2, g.cols3)
		return src.errorAt(later, "expected %d columns like line %d, got %d", map[bool]int{true: 3, false: 2}[later == g.cols2],
			src.lineNumber(min(g.cols2, g.cols3)), map[bool]int{true: 2, false: 3}[later == g.cols2])
	case g.cols2 >= 0:
		cols = 2
	case g.cols3 >= 0:
		cols = 3
	}
	pending := g.firstCols == 2 && opt.Header != matrices.HeaderNo
	if !pending && opt.Header == matrices.HeaderYes {
		return src.errorAt(g.firstPos, "expected a header line \"n m\", got %d columns", g.firstCols)
	}
	if !pending && cols != 0 && cols != g.firstCols {
		pos := g.cols2
		if cols == 3 {
			pos = g.cols3
		}
		return src.errorAt(pos, "expected %d columns like line %d, got %d", g.firstCols, src.lineNumber(g.firstPos), cols)
	}
	rest := g.lines - 1
	header := false
	if pending {
		switch opt.Header {
		case matrices.HeaderYes:
			header = true
		case matrices.HeaderAuto:
			header = matrices.LooksLikeEdgeListHeader(g.first, rest, int64(cols), g.minID, g.maxID, opt.Base)
		}
	}
	if !header {
		// The first line is an edge: its ids count.
		if pending && cols != 0 && cols != g.firstCols {
			pos := g.cols2
			if cols == 3 {
				pos = g.cols3
			}
			return src.errorAt(pos, "expected %d columns like line %d, got %d", g.firstCols, src.lineNumber(g.firstPos), cols)
		}
		for _, x := range g.first {
			if x < g.minID {
				g.minID, g.minPos = x, g.firstPos
			}
			if x > g.maxID {
				g.maxID, g.maxPos = x, g.firstPos
			}
		}
	}
	if g.maxID > math.MaxInt32 {
		return src.errorAt(g.maxPos, "expected a vertex id up to %d, got %d", math.MaxInt32, g.maxID)
	}
	base := int64(0)
	haveIDs := g.maxID >= 0
	switch opt.Base {
	case matrices.OneBased:
		base = 1
		if haveIDs && g.minID < 1 {
			return src.errorAt(g.minPos, "expected vertex ids from 1 (the edge list is 1-based), got %d", g.minID)
		}
	case matrices.BaseAuto:
		if haveIDs && g.minID > 0 {
			base = 1
		}
	}
	var n int64
	if header {
		if g.first[0] > math.MaxInt32 {
			return src.errorAt(g.firstPos, "expected the vertex count of the header \"n m\" to be at most %d, got %d", math.MaxInt32, g.first[0])
		}
		n = g.first[0]
		if haveIDs && g.maxID-base >= n {
			return src.errorAt(g.maxPos, "expected %d-based vertex ids below %d (n = %d from the header on line %d), got %d", base, n+base, n, src.lineNumber(g.firstPos), g.maxID)
		}
	} else {
		n = g.maxID + 1 - base
	}
	sh.NRows, sh.NCols = int(n), int(n)
	sh.Field = matrices.Pattern
	if cols == 3 || (!header && g.firstCols == 3) {
		sh.Field = matrices.Real
	}
	sh.Symmetry = matrices.Symmetric
	if opt.Directed {
		sh.Symmetry = matrices.General
	}
	// Entries in file order: drop the header line, shift by the base,
	// store an undirected edge below the diagonal.
	skipFirst := header && c.Rank() == firstRank
	keep := len(u)
	if skipFirst {
		keep--
	}
	row, col := make([]int32, 0, keep), make([]int32, 0, keep)
	for i := range u {
		if skipFirst && i == 0 {
			continue
		}
		r, cc := int32(u[i]-base), int32(v[i]-base)
		if !opt.Directed && r < cc {
			r, cc = cc, r
		}
		row, col = append(row, r), append(col, cc)
	}
	u, v = nil, nil
	firstPos := lineBefore
	if header && c.Rank() > firstRank {
		firstPos--
	}
	dropped, err := dedupe(c, row, col, firstPos)
	if err != nil {
		return err
	}
	sh.Row, sh.Col = row[:0], col[:0]
	for i := range row {
		if !dropped[i] {
			sh.Row, sh.Col = append(sh.Row, row[i]), append(sh.Col, col[i])
		}
	}
	local := int64(len(row) - len(sh.Row))
	if sh.Duplicates, err = mpi.Sum(c, local); err != nil {
		return err
	}
	sh.Stored, err = mpi.Sum(c, int64(len(sh.Row)))
	return err
}

// dedupe finds the entries that repeat an earlier (row, column) pair of
// the whole input: each pair goes to the rank that owns its hash, which
// keeps the occurrence of the smallest position and tells the others'
// ranks to drop theirs. first is the global position of this rank's first
// entry.
func dedupe(c mpi.Comm, row, col []int32, first int64) ([]bool, error) {
	p := c.Size()
	type rec struct {
		Key uint64
		Pos int64
	}
	key := func(i int) uint64 { return uint64(uint32(row[i]))<<32 | uint64(uint32(col[i])) }
	owner := func(k uint64) int { return int(rng.Mix(k) % uint64(p)) }
	send, counts := byRank(p, func(put func(q int, r rec)) {
		for i := range row {
			put(owner(key(i)), rec{key(i), first + int64(i)})
		}
	})
	recv, rcounts, err := mpi.AlltoallFlat(c, send, counts)
	if err != nil {
		return nil, err
	}
	send = nil
	// Where each received record came from, to answer its rank.
	from := make([]int32, len(recv))
	at := 0
	for q, n := range rcounts {
		for i := at; i < at+n; i++ {
			from[i] = int32(q)
		}
		at += n
	}
	order := make([]int32, len(recv))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(recv[a].Key, recv[b].Key); c != 0 {
			return c
		}
		return cmp.Compare(recv[a].Pos, recv[b].Pos)
	})
	back := make([][]int64, p)
	for i := 1; i < len(order); i++ {
		if recv[order[i]].Key == recv[order[i-1]].Key {
			j := order[i]
			back[from[j]] = append(back[from[j]], recv[j].Pos)
		}
	}
	drops, err := mpi.Alltoall(c, back)
	if err != nil {
		return nil, err
	}
	dropped := make([]bool, len(row))
	for _, d := range drops {
		for _, pos := range d {
			dropped[pos-first] = true
		}
	}
	return dropped, nil
}

// byRank lays out the records each puts, in one buffer by destination rank
// (each rank's in the order put), with their counts: mpi.AlltoallFlat's
// arguments. each runs twice, to count and then to place (no growth, no
// copy), and must put the same records both times.
func byRank[T any](p int, each func(put func(q int, x T))) (buf []T, counts []int) {
	counts = make([]int, p)
	each(func(q int, _ T) { counts[q]++ })
	off := prefix(counts)
	buf = make([]T, off[p-1]+counts[p-1])
	each(func(q int, x T) {
		buf[off[q]] = x
		off[q]++
	})
	return buf, counts
}

// prefix is the exclusive prefix sum of counts.
func prefix(counts []int) []int {
	off := make([]int, len(counts))
	at := 0
	for q, n := range counts {
		off[q] = at
		at += n
	}
	return off
}
