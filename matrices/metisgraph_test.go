package matrices

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

func TestReadMETISGraph(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *COO
	}{
		{"plain", "% comment\n4 3\n2 3\n1\n1 4\n3\n",
			ioCOO(4, 4, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 1}, [2]int{4, 3})},
		{"isolated vertex is a blank line", "3 1\n3\n\n1\n", ioCOO(3, 3, Pattern, Symmetric, [2]int{3, 1})},
		{"comments between vertex lines, trailing spaces, CRLF", "3 2\r\n 2 3 \r\n% c\r\n1\r\n1\r\n\r\n",
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 1})},
		{"edge weights", "3 2 1\n2 5 3 7\n1 5\n1 7\n",
			ioCOO(3, 3, Integer, Symmetric, [2]int{2, 1}, [2]int{3, 1}).ioVal(5, 7)},
		{"fmt 001", "2 1 001\n2 4\n1 4\n", ioCOO(2, 2, Integer, Symmetric, [2]int{2, 1}).ioVal(4)},
		{"vertex weights skipped", "3 2 10\n9 2 3\n8 1\n7 1\n",
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 1})},
		{"vertex weights, ncon 2, edge weights", "2 1 11 2\n9 9 2 3\n8 8 1 3\n",
			ioCOO(2, 2, Integer, Symmetric, [2]int{2, 1}).ioVal(3)},
		{"vertex sizes, weights, edge weights", "2 1 111\n5 9 2 3\n6 8 1 3\n",
			ioCOO(2, 2, Integer, Symmetric, [2]int{2, 1}).ioVal(3)},
		{"fmt 100", "2 1 100\n5 2\n6 1\n", ioCOO(2, 2, Pattern, Symmetric, [2]int{2, 1})},
		{"no vertices", "0 0\n", ioCOO(0, 0, Pattern, Symmetric)},
		{"no edges", "2 0\n\n\n", ioCOO(2, 2, Pattern, Symmetric)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadMETISGraph(strings.NewReader(tt.in), "test")
			checkRead(t, m, err, tt.want)
		})
	}
}

var ioMETISErrorCases = []struct {
	name string
	in   string
	line int
	want string
}{
	{"empty file", "", 1, "got an empty file"},
	{"header with one number", "% c\n4\n", 2, `expected the METIS header "n m [fmt [ncon]]", got "4"`},
	{"header with five words", "2 1 0 1 7\n2\n1\n", 1, "expected the METIS header"},
	{"non-numeric vertex count", "x 1\n", 1, "number of vertices"},
	{"negative edge count", "2 -1\n", 1, "number of edges"},
	{"bad fmt", "2 1 2\n2\n1\n", 1, "expected fmt"},
	{"bad ncon", "2 1 10 0\n1 2\n1 1\n", 1, "expected ncon"},
	{"truncated", "3 2\n2 3\n1\n", 4, "expected 3 vertex lines as the header (line 1) says, got 2: the file is truncated"},
	{"neighbour 0", "2 1\n0\n1\n", 2, `expected a neighbour of vertex 1 (an id from 1 to 2), got "0"`},
	{"neighbour beyond n", "2 1\n2\n3\n", 3, `got "3"`},
	{"non-numeric neighbour", "2 1\n2\nb\n", 3, `got "b"`},
	{"self-loop", "2 1\n1 2\n1\n", 2, "vertex 1 listing itself"},
	{"repeated neighbour", "2 1\n2 2\n1 1\n", 2, "vertex 1 listing 2 twice"},
	{"asymmetric", "3 1\n2\n\n1\n", 4, "expected a symmetric adjacency, got vertex 3 listing 1 while vertex 1 (line 2) does not list 3"},
	{"asymmetric weights", "2 1 1\n2 5\n1 6\n", 3, "expected the same weight at both ends of edge 2-1"},
	{"missing edge weight", "2 1 1\n2 5\n1\n", 3, "expected the weight of the edge 2-1"},
	{"fractional edge weight", "2 1 1\n2 5\n1 1.5\n", 3, `(a non-negative integer), got "1.5"`},
	{"missing vertex weight", "2 1 10\n\n1 1\n", 2, "expected a vertex weight (a non-negative integer) for vertex 1, got end of line"},
	{"edge count mismatch", "3 3\n2 3\n1\n1\n", 1, "expected 3 edges as the header says, got 2"},
	{"extra lines", "2 1\n2\n1\n1\n", 4, "expected end of file after the 2 vertex lines"},
}

func TestReadMETISGraphErrors(t *testing.T) {
	for _, tt := range ioMETISErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			checkReadError(t, "bad.graph", tt.line, tt.want, func() (*COO, error) {
				return ReadMETISGraph(strings.NewReader(tt.in), "bad.graph")
			})
		})
	}
}

// A header announcing billions of vertices must not allocate for them
// before the lines are there.
func TestReadMETISGraphHugeHeader(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadMETISGraph(strings.NewReader("2000000000 4000000000\n2 3\n1\n"), "huge")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("got %v, want a truncation error", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes", grew)
	}
}

func TestWriteMETISGraph(t *testing.T) {
	// A general matrix with a diagonal, both triangles and a duplicate.
	m := ioCOO(4, 4, Real, General, [2]int{1, 1}, [2]int{1, 2}, [2]int{2, 1}, [2]int{4, 2}, [2]int{2, 4}, [2]int{3, 1}).ioVal(1, 2, 3, 4, 5, 6)
	var buf bytes.Buffer
	if err := WriteMETISGraph(&buf, m); err != nil {
		t.Fatal(err)
	}
	if want := "4 3\n2 3\n1 4\n1\n2\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if err := WriteMETISGraph(&buf, ioCOO(2, 3, Pattern, General)); err == nil || !strings.Contains(err.Error(), "square") {
		t.Errorf("rectangular: got %v", err)
	}
}

// Writing then reading gives the symmetrized, loop-free pattern, each edge
// once in the lower triangle.
func TestMETISGraphRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 2, 10, 200} {
		m := &COO{Name: "rt", NRows: n, NCols: n, Field: Pattern, Symmetry: General}
		want := make(map[[2]int32]bool)
		for range n * 3 {
			i, j := int32(r.IntN(n)), int32(r.IntN(n))
			m.Row = append(m.Row, i)
			m.Col = append(m.Col, j)
			if i != j {
				want[[2]int32{max(i, j), min(i, j)}] = true
			}
		}
		var buf bytes.Buffer
		if err := WriteMETISGraph(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMETISGraph(&buf, "rt")
		if err != nil {
			t.Fatal(err)
		}
		if got.NRows != n || got.Symmetry != Symmetric || got.Field != Pattern || got.NNZ() != len(want) {
			t.Fatalf("n=%d: got %d x %d %v %v with %d entries, want %d", n, got.NRows, got.NCols, got.Symmetry, got.Field, got.NNZ(), len(want))
		}
		for e := range got.Row {
			if !want[[2]int32{got.Row[e], got.Col[e]}] {
				t.Fatalf("n=%d: unexpected entry (%d,%d)", n, got.Row[e], got.Col[e])
			}
		}
		// And a second write gives the same text.
		var again bytes.Buffer
		if err := WriteMETISGraph(&again, got); err != nil {
			t.Fatal(err)
		}
		var first bytes.Buffer
		WriteMETISGraph(&first, m)
		if first.String() != again.String() {
			t.Fatalf("n=%d: rewriting changed the file", n)
		}
	}
}

func FuzzReadMETISGraph(f *testing.F) {
	f.Add("4 3\n2 3\n1\n1 4\n3\n")
	f.Add("3 2 1\n2 5 3 7\n1 5\n1 7\n")
	f.Add("2 1 111\n5 9 2 3\n6 8 1 3\n")
	for _, tt := range ioMETISErrorCases {
		f.Add(tt.in)
	}
	for _, tt := range hostileInputs {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var m *COO
		var err error
		checkMemory(t, len(in), func() { m, err = ReadMETISGraph(strings.NewReader(in), "fuzz") })
		if !fuzzRead(t, m, err) {
			return
		}
		for e := range m.Row {
			if m.Row[e] <= m.Col[e] {
				t.Fatalf("entry (%d,%d) not strictly below the diagonal", m.Row[e], m.Col[e])
			}
		}
		// What was read writes and reads back to the same structure.
		var buf bytes.Buffer
		if err := WriteMETISGraph(&buf, m); err != nil {
			t.Fatal(err)
		}
		m2, err := ReadMETISGraph(&buf, "fuzz")
		if err != nil {
			t.Fatalf("reading what was written: %v", err)
		}
		if m2.NNZ() != m.NNZ() || m2.NRows != m.NRows {
			t.Fatalf("round trip: %d entries, want %d", m2.NNZ(), m.NNZ())
		}
	})
}

// BenchmarkReadMETISGraph reads a METIS graph of about 40 MB.
func BenchmarkReadMETISGraph(b *testing.B) {
	r := rand.New(rand.NewPCG(15, 16))
	const n = 1 << 20
	m := &COO{NRows: n, NCols: n, Field: Pattern}
	for range 2_500_000 {
		m.Row = append(m.Row, int32(r.IntN(n)))
		m.Col = append(m.Col, int32(r.IntN(n)))
	}
	var buf bytes.Buffer
	if err := WriteMETISGraph(&buf, m); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadMETISGraph(bytes.NewReader(data), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
