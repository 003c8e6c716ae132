package transform

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// Refine never raises the cut, never overfills a part that was within the
// limit, and keeps every vertex in a valid part.
func TestRefineProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		// Half the trials weigh the vertices, as on coarse levels.
		w, k, part, weight := refineCase(t, r, trial%2 == 1)
		n := w.NumVertices()
		wt := func(v int) int64 { return int64(vertexWeight(weight, int32(v))) }
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

// refineCase draws a random graph's contraction, a part count k of 1 to 5,
// a random partition into k parts and, when weighted, vertex weights of 1
// to 4 (nil otherwise).
func refineCase(t *testing.T, r *rand.Rand, weighted bool) (w *WeightedGraph, k int, part, weight []int32) {
	t.Helper()
	w = randomContracted(t, r, Cycle)
	n := w.NumVertices()
	k = 1 + r.IntN(5)
	part = make([]int32, n)
	for i := range part {
		part[i] = int32(r.IntN(k))
	}
	if weighted {
		weight = make([]int32, n)
		for i := range weight {
			weight[i] = 1 + int32(r.IntN(4))
		}
	}
	return w, k, part, weight
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

// gather lists a vertex's neighbouring parts in the order their first
// neighbour comes and sums the edge weights into each, as a plain map
// would; reset leaves no connection behind (the branch-free bookkeeping
// must not keep a part twice or drop one).
func TestGatherMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 100; trial++ {
		w := randomContracted(t, r, Cycle)
		if trial%2 == 1 { // weighted edges, as on coarse levels
			w.Adjwgt = make([]int32, len(w.Adjncy))
			for i := range w.Adjwgt {
				w.Adjwgt[i] = 1 + int32(r.IntN(5))
			}
		}
		k := 1 + r.IntN(6)
		part := make([]int32, w.NumVertices())
		for i := range part {
			part[i] = int32(r.IntN(k))
		}
		f := newMoveFinder(k)
		for v := int32(0); v < int32(w.NumVertices()); v++ {
			var order []int32
			sum := map[int32]int64{}
			for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
				p := part[w.Adjncy[i]]
				if _, ok := sum[p]; !ok {
					order = append(order, p)
				}
				sum[p] += int64(w.EdgeWeight(i))
			}
			f.gather(w, part, v)
			if !slices.Equal(f.touched, order) {
				t.Fatalf("trial %d, vertex %d: touched %v, want %v", trial, v, f.touched, order)
			}
			for _, p := range order {
				if f.conn[p] != sum[p] {
					t.Fatalf("trial %d, vertex %d: connection to part %d is %d, want %d", trial, v, p, f.conn[p], sum[p])
				}
			}
			f.reset()
			for p, c := range f.conn {
				if c != 0 {
					t.Fatalf("trial %d, vertex %d: part %d keeps %d after reset", trial, v, p, c)
				}
			}
		}
	}
}

func TestIsZero(t *testing.T) {
	for _, c := range []int64{0, 1, -1, 2, 1 << 40, -(1 << 40), 1<<63 - 1, -1 << 63} {
		want := 0
		if c == 0 {
			want = 1
		}
		if got := isZero(c); got != want {
			t.Errorf("isZero(%d) = %d, want %d", c, got, want)
		}
	}
}

// BenchmarkRefine: the cant stand-in's contracted graph (4M vertices) in
// blocks of 1024 consecutive vertices, a tenth of them put in a random
// other block, refined as a level of the way up is.
func BenchmarkRefine(b *testing.B) {
	w := cantContracted(b, 1)
	n := w.NumVertices()
	k := (n + 1023) / 1024
	r := rand.New(rand.NewPCG(7, 8))
	start := make([]int32, n)
	for v := range start {
		start[v] = int32(v / 1024)
		if r.IntN(10) == 0 {
			start[v] = int32(r.IntN(k))
		}
	}
	part := make([]int32, n)
	b.ResetTimer()
	for b.Loop() {
		copy(part, start)
		Refine(w, nil, part, k, 1100, 4)
	}
}

// refineOracle is Refine as its comment describes it, one step after the
// other: each pass finds every queued vertex's proposal against the
// partition as the pass found it, then checks and makes the moves in
// index order, walking each vertex's neighbours again.
func refineOracle(w *WeightedGraph, weight []int32, part []int32, k int, maxLoad int64, passes int) int {
	n := w.NumVertices()
	load := make([]int64, k)
	for v := range part {
		load[part[v]] += int64(vertexWeight(weight, int32(v)))
	}
	var queue []int32
	for v := int32(0); v < int32(n); v++ {
		for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
			if part[u] != part[v] {
				queue = append(queue, v)
				break
			}
		}
	}
	queued := make([]int, n)
	f := newMoveFinder(k)
	moves := 0
	for pass := 1; pass <= passes && len(queue) > 0; pass++ {
		var proposed []int32
		for _, v := range queue {
			f.gather(w, part, v)
			if _, ok, waiting := f.choose(part[v], int64(vertexWeight(weight, v)), load, maxLoad); ok {
				proposed = append(proposed, v)
			} else if waiting {
				queued[v] = pass
			}
			f.reset()
		}
		for _, v := range proposed {
			f.gather(w, part, v)
			b, ok, waiting := f.choose(part[v], int64(vertexWeight(weight, v)), load, maxLoad)
			f.reset()
			if !ok {
				if waiting {
					queued[v] = pass
				}
				continue
			}
			wv := int64(vertexWeight(weight, v))
			load[part[v]] -= wv
			load[b] += wv
			part[v] = b
			moves++
			queued[v] = pass
			for _, u := range w.Adjncy[w.Xadj[v]:w.Xadj[v+1]] {
				queued[u] = pass
			}
		}
		queue = queue[:0]
		for v := range queued {
			if queued[v] == pass {
				queue = append(queue, int32(v))
			}
		}
	}
	return moves
}

// Refine makes the oracle's moves, whatever the core count, over enough
// passes for its one-byte pass marks to wrap (vertices held back by the
// loads alone stay queued pass after pass).
func TestRefineMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for trial := 0; trial < 60; trial++ {
		w, k, start, weight := refineCase(t, r, trial%2 == 1)
		n := w.NumVertices()
		maxLoad := int64((n+k-1)/k) + int64(r.IntN(3))
		passes := 1 + r.IntN(4)
		if trial%3 == 0 {
			passes = 300
		}
		want := slices.Clone(start)
		wantMoves := refineOracle(w, weight, want, k, maxLoad, passes)
		for _, p := range []int{1, 4} {
			runtime.GOMAXPROCS(p)
			// Refine's copy holds the parts in 16 bits here (k <= 2^16);
			// the 32-bit copy of more parts is run as well.
			for _, wide := range []bool{false, true} {
				got := slices.Clone(start)
				var moves int
				if wide {
					moves = refine(w, weight, got, make([]int32, n), k, maxLoad, passes)
				} else {
					moves = Refine(w, weight, got, k, maxLoad, passes)
				}
				if moves != wantMoves || !slices.Equal(got, want) {
					t.Fatalf("trial %d, %d cores, %d passes, 32-bit copy %v: %d moves, want %d; parts equal: %v", trial, p, passes, wide, moves, wantMoves, slices.Equal(got, want))
				}
			}
		}
	}
}
