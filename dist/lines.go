package dist

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/spac-gpu/spac/mpi"
)

// source is an input file seen as a stream of bytes: the file itself or,
// for a gzip file, what it decompresses to. A rank reads the lines that
// start in its byte range of the stream.
type source struct {
	path string
	gz   bool
	size int64 // bytes of the (decompressed) stream
}

// openSource finds the stream's size: a plain file's size, or for gzip the
// decompressed length, which rank 0 measures by decompressing the file
// once and sends to the others.
func openSource(c mpi.Comm, path string) (*source, error) {
	s := &source{path: path}
	var err error
	if path == "-" || path == "" {
		err = fmt.Errorf("the distributed reader needs a file that every process can open (not standard input): save the input to a file first")
	} else {
		err = s.probe()
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	if !s.gz {
		return s, nil
	}
	var size int64
	if c.Rank() == 0 {
		size, err = s.decompressedSize()
	}
	if err = mpi.Agree(c, err); err != nil {
		return nil, err
	}
	all, err := mpi.Bcast(c, []int64{size}, 0)
	if err != nil {
		return nil, err
	}
	s.size = all[0]
	return s, nil
}

func (s *source) probe() error {
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file: the distributed reader splits a file by byte ranges", s.path)
	}
	s.size = fi.Size()
	var magic [2]byte
	if n, _ := io.ReadFull(f, magic[:]); n == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		s.gz = true
	}
	return nil
}

func (s *source) decompressedSize() (int64, error) {
	r, closer, err := s.open(0)
	if err != nil {
		return 0, err
	}
	defer closer()
	n, err := io.Copy(io.Discard, r)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", s.path, err)
	}
	return n, nil
}

// open returns the stream from byte off on.
func (s *source) open(off int64) (io.Reader, func(), error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, nil, err
	}
	if !s.gz {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			f.Close()
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading %s: not a valid gzip file: %w", s.path, err)
	}
	if _, err := io.CopyN(io.Discard, zr, off); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("reading %s: %w", s.path, err)
	}
	return zr, func() { f.Close() }, nil
}

// lineNumber is the 1-based number of the line that starts at byte pos:
// counted only when an error is reported.
func (s *source) lineNumber(pos int64) int64 {
	r, closer, err := s.open(0)
	if err != nil {
		return 0
	}
	defer closer()
	br := bufio.NewReaderSize(io.LimitReader(r, pos), 1<<16)
	n := int64(1)
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(bytes.Count(chunk, []byte{'\n'}))
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return n
		}
	}
}

// errorAt is an error at the line starting at byte pos, named by its line
// number.
func (s *source) errorAt(pos int64, format string, args ...any) error {
	return fmt.Errorf("%s: line %d: %s", s.path, s.lineNumber(pos), fmt.Sprintf(format, args...))
}

// lineRange reads the lines that start in [lo, hi) of the stream: a line
// belongs to the rank whose range holds its first byte.
type lineRange struct {
	br     *bufio.Reader
	closer func()
	pos    int64 // where the next line starts
	hi     int64
	buf    []byte
	err    error
}

// maxLine bounds a line, as the single-machine readers do.
const maxLine = 1 << 30

func (s *source) lines(lo, hi int64) (*lineRange, error) {
	start := max(lo-1, 0)
	r, closer, err := s.open(start)
	if err != nil {
		return nil, err
	}
	lr := &lineRange{br: bufio.NewReaderSize(r, 1<<20), closer: closer, pos: start, hi: hi}
	if lo > 0 {
		// The byte before lo tells whether a line starts at lo; if not,
		// the line in progress belongs to the rank before.
		b, err := lr.br.ReadByte()
		if err != nil {
			closer()
			return nil, fmt.Errorf("reading %s: %w", s.path, err)
		}
		lr.pos++
		if b != '\n' {
			if _, ok := lr.next(); !ok && lr.err != nil {
				closer()
				return nil, lr.err
			}
		}
	}
	return lr, nil
}

// next returns the next line without its line end (\n or \r\n), and the
// position where it starts is lr.start(); false at the end of the range.
func (lr *lineRange) next() ([]byte, bool) {
	if lr.pos >= lr.hi || lr.err != nil {
		return nil, false
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		lr.buf = append(lr.buf, chunk...)
		if err == nil || errors.Is(err, io.EOF) {
			if len(lr.buf) == 0 {
				return nil, false
			}
			break
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			lr.err = err
			return nil, false
		}
		if len(lr.buf) > maxLine {
			lr.err = fmt.Errorf("a line longer than %d bytes", maxLine)
			return nil, false
		}
	}
	lr.pos += int64(len(lr.buf))
	line := bytes.TrimSuffix(lr.buf, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'}), true
}

func (lr *lineRange) close() { lr.closer() }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\v' || b == '\f' }

// fields splits a line at white space (and commas, when commas is set)
// into at most len(out) tokens; it returns len(out)+1 when there are more.
func fields(line []byte, out [][]byte, commas bool) int {
	n, i := 0, 0
	sep := func(b byte) bool { return isSpace(b) || (commas && b == ',') }
	for {
		for i < len(line) && sep(line[i]) {
			i++
		}
		if i == len(line) {
			return n
		}
		if n == len(out) {
			return n + 1
		}
		j := i
		for j < len(line) && !sep(line[j]) {
			j++
		}
		out[n] = line[i:j]
		n++
		i = j
	}
}

// blankOrComment reports a line without data: empty, white space, or
// starting after white space with one of the comment bytes.
func blankOrComment(line []byte, comments string) bool {
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	return i == len(line) || bytes.IndexByte([]byte(comments), line[i]) >= 0
}

// parseID reads a non-negative decimal integer up to math.MaxInt64.
func parseID(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, v >= 0
}

// finite reports whether b is a finite real number.
func finite(b []byte) bool {
	x, err := strconv.ParseFloat(string(b), 64)
	return err == nil && !math.IsInf(x, 0) && !math.IsNaN(x)
}

// quote shows a token in an error message, shortened when long.
func quote(b []byte) string {
	if len(b) == 0 {
		return "end of line"
	}
	if len(b) > 60 {
		return strconv.Quote(string(b[:60])) + "..."
	}
	return strconv.Quote(string(b))
}
