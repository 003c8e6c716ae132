package matrices

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestReadEdgeList(t *testing.T) {
	dir := EdgeListOptions{Directed: true}
	tests := []struct {
		name string
		in   string
		opt  EdgeListOptions
		want *COO
	}{
		{"0-based undirected to lower triangle", "# comment\n0 1\n2 1\n1 1\n", EdgeListOptions{},
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 2}, [2]int{2, 2})},
		{"1-based detected", "% comment\n1 2\n3 2\n", EdgeListOptions{},
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 2})},
		{"directed keeps orientation", "1 2\n3 2\n", dir,
			ioCOO(3, 3, Pattern, General, [2]int{1, 2}, [2]int{3, 2})},
		{"undirected duplicates both ways", "0 1\n1 0\n0 1\n2 0\n", EdgeListOptions{},
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1}, [2]int{3, 1})},
		{"directed duplicates", "0 1\n1 0\n0 1\n", dir,
			ioCOO(2, 2, Pattern, General, [2]int{1, 2}, [2]int{2, 1})},
		{"weights, first kept", "0 1 2.5\n1 0 7\n2 2 -1\n", EdgeListOptions{},
			ioCOO(3, 3, Real, Symmetric, [2]int{2, 1}, [2]int{3, 3}).ioVal(2.5, -1)},
		{"tabs, CRLF, blank lines, commas", "#a\r\n\r\n0\t1\r\n  2 ,\t3  \r\n\n", EdgeListOptions{},
			ioCOO(4, 4, Pattern, Symmetric, [2]int{2, 1}, [2]int{4, 3})},
		{"header detected by count", "4 2\n0 1\n2 3\n", EdgeListOptions{},
			ioCOO(4, 4, Pattern, Symmetric, [2]int{2, 1}, [2]int{4, 3})},
		{"header detected, 1-based, isolated vertex", "5 2\n1 2\n3 4\n", EdgeListOptions{},
			ioCOO(5, 5, Pattern, Symmetric, [2]int{2, 1}, [2]int{4, 3})},
		{"header counts both directions", "3 1\n0 1\n1 0\n", EdgeListOptions{},
			ioCOO(3, 3, Pattern, Symmetric, [2]int{2, 1})},
		{"header detected by weights", "9 99\n0 1 1.5\n", EdgeListOptions{},
			ioCOO(9, 9, Real, Symmetric, [2]int{2, 1}).ioVal(1.5)},
		{"count mismatch: first line is an edge", "4 3\n0 1\n2 3\n", EdgeListOptions{},
			ioCOO(5, 5, Pattern, Symmetric, [2]int{5, 4}, [2]int{2, 1}, [2]int{4, 3})},
		{"ids beyond n: first line is an edge", "2 2\n0 1\n2 3\n", EdgeListOptions{},
			ioCOO(4, 4, Pattern, Symmetric, [2]int{3, 3}, [2]int{2, 1}, [2]int{4, 3})},
		{"header forced off", "4 2\n0 1\n2 3\n", EdgeListOptions{Header: HeaderNo},
			ioCOO(5, 5, Pattern, Symmetric, [2]int{5, 3}, [2]int{2, 1}, [2]int{4, 3})},
		{"header forced on", "10 7\n0 1\n", EdgeListOptions{Header: HeaderYes},
			ioCOO(10, 10, Pattern, Symmetric, [2]int{2, 1})},
		{"header only", "6 0\n", EdgeListOptions{Header: HeaderYes}, ioCOO(6, 6, Pattern, Symmetric)},
		{"single line is an edge", "3 4\n", EdgeListOptions{},
			ioCOO(4, 4, Pattern, Symmetric, [2]int{4, 3})},
		{"base forced to 0", "1 2\n", EdgeListOptions{Base: ZeroBased},
			ioCOO(3, 3, Pattern, Symmetric, [2]int{3, 2})},
		{"base forced to 1", "1 2\n", EdgeListOptions{Base: OneBased},
			ioCOO(2, 2, Pattern, Symmetric, [2]int{2, 1})},
		{"no final newline", "0 1", EdgeListOptions{}, ioCOO(2, 2, Pattern, Symmetric, [2]int{2, 1})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadEdgeList(strings.NewReader(tt.in), "test", tt.opt)
			checkRead(t, m, err, tt.want)
		})
	}
}

var ioEdgeListErrorCases = []struct {
	name string
	in   string
	opt  EdgeListOptions
	line int
	want string
}{
	{"empty file", "", EdgeListOptions{}, 1, "expected at least one edge"},
	{"only comments", "# a\n% b\n\n", EdgeListOptions{}, 4, "got none"},
	{"one column", "0 1\n2\n", EdgeListOptions{}, 2, "got one column"},
	{"four columns", "0 1 1 5\n", EdgeListOptions{}, 1, "more than 3 columns"},
	{"non-numeric id", "0 1\nx 2\n", EdgeListOptions{}, 2, `expected a vertex id (a non-negative integer), got "x"`},
	{"negative id", "0 1\n1 -2\n", EdgeListOptions{}, 2, `got "-2"`},
	{"fractional id", "0 1.5\n", EdgeListOptions{}, 1, `got "1.5"`},
	{"id above int32", "0 1\n0 2147483648\n", EdgeListOptions{}, 2, "up to 2147483647"},
	{"first-line id above int32", "0 99999999999\n1 2\n", EdgeListOptions{}, 1, "up to 2147483647"},
	{"mixed columns", "0 1 1\n1 2\n", EdgeListOptions{}, 2, "expected 3 columns like line 1, got 2"},
	{"mixed columns after an edge", "0 1\n1 2\n2 3 1\n", EdgeListOptions{}, 3, "expected 2 columns like line 2, got 3"},
	{"weights after a first edge without", "0 1\n1 2 1\n2 3 1\n", EdgeListOptions{Header: HeaderNo}, 2, "expected 2 columns like line 1"},
	{"non-numeric weight", "0 1 x\n", EdgeListOptions{}, 1, `expected a weight (a real number) in the third column, got "x"`},
	{"NaN weight", "0 1 1\n1 2 nan\n", EdgeListOptions{}, 2, "finite weight"},
	{"id 0 in a 1-based list", "1 2\n\n0 1\n", EdgeListOptions{Base: OneBased}, 3, "expected vertex ids from 1"},
	{"forced header with 3 columns", "0 1 1\n", EdgeListOptions{Header: HeaderYes}, 1, `expected a header line "n m"`},
	{"forced header too small", "2 1\n0 5\n", EdgeListOptions{Header: HeaderYes}, 2, "below 2 (n = 2 from the header on line 1)"},
	{"header n above int32", "3000000000 1\n0 1 2\n", EdgeListOptions{}, 1, "at most 2147483647"},
}

func TestReadEdgeListErrors(t *testing.T) {
	for _, tt := range ioEdgeListErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			checkReadError(t, "bad.txt", tt.line, tt.want, func() (*COO, error) {
				return ReadEdgeList(strings.NewReader(tt.in), "bad.txt", tt.opt)
			})
		})
	}
}

func FuzzReadEdgeList(f *testing.F) {
	f.Add("# c\n0 1\n1 2\n", uint8(0))
	f.Add("4 2\n1 2 0.5\n3 4 1\n", uint8(1))
	f.Add("3 1\n0 1\n1 0\n", uint8(2))
	for i, tt := range ioEdgeListErrorCases {
		f.Add(tt.in, uint8(i))
	}
	for i, tt := range hostileInputs {
		f.Add(tt.in, uint8(i))
	}
	f.Fuzz(func(t *testing.T, in string, o uint8) {
		opt := EdgeListOptions{Directed: o&1 != 0, Header: HeaderMode(o >> 1 % 3), Base: IDBase(o >> 3 % 3)}
		var m *COO
		var err error
		checkMemory(t, len(in), func() { m, err = ReadEdgeList(strings.NewReader(in), "fuzz", opt) })
		if !fuzzRead(t, m, err) {
			return
		}
		if m.NRows != m.NCols {
			t.Fatalf("%d x %d", m.NRows, m.NCols)
		}
		seen := make(map[[2]int32]bool)
		for e := range m.Row {
			p := [2]int32{m.Row[e], m.Col[e]}
			if seen[p] {
				t.Fatalf("duplicate entry %v", p)
			}
			seen[p] = true
			if !opt.Directed && p[0] < p[1] {
				t.Fatalf("undirected entry %v above the diagonal", p)
			}
		}
	})
}

// Both ways of finding repeated entries agree, on random lists with many
// repeats.
func TestDedupeSortMatchesRows(t *testing.T) {
	t.Run("serial", func(t *testing.T) { checkDedupeSortMatchesRows(t) })
	t.Run("parallel", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
		defer func(n int64) { parallelMinEntries = n }(parallelMinEntries)
		parallelMinEntries = 0
		checkDedupeSortMatchesRows(t)
	})
}

func checkDedupeSortMatchesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 3, 50, 1000} {
		a := &COO{NRows: n, NCols: n}
		for range 4000 {
			a.Row = append(a.Row, int32(r.IntN(n)))
			a.Col = append(a.Col, int32(r.IntN(n)))
			a.Val = append(a.Val, float64(len(a.Val)))
		}
		b := &COO{NRows: n, NCols: n, Row: slices.Clone(a.Row), Col: slices.Clone(a.Col), Val: slices.Clone(a.Val)}
		x, y := dupByRows(a), dupBySort(b)
		if !slices.Equal(x, y) {
			t.Fatalf("n=%d: dupByRows and dupBySort differ", n)
		}
		if err := dedupe(a); err != nil {
			t.Fatal(err)
		}
		seen := map[[2]int32]bool{}
		for e := range a.Row {
			p := [2]int32{a.Row[e], a.Col[e]}
			if seen[p] || (e > 0 && a.Val[e] <= a.Val[e-1]) {
				t.Fatalf("n=%d: entry %d repeated or out of order", n, e)
			}
			seen[p] = true
		}
	}
}

// Huge ids in a tiny file are refused by default and, once allowed, still
// do not make the reader allocate per vertex.
func TestReadEdgeListHugeIDs(t *testing.T) {
	in := "0 2000000000\n2000000000 0\n"
	_, err := ReadEdgeList(strings.NewReader(in), "huge", EdgeListOptions{})
	if err == nil || !strings.Contains(err.Error(), "--max-dimension 2000000001") {
		t.Fatalf("got %v, want a refusal naming --max-dimension", err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := Read(strings.NewReader(in), "huge", ReadOptions{Format: FormatEdgeList, MaxDimension: 2000000001})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if m.NRows != 2000000001 || m.NNZ() != 1 || m.Duplicates != 1 {
		t.Fatalf("got %d x %d with %d entries, %d duplicates", m.NRows, m.NCols, m.NNZ(), m.Duplicates)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes", grew)
	}
}

// BenchmarkReadEdgeList reads about 40 MB of SNAP-style edge list (tab
// separated, 0-based, undirected, every edge listed both ways).
func BenchmarkReadEdgeList(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	const n, m = 1 << 20, 1_600_000
	buf := []byte("# Nodes: 1048576\n# FromNodeId\tToNodeId\n")
	for range m {
		u, v := r.IntN(n), r.IntN(n)
		buf = fmt.Appendf(buf, "%d\t%d\n%d\t%d\n", u, v, v, u)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadEdgeList(bytes.NewReader(buf), "bench", EdgeListOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
