package ptscotch

import (
	"errors"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/mpi"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    Graph
		want string
	}{
		{"ok", Graph{Xadj: []int32{0, 1, 2}, Adjncy: []int32{1, 0}}, ""},
		{"empty share", Graph{Xadj: []int32{0}}, ""},
		{"no xadj", Graph{}, "Xadj is empty"},
		{"short adjncy", Graph{Xadj: []int32{0, 2}, Adjncy: []int32{1}}, "want 0 to len(Adjncy) = 1"},
		{"decreasing", Graph{Xadj: []int32{0, 2, 1, 2}, Adjncy: []int32{1, 2}}, "decreases at local vertex 1"},
		{"range", Graph{Xadj: []int32{0, 1}, Adjncy: []int32{7}}, "out of range [0, 3)"},
		{"vwgt length", Graph{Xadj: []int32{0, 0}, Vwgt: []int32{1, 1}}, "2 vertex weights for 1 local vertices"},
		{"adjwgt", Graph{Xadj: []int32{0, 1}, Adjncy: []int32{1}, Adjwgt: []int32{0}}, "want ≥ 1"},
		{"overflow", Graph{Xadj: []int32{0, 0, 0}, Vwgt: []int32{1 << 30, 1 << 30}}, "beyond Scotch's 32-bit"},
	} {
		err := tc.g.check(3)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestWithoutMPI(t *testing.T) {
	if mpi.Available() {
		t.Skip("this build has MPI")
	}
	comms := mpi.Local(1)
	if _, err := Part(comms[0], &Graph{Xadj: []int32{0}}, 1, Options{}); !errors.Is(err, mpi.ErrNoMPI) {
		t.Errorf("got %v, want mpi.ErrNoMPI", err)
	}
}
