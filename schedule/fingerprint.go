package schedule

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"

	"github.com/spac-gpu/spac/matrices"
)

// StructureFingerprint identifies a matrix's structure: the xxhash64 of its
// rows, columns and entry count as little-endian int64s, then every Row and
// every Col as little-endian int32s, in entry order. Values do not count: a
// schedule depends only on where the entries are. The same matrix read with
// and without --as-stored has different entries, hence fingerprints.
func StructureFingerprint(coo *matrices.COO) uint64 {
	return structureHash(coo.NRows, coo.NCols, coo.Row, coo.Col)
}

func structureHash(nrows, ncols int, row, col []int32) uint64 {
	d := xxhash.New()
	var head [24]byte
	binary.LittleEndian.PutUint64(head[0:], uint64(nrows))
	binary.LittleEndian.PutUint64(head[8:], uint64(ncols))
	binary.LittleEndian.PutUint64(head[16:], uint64(len(row)))
	d.Write(head[:])
	hashInt32s(d, row)
	hashInt32s(d, col)
	return d.Sum64()
}

// hashInt32s feeds a as little-endian bytes through a fixed buffer.
func hashInt32s(d *xxhash.Digest, a []int32) {
	var buf [16 << 10]byte
	for len(a) > 0 {
		n := min(len(a), len(buf)/4)
		for i, v := range a[:n] {
			binary.LittleEndian.PutUint32(buf[4*i:], uint32(v))
		}
		d.Write(buf[:4*n])
		a = a[n:]
	}
}

// structure rebuilds the row and column of every entry from the slots.
func (s *Schedule) structure() (row, col []int32) {
	row = make([]int32, s.NNZ)
	col = make([]int32, s.NNZ)
	for tid, e := range s.NewSchedule {
		if e >= 0 {
			row[e], col[e] = s.Rows[tid], s.Cols[tid]
		}
	}
	return row, col
}

// Structure returns the matrix the schedule was made for, rebuilt from its
// slots: entries in their original order, values from Vals (a pattern
// matrix when the schedule has none).
func (s *Schedule) Structure() *matrices.COO {
	row, col := s.structure()
	m := &matrices.COO{Name: "schedule", NRows: s.NRows, NCols: s.NCols, Row: row, Col: col, Field: matrices.Real}
	if s.Vals != nil {
		m.Val = make([]float64, s.NNZ)
		for tid, e := range s.NewSchedule {
			if e >= 0 {
				m.Val[e] = s.Vals[tid]
			}
		}
	} else {
		m.Field = matrices.Pattern
	}
	return m
}
