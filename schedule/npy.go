package schedule

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/spac-gpu/spac/internal/output"
)

// NumPy dtype descriptors the exports use.
const (
	DescrInt32   = "<i4"
	DescrUint16  = "<u2"
	DescrFloat64 = "<f8"
	DescrFloat32 = "<f4"
	DescrUint8   = "|u1"
)

var npyMagic = []byte("\x93NUMPY")

// writeNPYHeader writes a .npy version 1.0 header for a C-order array of
// the given shape (one dimension, or rows and columns): the magic, version
// 1.0, the header length (uint16), and the header dict padded with spaces
// and ended by a newline so that the data starts at a multiple of 64 bytes.
func writeNPYHeader(w io.Writer, descr string, shape ...int) error {
	dims := fmt.Sprintf("%d,", shape[0])
	if len(shape) == 2 {
		dims = fmt.Sprintf("%d, %d", shape[0], shape[1])
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, dims)
	total := 10 + len(dict) + 1
	padded := (total + 63) &^ 63
	if padded-10 > math.MaxUint16 {
		return fmt.Errorf("npy header of %d bytes is too long for format 1.0", padded-10)
	}
	buf := make([]byte, 0, padded)
	buf = append(buf, npyMagic...)
	buf = append(buf, 1, 0)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(padded-10))
	buf = append(buf, dict...)
	for len(buf) < padded-1 {
		buf = append(buf, ' ')
	}
	buf = append(buf, '\n')
	_, err := w.Write(buf)
	return err
}

// WriteNPYInt32 writes a as a .npy array of '<i4'.
func WriteNPYInt32(w io.Writer, a []int32) error {
	if err := writeNPYHeader(w, DescrInt32, len(a)); err != nil {
		return err
	}
	cw := &countWriter{w: w}
	(&sectionWriter{w: cw}).int32s(a)
	return cw.err
}

// WriteNPYUint16 writes a, whose elements must lie in [0, 65535], as '<u2'.
func WriteNPYUint16(w io.Writer, a []int32) error {
	for i, v := range a {
		if v < 0 || v > math.MaxUint16 {
			return fmt.Errorf("element %d = %d does not fit uint16", i, v)
		}
	}
	if err := writeNPYHeader(w, DescrUint16, len(a)); err != nil {
		return err
	}
	cw := &countWriter{w: w}
	(&sectionWriter{w: cw}).uint16s(a)
	return cw.err
}

// WriteNPYFloat64 writes a as '<f8'.
func WriteNPYFloat64(w io.Writer, a []float64) error {
	if err := writeNPYHeader(w, DescrFloat64, len(a)); err != nil {
		return err
	}
	cw := &countWriter{w: w}
	(&sectionWriter{w: cw}).float64s(a)
	return cw.err
}

// WriteNPYInt32Matrix writes a, rows x cols elements in row-major order,
// as a two-dimensional .npy array of '<i4'.
func WriteNPYInt32Matrix(w io.Writer, a []int32, rows, cols int) error {
	if err := checkMatrix(len(a), rows, cols); err != nil {
		return err
	}
	if err := writeNPYHeader(w, DescrInt32, rows, cols); err != nil {
		return err
	}
	cw := &countWriter{w: w}
	(&sectionWriter{w: cw}).int32s(a)
	return cw.err
}

// WriteNPYFloat32Matrix writes a, rows x cols elements in row-major order,
// as a two-dimensional .npy array of '<f4'.
func WriteNPYFloat32Matrix(w io.Writer, a []float32, rows, cols int) error {
	if err := checkMatrix(len(a), rows, cols); err != nil {
		return err
	}
	if err := writeNPYHeader(w, DescrFloat32, rows, cols); err != nil {
		return err
	}
	cw := &countWriter{w: w}
	(&sectionWriter{w: cw}).float32s(a)
	return cw.err
}

func checkMatrix(n, rows, cols int) error {
	if rows < 0 || cols < 0 || n != rows*cols {
		return fmt.Errorf("npy: %d elements for a %d x %d matrix", n, rows, cols)
	}
	return nil
}

// WriteNPYUint8 writes a as '|u1'.
func WriteNPYUint8(w io.Writer, a []uint8) error {
	if err := writeNPYHeader(w, DescrUint8, len(a)); err != nil {
		return err
	}
	_, err := w.Write(a)
	return err
}

// NPY is a one- or two-dimensional array read from a .npy file.
type NPY struct {
	Descr string
	Len   int    // the number of elements
	Shape []int  // [Len], or [rows, cols] (row-major)
	Data  []byte // raw little-endian elements
}

var npyDict = regexp.MustCompile(`^\{'descr': '([<|][a-z][0-9])', 'fortran_order': False, 'shape': \((\d+),(?: (\d+))?\), \} *\n$`)

// ReadNPY reads a one- or two-dimensional, C-order .npy version 1.0 array
// as the writers here produce it; other layouts are refused.
func ReadNPY(r io.Reader) (NPY, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return NPY{}, fmt.Errorf("npy preamble: %w", err)
	}
	if !bytes.Equal(pre[:6], npyMagic) {
		return NPY{}, fmt.Errorf("not a .npy file (bad magic)")
	}
	if pre[6] != 1 || pre[7] != 0 {
		return NPY{}, fmt.Errorf(".npy version %d.%d, want 1.0", pre[6], pre[7])
	}
	hlen := int(binary.LittleEndian.Uint16(pre[8:]))
	if (10+hlen)%64 != 0 {
		return NPY{}, fmt.Errorf(".npy header of %d bytes does not end at a multiple of 64", hlen)
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return NPY{}, fmt.Errorf("npy header: %w", err)
	}
	m := npyDict.FindSubmatch(hdr)
	if m == nil {
		return NPY{}, fmt.Errorf("unsupported .npy header %q", hdr)
	}
	n, err := strconv.Atoi(string(m[2]))
	if err != nil {
		return NPY{}, fmt.Errorf("npy shape %q: %w", m[2], err)
	}
	shape := []int{n}
	if len(m[3]) > 0 {
		cols, err := strconv.Atoi(string(m[3]))
		if err != nil || (cols > 0 && n > math.MaxInt/cols) {
			return NPY{}, fmt.Errorf("npy shape (%s, %s) is too large", m[2], m[3])
		}
		shape = append(shape, cols)
		n *= cols
	}
	var size int
	switch string(m[1]) {
	case DescrInt32:
		size = 4
	case DescrUint16:
		size = 2
	case DescrFloat64:
		size = 8
	case DescrFloat32:
		size = 4
	case DescrUint8:
		size = 1
	default:
		return NPY{}, fmt.Errorf("unsupported .npy dtype %q", m[1])
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return NPY{}, fmt.Errorf("npy data: %w", err)
	}
	if len(data) != n*size {
		return NPY{}, fmt.Errorf(".npy data has %d bytes, shape %v of %s needs %d", len(data), shape, m[1], n*size)
	}
	return NPY{Descr: string(m[1]), Len: n, Shape: shape, Data: data}, nil
}

// Int32s decodes an '<i4' or '<u2' array.
func (a NPY) Int32s() ([]int32, error) {
	out := make([]int32, a.Len)
	switch a.Descr {
	case DescrInt32:
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(a.Data[4*i:]))
		}
	case DescrUint16:
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint16(a.Data[2*i:]))
		}
	default:
		return nil, fmt.Errorf("dtype %s is not an integer index type", a.Descr)
	}
	return out, nil
}

// Float64s decodes an '<f8' array.
func (a NPY) Float64s() ([]float64, error) {
	if a.Descr != DescrFloat64 {
		return nil, fmt.Errorf("dtype %s is not <f8", a.Descr)
	}
	out := make([]float64, a.Len)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:]))
	}
	return out, nil
}

// Float32s decodes an '<f4' array.
func (a NPY) Float32s() ([]float32, error) {
	if a.Descr != DescrFloat32 {
		return nil, fmt.Errorf("dtype %s is not <f4", a.Descr)
	}
	out := make([]float32, a.Len)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.Data[4*i:]))
	}
	return out, nil
}

// NPYFiles are the files ExportNPY writes, in the order it writes them.
var NPYFiles = []string{"newSchedule.npy", "block_part.npy", "block_offsets.npy", "rows.npy", "cols.npy", "vals.npy",
	"xlocal.npy", "ylocal.npy", "xunique_offsets.npy", "xunique.npy", "yunique_offsets.npy", "yunique.npy", "yshared.npy", "meta.json"}

// Meta is what meta.json beside the .npy files says about the schedule.
type Meta struct {
	Version        int     `json:"version"`
	Rows           int     `json:"rows"`
	Cols           int     `json:"cols"`
	NNZ            int     `json:"nnz"`
	BlockSize      int     `json:"block_size"`
	Blocks         int     `json:"blocks"`
	Parts          int     `json:"parts"`
	SplitBlocks    int     `json:"split_blocks"`
	Policy         string  `json:"overflow_policy"`
	Applied        string  `json:"overflow_applied"`
	XReadOnly      bool    `json:"x_read_only"`
	AddrDtype      string  `json:"local_address_dtype"`
	BudgetBytes    int     `json:"smem_budget_bytes"`
	SmemFP32       int     `json:"max_smem_bytes_fp32"`
	SmemFP64       int     `json:"max_smem_bytes_fp64"`
	HasValues      bool    `json:"has_values"`
	Fingerprint    string  `json:"structure_fingerprint"`
	Params         []Param `json:"params"`
	PaddingComment string  `json:"layout"`
}

// ExportNPY writes the schedule's arrays into the directory dir as .npy
// files, one per array, plus meta.json: newSchedule, rows, cols, vals,
// xlocal, ylocal (slots, padded to blocks*B), block_part, block_offsets,
// xunique with xunique_offsets, yunique with yunique_offsets and yshared.
// Local addresses are '<u2' (see AddrBytes); vals.npy is left out when the
// schedule has no values. The set is written into a temporary sibling
// directory and swapped in as a whole (output.WriteDir): a reader, or a run
// killed at any point, sees the old set or the new one, never arrays of two
// schedules. dir's parent must exist; an existing dir must hold nothing but
// NPYFiles (CheckNPYDir).
func ExportNPY(dir string, s *Schedule) error {
	i32 := func(name string, a []int32) output.File {
		return output.File{Name: name, Fill: func(w io.Writer) error { return WriteNPYInt32(w, a) }}
	}
	local := func(name string, a []int32) output.File {
		return output.File{Name: name, Fill: func(w io.Writer) error { return WriteNPYUint16(w, a) }}
	}
	files := []output.File{
		i32("newSchedule.npy", s.NewSchedule),
		i32("block_part.npy", s.BlockPart),
		i32("block_offsets.npy", s.BlockOffsets),
		i32("rows.npy", s.Rows),
		i32("cols.npy", s.Cols),
	}
	if s.Vals != nil {
		files = append(files, output.File{Name: "vals.npy", Fill: func(w io.Writer) error { return WriteNPYFloat64(w, s.Vals) }})
	}
	files = append(files,
		local("xlocal.npy", s.XLocal),
		local("ylocal.npy", s.YLocal),
		i32("xunique_offsets.npy", s.XOffsets),
		i32("xunique.npy", s.XUnique),
		i32("yunique_offsets.npy", s.YOffsets),
		i32("yunique.npy", s.YUnique),
		output.File{Name: "yshared.npy", Fill: func(w io.Writer) error { return WriteNPYUint8(w, s.YShared) }},
		output.File{Name: "meta.json", Fill: func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(s.meta())
		}},
	)
	if err := output.WriteDir(context.Background(), dir, isNPYFile, files); err != nil {
		return fmt.Errorf("exporting .npy files: %w", err)
	}
	return nil
}

// CheckNPYDir reports, before any work, whether ExportNPY could write dir.
func CheckNPYDir(dir string) error { return output.CheckDir(dir, isNPYFile) }

func isNPYFile(name string) bool { return slices.Contains(NPYFiles, name) }

func (s *Schedule) meta() Meta {
	return Meta{Version: Version, Rows: s.NRows, Cols: s.NCols, NNZ: s.NNZ, BlockSize: s.BlockSize,
		Blocks: s.NumBlocks(), Parts: s.Parts, SplitBlocks: s.SplitBlocks, Policy: s.Policy.String(),
		Applied: s.Applied.String(), XReadOnly: s.XReadOnly(), AddrDtype: DescrUint16, BudgetBytes: s.Budget,
		SmemFP32: s.MaxSharedBytes(4), SmemFP64: s.MaxSharedBytes(8), HasValues: s.Vals != nil,
		Fingerprint: fmt.Sprintf("%016x", s.Fingerprint), Params: s.Params,
		PaddingComment: "per-slot arrays have blocks*block_size entries indexed by thread id; block b's tasks are its first block_offsets[b+1]-block_offsets[b] slots, the rest padding (newSchedule -1)"}
}
