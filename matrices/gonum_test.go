package matrices

import (
	"slices"
	"testing"

	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/graph/traverse"
)

// blockDiag places a and b on the diagonal of one matrix, then pads with
// isolated rows: a graph with known separate components.
func blockDiag(a, b *COO, pad int) *COO {
	a, b = a.Expanded(), b.Expanded()
	n := a.NRows + b.NRows + pad
	m := &COO{Name: "blockdiag", NRows: n, NCols: n, Field: Real}
	m.Row = append(slices.Clone(a.Row), b.Row...)
	m.Col = append(slices.Clone(a.Col), b.Col...)
	m.Val = append(slices.Clone(a.Val), b.Val...)
	for e := len(a.Row); e < len(m.Row); e++ {
		m.Row[e] += int32(a.NRows)
		m.Col[e] += int32(a.NRows)
	}
	return m
}

type unionFind []int32

func newUnionFind(n int) unionFind {
	uf := make(unionFind, n)
	for i := range uf {
		uf[i] = int32(i)
	}
	return uf
}

func (uf unionFind) find(x int32) int32 {
	for uf[x] != x {
		uf[x] = uf[uf[x]]
		x = uf[x]
	}
	return x
}

func TestGonumGraph(t *testing.T) {
	ba, _ := BarabasiAlbert(2000, 3, 1)
	er, _ := ErdosRenyi(3000, 1.2, 2) // sparse: many components, self-loops, both directions
	circ, _ := Circuit(1500, 4, 3)
	stencil, _ := Stencil2D(20, 30, 5)
	cases := []struct {
		name  string
		m     *COO
		model Model
	}{
		{"ba", ba.Expanded(), ModelGraph},
		{"ba-stored", ba, ModelGraph},
		{"er", er, ModelGraph},
		{"er-spmv", er, ModelSpMV},
		{"circuit-spmv", circ, ModelSpMV},
		{"blockdiag", blockDiag(stencil, ba, 17), ModelGraph},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := LocalityGraph(tc.m, tc.model)
			if err != nil {
				t.Fatal(err)
			}
			gg, err := NewGonumGraph(g, nil)
			if err != nil {
				t.Fatal(err)
			}
			n := g.NumVertices

			// Oracle: distinct neighbour sets from the edge list alone.
			pairs := make([]uint64, 0, 2*g.NumEdges())
			uf := newUnionFind(n)
			for e := range g.U {
				u, v := g.U[e], g.V[e]
				pairs = append(pairs, uint64(u)<<32|uint64(v), uint64(v)<<32|uint64(u))
				if ru, rv := uf.find(u), uf.find(v); ru != rv {
					uf[ru] = rv
				}
			}
			slices.Sort(pairs)
			pairs = slices.Compact(pairs)
			deg := make([]int, n)
			for _, p := range pairs {
				deg[p>>32]++
			}

			if got := len(graph.NodesOf(gg.Nodes())); got != n {
				t.Fatalf("Nodes: %d, want %d", got, n)
			}
			for v := 0; v < n; v++ {
				it := gg.From(int64(v))
				if it.Len() != deg[v] {
					t.Fatalf("vertex %d: From has %d nodes, want %d", v, it.Len(), deg[v])
				}
				for it.Next() {
					u := it.Node().ID()
					if !gg.HasEdgeBetween(u, int64(v)) || gg.EdgeBetween(int64(v), u) == nil {
						t.Fatalf("edge %d-%d not seen from both ends", v, u)
					}
					if _, ok := slices.BinarySearch(pairs, uint64(v)<<32|uint64(u)); !ok {
						t.Fatalf("From(%d) lists %d, which shares no task with it", v, u)
					}
				}
				if len(graph.NodesOf(gg.From(int64(v)))) != deg[v] {
					t.Fatalf("vertex %d: NodesOf(From) disagrees with Len", v)
				}
			}
			// Random pairs, mostly absent.
			r := genRand(5, 5)
			for range 2000 {
				u, v := r.IntN(n), r.IntN(n)
				_, want := slices.BinarySearch(pairs, uint64(u)<<32|uint64(v))
				if gg.HasEdgeBetween(int64(u), int64(v)) != want || (gg.Edge(int64(u), int64(v)) != nil) != want {
					t.Fatalf("edge %d-%d: HasEdgeBetween disagrees with the edge list (want %v)", u, v, want)
				}
			}
			for v := range n {
				if nb := gg.Neighbours(v); len(nb) > 0 {
					e := gg.Edge(int64(v), int64(nb[0]))
					if e.From().ID() != int64(v) || e.To().ID() != int64(nb[0]) || e.ReversedEdge().To().ID() != int64(v) {
						t.Fatalf("edge %d-%d has ends %d-%d", v, nb[0], e.From().ID(), e.To().ID())
					}
					break
				}
			}

			// gonum's connected components against union-find.
			cc := topo.ConnectedComponents(gg)
			roots := 0
			for v := range uf {
				if uf.find(int32(v)) == int32(v) {
					roots++
				}
			}
			if len(cc) != roots {
				t.Fatalf("gonum finds %d components, union-find %d", len(cc), roots)
			}
			seen := 0
			for _, comp := range cc {
				root := uf.find(int32(comp[0].ID()))
				for _, node := range comp {
					if uf.find(int32(node.ID())) != root {
						t.Fatalf("gonum puts %d and %d together, union-find does not", comp[0].ID(), node.ID())
					}
				}
				seen += len(comp)
			}
			if seen != n {
				t.Fatalf("components cover %d vertices, want %d", seen, n)
			}
			// A breadth-first walk from vertex 0 reaches its component.
			var bf traverse.BreadthFirst
			reached := 0
			bf.Walk(gg, gg.Node(0), func(graph.Node, int) bool { reached++; return false })
			size := 0
			for v := range uf {
				if uf.find(int32(v)) == uf.find(0) {
					size++
				}
			}
			if reached != size {
				t.Fatalf("BFS from 0 reaches %d vertices, its component has %d", reached, size)
			}
		})
	}
}

func TestGonumGraphBounds(t *testing.T) {
	m, _ := Stencil2D(3, 3, 5)
	g, inc, _ := BuildLocality(m, ModelGraph)
	gg, err := NewGonumGraph(g, inc)
	if err != nil {
		t.Fatal(err)
	}
	if gg.Node(-1) != nil || gg.Node(9) != nil || gg.Node(8) == nil {
		t.Fatal("Node bounds")
	}
	if gg.From(9).Len() != 0 || gg.From(-1).Len() != 0 || gg.HasEdgeBetween(0, 9) || gg.Edge(-1, 0) != nil {
		t.Fatal("out-of-range vertices must have no edges")
	}
	// Vertex 4 (the centre) has the 4 axis neighbours and itself.
	if got := gg.Neighbours(4); !slices.Equal(got, []int32{1, 3, 4, 5, 7}) {
		t.Fatalf("centre's neighbours %v", got)
	}
	it := gg.From(4)
	n := 0
	for it.Next() {
		n++
	}
	it.Reset()
	if n != 5 || it.Len() != 5 || it.Node() != nil {
		t.Fatal("iterator Reset/Len")
	}
	bad := &Incidence{Offsets: []int32{0}}
	if _, err := NewGonumGraph(g, bad); err == nil {
		t.Fatal("mismatched incidence accepted")
	}
	if _, err := NewGonumGraph(nil, nil); err == nil {
		t.Fatal("nil graph accepted")
	}
}
