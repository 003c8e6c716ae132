package matrices

import (
	"fmt"
	"math"
)

// Field is the kind of value a matrix stores.
type Field uint8

const (
	Real Field = iota
	Integer
	Complex
	Pattern
)

func (f Field) String() string {
	switch f {
	case Real:
		return "real"
	case Integer:
		return "integer"
	case Complex:
		return "complex"
	case Pattern:
		return "pattern"
	}
	return fmt.Sprintf("Field(%d)", uint8(f))
}

// Symmetry says which entries a file stores: all of them (General), or one
// triangle from which the other follows.
type Symmetry uint8

const (
	General Symmetry = iota
	Symmetric
	SkewSymmetric
	Hermitian
)

func (s Symmetry) String() string {
	switch s {
	case General:
		return "general"
	case Symmetric:
		return "symmetric"
	case SkewSymmetric:
		return "skew-symmetric"
	case Hermitian:
		return "hermitian"
	}
	return fmt.Sprintf("Symmetry(%d)", uint8(s))
}

// COO is a sparse matrix in coordinate form. Entry e is (Row[e], Col[e])
// with value Val[e]; indices are 0-based. Val is nil when the matrix carries
// no real values (Pattern, or Complex, whose values are kept in Val and Imag
// only when the reader was asked for them), and when the reader was asked
// for the structure alone (ReadOptions.NoValues).
type COO struct {
	Name         string // where it came from, for messages
	NRows, NCols int
	Row, Col     []int32
	Val          []float64
	Imag         []float64 // imaginary parts of a Complex matrix, or nil
	Field        Field
	Symmetry     Symmetry
	Format       Format // the file format it was read from; FormatAuto if generated
	// Duplicates counts the entries a reader found at a position an
	// earlier entry already holds: kept in a Matrix Market matrix (they
	// add up, the format's convention), dropped from an edge list (a
	// repeated edge is one edge). Zero for generated matrices.
	Duplicates int
}

// NNZ is the number of stored entries.
func (m *COO) NNZ() int { return len(m.Row) }

// RealValues returns the values y = A x needs. A pattern matrix has an
// implicit 1 at every entry; a complex matrix has no real values, and the
// error says so instead of silently dropping the imaginary parts.
func (m *COO) RealValues() ([]float64, error) {
	switch m.Field {
	case Pattern:
		ones := make([]float64, m.NNZ())
		for i := range ones {
			ones[i] = 1
		}
		return ones, nil
	case Complex:
		return nil, fmt.Errorf("%s: complex matrix: only its structure can be used (partitioning, schedules); numerical kernels need a real or integer matrix", m.Name)
	}
	if m.Val == nil {
		return nil, fmt.Errorf("%s: matrix has no values", m.Name)
	}
	return m.Val, nil
}

// Expanded returns the matrix with every entry explicit: a symmetric,
// skew-symmetric or hermitian matrix stored as one triangle gains the mirror
// of each off-diagonal entry, placed right after it. A General matrix is
// returned as it is. Entry order is deterministic: entry e of the stored
// matrix keeps its relative order.
func (m *COO) Expanded() *COO {
	if m.Symmetry == General {
		return m
	}
	off := 0
	for e := range m.Row {
		if m.Row[e] != m.Col[e] {
			off++
		}
	}
	n := m.NNZ() + off
	out := &COO{Name: m.Name, NRows: m.NRows, NCols: m.NCols, Field: m.Field, Symmetry: General, Format: m.Format, Duplicates: m.Duplicates,
		Row: make([]int32, 0, n), Col: make([]int32, 0, n)}
	if m.Val != nil {
		out.Val = make([]float64, 0, n)
	}
	if m.Imag != nil {
		out.Imag = make([]float64, 0, n)
	}
	for e := range m.Row {
		r, c := m.Row[e], m.Col[e]
		out.Row = append(out.Row, r)
		out.Col = append(out.Col, c)
		if m.Val != nil {
			out.Val = append(out.Val, m.Val[e])
		}
		if m.Imag != nil {
			out.Imag = append(out.Imag, m.Imag[e])
		}
		if r == c {
			continue
		}
		out.Row = append(out.Row, c)
		out.Col = append(out.Col, r)
		if m.Val != nil {
			v := m.Val[e]
			if m.Symmetry == SkewSymmetric {
				v = -v
			}
			out.Val = append(out.Val, v)
		}
		if m.Imag != nil {
			// The mirror of a+bi is a+bi (symmetric), a-bi (hermitian) or -a-bi (skew).
			im := m.Imag[e]
			if m.Symmetry != Symmetric {
				im = -im
			}
			out.Imag = append(out.Imag, im)
		}
	}
	return out
}

// Validate checks the invariants every reader and generator must establish:
// consistent slice lengths and indices in range. Values must be finite.
func (m *COO) Validate() error {
	if m.NRows < 0 || m.NCols < 0 {
		return fmt.Errorf("%s: negative dimensions %d x %d", m.Name, m.NRows, m.NCols)
	}
	if len(m.Col) != len(m.Row) || (m.Val != nil && len(m.Val) != len(m.Row)) || (m.Imag != nil && len(m.Imag) != len(m.Row)) {
		return fmt.Errorf("%s: inconsistent entry arrays", m.Name)
	}
	for e := range m.Row {
		if m.Row[e] < 0 || int(m.Row[e]) >= m.NRows || m.Col[e] < 0 || int(m.Col[e]) >= m.NCols {
			return fmt.Errorf("%s: entry %d at (%d,%d) is outside the %d x %d matrix", m.Name, e, m.Row[e]+1, m.Col[e]+1, m.NRows, m.NCols)
		}
		if m.Val != nil && (math.IsNaN(m.Val[e]) || math.IsInf(m.Val[e], 0)) {
			return fmt.Errorf("%s: entry %d at (%d,%d) has value %v", m.Name, e, m.Row[e]+1, m.Col[e]+1, m.Val[e])
		}
	}
	return nil
}
