package spmv

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/order"
)

// The csr-d16 kernel's format: CSR's entries in their own order (rows
// ascending, an empty row given one slot without an entry), cut into
// blocks of B slots that B/8 threads run eight consecutive slots each, as
// spac-seg8 does. Per slot it holds the value and a uint16 column offset
// from the block's column base; per thread one byte of row starts (bit j:
// slot j starts a row, or is the block's first). Offsets d16Escape and
// d16Empty are not offsets: the first says the column is the block's next
// escaped column (Esc, in slot order), the second that the slot holds no
// entry (an empty row's, or padding past the last entry).
//
// Per nonzero it stores w + 2 bytes and one bit, against CSR's w + 4, and
// 4 bytes per escaped column; rows need no offsets, since local row r of a
// block is global row Meta[8b] + r. So where a block's columns lie within
// 65,534 of each other, as in a banded matrix or one numbered part by part
// (spac reorder), it reads about a quarter fewer bytes than CSR. Where
// at least half the blocks' columns are scattered (more than half their
// slots would escape), those blocks are wide instead: each slot's column
// is 24 bits from the block's least column (its base), the low 16 in
// Offset and the high 8 in High (d16WideEmpty for no entry), w + 3 bytes
// and a bit per slot, a byte less than CSR's per nonzero and no row
// offsets; such a matrix runs the kernel's wide form (csr_d16_wide),
// which reads High in wide blocks once their flag arrives. A block whose
// columns span 2^24 - 1 or more, and every scattered block of a matrix
// with few of them, escapes instead. So the kernel runs any matrix.
//
// Meta has 8 int32 per block: the row of its first slot, the column base,
// the index of its first escaped column in Esc, its slots with entries or
// empty rows (the rest are padding); then flags (bit 0: the first row
// began in an earlier block; bit 1: the last row goes on in a later one;
// bit 2: the block is wide; bits 3 and up: the last row's local index)
// and, for warps 1 to 3, the rows started and the columns escaped before
// the warp (rows | escapes << 16). A row that crosses a block boundary is
// added with atomicAdd by every block it is in, and ZeroRows lists those
// rows for clearing first.
// Where every row fits a block and the padding is small, blocks are cut
// at rows instead (d16Layout): then no row crosses one.
type D16 struct {
	BlockSize int
	Blocks    int
	Val       []float64
	Offset    []uint16
	RowStarts []uint8
	Esc       []int32
	High      []uint8 // a wide block's columns' bits 16-23 from its base (bits 0-15 in Offset); nil where no block is wide
	Meta      []int32
	ZeroRows  []int32

	wideBlocks int
}

const (
	d16Escape = 0xffff
	d16Empty  = 0xfffe
	d16Span   = d16Empty - 1 // the largest offset from a block's column base
	d16Slots  = seg8Slots
	d16Sample = 64 // columns sampled for a block's base where they span more than d16Span

	d16MaxSlots = seg8Warps * seg8WarpSlots // the largest block: four warps of eight slots a thread

	d16Wide     = 4 // Meta flag: the block's columns are 24 bits from its base, in Offset and High
	d16RowShift = 3 // Meta: the last row's local index above the flags

	// d16WideEmpty is a wide slot without an entry: High 0xff and Offset
	// 0xffff; a wide block's columns lie below it from the base.
	d16WideEmpty = 1<<24 - 1
)

// NewD16 builds csr-d16's format of m with blockSize slots per block (a
// multiple of 256 up to 1024: B/8 threads in at most four whole warps), or
// says why the kernel does not run it (ErrUnsupported: another block size,
// or a matrix without rows).
func NewD16(m *Matrix, blockSize int) (*D16, error) {
	d, err := newD16(m, blockSize, true)
	if err == nil && d.wideBlocks > 0 && d16WideShare*d.wideBlocks < d.Blocks {
		// Too few wide blocks to pay for the wide kernel's slower narrow
		// ones (measured: a quarter slower): they escape instead.
		d, err = newD16(m, blockSize, false)
	}
	return d, err
}

// d16WideShare: wide blocks only where at least one block in this many
// would be wide.
const d16WideShare = 2

// newD16 builds the format; blocks may be wide where allowWide.
func newD16(m *Matrix, blockSize int, allowWide bool) (*D16, error) {
	if blockSize%seg8WarpSlots != 0 || blockSize > d16MaxSlots {
		return nil, fmt.Errorf("%w: csr-d16 runs B/8 threads in at most 4 whole warps, and block size %d is not 256, 512, 768 or 1024", ErrUnsupported, blockSize)
	}
	empty := 0
	for r := range m.NRows {
		if m.RowPtr[r] == m.RowPtr[r+1] {
			empty++
		}
	}
	used := m.NNZ() + empty
	if used == 0 {
		return nil, fmt.Errorf("%w: csr-d16 needs at least one row", ErrUnsupported)
	}
	blocks, aligned := d16Layout(m, blockSize, used)
	slots := blocks * blockSize
	d := &D16{
		BlockSize: blockSize, Blocks: blocks,
		Val: make([]float64, slots), Offset: make([]uint16, slots), RowStarts: make([]uint8, slots/d16Slots),
		Meta: make([]int32, 8*blocks),
	}
	if allowWide {
		d.High = make([]uint8, slots) // dropped below if no block is wide
	}
	// The blocks are independent once each knows its first row and entry:
	// a pass over the rows finds those, then runs of d16Run blocks are
	// built in parallel, each listing its escaped columns apart; their
	// places in Esc follow once every run has counted its own.
	starts := d16Starts(m, blockSize, blocks, aligned)
	runs := (blocks + d16Run - 1) / d16Run
	escaped := make([][]int32, runs)
	par.DoRanges(blocks, d16Run, func(lo, hi int) {
		cols, sample := make([]int32, 0, blockSize), make([]int32, 0, blockSize)
		var esc []int32
		for b := lo; b < hi; b++ {
			var row0 int
			cols, row0 = d.fillBlock(m, b, starts[b], aligned, cols)
			d.Meta[8*b+2] = int32(len(esc)) // within the run, for now
			esc = d.encodeBlock(b, cols, &sample, row0, allowWide, esc)
		}
		escaped[lo/d16Run] = esc
	})
	first := make([]int, runs+1) // each run's first place in Esc
	for run, esc := range escaped {
		first[run+1] = first[run] + len(esc)
	}
	d.Esc = make([]int32, first[runs])
	par.DoRanges(blocks, d16Run, func(lo, hi int) {
		run := lo / d16Run
		copy(d.Esc[first[run]:], escaped[run])
		for b := lo; b < hi; b++ {
			d.Meta[8*b+2] += int32(first[run])
		}
	})
	for b := range blocks {
		if d.Meta[8*b+4]&d16Wide != 0 {
			d.wideBlocks++
		}
	}
	if d.wideBlocks == 0 {
		d.High = nil
	}
	d.flagSharedRows()
	return d, nil
}

// d16Run is how many blocks one task of newD16 builds.
const d16Run = 64

// d16Start is the row and the entry a block's first slot takes.
type d16Start struct{ row, entry int32 }

// d16Starts returns each block's start in the layout d16Layout chose: a
// row takes rowSlots slots, and in an aligned layout one that does not fit
// the rest of its block starts the next (the rest is padding); otherwise
// blocks are cut every B slots, inside a row where it crosses.
func d16Starts(m *Matrix, blockSize, blocks int, aligned bool) []d16Start {
	starts := make([]d16Start, blocks)
	pos, next := 0, 0 // the row's first slot; the first block not yet placed
	for r := 0; r < m.NRows && next < blocks; r++ {
		n := rowSlots(m, r)
		if left := blockSize - pos%blockSize; aligned && n > left {
			pos += left
		}
		for ; next < blocks && next*blockSize < pos+n; next++ {
			starts[next] = d16Start{row: int32(r), entry: m.RowPtr[r] + int32(next*blockSize-pos)}
			if m.RowPtr[r] == m.RowPtr[r+1] {
				starts[next].entry = m.RowPtr[r]
			}
		}
		pos += n
	}
	for ; next < blocks; next++ { // none in a layout of d16Layout's; past every row if one were
		starts[next] = d16Start{row: int32(m.NRows), entry: int32(m.NNZ())}
	}
	return starts
}

// fillBlock writes block b's values and row starts from its start, and
// lists its columns in cols (-1: a slot without an entry); it returns them
// with the block's first row. It copies a row's run of entries at once.
func (d *D16) fillBlock(m *Matrix, b int, start d16Start, aligned bool, cols []int32) ([]int32, int) {
	B := d.BlockSize
	lo, hi := b*B, (b+1)*B
	cols = cols[:0]
	r, e := int(start.row), int(start.entry)
	row0 := r
	for s := lo; s < hi && r < m.NRows; {
		rs, re := int(m.RowPtr[r]), int(m.RowPtr[r+1])
		if e == rs { // the row starts here
			if aligned && s > lo && rowSlots(m, r) > hi-s {
				break // it starts the next block; the rest is padding
			}
			d.RowStarts[s/d16Slots] |= 1 << (s % d16Slots)
		} else if s == lo { // the block's first slot, inside a row
			d.RowStarts[s/d16Slots] |= 1 << (s % d16Slots)
		}
		if rs == re { // an empty row: one slot, no entry
			cols = append(cols, -1)
			s++
			r++
			continue
		}
		n := min(re-e, hi-s)
		cols = append(cols, m.Col[e:e+n]...)
		copy(d.Val[s:s+n], m.Val[e:e+n])
		s, e = s+n, e+n
		if e == re {
			r++
		}
	}
	return cols, row0
}

// d16AlignWaste bounds the padding of an aligned layout: at most one slot in
// this many. Aligning saves a launch (the clearing of rows that cross
// blocks, 1-3 us, as much as a tenth of a product of 1-5M nonzeros) and
// the atomics; padding costs its slots' bytes.
const d16AlignWaste = 16

// d16Layout returns the number of blocks of csr-d16's format and whether
// its blocks are aligned to rows: no row crosses a block, so every row is
// stored plainly and no rows are cleared first. A row that does not fit
// the rest of its block then starts the next one, which is possible when
// no row needs more than a block and chosen when the padding stays within
// a d16AlignWaste-th of the slots; otherwise blocks are cut every B slots.
func d16Layout(m *Matrix, blockSize, used int) (blocks int, aligned bool) {
	pos := 0 // slots so far, padding included
	for r := range m.NRows {
		n := rowSlots(m, r)
		if n > blockSize {
			return (used + blockSize - 1) / blockSize, false
		}
		if left := blockSize - pos%blockSize; n > left {
			pos += left
		}
		pos += n
	}
	if (pos-used)*d16AlignWaste > used {
		return (used + blockSize - 1) / blockSize, false
	}
	return (pos + blockSize - 1) / blockSize, true
}

// rowSlots is the slots row r takes: its entries, or one if it has none.
func rowSlots(m *Matrix, r int) int {
	return max(1, int(m.RowPtr[r+1]-m.RowPtr[r]))
}

// encodeBlock writes block b's offsets and Meta (but the flags and the
// first escape's index) from its columns (-1: a slot without an entry),
// and returns esc with the columns it escapes appended; the rows come from
// the row starts already written. Where allowWide, High is there for a
// wide block.
func (d *D16) encodeBlock(b int, cols []int32, sample *[]int32, row0 int, allowWide bool, esc []int32) []int32 {
	B := d.BlockSize
	lo := b * B
	// The base: the smallest column where all fit, else the one that puts
	// the median of an evenly spaced sample of the columns (d16Sample of
	// them: sorting all cost 40 ns a nonzero) in the middle of the span.
	least, most, n := int32(math.MaxInt32), int32(-1), 0
	for _, c := range cols {
		if c >= 0 {
			least, most, n = min(least, c), max(most, c), n+1
		}
	}
	base := 0 // a block of empty rows only: no column read
	switch {
	case n == 0:
	case int(most)-int(least) <= d16Span:
		base = int(least)
	default:
		*sample = (*sample)[:0]
		step, k := max(1, n/d16Sample), 0
		for _, c := range cols {
			if c >= 0 {
				if k%step == 0 {
					*sample = append(*sample, c)
				}
				k++
			}
		}
		slices.Sort(*sample)
		base = int((*sample)[len(*sample)/2]) - d16Span/2
	}
	far := 0
	for _, c := range cols {
		if c >= 0 && (int(c)-base < 0 || int(c)-base > d16Span) {
			far++
		}
	}
	// A wide block reads 3 bytes a slot; a narrow one 2, and 4 more per
	// escape.
	wide := allowWide && 2*far > B && int(most)-int(least) < d16WideEmpty
	if wide {
		base = int(least)
	}
	meta := d.Meta[8*b : 8*b+8]
	meta[0], meta[1], meta[3] = int32(row0), int32(base), int32(len(cols))
	rows, escapes := 0, 0
	for i := range B {
		s := lo + i
		if i > 0 && i%seg8WarpSlots == 0 {
			meta[4+i/seg8WarpSlots] = int32(rows | escapes<<16)
		}
		if d.RowStarts[s/d16Slots]>>(s%d16Slots)&1 != 0 {
			rows++
		}
		switch {
		case wide: // the column's 24 bits from the base
			rel := d16WideEmpty
			if i < len(cols) && cols[i] >= 0 {
				rel = int(cols[i]) - base
			}
			d.Offset[s], d.High[s] = uint16(rel), uint8(rel>>16)
		case i >= len(cols) || cols[i] < 0:
			d.Offset[s] = d16Empty
		case int(cols[i])-base >= 0 && int(cols[i])-base <= d16Span:
			d.Offset[s] = uint16(int(cols[i]) - base)
		default:
			d.Offset[s] = d16Escape
			esc = append(esc, cols[i])
			escapes++
		}
	}
	meta[4] = int32(rows-1) << d16RowShift // the last row's local index; the shared flags come later
	if wide {
		meta[4] |= d16Wide
	}
	return esc
}

// flagSharedRows sets each block's shared-row flags and lists the rows
// that cross a block boundary in ZeroRows (once each, ascending).
func (d *D16) flagSharedRows() {
	for b := 1; b < d.Blocks; b++ {
		prevLast := int(d.Meta[8*(b-1)]) + int(d.Meta[8*(b-1)+4]>>d16RowShift)
		first := int(d.Meta[8*b])
		// The block's first slot continues the previous block's last row
		// unless it starts a row of its own: it holds an entry that is not
		// its row's first (empty rows have a single slot).
		if first == prevLast {
			d.Meta[8*(b-1)+4] |= 2
			d.Meta[8*b+4] |= 1
			if n := len(d.ZeroRows); n == 0 || d.ZeroRows[n-1] != int32(first) {
				d.ZeroRows = append(d.ZeroRows, int32(first))
			}
		}
	}
}

// FormatBytes is what csr-d16 reads of its format with values of p:
// every slot's value and offset, the wide blocks' high bytes, the
// row-start bytes, the escaped columns, Meta and the rows cleared first.
func (d *D16) FormatBytes(p Precision) int64 {
	slots := int64(d.Blocks) * int64(d.BlockSize)
	wide := int64(d.wideBlocks) * int64(d.BlockSize)
	return slots*int64(p.Bytes()+2) + wide + slots/d16Slots + int64(len(d.Esc))*4 + int64(len(d.Meta))*4 + int64(len(d.ZeroRows))*4
}

// HotColumns returns m with its columns renumbered hottest first, for
// csr-d16-hot, and the old column of each new one (from). The columns are
// grouped by degree, a group per power of two and the highest first, and
// keep their order within a group; columns without entries are left out
// (from has one entry per column in use). On a power-law matrix gathered
// in its own order, x's hot entries lie scattered among cold ones, so a
// cached sector of x holds one useful entry; numbered together, the hot
// entries share sectors, and those that half the entries read fit each
// SM's L1 (R-MAT at scale 23: the 56k highest-degree columns, 220 KB of
// fp32, are read by 53% of the entries). The groups keep a
// matrix of even degrees (a mesh) in its order. The renumbered matrix
// shares m's RowPtr and Val.
func HotColumns(m *Matrix) (hot *Matrix, from []int32) {
	deg := columnDegrees(m)
	from = byDegreeGroup(deg, nil)
	renumber := deg // each column's new number, over its degree once read
	for c := range renumber {
		renumber[c] = -1
	}
	for i, c := range from {
		renumber[c] = int32(i)
	}
	hot = &Matrix{Name: m.Name, NRows: m.NRows, NCols: len(from), RowPtr: m.RowPtr, Col: make([]int32, len(m.Col)), Val: m.Val,
		MaxRowNNZ: m.MaxRowNNZ, Duplicates: m.Duplicates}
	for e, c := range m.Col {
		hot.Col[e] = renumber[c]
	}
	return hot, from
}

// columnDegrees counts m's entries in each column.
func columnDegrees(m *Matrix) []int32 {
	deg := make([]int32, m.NCols)
	for _, c := range m.Col {
		deg[c]++
	}
	return deg
}

// byDegreeGroup returns the columns of order (perm[new] = old; nil: the
// columns in their own order) grouped by degree, a group per power of two
// and the highest first, each group in order's order. Columns of degree 0
// are left out.
func byDegreeGroup(deg, order []int32) []int32 {
	// Group g (0 to 32: the degree's bit length) comes (32-g)-th from the
	// highest. start[i+1] counts group i's columns; after the prefix sum
	// start[i] is the first number of group i.
	group := func(d int32) int { return bits.Len32(uint32(d)) }
	var start [34]int32
	for _, d := range deg {
		if d > 0 {
			start[32-group(d)+1]++
		}
	}
	for g := 1; g < len(start); g++ {
		start[g] += start[g-1]
	}
	from := make([]int32, start[len(start)-1])
	place := func(c int32) {
		if d := deg[c]; d > 0 {
			at := &start[32-group(d)]
			from[*at] = c
			*at++
		}
	}
	if order == nil {
		for c := range deg {
			place(int32(c))
		}
	} else {
		for _, c := range order {
			place(c)
		}
	}
	return from
}

// usedColumns returns the columns of m with entries in order colFrom
// (perm[new] = old), the order of spac-d16-ord's x, or grouped by degree
// for spac-d16-hot (byDegreeGroup). x is gathered into that order on every
// product; the columns without entries are left out, as csr-d16-hot leaves
// them: they came last, and on R-MAT, half of whose columns are empty,
// cost the gather a second pass over x for nothing (R-MAT 24, fp32: 124 us
// against csr-d16-hot's 51). Left out, spac-d16-hot ran 1.8% (fp32) and
// 4.1% (fp64) faster on R-MAT 22 (docs/gpu-bench-h200, stop 51, call d).
func usedColumns(m *Matrix, colFrom []int32, hot bool) []int32 {
	deg := columnDegrees(m)
	if hot {
		return byDegreeGroup(deg, colFrom)
	}
	return slices.DeleteFunc(slices.Clone(colFrom), func(c int32) bool { return deg[c] == 0 })
}

// RCMOrdered returns the square matrix m renumbered by the reverse
// Cuthill-McKee order of its structure (order.RCM, the structure taken as
// symmetric), rows and columns alike, each row's entries by column, and
// the order (perm[new] = old), for csr-d16-rcm. A matrix given in an order
// without locality (a mesh numbered at random) gathers x at random, a
// sector a nonzero from DRAM once x outgrows the L2; renumbered, a block's
// columns lie close together, and the two passes that move x in and y out
// cost a sector per row each.
func RCMOrdered(m *Matrix) (rcm *Matrix, perm []int32) {
	n := m.NRows
	ptr := make([]int64, n+1)
	for r := range n + 1 {
		ptr[r] = int64(m.RowPtr[r])
	}
	perm = order.RCM(n, ptr, m.Col)
	return renumbered(m, perm, perm), perm
}

// renumbered returns m with its rows and columns renumbered, row i being
// m's row rowFrom[i] and column j m's column colFrom[j] (both perm[new] =
// old), each row's entries by column: P A Q^T. colFrom may leave out
// columns without entries; the result has len(colFrom) columns.
func renumbered(m *Matrix, rowFrom, colFrom []int32) *Matrix {
	n := m.NRows
	colTo := make([]int32, m.NCols)
	for j, c := range colFrom {
		colTo[c] = int32(j)
	}
	r := &Matrix{Name: m.Name, NRows: n, NCols: len(colFrom), RowPtr: make([]int32, n+1), Col: make([]int32, m.NNZ()), Val: make([]float64, m.NNZ()),
		MaxRowNNZ: m.MaxRowNNZ, Duplicates: m.Duplicates}
	for i, old := range rowFrom {
		r.RowPtr[i+1] = r.RowPtr[i] + m.RowPtr[old+1] - m.RowPtr[old]
	}
	// The rows are independent once their places are known: runs of them
	// are renumbered in parallel. Each row's entries are sorted by their
	// key, the new column above the entry's place in the row (so that
	// duplicates keep their order), as plain integers: a stable sort of
	// (column, value) pairs took twice as long on R-MAT 20.
	par.DoRanges(n, 4096, func(lo, hi int) {
		var keys []uint64
		for i := lo; i < hi; i++ {
			first, end := m.RowPtr[rowFrom[i]], m.RowPtr[rowFrom[i]+1]
			keys = keys[:0]
			for e := first; e < end; e++ {
				keys = append(keys, uint64(colTo[m.Col[e]])<<32|uint64(e-first))
			}
			slices.Sort(keys)
			at := r.RowPtr[i]
			for k, key := range keys {
				r.Col[int(at)+k], r.Val[int(at)+k] = int32(key>>32), m.Val[first+int32(uint32(key))]
			}
		}
	})
	return r
}

// hotColumns is HotColumns(m), made once.
func (m *Matrix) hotColumns() (*Matrix, []int32) {
	m.hotOnce.Do(func() { m.hot, m.hotFrom = HotColumns(m) })
	return m.hot, m.hotFrom
}

// rcmOrdered is RCMOrdered(m), made once: the order costs a sort of the
// adjacency by degree and breadth-first searches.
func (m *Matrix) rcmOrdered() (*Matrix, []int32) {
	m.rcmOnce.Do(func() { m.rcm, m.rcmPerm = RCMOrdered(m) })
	return m.rcm, m.rcmPerm
}
