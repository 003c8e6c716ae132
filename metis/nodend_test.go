package metis

import (
	"slices"
	"testing"
)

// choleskyFill counts the nonzeros of the Cholesky factor L of g's
// pattern, diagonal included, when row and column new are vertex
// perm[new]: for each row, the vertices reached by walking the elimination
// tree up from its earlier neighbours (Liu's row-subtree count).
func choleskyFill(g *Graph, perm []int32) int {
	n := len(g.Xadj) - 1
	inv := make([]int32, n)
	for i, p := range perm {
		inv[p] = int32(i)
	}
	parent := make([]int32, n)
	mark := make([]int32, n)
	count := 0
	for i := range n {
		parent[i], mark[i] = -1, int32(i)
		count++ // the diagonal
		v := perm[i]
		for _, u := range g.Adjncy[g.Xadj[v]:g.Xadj[v+1]] {
			j := inv[u]
			for j < int32(i) && mark[j] != int32(i) {
				mark[j] = int32(i)
				count++
				if parent[j] < 0 {
					parent[j] = int32(i)
				}
				j = parent[j]
			}
		}
	}
	return count
}

func TestNodeND(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Graph
	}{
		{"grid 40x40", grid(40, 40)},
		{"grid 7x90", grid(7, 90)},
		{"no edges", &Graph{Xadj: make([]int32, 6)}},
		{"one vertex", &Graph{Xadj: []int32{0, 0}}},
		{"two components", fromEdges(6, [][3]int32{{0, 1, 0}, {1, 2, 0}, {3, 4, 0}, {4, 5, 0}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.g.Xadj) - 1
			perm, iperm, err := NodeND(tc.g, Options{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, n)
			for i, p := range perm {
				if p < 0 || int(p) >= n || seen[p] || iperm[p] != int32(i) {
					t.Fatalf("perm[%d] = %d: not a permutation with inverse iperm", i, p)
				}
				seen[p] = true
			}
			again, _, err := NodeND(tc.g, Options{Seed: 3})
			if err != nil || !slices.Equal(again, perm) {
				t.Errorf("same seed, different order (%v)", err)
			}
		})
	}
	if _, _, err := NodeND(nil, Options{}); err == nil {
		t.Error("nil graph: no error")
	}
	if _, _, err := NodeND(&Graph{Xadj: []int32{0, 1}, Adjncy: []int32{0}}, Options{}); err == nil {
		t.Error("a self loop: no error")
	}
}

// TestNodeNDReducesFill: on a grid, nested dissection gives a Cholesky
// factor with far fewer nonzeros than the natural (banded) order; the
// returned perm (not its inverse) is the order that does.
func TestNodeNDReducesFill(t *testing.T) {
	g := grid(48, 48)
	perm, iperm, err := NodeND(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	natural := make([]int32, len(perm))
	for i := range natural {
		natural[i] = int32(i)
	}
	nd, band, inv := choleskyFill(g, perm), choleskyFill(g, natural), choleskyFill(g, iperm)
	t.Logf("fill of L on a 48x48 grid: nested dissection %d, natural %d, the inverse permutation %d", nd, band, inv)
	if nd*3 > band*2 {
		t.Errorf("nested dissection fill %d, want under 2/3 of the natural order's %d", nd, band)
	}
	if inv <= nd {
		t.Errorf("the inverse permutation fills %d <= perm's %d: perm and iperm swapped?", inv, nd)
	}
}
