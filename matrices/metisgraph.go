package matrices

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// ReadMETISGraph reads a graph in the METIS format: a header "n m [fmt
// [ncon]]", then one line per vertex listing its neighbours (1-based), each
// undirected edge appearing in the lists of both ends. fmt is up to three
// binary digits: vertex sizes (100), vertex weights (10, ncon of them,
// default 1) and edge weights (1). Vertex sizes and weights are checked
// and dropped; edge weights become Val (Field Integer), else the matrix is
// a pattern. Lines starting with % are comments; a blank line is a vertex
// without neighbours.
//
// The result is the n x n Symmetric adjacency matrix storing each edge
// once, strictly below the diagonal, in the order of the vertex lines. The
// reader checks what METIS itself relies on: n vertex lines, neighbours in
// range, no self-loops or repeated neighbours, every edge listed at both
// ends with the same weight, and m edges in all.
func ReadMETISGraph(r io.Reader, name string) (*COO, error) {
	size := sizeHint(r)
	return readMETISGraph(newLineReader(r, name, size), size)
}

func readMETISGraph(lr *lineReader, size int64) (*COO, error) {
	var line []byte
	var ok bool
	for {
		if line, ok = lr.next(); !ok {
			return nil, lr.eofError("expected the METIS header \"n m [fmt [ncon]]\", got an empty file")
		}
		if !isBlankOrComment(line, "%") {
			break
		}
	}
	headerLine := lr.line
	var tok [5][]byte
	i := 0
	for k := range tok {
		tok[k], i = token(line, i)
	}
	if len(tok[1]) == 0 || len(tok[4]) != 0 {
		return nil, lr.errorf("expected the METIS header \"n m [fmt [ncon]]\", got %s", quote(line))
	}
	nv, ok := parseUint(tok[0])
	if !ok || nv > math.MaxInt32 {
		return nil, lr.errorf("expected the number of vertices (an integer from 0 to %d) in the header, got %s", math.MaxInt32, quote(tok[0]))
	}
	ne, ok := parseUint(tok[1])
	if !ok || ne == indexOverflow {
		return nil, lr.errorf("expected the number of edges (a non-negative integer) in the header, got %s", quote(tok[1]))
	}
	var hasSize, hasVW, hasEW bool
	if f := tok[2]; len(f) > 0 {
		if len(f) > 3 || !isBinary(f) {
			return nil, lr.errorf("expected fmt (up to three binary digits: vertex sizes, vertex weights, edge weights, as in 011) in the header, got %s", quote(f))
		}
		d := func(k int) bool { return len(f) > k && f[len(f)-1-k] == '1' }
		hasEW, hasVW, hasSize = d(0), d(1), d(2)
	}
	ncon := int64(0)
	if hasVW {
		ncon = 1
	}
	if len(tok[3]) > 0 {
		c, ok := parseUint(tok[3])
		if !ok || c < 1 || c > 1<<20 {
			return nil, lr.errorf("expected ncon (the number of vertex weights, at least 1) in the header, got %s", quote(tok[3]))
		}
		if hasVW {
			ncon = c // without vertex weights in fmt, ncon says nothing
		}
	}
	n := int(nv)
	skip := int(ncon)
	if hasSize {
		skip++
	}

	// The adjacency lists as read, in CSR form.
	nlines := preallocCap(int64(n), size, 1) // a vertex line takes a byte at least
	off := make([]int, 1, nlines+1)
	lines := make([]int32, 0, nlines)
	halfCap := preallocCap(2*min(ne, math.MaxInt64/2), size, 2) // "1 " per neighbour
	adj := make([]int32, 0, halfCap)
	var wt []float64
	if hasEW {
		wt = make([]float64, 0, halfCap)
	}
	for len(lines) < n {
		line, ok := lr.next()
		if !ok {
			if err := lr.failure(); err != nil {
				return nil, err
			}
			return nil, lr.eofError("expected %d vertex lines as the header (line %d) says, got %d: the file is truncated", n, headerLine, len(lines))
		}
		if j := skipSpace(line, 0); j < len(line) && line[j] == '%' {
			continue
		}
		u := int32(len(lines))
		lines = push(lines, int32(min(lr.line, math.MaxInt32)))
		i := 0
		for k := range skip {
			tok, j := token(line, i)
			what := "vertex weight"
			if hasSize && k == 0 {
				what = "vertex size"
			}
			if _, ok := parseUint(tok); !ok {
				return nil, lr.errorf("expected a %s (a non-negative integer) for vertex %d, got %s", what, u+1, quote(tok))
			}
			i = j
		}
		for {
			tok, j := token(line, i)
			if len(tok) == 0 {
				break
			}
			x, ok := parseUint(tok)
			if !ok || x < 1 || x > nv {
				return nil, lr.errorf("expected a neighbour of vertex %d (an id from 1 to %d), got %s", u+1, n, quote(tok))
			}
			v := int32(x - 1)
			if v == u {
				return nil, lr.errorf("expected no self-loop, got vertex %d listing itself", u+1)
			}
			adj = push(adj, v)
			i = j
			if hasEW {
				tok, j = token(line, i)
				if len(tok) == 0 {
					return nil, lr.errorf("expected the weight of the edge %d-%d after the neighbour (fmt says edge weights), got end of line", u+1, v+1)
				}
				x, ok := parseUint(tok)
				if !ok || x > 1<<53 {
					return nil, lr.errorf("expected the weight of the edge %d-%d (a non-negative integer), got %s", u+1, v+1, quote(tok))
				}
				wt = push(wt, float64(x))
				i = j
			}
		}
		off = push(off, len(adj))
	}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if !isBlankOrComment(line, "%") {
			return nil, lr.errorf("expected end of file after the %d vertex lines the header (line %d) announces, got %s", n, headerLine, quote(line))
		}
	}
	if err := lr.failure(); err != nil {
		return nil, err
	}
	if err := checkSymmetric(lr, off, adj, wt, lines); err != nil {
		return nil, err
	}
	if got := int64(len(adj) / 2); got != ne {
		return nil, lr.errorAt(headerLine, "expected %d edges as the header says, got %d in the adjacency lists", ne, got)
	}

	m := &COO{Name: lr.name, NRows: n, NCols: n, Field: Pattern, Symmetry: Symmetric,
		Row: make([]int32, 0, len(adj)/2), Col: make([]int32, 0, len(adj)/2)}
	if hasEW {
		m.Field = Integer
		m.Val = make([]float64, 0, len(adj)/2)
	}
	for u := range n {
		for k := off[u]; k < off[u+1]; k++ {
			if v := adj[k]; v < int32(u) {
				m.Row = append(m.Row, int32(u))
				m.Col = append(m.Col, v)
				if hasEW {
					m.Val = append(m.Val, wt[k])
				}
			}
		}
	}
	return m, nil
}

func isBinary(b []byte) bool {
	for _, c := range b {
		if c != '0' && c != '1' {
			return false
		}
	}
	return true
}

// checkSymmetric verifies that no vertex lists a neighbour twice and that v
// lists u whenever u lists v, with the same weight. It builds the
// transposed lists (a counting sort) and checks that each is contained in
// the original list of its vertex; since no list has repeats and both hold
// the same number of entries, containment is equality. It runs once all n
// vertex lines have been read, so that its per-vertex arrays are bounded
// by the input, not by a header's claim.
func checkSymmetric(lr *lineReader, off []int, adj []int32, wt []float64, lines []int32) error {
	n := len(off) - 1
	toff := make([]int, n+1)
	for _, v := range adj {
		toff[v+1]++
	}
	for v := range n {
		toff[v+1] += toff[v]
	}
	tadj := make([]int32, len(adj))
	var twt []float64
	if wt != nil {
		twt = make([]float64, len(adj))
	}
	// Fill with toff[v] as the cursor of list v, which leaves it at the
	// start of list v+1; then shift back. No second array of n offsets.
	for u := range n {
		for k := off[u]; k < off[u+1]; k++ {
			v := adj[k]
			tadj[toff[v]] = int32(u)
			if wt != nil {
				twt[toff[v]] = wt[k]
			}
			toff[v]++
		}
	}
	copy(toff[1:], toff[:n])
	toff[0] = 0
	mark := make([]int32, n)
	// Where in its list the marked neighbour is, for its weight: an int32
	// suffices, a list being one line of at most maxLineLen bytes.
	at := make([]int32, n)
	for v := range n {
		for k := off[v]; k < off[v+1]; k++ {
			u := adj[k]
			if mark[u] == int32(v)+1 {
				return lr.errorAt(int(lines[v]), "expected each neighbour once, got vertex %d listing %d twice", v+1, u+1)
			}
			mark[u] = int32(v) + 1
			at[u] = int32(k - off[v])
		}
		for k := toff[v]; k < toff[v+1]; k++ {
			u := tadj[k]
			if mark[u] != int32(v)+1 {
				return lr.errorAt(int(lines[u]), "expected a symmetric adjacency, got vertex %d listing %d while vertex %d (line %d) does not list %d", u+1, v+1, v+1, lines[v], u+1)
			}
			if w := off[v] + int(at[u]); wt != nil && wt[w] != twt[k] {
				return lr.errorAt(int(lines[u]), "expected the same weight at both ends of edge %d-%d, got %v here and %v at vertex %d (line %d)", u+1, v+1, twt[k], wt[w], v+1, lines[v])
			}
		}
	}
	return nil
}

// WriteMETISGraph writes the structure of the square matrix m as a METIS
// graph: the graph of A + A^T without the diagonal, each edge once, with
// neighbours in increasing order. Values are dropped (METIS edge weights
// are positive integers, a COO's values in general are not), so the header
// has no fmt: ReadMETISGraph gives back the pattern of m's symmetrized,
// loop-free structure.
func WriteMETISGraph(w io.Writer, m *COO) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("writing METIS graph: %w", err)
	}
	if m.NRows != m.NCols {
		return fmt.Errorf("writing METIS graph %s: a graph needs a square matrix, this one is %d x %d", m.Name, m.NRows, m.NCols)
	}
	n := m.NRows
	off := make([]int, n+1)
	for e, r := range m.Row {
		if c := m.Col[e]; r != c {
			off[r+1]++
			off[c+1]++
		}
	}
	for v := range n {
		off[v+1] += off[v]
	}
	adj := make([]int32, off[n])
	next := slices.Clone(off[:n])
	for e, r := range m.Row {
		if c := m.Col[e]; r != c {
			adj[next[r]] = c
			next[r]++
			adj[next[c]] = r
			next[c]++
		}
	}
	// Sort and dedupe every list, compacting in place.
	k := 0
	for v := range n {
		list := adj[off[v]:off[v+1]]
		slices.Sort(list)
		list = slices.Compact(list)
		off[v] = k
		k += copy(adj[k:], list)
	}
	off[n] = k
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "%d %d\n", n, k/2)
	buf := make([]byte, 0, 4096)
	for v := range n {
		buf = buf[:0]
		for j, u := range adj[off[v]:off[v+1]] {
			if j > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(u)+1, 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("writing METIS graph %s: %w", m.Name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing METIS graph %s: %w", m.Name, err)
	}
	return nil
}
