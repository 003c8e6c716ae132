package order

import (
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// RCM returns the reverse Cuthill-McKee ordering of the undirected graph
// with n vertices given in CSR form (ptr has n+1 entries, the neighbours of
// v are adj[ptr[v]:ptr[v+1]]), as perm[new] = old.
//
// The adjacency is treated as symmetric: an arc u->v also counts as v->u,
// duplicates count once and self-loops are ignored, so a structurally
// unsymmetric matrix may be passed as it is. Every connected component is
// ordered on its own, in the order of its smallest vertex index; each starts
// from a pseudo-peripheral vertex found by the George-Liu iteration from the
// component's vertex of minimum degree, and breadth-first search visits
// neighbours by increasing degree (ties by index). Each component's
// Cuthill-McKee sequence is then reversed, which keeps the bandwidth and
// shrinks the profile (fill of a Cholesky factor, George and Liu 1981).
//
// Cost: O(m log d) time for sorting the neighbour lists by degree plus one
// breadth-first search per George-Liu round and component (a few in
// practice), O(n + m) extra memory for the symmetrized copy. The copy is
// built and sorted on every core; the searches run on one.
//
// The CSR must be well formed (monotone ptr within adj, neighbours in
// [0, n)); callers build it from a validated matrix. A malformed one panics
// with an index out of range.
func RCM(n int, ptr []int64, adj []int32) []int32 {
	if n == 0 {
		return []int32{}
	}
	g := symmetrize(n, ptr, adj)
	perm := make([]int32, 0, n)
	// stamp[v] == round marks v as reached in the current breadth-first
	// search; a fresh round number clears every mark at once.
	stamp := make([]uint32, n)
	var round uint32
	placed := make([]bool, n)
	// Two buffers each for the search order and the last level: the best
	// level structure so far and the one being tried.
	var queue, last, spareQ, spareL []int32
	for s := 0; s < n; s++ {
		if placed[s] {
			continue
		}
		if g.deg(int32(s)) == 0 {
			// An isolated vertex is a component of its own: no search.
			perm = append(perm, int32(s))
			placed[s] = true
			continue
		}
		round++
		comp, _, _ := g.levels(int32(s), stamp, round, queue[:0], last[:0])
		queue = comp
		root := int32(s)
		for _, v := range comp {
			if g.deg(v) < g.deg(root) || (g.deg(v) == g.deg(root) && v < root) {
				root = v
			}
		}
		// George-Liu: a vertex of minimum degree in the last level of the
		// level structure rooted at root becomes the new root as long as
		// that deepens the structure.
		var depth int
		round++
		queue, depth, last = g.levels(root, stamp, round, queue[:0], last[:0])
		for {
			cand := last[0]
			for _, v := range last[1:] {
				if g.deg(v) < g.deg(cand) || (g.deg(v) == g.deg(cand) && v < cand) {
					cand = v
				}
			}
			round++
			q2, d2, l2 := g.levels(cand, stamp, round, spareQ[:0], spareL[:0])
			spareQ, spareL = q2, l2
			if d2 <= depth {
				break
			}
			queue, spareQ, last, spareL = q2, queue, l2, last
			depth = d2
		}
		// queue holds root's breadth-first order with neighbours taken by
		// increasing degree: the Cuthill-McKee sequence of the component.
		start := len(perm)
		perm = append(perm, queue...)
		slices.Reverse(perm[start:])
		for _, v := range queue {
			placed[v] = true
		}
	}
	return perm
}

// csr is a symmetric adjacency without self-loops or duplicates, each
// neighbour list sorted by (degree, index): the order Cuthill-McKee visits.
type csr struct {
	ptr []int64
	adj []int32
}

func (g *csr) deg(v int32) int64 { return g.ptr[v+1] - g.ptr[v] }

// symmetrize returns the union of the arcs and their reverses, without
// self-loops and duplicates, each list sorted by (degree, index).
func symmetrize(n int, ptr []int64, adj []int32) *csr {
	cnt := make([]int64, n+1)
	for u := 0; u < n; u++ {
		for _, v := range adj[ptr[u]:ptr[u+1]] {
			if int(v) != u {
				cnt[u+1]++
				cnt[v+1]++
			}
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	// One core fills the lists: an atomic add a place, on every core, took
	// longer than the plain stores of one (R-MAT, 2^20 vertices: 3.7 s of
	// CPU against about 0.3 s).
	both := make([]int32, cnt[n])
	fill := slices.Clone(cnt[:n])
	for u := 0; u < n; u++ {
		for _, v := range adj[ptr[u]:ptr[u+1]] {
			if int(v) != u {
				both[fill[u]] = v
				fill[u]++
				both[fill[v]] = int32(u)
				fill[v]++
			}
		}
	}
	// Sort each list and drop its duplicates where it is (in parallel, a
	// run of vertices a task), then compact: the write position never
	// passes the read position.
	deg := make([]int32, n)
	par.DoRanges(n, symmetrizeRun, func(lo, hi int) {
		for u := lo; u < hi; u++ {
			l := both[cnt[u]:cnt[u+1]]
			slices.Sort(l)
			deg[u] = int32(len(slices.Compact(l)))
		}
	})
	out := make([]int64, n+1)
	var w int64
	for u := 0; u < n; u++ {
		w += int64(copy(both[w:], both[cnt[u]:cnt[u]+int64(deg[u])]))
		out[u+1] = w
	}
	g := &csr{ptr: out, adj: both[:w:w]}
	// Neighbours by (degree, index): each vertex's rank in that order, the
	// lists sorted by rank as plain integers, and the ranks turned back
	// into vertices. A comparison that looked up both degrees, with the
	// atomic fill above, made symmetrize twice as slow on R-MAT 19.
	maxDeg := int32(0)
	for _, d := range deg {
		maxDeg = max(maxDeg, d)
	}
	byDeg := matrices.CountingSort(deg, int(maxDeg)+1, nil)
	rank := Inverse(byDeg)
	par.DoRanges(n, symmetrizeRun, func(lo, hi int) {
		l := g.adj[g.ptr[lo]:g.ptr[hi]]
		for i, v := range l {
			l[i] = rank[v]
		}
		for u := lo; u < hi; u++ {
			slices.Sort(g.adj[g.ptr[u]:g.ptr[u+1]])
		}
		for i, r := range l {
			l[i] = byDeg[r]
		}
	})
	return g
}

// symmetrizeRun is how many vertices one task of symmetrize takes.
const symmetrizeRun = 4096

// levels runs a breadth-first search from s and returns its order (appended
// to q), the eccentricity of s and the vertices of the last level (appended
// to last).
func (g *csr) levels(s int32, stamp []uint32, round uint32, q, last []int32) ([]int32, int, []int32) {
	stamp[s] = round
	q = append(q, s)
	depth := 0
	begin, end := 0, 1 // the current level is q[begin:end]
	for {
		for h := begin; h < end; h++ {
			u := q[h]
			for _, v := range g.adj[g.ptr[u]:g.ptr[u+1]] {
				if stamp[v] != round {
					stamp[v] = round
					q = append(q, v)
				}
			}
		}
		if len(q) == end {
			return q, depth, append(last, q[begin:end]...)
		}
		begin, end = end, len(q)
		depth++
	}
}

// Inverse returns the inverse of the permutation perm: inv[perm[i]] = i.
// With perm[new] = old it gives old -> new.
func Inverse(perm []int32) []int32 {
	inv := make([]int32, len(perm))
	for i, p := range perm {
		inv[p] = int32(i)
	}
	return inv
}

// Bandwidth returns max |inv[u] - inv[v]| over the arcs u->v of the CSR
// graph (self-loops included, they add 0) under the ordering perm
// (perm[new] = old; nil means the identity): the half-bandwidth of the
// permuted symmetric matrix.
func Bandwidth(n int, ptr []int64, adj []int32, perm []int32) int {
	var inv []int32
	if perm != nil {
		inv = Inverse(perm)
	}
	at := func(v int32) int {
		if inv == nil {
			return int(v)
		}
		return int(inv[v])
	}
	bw := 0
	for u := 0; u < n; u++ {
		nu := at(int32(u))
		for _, v := range adj[ptr[u]:ptr[u+1]] {
			d := nu - at(v)
			if d < 0 {
				d = -d
			}
			bw = max(bw, d)
		}
	}
	return bw
}
