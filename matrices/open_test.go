package matrices

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ioSharedDir holds real matrices and graphs beside the checkout.
const ioSharedDir = "../../shared/matrices"

func TestOpenSharedMatrices(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(ioSharedDir, "*.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no files in %s", ioSharedDir)
	}
	// The sizes documented in SOURCES.md, and what the readers make of
	// the edge lists (see ReadEdgeList).
	want := map[string]struct {
		opt          EdgeListOptions
		nrows, ncols int
		nnz          int
		field        Field
		sym          Symmetry
	}{
		"bcsstk13.mtx.gz":            {EdgeListOptions{}, 2003, 2003, 42943, Real, Symmetric},
		"bayer10.mtx.gz":             {EdgeListOptions{}, 13436, 13436, 94926, Real, General},
		"rajat01.mtx.gz":             {EdgeListOptions{}, 6833, 6833, 43250, Pattern, General},
		"Groebner_id2003_aug.mtx.gz": {EdgeListOptions{}, 4967, 2456, 173670, Integer, General},
		"lund_a.mtx.gz":              {EdgeListOptions{}, 147, 147, 1298, Real, Symmetric},
		"pores_1.mtx.gz":             {EdgeListOptions{}, 30, 30, 180, Real, General},
		"4elt.graph.gz":              {EdgeListOptions{}, 7434, 7434, 43031, Pattern, Symmetric},
		"copter2.graph.gz":           {EdgeListOptions{}, 55476, 55476, 352238, Pattern, Symmetric},
		// 7,115 distinct ids up to 8297, none 0: 1-based, n = 8297.
		"wiki-Vote.txt.gz": {EdgeListOptions{Directed: true}, 8297, 8297, 103689, Pattern, General},
		// The first line "4039 88234" is a header.
		"facebook_combined.txt.gz": {EdgeListOptions{}, 4039, 4039, 88234, Pattern, Symmetric},
		// 186,936 lines, most pairs listed in both directions: 93,497
		// undirected edges; 23,133 distinct ids up to 108299, none 0.
		"CA-CondMat_tab-sep.edgelist.gz": {EdgeListOptions{}, 108299, 108299, 93497, Pattern, Symmetric},
	}
	for _, path := range files {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			w, ok := want[base]
			m, err := Open(path, ReadOptions{EdgeList: w.opt})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d x %d, %d entries, %v %v", m.NRows, m.NCols, m.NNZ(), m.Field, m.Symmetry)
			if !ok {
				return
			}
			if m.NRows != w.nrows || m.NCols != w.ncols || m.NNZ() != w.nnz || m.Field != w.field || m.Symmetry != w.sym {
				t.Errorf("got %d x %d, %d entries, %v %v; want %d x %d, %d, %v %v",
					m.NRows, m.NCols, m.NNZ(), m.Field, m.Symmetry, w.nrows, w.ncols, w.nnz, w.field, w.sym)
			}
			if m.Name != path {
				t.Errorf("Name = %q, want %q", m.Name, path)
			}
		})
	}
	// wiki-Vote read as undirected: mutual votes merge.
	if m, err := Open(filepath.Join(ioSharedDir, "wiki-Vote.txt.gz"), ReadOptions{}); err == nil {
		if m.NNZ() != 100762 || m.Symmetry != Symmetric {
			t.Errorf("wiki-Vote undirected: %d entries, %v", m.NNZ(), m.Symmetry)
		}
	}
}

func ioGzip(t testing.TB, s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const ioSmallMM = "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 1\n"

func TestOpenDetection(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		file    string
		data    []byte
		opt     ReadOptions
		nnz     int
		sym     Symmetry
		wantErr string
	}{
		{"a.mtx", []byte(ioSmallMM), ReadOptions{}, 2, General, ""},
		{"a.mtx.gz", ioGzip(t, ioSmallMM), ReadOptions{}, 2, General, ""},
		{"gzip-without-extension", ioGzip(t, ioSmallMM), ReadOptions{}, 2, General, ""},
		{"banner-beats-extension.txt", []byte(ioSmallMM), ReadOptions{}, 2, General, ""},
		{"plain-named.gz", []byte("0 1\n1 2\n2 0\n"), ReadOptions{Format: FormatEdgeList}, 3, Symmetric, ""},
		{"g.graph", []byte("3 2\n2 3\n1\n1\n"), ReadOptions{}, 2, Symmetric, ""},
		{"g.metis.gz", ioGzip(t, "3 2\n2 3\n1\n1\n"), ReadOptions{}, 2, Symmetric, ""},
		{"e.edges", []byte("0 1\n1 2\n"), ReadOptions{}, 2, Symmetric, ""},
		{"e.TSV", []byte("0\t1\n1\t2\n"), ReadOptions{}, 2, Symmetric, ""},
		{"e.csv", []byte("0,1\n1,2\n"), ReadOptions{EdgeList: EdgeListOptions{Directed: true}}, 2, General, ""},
		{"forced.dat", []byte("0 1\n1 2\n"), ReadOptions{Format: FormatEdgeList}, 2, Symmetric, ""},
		{"edges.dat", []byte("0 1\n1 2\n"), ReadOptions{}, 2, Symmetric, ""},
		{"edges-1based.dat", []byte("% c\n1 2 0.5\n2 3 1\n"), ReadOptions{}, 2, Symmetric, ""},
		{"metis.dat", []byte("3 2\n2 3\n1\n1\n"), ReadOptions{}, 2, Symmetric, ""},
		{"metis-or-edges.dat", []byte("3 3\n2 3\n1 3\n1 2\n"), ReadOptions{}, 0, 0, "pass --input-format mm|edgelist|metis"},
		{"empty.dat", nil, ReadOptions{}, 0, 0, "pass --input-format"},
		{"empty.mtx", nil, ReadOptions{}, 0, 0, "line 1: expected the Matrix Market banner"},
		{"bad-banner.mtx", []byte("%%MatrixMarket tensor\n"), ReadOptions{}, 0, 0, "line 1: expected 5 words"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p := write(tt.file, tt.data)
			m, err := Open(p, tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), p) {
					t.Fatalf("got %v, want an error naming %s and saying %q", err, p, tt.wantErr)
				}
				t.Logf("%s", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.NNZ() != tt.nnz || m.Symmetry != tt.sym {
				t.Fatalf("got %d entries %v, want %d %v", m.NNZ(), m.Symmetry, tt.nnz, tt.sym)
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "missing.mtx"), ReadOptions{}); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing file: got %v", err)
	}
}

func TestReadGzipDamage(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("%%MatrixMarket matrix coordinate real general\n1000 1000 20000\n")
	for i := range 20000 {
		sb.WriteString(strings.Repeat(" ", i%7))
		sb.WriteString("1 1 0.5\n")
	}
	z := ioGzip(t, sb.String())
	corrupt := bytes.Clone(z)
	corrupt[len(corrupt)/2] ^= 0xff
	badSum := bytes.Clone(z)
	badSum[len(badSum)-5] ^= 0xff // CRC-32 in the trailer
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", z[:len(z)/2], "gzip data corrupt or truncated: unexpected EOF"},
		{"truncated trailer", z[:len(z)-3], "gzip data corrupt or truncated: unexpected EOF"},
		{"corrupt", corrupt, "gzip data corrupt or truncated"},
		{"bad checksum", badSum, "gzip data corrupt or truncated: gzip: invalid checksum"},
		{"truncated header", z[:5], "not a valid gzip file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tt.data), "m.mtx.gz", ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "reading m.mtx.gz") {
				t.Fatalf("got %v, want an error saying %q", err, tt.want)
			}
			t.Logf("%s", err)
		})
	}
}

// ioStdin makes data the standard input for the rest of the test, through
// a pipe.
func ioStdin(t *testing.T, data []byte) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdin
	os.Stdin = r
	t.Cleanup(func() { os.Stdin = saved; r.Close() })
	go func() {
		w.Write(data)
		w.Close()
	}()
}

func TestOpenStdinWithProgress(t *testing.T) {
	ioStdin(t, ioGzip(t, ioSmallMM))
	var progress bytes.Buffer
	m, err := Open("-", ReadOptions{Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 2 || m.Name != "stdin" {
		t.Fatalf("got %d entries, name %q", m.NNZ(), m.Name)
	}
	// The size of a pipe is unknown: a bar is shown.
	if !strings.Contains(progress.String(), "reading stdin") {
		t.Errorf("progress output %q", progress.String())
	}
}

func TestOpenSmallFileNoProgress(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.mtx")
	if err := os.WriteFile(p, []byte(ioSmallMM), 0o644); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	if _, err := Open(p, ReadOptions{Progress: &progress}); err != nil {
		t.Fatal(err)
	}
	if progress.Len() != 0 {
		t.Errorf("progress for a small file: %q", progress.String())
	}
}

func TestParseFormat(t *testing.T) {
	for s, want := range map[string]Format{"": FormatAuto, "auto": FormatAuto, "mm": FormatMatrixMarket, "MTX": FormatMatrixMarket,
		"edgelist": FormatEdgeList, "snap": FormatEdgeList, "metis": FormatMETIS, "graph": FormatMETIS} {
		got, err := ParseFormat(s)
		if err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", s, got, err, want)
		}
		if s == want.String() {
			continue
		}
		if back, err := ParseFormat(got.String()); err != nil || back != got {
			t.Errorf("ParseFormat(%v.String()) = %v, %v", got, back, err)
		}
	}
	if _, err := ParseFormat("hb"); err == nil {
		t.Error("ParseFormat(hb): no error")
	}
	for _, s := range []string{"auto", "0", "1"} {
		if b, err := ParseIDBase(s); err != nil || b.String() != s {
			t.Errorf("ParseIDBase(%q) = %v, %v", s, b, err)
		}
	}
	for _, s := range []string{"auto", "yes", "no"} {
		if h, err := ParseHeaderMode(s); err != nil || h.String() != s {
			t.Errorf("ParseHeaderMode(%q) = %v, %v", s, h, err)
		}
	}
	if _, err := ParseIDBase("2"); err == nil {
		t.Error("ParseIDBase(2): no error")
	}
	if _, err := ParseHeaderMode("maybe"); err == nil {
		t.Error("ParseHeaderMode(maybe): no error")
	}
}

// Read records the format it detected, so callers need not guess again.
func TestReadRecordsFormat(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Format
	}{
		{"a.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", FormatMatrixMarket},
		{"a.txt", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", FormatMatrixMarket}, // the banner wins
		{"a.txt", "0 1\n1 2\n", FormatEdgeList},
		{"a.graph", "2 1\n2\n1\n", FormatMETIS},
	} {
		m, err := Read(strings.NewReader(tc.in), tc.name, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if m.Format != tc.want || m.Expanded().Format != tc.want {
			t.Errorf("%s: format %v (expanded %v), want %v", tc.name, m.Format, m.Expanded().Format, tc.want)
		}
	}
}

// TestOpenNoValues: the structure alone, the same entries, and a bad value
// still refused.
func TestOpenNoValues(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, text := range []string{
		"%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1.5\n2 1 -2\n3 3 1e3\n1 3 4 \n",
		"%%MatrixMarket matrix coordinate complex symmetric\n2 2 2\n1 1 1 2\n2 1 3 -4\n",
		"%%MatrixMarket matrix array real general\n2 1\n1\n2\n",
	} {
		p := write("a.mtx", text)
		full, err := Open(p, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bare, err := Open(p, ReadOptions{NoValues: true})
		if err != nil {
			t.Fatal(err)
		}
		if bare.Val != nil || bare.Imag != nil {
			t.Errorf("%q: values kept", text)
		}
		if !slices.Equal(bare.Row, full.Row) || !slices.Equal(bare.Col, full.Col) || bare.Field != full.Field || bare.Symmetry != full.Symmetry {
			t.Errorf("%q: structure differs: %+v against %+v", text, bare, full)
		}
	}
	p := write("bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n")
	if _, err := Open(p, ReadOptions{NoValues: true}); err == nil || !strings.Contains(err.Error(), "value") {
		t.Errorf("a bad value read without values: %v, want an error about the value", err)
	}
}
