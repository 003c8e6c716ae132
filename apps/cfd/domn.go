package cfd

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The .domn format is whitespace-separated tokens (Rodinia reads it with
// operator>>), so line breaks carry no meaning; the reader still counts
// them to say where a bad token is.

// tokenReader splits its input into whitespace-separated tokens.
type tokenReader struct {
	r    *bufio.Reader
	name string
	line int // line of the last token, 1-based
	nl   int // line breaks read so far
	last byte
	tok  []byte
}

// next returns the next token, or ok false at the end of the input. The
// token is valid until the next call.
func (t *tokenReader) next() (tok []byte, ok bool, err error) {
	t.tok = t.tok[:0]
	for {
		c, err := t.r.ReadByte()
		if err == nil {
			t.last = c
		}
		if err != nil {
			if err == io.EOF {
				if len(t.tok) > 0 {
					return t.tok, true, nil
				}
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("%s: line %d: %w", t.name, t.endLine(), err)
		}
		switch c {
		case ' ', '\t', '\r', '\n', '\v', '\f':
			if len(t.tok) > 0 {
				if c == '\n' {
					t.nl++
				}
				return t.tok, true, nil
			}
			if c == '\n' {
				t.nl++
			}
		default:
			if len(t.tok) == 0 {
				t.line = t.nl + 1
			}
			if len(t.tok) >= 64 {
				return nil, false, fmt.Errorf("%s: line %d: token longer than 64 characters: %q...", t.name, t.line, t.tok[:16])
			}
			t.tok = append(t.tok, c)
		}
	}
}

// endLine is the last line of the input read so far: the one a final
// line break ends, not the empty one after it.
func (t *tokenReader) endLine() int {
	if t.last == '\n' {
		return t.nl
	}
	return t.nl + 1
}

// errorf reports a problem with the token just read.
func (t *tokenReader) errorf(format string, a ...any) error {
	return fmt.Errorf("%s: line %d: %s", t.name, t.line, fmt.Sprintf(format, a...))
}

// want reads the next token, failing at the end of the input.
func (t *tokenReader) want(what string) ([]byte, error) {
	tok, ok, err := t.next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: line %d: unexpected end of input, expected %s", t.name, t.endLine(), what)
	}
	return tok, nil
}

func (t *tokenReader) float(what string) (float64, error) {
	tok, err := t.want(what)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(string(tok), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, t.errorf("%s: %q is not a finite number", what, tok)
	}
	return x, nil
}

func (t *tokenReader) int(what string) (int64, error) {
	tok, err := t.want(what)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseInt(string(tok), 10, 64)
	if err != nil {
		return 0, t.errorf("%s: %q is not an integer", what, tok)
	}
	return x, nil
}

// maxPrealloc bounds what a header may make the reader allocate before the
// elements it announces have been read.
const maxPrealloc = 1 << 20

// ReadDomn reads a mesh in Rodinia's .domn format from r; name is used in
// error messages and as the mesh's name. Ids are 1-based: id k > 0 is
// element k-1, 0 a wing wall, a negative id the far field. Normals are
// negated as they are read, as euler3d does. A malformed input is an error
// naming the line, never a panic.
func ReadDomn(r io.Reader, name string) (*Mesh, error) {
	t := &tokenReader{r: bufio.NewReaderSize(r, 1<<16), name: name}
	n64, err := t.int("element count")
	if err != nil {
		return nil, err
	}
	if n64 <= 0 || n64 >= math.MaxInt32 {
		return nil, t.errorf("element count %d: want 1 to %d", n64, math.MaxInt32-1)
	}
	n := int(n64)
	// Element-major while reading (the count may lie), transposed at the end.
	c := min(n, maxPrealloc)
	area := make([]float64, 0, c)
	nbs := make([]int32, 0, NNB*c)
	nrm := make([]float64, 0, NNB*NDim*c)
	for i := 0; i < n; i++ {
		a, err := t.float(fmt.Sprintf("area of element %d", i+1))
		if err != nil {
			return nil, err
		}
		if !(a > 0) {
			return nil, t.errorf("area of element %d is %g: want a positive area", i+1, a)
		}
		area = append(area, a)
		for j := 0; j < NNB; j++ {
			id, err := t.int(fmt.Sprintf("neighbour %d of element %d", j+1, i+1))
			if err != nil {
				return nil, err
			}
			var nb int32
			switch {
			case id > n64:
				return nil, t.errorf("neighbour %d of element %d is %d, beyond the %d elements", j+1, i+1, id, n)
			case id > 0:
				nb = int32(id - 1)
			case id == 0:
				nb = Wing
			default:
				nb = FarField
			}
			nbs = append(nbs, nb)
			for k := 0; k < NDim; k++ {
				x, err := t.float(fmt.Sprintf("normal %c of neighbour %d of element %d", "xyz"[k], j+1, i+1))
				if err != nil {
					return nil, err
				}
				nrm = append(nrm, -x)
			}
		}
	}
	if tok, ok, err := t.next(); err != nil {
		return nil, err
	} else if ok {
		return nil, t.errorf("unexpected %q after the %d elements the header announced", tok, n)
	}
	m := &Mesh{Name: name, N: n, Area: area, Neighbor: make([]int32, NNB*n), Normal: make([]float64, NNB*NDim*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < NNB; j++ {
			m.Neighbor[i+j*n] = nbs[i*NNB+j]
			for k := 0; k < NDim; k++ {
				m.Normal[i+(j+k*NNB)*n] = nrm[(i*NNB+j)*NDim+k]
			}
		}
	}
	return m, nil
}

// WriteDomn writes m in .domn format: the count on the first line, then
// one line per element. Floats are written in their shortest exact form
// and normals negated back, so ReadDomn returns the same mesh bit for bit.
func WriteDomn(w io.Writer, m *Mesh) error {
	if err := m.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	n := m.N
	buf := make([]byte, 0, 512)
	buf = strconv.AppendInt(buf, int64(n), 10)
	buf = append(buf, '\n')
	for i := 0; i < n; i++ {
		buf = strconv.AppendFloat(buf, m.Area[i], 'g', -1, 64)
		for j := 0; j < NNB; j++ {
			var id int64
			switch nb := m.Neighbor[i+j*n]; {
			case nb >= 0:
				id = int64(nb) + 1
			case nb == Wing:
				id = 0
			default:
				id = -1
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, id, 10)
			for k := 0; k < NDim; k++ {
				buf = append(buf, ' ')
				buf = strconv.AppendFloat(buf, -m.Normal[i+(j+k*NNB)*n], 'g', -1, 64)
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	return bw.Flush()
}

// OpenDomn reads a .domn file, gzip-compressed or not ("-" is standard
// input).
func OpenDomn(path string) (*Mesh, error) {
	var r io.Reader
	name := path
	if path == "-" {
		r, name = os.Stdin, "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer zr.Close()
		m, err := ReadDomn(zr, name)
		if err != nil && errors.Is(err, gzip.ErrChecksum) {
			return nil, fmt.Errorf("%s: damaged gzip stream: %w", name, err)
		}
		if m != nil {
			m.Name = meshName(path)
		}
		return m, err
	}
	m, err := ReadDomn(br, name)
	if m != nil {
		m.Name = meshName(path)
	}
	return m, err
}

// meshName is a file's base name without .gz.
func meshName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return strings.TrimSuffix(filepath.Base(path), ".gz")
}
