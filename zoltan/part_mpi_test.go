//go:build mpi

package zoltan

import (
	"slices"
	"testing"

	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/mpi/mpitest"
)

// gridNets is rank r's share of the column-net hypergraph of an nx x ny
// grid graph: a vertex per grid edge, a net per grid node.
func gridNets(nx, ny, r, p int) (*Hypergraph, [][2]uint32) {
	var edges [][2]uint32
	for y := range ny {
		for x := range nx {
			v := uint32(y*nx + x)
			if x+1 < nx {
				edges = append(edges, [2]uint32{v, v + 1})
			}
			if y+1 < ny {
				edges = append(edges, [2]uint32{v, v + uint32(nx)})
			}
		}
	}
	lo, hi := len(edges)*r/p, len(edges)*(r+1)/p
	h := &Hypergraph{Ptr: []int32{0}}
	for e := lo; e < hi; e++ {
		h.Vertices = append(h.Vertices, uint32(e))
		h.Nets = append(h.Nets, edges[e][0], edges[e][1])
		h.Ptr = append(h.Ptr, int32(len(h.Nets)))
	}
	return h, edges
}

func TestPartition(t *testing.T) {
	if !mpitest.Rank() {
		for _, np := range []int{1, 2, 4} {
			mpitest.Run(t, np, "TestPartition", nil)
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	const nx, ny = 40, 30
	h, edges := gridNets(nx, ny, c.Rank(), c.Size())
	for _, parts := range []int{1, 2, 7, 24} {
		part, err := Partition(c, h, Options{Parts: parts})
		if err != nil {
			t.Fatalf("%d parts: %v", parts, err)
		}
		again, err := Partition(c, h, Options{Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(part, again) {
			t.Errorf("%d parts: two calls differ", parts)
		}
		all, err := mpi.Allgather(c, part)
		if err != nil {
			t.Fatal(err)
		}
		whole := slices.Concat(all...)
		load := make([]int, parts)
		seen := map[[2]int]bool{}
		for e, q := range whole {
			if q < 0 || int(q) >= parts {
				t.Fatalf("%d parts: part %d out of range", parts, q)
			}
			load[q]++
			seen[[2]int{int(edges[e][0]), int(q)}] = true
			seen[[2]int{int(edges[e][1]), int(q)}] = true
		}
		ideal := float64(len(edges)) / float64(parts)
		for q, l := range load {
			if float64(l) > ideal*1.1+1 {
				t.Errorf("%d parts: part %d holds %d, ideal %.0f", parts, q, l, ideal)
			}
		}
		// connectivity-1 = node copies; strips would cost about (parts-1)*ny.
		copies := len(seen) - nx*ny
		if limit := 3 * (parts - 1) * ny; copies > limit {
			t.Errorf("%d parts: %d copies, more than %d", parts, copies, limit)
		}
	}
}
