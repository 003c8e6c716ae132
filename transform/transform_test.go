package transform

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// edges builds a locality graph from an edge list.
func edges(n int, uv ...int32) (*matrices.Graph, *matrices.Incidence) {
	g := &matrices.Graph{NumVertices: n, NumRowVertices: n, Model: matrices.ModelGraph}
	for i := 0; i < len(uv); i += 2 {
		g.U = append(g.U, uv[i])
		g.V = append(g.V, uv[i+1])
	}
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		panic(err)
	}
	return g, inc
}

// adjacency returns the sorted (neighbour, weight) pairs of v.
func adjacency(w *WeightedGraph, v int) [][2]int32 {
	var out [][2]int32
	for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
		out = append(out, [2]int32{w.Adjncy[i], w.EdgeWeight(i)})
	}
	slices.SortFunc(out, func(a, b [2]int32) int { return int(a[0] - b[0]) })
	return out
}

func checkAdjacency(t *testing.T, w *WeightedGraph, want [][][2]int32) {
	t.Helper()
	if w.NumVertices() != len(want) {
		t.Fatalf("%d vertices, want %d", w.NumVertices(), len(want))
	}
	for v := range want {
		if got := adjacency(w, v); !slices.Equal(got, want[v]) {
			t.Errorf("vertex %d: neighbours %v, want %v", v, got, want[v])
		}
	}
}

// A triangle a-b-c with edges e0=(a,b), e1=(b,c), e2=(a,c): every vertex
// has degree 2, so each contributes one auxiliary edge. Worked by hand:
// clones 0=(e0@a) 1=(e0@b) 2=(e1@b) 3=(e1@c) 4=(e2@a) 5=(e2@c);
// dominant 0-1, 2-3, 4-5; auxiliary a: 0-4, b: 1-2, c: 3-5.
func TestSplitConnectTriangle(t *testing.T) {
	g, inc := edges(3, 0, 1, 1, 2, 0, 2)
	w, err := SplitConnect(g, inc, ByIndex, 1000)
	if err != nil {
		t.Fatal(err)
	}
	checkAdjacency(t, w, [][][2]int32{
		{{1, 1000}, {4, 1}},
		{{0, 1000}, {2, 1}},
		{{1, 1}, {3, 1000}},
		{{2, 1000}, {5, 1}},
		{{0, 1}, {5, 1000}},
		{{3, 1}, {4, 1000}},
	})
}

// A star: centre 0 with leaves 1..4, edges e_i = (0, i+1). The centre's
// clones are 2i; the cycle order chains them 0-2-4-6-0, the path without
// the closing link 6-0.
func TestSplitConnectStarOrders(t *testing.T) {
	g, inc := edges(5, 0, 1, 0, 2, 0, 3, 0, 4)
	for _, tc := range []struct {
		order Order
		want  [][][2]int32
	}{
		{ByIndex, [][][2]int32{
			{{1, 7}, {2, 1}}, {{0, 7}}, {{0, 1}, {3, 7}, {4, 1}}, {{2, 7}},
			{{2, 1}, {5, 7}, {6, 1}}, {{4, 7}}, {{4, 1}, {7, 7}}, {{6, 7}},
		}},
		{Cycle, [][][2]int32{
			{{1, 7}, {2, 1}, {6, 1}}, {{0, 7}}, {{0, 1}, {3, 7}, {4, 1}}, {{2, 7}},
			{{2, 1}, {5, 7}, {6, 1}}, {{4, 7}}, {{0, 1}, {4, 1}, {7, 7}}, {{6, 7}},
		}},
	} {
		t.Run(tc.order.String(), func(t *testing.T) {
			w, err := SplitConnect(g, inc, tc.order, 7)
			if err != nil {
				t.Fatal(err)
			}
			checkAdjacency(t, w, tc.want)
		})
	}
}

// The neighbour order chains a vertex's edges by their other endpoint:
// edges of vertex 0 given as (0,3), (0,1), (0,2) chain as e1-e2-e0.
func TestContractNeighbourOrder(t *testing.T) {
	g, inc := edges(4, 0, 3, 0, 1, 0, 2)
	w, err := Contract(g, inc, ByNeighbour)
	if err != nil {
		t.Fatal(err)
	}
	checkAdjacency(t, w, [][][2]int32{
		{{2, 1}},
		{{2, 1}},
		{{0, 1}, {1, 1}},
	})
	w, err = Contract(g, inc, ByIndex)
	if err != nil {
		t.Fatal(err)
	}
	checkAdjacency(t, w, [][][2]int32{{{1, 1}}, {{0, 1}, {2, 1}}, {{1, 1}}})
}

// Edges (i,j) and (j,i) of a symmetric matrix are consecutive in the chains
// of both i and j: the contracted graph joins them once, with weight 2.
// A self-loop joins its vertex's chain once.
func TestContractMergesParallelLinks(t *testing.T) {
	g, inc := edges(2, 0, 1, 1, 0, 1, 1)
	w, err := Contract(g, inc, ByIndex)
	if err != nil {
		t.Fatal(err)
	}
	checkAdjacency(t, w, [][][2]int32{
		{{1, 2}},
		{{0, 2}, {2, 1}},
		{{1, 1}},
	})
}

// randomGraph is a random bipartite-like graph with self-loops and
// repeated edges, the cases the transformation must not trip on.
func randomGraph(r *rand.Rand) (*matrices.Graph, *matrices.Incidence) {
	n := 2 + r.IntN(30)
	m := 1 + r.IntN(120)
	uv := make([]int32, 0, 2*m)
	for i := 0; i < m; i++ {
		uv = append(uv, int32(r.IntN(n)), int32(r.IntN(n)))
	}
	return edges(n, uv...)
}

// randomContracted is randomGraph's graph contracted in the given order.
func randomContracted(t *testing.T, r *rand.Rand, o Order) *WeightedGraph {
	t.Helper()
	g, inc := randomGraph(r)
	w, err := Contract(g, inc, o)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// copies is the edge partition cost C_EP = sum_v (p_v - 1), computed
// naively as the oracle.
func copies(g *matrices.Graph, part []int32) int {
	parts := make([]map[int32]bool, g.NumVertices)
	for e := range g.U {
		for _, v := range []int32{g.U[e], g.V[e]} {
			if parts[v] == nil {
				parts[v] = map[int32]bool{}
			}
			parts[v][part[e]] = true
		}
	}
	c := 0
	for _, p := range parts {
		if len(p) > 0 {
			c += len(p) - 1
		}
	}
	return c
}

// cut is the weight of the edges of w whose ends lie in different parts.
func cut(w *WeightedGraph, part []int32) int {
	c := 0
	for v := 0; v < w.NumVertices(); v++ {
		for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
			if u := w.Adjncy[i]; int(u) > v && part[u] != part[v] {
				c += int(w.EdgeWeight(i))
			}
		}
	}
	return c
}

func checkCSR(t *testing.T, w *WeightedGraph) {
	t.Helper()
	n := w.NumVertices()
	seen := map[[2]int32]int32{}
	for v := 0; v < n; v++ {
		for i := w.Xadj[v]; i < w.Xadj[v+1]; i++ {
			u := w.Adjncy[i]
			if int(u) == v || u < 0 || int(u) >= n {
				t.Fatalf("vertex %d has neighbour %d", v, u)
			}
			key := [2]int32{int32(v), u}
			if _, dup := seen[key]; dup {
				t.Fatalf("vertex %d lists %d twice", v, u)
			}
			seen[key] = w.EdgeWeight(i)
		}
	}
	for k, wt := range seen {
		if back, ok := seen[[2]int32{k[1], k[0]}]; !ok || back != wt {
			t.Fatalf("edge %v weight %d has no symmetric twin", k, wt)
		}
	}
}

// Theorem 3.4: for any vertex partition y of the transformed graph, the
// edge partition Omega(y) costs no more copies than y cuts. Checked on
// random graphs, every formulation and order, and random partitions y
// (not only good ones: the bound holds for all of them).
func TestOmegaNeverCostsMoreThanTheCut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		g, inc := randomGraph(r)
		for _, f := range []Formulation{Contracted, Split} {
			for _, order := range []Order{ByIndex, Cycle, ByNeighbour, Walk} {
				var w *WeightedGraph
				var err error
				if f == Split {
					w, err = SplitConnect(g, inc, order, 1+int32(r.IntN(5)))
				} else {
					w, err = Contract(g, inc, order)
				}
				if err != nil {
					t.Fatal(err)
				}
				checkCSR(t, w)
				k := 1 + r.IntN(6)
				y := make([]int32, w.NumVertices())
				for i := range y {
					y[i] = int32(r.IntN(k))
				}
				part, err := Omega(g, inc, f, y)
				if err != nil {
					t.Fatal(err)
				}
				if len(part) != g.NumEdges() {
					t.Fatalf("Omega gave %d parts for %d edges", len(part), g.NumEdges())
				}
				if cep, cvp := copies(g, part), cut(w, y); cep > cvp {
					t.Fatalf("trial %d %v/%v: C_EP %d > C_VP %d", trial, f, order, cep, cvp)
				}
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, o := range []Order{ByIndex, Cycle, ByNeighbour, Walk} {
		if got, err := ParseOrder(o.String()); err != nil || got != o {
			t.Errorf("ParseOrder(%q) = %v, %v", o, got, err)
		}
	}
	for _, f := range []Formulation{Contracted, Split} {
		if got, err := ParseFormulation(f.String()); err != nil || got != f {
			t.Errorf("ParseFormulation(%q) = %v, %v", f, got, err)
		}
	}
	if _, err := ParseOrder("bogus"); err == nil {
		t.Error("ParseOrder accepted bogus")
	}
	if _, err := ParseFormulation("bogus"); err == nil {
		t.Error("ParseFormulation accepted bogus")
	}
}

// A wheel: centre 0, rim 1..6 joined in a ring, the spokes listed out of
// angular order (1, 4, 2, 5, 3, 6). The walk around the centre follows the
// rim: spokes to 1, 2, 3, 4, 5, 6, that is edges 0, 2, 4, 1, 3, 5.
// A neighbour reached by two tasks keeps them together.
func TestWalkFollowsTheRim(t *testing.T) {
	g, inc := edges(7,
		0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6, // spokes e0..e5
		1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 1) // rim e6..e11
	chain := walk(g, inc, byNeighbour(g, inc))
	if got, want := chain[inc.Offsets[0]:inc.Offsets[1]], []int32{0, 2, 4, 1, 3, 5}; !slices.Equal(got, want) {
		t.Fatalf("walk around the centre %v, want %v", got, want)
	}
	g, inc = edges(4, 0, 1, 0, 2, 1, 0, 0, 3, 2, 1)
	chain = walk(g, inc, byNeighbour(g, inc))
	// Vertex 0's tasks: e0 (to 1), e1 (to 2), e2 (to 1), e3 (to 3): both
	// tasks to 1 first, then 2 (adjacent to 1 through e4), then 3.
	if got, want := chain[inc.Offsets[0]:inc.Offsets[1]], []int32{0, 2, 1, 3}; !slices.Equal(got, want) {
		t.Fatalf("walk with a repeated neighbour %v, want %v", got, want)
	}
}

// The walk and neighbour orders depend on the graph, not on the order of
// its edges: relabelling the edges of a simple graph by a permutation gives
// the same contracted graph, relabelled.
func TestOrdersIgnoreEdgeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 100; trial++ {
		n := 4 + r.IntN(25)
		seen := map[[2]int32]bool{}
		var uv []int32
		for i := 0; i < 3*n; i++ {
			a, b := int32(r.IntN(n)), int32(r.IntN(n))
			if a == b || seen[[2]int32{a, b}] || seen[[2]int32{b, a}] {
				continue
			}
			seen[[2]int32{a, b}] = true
			uv = append(uv, a, b)
		}
		m := len(uv) / 2
		perm := r.Perm(m) // edge e becomes edge perm[e]
		shuffled := make([]int32, 2*m)
		for e := 0; e < m; e++ {
			shuffled[2*perm[e]], shuffled[2*perm[e]+1] = uv[2*e], uv[2*e+1]
		}
		g1, inc1 := edges(n, uv...)
		g2, inc2 := edges(n, shuffled...)
		for _, order := range []Order{Walk, ByNeighbour} {
			w1, _ := Contract(g1, inc1, order)
			w2, _ := Contract(g2, inc2, order)
			for e := 0; e < m; e++ {
				got := adjacency(w2, perm[e])
				var want [][2]int32
				for _, nb := range adjacency(w1, e) {
					want = append(want, [2]int32{int32(perm[nb[0]]), nb[1]})
				}
				slices.SortFunc(want, func(a, b [2]int32) int { return int(a[0] - b[0]) })
				if !slices.Equal(got, want) {
					t.Fatalf("trial %d %v: edge %d links %v, after relabelling %v", trial, order, e, want, got)
				}
			}
		}
	}
}
