//go:build mpi

package ptscotch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/mpi/mpitest"
)

// gridShare is rank r's share of an nx x ny grid graph, rows of vertices
// split evenly by global number.
func gridShare(nx, ny, r, p int) (*Graph, int) {
	n := nx * ny
	lo, hi := n*r/p, n*(r+1)/p
	g := &Graph{Xadj: []int32{0}}
	for v := lo; v < hi; v++ {
		x, y := v%nx, v/nx
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			if xx, yy := x+d[0], y+d[1]; xx >= 0 && xx < nx && yy >= 0 && yy < ny {
				g.Adjncy = append(g.Adjncy, int32(yy*nx+xx))
			}
		}
		g.Xadj = append(g.Xadj, int32(len(g.Adjncy)))
	}
	return g, lo
}

func TestPart(t *testing.T) {
	if !mpitest.Rank() {
		for _, np := range []int{1, 2, 4} {
			mpitest.Run(t, np, "TestPart", nil)
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	const nx, ny = 60, 40
	g, lo := gridShare(nx, ny, c.Rank(), c.Size())
	for _, parts := range []int{1, 2, 3, 8} {
		part, err := Part(c, g, parts, Options{Seed: 7, Check: true})
		if err != nil {
			t.Fatalf("%d parts: %v", parts, err)
		}
		again, err := Part(c, g, parts, Options{Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(part, again) {
			t.Errorf("%d parts: two runs with the same seed differ", parts)
		}
		// Gather the whole partition and judge it.
		all, err := mpi.Allgather(c, part)
		if err != nil {
			t.Fatal(err)
		}
		whole := slices.Concat(all...)
		load := make([]int, parts)
		for _, q := range whole {
			if q < 0 || int(q) >= parts {
				t.Fatalf("%d parts: part %d out of range", parts, q)
			}
			load[q]++
		}
		ideal := float64(nx*ny) / float64(parts)
		for q, l := range load {
			if float64(l) > ideal*1.06 {
				t.Errorf("%d parts: part %d holds %d vertices, ideal %.0f", parts, q, l, ideal)
			}
		}
		cut := 0
		for v := range nx * ny {
			x, y := v%nx, v/nx
			if x+1 < nx && whole[v] != whole[v+1] {
				cut++
			}
			if y+1 < ny && whole[v] != whole[v+nx] {
				cut++
			}
		}
		// A strip partition cuts about (parts-1)*ny edges; a good one not much more.
		if limit := 2 * parts * ny; parts > 1 && cut > limit {
			t.Errorf("%d parts: %d cut edges, more than %d", parts, cut, limit)
		}
		_ = lo
	}
	// A malformed share is refused on every rank, with the rank named.
	bad := &Graph{Xadj: []int32{0, 1}, Adjncy: []int32{1 << 30}}
	if c.Rank() != c.Size()-1 {
		bad = &Graph{Xadj: []int32{0}}
	}
	_, err = Part(c, bad, 2, Options{})
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("a neighbour out of range: got %v", err)
	}
	if c.Rank() == 0 {
		fmt.Println("PT-Scotch", Version())
	}
}

// TestEmptyRank: a rank without vertices, with vertex and edge weights
// elsewhere (a graph smaller than the job).
func TestEmptyRank(t *testing.T) {
	if !mpitest.Rank() {
		for _, np := range []int{2, 4} {
			mpitest.Run(t, np, "TestEmptyRank", nil)
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	// A triangle on ranks 0..2 (or all on rank 0 with 2 ranks), none on the last.
	n := 3
	var g *Graph
	switch {
	case c.Rank() == c.Size()-1:
		g = &Graph{Xadj: []int32{0}, Vwgt: []int32{}}
	case c.Size() == 2:
		g = &Graph{Xadj: []int32{0, 2, 4, 6}, Adjncy: []int32{1, 2, 0, 2, 0, 1}, Adjwgt: []int32{1, 2, 1, 3, 2, 3}, Vwgt: []int32{5, 6, 7}}
	default:
		if c.Rank() >= n {
			g = &Graph{Xadj: []int32{0}, Vwgt: []int32{}}
			break
		}
		r := int32(c.Rank())
		g = &Graph{Xadj: []int32{0, 2}, Adjncy: []int32{(r + 1) % 3, (r + 2) % 3}, Adjwgt: []int32{1, 1}, Vwgt: []int32{5}}
	}
	part, err := Part(c, g, 3, Options{Seed: 1, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(part) != len(g.Xadj)-1 {
		t.Fatalf("%d parts for %d vertices", len(part), len(g.Xadj)-1)
	}
}
