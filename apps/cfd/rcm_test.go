package cfd

import (
	"math"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/order"
)

// RCM renumbers a shuffled mesh into a permutation that narrows its
// bandwidth, and the original solver computes bit for bit the same state
// on it, in both precisions.
func TestRenumberRCM(t *testing.T) {
	m := genMesh(t, "mesh:n=3000")
	r, err := RenumberRCM(m)
	if err != nil {
		t.Fatal(err)
	}
	sorted := slices.Clone(r.Perm)
	slices.Sort(sorted)
	for i, p := range sorted {
		if p != int32(i) {
			t.Fatal("the order is not a permutation")
		}
	}
	if err := r.Mesh.Validate(); err != nil {
		t.Fatal(err)
	}
	bandwidth := func(mesh *Mesh) int {
		ptr := make([]int64, mesh.N+1)
		var adj []int32
		for i := 0; i < mesh.N; i++ {
			for j := 0; j < NNB; j++ {
				if b := mesh.Nb(i, j); b >= 0 {
					adj = append(adj, b)
				}
			}
			ptr[i+1] = int64(len(adj))
		}
		return order.Bandwidth(mesh.N, ptr, adj, nil)
	}
	before, after := bandwidth(m), bandwidth(r.Mesh)
	if after*10 > before {
		t.Errorf("bandwidth %d after RCM, %d before: want a tenth at most on a shuffled mesh", after, before)
	}
	for _, prec := range []Precision{FP32, FP64} {
		ref, err := Simulate(m, nil, prec, 20)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Simulate(r.Mesh, nil, prec, 20)
		if err != nil {
			t.Fatal(err)
		}
		back := r.Restore(got.Vars)
		for i := range back {
			if math.Float64bits(back[i]) != math.Float64bits(ref.Vars[i]) {
				t.Fatalf("%s: value %d is %v on the renumbered mesh, %v on the original", prec, i, back[i], ref.Vars[i])
			}
		}
	}
}
