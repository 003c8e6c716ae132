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
	if opt.Progress != nil && (size < 0 || size > progressMin) {
		bar := progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(opt.Progress),
			progressbar.OptionSetDescription("reading "+name),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(opt.Progress) }),
		)
		defer bar.Finish()
		r = &countingReader{r: f, bar: bar}
	}
	return read(r, name, size, opt)
}

// Read reads a matrix or graph from r like Open reads a file: gzip is
// detected by its magic bytes and the format as Open does, with name
// standing for the file name (its extension counts) and labelling errors.
// opt.Progress is ignored.
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
		} else {
			format = formatByName(name)
		}
		if format == FormatAuto {
			if err := lr.failure(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("reading %s: cannot tell the format from the content or the file name: pass --format mm|edgelist|metis", name)
		}
	}
	var m *COO
	var err error
	switch format {
	case FormatMatrixMarket:
		m, err = readMatrixMarket(lr, size)
	case FormatEdgeList:
		m, err = readEdgeList(lr, size, opt.EdgeList)
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
