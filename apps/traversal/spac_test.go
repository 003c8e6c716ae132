package traversal

import (
	"context"
	"math"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/gen"
	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
	"github.com/spac-gpu/spac/schedule"
)

// emulated memoizes a graph's schedule arrays for the CPU emulations.
type emulated struct {
	t  *testing.T
	bs int
	g  *graph.Graph
	a  *spacArrays
}

func (c *emulated) get(g *graph.Graph) *spacArrays {
	c.t.Helper()
	if c.g == g {
		return c.a
	}
	var s *schedule.Schedule
	if g.NumArcs() == 0 {
		s = &schedule.Schedule{NRows: g.NumVertices, NCols: g.NumVertices, BlockSize: c.bs, BlockOffsets: []int32{0}, YOffsets: []int32{0}, XOffsets: []int32{0}}
	} else {
		var err error
		if s, _, _, err = BuildSchedule(context.Background(), g, c.bs, nil); err != nil {
			c.t.Fatal(err)
		}
	}
	a, err := scheduleArrays(g, s)
	if err != nil {
		c.t.Fatal(err)
	}
	c.g, c.a = g, a
	return a
}

// bfsStart is a BFS's state before its first level: the root alone at
// depth 0, and the stamps.
func (a *spacArrays) bfsStart(n int, root int32) (depth, parent, stamps []int32) {
	depth, parent = make([]int32, n), make([]int32, n)
	for i := range depth {
		depth[i], parent[i] = -1, -1
	}
	depth[root], parent[root] = 0, root
	return depth, parent, a.stamps(root)
}

// kronSchedule is a Kronecker graph of the given scale, its schedule of
// block size bs and the kernels' arrays.
func kronSchedule(t *testing.T, scale, bs int, opt graph.Options) (*graph.Graph, *schedule.Schedule, *spacArrays) {
	t.Helper()
	edges, err := gen.DefaultKronecker(scale).Generate()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(edges, opt)
	if err != nil {
		t.Fatal(err)
	}
	s, _, _, err := BuildSchedule(context.Background(), g, bs, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := scheduleArrays(g, s)
	if err != nil {
		t.Fatal(err)
	}
	return g, s, a
}

// stamps is the kernel's initial stamps: -1, the root's blocks 0.
func (a *spacArrays) stamps(root int32) []int32 {
	st := make([]int32, a.nb)
	for i := range st {
		st[i] = -1
	}
	for _, b := range a.vblk[a.vboff[root]:a.vboff[root+1]] {
		st[b] = 0
	}
	return st
}

// The CPU emulation of the kernel's levels over the schedule (block
// skipping by stamps included) passes the conformance suite: BFS and
// Bellman-Ford rounds, at block sizes that give many blocks and one.
func TestSpacScheduleEmulation(t *testing.T) {
	for _, bs := range []int{8, 64, 1024} {
		c := &emulated{t: t, bs: bs}
		traversaltest.TestBFS(t, func(g *graph.Graph, root int32) ([]int32, []int32, error) {
			a := c.get(g)
			depth, parent, st := a.bfsStart(g.NumVertices, root)
			for L := int32(0); ; L++ {
				if len(a.bfsLevel(depth, parent, st, L)) == 0 {
					break
				}
			}
			return parent, depth, nil
		})
		traversaltest.TestSSSP(t, func(g *graph.Graph, root int32) ([]float32, []int32, error) {
			a := c.get(g)
			n := g.NumVertices
			dist, pred, mark := make([]float32, n), make([]int32, n), make([]int32, n)
			for i := range dist {
				dist[i], pred[i], mark[i] = float32(math.Inf(1)), -1, -1
			}
			dist[root], pred[root], mark[root] = 0, root, 0
			st := a.stamps(root)
			for L := int32(0); a.ssspRound(dist, pred, mark, st, L) > 0; L++ {
			}
			return dist, pred, nil
		})
	}
}

// One level over the schedule reaches exactly the reference's next level
// on a Kronecker graph, and every block it skipped had no source in the
// frontier.
func TestSpacScheduleLevel(t *testing.T) {
	g, _, a := kronSchedule(t, 10, 256, graph.Options{})
	root := traversaltest.Roots(g, 1, 3)[0]
	want, err := ref.BFS(g, root)
	if err != nil {
		t.Fatal(err)
	}
	depth, parent, st := a.bfsStart(g.NumVertices, root)
	skipped := 0
	for L := int32(0); ; L++ {
		for b := range a.nb {
			if st[b] >= L {
				continue
			}
			skipped++
			for _, u := range a.yuni[a.yoff[b]:a.yoff[b+1]] {
				if depth[u] == L {
					t.Fatalf("level %d: block %d skipped with source %d in the frontier", L, b, u)
				}
			}
		}
		pushed := a.bfsLevel(depth, parent, st, L)
		nextRef := 0
		for _, d := range want.Depth {
			if d == L+1 {
				nextRef++
			}
		}
		if len(pushed) != nextRef {
			t.Fatalf("level %d: %d vertices pushed, the reference's next level has %d", L, len(pushed), nextRef)
		}
		for _, v := range pushed {
			if want.Depth[v] != L+1 || depth[parent[v]] != L {
				t.Fatalf("level %d: vertex %d at reference depth %d, parent %d at %d", L, v, want.Depth[v], parent[v], depth[parent[v]])
			}
		}
		if len(pushed) == 0 {
			break
		}
	}
	t.Logf("%d blocks, %d block-levels skipped", a.nb, skipped)
}

// The arrays map every arc once, and a schedule of another graph is
// refused.
func TestSpacScheduleArrays(t *testing.T) {
	g, s, a := kronSchedule(t, 8, 128, graph.Options{Weights: graph.Weights{Kind: graph.UniformFloat}, Seed: 1})
	arcs, src := 0, g.Sources()
	for slot, v := range a.tgt {
		if v < 0 {
			continue
		}
		arcs++
		b := slot / a.bs
		u := a.yuni[a.yoff[b]+int32(a.sloc[slot])]
		k := s.NewSchedule[slot]
		if src[k] != u || g.Adj[k] != v || g.Weight[k] != a.ws[slot] {
			t.Fatalf("slot %d: arc %d is %d -> %d, the arrays say %d -> %d", slot, k, g.Sources()[k], g.Adj[k], u, v)
		}
	}
	if int64(arcs) != g.NumArcs() {
		t.Fatalf("%d arcs mapped of %d", arcs, g.NumArcs())
	}
	for v := range g.NumVertices {
		for _, b := range a.vblk[a.vboff[v]:a.vboff[v+1]] {
			found := false
			for _, u := range a.yuni[a.yoff[b]:a.yoff[b+1]] {
				found = found || int(u) == v
			}
			if !found {
				t.Fatalf("vertex %d listed in block %d, which does not have it as a source", v, b)
			}
		}
	}
	edges2, _ := gen.DefaultKronecker(7).Generate()
	g2, err := graph.Build(edges2, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scheduleArrays(g2, s); err == nil {
		t.Fatal("another graph's schedule accepted")
	}
}

// The CPU emulation of the spac-schedule kernels over spacArrays, which
// the tests above check against the conformance suite and package ref.

// bfsLevel is the CPU emulation of one BFS level over the arrays, as the
// kernel runs it (blocks whose stamp is below L skipped, then the masked
// product); it returns the vertices pushed.
func (a *spacArrays) bfsLevel(depth, parent, stamp []int32, L int32) []int32 {
	var pushed []int32
	for b := range a.nb {
		if stamp[b] < L {
			continue
		}
		y0, y1 := a.yoff[b], a.yoff[b+1]
		su := make([]int32, y1-y0)
		for i, u := range a.yuni[y0:y1] {
			su[i] = -1
			if depth[u] == L {
				su[i] = u
			}
		}
		for t := range a.bs {
			slot := b*a.bs + t
			v := a.tgt[slot]
			if v < 0 || su[a.sloc[slot]] < 0 || depth[v] != -1 {
				continue
			}
			depth[v], parent[v] = L+1, su[a.sloc[slot]]
			pushed = append(pushed, v)
			for _, c := range a.vblk[a.vboff[v]:a.vboff[v+1]] {
				stamp[c] = L + 1
			}
		}
	}
	return pushed
}

// ssspRound is the CPU emulation of one Bellman-Ford round: the arcs of
// the sources stamped L (mark) relaxed from their distance at the round's
// start (float32 sums); improved vertices are stamped L+1.
func (a *spacArrays) ssspRound(dist []float32, pred, mark, stamp []int32, L int32) int {
	pushed := 0
	for b := range a.nb {
		if stamp[b] < L {
			continue
		}
		for t := range a.bs {
			slot := b*a.bs + t
			v := a.tgt[slot]
			if v < 0 {
				continue
			}
			u := a.yuni[a.yoff[b]+int32(a.sloc[slot])]
			if mark[u] != L {
				continue
			}
			if d := dist[u] + a.ws[slot]; d < dist[v] {
				dist[v], pred[v] = d, u
				if mark[v] != L+1 {
					mark[v] = L + 1
					pushed++
					for _, c := range a.vblk[a.vboff[v]:a.vboff[v+1]] {
						stamp[c] = L + 1
					}
				}
			}
		}
	}
	return pushed
}
