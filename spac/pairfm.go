package spac

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// Tuning of RefinePairs, measured on the shared inputs and the generators
// (see README, "SPAC's choices").
var (
	// pairPartners is how many partner parts each part is offered: the
	// parts it shares the most vertices with.
	pairPartners = 8
	// pairHubParts: a vertex in more parts than this is left out when the
	// partners are counted (a hub touches most parts and says nothing about
	// which two belong together).
	pairHubParts = 32
)

// RefinePairs lowers the vertex copies of p, which must meet the cap, by
// Fiduccia-Mattheyses local search on pairs of parts, and returns the
// copies saved. Every part is paired with the pairPartners parts it shares
// the most vertices with; each round takes a matching of the pairs still due
// (never tried, or one of their parts changed since), and refines the pairs
// of the matching in parallel: they touch disjoint parts, so disjoint edges,
// and a move's gain depends only on the counts of its endpoints in the two
// parts of its pair. It stops after rounds rounds or when no pair is due.
//
// Why pairs and FM: at block granularity every part is full (K*Cap - m <
// Cap), so single moves into a part with room, the only ones Polish and
// the cap pass can make, are all but impossible; an exchange must move
// edges both ways. And the copies are a plateau for single moves: taking a
// vertex out of a part costs moving all its edges there, each of which
// alone saves nothing. FM moves edges one at a time, the best gain first
// (gains -2..2, LIFO among equals, so a run of moves follows a vertex),
// allows moves that lose, lets the loads stray by a little, and keeps the
// best prefix of moves that ends within the cap: it crosses the plateau.
//
// The result does not depend on the number of cores: pairs are chosen in a
// fixed order and each pair's search depends on its two parts alone.
func RefinePairs(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, p *Partition, capacity, rounds int) (saved int64, err error) {
	m, k := g.NumEdges(), p.K
	if len(p.Part) != m {
		return 0, fmt.Errorf("pair refinement: partition covers %d edges, graph has %d", len(p.Part), m)
	}
	if k < 2 || rounds < 1 {
		return 0, nil
	}
	load, err := loadsWithin(p, capacity)
	if err != nil {
		return 0, fmt.Errorf("pair refinement: %w", err)
	}
	cp := int32(capacity)
	// Part q's edges are slots[q*Cap:][:load[q]], with their endpoints: a
	// pair's search reads its two parts' lists and writes them back, with
	// their edges' parts and loads, so no round has to list the edges of
	// every part again, and reads the endpoints in order instead of at
	// random in the graph's arrays (those cache misses were a third of a
	// search's set-up on the in-2004 stand-in).
	slots := fillSlots(g, p.Part, k, capacity)
	pairs := partnerPairs(g, inc, p.Part, slots, load, cp)
	if len(pairs) == 0 {
		return 0, nil
	}
	// tried[i]: the round pair i was last tried in (-1: never); changed[q]:
	// the last round part q changed in.
	tried := make([]int32, len(pairs))
	for i := range tried {
		tried[i] = -1
	}
	changed := make([]int32, k)
	for q := range changed {
		changed[q] = -1
	}
	busy := make([]int32, k) // busy[q] == round+1: q is matched this round
	var match []int32
	gains := make([]int64, 0)
	workers := par.Workers(1 << 30)
	scratch := make(chan *pairSearch, workers)
	for range workers {
		scratch <- new(pairSearch)
	}
	for round := int32(0); round < int32(rounds); round++ {
		if err := ctx.Err(); err != nil {
			return saved, err
		}
		match = match[:0]
		for i, pr := range pairs {
			a, b := pr.a, pr.b
			due := tried[i] < 0 || changed[a] > tried[i] || changed[b] > tried[i]
			if due && busy[a] != round+1 && busy[b] != round+1 {
				busy[a], busy[b] = round+1, round+1
				match = append(match, int32(i))
			}
		}
		if len(match) == 0 {
			break
		}
		gains = slices.Grow(gains[:0], len(match))[:len(match)]
		par.Do(len(match), func(i int) {
			s := <-scratch
			pr := pairs[match[i]]
			gains[i] = int64(s.run(p.Part, slots, load, pr.a, pr.b, cp))
			scratch <- s
		})
		for i, pi := range match {
			pr := pairs[pi]
			tried[pi] = round
			if gains[i] > 0 {
				saved += gains[i]
				changed[pr.a], changed[pr.b] = round, round
				tried[pi] = round - 1 // an improved pair may improve again
			}
		}
	}
	return saved, nil
}

// slotEdge is an edge in its part's slot list, with its endpoints.
type slotEdge struct{ e, u, v int32 }

// fillSlots lists the edges of every part q, in edge order, in
// slots[q*capacity:]. Ranges of edges are listed in parallel where the
// parts are few enough for each range to count its own edges per part
// (at most a quarter of an entry per edge): a range's edges go after the
// ranges' before it.
func fillSlots(g *matrices.Graph, part []int32, k, capacity int) []slotEdge {
	m := len(part)
	slots := make([]slotEdge, k*capacity)
	ranges := min(8, max(1, m/(4*k)))
	bound := func(r int) int { return int(int64(m) * int64(r) / int64(ranges)) }
	fill := make([][]int, ranges) // fill[r][q]: range r's edges in part q, then where they go
	par.Do(ranges, func(r int) {
		f := make([]int, k)
		for _, q := range part[bound(r):bound(r+1)] {
			f[q]++
		}
		fill[r] = f
	})
	for q := 0; q < k; q++ {
		at := q * capacity
		for _, f := range fill {
			at, f[q] = at+f[q], at
		}
	}
	par.Do(ranges, func(r int) {
		f := fill[r]
		for e := bound(r); e < bound(r+1); e++ {
			q := part[e]
			slots[f[q]] = slotEdge{e: int32(e), u: g.U[e], v: g.V[e]}
			f[q]++
		}
	})
	return slots
}

// partPair is a candidate pair of parts, a < b, sharing shared vertices.
type partPair struct {
	a, b   int32
	shared int32
}

// partnerPairs returns the candidate pairs: for every part, the
// pairPartners parts it shares the most vertices with, counted over the
// vertices in at most pairHubParts parts; the pairs by decreasing shared
// count, then by index.
func partnerPairs(g *matrices.Graph, inc *matrices.Incidence, part []int32, slots []slotEdge, load []int32, cp int32) []partPair {
	k := len(load)
	st := newCapState(g, inc, part, load, cp, nil, true)
	type scratch struct {
		seen    []int32 // seen[w] == a+1: w counted for part a
		cnt     []int32
		touched []int32
		list    []partPair // the part's partners, before the best are kept
	}
	lists := make([][]partPair, k)
	par.DoWith(k, func() *scratch {
		return &scratch{seen: make([]int32, g.NumVertices), cnt: make([]int32, k)}
	}, func(s *scratch, a int) {
		mark := int32(a + 1)
		s.touched = s.touched[:0]
		for _, se := range slots[a*int(cp):][:load[a]] {
			for _, w := range [2]int32{se.u, se.v} {
				if s.seen[w] == mark || st.n[w] > int32(pairHubParts) {
					continue
				}
				s.seen[w] = mark
				for _, q := range st.lp[st.off[w] : st.off[w]+st.n[w]] {
					if int(q) == a {
						continue
					}
					if s.cnt[q] == 0 {
						s.touched = append(s.touched, q)
					}
					s.cnt[q]++
				}
			}
		}
		// A part of a scattered input touches thousands of others: the list
		// is the worker's, and only the best pairPartners are kept, in a
		// slice of their own (kept as a prefix of every part's whole list,
		// they held 250 B an edge of an Erdos-Renyi graph at once).
		list := s.list[:0]
		for _, q := range s.touched {
			list = append(list, partPair{a: int32(a), b: q, shared: s.cnt[q]})
			s.cnt[q] = 0
		}
		slices.SortFunc(list, func(x, y partPair) int {
			if x.shared != y.shared {
				return int(y.shared - x.shared)
			}
			return int(x.b - y.b)
		})
		lists[a] = slices.Clone(list[:min(len(list), pairPartners)])
		s.list = list
	})
	var pairs []partPair
	for _, list := range lists {
		for _, pr := range list {
			if pr.a > pr.b {
				pr.a, pr.b = pr.b, pr.a
			}
			pairs = append(pairs, pr)
		}
	}
	slices.SortFunc(pairs, func(x, y partPair) int {
		switch {
		case x.a != y.a:
			return int(x.a - y.a)
		case x.b != y.b:
			return int(x.b - y.b)
		}
		return 0
	})
	pairs = slices.CompactFunc(pairs, func(x, y partPair) bool { return x.a == y.a && x.b == y.b })
	slices.SortStableFunc(pairs, func(x, y partPair) int { return int(y.shared - x.shared) })
	return pairs
}

// pairSearch is one worker's scratch for FM on a pair of parts. The pair's
// vertices get local ids; local edge i is ent[i], on side side[i].
type pairSearch struct {
	ids    vertexIDs
	verts  []int32 // local id -> global vertex
	cnt    [2][]int32
	off    []int32 // local incidence: local vertex w's edges are inc[off[w]:off[w+1]]
	inc    []int32
	ent    []slotEdge // local edge -> global edge and endpoints
	eu, ev []int32    // local endpoints (ev == eu for a self-loop)
	side   []uint8
	locked []bool
	gain   []int8
	bucket [2][5][]int32 // per side, per gain+2: local edges, LIFO, stale entries skipped
	moves  []int32
}

// vertexIDs maps the global vertices of a pair to local ids: an open
// addressing hash table (linear probing) sized to the pair, which stays in
// the core's cache. A global array indexed by vertex, the obvious map,
// costs a cache miss for almost every column vertex of a large graph, and
// 4 bytes per vertex for every worker.
type vertexIDs struct {
	slots []idSlot
	shift uint
	used  []int32 // the slots in use, to clear them
}

// idSlot is a vertex and its id side by side, so that a probe reads one
// cache line, not one in each of two arrays.
type idSlot struct {
	key int32 // vertex + 1; 0: empty
	val int32
}

// reset empties the table and sizes it for up to n vertices.
func (t *vertexIDs) reset(n int) {
	for _, i := range t.used {
		t.slots[i].key = 0
	}
	t.used = t.used[:0]
	size := 64
	for size < 2*n {
		size *= 2
	}
	if size > len(t.slots) {
		t.slots = make([]idSlot, size)
	}
	t.shift = uint(32 - bits.TrailingZeros(uint(len(t.slots))))
}

// get returns w's id, giving it next when it has none yet (added: true).
func (t *vertexIDs) get(w, next int32) (id int32, added bool) {
	mask := uint32(len(t.slots) - 1)
	i := (uint32(w) * 0x9e3779b1) >> t.shift
	for {
		sl := &t.slots[i&mask]
		switch sl.key {
		case w + 1:
			return sl.val, false
		case 0:
			sl.key, sl.val = w+1, next
			t.used = append(t.used, int32(i&mask))
			return next, true
		}
		i++
	}
}

// pairSlack is how far above the cap FM may let a part's load stray in the
// middle of a search; only prefixes that end within the cap are kept.
func pairSlack(cp int32) int32 { return max(2, cp/64) }

// pairPatience is how many moves FM makes past its best prefix before it
// gives up.
func pairPatience(n int) int { return max(64, n/8) }

// run refines parts a and b by one FM pass, writes the kept moves into
// part, the two parts' lists in slots and their loads, and returns the
// copies saved.
func (s *pairSearch) run(part []int32, slots []slotEdge, loads []int32, a, b, cp int32) int {
	slot := func(q int32) []slotEdge { return slots[int(q)*int(cp):][:cp] }
	ea, eb := slot(a)[:loads[a]], slot(b)[:loads[b]]
	s.build(ea, eb)
	load := [2]int32{int32(len(ea)), int32(len(eb))}
	slack := pairSlack(cp)
	patience := pairPatience(len(s.ent))
	s.moves = s.moves[:0]
	total, best, bestAt := 0, 0, 0
	for len(s.moves)-bestAt < patience {
		i, ok := s.pick(load, cp+slack)
		if !ok {
			break
		}
		from := s.side[i]
		total += int(s.gain[i])
		s.locked[i] = true
		s.side[i] = 1 - from
		load[from]--
		load[1-from]++
		s.moves = append(s.moves, i)
		s.update(i, from)
		if total > best && load[0] <= cp && load[1] <= cp {
			best, bestAt = total, len(s.moves)
		}
	}
	// Keep the best prefix; the local state is rebuilt for the next pair.
	parts := [2]int32{a, b}
	for _, i := range s.moves[:bestAt] {
		part[s.ent[i].e] = parts[s.side[i]]
	}
	if bestAt > 0 {
		la, lb := int32(0), int32(0)
		sa, sb := slot(a), slot(b)
		for _, se := range s.ent {
			if part[se.e] == a {
				sa[la] = se
				la++
			} else {
				sb[lb] = se
				lb++
			}
		}
		loads[a], loads[b] = la, lb
	}
	return best
}

// build sets up the local graph of the pair: ids, counts, incidence, gains
// and buckets. Local vertex ids are given in the order the endpoints are
// met; the edges of a (side a first, then b) are pushed in index order.
// The loops run per side and over slices cut to n, so that the side of an
// edge is not read back and the bounds are checked once (build was two
// thirds of a search's time on the circuit5M stand-in).
func (s *pairSearch) build(ea, eb []slotEdge) {
	s.verts = s.verts[:0]
	s.ent = append(append(s.ent[:0], ea...), eb...)
	ent := s.ent
	n, na := len(ent), len(ea)
	s.eu = resize(s.eu, n)
	s.ev = resize(s.ev, n)
	s.side = slices.Grow(s.side[:0], n)[:n]
	s.locked = slices.Grow(s.locked[:0], n)[:n]
	s.gain = slices.Grow(s.gain[:0], n)[:n]
	eu, ev := s.eu[:n], s.ev[:n]
	s.ids.reset(2 * n)
	for i := range ent {
		eu[i], ev[i] = s.id(ent[i].u), s.id(ent[i].v)
	}
	side := s.side[:n]
	clear(side[:na])
	for i := na; i < n; i++ {
		side[i] = 1
	}
	clear(s.locked)
	nv := len(s.verts)
	s.cnt[0] = resize(s.cnt[0], nv)
	s.cnt[1] = resize(s.cnt[1], nv)
	clear(s.cnt[0])
	clear(s.cnt[1])
	s.off = resize(s.off, nv+1)
	off := s.off[:nv+1]
	clear(off)
	for sd, r := range [2][2]int{{0, na}, {na, n}} {
		cnt := s.cnt[sd][:nv]
		for i := r[0]; i < r[1]; i++ {
			u, v := eu[i], ev[i]
			cnt[u]++
			if v != u {
				cnt[v]++
			}
		}
	}
	// A vertex's edges in the pair are its edges on either side.
	c0, c1 := s.cnt[0][:nv], s.cnt[1][:nv]
	for w := 0; w < nv; w++ {
		off[w+1] = off[w] + c0[w] + c1[w]
	}
	s.inc = resize(s.inc, int(off[nv]))
	inc := s.inc
	fill := off[:nv] // reused as cursors, restored below
	for i := range eu {
		u, v := eu[i], ev[i]
		inc[fill[u]] = int32(i)
		fill[u]++
		if v != u {
			inc[fill[v]] = int32(i)
			fill[v]++
		}
	}
	for w := nv - 1; w > 0; w-- {
		off[w] = off[w-1]
	}
	if nv > 0 {
		off[0] = 0
	}
	for sd := range s.bucket {
		for j := range s.bucket[sd] {
			s.bucket[sd][j] = s.bucket[sd][j][:0]
		}
	}
	gain := s.gain[:n]
	for sd, r := range [2][2]int{{0, na}, {na, n}} {
		from, to := s.cnt[sd][:nv], s.cnt[1-sd][:nv]
		bucket := &s.bucket[sd]
		for i := r[0]; i < r[1]; i++ {
			u, v := eu[i], ev[i]
			g := int8(0)
			if from[u] == 1 {
				g++
			}
			if to[u] == 0 {
				g--
			}
			if v != u {
				if from[v] == 1 {
					g++
				}
				if to[v] == 0 {
					g--
				}
			}
			gain[i] = g
			bucket[g+2] = append(bucket[g+2], int32(i))
		}
	}
}

// id returns w's local id, giving it the next one when it has none yet.
func (s *pairSearch) id(w int32) int32 {
	l, added := s.ids.get(w, int32(len(s.verts)))
	if added {
		s.verts = append(s.verts, w)
	}
	return l
}

// gainOf is the copies saved by moving local edge i to the other side.
func (s *pairSearch) gainOf(i int32) int8 {
	from := s.side[i]
	cf, ct := s.cnt[from], s.cnt[1-from]
	g := int8(0)
	u, v := s.eu[i], s.ev[i]
	if cf[u] == 1 {
		g++
	}
	if ct[u] == 0 {
		g--
	}
	if v != u {
		if cf[v] == 1 {
			g++
		}
		if ct[v] == 0 {
			g--
		}
	}
	return g
}

func (s *pairSearch) push(i int32) {
	sd, b := s.side[i], s.gain[i]+2
	s.bucket[sd][b] = append(s.bucket[sd][b], i)
}

// top returns side sd's unlocked edge of highest gain, dropping stale
// entries, or -1.
func (s *pairSearch) top(sd uint8) int32 {
	for b := 4; b >= 0; b-- {
		bk := s.bucket[sd][b]
		for len(bk) > 0 {
			i := bk[len(bk)-1]
			if !s.locked[i] && s.side[i] == sd && int(s.gain[i])+2 == b {
				s.bucket[sd][b] = bk
				return i
			}
			bk = bk[:len(bk)-1]
		}
		s.bucket[sd][b] = bk
	}
	return -1
}

// pick chooses the next move: the higher gain of the two sides' best edges
// whose target stays within limit; ties go to the fuller side, then side 0.
func (s *pairSearch) pick(load [2]int32, limit int32) (int32, bool) {
	best := int32(-1)
	for sd := uint8(0); sd < 2; sd++ {
		if load[1-sd]+1 > limit {
			continue
		}
		i := s.top(sd)
		if i < 0 {
			continue
		}
		if best < 0 || s.gain[i] > s.gain[best] || (s.gain[i] == s.gain[best] && load[sd] > load[s.side[best]]) {
			best = i
		}
	}
	return best, best >= 0
}

// update follows the move of local edge i off side from: the counts of its
// endpoints, and the gains of their edges where a count crossed a threshold
// the gains look at (a side's count reaching 0 or 1, the other's 1 or 2).
func (s *pairSearch) update(i int32, from uint8) {
	to := 1 - from
	u, v := s.eu[i], s.ev[i]
	s.cnt[from][u]--
	s.cnt[to][u]++
	if v != u {
		s.cnt[from][v]--
		s.cnt[to][v]++
	}
	for _, w := range [2]int32{u, v} {
		if s.cnt[from][w] <= 1 || s.cnt[to][w] <= 2 {
			for _, j := range s.inc[s.off[w]:s.off[w+1]] {
				if s.locked[j] {
					continue
				}
				if gn := s.gainOf(j); gn != s.gain[j] {
					s.gain[j] = gn
					s.push(j)
				}
			}
		}
		if u == v {
			break
		}
	}
}

// resize returns s with length n, reusing its room.
func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// DefaultRefine is how many rounds of RefinePairs follow SPAC's polish.
const DefaultRefine = 16
