package gaussian

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// System is a dense linear system A x = b of N unknowns: A row-major
// (A[i*N+j] is row i, column j), in float64 whatever the precision a run
// uses (a run rounds the values to its precision once).
type System struct {
	Name string
	N    int
	A, B []float64
}

// maxN bounds the size a file may declare, so that a damaged header cannot
// make the reader allocate without limit: a 46,340 x 46,340 matrix is the
// largest whose entries int32 indices reach.
const maxN = 46340

// ReadSystem reads Rodinia's gaussian input: the size N, then the N x N
// matrix row by row, then the N entries of b, whitespace-separated (Rodinia
// reads them with fscanf; its files put a blank line between A and b).
// Every value must be a finite number; nothing may follow b. Errors begin
// with name and give the line.
func ReadSystem(r io.Reader, name string) (*System, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	var fields []string
	line := 0
	next := func(what string) (string, error) {
		for len(fields) == 0 {
			if !sc.Scan() {
				if err := sc.Err(); err != nil {
					return "", fmt.Errorf("%s: line %d: %w", name, line+1, err)
				}
				return "", fmt.Errorf("%s: line %d: unexpected end of input, expected %s", name, max(line, 1), what)
			}
			line++
			fields = strings.Fields(sc.Text())
		}
		f := fields[0]
		fields = fields[1:]
		return f, nil
	}
	tok, err := next("the size")
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(tok)
	if err != nil || n < 1 || n > maxN {
		return nil, fmt.Errorf("%s: line %d: the size %q is not an integer from 1 to %d", name, line, tok, maxN)
	}
	s := &System{Name: name, N: n, A: make([]float64, 0, min(n*n, 1<<22)), B: make([]float64, 0, n)}
	value := func(what string) (float64, error) {
		tok, err := next(what)
		if err != nil {
			return 0, err
		}
		v, err := strconv.ParseFloat(tok, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("%s: line %d: %s: %q is not a finite number", name, line, what, tok)
		}
		return v, nil
	}
	for i := 0; i < n*n; i++ {
		v, err := value(fmt.Sprintf("A[%d][%d]", i/n, i%n))
		if err != nil {
			return nil, err
		}
		s.A = append(s.A, v)
	}
	for i := 0; i < n; i++ {
		v, err := value(fmt.Sprintf("b[%d]", i))
		if err != nil {
			return nil, err
		}
		s.B = append(s.B, v)
	}
	for len(fields) == 0 && sc.Scan() {
		line++
		fields = strings.Fields(sc.Text())
	}
	if len(fields) > 0 {
		return nil, fmt.Errorf("%s: line %d: %q after the %d values of A and b", name, line, fields[0], n*n+n)
	}
	return s, sc.Err()
}

// WriteSystem writes s in Rodinia's format: the size, the matrix a row a
// line, a blank line, b on one line. Values are written in Go's shortest
// exact form, so a system written and read back is bit-for-bit the same.
func WriteSystem(w io.Writer, s *System) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, s.N)
	buf := make([]byte, 0, 32)
	row := func(vals []float64) {
		for j, v := range vals {
			if j > 0 {
				bw.WriteByte(' ')
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	for i := 0; i < s.N; i++ {
		row(s.A[i*s.N : (i+1)*s.N])
	}
	bw.WriteByte('\n')
	row(s.B)
	return bw.Flush()
}

// OpenSystem reads a system file (gzip-compressed when it ends in .gz; "-"
// is standard input).
func OpenSystem(path string) (*System, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			defer zr.Close()
			r = zr
		}
	}
	return ReadSystem(r, path)
}

// Spec describes a generated system as Rodinia's gaussian -s N makes it:
// A[i][j] = 10 exp(-Lambda |i-j|), a symmetric Toeplitz matrix whose
// entries decay away from the diagonal (positive definite: it is the
// covariance of an AR(1) process, so elimination without pivoting, which
// Rodinia does, is stable), and b = 1.
type Spec struct {
	N      int
	Lambda float64 // 0: Rodinia's 0.01
}

// SpecHelp describes ParseSpec's syntax.
const SpecHelp = `matrix:n=N[,lambda=L]: Rodinia's generated system (gaussian -s N): A[i][j] = 10 exp(-L |i-j|)
(L = 0.01 by default), b = 1.`

// ParseSpec reads "matrix:n=1024" or "matrix:n=1024,lambda=0.05".
func ParseSpec(s string) (Spec, error) {
	rest, ok := strings.CutPrefix(s, "matrix:")
	if !ok {
		return Spec{}, fmt.Errorf("%q: a generated system starts with matrix:", s)
	}
	var spec Spec
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		switch {
		case !ok:
			return Spec{}, fmt.Errorf("%q: %q is not key=value", s, kv)
		case k == "n":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > maxN {
				return Spec{}, fmt.Errorf("%q: n=%s: want an integer from 1 to %d", s, v, maxN)
			}
			spec.N = n
		case k == "lambda":
			l, err := strconv.ParseFloat(v, 64)
			if err != nil || !(l > 0) || math.IsInf(l, 0) {
				return Spec{}, fmt.Errorf("%q: lambda=%s: want a positive number", s, v)
			}
			spec.Lambda = l
		default:
			return Spec{}, fmt.Errorf("%q: unknown key %q (want n or lambda)", s, k)
		}
	}
	if spec.N == 0 {
		return Spec{}, fmt.Errorf("%q: n (the size) is missing", s)
	}
	return spec, nil
}

// Generate makes the system of spec, named after it.
func Generate(spec Spec) (*System, error) {
	n := spec.N
	if n < 1 || n > maxN {
		return nil, fmt.Errorf("matrix: n=%d: want 1 to %d", n, maxN)
	}
	l := spec.Lambda
	if l == 0 {
		l = 0.01
	}
	coef := make([]float64, n) // coef[d] for |i-j| = d
	for d := range coef {
		coef[d] = 10 * math.Exp(-l*float64(d))
	}
	s := &System{Name: fmt.Sprintf("matrix:n=%d", n), N: n, A: make([]float64, n*n), B: make([]float64, n)}
	if spec.Lambda != 0 {
		s.Name += ",lambda=" + strconv.FormatFloat(spec.Lambda, 'g', -1, 64)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d := i - j
			if d < 0 {
				d = -d
			}
			s.A[i*n+j] = coef[d]
		}
		s.B[i] = 1
	}
	return s, nil
}

// Permute returns P A P^T and P b for the ordering perm (perm[new] = old):
// row and column i of the result are row and column perm[i] of s.
func (s *System) Permute(perm []int32) (*System, error) {
	n := s.N
	if len(perm) != n {
		return nil, fmt.Errorf("permuting %d unknowns with an ordering of %d", n, len(perm))
	}
	seen := make([]bool, n)
	for _, p := range perm {
		if p < 0 || int(p) >= n || seen[p] {
			return nil, fmt.Errorf("permuting: %d is not a permutation of the %d unknowns", p, n)
		}
		seen[p] = true
	}
	out := &System{Name: s.Name, N: n, A: make([]float64, n*n), B: make([]float64, n)}
	for i, pi := range perm {
		row := s.A[int(pi)*n : int(pi+1)*n]
		dst := out.A[i*n : (i+1)*n]
		for j, pj := range perm {
			dst[j] = row[pj]
		}
		out.B[i] = s.B[pi]
	}
	return out, nil
}
