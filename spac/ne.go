package spac

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/spac-gpu/spac/matrices"
)

// NE is Neighbourhood Expansion (Zhang, Wu, Chen, Cheng, Liu, Liu, KDD
// 2017): an in-memory edge partitioner that grows one part at a time from a
// seed vertex, always expanding the boundary vertex with the fewest edges
// leading out of the part, so that parts are compact regions of the graph.
// It is the strongest of the published in-memory expansion partitioners, and
// HEP (hep.go) runs it on the low-degree part of the graph.
type NE struct{}

func init() { register(NE{}) }

// Name implements Method.
func (NE) Name() string { return "ne" }

// Partition implements Method. Part p grows from a core set C and a
// boundary set S ⊇ C: the vertex x of S \ C with the fewest unassigned
// edges (all of which lead out of S) moves to C; each of its neighbours y
// joins S, and every unassigned edge between y and S goes to part p. When
// S \ C is empty a new seed, the next vertex with unassigned edges in a
// random order of the vertices (from opts.Seed), joins S. Part p stops at
// ceil(r / (K-p)) edges, r the edges not yet assigned, so the parts come
// out even and never above the cap; the cap pass then has nothing to do.
// Ties go to the lower vertex. It costs O(m log n) plus, per vertex, its
// remaining degree each time it joins a part's boundary.
func (NE) Partition(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, opts Options) (Partition, error) {
	if err := checkBaseline("ne", g, inc, opts); err != nil {
		return Partition{}, err
	}
	part := unassigned(g.NumEdges())
	load := make([]int32, opts.K)
	// A stage of its own for the progress display: as SPAC's start on a
	// 65M-task R-MAT graph it runs about 90 s on one core.
	tell(opts, "ne")
	if _, err := expand(ctx, g, inc, nil, part, load, opts); err != nil {
		return Partition{}, err
	}
	return capped(g, inc, part, opts)
}

// expander is the state of neighbourhood expansion: for every vertex that
// takes part, the list of its unassigned incident edges (a copy of its
// incidence list, shrunk by swapping the last entry in), the boundary
// heap, and the current part's boundary set as a bitset.
type expander struct {
	high       []bool  // vertices kept out of the expansion (HEP's NE++); nil: none
	off        []int32 // list of v: end[off[v] : off[v]+n[v]], other likewise
	n          []int32
	end        []int32 // the list entries: 2e for edge e at U[e], 2e+1 at V[e]
	other      []int32
	pos        []int32  // pos[2e], pos[2e+1]: the place of edge e in the lists of U[e] and V[e]
	inS        []uint64 // bit v: v is in the current part's boundary set
	members    []int32  // the vertices whose bits are set, to clear when the part is done
	heap       []int32  // min-heap of S \ C by (n[v], v)
	hpos       []int32  // position in heap, -1 when absent
	part, load []int32
	cur        int32 // the part being grown
	target     int32 // its size when done
	took       int   // edges assigned to it so far
}

// expand assigns every edge with a vertex outside high (all edges when high
// is nil) to a part by neighbourhood expansion, over loads that may hold
// edges already; it returns the number of edges it assigned. Parts fill to
// ceil(r/(K-p)) of the r edges it has left plus their load, at most the cap.
func expand(ctx context.Context, g *matrices.Graph, inc *matrices.Incidence, high []bool, part, load []int32, opts Options) (int, error) {
	nv := g.NumVertices
	if g.NumEdges() > math.MaxInt32/2 {
		return 0, fmt.Errorf("neighbourhood expansion: %d edges, more than the %d its int32 list entries (two an edge) can name", g.NumEdges(), math.MaxInt32/2)
	}
	x := &expander{high: high, off: inc.Offsets, part: part, load: load}
	x.n = make([]int32, nv)
	x.end = make([]int32, len(inc.Edge))
	x.other = make([]int32, len(inc.Edge))
	x.pos = make([]int32, 2*g.NumEdges())
	x.inS = make([]uint64, (nv+63)/64)
	x.hpos = make([]int32, nv)
	total := 0
	for v := 0; v < nv; v++ {
		x.hpos[v] = -1
		if x.isHigh(int32(v)) {
			continue
		}
		lo, hi := inc.Offsets[v], inc.Offsets[v+1]
		base := lo
		for i := lo; i < hi; i++ {
			e := inc.Edge[i]
			if part[e] >= 0 {
				continue
			}
			end := 2 * e
			if g.U[e] != int32(v) {
				end++
			}
			x.end[base], x.other[base] = end, g.Opposite(e, int32(v))
			x.pos[end] = base - lo
			base++
		}
		x.n[v] = base - lo
	}
	for e := range part {
		if part[e] < 0 && (!x.isHigh(g.U[e]) || !x.isHigh(g.V[e])) {
			total++
		}
	}
	// Seeds in a random order of the vertices.
	order := make([]int32, nv)
	for v := range order {
		order[v] = int32(v)
	}
	rng := rand.New(rand.NewPCG(uint64(opts.Seed), 0x4e45))
	rng.Shuffle(nv, func(i, j int) { order[i], order[j] = order[j], order[i] })
	next := 0

	left := total
	steps := 0
	for p := 0; p < opts.K && left > 0; p++ {
		x.cur = int32(p)
		share := (left + opts.K - p - 1) / (opts.K - p)
		x.target = min(load[p]+int32(share), int32(opts.Cap))
		x.took = 0
		for load[p] < x.target {
			if err := cancelled(ctx, steps); err != nil {
				return 0, err
			}
			steps++
			v := x.pop()
			if v < 0 {
				for next < nv && x.n[order[next]] == 0 {
					next++
				}
				if next == nv {
					break
				}
				x.join(order[next])
				continue
			}
			// Move v to the core: its neighbours join the boundary.
			for x.n[v] > 0 && load[p] < x.target {
				i := x.off[v]
				end, y := x.end[i], x.other[i]
				if !x.inBoundary(y) {
					x.join(y)
				}
				if part[end>>1] < 0 && load[p] < x.target {
					x.assign(end, v, y)
				}
			}
		}
		left -= x.took
		for _, v := range x.heap {
			x.hpos[v] = -1
		}
		x.heap = x.heap[:0]
		for _, v := range x.members {
			x.inS[v>>6] = 0 // whole words: their other bits are members too, or clear
		}
		x.members = x.members[:0]
	}
	return total - left, nil
}

// inBoundary reports whether v is in the current part's boundary set. A
// bit a vertex: join tests every neighbour of a vertex that joins, a cache
// miss each on a large graph, and the bits of a graph of millions of
// vertices stay in the L2 (R-MAT at scale 20 and 21: NE about 2x faster
// than with the part number, 4 bytes a vertex; the same partitions).
func (x *expander) inBoundary(v int32) bool { return bitSet(x.inS, v) }

// bitSet reports whether bit v of bits is set.
func bitSet(bits []uint64, v int32) bool { return bits[v>>6]>>(v&63)&1 != 0 }

func (x *expander) isHigh(v int32) bool { return x.high != nil && x.high[v] }

// join adds y to the current part's boundary set and assigns to the part
// every unassigned edge between y and the set (a high vertex's edges are
// found from their other endpoints instead); y then waits in the heap to
// be moved to the core, unless it is high or has nothing left.
func (x *expander) join(y int32) {
	x.inS[y>>6] |= 1 << (y & 63)
	x.members = append(x.members, y)
	if x.isHigh(y) {
		return
	}
	// Most entries lead out of the set (a hub's nearly all): a tight loop
	// finds the next one that does not, on local slices, and only an
	// assignment, which swaps y's last entry into i, reloads the end.
	inS := x.inS
	for i, end := x.off[y], x.off[y]+x.n[y]; x.load[x.cur] < x.target; {
		other := x.other[i:end]
		k := 0
		for k < len(other) && !bitSet(inS, other[k]) {
			k++
		}
		if k == len(other) {
			break
		}
		i += int32(k)
		x.assign(x.end[i], y, other[k])
		end = x.off[y] + x.n[y]
	}
	if x.n[y] > 0 {
		x.push(y)
	}
}

// assign puts the edge of list entry end, in w's list with z at its other
// end, into the current part and drops it from both lists: the caller
// knows the endpoints, so the edge's are not read (a cache miss each).
func (x *expander) assign(end, w, z int32) {
	x.part[end>>1] = x.cur
	x.load[x.cur]++
	x.took++
	if end&1 != 0 { // U's end first, as before
		w, z, end = z, w, end^1
	}
	x.drop(w, x.pos[end])
	if z != w {
		x.drop(z, x.pos[end^1])
	}
}

// drop removes the entry at position i of w's list, moving its last entry
// there, and lowers w's place in the heap.
func (x *expander) drop(w, i int32) {
	if x.isHigh(w) {
		return
	}
	last := x.n[w] - 1
	if i != last {
		a, b := x.off[w]+i, x.off[w]+last
		f := x.end[b]
		x.end[a], x.other[a] = f, x.other[b]
		x.pos[f] = i // which end: no read of the edge's endpoints
	}
	x.n[w] = last
	if h := x.hpos[w]; h >= 0 {
		x.up(int(h))
	}
}

func (x *expander) less(a, b int32) bool {
	return x.n[a] < x.n[b] || (x.n[a] == x.n[b] && a < b)
}

func (x *expander) push(v int32) {
	x.hpos[v] = int32(len(x.heap))
	x.heap = append(x.heap, v)
	x.up(len(x.heap) - 1)
}

// pop removes and returns the boundary vertex with the fewest unassigned
// edges, or -1 when the boundary is empty.
func (x *expander) pop() int32 {
	if len(x.heap) == 0 {
		return -1
	}
	v := x.heap[0]
	last := len(x.heap) - 1
	x.heap[0] = x.heap[last]
	x.hpos[x.heap[0]] = 0
	x.heap = x.heap[:last]
	x.hpos[v] = -1
	if last > 0 {
		x.down(0)
	}
	return v
}

func (x *expander) up(i int) {
	h := x.heap
	for i > 0 {
		p := (i - 1) / 2
		if !x.less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		x.hpos[h[i]], x.hpos[h[p]] = int32(i), int32(p)
		i = p
	}
}

func (x *expander) down(i int) {
	h := x.heap
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && x.less(h[c+1], h[c]) {
			c++
		}
		if !x.less(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		x.hpos[h[i]], x.hpos[h[c]] = int32(i), int32(c)
		i = c
	}
}

// unassigned is a partition of m edges with none assigned (-1).
func unassigned(m int) []int32 {
	part := make([]int32, m)
	for e := range part {
		part[e] = -1
	}
	return part
}
