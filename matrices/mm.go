package matrices

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/spac-gpu/spac/internal/par"
)

const mmBanner = "%%MatrixMarket"

// ReadMatrixMarket reads a matrix in Matrix Market format, coordinate or
// array, with any field (real, double, integer, complex, pattern) and
// symmetry (general, symmetric, skew-symmetric, hermitian). Storage is kept
// as in the file: a symmetric matrix stays one triangle (the lower, as the
// format requires; an entry above the diagonal is an error) and Symmetry
// says so; call Expanded for both triangles. A complex matrix keeps its real
// parts in Val and its imaginary parts in Imag; a pattern matrix has Val nil.
// Comment lines (starting with %) and blank lines may appear anywhere after
// the banner. name labels errors and becomes the COO's Name.
//
// A file with a size line and no entries is read as a matrix without
// entries; an empty file is an error. Repeated positions are kept (they
// add up, the format's convention) and counted in Duplicates. Dimensions
// above 64 per entry + 2^20 are refused (see ReadOptions.MaxDimension,
// which Read takes). Memory follows the entries read, not the size line.
func ReadMatrixMarket(r io.Reader, name string) (*COO, error) {
	size := sizeHint(r)
	return readMatrixMarket(newLineReader(r, name, size), size, 0, false)
}

type mmFormat struct {
	array    bool
	field    Field
	symmetry Symmetry
}

func parseMMBanner(lr *lineReader, line []byte) (mmFormat, error) {
	array, field, symmetry, err := ParseMatrixMarketBanner(line)
	if err != nil {
		return mmFormat{}, lr.errorf("%v", err)
	}
	return mmFormat{array: array, field: field, symmetry: symmetry}, nil
}

// ParseMatrixMarketBanner reads a Matrix Market banner line
// ("%%MatrixMarket matrix <format> <field> <symmetry>"): whether the format
// is array (else coordinate), the field and the symmetry, refusing the
// combinations the format's reference code rejects. The error names what
// was expected; the caller adds where.
func ParseMatrixMarketBanner(line []byte) (array bool, field Field, symmetry Symmetry, err error) {
	const want = `"%%MatrixMarket matrix <format> <field> <symmetry>"`
	var f mmFormat
	fail := func(format string, args ...any) (bool, Field, Symmetry, error) {
		return false, 0, 0, fmt.Errorf(format, args...)
	}
	tok := bytes.Fields(line)
	if len(tok) == 0 || !bytes.EqualFold(tok[0], []byte(mmBanner)) {
		return fail("expected the Matrix Market banner %s, got %s", want, quote(line))
	}
	if len(tok) != 5 {
		return fail("expected 5 words in the banner %s, got %d: %s", want, len(tok), quote(line))
	}
	if !bytes.EqualFold(tok[1], []byte("matrix")) {
		return fail("expected object \"matrix\" in the banner, got %s", quote(tok[1]))
	}
	switch string(bytes.ToLower(tok[2])) {
	case "coordinate":
	case "array":
		f.array = true
	default:
		return fail("expected format \"coordinate\" or \"array\" in the banner, got %s", quote(tok[2]))
	}
	switch string(bytes.ToLower(tok[3])) {
	case "real", "double":
		f.field = Real
	case "integer":
		f.field = Integer
	case "complex":
		f.field = Complex
	case "pattern":
		f.field = Pattern
	default:
		return fail("expected field \"real\", \"integer\", \"complex\" or \"pattern\" in the banner, got %s", quote(tok[3]))
	}
	switch string(bytes.ToLower(tok[4])) {
	case "general":
		f.symmetry = General
	case "symmetric":
		f.symmetry = Symmetric
	case "skew-symmetric":
		f.symmetry = SkewSymmetric
	case "hermitian":
		f.symmetry = Hermitian
	default:
		return fail("expected symmetry \"general\", \"symmetric\", \"skew-symmetric\" or \"hermitian\" in the banner, got %s", quote(tok[4]))
	}
	// The combinations the format's reference code (mmio.c) rejects.
	switch {
	case f.array && f.field == Pattern:
		return fail("expected a field with values for an array matrix, got \"pattern\"")
	case f.symmetry == Hermitian && f.field != Complex:
		return fail("expected field \"complex\" for a hermitian matrix, got %q (a real hermitian matrix is \"symmetric\")", f.field)
	case f.symmetry == SkewSymmetric && f.field == Pattern:
		return fail("expected a field with values for a skew-symmetric matrix, got \"pattern\"")
	}
	return f.array, f.field, f.symmetry, nil
}

// parseDim parses a row or column count of the size line.
func parseDim(lr *lineReader, tok []byte, what string) (int, error) {
	v, ok := parseUint(tok)
	if !ok {
		return 0, lr.errorf("expected the number of %s (an integer from 0 to %d) on the size line, got %s", what, math.MaxInt32, quote(tok))
	}
	if v > math.MaxInt32 {
		return 0, lr.errorf("expected the number of %s to be at most %d (indices are int32), got %s", what, math.MaxInt32, quote(tok))
	}
	return int(v), nil
}

// readMatrixMarket reads what ReadMatrixMarket describes; noValues reads
// the values without keeping them (ReadOptions.NoValues).
func readMatrixMarket(lr *lineReader, size int64, maxDim int, noValues bool) (*COO, error) {
	line, ok := lr.next()
	if !ok {
		return nil, lr.eofError("expected the Matrix Market banner %q, got an empty file", mmBanner)
	}
	f, err := parseMMBanner(lr, line)
	if err != nil {
		return nil, err
	}
	for {
		if line, ok = lr.next(); !ok {
			return nil, lr.eofError("expected the size line, got end of file")
		}
		if !isBlankOrComment(line, "%") {
			break
		}
	}
	sizeLine := lr.line
	var tok [4][]byte
	i := 0
	for k := range tok {
		tok[k], i = token(line, i)
	}
	nwant := 3
	want := "rows columns entries"
	if f.array {
		nwant, want = 2, "rows columns"
	}
	if len(tok[nwant-1]) == 0 || len(tok[nwant]) != 0 {
		return nil, lr.errorf("expected the size line %q, got %s", want, quote(line))
	}
	m := &COO{Name: lr.name, Field: f.field, Symmetry: f.symmetry}
	if m.NRows, err = parseDim(lr, tok[0], "rows"); err != nil {
		return nil, err
	}
	if m.NCols, err = parseDim(lr, tok[1], "columns"); err != nil {
		return nil, err
	}
	if f.symmetry != General && m.NRows != m.NCols {
		return nil, lr.errorf("expected a square matrix for symmetry %q, got %d x %d", f.symmetry, m.NRows, m.NCols)
	}
	var nnz int64
	if f.array {
		nr, nc := int64(m.NRows), int64(m.NCols)
		switch f.symmetry {
		case General:
			nnz = nr * nc
		case SkewSymmetric:
			nnz = nr * (nr - 1) / 2
		default:
			nnz = nr * (nr + 1) / 2
		}
	} else {
		v, ok := parseUint(tok[2])
		if !ok || v == indexOverflow {
			return nil, lr.errorf("expected the number of entries (a non-negative integer) on the size line, got %s", quote(tok[2]))
		}
		nnz = v
	}
	what := "rows"
	if m.NCols > m.NRows {
		what = "columns"
	}
	if err := lr.checkDimension(sizeLine, what, int64(max(m.NRows, m.NCols)), nnz, "entry", "entries", maxDim); err != nil {
		return nil, err
	}
	p := mmParser{lr: lr, f: f, m: m, nnz: nnz, sizeLine: sizeLine, keep: !noValues && f.field != Pattern}
	p.alloc(size)
	if f.array {
		err = p.readArray()
	} else {
		err = p.readCoordinate()
	}
	if err != nil {
		return nil, err
	}
	if !f.array {
		_, m.Duplicates = duplicates(m)
	}
	return m, nil
}

// mmParser holds the state of reading the entries of one file.
type mmParser struct {
	lr       *lineReader
	f        mmFormat
	m        *COO
	nnz      int64 // entries announced (coordinate) or implied (array)
	sizeLine int
	keep     bool // the values are kept in Val (and Imag)
}

// alloc reserves the entry slices. The bound against the input size keeps
// a hostile size line ("1 1 999999999999") from allocating terabytes.
func (p *mmParser) alloc(size int64) {
	minBytes := int64(4) // "1 1\n"
	if p.f.field != Pattern {
		minBytes = 6
	}
	if p.f.array {
		minBytes = 2 // "0\n"
	}
	n := preallocCap(p.nnz, size, minBytes)
	p.m.Row = make([]int32, 0, n)
	p.m.Col = make([]int32, 0, n)
	if p.keep {
		p.m.Val = make([]float64, 0, n)
	}
	if p.keep && p.f.field == Complex {
		p.m.Imag = make([]float64, 0, n)
	}
}

// grow makes room for one more entry once the preallocation is used up.
func (p *mmParser) grow() {
	m := p.m
	if len(m.Row) < cap(m.Row) {
		return
	}
	want := int(min(p.nnz, math.MaxInt))
	extra := grown(cap(m.Row), want) - len(m.Row)
	m.Row = slices.Grow(m.Row, extra)
	m.Col = slices.Grow(m.Col, extra)
	if m.Val != nil {
		m.Val = slices.Grow(m.Val, extra)
	}
	if m.Imag != nil {
		m.Imag = slices.Grow(m.Imag, extra)
	}
}

func (p *mmParser) index(tok []byte, what string, n int) (int32, error) {
	v, ok := parseUint(tok)
	if !ok || v < 1 || v > int64(n) {
		return 0, p.lr.errorf("expected a %s index from 1 to %d, got %s", what, n, quote(tok))
	}
	return int32(v - 1), nil
}

// value parses the value(s) of an entry starting at i and appends them; it
// returns the index after them.
func (p *mmParser) value(line []byte, i int) (int, error) {
	switch p.f.field {
	case Pattern:
		return i, nil
	case Complex:
		tok, j := token(line, i)
		re, err := p.number(tok, "real part", "a number")
		if err != nil {
			return 0, err
		}
		tok, j = token(line, j)
		im, err := p.number(tok, "imaginary part", "a number")
		if err != nil {
			return 0, err
		}
		if p.keep {
			p.m.Val = append(p.m.Val, re)
			p.m.Imag = append(p.m.Imag, im)
		}
		return j, nil
	}
	tok, j := token(line, i)
	v, err := p.number(tok, "value", "a real number")
	if err != nil {
		return 0, err
	}
	if p.keep {
		p.m.Val = append(p.m.Val, v)
	}
	return j, nil
}

func (p *mmParser) number(tok []byte, what, kind string) (float64, error) {
	if p.f.field == Integer {
		kind = "an integer"
		if !isInteger(tok) {
			return 0, p.lr.errorf("expected the %s (%s), got %s", what, kind, quote(tok))
		}
	}
	v, ok := parseFloat(tok)
	if !ok {
		return 0, p.lr.errorf("expected the %s (%s), got %s", what, kind, quote(tok))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.lr.errorf("expected a finite %s, got %s", what, quote(tok))
	}
	return v, nil
}

func isInteger(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c-'0' > 9 {
			return false
		}
	}
	return true
}

// endOfEntry checks that nothing follows the entry's last expected token.
func (p *mmParser) endOfEntry(line []byte, i int) error {
	tok, _ := token(line, i)
	if len(tok) == 0 {
		return nil
	}
	switch p.f.field {
	case Pattern:
		return p.lr.errorf("expected end of line after the column index (a pattern matrix has no values), got %s", quote(tok))
	case Complex:
		return p.lr.errorf("expected end of line after the imaginary part, got %s", quote(tok))
	}
	return p.lr.errorf("expected end of line after the value, got %s", quote(tok))
}

func (p *mmParser) tooMany() error {
	return p.lr.errorf("expected %s as the size line (line %d) says, got more", plural(p.nnz, "entry", "entries"), p.sizeLine)
}

func (p *mmParser) tooFew() error {
	return p.lr.eofError("expected %s as the size line (line %d) says, got %d: the file is truncated", plural(p.nnz, "entry", "entries"), p.sizeLine, len(p.m.Row))
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}

func (p *mmParser) readCoordinate() error {
	var err error
	if w := par.Workers(parallelMaxWorkers); w > 1 && p.nnz >= parallelMinEntries && p.f.field != Complex {
		err = p.readCoordinateParallel(w)
	} else {
		err = p.entries()
	}
	if err != nil {
		return err
	}
	if int64(len(p.m.Row)) < p.nnz {
		return p.tooFew()
	}
	return nil
}

// entries reads the entry lines of p.lr one at a time to its end.
func (p *mmParser) entries() error {
	lr, m := p.lr, p.m
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		i := skipSpace(line, 0)
		if i == len(line) || line[i] == '%' {
			continue
		}
		if int64(len(m.Row)) == p.nnz {
			return p.tooMany()
		}
		p.grow()
		if p.f.field != Complex && p.fastEntry(line, i) {
			continue
		}
		if err := p.entry(line, i); err != nil {
			return err
		}
	}
	return lr.failure()
}

// fastEntry parses the common entry line "i j [v]" of a real, integer or
// pattern matrix in one pass and appends it. It gives up (false, nothing
// appended) on anything unusual, which entry then parses again to say
// what is wrong, or to accept it.
func (p *mmParser) fastEntry(line []byte, i int) bool {
	m := p.m
	var idx [2]uint64
	for k, n := range [2]int{m.NRows, m.NCols} {
		j := i
		var x uint64
		for j < len(line) && line[j]-'0' <= 9 && j-i < 10 {
			x = x*10 + uint64(line[j]-'0')
			j++
		}
		if j == i || (j < len(line) && !spaceTab[line[j]]) || x-1 >= uint64(n) {
			return false
		}
		idx[k] = x - 1
		i = skipSpace(line, j)
	}
	r, c := int32(idx[0]), int32(idx[1])
	if p.f.symmetry != General && (r < c || (r == c && p.f.symmetry == SkewSymmetric)) {
		return false
	}
	if p.f.field != Pattern {
		j := i
		for j < len(line) && !spaceTab[line[j]] {
			j++
		}
		tok := line[i:j]
		if p.f.field == Integer && !isInteger(tok) {
			return false
		}
		v, ok := parseFloat(tok)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
		if p.keep {
			m.Val = append(m.Val, v)
		}
		i = skipSpace(line, j)
	}
	if i != len(line) {
		if p.keep {
			m.Val = m.Val[:len(m.Val)-1]
		}
		return false
	}
	m.Row = append(m.Row, r)
	m.Col = append(m.Col, c)
	return true
}

// entry parses an entry line token by token, with an error for whatever
// is wrong in it.
func (p *mmParser) entry(line []byte, i int) error {
	lr, m := p.lr, p.m
	sym := p.f.symmetry
	tok, i := token(line, i)
	r, err := p.index(tok, "row", m.NRows)
	if err != nil {
		return err
	}
	tok, i = token(line, i)
	c, err := p.index(tok, "column", m.NCols)
	if err != nil {
		return err
	}
	switch {
	case sym == General:
	case r < c && sym == SkewSymmetric:
		return lr.errorf("expected an entry below the diagonal (row > column) of a skew-symmetric matrix, got (%d,%d)", r+1, c+1)
	case r < c:
		return lr.errorf("expected an entry on or below the diagonal (row >= column) of a %s matrix, got (%d,%d)", sym, r+1, c+1)
	case r == c && sym == SkewSymmetric:
		return lr.errorf("expected no diagonal entry in a skew-symmetric matrix (its diagonal is zero), got (%d,%d)", r+1, c+1)
	}
	if i, err = p.value(line, i); err != nil {
		return err
	}
	if err := p.endOfEntry(line, i); err != nil {
		return err
	}
	m.Row = append(m.Row, r)
	m.Col = append(m.Col, c)
	return nil
}

// readArray reads a dense matrix: one value per line in column-major order,
// of the lower triangle only for symmetric and hermitian matrices (diagonal
// included) and skew-symmetric ones (diagonal excluded). Every stored value
// becomes an entry, zeros included: the file says nothing about which
// entries are structural, and keeping them all keeps the COO a faithful,
// lossless image of the file.
func (p *mmParser) readArray() error {
	lr, m := p.lr, p.m
	first := int32(0) // first stored row of column j, minus j
	if p.f.symmetry == SkewSymmetric {
		first = 1
	}
	var r, c int32
	if p.f.symmetry != General {
		r = first
	}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if isBlankOrComment(line, "%") {
			continue
		}
		if int64(len(m.Row)) == p.nnz {
			return p.tooMany()
		}
		p.grow()
		i, err := p.value(line, 0)
		if err != nil {
			return err
		}
		if err := p.endOfEntry(line, i); err != nil {
			return err
		}
		m.Row = append(m.Row, r)
		m.Col = append(m.Col, c)
		if r++; int(r) == m.NRows {
			c++
			r = 0
			if p.f.symmetry != General {
				r = c + first
			}
		}
	}
	if err := lr.failure(); err != nil {
		return err
	}
	if int64(len(m.Row)) < p.nnz {
		return p.tooFew()
	}
	return nil
}

// WriteMatrixMarket writes m in Matrix Market coordinate format with 1-based
// indices, keeping its field and symmetry. Values are written with 17
// significant digits (%.17g), so reading the file back gives the same bits;
// integer values are written as integers and must be integral. A pattern
// matrix is written without values. A symmetric, skew-symmetric or
// hermitian matrix must be square; an entry stored above the diagonal is
// written as its mirror below it (negated for skew-symmetric, conjugated for
// hermitian), since the format stores the lower triangle.
func WriteMatrixMarket(w io.Writer, m *COO) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("writing Matrix Market: %w", err)
	}
	switch {
	case m.Field > Pattern:
		return fmt.Errorf("writing Matrix Market %s: unknown field %v", m.Name, m.Field)
	case m.Symmetry > Hermitian:
		return fmt.Errorf("writing Matrix Market %s: unknown symmetry %v", m.Name, m.Symmetry)
	case m.Field != Pattern && m.Val == nil:
		return fmt.Errorf("writing Matrix Market %s: a %s matrix needs values, Val is nil", m.Name, m.Field)
	case m.Field == Complex && m.Imag == nil:
		return fmt.Errorf("writing Matrix Market %s: a complex matrix needs imaginary parts, Imag is nil", m.Name)
	case m.Symmetry != General && m.NRows != m.NCols:
		return fmt.Errorf("writing Matrix Market %s: a %s matrix must be square, this one is %d x %d", m.Name, m.Symmetry, m.NRows, m.NCols)
	case m.Symmetry == Hermitian && m.Field != Complex:
		return fmt.Errorf("writing Matrix Market %s: the format allows hermitian only for complex matrices, this one is %s (use symmetric)", m.Name, m.Field)
	case m.Symmetry == SkewSymmetric && m.Field == Pattern:
		return fmt.Errorf("writing Matrix Market %s: the format does not allow a skew-symmetric pattern matrix", m.Name)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "%s matrix coordinate %s %s\n%d %d %d\n", mmBanner, m.Field, m.Symmetry, m.NRows, m.NCols, m.NNZ())
	buf := make([]byte, 0, 80)
	for e := range m.Row {
		r, c := m.Row[e], m.Col[e]
		var v, im float64
		if m.Field != Pattern {
			v = m.Val[e]
		}
		if m.Field == Complex {
			im = m.Imag[e]
		}
		if m.Symmetry != General && r < c {
			r, c = c, r
			switch m.Symmetry {
			case SkewSymmetric:
				v, im = -v, -im
			case Hermitian:
				im = -im
			}
		}
		if m.Symmetry == SkewSymmetric && r == c {
			return fmt.Errorf("writing Matrix Market %s: entry %d is on the diagonal (%d,%d) of a skew-symmetric matrix", m.Name, e, r+1, c+1)
		}
		buf = strconv.AppendInt(buf[:0], int64(r)+1, 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(c)+1, 10)
		switch m.Field {
		case Integer:
			if v != math.Trunc(v) {
				return fmt.Errorf("writing Matrix Market %s: entry %d at (%d,%d) has value %v, not an integer as the integer field needs", m.Name, e, r+1, c+1, v)
			}
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, v, 'f', -1, 64)
		case Real:
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, v, 'g', 17, 64)
		case Complex:
			if math.IsNaN(im) || math.IsInf(im, 0) {
				return fmt.Errorf("writing Matrix Market %s: entry %d at (%d,%d) has imaginary part %v", m.Name, e, r+1, c+1, im)
			}
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, v, 'g', 17, 64)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, im, 'g', 17, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("writing Matrix Market %s: %w", m.Name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing Matrix Market %s: %w", m.Name, err)
	}
	return nil
}
