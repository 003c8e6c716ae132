package matrices

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"sync"
)

// The readers share one line scanner and a few hand-written number parsers:
// bufio.Scanner plus strings.Fields plus strconv allocates per token and
// tops out far below the speed a multi-gigabyte Matrix Market file needs.

const lineBufSize = 1 << 20

// maxLineLen bounds one line (a METIS adjacency list of a huge hub is the
// longest legitimate one), so that a file without line breaks cannot make
// the reader grow its buffer without end. A variable for the tests only.
var maxLineLen = 1 << 30

// lineReader hands out the lines of r without copying them: a line is valid
// until the next call to next. It strips the line end (LF or CRLF) and a
// UTF-8 byte order mark in front of the first line, and counts lines for
// error messages.
type lineReader struct {
	r        io.Reader
	name     string
	buf      []byte
	pos, end int   // unread bytes are buf[pos:end]
	scanned  int   // buf[pos:scanned] holds no line end: the search resumes there
	eof      bool  // r reported io.EOF
	err      error // r failed (anything but io.EOF)
	line     int   // number of the line last returned, 1-based
	maxLine  int   // the longest line accepted: maxLineLen but in tests
}

// newLineReader reads r, of size bytes if known (else -1): a small input
// gets a buffer of its own size rather than a megabyte, and one of unknown
// size (a pipe, gzip, which deliver 64 KiB a read at most) starts at 64
// KiB and grows with its lines.
func newLineReader(r io.Reader, name string, size int64) *lineReader {
	n := lineBufSize
	switch {
	case size < 0:
		n = 64 << 10
	case size < lineBufSize:
		n = max(int(size)+1, 512)
	}
	return &lineReader{r: r, name: name, buf: make([]byte, n), maxLine: maxLineLen}
}

// next returns the next line; ok is false at the end of the input or after a
// read error, which lr.failure then reports.
func (lr *lineReader) next() (line []byte, ok bool) {
	lr.scanned = max(lr.scanned, lr.pos)
	for {
		if i := bytes.IndexByte(lr.buf[lr.scanned:lr.end], '\n'); i >= 0 {
			line = lr.buf[lr.pos : lr.scanned+i]
			lr.pos = lr.scanned + i + 1
			lr.scanned = lr.pos
			return lr.emit(line), true
		}
		// Each byte is searched once, however many reads a long line
		// takes (a gzip stream or a pipe delivers 32 KiB or less at a time).
		lr.scanned = lr.end
		if lr.err != nil {
			return nil, false
		}
		if lr.eof {
			if lr.pos == lr.end {
				return nil, false
			}
			// The last line has no line end.
			line = lr.buf[lr.pos:lr.end]
			lr.pos = lr.end
			return lr.emit(line), true
		}
		lr.fill()
	}
}

func (lr *lineReader) emit(line []byte) []byte {
	lr.line++
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if lr.line == 1 && bytes.HasPrefix(line, []byte("\xEF\xBB\xBF")) {
		line = line[3:]
	}
	return line
}

// fill reads more input behind the unread bytes, moving them to the front
// of the buffer or growing it (doubling, up to lr.maxLine) when a single
// line fills it: reading a line of n bytes costs O(n) time and at most 4n
// bytes of buffers, and a line over the limit fails once lr.maxLine bytes
// of it are read.
func (lr *lineReader) fill() {
	if lr.pos > 0 {
		lr.end = copy(lr.buf, lr.buf[lr.pos:lr.end])
		lr.scanned -= lr.pos
		lr.pos = 0
	}
	if lr.end == len(lr.buf) {
		if len(lr.buf) >= lr.maxLine {
			lr.err = fmt.Errorf("line longer than the limit of %d bytes: not a text file of this format? (gzip is detected by itself; a binary format is not read)", lr.maxLine)
			return
		}
		nb := make([]byte, min(2*len(lr.buf), lr.maxLine))
		copy(nb, lr.buf[:lr.end])
		lr.buf = nb
	}
	for empty := 0; ; empty++ {
		n, err := lr.r.Read(lr.buf[lr.end:])
		lr.end += n
		if err == io.EOF {
			lr.eof = true
			return
		}
		if err != nil {
			lr.err = err
			return
		}
		if n > 0 {
			return
		}
		if empty == 100 {
			lr.err = io.ErrNoProgress
			return
		}
	}
}

// chunk appends the next whole lines of the input to dst, at least n bytes
// of them unless the input ends first, and counts them in lr.line as next
// would. At the end of the input it appends the rest, a last line without
// a line end included; nothing when nothing is left or a read failed
// (failure says which).
func (lr *lineReader) chunk(dst []byte, n int) []byte {
	for {
		avail := lr.buf[lr.pos:lr.end]
		if len(avail) >= n || lr.eof || lr.err != nil {
			cut := bytes.LastIndexByte(avail, '\n') + 1
			if lr.eof {
				cut = len(avail)
			}
			if cut > 0 {
				lines := avail[:cut]
				lr.pos += cut
				lr.scanned = lr.pos
				lr.line += bytes.Count(lines, []byte{'\n'})
				if lines[cut-1] != '\n' {
					lr.line++
				}
				return append(dst, lines...)
			}
			if lr.eof || lr.err != nil {
				return dst
			}
		}
		lr.fill() // more bytes, or a line longer than n: read on to its end
	}
}

// peek returns up to n bytes of the input ahead of the next line without
// consuming them; fewer only when the input is shorter.
func (lr *lineReader) peek(n int) []byte {
	for lr.end-lr.pos < n && !lr.eof && lr.err == nil {
		lr.fill()
	}
	return lr.buf[lr.pos:min(lr.end, lr.pos+n)]
}

// failure is the read error that stopped next, or nil at a clean end.
func (lr *lineReader) failure() error {
	if lr.err == nil {
		return nil
	}
	return fmt.Errorf("reading %s line %d: %w", lr.name, lr.line+1, lr.err)
}

// errorf makes an error about the line last returned.
func (lr *lineReader) errorf(format string, args ...any) error {
	return lr.errorAt(lr.line, format, args...)
}

// errorAt makes an error about an earlier line.
func (lr *lineReader) errorAt(line int, format string, args ...any) error {
	return fmt.Errorf("reading %s line %d: %s", lr.name, line, fmt.Sprintf(format, args...))
}

// eofError reports input that ended before something expected, blaming the
// read error if there was one (a truncated gzip stream, say).
func (lr *lineReader) eofError(format string, args ...any) error {
	if err := lr.failure(); err != nil {
		return err
	}
	return lr.errorAt(lr.line+1, format, args...)
}

// isSpace reports the bytes that separate tokens. '\r' is among them so that
// a stray carriage return (old Mac line ends, "\r\r\n") is not a token.
func isSpace(c byte) bool { return spaceTab[c] }

var spaceTab = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// token returns the token starting at or after i and the index just past it;
// an empty token means the line has no more.
func token(b []byte, i int) (tok []byte, next int) {
	i = skipSpace(b, i)
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], j
}

// isBlankOrComment reports a line that carries no data: empty, white space,
// or starting (after white space) with one of the comment bytes.
func isBlankOrComment(line []byte, comments string) bool {
	i := skipSpace(line, 0)
	return i == len(line) || bytes.IndexByte([]byte(comments), line[i]) >= 0
}

// quote shows a token in an error message, shortened when it is long (a
// binary file can make a "token" megabytes long).
func quote(b []byte) string {
	if len(b) == 0 {
		return "end of line"
	}
	const max = 60
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}

// indexOverflow is what parseUint returns for a number too large for any
// index or count; callers compare against their own bound.
const indexOverflow = math.MaxInt64

// parseUint parses a non-negative decimal integer (digits only, no sign).
// Numbers too large for int64 come back as indexOverflow.
func parseUint(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		d := int64(c) - '0'
		if d < 0 || d > 9 {
			return 0, false
		}
		if v > (indexOverflow-d)/10 {
			v = indexOverflow
			continue // keep checking the syntax
		}
		v = v*10 + d
	}
	return v, true
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a decimal floating-point number and returns exactly what
// strconv.ParseFloat(s, 64) returns for it, without strconv's second scan
// of the text. Up to 15 or so significant digits with a modest exponent,
// the mantissa and the power of ten are both exact in float64 and one
// multiplication or division rounds correctly; up to 19 digits eiselLemire
// decides. The rest (more digits, subnormals, overflow, inf, nan, hex, the
// rare ambiguous roundings) goes to strconv. A Fortran exponent letter
// (1.5D+03) is accepted. ok is false for a malformed number; inf, nan and
// numbers beyond the float64 range come back as they are (±Inf, NaN) for
// the caller to reject.
func parseFloat(b []byte) (v float64, ok bool) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0
	digits, trunc := false, false
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		digits = true
		d := uint64(b[i] - '0')
		switch {
		case mant == 0 && d == 0:
		case nd < 19:
			mant = mant*10 + d
			nd++
		default:
			exp++
			trunc = trunc || d != 0
		}
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i]-'0' <= 9; i++ {
			digits = true
			d := uint64(b[i] - '0')
			switch {
			case mant == 0 && d == 0:
				exp--
			case nd < 19:
				mant = mant*10 + d
				nd++
				exp--
			default:
				trunc = trunc || d != 0
			}
		}
	}
	if !digits {
		return parseFloatSlow(b)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		if i == len(b) {
			return 0, false
		}
		e := 0
		for ; i < len(b) && b[i]-'0' <= 9; i++ {
			if e < 100000 {
				e = e*10 + int(b[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(b) || trunc {
		return parseFloatSlow(b)
	}
	switch {
	case mant == 0:
		v = 0
	case mant >= 1<<53:
		var ok bool
		if v, ok = eiselLemire(mant, exp); !ok {
			return parseFloatSlow(b)
		}
	case exp == 0:
		v = float64(mant)
	case exp > 0 && exp <= 22:
		v = float64(mant) * pow10[exp]
	case exp > 22 && exp <= 22+15 && mant < 1<<53/pow10u[exp-22]:
		// Move the excess of the exponent into the mantissa while that
		// stays exact.
		v = float64(mant*pow10u[exp-22]) * pow10[22]
	case exp < 0 && exp >= -22:
		v = float64(mant) / pow10[-exp]
	default:
		var ok bool
		if v, ok = eiselLemire(mant, exp); !ok {
			return parseFloatSlow(b)
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// Powers of ten for eiselLemire: pow5Table()[q-pow10MinExp] is the 128-bit
// mantissa of 10^q, normalized to [2^127, 2^128) and rounded down, as
// {high, low} words.
const (
	pow10MinExp = -348
	pow10MaxExp = 347
)

var pow5Table = sync.OnceValue(func() [][2]uint64 {
	t := make([][2]uint64, pow10MaxExp-pow10MinExp+1)
	five := big.NewInt(5)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for q := pow10MinExp; q <= pow10MaxExp; q++ {
		p := new(big.Int).Exp(five, big.NewInt(int64(max(q, -q))), nil)
		x := new(big.Int)
		if q >= 0 {
			// 10^q = 5^q 2^q: the mantissa is 5^q shifted to 128 bits.
			if n := p.BitLen(); n <= 128 {
				x.Lsh(p, uint(128-n))
			} else {
				x.Rsh(p, uint(n-128))
			}
		} else {
			// 10^q = 2^q / 5^-q: divide a power of two by 5^-q so that the
			// quotient has exactly 128 bits (5^-q is no power of two).
			x.Lsh(big.NewInt(1), uint(127+p.BitLen()))
			x.Quo(x, p)
		}
		t[q-pow10MinExp] = [2]uint64{new(big.Int).Rsh(x, 64).Uint64(), new(big.Int).And(x, mask).Uint64()}
	}
	return t
})

// eiselLemire converts mant × 10^exp10 (mant > 0, all the decimal's
// digits, no truncation) to the nearest float64 with the algorithm of
// Lemire, "Number parsing at a gigabyte per second" (Software: Practice and
// Experience, 2021), credited there to Michael Eisel: multiply the
// normalized mantissa by a 128-bit approximation of the power of ten and
// keep the top 54 bits, which decide the rounding unless the truncation
// error of the approximation could reach them or the value lies exactly
// half-way. ok is false in those rare cases and for results outside the
// normal float64 range; strconv handles them.
func eiselLemire(mant uint64, exp10 int) (float64, bool) {
	if exp10 < pow10MinExp || exp10 > pow10MaxExp {
		return 0, false
	}
	t := pow5Table()[exp10-pow10MinExp]
	clz := bits.LeadingZeros64(mant)
	w := mant << clz
	// The exact product w × 10^exp10 (scaled) lies in [hi:lo, hi:lo + w)
	// because the table is rounded down by less than one unit of t[1].
	hi, lo := bits.Mul64(w, t[0])
	if hi&0x1FF == 0x1FF && lo+w < lo {
		// The error may carry into the bits kept: add the product with
		// the low word. The exact value is now within 2 of hi:lo.
		h2, _ := bits.Mul64(w, t[1])
		var c uint64
		lo, c = bits.Add64(lo, h2, 0)
		hi += c
		if hi&0x1FF == 0x1FF && lo >= math.MaxUint64-1 {
			return 0, false
		}
	}
	top := hi >> 63 // hi is in [2^62, 2^64)
	m := hi >> (top + 9)
	// floor(log2(10^q)) = floor(q × 217706 / 2^16) over the table's range.
	exp2 := (217706*exp10)>>16 + 64 + 1023 - clz - int(1-top)
	if lo == 0 && hi&0x1FF == 0 && m&3 == 1 {
		return 0, false // maybe exactly half-way: ties go to even
	}
	m += m & 1
	m >>= 1
	if m >= 1<<53 {
		m >>= 1
		exp2++
	}
	if exp2 <= 0 || exp2 >= 0x7FF {
		return 0, false // subnormal, or overflow
	}
	return math.Float64frombits(uint64(exp2)<<52 | m&(1<<52-1)), true
}

func parseFloatSlow(b []byte) (float64, bool) {
	if bytes.IndexByte(b, '_') >= 0 {
		return 0, false // strconv allows digit separators; a data file should not
	}
	if i := bytes.IndexAny(b, "dD"); i >= 0 && !bytes.ContainsAny(b, "xXnN") {
		c := []byte(string(b))
		c[i] = 'e'
		b = c
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	// Out of range comes back as ±Inf (or 0 for underflow), which the
	// callers reject as not finite with a clearer message.
	return v, true
}

// sizeHint guesses how many bytes r will deliver, or -1, so that readers can
// bound what they preallocate from a header's counts: a header may lie (or
// be hostile), the input's size does not.
func sizeHint(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }: // bytes.Reader, strings.Reader, bytes.Buffer
		return int64(r.Len())
	case *os.File:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return -1
}

// preallocCap is how many entries to reserve for a file that announces n:
// no more than the input can hold at minBytes bytes an entry, and a fixed
// amount when the input size is unknown (the slices then grow on demand,
// so that what a reader holds follows what it has read, not the header).
func preallocCap(n int64, size int64, minBytes int64) int {
	const unknownCap = 1 << 12
	limit := int64(unknownCap)
	if size >= 0 {
		limit = size/minBytes + 1
	}
	if n < limit {
		limit = n
	}
	if limit < 0 {
		limit = 0
	}
	return int(limit)
}

// push appends x to s, doubling the capacity when s is full. append grows
// large slices by a quarter at a time, which allocates five times the
// final size in all; doubling allocates twice, and keeps what a reader
// allocates within its bound per input byte.
func push[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 1024))
	}
	return append(s, x)
}

// grown returns a capacity for appending past c entries towards a total of
// want: doubling, but never beyond what the header announced.
func grown(c, want int) int {
	n := max(2*c, 1024)
	if want > c && n > want {
		n = want
	}
	return n
}

// The dimension rule. A reader holds O(entries) memory, but the programs
// after it hold arrays per row, column and vertex (degrees, incidence
// offsets, part counts), so a header "1000000000 1000000000 2" or an edge
// list with the single id 1000000000 would cost gigabytes for nothing.
// Readers therefore refuse a dimension above
//
//	dimPerEntry × (entries + 1) + dimSlack   (64 per entry plus 2^20)
//
// unless ReadOptions.MaxDimension raises the limit: every real matrix we
// know has far fewer empty rows than that, and what the per-vertex arrays
// take stays within a small multiple of what the entries take. A METIS
// graph needs no such rule: its n vertices are n lines of the file.
const (
	dimPerEntry = 64
	dimSlack    = 1 << 20
)

// dimensionLimit is the largest dimension accepted for nnz entries, or
// maxDim when that is larger.
func dimensionLimit(nnz int64, maxDim int) int64 {
	return max(dimPerEntry*(min(nnz, 1<<40)+1)+dimSlack, int64(maxDim))
}

// checkDimension refuses a dimension n (what names it: "rows", "vertices")
// above dimensionLimit for nnz entries (unit and units name them),
// blaming line.
func (lr *lineReader) checkDimension(line int, what string, n, nnz int64, unit, units string, maxDim int) error {
	limit := dimensionLimit(nnz, maxDim)
	if n <= limit {
		return nil
	}
	return lr.errorAt(line, "%d %s for %s is more than the limit of %d (64 per %s + 2^20): "+
		"the arrays kept per row, column and vertex would be almost all empty and could take gigabytes; "+
		"if the file is right, raise the limit with --max-dimension %d (ReadOptions.MaxDimension)",
		n, what, plural(nnz, unit, units), limit, unit, n)
}
