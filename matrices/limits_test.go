package matrices

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The memory bound every reader keeps: what it allocates in all (the
// TotalAlloc delta, so peaks and garbage included) is at most
// memPerByte bytes per input byte plus memConst, whatever the headers
// declare. The worst case measured is 54 B/byte: a METIS graph of empty
// vertex lines read from a pipe (its per-vertex offsets grow by doubling,
// then the symmetry check's arrays); large edge lists and Matrix Market
// files take 4 to 16 B/byte (TestReaderMemoryLargeInputs). memConst covers
// the line buffer of a small input, the float table built once and the
// bufio state of Read (64 KiB).
const (
	memPerByte = 64
	memConst   = 512 << 10
)

// allocated returns the bytes allocated while read ran.
func allocated(read func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	read()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// checkMemory fails t when read allocates beyond the bound for an input of
// n bytes, and returns the bytes allocated.
func checkMemory(t *testing.T, n int, read func()) uint64 {
	t.Helper()
	grew := allocated(read)
	if grew > uint64(memPerByte*n+memConst) {
		t.Fatalf("allocated %d bytes for %d bytes of input (%.1f B/byte), above the bound %d B/byte + %d",
			grew, n, float64(grew)/float64(max(n, 1)), memPerByte, memConst)
	}
	return grew
}

// The hostile inputs of issue 23: a few bytes that declare a huge matrix
// or graph.
var hostileInputs = []struct {
	name, in string
	line     string // the line the error names
	want     string // and what it says
}{
	{"huge.mtx", "%%MatrixMarket matrix coordinate real general\n1000000000 1000000000 2\n1 1 1\n2 2 1\n", "line 2", "--max-dimension 1000000000"},
	{"huge-cols.mtx", "%%MatrixMarket matrix coordinate pattern general\n1 1000000000 2\n1 1\n1 2\n", "line 2", "1000000000 columns for 2 entries"},
	{"huge-array.mtx", "%%MatrixMarket matrix array real general\n100000 100000\n1\n2\n", "line 5", "truncated"},
	{"empty-array.mtx", "%%MatrixMarket matrix array real general\n0 1000000000\n", "line 2", "--max-dimension"},
	{"huge-nnz.mtx", "%%MatrixMarket matrix coordinate real general\n1000 1000 100000000000\n1 1 1\n", "line 4", "truncated"},
	{"huge-id.txt", "0 1000000000\n", "line 1", "--max-dimension 1000000001"},
	{"huge-header.txt", "1000000000 1\n1 2 0.5\n", "line 1", "vertices (the header's n)"},
	{"huge.graph", "1000000000 1000000000\n2\n1\n", "line 4", "truncated"},
	{"huge-fmt.graph", "2000000000 4000000000 011 1000\n", "line 2", "truncated"},
}

func TestHostileHeaders(t *testing.T) {
	for _, tt := range hostileInputs {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			for _, r := range []io.Reader{
				strings.NewReader(tt.in),                      // size known
				struct{ io.Reader }{strings.NewReader(tt.in)}, // size unknown, as a pipe
			} {
				grew := checkMemory(t, len(tt.in), func() { _, err = Read(r, tt.name, ReadOptions{}) })
				if err == nil || !strings.Contains(err.Error(), tt.name) || !strings.Contains(err.Error(), tt.line) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want an error naming %s, %s and saying %q", err, tt.name, tt.line, tt.want)
				}
				t.Logf("%d bytes in, %d allocated (%.0f B/byte): %v", len(tt.in), grew, float64(grew)/float64(len(tt.in)), err)
			}
		})
	}
}

// The bound holds on large valid inputs built to cost the most per byte,
// read from memory and as a pipe (size unknown, slices grown as read).
func TestReaderMemoryLargeInputs(t *testing.T) {
	var el, mm, arr strings.Builder
	for i := range 1 << 18 {
		fmt.Fprintf(&el, "%d %d\n", i%10, i/10%10)
	}
	mm.WriteString("%%MatrixMarket matrix coordinate complex general\n9 9 262144\n")
	for i := range 1 << 18 {
		fmt.Fprintf(&mm, "%d %d 1 1\n", i%9+1, i/9%9+1)
	}
	arr.WriteString("%%MatrixMarket matrix array complex general\n512 512\n" + strings.Repeat("1 1\n", 512*512))
	for _, c := range []struct {
		name, in string
		read     func(io.Reader) error
	}{
		{"edge list of 1-digit ids", el.String(), func(r io.Reader) error { _, err := ReadEdgeList(r, "x", EdgeListOptions{}); return err }},
		{"Matrix Market coordinate complex", mm.String(), func(r io.Reader) error { _, err := ReadMatrixMarket(r, "x"); return err }},
		{"Matrix Market array complex", arr.String(), func(r io.Reader) error { _, err := ReadMatrixMarket(r, "x"); return err }},
		{"METIS, 1M empty vertex lines", "1000000 0\n" + strings.Repeat("\n", 1000000), func(r io.Reader) error { _, err := ReadMETISGraph(r, "x"); return err }},
	} {
		for _, pipe := range []bool{false, true} {
			var r io.Reader = strings.NewReader(c.in)
			if pipe {
				r = struct{ io.Reader }{r}
			}
			var err error
			grew := checkMemory(t, len(c.in), func() { err = c.read(r) })
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			t.Logf("%s (pipe %v): %d bytes, %.1f B/byte", c.name, pipe, len(c.in), float64(grew)/float64(len(c.in)))
		}
	}
}

// MaxDimension lets a nearly empty matrix through, at the size it asks for.
func TestMaxDimension(t *testing.T) {
	in := hostileInputs[0].in
	m, err := Read(strings.NewReader(in), "huge.mtx", ReadOptions{MaxDimension: 1000000000})
	if err != nil || m.NRows != 1000000000 || m.NNZ() != 2 {
		t.Fatalf("got %v, %v", m, err)
	}
	// The default admits 64 per entry + 2^20.
	in = "%%MatrixMarket matrix coordinate pattern general\n1048768 1 2\n1 1\n1048768 1\n"
	if _, err := Read(strings.NewReader(in), "edge.mtx", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	in = strings.Replace(in, "1048768 1 2", "1048769 1 2", 1)
	if _, err := Read(strings.NewReader(in), "over.mtx", ReadOptions{}); err == nil {
		t.Fatal("1048769 rows for 2 entries accepted")
	}
}

// withMaxLine lowers the line limit for one test.
func withMaxLine(t *testing.T, n int) {
	saved := maxLineLen
	maxLineLen = n
	t.Cleanup(func() { maxLineLen = saved })
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A line over the limit is refused, naming the file, the line and the
// limit, once the limit is read: from gzip and from a pipe alike.
func TestLongLineRefused(t *testing.T) {
	const limit = 4 << 20
	withMaxLine(t, limit)
	line := "%%MatrixMarket matrix coordinate real general\n" + strings.Repeat("0", 4*limit) + "\n"
	gz := ioGzip(t, line)
	for _, tc := range []struct {
		name string
		src  func() io.Reader
	}{
		{"line.mtx.gz", func() io.Reader { return bytes.NewReader(gz) }},
		{"pipe", func() io.Reader {
			pr, pw := io.Pipe()
			go func() {
				for i := 0; i < len(line); i += 4096 {
					if _, err := pw.Write([]byte(line[i:min(i+4096, len(line))])); err != nil {
						return
					}
				}
				pw.Close()
			}()
			return pr
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &countReader{r: tc.src()}
			var in io.Reader = src
			if tc.name == "pipe" {
				defer src.r.(*io.PipeReader).Close()
			}
			_, err := Read(in, tc.name, ReadOptions{Format: FormatMatrixMarket})
			want := []string{tc.name, "line 2", "longer than the limit of 4194304 bytes"}
			for _, w := range want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Fatalf("got %v, want an error saying %q", err, w)
				}
			}
			if tc.name == "pipe" && src.n > limit+1<<20 {
				t.Errorf("read %d bytes before refusing a line over %d", src.n, limit)
			}
		})
	}
}

// chunkReader delivers at most k bytes a read, as gzip and pipes do.
type chunkReader struct {
	r io.Reader
	k int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.k)]) }

// A long line arriving in small reads is read in linear time: the line
// end is searched for in each byte once. Rescanning the line after each
// 1 KiB read, as the reader once did, takes minutes here (16 MiB: 16384
// reads, 128 GiB scanned).
func TestLongLineLinear(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate pattern general\n%" + strings.Repeat("x", 16<<20) + "\n1 1 1\n1 1\n"
	start := time.Now()
	m, err := Read(&chunkReader{strings.NewReader(in), 1024}, "long.mtx", ReadOptions{})
	if err != nil || m.NNZ() != 1 {
		t.Fatalf("got %v, %v", m, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v for a 16 MiB line", d)
	}
}

// An edge list on standard input (no name to go by) is recognized by its
// lines, and its repeated edges are counted and reported.
func TestReadStdinEdgeList(t *testing.T) {
	ioStdin(t, []byte("# a SNAP graph\n0\t1\n1\t0\n1\t2\n2\t0\n1\t2\n"))
	var notice bytes.Buffer
	m, err := Open("-", ReadOptions{Notice: &notice})
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != FormatEdgeList || m.NNZ() != 3 || m.Duplicates != 2 {
		t.Fatalf("got %v with %d entries, %d duplicates", m.Format, m.NNZ(), m.Duplicates)
	}
	if !strings.Contains(notice.String(), "stdin: 2 repeated edges merged") {
		t.Errorf("notice %q", notice.String())
	}
}

// Matrix Market keeps repeated entries (they add up) and says how many.
func TestMatrixMarketDuplicates(t *testing.T) {
	for _, tt := range []struct {
		in   string
		dups int
	}{
		{"1 1 1\n2 1 1\n1 2 1\n2 2 1\n", 0}, // column-major, sorted
		{"2 2 1\n1 1 1\n1 2 1\n2 1 1\n", 0},
		{"2 2 1\n1 1 1\n2 2 5\n1 1 1\n", 2},
		{"1 1 1\n1 1 1\n1 1 1\n1 2 1\n", 2}, // sorted with repeats
	} {
		in := "%%MatrixMarket matrix coordinate real general\n2 2 4\n" + tt.in
		p := t.TempDir() + "/d.mtx"
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		var progress, notices bytes.Buffer
		m, err := Open(p, ReadOptions{Progress: &progress, Notice: &notices})
		if err != nil {
			t.Fatal(err)
		}
		if progress.Len() != 0 {
			t.Errorf("%q: the notice went to the progress writer: %q", tt.in, progress.String())
		}
		if m.NNZ() != 4 || m.Duplicates != tt.dups || m.Expanded().Duplicates != tt.dups {
			t.Fatalf("%q: %d entries, %d duplicates, want 4 and %d", tt.in, m.NNZ(), m.Duplicates, tt.dups)
		}
		notice := p + ": 2 duplicate entries kept; they add up (the Matrix Market convention)\n"
		if got := notices.String(); (tt.dups > 0) != (got == notice) {
			t.Errorf("%q: notice %q", tt.in, got)
		}
	}
}

// Read with detection, on anything but gzip (whose output is not bounded
// by its input): the memory bound holds and what is read is valid.
func FuzzRead(f *testing.F) {
	f.Add("0 1\n1 2\n")
	f.Add("3 2\n2 3\n1\n1\n")
	f.Add("3 3\n2 3\n1 3\n1 2\n")
	f.Add(ioSmallMM)
	for _, tt := range hostileInputs {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.HasPrefix(in, "\x1f\x8b") {
			return
		}
		var m *COO
		var err error
		var r io.Reader = strings.NewReader(in)
		if len(in)%2 == 1 {
			r = struct{ io.Reader }{r} // size unknown, as a pipe
		}
		checkMemory(t, len(in), func() { m, err = Read(r, "fuzz", ReadOptions{}) })
		if err != nil && strings.Contains(err.Error(), "fuzz: cannot tell the format") {
			return
		}
		fuzzRead(t, m, err)
	})
}

// BenchmarkLongLineGzip reads a gzip-compressed line of 1 GiB + 1 byte to
// its error (the figure of issue 23: 670 s of CPU for 2 GB before the
// reader stopped rescanning the line).
func BenchmarkLongLineGzip(b *testing.B) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zeros := bytes.Repeat([]byte("0"), 1<<20)
	for range maxLineLen >> 20 {
		zw.Write(zeros)
	}
	zw.Write([]byte("0\n"))
	zw.Close()
	b.SetBytes(int64(maxLineLen) + 2)
	for b.Loop() {
		_, err := Read(bytes.NewReader(buf.Bytes()), "line.gz", ReadOptions{Format: FormatMatrixMarket})
		if err == nil || !strings.Contains(err.Error(), "longer than the limit") {
			b.Fatal(err)
		}
	}
}
