package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

// TestWriteAssignmentPieces: the assignment is the same lines, in the same
// order, as one fmt.Fprintf per entry, for edge counts around the pieces
// the cores format (none, part of one, several rounds and a rest), under
// both models, read back from the graph once the entries are let go.
func TestWriteAssignmentPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 20
	for _, model := range []matrices.Model{matrices.ModelSpMV, matrices.ModelGraph} {
		for _, nnz := range []int{1, assignmentPiece - 1, assignmentPiece, 5*assignmentPiece + 17} {
			m := &matrices.COO{Name: "random", NRows: n, NCols: n, Row: make([]int32, nnz), Col: make([]int32, nnz)}
			p := spac.Partition{Part: make([]int32, nnz)}
			for e := range nnz {
				m.Row[e], m.Col[e], p.Part[e] = r.Int32N(n), r.Int32N(n), r.Int32N(1<<20)
			}
			var want, got bytes.Buffer
			for e := range nnz {
				fmt.Fprintf(&want, "%d\t%d\t%d\n", m.Row[e]+1, m.Col[e]+1, p.Part[e])
			}
			in := &pipeline.Input{Matrix: m, Used: m, Model: model}
			if err := in.DropEntries(); err != nil {
				t.Fatal(err)
			}
			if in.Used.Row != nil || in.Used.NRows != n || in.Used != in.Matrix {
				t.Fatalf("%v: DropEntries kept %d entries and %d rows (Used is Matrix: %v), want none, %d and true", model, len(in.Used.Row), in.Used.NRows, in.Used == in.Matrix, n)
			}
			if err := writeAssignment(&got, in, p); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%v, %d edges: %d bytes written, want %d (first difference at byte %d)", model, nnz, got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
