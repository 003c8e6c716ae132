package matrices

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// ioCOO builds an expected matrix from 1-based triples, the way the files
// in the tests spell them.
func ioCOO(nr, nc int, f Field, s Symmetry, entries ...[2]int) *COO {
	m := &COO{Name: "test", NRows: nr, NCols: nc, Field: f, Symmetry: s, Row: []int32{}, Col: []int32{}}
	for _, e := range entries {
		m.Row = append(m.Row, int32(e[0]-1))
		m.Col = append(m.Col, int32(e[1]-1))
	}
	return m
}

func (m *COO) ioVal(v ...float64) *COO  { m.Val = append([]float64{}, v...); return m }
func (m *COO) ioImag(v ...float64) *COO { m.Imag = append([]float64{}, v...); return m }

// ioEqual compares two matrices exactly, values bit for bit.
func ioEqual(a, b *COO) error {
	if a.NRows != b.NRows || a.NCols != b.NCols || a.Field != b.Field || a.Symmetry != b.Symmetry {
		return fmt.Errorf("got %dx%d %v %v, want %dx%d %v %v", a.NRows, a.NCols, a.Field, a.Symmetry, b.NRows, b.NCols, b.Field, b.Symmetry)
	}
	if !reflect.DeepEqual(a.Row, b.Row) || !reflect.DeepEqual(a.Col, b.Col) {
		return fmt.Errorf("entries: got rows %v cols %v, want rows %v cols %v", a.Row, a.Col, b.Row, b.Col)
	}
	for _, p := range []struct {
		name string
		x, y []float64
	}{{"Val", a.Val, b.Val}, {"Imag", a.Imag, b.Imag}} {
		if (p.x == nil) != (p.y == nil) || len(p.x) != len(p.y) {
			return fmt.Errorf("%s: got %v, want %v", p.name, p.x, p.y)
		}
		for i := range p.x {
			if math.Float64bits(p.x[i]) != math.Float64bits(p.y[i]) {
				return fmt.Errorf("%s[%d]: got %v (%#x), want %v (%#x)", p.name, i, p.x[i], math.Float64bits(p.x[i]), p.y[i], math.Float64bits(p.y[i]))
			}
		}
	}
	return nil
}

// checkRead checks what a reader returned against want: no error, a valid
// matrix, and the expected one bit for bit.
func checkRead(t *testing.T, m *COO, err error, want *COO) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := ioEqual(m, want); err != nil {
		t.Fatal(err)
	}
}

func TestReadMatrixMarket(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *COO
	}{
		{"coordinate real general", "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 4 3\n1 1 1.5\n3 4 -2e3\n% in between\n\n2 1 .25\n",
			ioCOO(3, 4, Real, General, [2]int{1, 1}, [2]int{3, 4}, [2]int{2, 1}).ioVal(1.5, -2000, 0.25)},
		{"coordinate double (as real)", "%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 7\n",
			ioCOO(1, 1, Real, General, [2]int{1, 1}).ioVal(7)},
		{"coordinate integer symmetric", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 4\n3 1 -7\n3 3 +2\n",
			ioCOO(3, 3, Integer, Symmetric, [2]int{1, 1}, [2]int{3, 1}, [2]int{3, 3}).ioVal(4, -7, 2)},
		{"coordinate pattern general", "%%MatrixMarket matrix coordinate pattern general\n2 3 2\n1 3\n2 2\n",
			ioCOO(2, 3, Pattern, General, [2]int{1, 3}, [2]int{2, 2})},
		{"coordinate pattern symmetric", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n",
			ioCOO(2, 2, Pattern, Symmetric, [2]int{1, 1}, [2]int{2, 1})},
		{"coordinate real skew-symmetric", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -1\n",
			ioCOO(3, 3, Real, SkewSymmetric, [2]int{2, 1}, [2]int{3, 2}).ioVal(1.5, -1)},
		{"coordinate integer skew-symmetric", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n",
			ioCOO(2, 2, Integer, SkewSymmetric, [2]int{2, 1}).ioVal(3)},
		{"coordinate complex general", "%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 2 1.5 -2\n2 1 0 1e-3\n",
			ioCOO(2, 2, Complex, General, [2]int{1, 2}, [2]int{2, 1}).ioVal(1.5, 0).ioImag(-2, 0.001)},
		{"coordinate complex symmetric", "%%MatrixMarket matrix coordinate complex symmetric\n2 2 1\n2 1 1 2\n",
			ioCOO(2, 2, Complex, Symmetric, [2]int{2, 1}).ioVal(1).ioImag(2)},
		{"coordinate complex hermitian", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 3 0\n2 1 1 2\n",
			ioCOO(2, 2, Complex, Hermitian, [2]int{1, 1}, [2]int{2, 1}).ioVal(3, 1).ioImag(0, 2)},
		{"coordinate complex skew-symmetric", "%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n2 1 1 2\n",
			ioCOO(2, 2, Complex, SkewSymmetric, [2]int{2, 1}).ioVal(1).ioImag(2)},
		{"array real general", "%%MatrixMarket matrix array real general\n% column-major\n2 3\n1\n2\n3\n4\n5\n0\n",
			ioCOO(2, 3, Real, General, [2]int{1, 1}, [2]int{2, 1}, [2]int{1, 2}, [2]int{2, 2}, [2]int{1, 3}, [2]int{2, 3}).ioVal(1, 2, 3, 4, 5, 0)},
		{"array integer symmetric", "%%MatrixMarket matrix array integer symmetric\n3 3\n1\n2\n3\n4\n5\n6\n",
			ioCOO(3, 3, Integer, Symmetric, [2]int{1, 1}, [2]int{2, 1}, [2]int{3, 1}, [2]int{2, 2}, [2]int{3, 2}, [2]int{3, 3}).ioVal(1, 2, 3, 4, 5, 6)},
		{"array real skew-symmetric", "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n",
			ioCOO(3, 3, Real, SkewSymmetric, [2]int{2, 1}, [2]int{3, 1}, [2]int{3, 2}).ioVal(1, 2, 3)},
		{"array complex hermitian", "%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 3\n4 0\n",
			ioCOO(2, 2, Complex, Hermitian, [2]int{1, 1}, [2]int{2, 1}, [2]int{2, 2}).ioVal(1, 2, 4).ioImag(0, 3, 0)},
		{"array complex general", "%%MatrixMarket matrix array complex general\n1 2\n1 -1\n2 -2\n",
			ioCOO(1, 2, Complex, General, [2]int{1, 1}, [2]int{1, 2}).ioVal(1, 2).ioImag(-1, -2)},
		{"array empty", "%%MatrixMarket matrix array real general\n0 0\n", ioCOO(0, 0, Real, General).ioVal()},
		{"case-insensitive banner, CRLF, tabs", "%%matrixmarket MATRIX Coordinate REAL General\r\n2\t2\t1\r\n\t2  1\t3.0 \r\n",
			ioCOO(2, 2, Real, General, [2]int{2, 1}).ioVal(3)},
		{"no final newline", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1",
			ioCOO(2, 2, Pattern, General, [2]int{2, 1})},
		{"sized, no entries", "%%MatrixMarket matrix coordinate real general\n5 5 0\n", ioCOO(5, 5, Real, General).ioVal()},
		{"Fortran exponent", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1.5D+02\n", ioCOO(1, 1, Real, General, [2]int{1, 1}).ioVal(150)},
		{"byte order mark", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", ioCOO(1, 1, Pattern, General, [2]int{1, 1})},
		{"duplicates kept", "%%MatrixMarket matrix coordinate real general\n1 1 2\n1 1 1\n1 1 2\n", ioCOO(1, 1, Real, General, [2]int{1, 1}, [2]int{1, 1}).ioVal(1, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadMatrixMarket(strings.NewReader(tt.in), "test")
			checkRead(t, m, err, tt.want)
			if m.Name != "test" {
				t.Errorf("Name = %q", m.Name)
			}
		})
	}
}

// ioRandomCOO makes a matrix of the given kind with awkward values: the
// round trip must give back every bit.
func ioRandomCOO(r *rand.Rand, f Field, s Symmetry, n int) *COO {
	m := &COO{Name: "rt", NRows: n, NCols: n, Field: f, Symmetry: s, Row: []int32{}, Col: []int32{}}
	if s == General {
		m.NCols = n + 3
	}
	special := []float64{0, math.Copysign(0, -1), 0.1, 1.0 / 3, math.MaxFloat64, -math.SmallestNonzeroFloat64,
		2.2250738585072014e-308, 1e22, 1e23, 123456789012345678, math.Pi, -math.E, 5e-324, 1 << 53, 1<<53 + 2}
	if f != Pattern {
		m.Val = []float64{}
	}
	if f == Complex {
		m.Imag = []float64{}
	}
	for k := 0; k < 60 && n > 0; k++ {
		i, j := int32(r.IntN(m.NRows)), int32(r.IntN(m.NCols))
		if s != General && i < j {
			i, j = j, i
		}
		if s == SkewSymmetric && i == j {
			continue
		}
		m.Row = append(m.Row, i)
		m.Col = append(m.Col, j)
		val := func() float64 {
			if f == Integer {
				return float64(r.IntN(2000001) - 1000000)
			}
			if k < len(special) && r.IntN(2) == 0 {
				return special[k]
			}
			return math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.IntN(2046))<<52) // finite
		}
		if f != Pattern {
			m.Val = append(m.Val, val())
		}
		if f == Complex {
			m.Imag = append(m.Imag, val())
		}
	}
	return m
}

func TestMatrixMarketRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range []Field{Real, Integer, Complex, Pattern} {
		for _, s := range []Symmetry{General, Symmetric, SkewSymmetric, Hermitian} {
			if (s == Hermitian && f != Complex) || (s == SkewSymmetric && f == Pattern) {
				continue // not allowed by the format
			}
			t.Run(f.String()+"/"+s.String(), func(t *testing.T) {
				for _, n := range []int{0, 1, 7} {
					want := ioRandomCOO(r, f, s, n)
					if want.NRows == 0 && s != General {
						continue
					}
					var buf bytes.Buffer
					if err := WriteMatrixMarket(&buf, want); err != nil {
						t.Fatal(err)
					}
					got, err := ReadMatrixMarket(&buf, "rt")
					if err != nil {
						t.Fatal(err)
					}
					if err := ioEqual(got, want); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

func TestWriteMatrixMarketMirrorsUpperTriangle(t *testing.T) {
	m := ioCOO(2, 2, Complex, Hermitian, [2]int{1, 2}).ioVal(1).ioImag(2)
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, m); err != nil {
		t.Fatal(err)
	}
	want := "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 -2\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	m = ioCOO(2, 2, Real, SkewSymmetric, [2]int{1, 2}).ioVal(1.5)
	buf.Reset()
	if err := WriteMatrixMarket(&buf, m); err != nil {
		t.Fatal(err)
	}
	if want := "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 -1.5\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

func TestWriteMatrixMarketErrors(t *testing.T) {
	tests := []struct {
		name string
		m    *COO
		want string
	}{
		{"index out of range", ioCOO(2, 2, Pattern, General, [2]int{3, 1}), "outside"},
		{"real without values", ioCOO(2, 2, Real, General, [2]int{1, 1}), "needs values"},
		{"complex without imaginary", ioCOO(2, 2, Complex, General, [2]int{1, 1}).ioVal(1), "imaginary"},
		{"rectangular symmetric", ioCOO(2, 3, Real, Symmetric).ioVal(), "square"},
		{"skew diagonal", ioCOO(2, 2, Real, SkewSymmetric, [2]int{1, 1}).ioVal(1), "diagonal"},
		{"non-integer integer", ioCOO(2, 2, Integer, General, [2]int{1, 1}).ioVal(1.5), "not an integer"},
		{"NaN", ioCOO(2, 2, Real, General, [2]int{1, 1}).ioVal(math.NaN()), "NaN"},
		{"real hermitian", ioCOO(2, 2, Real, Hermitian).ioVal(), "hermitian"},
	}
	for _, tt := range tests {
		err := WriteMatrixMarket(&bytes.Buffer{}, tt.m)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", tt.name, err, tt.want)
		}
	}
}

// ioMMErrorCases are malformed Matrix Market inputs, with the line the
// error must name and a piece of its message.
var ioMMErrorCases = []struct {
	name string
	in   string
	line int
	want string
}{
	{"empty file", "", 1, "got an empty file"},
	{"bad banner", "%%MatrixMarkt matrix coordinate real general\n1 1 1\n1 1 1\n", 1, "expected the Matrix Market banner"},
	{"not a banner", "1 1 1\n1 1 1\n", 1, "expected the Matrix Market banner"},
	{"short banner", "%%MatrixMarket matrix coordinate real\n1 1 1\n", 1, "expected 5 words"},
	{"long banner", "%%MatrixMarket matrix coordinate real general extra\n1 1 1\n", 1, "expected 5 words"},
	{"unknown object", "%%MatrixMarket vector coordinate real general\n1 1 1\n", 1, `object "matrix"`},
	{"unknown format", "%%MatrixMarket matrix sparse real general\n1 1 1\n", 1, `"coordinate" or "array"`},
	{"unknown field", "%%MatrixMarket matrix coordinate float general\n1 1 1\n", 1, "expected field"},
	{"unknown symmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 1\n", 1, "expected symmetry"},
	{"array pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", 1, "array matrix"},
	{"real hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1, "hermitian"},
	{"skew-symmetric pattern", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n1 1 0\n", 1, "skew-symmetric"},
	{"missing size line", "%%MatrixMarket matrix coordinate real general\n% only comments\n\n", 4, "expected the size line, got end of file"},
	{"size line too short", "%%MatrixMarket matrix coordinate real general\n2 2\n", 2, "expected the size line"},
	{"size line too long", "%%MatrixMarket matrix array real general\n2 2 4\n", 2, "expected the size line"},
	{"negative rows", "%%MatrixMarket matrix coordinate real general\n-2 2 1\n1 1 1\n", 2, `got "-2"`},
	{"rows above int32", "%%MatrixMarket matrix coordinate real general\n3000000000 2 1\n1 1 1\n", 2, "at most 2147483647"},
	{"columns huge", "%%MatrixMarket matrix coordinate real general\n2 99999999999999999999999 1\n1 1 1\n", 2, "at most 2147483647"},
	{"non-numeric entry count", "%%MatrixMarket matrix coordinate real general\n2 2 x\n", 2, "number of entries"},
	{"rectangular symmetric", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", 2, "square"},
	{"truncated", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 2\n", 5, "expected 3 entries as the size line (line 2) says, got 2: the file is truncated"},
	{"too many entries", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n", 4, "got more"},
	{"row index 0", "%%MatrixMarket matrix coordinate real general\n2 2 1\n0 1 1\n", 3, `expected a row index from 1 to 2, got "0"`},
	{"row index too large", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", 3, "row index from 1 to 2"},
	{"column index too large", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n1 3\n", 4, "column index from 1 to 2"},
	{"non-numeric index", "%%MatrixMarket matrix coordinate real general\n2 2 1\na 1 1\n", 3, `got "a"`},
	{"negative index", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 -1 1\n", 3, `got "-1"`},
	{"missing column", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1\n", 3, "got end of line"},
	{"non-numeric value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n", 3, `expected the value (a real number), got "abc"`},
	{"NaN value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 NaN\n", 3, "finite value"},
	{"Inf value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 -inf\n", 3, "finite value"},
	{"value out of range", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e400\n", 3, "finite value"},
	{"digit separators", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1_000\n", 3, "(a real number)"},
	{"pattern with value", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 5\n", 3, "a pattern matrix has no values"},
	{"real without value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n", 3, "expected the value (a real number), got end of line"},
	{"extra token", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 2\n", 3, "expected end of line after the value"},
	{"fractional integer", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "(an integer)"},
	{"complex without imaginary part", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1\n", 3, "imaginary part"},
	{"complex NaN imaginary part", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 nan\n", 3, "finite imaginary part"},
	{"symmetric above diagonal", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n1 2 1\n", 4, "on or below the diagonal"},
	{"hermitian above diagonal", "%%MatrixMarket matrix coordinate complex hermitian\n3 3 1\n1 2 1 1\n", 3, "on or below the diagonal"},
	{"skew-symmetric diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3, "no diagonal entry"},
	{"skew-symmetric above diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 3 1\n", 3, "below the diagonal"},
	{"array truncated", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 6, "expected 4 entries"},
	{"array too many", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6, "got more"},
	{"array two values on a line", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3, "end of line"},
}

// checkReadError runs a reader on a malformed input and checks that the
// error names the file and the line and says what was expected.
func checkReadError(t *testing.T, file string, line int, want string, read func() (*COO, error)) {
	t.Helper()
	m, err := read()
	if err == nil {
		t.Fatalf("no error; read %d x %d with %d entries", m.NRows, m.NCols, m.NNZ())
	}
	prefix := fmt.Sprintf("reading %s line %d: ", file, line)
	if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), want) {
		t.Errorf("got %q, want %q...%q", err, prefix, want)
	}
	t.Logf("%s", err)
}

func TestReadMatrixMarketErrors(t *testing.T) {
	for _, tt := range ioMMErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			checkReadError(t, "bad.mtx", tt.line, tt.want, func() (*COO, error) {
				return ReadMatrixMarket(strings.NewReader(tt.in), "bad.mtx")
			})
		})
	}
}

// A lying size line must not make the reader allocate for it.
func TestReadMatrixMarketHugeHeader(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 4000000000000000000\n1 1 1\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadMatrixMarket(strings.NewReader(in), "huge")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("got %v, want a truncation error", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("allocated %d bytes for a 3-line file", grew)
	}
	// Unknown input size (a plain io.Reader): bounded by a fixed cap.
	runtime.ReadMemStats(&before)
	_, err = ReadMatrixMarket(struct{ *strings.Reader }{strings.NewReader(in)}, "huge")
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("no error")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 128<<20 {
		t.Errorf("allocated %d bytes for a 3-line file of unknown size", grew)
	}
}

// Long lines (and a buffer that must grow) are read whole.
func TestReadMatrixMarketLongComment(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate pattern general\n%" + strings.Repeat("x", 3*lineBufSize) + "\n1 1 1\n1 1\n"
	m, err := ReadMatrixMarket(strings.NewReader(in), "long")
	if err != nil || m.NNZ() != 1 {
		t.Fatalf("got %v, %v", m, err)
	}
}

// Readers that return a byte at a time exercise every buffer boundary.
func TestReadMatrixMarketOneByteReads(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate real general\r\n3 3 2\r\n1 1 1.25\r\n3 2 -4\r\n"
	m, err := ReadMatrixMarket(&ioOneByteReader{r: strings.NewReader(in)}, "slow")
	if err != nil {
		t.Fatal(err)
	}
	want := ioCOO(3, 3, Real, General, [2]int{1, 1}, [2]int{3, 2}).ioVal(1.25, -4)
	if err := ioEqual(m, want); err != nil {
		t.Fatal(err)
	}
}

type ioOneByteReader struct {
	r     *strings.Reader
	empty bool
}

func (o *ioOneByteReader) Read(p []byte) (int, error) {
	// Alternate empty and one-byte reads, as io.Reader allows.
	if o.empty = !o.empty; o.empty || len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

func TestParseFloat(t *testing.T) {
	cases := []string{"0", "-0", "+0", "1", "-1", "1.5", ".5", "5.", "1e5", "1E-5", "1e+22", "1e23", "9007199254740993",
		"9007199254740992", "123456789012345678901234567890", "0.1", "0.30000000000000004", "1.7976931348623157e308",
		"4.9e-324", "2.2250738585072011e-308", "1e-400", "0.000000000000000000000000000001", "12345678e30",
		"7.5000000000000e+07", "-9.4810113490000e+02", "100000000000000000000000", "0.0000", "00012", "1.5e-22", "3e37",
		"1.0000000000000002", "123.456e-3", "8.98846567431158e307", "1e", "e5", ".", "-", "+", "1.2.3", "1e+", "0x1p-2",
		"inf", "-Inf", "NaN", "1_0", "1D3", "1d-3", "abc", "", "--1", "1e99999999999", "1e-99999999999"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		x := math.Float64frombits(r.Uint64())
		for _, f := range []byte{'g', 'e', 'f'} {
			prec := r.IntN(19) - 1
			cases = append(cases, strconv.FormatFloat(x, f, prec, 64))
		}
	}
	for range 20000 {
		// Long mantissas over the whole exponent range: the Eisel-Lemire
		// path, its fallbacks, subnormals and overflow.
		d := strconv.FormatUint(r.Uint64()>>r.IntN(40), 10)
		cases = append(cases, d+"e"+strconv.Itoa(r.IntN(700)-350), d[:1]+"."+d[1:]+"e"+strconv.Itoa(r.IntN(620)-310))
	}
	for _, s := range cases {
		got, ok := parseFloat([]byte(s))
		want, err := strconv.ParseFloat(strings.NewReplacer("d", "e", "D", "e").Replace(s), 64)
		wantOK := err == nil || strings.Contains(err.Error(), "out of range")
		if strings.Contains(s, "_") {
			wantOK = false
		}
		if ok != wantOK || (ok && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want))) {
			t.Errorf("parseFloat(%q) = %v, %v; want %v, %v", s, got, ok, want, wantOK)
		}
	}
}

// The exponent formula of eiselLemire must be floor(log2(10^q)) over the
// whole table, and every table entry must be normalized.
func TestPow5Table(t *testing.T) {
	for q := pow10MinExp; q <= pow10MaxExp; q++ {
		p := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(max(q, -q))), nil)
		want := q + p.BitLen() - 1 // floor(log2(5^q 2^q)) for q >= 0
		if q < 0 {
			want = q - p.BitLen()
		}
		if got := (217706 * q) >> 16; got != want {
			t.Errorf("q=%d: exponent %d, want %d", q, got, want)
		}
		if hi := pow5Table()[q-pow10MinExp][0]; hi>>63 != 1 {
			t.Errorf("q=%d: entry %#x not normalized", q, hi)
		}
	}
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1.5", "-0", "1e22", "123456789012345678", ".5e-300", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "_dD") {
			return
		}
		got, ok := parseFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		wantOK := err == nil || strings.Contains(err.Error(), "out of range")
		if ok != wantOK || (ok && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want))) {
			t.Errorf("parseFloat(%q) = %v, %v; want %v, %v", s, got, ok, want, wantOK)
		}
	})
}

// fuzzRead checks what a reader made of a fuzzed input: an error must name
// the line, a matrix must be valid. It reports whether there is a matrix.
func fuzzRead(t *testing.T, m *COO, err error) bool {
	t.Helper()
	if err != nil {
		if !strings.HasPrefix(err.Error(), "reading fuzz line ") {
			t.Fatalf("error without file and line: %v", err)
		}
		return false
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("read an invalid matrix: %v", err)
	}
	return true
}

func FuzzReadMatrixMarket(f *testing.F) {
	f.Add("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n")
	f.Add("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 3 0\n2 1 1 2\n")
	f.Add("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n")
	for _, tt := range ioMMErrorCases {
		f.Add(tt.in)
	}
	for _, tt := range hostileInputs {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var m *COO
		var err error
		checkMemory(t, len(in), func() { m, err = ReadMatrixMarket(strings.NewReader(in), "fuzz") })
		if !fuzzRead(t, m, err) {
			return
		}
		if m.Symmetry != General && m.NRows != m.NCols {
			t.Fatalf("%v matrix is %d x %d", m.Symmetry, m.NRows, m.NCols)
		}
		// What was read writes and reads back the same.
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		m2, err := ReadMatrixMarket(&buf, "fuzz")
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, buf.String())
		}
		if err := ioEqual(m2, m); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// ioGenMM writes a coordinate real general matrix with nnz entries whose
// values are formatted by format.
func ioGenMM(nnz int, n int, format func([]byte, float64) []byte) []byte {
	r := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 0, nnz*40)
	buf = fmt.Appendf(buf, "%%%%MatrixMarket matrix coordinate real general\n%% generated\n%d %d %d\n", n, n, nnz)
	for range nnz {
		buf = strconv.AppendInt(buf, int64(r.IntN(n)+1), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(r.IntN(n)+1), 10)
		buf = append(buf, ' ')
		buf = format(buf, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(20)-10)))
		buf = append(buf, '\n')
	}
	return buf
}

// BenchmarkReadMatrixMarket reads about 80 MB of Matrix Market text from
// memory. "suitesparse" writes values as the SuiteSparse collection does
// (%.13e, the fast path); "17digits" as WriteMatrixMarket does (%.17g,
// every value through strconv).
func BenchmarkReadMatrixMarket(b *testing.B) {
	for _, c := range []struct {
		name   string
		format func([]byte, float64) []byte
	}{
		{"suitesparse", func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'e', 13, 64) }},
		{"17digits", func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', 17, 64) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := ioGenMM(2_000_000, 1_000_000, c.format)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs() // B/op: all the reader allocates, its peak too (nothing is freed midway)
			for b.Loop() {
				if _, err := ReadMatrixMarket(bytes.NewReader(data), "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
