package schedule

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/spac-gpu/spac/internal/output"
	"github.com/spac-gpu/spac/matrices"
)

// Magic starts every schedule file; Version is the layout this package
// writes and the only one it reads.
const (
	Magic   = "SPACSCHD"
	Version = 1
)

// headerSize is the fixed part of the header, before the parameter text.
const headerSize = 120

// Errors a schedule file can be refused with; ReadFile wraps them with the
// file name and what to do.
var (
	ErrNotSchedule = errors.New("not a spac schedule file")
	ErrVersion     = errors.New("unsupported schedule file version")
	ErrTruncated   = errors.New("truncated schedule file")
	ErrDamaged     = errors.New("damaged schedule file")
	ErrMismatch    = errors.New("schedule made for another matrix")
)

// File flags.
const (
	flagXReadOnly = 1 << 0
	flagValues    = 1 << 2
)

// WriteTo writes the schedule in the binary schedule format, version 1.
// Everything is little-endian; every section starts at a multiple of 8
// bytes, zero-padded. N = blocks*B is the number of slots.
//
//	offset size  field
//	0      8     magic "SPACSCHD"
//	8      4     version (1)
//	12     4     flags: bit 0 x through the read-only cache, bit 2 values
//	             present; other bits 0 (bit 1 is kept for int32 local
//	             addresses, which no budget needs today)
//	16     4     block size B
//	20     4     blocks
//	24     4     parts K of the partition
//	28     4     split blocks (blocks - K when parts were split)
//	32     4     overflow policy asked for (0 auto, 1 split, 2 readonly)
//	36     4     overflow handling applied (1 split, 2 readonly, 3 none)
//	40     4     shared-memory budget per block, bytes
//	44     4     value size the budget was checked for (4 or 8)
//	48     8     rows
//	56     8     columns
//	64     8     nonzeros
//	72     8     total unique x (length of xunique)
//	80     8     total unique y (length of yunique)
//	88     4     P, length of the parameter text
//	92     4     reserved, 0
//	96     8     structure fingerprint (StructureFingerprint of the matrix)
//	104    8     payload fingerprint: xxhash64 of every byte after the header
//	112    8     header fingerprint: xxhash64 of bytes [0,112) and of the
//	             parameter text with its padding
//	120    P     parameter text: "key=value\n" per parameter, UTF-8,
//	             zero-padded to a multiple of 8
//	then the payload sections in this order, each zero-padded to 8 bytes:
//	  new_schedule     int32[N]     entry per thread id, -1 for padding
//	  block_part       int32[blocks]
//	  block_offsets    int32[blocks+1]
//	  rows             int32[N]     -1 for padding
//	  cols             int32[N]     -1 for padding
//	  vals             float64[N]   only when flags bit 2 is set
//	  xlocal           uint16[N]    0 for padding and when x is read-only
//	  ylocal           uint16[N]    0 for padding
//	  xunique_offsets  int32[blocks+1]
//	  xunique          int32[total unique x]
//	  yunique_offsets  int32[blocks+1]
//	  yunique          int32[total unique y]
//	  yshared          uint8[total unique y]  1 shared (atomic flush), 0 owned
//
// The file ends right after the last section's padding.
func (s *Schedule) WriteTo(w io.Writer) (int64, error) {
	// The payload fingerprint sits in the header, which comes first: encode
	// the payload once into the hash, then header and payload for real.
	// Encoding twice is cheaper than holding a copy of the payload.
	hdr := s.header()
	h := xxhash.New()
	s.writePayload(h)
	binary.LittleEndian.PutUint64(hdr[104:], h.Sum64())
	binary.LittleEndian.PutUint64(hdr[112:], headerHash(hdr))
	cw := &countWriter{w: w}
	cw.Write(hdr)
	s.writePayload(cw)
	return cw.n, cw.err
}

// header builds the header and parameter text, padded to 8, without the
// two checksums.
func (s *Schedule) header() []byte {
	params := encodeParams(s.Params)
	size := pad8(headerSize + len(params))
	hdr := make([]byte, size)
	copy(hdr, Magic)
	le := binary.LittleEndian
	le.PutUint32(hdr[8:], Version)
	flags := uint32(0)
	if s.XReadOnly() {
		flags |= flagXReadOnly
	}
	if s.Vals != nil {
		flags |= flagValues
	}
	le.PutUint32(hdr[12:], flags)
	le.PutUint32(hdr[16:], uint32(s.BlockSize))
	le.PutUint32(hdr[20:], uint32(s.NumBlocks()))
	le.PutUint32(hdr[24:], uint32(s.Parts))
	le.PutUint32(hdr[28:], uint32(s.SplitBlocks))
	le.PutUint32(hdr[32:], uint32(s.Policy))
	le.PutUint32(hdr[36:], uint32(s.Applied))
	le.PutUint32(hdr[40:], uint32(s.Budget))
	le.PutUint32(hdr[44:], uint32(s.ValueBytes))
	le.PutUint64(hdr[48:], uint64(s.NRows))
	le.PutUint64(hdr[56:], uint64(s.NCols))
	le.PutUint64(hdr[64:], uint64(s.NNZ))
	le.PutUint64(hdr[72:], uint64(len(s.XUnique)))
	le.PutUint64(hdr[80:], uint64(len(s.YUnique)))
	le.PutUint32(hdr[88:], uint32(len(params)))
	le.PutUint64(hdr[96:], s.Fingerprint)
	copy(hdr[headerSize:], params)
	return hdr
}

func headerHash(hdr []byte) uint64 {
	h := xxhash.New()
	h.Write(hdr[:112])
	h.Write(hdr[headerSize:])
	return h.Sum64()
}

func pad8(n int) int { return (n + 7) &^ 7 }

func encodeParams(ps []Param) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Key)
		b.WriteByte('=')
		b.WriteString(p.Value)
		b.WriteByte('\n')
	}
	return b.String()
}

func decodeParams(text string) ([]Param, error) {
	var ps []Param
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("parameter line %q is not key=value", line)
		}
		ps = append(ps, Param{Key: k, Value: v})
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("parameter text does not end with a newline")
	}
	return ps, nil
}

// countWriter counts bytes and keeps the first error, so the section
// writers need not check every call.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// sectionWriter encodes arrays little-endian through a fixed buffer; end
// pads a section of the schedule file (the .npy writers do not pad).
type sectionWriter struct {
	w   io.Writer
	buf [32 << 10]byte
	n   int // bytes written in the current section
}

func (sw *sectionWriter) int32s(a []int32) { words32(sw, a, func(v int32) uint32 { return uint32(v) }) }

func (sw *sectionWriter) float32s(a []float32) { words32(sw, a, math.Float32bits) }

// words32 writes a's elements as the 4-byte little-endian words bits
// gives.
func words32[E any](sw *sectionWriter, a []E, bits func(E) uint32) {
	for len(a) > 0 {
		k := min(len(a), len(sw.buf)/4)
		for i, v := range a[:k] {
			binary.LittleEndian.PutUint32(sw.buf[4*i:], bits(v))
		}
		sw.put(sw.buf[:4*k])
		a = a[k:]
	}
}

func (sw *sectionWriter) uint16s(a []int32) {
	for len(a) > 0 {
		k := min(len(a), len(sw.buf)/2)
		for i, v := range a[:k] {
			binary.LittleEndian.PutUint16(sw.buf[2*i:], uint16(v))
		}
		sw.put(sw.buf[:2*k])
		a = a[k:]
	}
}

func (sw *sectionWriter) float64s(a []float64) {
	for len(a) > 0 {
		k := min(len(a), len(sw.buf)/8)
		for i, v := range a[:k] {
			binary.LittleEndian.PutUint64(sw.buf[8*i:], math.Float64bits(v))
		}
		sw.put(sw.buf[:8*k])
		a = a[k:]
	}
}

func (sw *sectionWriter) put(p []byte) {
	sw.w.Write(p)
	sw.n += len(p)
}

// end pads the section to a multiple of 8 bytes.
func (sw *sectionWriter) end() {
	var zero [8]byte
	sw.w.Write(zero[:pad8(sw.n)-sw.n])
	sw.n = 0
}

func (s *Schedule) writePayload(w io.Writer) {
	sw := &sectionWriter{w: w}
	i32 := func(a []int32) { sw.int32s(a); sw.end() }
	i32(s.NewSchedule)
	i32(s.BlockPart)
	i32(s.BlockOffsets)
	i32(s.Rows)
	i32(s.Cols)
	if s.Vals != nil {
		sw.float64s(s.Vals)
		sw.end()
	}
	sw.uint16s(s.XLocal)
	sw.end()
	sw.uint16s(s.YLocal)
	sw.end()
	i32(s.XOffsets)
	i32(s.XUnique)
	i32(s.YOffsets)
	i32(s.YUnique)
	sw.put(s.YShared)
	sw.end()
}

// WriteFile writes the schedule to path as output.Write does: a regular
// file is replaced atomically (a reader sees the old file or the whole new
// one), a device, FIFO or symbolic link's target is written through, and
// "-" writes standard output.
func WriteFile(path string, s *Schedule) error {
	return output.Write(context.Background(), path, os.Stdout, func(w io.Writer) error {
		_, err := s.WriteTo(w)
		return err
	})
}

// ReadFile reads a schedule file written by WriteFile. It refuses a file
// that is not a schedule, of another version, truncated, or damaged (both
// checksums and every structural invariant are checked), and, when coo is
// not nil, a schedule made for another matrix. Errors name the file, what
// is wrong and what to do; errors.Is tells ErrNotSchedule, ErrVersion,
// ErrTruncated, ErrDamaged and ErrMismatch apart.
func ReadFile(path string, coo *matrices.COO) (*Schedule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading schedule: %w", err)
	}
	return Decode(data, path, coo)
}

// Read reads a schedule from r like ReadFile; name labels errors.
func Read(r io.Reader, name string, coo *matrices.COO) (*Schedule, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading schedule %s: %w", name, err)
	}
	return Decode(data, name, coo)
}

const rebuild = "rebuild it with 'spac schedule'"

// Decode parses a schedule file held in data; see ReadFile.
func Decode(data []byte, name string, coo *matrices.COO) (*Schedule, error) {
	fail := func(kind error, format string, a ...any) error {
		return fmt.Errorf("reading schedule %s: %w: %s", name, kind, fmt.Sprintf(format, a...))
	}
	if len(data) < len(Magic) || !bytes.Equal(data[:len(Magic)], []byte(Magic)) {
		if len(data) < len(Magic) && bytes.HasPrefix([]byte(Magic), data) {
			return nil, fail(ErrTruncated, "only %d bytes; %s", len(data), rebuild)
		}
		return nil, fail(ErrNotSchedule, "it does not start with %q; give a file written by 'spac schedule -o'", Magic)
	}
	if len(data) < headerSize {
		return nil, fail(ErrTruncated, "%d bytes, shorter than the %d-byte header; %s", len(data), headerSize, rebuild)
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != Version {
		return nil, fail(ErrVersion, "version %d, this program reads version %d; %s", v, Version, rebuild)
	}
	plen := int64(le.Uint32(data[88:]))
	hdrEnd := int64(pad8(headerSize + int(min(plen, 1<<30))))
	if hdrEnd > int64(len(data)) {
		return nil, fail(ErrTruncated, "%d bytes, shorter than the %d-byte header it announces (cut short, or a damaged header); %s", len(data), hdrEnd, rebuild)
	}
	hdr := data[:hdrEnd]
	if got, want := headerHash(hdr), le.Uint64(data[112:]); got != want {
		return nil, fail(ErrDamaged, "the header checksum does not match (%016x, want %016x): the header was altered; %s", got, want, rebuild)
	}
	for _, c := range hdr[headerSize+plen:] {
		if c != 0 {
			return nil, fail(ErrDamaged, "nonzero header padding; %s", rebuild)
		}
	}
	s := &Schedule{}
	flags := le.Uint32(data[12:])
	s.BlockSize = int(le.Uint32(data[16:]))
	nb := int64(le.Uint32(data[20:]))
	s.Parts = int(le.Uint32(data[24:]))
	s.SplitBlocks = int(le.Uint32(data[28:]))
	s.Policy = Overflow(le.Uint32(data[32:]))
	s.Applied = Overflow(le.Uint32(data[36:]))
	s.Budget = int(le.Uint32(data[40:]))
	s.ValueBytes = int(le.Uint32(data[44:]))
	nrows, ncols, nnz := le.Uint64(data[48:]), le.Uint64(data[56:]), le.Uint64(data[64:])
	nx, ny := le.Uint64(data[72:]), le.Uint64(data[80:])
	s.Fingerprint = le.Uint64(data[96:])
	if flags&^uint32(flagXReadOnly|flagValues) != 0 {
		return nil, fail(ErrDamaged, "unknown flags %#x; %s", flags, rebuild)
	}
	if le.Uint32(data[92:]) != 0 {
		return nil, fail(ErrDamaged, "reserved header field is not zero; %s", rebuild)
	}
	const lim = math.MaxInt32
	slots := nb * int64(s.BlockSize)
	if nrows > lim || ncols > lim || nnz > lim || nx > lim || ny > lim || nb < 1 || s.BlockSize < 1 || slots > lim {
		return nil, fail(ErrDamaged, "header counts out of range (%d blocks of %d threads, %d x %d, %d nonzeros); %s", nb, s.BlockSize, nrows, ncols, nnz, rebuild)
	}
	s.NRows, s.NCols, s.NNZ = int(nrows), int(ncols), int(nnz)
	var err error
	if s.Params, err = decodeParams(string(hdr[headerSize : headerSize+plen])); err != nil {
		return nil, fail(ErrDamaged, "%v; %s", err, rebuild)
	}
	const aw = AddrBytes
	sections := []int64{4 * slots, 4 * nb, 4 * (nb + 1), 4 * slots, 4 * slots, aw * slots, aw * slots,
		4 * (nb + 1), 4 * int64(nx), 4 * (nb + 1), 4 * int64(ny), int64(ny)}
	if flags&flagValues != 0 {
		sections = append(sections, 8*slots)
	}
	want := hdrEnd
	for _, n := range sections {
		want += int64(pad8(int(n)))
	}
	if int64(len(data)) < want {
		return nil, fail(ErrTruncated, "%d bytes, its header promises %d (cut short, e.g. by an interrupted copy); %s", len(data), want, rebuild)
	}
	if int64(len(data)) > want {
		return nil, fail(ErrDamaged, "%d bytes, its header promises %d: %d extra bytes at the end; %s", len(data), want, int64(len(data))-want, rebuild)
	}
	payload := data[hdrEnd:]
	if got, want := xxhash.Sum64(payload), le.Uint64(data[104:]); got != want {
		return nil, fail(ErrDamaged, "the payload checksum does not match (%016x, want %016x): the data was altered; %s", got, want, rebuild)
	}

	r := &sectionReader{data: payload}
	s.NewSchedule = r.int32s(slots)
	s.BlockPart = r.int32s(nb)
	s.BlockOffsets = r.int32s(nb + 1)
	s.Rows = r.int32s(slots)
	s.Cols = r.int32s(slots)
	if flags&flagValues != 0 {
		s.Vals = r.float64s(slots)
	}
	s.XLocal, s.YLocal = r.uint16s(slots), r.uint16s(slots)
	s.XOffsets = r.int32s(nb + 1)
	s.XUnique = r.int32s(int64(nx))
	s.YOffsets = r.int32s(nb + 1)
	s.YUnique = r.int32s(int64(ny))
	s.YShared = r.bytes(int64(ny))
	if err := s.Validate(); err != nil {
		return nil, fail(ErrDamaged, "inconsistent content: %v; %s", err, rebuild)
	}
	if (flags&flagXReadOnly != 0) != s.XReadOnly() {
		return nil, fail(ErrDamaged, "the read-only flag disagrees with the overflow handling; %s", rebuild)
	}
	if coo != nil {
		if err := s.CheckMatrix(coo); err != nil {
			return nil, fmt.Errorf("reading schedule %s: %w", name, err)
		}
	}
	return s, nil
}

// CheckMatrix reports whether the schedule was made for coo's structure.
func (s *Schedule) CheckMatrix(coo *matrices.COO) error {
	if fp := StructureFingerprint(coo); fp != s.Fingerprint {
		return fmt.Errorf("%w: the schedule is for a %d x %d matrix with %d entries (fingerprint %016x), %s is %d x %d with %d entries (fingerprint %016x); build a schedule for this matrix, or read it the same way (--as-stored, input format) as when the schedule was made",
			ErrMismatch, s.NRows, s.NCols, s.NNZ, s.Fingerprint, coo.Name, coo.NRows, coo.NCols, coo.NNZ(), fp)
	}
	return nil
}

// sectionReader decodes the payload's sections in order; Decode has checked
// the total size, so every read is in bounds.
type sectionReader struct {
	data []byte
	off  int64
}

func (r *sectionReader) take(n int64) []byte {
	b := r.data[r.off : r.off+n]
	r.off += int64(pad8(int(n)))
	return b
}

func (r *sectionReader) int32s(n int64) []int32 {
	b := r.take(4 * n)
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return a
}

func (r *sectionReader) uint16s(n int64) []int32 {
	b := r.take(2 * n)
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return a
}

func (r *sectionReader) float64s(n int64) []float64 {
	b := r.take(8 * n)
	a := make([]float64, n)
	for i := range a {
		a[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return a
}

func (r *sectionReader) bytes(n int64) []uint8 {
	return append([]uint8(nil), r.take(n)...)
}
