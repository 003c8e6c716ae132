package schedule

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// fileCases are schedules that exercise every file feature: plain, split,
// read-only x, no values (complex), the largest block a budget allows.
func fileCases(t *testing.T) []*Schedule {
	t.Helper()
	coo, err := matrices.Preset("scircuit", 0.01, 1)
	if err != nil {
		t.Fatal(err)
	}
	coo = coo.Expanded()
	p := partition(t, coo, "greedy", 128)
	params := []Param{{"method", "greedy"}, {"seed", "1"}, {"note", "a = b, with spaces"}}
	cplx := tiny()
	cplx.Field, cplx.Imag = matrices.Complex, make([]float64, 8)
	// One part of 59392 tasks with as many distinct rows: the most y slots
	// MaxBudget holds for fp32, so the largest local address.
	const n = MaxBudget / 4
	wide := &matrices.COO{Name: "wide", NRows: n, NCols: 1, Row: make([]int32, n), Col: make([]int32, n), Val: make([]float64, n)}
	for i := range n {
		wide.Row[i], wide.Val[i] = int32(i), float64(i%13)-6
	}
	return []*Schedule{
		build(t, coo, p, Options{BlockSize: 128, Params: params}),
		build(t, coo, p, Options{BlockSize: 128, Budget: 400, Overflow: Split, ValueBytes: 4}),
		build(t, coo, p, Options{BlockSize: 128, Budget: 600, Overflow: ReadOnly}),
		build(t, cplx, spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}, Options{BlockSize: 5}),
		build(t, wide, spac.Partition{K: 1, Part: make([]int32, n)}, Options{BlockSize: n, Budget: MaxBudget, ValueBytes: 4, Overflow: ReadOnly}),
	}
}

func encode(t *testing.T, s *Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := s.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Errorf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

func TestFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for i, s := range fileCases(t) {
		path := filepath.Join(dir, "s.sched")
		if err := WriteFile(path, s); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path, s.Structure())
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("case %d: the schedule read back differs from the one written", i)
		}
		data, _ := os.ReadFile(path)
		if len(data)%8 != 0 {
			t.Errorf("case %d: file of %d bytes is not padded to 8", i, len(data))
		}
		if ro := binary.LittleEndian.Uint32(data[12:])&flagXReadOnly != 0; ro != s.XReadOnly() {
			t.Errorf("case %d: read-only flag %v", i, ro)
		}
		t.Logf("case %d: %d blocks, applied %v, values %v: %d bytes", i, s.NumBlocks(), s.Applied, s.Vals != nil, len(data))
	}
}

// A flipped byte anywhere (header fields, parameter text, every payload
// section), a file cut short at any of several offsets, extra bytes, and
// a schedule for another matrix are all refused with the right error.
func TestFileRefusesDamage(t *testing.T) {
	s := fileCases(t)[0]
	data := encode(t, s)
	hdrEnd := pad8(headerSize + len(encodeParams(s.Params)))
	offsets := []int{0, 5, 8, 12, 16, 20, 24, 36, 40, 48, 64, 72, 88, 92, 96, 104, 112, 119, headerSize + 3, hdrEnd - 1,
		hdrEnd, hdrEnd + 1, hdrEnd + 4*len(s.NewSchedule) + 2, len(data) / 2, len(data) - 9, len(data) - 1}
	for _, off := range offsets {
		bad := bytes.Clone(data)
		bad[off] ^= 0x40
		_, err := Decode(bad, "flipped", nil)
		if err == nil {
			t.Errorf("byte %d flipped: accepted", off)
			continue
		}
		if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrNotSchedule) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrTruncated) {
			t.Errorf("byte %d flipped: unexpected error %v", off, err)
		}
		if off == 0 && !errors.Is(err, ErrNotSchedule) || off == 8 && !errors.Is(err, ErrVersion) || off >= hdrEnd && !errors.Is(err, ErrDamaged) {
			t.Errorf("byte %d flipped: wrong kind of error: %v", off, err)
		}
	}
	for _, cut := range []int{0, 3, 8, 60, headerSize - 1, headerSize, hdrEnd, hdrEnd + 7, len(data) / 3, len(data) - 8, len(data) - 1} {
		_, err := Decode(data[:cut], "cut", nil)
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d of %d: want a truncation error, got %v", cut, len(data), err)
		}
	}
	if _, err := Decode(append(bytes.Clone(data), 0, 0, 0, 0, 0, 0, 0, 0), "long", nil); !errors.Is(err, ErrDamaged) {
		t.Errorf("trailing bytes: got %v", err)
	}
	if _, err := Decode([]byte("%%MatrixMarket matrix coordinate real general\n"), "mtx", nil); !errors.Is(err, ErrNotSchedule) {
		t.Errorf("a Matrix Market file: got %v", err)
	}
	other := tiny()
	if _, err := Decode(data, "other", other); !errors.Is(err, ErrMismatch) {
		t.Errorf("another matrix: got %v", err)
	} else {
		t.Logf("another matrix: %v", err)
	}
	// The same structure with other values is the same matrix for a schedule.
	same := s.Structure()
	for i := range same.Val {
		same.Val[i] *= 2
	}
	if _, err := Decode(data, "same", same); err != nil {
		t.Errorf("same structure, other values: %v", err)
	}
	// A checksummed but inconsistent file (a hostile or buggy writer) is
	// caught by the invariant checks, not by a panic.
	evil := *s
	evil.XLocal = append([]int32(nil), s.XLocal...)
	evil.XLocal[0] = 30000
	if _, err := Decode(encode(t, &evil), "evil", nil); !errors.Is(err, ErrDamaged) {
		t.Errorf("out-of-range local address with valid checksums: got %v", err)
	} else {
		t.Logf("out-of-range local address: %v", err)
	}
}

// npyHeader parses a .npy file's header by hand, independently of ReadNPY:
// magic, version 1.0, header length, the dict, 64-byte alignment.
func npyHeader(t *testing.T, data []byte) (descr string, n int, body []byte) {
	t.Helper()
	if len(data) < 10 || string(data[:6]) != "\x93NUMPY" || data[6] != 1 || data[7] != 0 {
		t.Fatalf("bad .npy preamble % x", data[:min(10, len(data))])
	}
	hlen := int(binary.LittleEndian.Uint16(data[8:]))
	if (10+hlen)%64 != 0 || len(data) < 10+hlen {
		t.Fatalf("header length %d: data not 64-aligned or file too short", hlen)
	}
	hdr := string(data[10 : 10+hlen])
	m := regexp.MustCompile(`^\{'descr': '(<i4|<u2|<f8|\|u1)', 'fortran_order': False, 'shape': \((\d+),\), \} *\n$`).FindStringSubmatch(hdr)
	if m == nil {
		t.Fatalf("header %q is not a 1-D C-order dict", hdr)
	}
	v, err := strconv.Atoi(m[2])
	if err != nil {
		t.Fatal(err)
	}
	return m[1], v, data[10+hlen:]
}

func TestExportNPY(t *testing.T) {
	for i, s := range fileCases(t) {
		dir := t.TempDir()
		if err := ExportNPY(dir, s); err != nil {
			t.Fatal(err)
		}
		addr := "<u2"
		arrays := []struct {
			file  string
			descr string
			i32   []int32
			f64   []float64
			u8    []uint8
		}{
			{"newSchedule.npy", "<i4", s.NewSchedule, nil, nil}, {"block_part.npy", "<i4", s.BlockPart, nil, nil},
			{"block_offsets.npy", "<i4", s.BlockOffsets, nil, nil}, {"rows.npy", "<i4", s.Rows, nil, nil},
			{"cols.npy", "<i4", s.Cols, nil, nil}, {"vals.npy", "<f8", nil, s.Vals, nil},
			{"xlocal.npy", addr, s.XLocal, nil, nil}, {"ylocal.npy", addr, s.YLocal, nil, nil},
			{"xunique_offsets.npy", "<i4", s.XOffsets, nil, nil}, {"xunique.npy", "<i4", s.XUnique, nil, nil},
			{"yunique_offsets.npy", "<i4", s.YOffsets, nil, nil}, {"yunique.npy", "<i4", s.YUnique, nil, nil},
			{"yshared.npy", "|u1", nil, nil, s.YShared},
		}
		for _, a := range arrays {
			data, err := os.ReadFile(filepath.Join(dir, a.file))
			if a.file == "vals.npy" && s.Vals == nil {
				if err == nil {
					t.Errorf("case %d: vals.npy written for a schedule without values", i)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			descr, n, body := npyHeader(t, data)
			want := len(a.i32) + len(a.f64) + len(a.u8)
			if descr != a.descr || n != want {
				t.Errorf("case %d %s: descr %s shape (%d,), want %s (%d,)", i, a.file, descr, n, a.descr, want)
			}
			arr, err := ReadNPY(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("case %d %s: %v", i, a.file, err)
			}
			switch {
			case a.f64 != nil:
				got, _ := arr.Float64s()
				if !reflect.DeepEqual(got, a.f64) {
					t.Errorf("case %d %s: values differ", i, a.file)
				}
			case a.u8 != nil || a.descr == "|u1":
				if !bytes.Equal(body, a.u8) {
					t.Errorf("case %d %s: bytes differ", i, a.file)
				}
			default:
				got, err := arr.Int32s()
				if err != nil || !reflect.DeepEqual(got, a.i32) && !(len(got) == 0 && len(a.i32) == 0) {
					t.Errorf("case %d %s: elements differ (%v)", i, a.file, err)
				}
			}
		}
		var meta Meta
		data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &meta); err != nil || meta.Blocks != s.NumBlocks() || meta.AddrDtype != addr {
			t.Errorf("case %d: meta.json %+v (%v)", i, meta, err)
		}
	}
}

func TestReadNPYRefuses(t *testing.T) {
	var good bytes.Buffer
	if err := WriteNPYInt32(&good, []int32{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("xNUMPY"), g[6:]...)},
		{"version 2", append(append(bytes.Clone(g[:6]), 2), g[7:]...)},
		{"short data", g[:len(g)-1]},
		{"long data", append(bytes.Clone(g), 0)},
		{"fortran order", bytes.Replace(bytes.Clone(g), []byte("False"), []byte("True "), 1)},
	} {
		if _, err := ReadNPY(bytes.NewReader(c.data)); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if err := WriteNPYUint16(&good, []int32{70000}); err == nil {
		t.Error("WriteNPYUint16 accepted 70000")
	}
}

// When numpy is installed, numpy itself loads what ExportNPY wrote.
func TestExportNPYWithNumPy(t *testing.T) {
	if exec.Command("python3", "-c", "import numpy").Run() != nil {
		t.Skip("python3 with numpy is not available")
	}
	s := fileCases(t)[0]
	dir := t.TempDir()
	if err := ExportNPY(dir, s); err != nil {
		t.Fatal(err)
	}
	script := `import numpy as np, sys
d = sys.argv[1]
ns = np.load(d + '/newSchedule.npy'); v = np.load(d + '/vals.npy'); xl = np.load(d + '/xlocal.npy')
print(ns.dtype, ns.shape[0], int((ns >= 0).sum()), v.dtype, xl.dtype, float(v.sum()))`
	out, err := exec.Command("python3", "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	sum := 0.0
	for _, v := range s.Vals {
		sum += v
	}
	got := strings.Fields(string(out))
	if len(got) != 6 || got[0] != "int32" || got[1] != strconv.Itoa(len(s.NewSchedule)) || got[2] != strconv.Itoa(s.NNZ) || got[3] != "float64" || got[4] != "uint16" {
		t.Errorf("numpy says %q", out)
	}
}

func TestTextRoundTrip(t *testing.T) {
	for i, s := range fileCases(t)[:4] {
		var buf bytes.Buffer
		if err := WriteText(&buf, s); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		got, err := ReadText(strings.NewReader(text), "case")
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("case %d: the schedule read back from text differs", i)
		}
		if i == 3 {
			t.Logf("text form of the tiny complex schedule:\n%s", text)
		}
		// Damage: change one task's local address, drop the last lines.
		bad := regexp.MustCompile(`xl (\d+) yl`).ReplaceAllString(text, "xl 9999 yl")
		if _, err := ReadText(strings.NewReader(bad), "bad"); !errors.Is(err, ErrDamaged) {
			t.Errorf("case %d: altered local addresses: got %v", i, err)
		}
		cut := text[:strings.LastIndex(text, "\ntask")+1]
		if _, err := ReadText(strings.NewReader(cut), "cut"); !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrDamaged) {
			t.Errorf("case %d: truncated text: got %v", i, err)
		}
	}
}
