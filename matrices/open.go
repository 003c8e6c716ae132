package matrices

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Format is a file format a matrix or graph can be read from.
type Format uint8

const (
	FormatAuto         Format = iota // detect: Matrix Market banner, else the file extension
	FormatMatrixMarket               // Matrix Market (.mtx, .mm)
	FormatEdgeList                   // edge list, SNAP style (.txt, .edgelist, .el, .edges, .tsv, .csv)
	FormatMETIS                      // METIS graph (.graph, .metis)
)

func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatMatrixMarket:
		return "mm"
	case FormatEdgeList:
		return "edgelist"
	case FormatMETIS:
		return "metis"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat reads a format name as the command line spells it.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "mm", "mtx", "matrixmarket", "matrix-market":
		return FormatMatrixMarket, nil
	case "edgelist", "edge-list", "el", "snap":
		return FormatEdgeList, nil
	case "metis", "graph":
		return FormatMETIS, nil
	}
	return 0, fmt.Errorf("unknown format %q (want auto, mm, edgelist or metis)", s)
}

// ReadOptions says how Open and Read read an input.
type ReadOptions struct {
	Format   Format
	EdgeList EdgeListOptions // for edge lists only
	// Progress, when not nil, receives a progress bar of the bytes read
	// from the file (compressed bytes for a gzip file) for inputs above
	// 64 MiB and for inputs of unknown size (stdin, pipes).
	Progress io.Writer
	// Notice, when not nil, receives a one-line notice when the input
	// repeats entries (see COO.Duplicates): what the reader did with them
	// changes the matrix, so it is not progress and belongs in logs too.
	Notice io.Writer
	// MaxDimension raises the largest number of rows, columns or vertices
	// a Matrix Market file or an edge list may have; by default it is 64
	// per entry + 2^20, since the arrays kept per row, column and vertex
	// after reading would otherwise be almost empty and could take
	// gigabytes (a size line "1000000000 1000000000 2"). The command-line
	// flag is --max-dimension. METIS graphs are not limited: their n
	// vertices are n lines of the file.
	MaxDimension int
	// NoValues keeps a Matrix Market matrix's structure alone: its values
	// are read and checked as always, but not kept (Val and Imag stay nil,
	// Field says what the file holds). For callers that partition and
	// never multiply: 8 bytes less per entry of a real matrix, 16 of a
	// complex one. The other formats ignore it.
	NoValues bool
}

// progressMin is the input size from which a progress bar is worth showing.
const progressMin = 64 << 20

// Open reads the matrix or graph in the file at path, or standard input
// when path is "-". A gzip-compressed input is decompressed whatever its
// name (it is recognized by its magic bytes). The format comes from
// opt.Format or, for FormatAuto, from the content (a Matrix Market banner)
// and then the extension (a .gz suffix aside); see Format.
func Open(path string, opt ReadOptions) (*COO, error) {
	name := path
	var f *os.File
	if path == "-" {
		name, f = "stdin", os.Stdin
	} else {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, err
		}
		defer f.Close()
	}
	size := sizeHint(f)
	var r io.Reader = f
	var bar *progressbar.ProgressBar
	if opt.Progress != nil && (size < 0 || size > progressMin) {
		bar = progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(opt.Progress),
			progressbar.OptionSetDescription("reading "+name),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(opt.Progress) }),
		)
		r = &countingReader{r: f, bar: bar}
	}
	m, err := read(r, name, size, opt)
	if bar != nil {
		bar.Finish() // before the notice, which would land on the bar's line
	}
	if err == nil && m.Duplicates > 0 && opt.Notice != nil {
		if m.Format == FormatEdgeList {
			fmt.Fprintf(opt.Notice, "%s: %s merged (each pair kept once with its first weight; an undirected edge listed both ways is one pair)\n", name, plural(int64(m.Duplicates), "repeated edge", "repeated edges"))
		} else {
			fmt.Fprintf(opt.Notice, "%s: %s kept; they add up (the Matrix Market convention)\n", name, plural(int64(m.Duplicates), "duplicate entry", "duplicate entries"))
		}
	}
	return m, err
}

// Read reads a matrix or graph from r like Open reads a file: gzip is
// detected by its magic bytes and the format as Open does, with name
// standing for the file name (its extension counts) and labelling errors.
// opt.Progress and opt.Notice are ignored (no progress bar, no notice).
func Read(r io.Reader, name string, opt ReadOptions) (*COO, error) {
	return read(r, name, sizeHint(r), opt)
}

func read(r io.Reader, name string, size int64, opt ReadOptions) (*COO, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("reading %s: not a valid gzip file: %w", name, err)
		}
		defer zr.Close()
		in = &gzipErrors{zr}
		size = -1 // the decompressed size is unknown
	}
	lr := newLineReader(in, name, size)
	format := opt.Format
	if format == FormatAuto {
		head := bytes.TrimPrefix(lr.peek(3+len(mmBanner)), []byte("\xEF\xBB\xBF"))
		if len(head) >= len(mmBanner) && bytes.EqualFold(head[:len(mmBanner)], []byte(mmBanner)) {
			format = FormatMatrixMarket
		} else if format = formatByName(name); format == FormatAuto {
			head := lr.peek(sniffLen)
			format = sniff(head, lr.eof && len(head) == lr.end-lr.pos)
		}
		if format == FormatAuto {
			if err := lr.failure(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("reading %s: cannot tell the format from the content or the file name: pass --input-format mm|edgelist|metis", name)
		}
	}
	var m *COO
	var err error
	switch format {
	case FormatMatrixMarket:
		m, err = readMatrixMarket(lr, size, opt.MaxDimension, opt.NoValues)
	case FormatEdgeList:
		m, err = readEdgeList(lr, size, opt.EdgeList, opt.MaxDimension)
	case FormatMETIS:
		m, err = readMETISGraph(lr, size)
	default:
		return nil, fmt.Errorf("reading %s: unknown format %v", name, format)
	}
	if m != nil {
		m.Format = format
	}
	if err != nil && in != br && lr.err == nil {
		// Damaged deflate data can decompress to garbage before gzip
		// notices, so a syntax error may really be corruption: look a
		// little further for a gzip error and say so.
		if _, zerr := io.CopyN(io.Discard, in, 64<<20); zerr != nil && zerr != io.EOF {
			err = fmt.Errorf("%w; %v", err, zerr)
		}
	}
	return m, err
}

// formatByName guesses the format from the extension, looking through a
// trailing .gz; FormatAuto means no guess.
func formatByName(name string) Format {
	name = strings.ToLower(name)
	name = strings.TrimSuffix(name, ".gz")
	switch filepath.Ext(name) {
	case ".mtx", ".mm":
		return FormatMatrixMarket
	case ".graph", ".metis":
		return FormatMETIS
	case ".txt", ".edgelist", ".el", ".edges", ".tsv", ".csv":
		return FormatEdgeList
	}
	return FormatAuto
}

// sniffLen is how much of an input sniff looks at.
const sniffLen = 64 << 10

// sniff tells an edge list from a METIS graph by their first lines (head,
// all of the input when atEOF) when neither a banner nor the name says
// (standard input, a pipe, a file named x.dat). It answers only when the
// lines fit one format and not the other: a METIS graph whose lines all
// hold two or three neighbours (a cycle) is also an edge list, and then
// FormatAuto says that the user must choose.
func sniff(head []byte, atEOF bool) Format {
	lines := bytes.Split(head, []byte("\n"))
	if !atEOF {
		lines = lines[:len(lines)-1] // a partial line
	}
	el, mt := sniffEdgeList(lines), sniffMETIS(lines, atEOF)
	switch {
	case el && !mt:
		return FormatEdgeList
	case mt && !el:
		return FormatMETIS
	}
	return FormatAuto
}

// sniffEdgeList reports lines that an edge list could start with: at
// least one edge, every data line "u v" or "u v w".
func sniffEdgeList(lines [][]byte) bool {
	edges := 0
	var f [4][]byte
	for _, line := range lines {
		if isBlankOrComment(line, "#%") {
			continue
		}
		nf := edgeFields(line, &f)
		if nf < 2 || nf > 3 {
			return false
		}
		_, ok0 := parseUint(f[0])
		_, ok1 := parseUint(f[1])
		if !ok0 || !ok1 {
			return false
		}
		if _, ok := parseFloat(f[2]); nf == 3 && !ok {
			return false
		}
		edges++
	}
	return edges > 0
}

// sniffMETIS reports lines that a METIS graph could start with: a header
// "n m [fmt [ncon]]", then vertex lines of neighbours from 1 to n that do
// not list their own vertex, no more than n of them, and exactly n when
// the lines are the whole input.
func sniffMETIS(lines [][]byte, atEOF bool) bool {
	k := 0
	for k < len(lines) && isBlankOrComment(lines[k], "%") {
		k++
	}
	if k == len(lines) {
		return false
	}
	var tok [5][]byte
	i := 0
	for t := range tok {
		tok[t], i = token(lines[k], i)
	}
	n, ok := parseUint(tok[0])
	if _, ok2 := parseUint(tok[1]); !ok || !ok2 || len(tok[4]) != 0 || bytes.IndexByte(lines[k], ',') >= 0 {
		return false
	}
	skip, step := 0, 1 // leading vertex weights/sizes; tokens per neighbour
	if f := tok[2]; len(f) > 0 {
		if len(f) > 3 || !isBinary(f) {
			return false
		}
		d := func(b int) bool { return len(f) > b && f[len(f)-1-b] == '1' }
		if d(0) {
			step = 2
		}
		if d(1) {
			skip = 1
			if c, ok := parseUint(tok[3]); ok && len(tok[3]) > 0 {
				skip = int(min(c, 1<<20))
			}
		}
		if d(2) {
			skip++
		}
	}
	v := int64(0)
	for _, line := range lines[k+1:] {
		if j := skipSpace(line, 0); j < len(line) && line[j] == '%' {
			continue
		}
		if v++; v > n {
			if isBlankOrComment(line, "%") && atEOF {
				continue // blank lines at the end
			}
			return false
		}
		i := 0
		for t := 0; ; t++ {
			tok, j := token(line, i)
			if len(tok) == 0 {
				break
			}
			x, ok := parseUint(tok)
			if !ok || (t >= skip && (t-skip)%step == 0 && (x < 1 || x > n || x == v)) {
				return false
			}
			i = j
		}
	}
	return !atEOF || v >= n
}

// countingReader feeds a progress bar with the bytes read through it.
type countingReader struct {
	r   io.Reader
	bar *progressbar.ProgressBar
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.Add(n)
	return n, err
}

// gzipErrors says that a decompression error comes from the compressed
// data: gzip's own messages ("unexpected EOF", "invalid checksum") do not.
type gzipErrors struct{ r io.Reader }

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip data corrupt or truncated: %w", err)
	}
	return n, err
}
