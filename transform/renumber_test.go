package transform

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Renumber keeps every edge and its weight, moved to the vertices' new
// numbers, each list in its order; it leaves its input as it was and
// refuses an order that is not a permutation.
func TestRenumber(t *testing.T) {
	defer func(size int) { renumberRange = size }(renumberRange)
	r := rand.New(rand.NewPCG(4, 11))
	for trial := 0; trial < 100; trial++ {
		renumberRange = 1 + r.IntN(40)
		g, inc := randomGraph(r)
		w, err := SplitConnect(g, inc, Order(r.IntN(4)), 1+int32(r.IntN(5)))
		if trial%2 == 0 {
			w, err = Contract(g, inc, Order(r.IntN(4)))
		}
		if err != nil {
			t.Fatal(err)
		}
		n := w.NumVertices()
		before := &WeightedGraph{Xadj: slices.Clone(w.Xadj), Adjncy: slices.Clone(w.Adjncy), Adjwgt: slices.Clone(w.Adjwgt)}
		order := make([]int32, n)
		for i, v := range r.Perm(n) {
			order[i] = int32(v)
		}
		got, err := Renumber(w, order)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.Xadj, before.Xadj) || !slices.Equal(w.Adjncy, before.Adjncy) || !slices.Equal(w.Adjwgt, before.Adjwgt) {
			t.Fatalf("trial %d: Renumber changed its input", trial)
		}
		if got.NumVertices() != n || len(got.Adjncy) != len(w.Adjncy) || (got.Adjwgt == nil) != (w.Adjwgt == nil) {
			t.Fatalf("trial %d: %d vertices and %d entries, want %d and %d", trial, got.NumVertices(), len(got.Adjncy), n, len(w.Adjncy))
		}
		newOf := make([]int32, n)
		for i, v := range order {
			newOf[v] = int32(i)
		}
		for v := 0; v < n; v++ {
			i := newOf[v]
			row, want := got.Adjncy[got.Xadj[i]:got.Xadj[i+1]], w.Adjncy[w.Xadj[v]:w.Xadj[v+1]]
			if len(row) != len(want) {
				t.Fatalf("trial %d: vertex %d (now %d) has %d neighbours, want %d", trial, v, i, len(row), len(want))
			}
			for j, u := range want {
				if row[j] != newOf[u] || got.EdgeWeight(got.Xadj[i]+int32(j)) != w.EdgeWeight(w.Xadj[v]+int32(j)) {
					t.Fatalf("trial %d: vertex %d's entry %d: %d (weight %d), want %d (weight %d)", trial, v, j, row[j], got.EdgeWeight(got.Xadj[i]+int32(j)), newOf[u], w.EdgeWeight(w.Xadj[v]+int32(j)))
				}
			}
		}
		if n >= 2 {
			bad := slices.Clone(order)
			bad[1] = bad[0]
			if _, err := Renumber(w, bad); err == nil {
				t.Fatalf("trial %d: an order with vertex %d twice was taken", trial, bad[0])
			}
		}
		if _, err := Renumber(w, order[:n-1]); err == nil {
			t.Fatalf("trial %d: an order one vertex short was taken", trial)
		}
	}
}
