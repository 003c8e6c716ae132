package spac

import (
	"fmt"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/matrices"
)

// capped ends a method whose parts may exceed the cap (the hashing and
// expansion baselines) with the cap pass.
func capped(g *matrices.Graph, inc *matrices.Incidence, part []int32, opts Options) (Partition, error) {
	p := Partition{K: opts.K, Part: part}
	tell(opts, "cap")
	if _, err := EnforceCap(g, inc, &p, opts.Cap); err != nil {
		return Partition{}, err
	}
	return p, nil
}

// EnforceCap makes every part of p hold at most capacity edges, the final
// pass of every method: a thread block cannot run more tasks than it has
// threads, while METIS, hashing and the like only balance approximately.
// It returns the number of edges it moved.
//
// Only edges of overfull parts move, and only as many as their parts hold
// above the cap, so moved is the smallest possible count. Which edges move,
// and where, is chosen greedily by their copy cost: taking edge (u,v) out of
// part a saves a copy of u when it is u's only edge in a, and putting it into
// part b costs a copy of u unless u already has an edge in b (likewise for
// v). The candidate targets of an edge are the non-full parts where one of
// its endpoints already lives, and the least loaded non-full part; ties go
// to the less loaded part. Edges are taken cheapest first from a bucket
// queue over the cost (-2..+2) whose entries are re-evaluated when popped;
// a move that makes a vertex's other edges cheaper to move queues them
// again, so the pass follows the vertices it has started to move.
//
// It costs O(m) plus, per evaluated edge, the lengths of its endpoints'
// part lists (capped); per-(vertex, part) counts are kept, for the vertices
// that touch an overfull part, in sorted lists with room for degree(v)
// entries, so it allocates about 8 bytes per incidence entry of those
// vertices and no maps.
//
// It fails only when K*capacity < m, which no partition can meet. The
// result is deterministic.
func EnforceCap(g *matrices.Graph, inc *matrices.Incidence, p *Partition, capacity int) (moved int, err error) {
	m := g.NumEdges()
	if len(p.Part) != m {
		return 0, fmt.Errorf("cap: partition covers %d edges, graph has %d", len(p.Part), m)
	}
	if p.K < 1 {
		return 0, fmt.Errorf("cap: %d parts", p.K)
	}
	if capacity < 0 || int64(p.K)*int64(capacity) < int64(m) {
		return 0, fmt.Errorf("cap: %d parts of at most %d edges cannot hold %d edges", p.K, capacity, m)
	}
	k := p.K
	part := p.Part
	load, err := partLoads(part, k)
	if err != nil {
		return 0, fmt.Errorf("cap: %w", err)
	}
	cp := int32(capacity)
	excess := 0
	for _, l := range load {
		if l > cp {
			excess += int(l - cp)
		}
	}
	if excess == 0 {
		return 0, nil
	}

	// Vertices that touch an overfull part are the only ones asked about.
	rel := make([]bool, g.NumVertices)
	for e, q := range part {
		if load[q] > cp {
			rel[g.U[e]] = true
			rel[g.V[e]] = true
		}
	}
	st := newCapState(g, inc, part, load, cp, rel, false)
	st.cursor = make([]int32, g.NumVertices)
	st.targets = newPartHeap(load, cp, func(q int) bool { return load[q] < cp })
	// Queue every edge of an overfull part under a lower bound of its cost,
	// in decreasing index so that the stacks pop them in increasing index.
	// An edge is evaluated when popped, so edges deep inside a part, which
	// are dear to move, are seldom evaluated at all.
	// The bounds are found first and the stacks sized to them: growing
	// stacks of millions of edges costs more than the second pass.
	// The bounds are independent: ranges of edges are bounded in parallel.
	bound := make([]int8, m)
	const ranges = 16
	rangeSizes := make([][5]int, ranges)
	par.Do(ranges, func(r int) {
		for e := m * r / ranges; e < m*(r+1)/ranges; e++ {
			if load[part[e]] > cp {
				b := st.lowerBound(int32(e))
				bound[e] = int8(b)
				rangeSizes[r][b+2]++
			}
		}
	})
	var sizes [5]int
	for _, rs := range rangeSizes {
		for i, n := range rs {
			sizes[i] += n
		}
	}
	for i := range st.buckets {
		st.buckets[i] = make([]int32, 0, sizes[i]+sizes[i]/8)
	}
	for e := m - 1; e >= 0; e-- {
		if load[part[e]] > cp {
			st.push(int32(bound[e]), int32(e))
		}
	}
	for excess > 0 {
		key, e, ok := st.pop()
		if !ok {
			break
		}
		a := part[e]
		if load[a] <= cp {
			continue // its part is done, or the edge has moved
		}
		d, b := st.best(e)
		if b < 0 {
			break // cannot happen while K*cap >= m
		}
		if d > key {
			st.push(d, e)
			continue
		}
		st.move(e, a, b, key)
		excess--
		moved++
	}
	if excess > 0 {
		// Defensive: place whatever is left on the least loaded parts.
		for e := range part {
			a := part[e]
			if load[a] <= cp {
				continue
			}
			b := st.targets.min()
			if b < 0 {
				return moved, fmt.Errorf("cap: no part has room (internal error)")
			}
			st.move(int32(e), a, int32(b), -2)
			moved++
		}
	}
	return moved, nil
}

// partLoads returns the number of edges in each of the k parts, or an
// error naming an edge whose part is outside [0,k).
func partLoads(part []int32, k int) ([]int32, error) {
	load := make([]int32, k)
	for e, q := range part {
		if q < 0 || int(q) >= k {
			return nil, fmt.Errorf("edge %d assigned to part %d, outside [0,%d)", e, q, k)
		}
		load[q]++
	}
	return load, nil
}

// Tuning of the cap pass.
const (
	// capScanLimit: an endpoint living in more parts than this is not asked
	// for its parts as targets (its edges cost it nothing to spread further).
	capScanLimit = 64
	// capPropagateLimit: after a move, the other edges of an endpoint of at
	// most this degree are re-queued when the move made them cheaper.
	capPropagateLimit = 256
	// capPropagatePushes: at most this many edges are re-queued to follow
	// a vertex into a part where it is new, out of twice as many looked at.
	capPropagatePushes = 8
)

// capState is the working set of EnforceCap: per-(vertex, part) edge counts
// for the vertices that touch an overfull part, kept as a list of (part,
// count) pairs sorted by part, with room for degree(v) pairs (a vertex
// cannot live in more parts than it has edges).
type capState struct {
	g       *matrices.Graph
	inc     *matrices.Incidence
	part    []int32
	load    []int32
	cap     int32
	off     []int32 // pair lists: vertex v's are [off[v], off[v]+n[v])
	n       []int32
	lp, lc  []int32 // part and count of each pair
	targets partHeap
	buckets [5][]int32 // cost d in [-2, 2] lives in buckets[d+2]

	cursor       []int32  // per vertex: its first incident edges are settled (EnforceCap's move only)
	gen          uint32   // stamp of the current evaluation
	seenU, seenV []uint32 // seenU[q] == gen: q holds an edge of u
}

// newCapState builds the pair lists of the vertices rel marks (all of them
// when rel is nil); the caller sets targets. A list has room for degree(v)
// pairs, as many parts as v could come to live in, unless compact: then
// only for the parts v lives in now, which is enough for moves that never
// bring a vertex into more parts (Polish's), and far less memory.
func newCapState(g *matrices.Graph, inc *matrices.Incidence, part, load []int32, cp int32, rel []bool, compact bool) *capState {
	nv := g.NumVertices
	k := len(load)
	st := &capState{g: g, inc: inc, part: part, load: load, cap: cp}
	// Vertices are independent: ranges of them are counted, then filled, in
	// parallel, each worker with scratch of its own (a vertex's stamps are
	// its own marks, so a worker's later ranges need no clean scratch). The
	// lists do not depend on how the ranges are run.
	const ranges = 16
	span := (nv + ranges - 1) / ranges
	type scratch struct{ stamp, pos []int32 }
	inRanges := func(f func(lo, hi int, stamp, pos []int32)) {
		par.DoWith(ranges, func() scratch { return scratch{make([]int32, k), make([]int32, k)} }, func(s scratch, r int) {
			if lo, hi := min(r*span, nv), min((r+1)*span, nv); lo < hi {
				f(lo, hi, s.stamp, s.pos)
			}
		})
	}
	// distinct counts v's parts, stamping them with mark.
	distinct := func(v int, stamp []int32, mark int32, visit func(q int32)) int32 {
		cnt := int32(0)
		for _, e := range inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]] {
			if q := part[e]; stamp[q] != mark {
				stamp[q] = mark
				if visit != nil {
					visit(q)
				}
				cnt++
			}
		}
		return cnt
	}
	st.off = make([]int32, nv+1)
	inRanges(func(lo, hi int, stamp, _ []int32) {
		for v := lo; v < hi; v++ {
			d := int32(0)
			switch {
			case rel != nil && !rel[v]:
			case compact:
				d = distinct(v, stamp, int32(v+1), nil)
			default:
				d = inc.Offsets[v+1] - inc.Offsets[v]
			}
			st.off[v+1] = d
		}
	})
	for v := 0; v < nv; v++ {
		st.off[v+1] += st.off[v]
	}
	total := st.off[nv]
	st.n = make([]int32, nv)
	st.lp = make([]int32, total)
	st.lc = make([]int32, total)
	inRanges(func(lo, hi int, stamp, pos []int32) {
		for v := lo; v < hi; v++ {
			if rel != nil && !rel[v] {
				continue
			}
			base := st.off[v]
			cnt := int32(0)
			distinct(v, stamp, -int32(v)-1, func(q int32) {
				st.lp[base+cnt] = q
				cnt++
			})
			ps := st.lp[base : base+cnt]
			slices.Sort(ps)
			for i, q := range ps {
				pos[q] = int32(i)
			}
			for _, e := range inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]] {
				st.lc[base+pos[part[e]]]++
			}
			st.n[v] = cnt
		}
	})
	st.seenU = make([]uint32, k)
	st.seenV = make([]uint32, k)
	return st
}

// find returns the index of part q in v's pair list, or -(insertion point)-1.
func (st *capState) find(v, q int32) int32 {
	lo, hi := st.off[v], st.off[v]+st.n[v]
	if hi-lo <= 8 {
		for i := lo; i < hi; i++ {
			if p := st.lp[i]; p >= q {
				if p == q {
					return i
				}
				return -i - 1
			}
		}
		return -hi - 1
	}
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		if st.lp[mid] < q {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < st.off[v]+st.n[v] && st.lp[lo] == q {
		return lo
	}
	return -lo - 1
}

// count is the number of v's edges in part q.
func (st *capState) count(v, q int32) int32 {
	if i := st.find(v, q); i >= 0 {
		return st.lc[i]
	}
	return 0
}

func (st *capState) add(v, q int32) {
	i := st.find(v, q)
	if i >= 0 {
		st.lc[i]++
		return
	}
	i = -i - 1
	end := st.off[v] + st.n[v]
	copy(st.lp[i+1:end+1], st.lp[i:end])
	copy(st.lc[i+1:end+1], st.lc[i:end])
	st.lp[i], st.lc[i] = q, 1
	st.n[v]++
}

func (st *capState) remove(v, q int32) {
	i := st.find(v, q)
	st.lc[i]--
	if st.lc[i] > 0 {
		return
	}
	end := st.off[v] + st.n[v]
	copy(st.lp[i:end-1], st.lp[i+1:end])
	copy(st.lc[i:end-1], st.lc[i+1:end])
	st.n[v]--
}

// cost is the change in copies of moving edge (u,v) from part a to part b.
func (st *capState) cost(u, v, a, b int32) int32 {
	d := int32(0)
	if st.count(u, a) == 1 {
		d--
	}
	if st.count(u, b) == 0 {
		d++
	}
	if v != u {
		if st.count(v, a) == 1 {
			d--
		}
		if st.count(v, b) == 0 {
			d++
		}
	}
	return d
}

// lowerBound bounds the cost of moving edge e anywhere from below: leaving
// its part a saves a copy of an endpoint whose only edge in a it is, and
// any other part costs a copy of an endpoint that lives in a alone.
func (st *capState) lowerBound(e int32) int32 {
	u, v := st.g.U[e], st.g.V[e]
	a := st.part[e]
	d := int32(0)
	for _, w := range [2]int32{u, v} {
		if st.count(w, a) == 1 {
			d--
		}
		if st.n[w] == 1 {
			d++
		}
		if u == v {
			break
		}
	}
	return d
}

// best returns the cheapest target of edge e and its cost; ties go to the
// less loaded part, then the lower index. It returns b = -1 only when no
// part has room.
func (st *capState) best(e int32) (cost, b int32) {
	u, v := st.g.U[e], st.g.V[e]
	a := st.part[e]
	// What leaving a saves does not depend on the target.
	base := int32(0)
	if st.count(u, a) == 1 {
		base--
	}
	if v != u && st.count(v, a) == 1 {
		base--
	}
	// Mark the parts of short lists in stamp arrays; long lists (hubs) are
	// searched instead.
	st.gen++
	if st.gen == 0 {
		clear(st.seenU)
		clear(st.seenV)
		st.gen = 1
	}
	gen := st.gen
	shortU, shortV := st.n[u] <= capScanLimit, st.n[v] <= capScanLimit
	if shortU {
		for _, q := range st.lp[st.off[u] : st.off[u]+st.n[u]] {
			st.seenU[q] = gen
		}
	}
	if shortV {
		for _, q := range st.lp[st.off[v] : st.off[v]+st.n[v]] {
			st.seenV[q] = gen
		}
	}
	has := func(w int32, short bool, seen []uint32, q int32) bool {
		if short {
			return seen[q] == gen
		}
		return st.find(w, q) >= 0
	}
	b = -1
	var bestCost, bestLoad int32
	try := func(q int32) {
		if q == a || st.load[q] >= st.cap {
			return
		}
		c := base
		if !has(u, shortU, st.seenU, q) {
			c++
		}
		if v != u && !has(v, shortV, st.seenV, q) {
			c++
		}
		if b < 0 || c < bestCost || (c == bestCost && (st.load[q] < bestLoad || (st.load[q] == bestLoad && q < b))) {
			b, bestCost, bestLoad = q, c, st.load[q]
		}
	}
	if shortU {
		for _, q := range st.lp[st.off[u] : st.off[u]+st.n[u]] {
			try(q)
		}
	}
	if v != u && shortV {
		for _, q := range st.lp[st.off[v] : st.off[v]+st.n[v]] {
			try(q)
		}
	}
	if f := st.targets.min(); f >= 0 {
		try(int32(f))
	}
	return bestCost, b
}

func (st *capState) push(cost, e int32) {
	st.buckets[cost+2] = append(st.buckets[cost+2], e)
}

func (st *capState) pop() (cost, e int32, ok bool) {
	for i := range st.buckets {
		if n := len(st.buckets[i]); n > 0 {
			e = st.buckets[i][n-1]
			st.buckets[i] = st.buckets[i][:n-1]
			return int32(i) - 2, e, true
		}
	}
	return 0, 0, false
}

// relocate puts edge e from part a into part b: its part, the loads, the
// heap of targets and its endpoints' pair lists.
func (st *capState) relocate(e, a, b int32) {
	u, v := st.g.U[e], st.g.V[e]
	st.part[e] = b
	st.load[a]--
	st.load[b]++
	st.targets.update(int(b))
	for _, w := range [2]int32{u, v} {
		st.remove(w, a)
		st.add(w, b)
		if u == v {
			break
		}
	}
}

// move puts edge e from part a into part b and re-queues the edges the move
// made cheaper, when they are no dearer than key (the cost being served):
// the last edge an endpoint has left in a, and, when an endpoint is new in
// b, its edges that could follow it there (as many as b has room for).
func (st *capState) move(e, a, b, key int32) {
	st.relocate(e, a, b)
	u, v := st.g.U[e], st.g.V[e]
	for _, w := range [2]int32{u, v} {
		lo, hi := st.inc.Offsets[w], st.inc.Offsets[w+1]
		if hi-lo > capPropagateLimit {
			continue
		}
		if st.load[a] > st.cap && st.count(w, a) == 1 {
			for _, f := range st.inc.Edge[lo:hi] {
				if f != e && st.part[f] == a {
					if c, t := st.best(f); t >= 0 && c <= key {
						st.push(c, f)
					}
					break
				}
			}
		}
		if room := min(st.cap-st.load[b], capPropagatePushes); room > 0 && st.count(w, b) == 1 {
			// Edges before cursor[w] are known to be settled: an edge never
			// returns to an overfull part.
			i := st.cursor[w] + lo
			for i < hi && st.load[st.part[st.inc.Edge[i]]] <= st.cap {
				i++
			}
			st.cursor[w] = i - lo
			looks := 2 * capPropagatePushes
			for _, f := range st.inc.Edge[i:hi] {
				if room == 0 || looks == 0 {
					break
				}
				if f == e || st.load[st.part[f]] <= st.cap {
					continue
				}
				looks--
				if c := st.cost(st.g.U[f], st.g.V[f], st.part[f], b); c <= key {
					st.push(c, f)
					room--
				}
			}
		}
		if u == v {
			break
		}
	}
}

// partHeap is a binary min-heap of parts keyed by (load, index), holding the
// parts that still have room. Loads only grow while it is in use; a part
// leaves the heap when it fills.
type partHeap struct {
	load []int32
	cap  int32
	heap []int32 // parts
	pos  []int32 // position of each part in heap, -1 when absent
}

func newPartHeap(load []int32, cp int32, eligible func(q int) bool) partHeap {
	h := partHeap{load: load, cap: cp, pos: make([]int32, len(load))}
	for q := range load {
		h.pos[q] = -1
		if eligible(q) {
			h.pos[q] = int32(len(h.heap))
			h.heap = append(h.heap, int32(q))
		}
	}
	for i := len(h.heap)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h
}

func (h *partHeap) less(i, j int) bool {
	a, b := h.heap[i], h.heap[j]
	return h.load[a] < h.load[b] || (h.load[a] == h.load[b] && a < b)
}

func (h *partHeap) swap(i, j int) {
	h.heap[i], h.heap[j] = h.heap[j], h.heap[i]
	h.pos[h.heap[i]] = int32(i)
	h.pos[h.heap[j]] = int32(j)
}

func (h *partHeap) down(i int) {
	n := len(h.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

// min returns the least loaded part with room, or -1.
func (h *partHeap) min() int {
	if len(h.heap) == 0 {
		return -1
	}
	return int(h.heap[0])
}

// update restores the heap after part q's load grew, dropping q when full.
func (h *partHeap) update(q int) {
	i := int(h.pos[q])
	if i < 0 {
		return
	}
	if h.load[q] >= h.cap {
		last := len(h.heap) - 1
		h.swap(i, last)
		h.heap = h.heap[:last]
		h.pos[q] = -1
		if i < last {
			h.down(i)
			h.up(i)
		}
		return
	}
	h.down(i)
}

func (h *partHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}
