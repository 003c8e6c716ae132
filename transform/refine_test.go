package transform

import (
	"math/rand/v2"
	"testing"
)

// Refine never raises the cut, never overfills a part that was within the
// limit, and keeps every vertex in a valid part.
func TestRefineProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		g, inc := randomGraph(r)
		w, err := Contract(g, inc, Cycle)
		if err != nil {
			t.Fatal(err)
		}
		n := w.NumVertices()
		k := 1 + r.IntN(5)
		part := make([]int32, n)
		for i := range part {
			part[i] = int32(r.IntN(k))
		}
		// Half the trials weigh the vertices, as on coarse levels.
		var weight []int32
		wt := func(v int) int64 { return 1 }
		if trial%2 == 1 {
			weight = make([]int32, n)
			for i := range weight {
				weight[i] = 1 + int32(r.IntN(4))
			}
			wt = func(v int) int64 { return int64(weight[v]) }
		}
		maxLoad := int64((n + k - 1) / k * 2)
		before := cut(w, part)
		overfull := map[int32]bool{}
		load := make([]int64, k)
		for v, p := range part {
			load[p] += wt(v)
		}
		for p, l := range load {
			if l > maxLoad {
				overfull[int32(p)] = true
			}
		}
		Refine(w, weight, part, k, maxLoad, 4)
		if after := cut(w, part); after > before {
			t.Fatalf("trial %d: cut rose from %d to %d", trial, before, after)
		}
		load = make([]int64, k)
		for v, p := range part {
			if p < 0 || int(p) >= k {
				t.Fatalf("trial %d: part %d out of range", trial, p)
			}
			load[p] += wt(v)
		}
		for p, l := range load {
			if l > maxLoad && !overfull[int32(p)] {
				t.Fatalf("trial %d: part %d filled to %d above %d", trial, p, l, maxLoad)
			}
		}
	}
}

// A path 0-1-2-3-4-5 split 0,1,2 | 3,4,5 except vertex 2 put on the wrong
// side: one move fixes it.
func TestRefineFixesAMisplacedVertex(t *testing.T) {
	g, inc := edges(7, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6)
	w, err := Contract(g, inc, ByIndex) // the line graph: a path of 6 vertices
	if err != nil {
		t.Fatal(err)
	}
	part := []int32{0, 1, 0, 1, 1, 1}
	if moves := Refine(w, nil, part, 2, 4, 4); moves == 0 || cut(w, part) != 1 {
		t.Fatalf("after %d moves part %v has cut %d, want 1", moves, part, cut(w, part))
	}
}
