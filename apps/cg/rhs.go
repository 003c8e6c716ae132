package cg

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spac-gpu/spac/apps/spmv"
)

// Ones returns b = A 1 (in float64): a right-hand side whose solution is
// known, the all-ones vector.
func Ones(m *spmv.Matrix) []float64 {
	b := make([]float64, m.NRows)
	for r := range m.NRows {
		for j := m.RowPtr[r]; j < m.RowPtr[r+1]; j++ {
			b[r] += m.Val[j]
		}
	}
	return b
}

// ReadRHS reads a right-hand side of n values: a Matrix Market dense array
// (n x 1, real or integer) or plain text with one value per line; '%' and
// '#' start comments.
func ReadRHS(r io.Reader, n int) ([]float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var out []float64
	line, header := 0, false
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if line == 1 && strings.HasPrefix(s, "%%MatrixMarket") {
			f := strings.Fields(strings.ToLower(s))
			if len(f) < 4 || f[2] != "array" || (f[3] != "real" && f[3] != "integer") {
				return nil, fmt.Errorf("right-hand side: %q: want a real or integer Matrix Market array", s)
			}
			header = true
			continue
		}
		if s == "" || s[0] == '%' || s[0] == '#' {
			continue
		}
		if header {
			// The size line: rows and columns.
			f := strings.Fields(s)
			if len(f) != 2 || f[1] != "1" || f[0] != strconv.Itoa(n) {
				return nil, fmt.Errorf("right-hand side: line %d: size %q, want %d 1", line, s, n)
			}
			header = false
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("right-hand side: line %d: %q is not a finite number", line, s)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("right-hand side: %w", err)
	}
	if len(out) != n {
		return nil, fmt.Errorf("right-hand side: %d values, the matrix has %d rows", len(out), n)
	}
	return out, nil
}
