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
// order, as one fmt.Fprintf per edge, for edge counts around the pieces
// the cores format (none, part of one, several rounds and a rest).
func TestWriteAssignmentPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, assignmentPiece - 1, assignmentPiece, 5*assignmentPiece + 17} {
		used := &matrices.COO{Row: make([]int32, n), Col: make([]int32, n)}
		p := spac.Partition{Part: make([]int32, n)}
		for e := range n {
			used.Row[e], used.Col[e], p.Part[e] = r.Int32N(1<<30), r.Int32N(1<<30), r.Int32N(1<<20)
		}
		var want, got bytes.Buffer
		for e := range n {
			fmt.Fprintf(&want, "%d\t%d\t%d\n", used.Row[e]+1, used.Col[e]+1, p.Part[e])
		}
		if err := writeAssignment(&got, &pipeline.Input{Used: used}, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d edges: %d bytes written, want %d (first difference at byte %d)", n, got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
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
