package order

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// edges builds a CSR with n vertices from arcs as given (each stored once,
// in the direction written), so that tests can pass unsymmetric inputs.
func edges(n int, arcs [][2]int32) ([]int64, []int32) {
	ptr := make([]int64, n+1)
	for _, a := range arcs {
		ptr[a[0]+1]++
	}
	for i := 0; i < n; i++ {
		ptr[i+1] += ptr[i]
	}
	adj := make([]int32, len(arcs))
	fill := slices.Clone(ptr[:n])
	for _, a := range arcs {
		adj[fill[a[0]]] = a[1]
		fill[a[0]]++
	}
	return ptr, adj
}

// both returns every arc and its reverse.
func both(arcs [][2]int32) [][2]int32 {
	out := make([][2]int32, 0, 2*len(arcs))
	for _, a := range arcs {
		out = append(out, a, [2]int32{a[1], a[0]})
	}
	return out
}

// relabel returns arcs with vertex v renamed to label[v].
func relabel(arcs [][2]int32, label []int32) [][2]int32 {
	out := make([][2]int32, len(arcs))
	for i, a := range arcs {
		out[i] = [2]int32{label[a[0]], label[a[1]]}
	}
	return out
}

func pathArcs(n int) [][2]int32 {
	var a [][2]int32
	for i := 0; i+1 < n; i++ {
		a = append(a, [2]int32{int32(i), int32(i + 1)})
	}
	return a
}

func gridArcs(w, h int) [][2]int32 {
	var a [][2]int32
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := int32(y*w + x)
			if x+1 < w {
				a = append(a, [2]int32{v, v + 1})
			}
			if y+1 < h {
				a = append(a, [2]int32{v, v + int32(w)})
			}
		}
	}
	return a
}

func shuffled(rng *rand.Rand, n int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// checkPerm fails unless perm is a permutation of 0..n-1.
func checkPerm(t *testing.T, perm []int32, n int) {
	t.Helper()
	if len(perm) != n {
		t.Fatalf("len(perm) = %d, want %d", len(perm), n)
	}
	seen := make([]bool, n)
	for i, p := range perm {
		if p < 0 || int(p) >= n || seen[p] {
			t.Fatalf("perm[%d] = %d: not a permutation", i, p)
		}
		seen[p] = true
	}
}

// checkCuthillMcKee checks the defining property of each component's
// sequence read backwards (the Cuthill-McKee order): it is a breadth-first
// order in which the children of a vertex come in increasing (degree,
// index) order, the degree counted in the symmetrized graph. Components
// must be contiguous and listed in the order of their smallest vertex.
func checkCuthillMcKee(t *testing.T, n int, arcs [][2]int32, perm []int32) {
	t.Helper()
	nb := make([]map[int32]bool, n)
	for i := range nb {
		nb[i] = map[int32]bool{}
	}
	for _, a := range arcs {
		if a[0] != a[1] {
			nb[a[0]][a[1]] = true
			nb[a[1]][a[0]] = true
		}
	}
	inv := Inverse(perm)
	// Walk components: a component of perm is a maximal run closed under
	// adjacency; find each by a search from perm's first unplaced vertex.
	lastMin := int32(-1)
	for i := 0; i < n; {
		comp := map[int32]bool{perm[i]: true}
		stack := []int32{perm[i]}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for v := range nb[u] {
				if !comp[v] {
					comp[v] = true
					stack = append(stack, v)
				}
			}
		}
		end := i + len(comp)
		minV := int32(n)
		for j := i; j < end; j++ {
			if !comp[perm[j]] {
				t.Fatalf("component of %d not contiguous in perm: %v", perm[i], perm)
			}
			minV = min(minV, perm[j])
		}
		if minV <= lastMin {
			t.Fatalf("components out of order: smallest vertex %d after %d", minV, lastMin)
		}
		lastMin = minV
		// cm is the component's Cuthill-McKee order.
		cm := slices.Clone(perm[i:end])
		slices.Reverse(cm)
		pos := func(v int32) int { return end - 1 - int(inv[v]) } // index in cm
		parent := make([]int, len(cm))
		for k, v := range cm {
			parent[k] = -1
			for u := range nb[v] {
				if p := pos(u); p < k && (parent[k] < 0 || p < parent[k]) {
					parent[k] = p
				}
			}
			if k > 0 && parent[k] < 0 {
				t.Fatalf("cm[%d] = %d has no earlier neighbour: not a search order", k, v)
			}
			if k > 1 && parent[k] < parent[k-1] {
				t.Fatalf("cm[%d] = %d: parent at %d before the previous vertex's %d: not breadth-first", k, v, parent[k], parent[k-1])
			}
			if k > 1 && parent[k] == parent[k-1] {
				a, b := cm[k-1], v
				da, db := len(nb[a]), len(nb[b])
				if da > db || (da == db && a > b) {
					t.Fatalf("siblings %d (degree %d) before %d (degree %d)", a, da, b, db)
				}
			}
		}
		i = end
	}
}

func TestRCM(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		n    int
		arcs [][2]int32
		// maxBW bounds the bandwidth after RCM; the reason is given per case.
		maxBW int
	}{
		{"empty", 0, nil, 0},
		{"single vertex", 1, nil, 0},
		{"single vertex with self-loop", 1, [][2]int32{{0, 0}}, 0},
		// A path is ordered end to end: bandwidth 1 whatever its labels.
		{"path", 10, both(pathArcs(10)), 1},
		{"path shuffled", 50, both(relabel(pathArcs(50), shuffled(rng, 50))), 1},
		{"path one direction only", 20, relabel(pathArcs(20), shuffled(rng, 20)), 1},
		// A w x h grid from a corner has anti-diagonal levels of at most
		// min(w, h) vertices; neighbours lie in adjacent levels, so the
		// bandwidth is below the sum of two levels.
		{"grid 7x5", 35, both(gridArcs(7, 5)), 2*5 - 1},
		{"grid 6x30 shuffled", 180, both(relabel(gridArcs(6, 30), shuffled(rng, 180))), 2*6 - 1},
		// Two paths and two isolated vertices interleaved by label.
		{"disconnected", 8, both([][2]int32{{0, 2}, {2, 4}, {1, 3}, {3, 5}, {5, 7}}), 1},
		{"isolated only", 4, [][2]int32{{2, 2}}, 0},
		{"star", 9, both([][2]int32{{4, 0}, {4, 1}, {4, 2}, {4, 3}, {4, 5}, {4, 6}, {4, 7}, {4, 8}}), 8},
		{"duplicates and loops", 4, [][2]int32{{0, 1}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 3}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ptr, adj := edges(tc.n, tc.arcs)
			perm := RCM(tc.n, ptr, adj)
			checkPerm(t, perm, tc.n)
			checkCuthillMcKee(t, tc.n, tc.arcs, perm)
			if bw := Bandwidth(tc.n, ptr, adj, perm); bw > tc.maxBW {
				t.Errorf("bandwidth %d, want at most %d (perm %v)", bw, tc.maxBW, perm)
			}
			if again := RCM(tc.n, ptr, adj); !slices.Equal(again, perm) {
				t.Errorf("not deterministic: %v then %v", perm, again)
			}
		})
	}
}

// TestRCMStartsPeripheral checks that each search starts from a vertex at
// least as eccentric as the component's vertex of minimum degree, where
// George-Liu begins: on a path that is an end, on a grid a corner.
func TestRCMStartsPeripheral(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		arcs   [][2]int32
		starts []int32 // acceptable last entries of perm (the first of CM)
	}{
		{"path", 9, both(pathArcs(9)), []int32{0, 8}},
		{"grid 4x6", 24, both(gridArcs(4, 6)), []int32{0, 3, 20, 23}},
		// A path 1-2-3-4-5 with a pendant 0 on 3: George-Liu begins at 0
		// (degree 1, smallest index, eccentricity 3) and must move to an
		// end of the path (eccentricity 4).
		{"spider", 6, both([][2]int32{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {3, 0}}), []int32{1, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptr, adj := edges(tc.n, tc.arcs)
			perm := RCM(tc.n, ptr, adj)
			if s := perm[len(perm)-1]; !slices.Contains(tc.starts, s) {
				t.Errorf("search started at %d, want one of %v", s, tc.starts)
			}
		})
	}
}

// TestRCMProperties runs RCM on seeded random graphs of several shapes:
// the result is a permutation with the Cuthill-McKee property, does not
// depend on whether the input holds both directions of an edge, and on
// grids under a random labelling it never has a larger bandwidth than the
// random labelling itself.
func TestRCMProperties(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		w, h := 2+rng.IntN(15), 2+rng.IntN(15)
		n := w * h
		label := shuffled(rng, n)
		upper := relabel(gridArcs(w, h), label)
		t.Run(fmt.Sprintf("grid %dx%d seed %d", w, h, seed), func(t *testing.T) {
			ptr, adj := edges(n, both(upper))
			perm := RCM(n, ptr, adj)
			checkPerm(t, perm, n)
			checkCuthillMcKee(t, n, both(upper), perm)
			if bw, rbw := Bandwidth(n, ptr, adj, perm), Bandwidth(n, ptr, adj, nil); bw > rbw {
				t.Errorf("bandwidth after RCM %d > random order's %d", bw, rbw)
			}
			uptr, uadj := edges(n, upper)
			if one := RCM(n, uptr, uadj); !slices.Equal(one, perm) {
				t.Errorf("one direction per edge gives %v, both give %v", one, perm)
			}
		})
		// A sparse random graph: several components, isolated vertices.
		n = 1 + rng.IntN(200)
		var arcs [][2]int32
		for range rng.IntN(2 * n) {
			arcs = append(arcs, [2]int32{int32(rng.IntN(n)), int32(rng.IntN(n))})
		}
		t.Run(fmt.Sprintf("random n=%d m=%d seed %d", n, len(arcs), seed), func(t *testing.T) {
			ptr, adj := edges(n, arcs)
			perm := RCM(n, ptr, adj)
			checkPerm(t, perm, n)
			checkCuthillMcKee(t, n, arcs, perm)
		})
	}
}

// TestRCMParallel: symmetrize fills and sorts runs of symmetrizeRun
// vertices in parallel, which the small graphs above never exceed. On
// graphs of many runs (a shuffled grid; random arcs with duplicates, both
// directions and self-loops) the order is a Cuthill-McKee order, and the
// same on one core as on four.
func TestRCMParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	w, h := 200, 150
	grid := relabel(gridArcs(w, h), shuffled(rng, w*h))
	n := 40_000
	var arcs [][2]int32
	for range 3 * n {
		u, v := int32(rng.IntN(n)), int32(rng.IntN(n))
		arcs = append(arcs, [2]int32{u, v}, [2]int32{v, u}, [2]int32{u, v}, [2]int32{u, u})
	}
	for _, g := range []struct {
		name string
		n    int
		arcs [][2]int32
	}{{"grid 200x150", w * h, both(grid)}, {"random", n, arcs}} {
		ptr, adj := edges(g.n, g.arcs)
		prev := runtime.GOMAXPROCS(1)
		one := RCM(g.n, ptr, adj)
		runtime.GOMAXPROCS(4)
		four := RCM(g.n, ptr, adj)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(one, four) {
			t.Fatalf("%s: the order on four cores differs from the one on one", g.name)
		}
		checkPerm(t, four, g.n)
		checkCuthillMcKee(t, g.n, g.arcs, four)
	}
}

func TestInverse(t *testing.T) {
	for _, perm := range [][]int32{{}, {0}, {2, 0, 1}, {3, 1, 0, 2}} {
		inv := Inverse(perm)
		for i, p := range perm {
			if inv[p] != int32(i) {
				t.Errorf("Inverse(%v) = %v: inv[%d] = %d, want %d", perm, inv, p, inv[p], i)
			}
		}
		if back := Inverse(inv); !slices.Equal(back, perm) {
			t.Errorf("Inverse(Inverse(%v)) = %v", perm, back)
		}
	}
}

// BenchmarkRCM orders a 3-D 7-point mesh of 64^3 vertices under a random
// labelling (the shape of the beyond-L2 inputs, scaled down).
func BenchmarkRCM(b *testing.B) {
	const k = 64
	n := k * k * k
	var arcs [][2]int32
	for z := 0; z < k; z++ {
		for y := 0; y < k; y++ {
			for x := 0; x < k; x++ {
				v := int32((z*k+y)*k + x)
				if x+1 < k {
					arcs = append(arcs, [2]int32{v, v + 1})
				}
				if y+1 < k {
					arcs = append(arcs, [2]int32{v, v + k})
				}
				if z+1 < k {
					arcs = append(arcs, [2]int32{v, v + k*k})
				}
			}
		}
	}
	ptr, adj := edges(n, both(relabel(arcs, shuffled(rand.New(rand.NewPCG(3, 4)), n))))
	b.ResetTimer()
	for b.Loop() {
		RCM(n, ptr, adj)
	}
}

// BenchmarkRCMPowerLaw orders an R-MAT graph of 2^18 vertices and 4M arcs
// (the shape of the power-law inputs, scaled down): lists of every length,
// hubs with thousands of neighbours.
func BenchmarkRCMPowerLaw(b *testing.B) {
	m, err := matrices.RMAT(18, 16, 0.57, 0.19, 0.19, 1)
	if err != nil {
		b.Fatal(err)
	}
	n, ptr, adj := Pattern(m.NRows, m.NCols, m.Row, m.Col)
	b.ResetTimer()
	for b.Loop() {
		RCM(n, ptr, adj)
	}
}
