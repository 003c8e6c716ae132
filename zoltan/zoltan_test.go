package zoltan

import (
	"errors"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/mpi"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Hypergraph
		want string
	}{
		{"ok", Hypergraph{Vertices: []uint32{4, 9}, Ptr: []int32{0, 2, 3}, Nets: []uint32{0, 1, 1}}, ""},
		{"empty share", Hypergraph{Ptr: []int32{0}}, ""},
		{"ptr length", Hypergraph{Vertices: []uint32{1}, Ptr: []int32{0}}, "1 pin offsets for 1 vertices"},
		{"ptr end", Hypergraph{Vertices: []uint32{1}, Ptr: []int32{0, 3}, Nets: []uint32{1}}, "want 0 to 1"},
		{"decreasing", Hypergraph{Vertices: []uint32{1, 2}, Ptr: []int32{0, 2, 1}, Nets: []uint32{1}}, "decrease at vertex 1"},
		{"reserved vertex", Hypergraph{Vertices: []uint32{^uint32(0)}, Ptr: []int32{0, 0}}, "reserved id"},
		{"reserved net", Hypergraph{Vertices: []uint32{1}, Ptr: []int32{0, 1}, Nets: []uint32{^uint32(0)}}, "reserved net id"},
	} {
		err := tc.h.check()
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
	if _, err := Partition(comms[0], &Hypergraph{Ptr: []int32{0}}, Options{Parts: 1}); !errors.Is(err, mpi.ErrNoMPI) {
		t.Errorf("got %v, want mpi.ErrNoMPI", err)
	}
}
