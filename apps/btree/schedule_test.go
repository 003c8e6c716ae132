package btree

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

// fixture builds the tree of a generated key set and the batches of
// Rodinia-like commands on it.
func fixture(t testing.TB, n, order int, cmds []Command) (*Tree, []*Batch) {
	t.Helper()
	keys, err := GenerateKeys(KeySpec{N: n, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Build(keys, BuildOptions{Order: order})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := MakeQueries(cmds, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	return tr, bs
}

func schedule(t testing.TB, tr *Tree, b *Batch, method string, perBlock int) *Schedule {
	t.Helper()
	m, err := spac.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSchedule(context.Background(), tr, b, m, perBlock, spac.Options{Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The locality graph has a vertex per node some query touches, and an
// edge per query, joining
// the query's leaf and its parent (findK) or its two ends' leaves (ranges).
func TestLocality(t *testing.T) {
	for _, order := range []int{3, 32, 512} {
		tr, bs := fixture(t, 20000, order, []Command{{Op: 'k', Count: 300}, {Op: 'j', Count: 200, Range: 100}})
		for _, b := range bs {
			g, nodes := Locality(tr, b)
			if g.NumVertices != len(nodes) || g.NumEdges() != b.Len() || !slices.IsSorted(nodes) {
				t.Fatalf("order %d %s: %d vertices for %d nodes, %d edges", order, b.Kind, g.NumVertices, len(nodes), g.NumEdges())
			}
			degree := make([]int, g.NumVertices)
			var path []int32
			for q := range b.Start {
				path = tr.Path(b.Start[q], path)
				u, v := path[max(tr.Height-1, 0)], path[tr.Height]
				if b.Kind == FindRange {
					u = v
					path = tr.Path(b.End[q], path)
					v = path[tr.Height]
				}
				if nodes[g.U[q]] != u || nodes[g.V[q]] != v {
					t.Fatalf("order %d %s query %d: edge (%d, %d), want (%d, %d)", order, b.Kind, q, nodes[g.U[q]], nodes[g.V[q]], u, v)
				}
				degree[g.U[q]]++
				degree[g.V[q]]++
			}
			if slices.Contains(degree, 0) {
				t.Fatalf("order %d %s: a vertex without queries", order, b.Kind)
			}
		}
	}
}

// A schedule runs every query exactly once, in blocks of at most PerBlock
// queries sorted by key, gives the reference's answers, and reads fewer
// nodes than the original; SPAC's partition fewer than a random one.
// (default, contiguous chunks of queries sorted by their two nodes, is
// nearly key order here: a strong baseline, reported, not asserted on.)
func TestSchedule(t *testing.T) {
	tr, bs := fixture(t, 50000, 64, []Command{{Op: 'k', Count: 4000}, {Op: 'j', Count: 3000, Range: 500}})
	for _, b := range bs {
		ref := Reference(tr, b)
		orig := OriginalLoads(tr, b)
		loads := map[string]int64{}
		for _, method := range []string{"spac", "default", "random"} {
			for _, per := range []int{1, DefaultPerBlock(tr.Order), 16} {
				s := schedule(t, tr, b, method, per)
				name := fmt.Sprintf("%s %s per=%d", b.Kind, method, per)
				if s.K != (b.Len()+per-1)/per || s.MaxQueries() > per {
					t.Errorf("%s: %d parts, largest %d", name, s.K, s.MaxQueries())
				}
				for p := 0; p < s.K; p++ {
					if !slices.IsSortedFunc(s.Order[s.Start[p]:s.Start[p+1]], b.byKey) {
						t.Fatalf("%s: block %d's queries are not sorted by key", name, p)
					}
				}
				got, n, err := s.Run(tr, b)
				if err != nil {
					t.Fatal(err)
				}
				if m := Mismatches(got, ref); m > 0 {
					t.Errorf("%s: %d answers differ from the reference", name, m)
				}
				if n > orig || (per > 1 && n >= orig) {
					t.Errorf("%s: %d node loads, the original %d", name, n, orig)
				}
				loads[fmt.Sprint(method, per)] = n
			}
		}
		for _, per := range []int{2, 16} {
			if r, s := loads[fmt.Sprint("random", per)], loads[fmt.Sprint("spac", per)]; s >= r {
				t.Errorf("%s per=%d: SPAC's partition reads %d nodes, a random one %d", b.Kind, per, s, r)
			}
		}
		t.Logf("%s: node loads %v, original %d", b.Kind, loads, orig)
	}
}

// Run refuses a schedule that misses or repeats a query.
func TestScheduleRunChecks(t *testing.T) {
	tr, bs := fixture(t, 5000, 32, []Command{{Op: 'k', Count: 100}})
	s := schedule(t, tr, bs[0], "spac", 4)
	bad := *s
	bad.Order = slices.Clone(s.Order)
	bad.Order[0] = bad.Order[1]
	if _, _, err := bad.Run(tr, bs[0]); err == nil {
		t.Error("a repeated query was accepted")
	}
	other, _ := fixture(t, 5000, 64, nil)
	if _, _, err := s.Run(other, bs[0]); err == nil {
		t.Error("a schedule for another block size was accepted")
	}
}

// The RCM baseline: a permutation of the nodes, a permutation of each
// batch, the same answers, and neighbouring queries on nearby nodes.
func TestRCM(t *testing.T) {
	tr, bs := fixture(t, 30000, 32, []Command{{Op: 'k', Count: 2000}, {Op: 'j', Count: 1000, Range: 300}})
	r, err := NewRCM(tr, bs)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Orders) != len(bs) {
		t.Fatalf("%d orders for %d batches", len(r.Orders), len(bs))
	}
	for i, b := range bs {
		ord := r.Orders[i]
		seen := slices.Clone(ord)
		slices.Sort(seen)
		for q, v := range seen {
			if v != int32(q) {
				t.Fatalf("%s: the order is not a permutation of the queries", b.Kind)
			}
		}
		if m := Mismatches(Reference(r.Tree, b.Permute(ord)), Reference(tr, b).permuted(ord)); m > 0 {
			t.Errorf("%s: %d answers differ on the renumbered tree", b.Kind, m)
		}
		// Consecutive queries mostly share their leaf region: the mean gap
		// between their leaves' new numbers is small.
		var gap, shuffled int64
		for q := 1; q < len(ord); q++ {
			a, _ := r.Tree.Leaf(b.Start[ord[q-1]])
			c, _ := r.Tree.Leaf(b.Start[ord[q]])
			gap += abs64(int64(a) - int64(c))
			a, _ = r.Tree.Leaf(b.Start[q-1])
			c, _ = r.Tree.Leaf(b.Start[q])
			shuffled += abs64(int64(a) - int64(c))
		}
		if gap*10 > shuffled {
			t.Errorf("%s: mean leaf gap %.1f in RCM order, %.1f in the drawn order", b.Kind, float64(gap)/float64(len(ord)), float64(shuffled)/float64(len(ord)))
		}
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// permuted returns the answers of query order[i] at position i.
func (a Answers) permuted(order []int32) Answers {
	out := Answers{A: make([]int32, len(order))}
	if a.B != nil {
		out.B = make([]int32, len(order))
	}
	for i, q := range order {
		out.A[i] = a.A[q]
		if a.B != nil {
			out.B[i] = a.B[q]
		}
	}
	return out
}
