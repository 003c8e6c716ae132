package matrices

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// readBoth reads in one line at a time and in parallel, in chunks of chunk
// bytes on at least two workers; oneByte feeds the parallel reader a byte
// a read.
func readBoth(t testing.TB, in string, chunk int, oneByte bool) (serial, parallel *COO, serr, perr error) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer func(n int64, c int) { parallelMinEntries, mmChunkBytes = n, c }(parallelMinEntries, mmChunkBytes)
	parallelMinEntries = math.MaxInt64
	serial, serr = ReadMatrixMarket(strings.NewReader(in), "x.mtx")
	parallelMinEntries, mmChunkBytes = 0, chunk
	if oneByte {
		parallel, perr = ReadMatrixMarket(&ioOneByteReader{r: strings.NewReader(in)}, "x.mtx")
	} else {
		parallel, perr = ReadMatrixMarket(strings.NewReader(in), "x.mtx")
	}
	return serial, parallel, serr, perr
}

// checkSame fails unless the two reads gave the same matrix (entries in
// the same order, values bit for bit, the same duplicates) or the same
// error.
func checkSame(t testing.TB, label string, serial, parallel *COO, serr, perr error) {
	t.Helper()
	switch {
	case (serr == nil) != (perr == nil):
		t.Fatalf("%s: serial error %v, parallel error %v", label, serr, perr)
	case serr != nil:
		if serr.Error() != perr.Error() {
			t.Fatalf("%s: errors differ:\nserial   %v\nparallel %v", label, serr, perr)
		}
	default:
		if err := ioEqual(parallel, serial); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if parallel.Duplicates != serial.Duplicates {
			t.Fatalf("%s: %d duplicates, serial %d", label, parallel.Duplicates, serial.Duplicates)
		}
	}
}

// testLines is the lines line(0), ..., line(n-1).
func testLines(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i))
	}
	return b.String()
}

// replacing is base with line i replaced by bad.
func replacing(base func(int) string, i int, bad string) func(int) string {
	return func(k int) string {
		if k == i {
			return bad
		}
		return base(k)
	}
}

// parallelInputs are valid and broken coordinate sections of a few
// hundred lines, the mistake (if any) far from the first chunk.
func parallelInputs() map[string]string {
	entry := func(i int) string {
		return fmt.Sprintf("%d %d %s\n", i%50+1, (i*7)%40+1, strconv.FormatFloat(float64(i)*0.37-11, 'e', 13, 64))
	}
	general := "%%MatrixMarket matrix coordinate real general\n% a comment\n50 40 300\n"
	in := map[string]string{
		"valid":            general + testLines(300, entry),
		"crlf":             strings.ReplaceAll(general+testLines(300, entry), "\n", "\r\n"),
		"no last line end": strings.TrimSuffix(general+testLines(300, entry), "\n"),
		"comments and blank lines": general + testLines(300, func(i int) string {
			if i%37 == 0 {
				return "% note\n\n  \t\n" + entry(i)
			}
			return entry(i)
		}),
		// Through entry, not fastEntry: leading spaces and a plus sign.
		"unusual but valid": general + testLines(300, replacing(entry, 211, "  12   7   +1.5E+2  \n")),
		"bad row at 250":    general + testLines(300, replacing(entry, 250, "51 1 1.0\n")),
		"bad value at 199":  general + testLines(300, replacing(entry, 199, "1 1 1.0x\n")),
		"too many":          strings.Replace(general, "300\n", "290\n", 1) + testLines(300, entry),
		"too few":           strings.Replace(general, "300\n", "310\n", 1) + testLines(300, entry),
		"pattern":           "%%MatrixMarket matrix coordinate pattern general\n50 40 300\n" + testLines(300, func(i int) string { return fmt.Sprintf("%d %d\n", i%50+1, i%40+1) }),
		"integer":           "%%MatrixMarket matrix coordinate integer general\n50 40 300\n" + testLines(300, func(i int) string { return fmt.Sprintf("%d %d %d\n", i%50+1, i%40+1, i-150) }),
		"duplicates":        general + testLines(300, func(i int) string { return fmt.Sprintf("%d %d 1\n", i%5+1, i%3+1) }),
		"symmetric upper at 120": "%%MatrixMarket matrix coordinate real symmetric\n60 60 300\n" + testLines(300, func(i int) string {
			if i == 120 {
				return "3 9 1\n"
			}
			return fmt.Sprintf("%d %d 2\n", i%60+1, i%60/2+1)
		}),
	}
	for _, c := range ioMMErrorCases {
		in["error case "+c.name] = c.in
	}
	for _, c := range hostileInputs {
		in["hostile "+c.name] = c.in
	}
	return in
}

// TestReadMatrixMarketParallel checks that the parallel reader of the
// coordinate section gives what reading one line at a time gives: the
// same entries in the same order, or the same error at the same line,
// however the input is cut into chunks and however it arrives.
func TestReadMatrixMarketParallel(t *testing.T) {
	for name, in := range parallelInputs() {
		for _, chunk := range []int{1, 7, 64, 1000, 1 << 20} {
			s, p, serr, perr := readBoth(t, in, chunk, false)
			checkSame(t, fmt.Sprintf("%s, chunks of %d bytes", name, chunk), s, p, serr, perr)
		}
		s, p, serr, perr := readBoth(t, in, 50, true)
		checkSame(t, name+", one byte a read", s, p, serr, perr)
	}
}

// The parallel path must actually be taken: a chunk's mistake is found by
// the worker's fastEntry and reported by the serial re-read with the line
// the whole input has it on.
func TestReadMatrixMarketParallelLine(t *testing.T) {
	in := parallelInputs()["bad row at 250"]
	_, _, _, perr := readBoth(t, in, 64, false)
	// Three header lines, then the 251st entry.
	if perr == nil || !strings.HasPrefix(perr.Error(), "reading x.mtx line 254: ") {
		t.Fatalf("got %v, want an error at line 254", perr)
	}
}

func FuzzReadMatrixMarketParallel(f *testing.F) {
	for _, in := range parallelInputs() {
		f.Add(in, uint8(7))
	}
	f.Fuzz(func(t *testing.T, in string, chunk uint8) {
		s, p, serr, perr := readBoth(t, in, int(chunk)+1, false)
		checkSame(t, "fuzz", s, p, serr, perr)
	})
}

// BenchmarkReadMatrixMarketParallel reads the same 2M entries one line at a
// time and in parallel, side by side.
func BenchmarkReadMatrixMarketParallel(b *testing.B) {
	data := ioGenMM(2_000_000, 1_000_000, func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'e', 13, 64) })
	for _, c := range []struct {
		name string
		min  int64
	}{{"serial", math.MaxInt64}, {"parallel", 0}} {
		b.Run(c.name, func(b *testing.B) {
			defer func(n int64) { parallelMinEntries = n }(parallelMinEntries)
			parallelMinEntries = c.min
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ReadMatrixMarket(bytes.NewReader(data), "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// readEdgesBoth reads in as an edge list one line at a time and in
// parallel, as readBoth does.
func readEdgesBoth(t testing.TB, in string, opt EdgeListOptions, chunk int, oneByte bool) (serial, parallel *COO, serr, perr error) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer func(n int64, c int) { parallelMinBytes, mmChunkBytes = n, c }(parallelMinBytes, mmChunkBytes)
	parallelMinBytes = math.MaxInt64
	serial, serr = ReadEdgeList(strings.NewReader(in), "x.txt", opt)
	parallelMinBytes, mmChunkBytes = 0, chunk
	if oneByte {
		parallel, perr = ReadEdgeList(&ioOneByteReader{r: strings.NewReader(in)}, "x.txt", opt)
	} else {
		parallel, perr = ReadEdgeList(strings.NewReader(in), "x.txt", opt)
	}
	return serial, parallel, serr, perr
}

// parallelEdgeInputs are edge lists of a few hundred lines, the mistake
// (if any) far from the first chunk.
func parallelEdgeInputs() map[string]string {
	pair := func(i int) string { return fmt.Sprintf("%d %d\n", i%97+1, (i*13)%89+1) }
	weighted := func(i int) string {
		return fmt.Sprintf("%d\t%d\t%s\n", i%97, (i*13)%89, strconv.FormatFloat(float64(i)*0.25-3, 'g', -1, 64))
	}
	in := map[string]string{
		"pairs":            "# a comment\n" + testLines(300, pair),
		"weighted":         testLines(300, weighted),
		"header":           "97 300\n" + testLines(300, pair),
		"commas and crlf":  strings.ReplaceAll(strings.ReplaceAll(testLines(300, pair), " ", ","), "\n", "\r\n"),
		"no last line end": strings.TrimSuffix(testLines(300, weighted), "\n"),
		"comments and blank lines": testLines(300, func(i int) string {
			if i%41 == 0 {
				return "# note\n\n% more\n" + pair(i)
			}
			return pair(i)
		}),
		"repeats and loops": testLines(300, func(i int) string { return fmt.Sprintf("%d %d\n", i%7, i%5) }),
		"extremes late": testLines(300, func(i int) string {
			switch i {
			case 210, 260:
				return "5000 1\n" // the largest id twice: the first names the line
			case 230:
				return "0 3\n" // an id 0 late: 0-based after all
			}
			return pair(i)
		}),
		"bad id at 250":         testLines(300, replacing(pair, 250, "7 x\n")),
		"id above int32 at 180": testLines(300, replacing(pair, 180, "1 2147483648\n")),
		"three columns at 270":  testLines(300, replacing(pair, 270, "1 2 3\n")),
		"NaN weight at 199":     testLines(300, replacing(weighted, 199, "1 2 NaN\n")),
		"header too small":      "50 300\n" + testLines(300, pair),
	}
	for _, c := range ioEdgeListErrorCases {
		in["error case "+c.name] = c.in
	}
	return in
}

// TestReadEdgeListParallel checks the parallel edge-list reader against
// reading one line at a time, as TestReadMatrixMarketParallel does, under
// every header, base and direction.
func TestReadEdgeListParallel(t *testing.T) {
	opts := []EdgeListOptions{{}, {Directed: true}, {Header: HeaderNo}, {Header: HeaderYes}, {Base: OneBased}, {Base: ZeroBased}}
	for name, in := range parallelEdgeInputs() {
		for _, opt := range opts {
			for _, chunk := range []int{1, 7, 64, 1000, 1 << 20} {
				s, p, serr, perr := readEdgesBoth(t, in, opt, chunk, false)
				checkSame(t, fmt.Sprintf("%s, %+v, chunks of %d bytes", name, opt, chunk), s, p, serr, perr)
			}
			s, p, serr, perr := readEdgesBoth(t, in, opt, 50, true)
			checkSame(t, fmt.Sprintf("%s, %+v, one byte a read", name, opt), s, p, serr, perr)
		}
	}
}

func FuzzReadEdgeListParallel(f *testing.F) {
	for _, in := range parallelEdgeInputs() {
		f.Add(in, uint8(0), uint8(7))
	}
	f.Fuzz(func(t *testing.T, in string, o, chunk uint8) {
		opt := EdgeListOptions{Directed: o&1 != 0, Header: HeaderMode(o >> 1 % 3), Base: IDBase(o >> 3 % 3)}
		s, p, serr, perr := readEdgesBoth(t, in, opt, int(chunk)+1, false)
		checkSame(t, "fuzz", s, p, serr, perr)
	})
}

// BenchmarkReadEdgeListParallel reads the same 4M edges (undirected, in a
// random order: the duplicate check buckets them) one line at a time and
// in parallel, side by side.
func BenchmarkReadEdgeListParallel(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var data []byte
	for range 4_000_000 {
		data = strconv.AppendInt(data, int64(r.IntN(1<<22)), 10)
		data = append(data, '\t')
		data = strconv.AppendInt(data, int64(r.IntN(1<<22)), 10)
		data = append(data, '\n')
	}
	for _, c := range []struct {
		name string
		min  int64
	}{{"serial", math.MaxInt64}, {"parallel", 0}} {
		b.Run(c.name, func(b *testing.B) {
			defer func(n, e int64) { parallelMinBytes, parallelMinEntries = n, e }(parallelMinBytes, parallelMinEntries)
			parallelMinBytes, parallelMinEntries = c.min, c.min // the parse and the duplicate check
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ReadEdgeList(bytes.NewReader(data), "bench", EdgeListOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
