package btree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// oracle answers queries from the sorted distinct keys alone, by binary
// search, with Rodinia's semantics: findK gives the key (its own record)
// or -1; a range gives the start key's rank (0 if absent) and the end
// key's rank minus that plus one (0 if absent).
type oracle struct{ keys []int32 }

func newOracle(keys []int32) oracle {
	s := slices.Clone(keys)
	slices.Sort(s)
	return oracle{slices.Compact(s)}
}

func (o oracle) rank(x int32) int32 {
	i := sort.Search(len(o.keys), func(i int) bool { return o.keys[i] >= x })
	if i < len(o.keys) && o.keys[i] == x {
		return int32(i)
	}
	return -1
}

func (o oracle) answers(b *Batch) Answers {
	var a Answers
	for q := range b.Start {
		if b.Kind == FindK {
			v := int32(-1)
			if o.rank(b.Start[q]) >= 0 {
				v = b.Start[q]
			}
			a.A = append(a.A, v)
			continue
		}
		s, l := max(o.rank(b.Start[q]), 0), int32(0)
		if r := o.rank(b.End[q]); r >= 0 {
			l = r - s + 1
		}
		a.A, a.B = append(a.A, s), append(a.B, l)
	}
	return a
}

// randomKeys draws n keys from [lo, lo+span), duplicates possible.
func randomKeys(rng *rand.Rand, n int, lo, span int64) []int32 {
	keys := make([]int32, n)
	for i := range keys {
		keys[i] = int32(lo + rng.Int64N(span))
	}
	return keys
}

// randomBatches draws queries hitting and missing the keys' range.
func randomBatches(rng *rand.Rand, keys []int32, n int) []*Batch {
	lo, hi := slices.Min(keys), slices.Max(keys)
	span := int64(hi) - int64(lo) + 3
	f := &Batch{Kind: FindK}
	r := &Batch{Kind: FindRange}
	for range n {
		f.Start = append(f.Start, int32(max(int64(MinKey), int64(lo)-1+rng.Int64N(span))))
		if rng.IntN(3) == 0 {
			f.Start[len(f.Start)-1] = keys[rng.IntN(len(keys))] // surely held
		}
		s := int64(lo) - 1 + rng.Int64N(span)
		e := s + rng.Int64N(span/2+1)
		r.Start = append(r.Start, int32(max(int64(MinKey), s)))
		r.End = append(r.End, int32(min(int64(MaxKey), e)))
	}
	return []*Batch{f, r}
}

// The CPU reference (the kernels' search on the built tree) equals the
// binary-search oracle on random key sets, orders and fills, including a
// root that is a leaf, duplicate keys and keys at the extremes.
func TestReferenceMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		n           int
		lo, span    int64
		order       int
		fill        float64
		wantMinimum int // height at least
	}{
		{1, 0, 1, 3, 0, 0},
		{5, 0, 10, 32, 0, 0},
		{200, 0, 1000, 3, 0, 4},
		{1000, -500, 700, 4, 1, 3}, // duplicates, full nodes
		{3000, 0, 1 << 30, 32, 0.5, 2},
		{20000, 0, 30000, 64, 0, 2},
		{5000, MinKey, 1 << 31, 128, 0, 1},
		{2000, MaxKey - 5000, 5001, 1024, 0, 1},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("n=%d,order=%d,fill=%g", c.n, c.order, c.fill), func(t *testing.T) {
			keys := randomKeys(rng, c.n, c.lo, c.span)
			tr, err := Build(keys, BuildOptions{Order: c.order, Fill: c.fill})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Height < c.wantMinimum {
				t.Errorf("height %d, want at least %d", tr.Height, c.wantMinimum)
			}
			checkTree(t, tr, keys)
			o := newOracle(keys)
			for _, b := range randomBatches(rng, keys, 500) {
				if n := Mismatches(Reference(tr, b), o.answers(b)); n > 0 {
					t.Errorf("%s: %d of %d queries differ from the oracle", b.Kind, n, b.Len())
				}
			}
		})
	}
}

// checkTree checks the layout invariants of the package documentation.
func checkTree(t *testing.T, tr *Tree, keys []int32) {
	t.Helper()
	o := newOracle(keys)
	if tr.Keys != len(o.keys) || !slices.Equal(tr.Records, o.keys) {
		t.Fatalf("records are not the %d distinct keys in order", len(o.keys))
	}
	if len(tr.Nodes) != tr.NumNodes*2*tr.Slots() {
		t.Fatalf("%d node words for %d nodes", len(tr.Nodes), tr.NumNodes)
	}
	// Walk the tree: every node reached once, leaves at depth Height, the
	// leaves' keys in order are all the keys.
	seen := make([]bool, tr.NumNodes)
	var leafKeys []int32
	var walk func(n int32, depth int, lo, hi int64)
	walk = func(n int32, depth int, lo, hi int64) {
		if seen[n] {
			t.Fatalf("node %d reached twice", n)
		}
		seen[n] = true
		keys, idx := tr.node(n)
		k := numKeys(keys)
		if keys[0] != math.MinInt32 || k > tr.Order-1 {
			t.Fatalf("node %d: slot 0 %d, %d keys (order %d)", n, keys[0], k, tr.Order)
		}
		for s := 1; s <= tr.Order; s++ {
			if s > k && keys[s] != math.MaxInt32 || s <= k && (keys[s] <= keys[s-1] && s > 1 || int64(keys[s]) < lo || int64(keys[s]) >= hi) {
				t.Fatalf("node %d: slot %d holds %d (keys %d, bounds [%d, %d))", n, s, keys[s], k, lo, hi)
			}
		}
		if depth == tr.Height {
			for s := 1; s <= k; s++ {
				if tr.Records[idx[s]] != keys[s] {
					t.Fatalf("leaf %d: slot %d's record %d holds %d, not %d", n, s, idx[s], tr.Records[idx[s]], keys[s])
				}
				leafKeys = append(leafKeys, keys[s])
			}
			if k == 0 {
				t.Fatalf("leaf %d holds no key", n)
			}
			return
		}
		for s := 0; s <= k; s++ {
			clo, chi := lo, hi
			if s > 0 {
				clo = int64(keys[s])
			}
			if s < k {
				chi = int64(keys[s+1])
			}
			walk(idx[s], depth+1, clo, chi)
		}
	}
	walk(tr.Root, 0, math.MinInt32, math.MaxInt32)
	if slices.Contains(seen, false) {
		t.Fatal("a node is not reachable from the root")
	}
	if !slices.Equal(leafKeys, o.keys) {
		t.Fatal("the leaves do not hold the keys in order")
	}
}

// Build refuses what it cannot represent.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		keys []int32
		opt  BuildOptions
	}{
		{[]int32{1}, BuildOptions{Order: 2}},
		{nil, BuildOptions{Order: 32}},
		{[]int32{1}, BuildOptions{Order: 32, Fill: 1.5}},
		{[]int32{1}, BuildOptions{Order: 32, Fill: -0.1}},
		{[]int32{math.MaxInt32}, BuildOptions{Order: 32}},
		{[]int32{0, math.MinInt32}, BuildOptions{Order: 32}},
	} {
		if _, err := Build(c.keys, c.opt); err == nil {
			t.Errorf("Build(%v, %+v) succeeded", c.keys, c.opt)
		}
	}
}

// The breadth-first tree has Rodinia's shape: node count and height as
// the fill makes them, the root first, the leaves last.
func TestTreeShape(t *testing.T) {
	keys, _ := GenerateKeys(KeySpec{N: 100000})
	tr, err := Build(keys, BuildOptions{Order: 256})
	if err != nil {
		t.Fatal(err)
	}
	perLeaf := int(math.Round(DefaultFill * 255))
	leaves := (100000 + perLeaf - 1) / perLeaf
	if tr.Height != 2 || tr.Root != 0 {
		t.Errorf("height %d, root %d; want 2 and 0", tr.Height, tr.Root)
	}
	// The last node is a leaf holding the largest key.
	last := int32(tr.NumNodes - 1)
	if k, _ := tr.node(last); k[numKeys(k)] != 99999 {
		t.Errorf("the last node does not end with the largest key")
	}
	if got := tr.NumNodes; got < leaves+2 || got > leaves+leaves/100+2 {
		t.Errorf("%d nodes for %d leaves", got, leaves)
	}
}

// Renumbering keeps every answer and the tree's invariants.
func TestRenumber(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := randomKeys(rng, 5000, 0, 20000)
	tr, err := Build(keys, BuildOptions{Order: 8})
	if err != nil {
		t.Fatal(err)
	}
	perm := make([]int32, tr.NumNodes)
	for i := range perm {
		perm[i] = int32(i)
	}
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	re, err := tr.Renumber(perm)
	if err != nil {
		t.Fatal(err)
	}
	if re.Root == 0 {
		t.Log("the shuffle kept the root first")
	}
	checkTree(t, re, keys)
	for _, b := range randomBatches(rng, keys, 300) {
		if n := Mismatches(Reference(re, b), Reference(tr, b)); n > 0 {
			t.Errorf("%s: %d answers change", b.Kind, n)
		}
	}
	if _, err := tr.Renumber(perm[1:]); err == nil {
		t.Error("a short permutation was accepted")
	}
	perm[0] = perm[1]
	if _, err := tr.Renumber(perm); err == nil {
		t.Error("a repeated node was accepted")
	}
}
