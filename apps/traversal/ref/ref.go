// Package ref holds the CPU references for BFS and single-source shortest
// paths that every GPU strategy is checked against: a queue BFS, a
// parallel level-synchronous BFS, Dijkstra with a binary heap (float32 and
// exact integer arithmetic) and a parallel delta-stepping. Results use the
// layouts the GPU side writes: parent and depth as int32 per vertex (-1
// unreached, the root its own parent at depth 0), distances as float32
// (+Inf unreached) and predecessors as int32 (-1 unreached, the root its
// own). DirectionOptimizingBFS (Beamer's top-down/bottom-up switch) is the
// reference for pulling strategies: same depths, far fewer arcs inspected.
// MultiSourceBFS (MS-BFS) computes the depths from many roots, 64 at a
// time with a bit per root in a word per vertex: the reference of the
// GPU's many-source BFS.
//
// # Complexity and memory
//
// BFS and ParallelBFS: O(n + m) work, 8 bytes per vertex of results plus
// the frontiers (4 bytes per vertex at most). Dijkstra: O((n + m) log n),
// 16 bytes per vertex (distance, predecessor, heap and heap position).
// DeltaStepping: O(n + m) work when every vertex is relaxed once, more
// when distances drop after a relaxation (a vertex is relaxed again each
// time); 12 bytes per vertex of state plus the buckets.
//
// # Determinism
//
// Depths and distances are deterministic; parents and predecessors of the
// parallel references depend on which worker wins a race, and each is a
// valid one (package validate checks them). All float32 sums are rounded
// to float32 at every addition, as a GPU kernel computes them, so float32
// distances are the minimum over paths of the path's left-to-right float32
// sum, the same for every correct algorithm.
package ref

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
)

// BFSResult is a breadth-first search tree.
type BFSResult struct {
	Parent    []int32 // -1 unreached; Parent[root] = root
	Depth     []int32 // -1 unreached; Depth[root] = 0
	Levels    int     // number of levels (the largest depth + 1)
	Inspected int64   // arcs looked at
	// Per level d: the vertices at depth d (the frontier a top-down step
	// expands) and their out-arcs (what it inspects). The shape of a
	// search, for per-level strategy choices and reports.
	Frontier, FrontierArcs []int64
}

// levelStats fills Levels, Frontier and FrontierArcs from the depths.
func (r *BFSResult) levelStats(g *graph.Graph) {
	r.Levels = 0
	for _, d := range r.Depth {
		r.Levels = max(r.Levels, int(d)+1)
	}
	r.Frontier, r.FrontierArcs = make([]int64, r.Levels), make([]int64, r.Levels)
	for v, d := range r.Depth {
		if d >= 0 {
			r.Frontier[d]++
			r.FrontierArcs[d] += g.Degree(int32(v))
		}
	}
}

// SSSPResult is a shortest-path tree.
type SSSPResult struct {
	Dist      []float32 // +Inf unreached
	Pred      []int32   // -1 unreached; Pred[root] = root
	Inspected int64     // arcs relaxed
}

func checkRoot(g *graph.Graph, root int32) error {
	if root < 0 || int(root) >= g.NumVertices {
		return fmt.Errorf("%s: root %d is not a vertex: ids are 0 to %d", g.Name, root, g.NumVertices-1)
	}
	return nil
}

func checkWeighted(g *graph.Graph, root int32) error {
	if err := checkRoot(g, root); err != nil {
		return err
	}
	if g.Weight == nil {
		return fmt.Errorf("%s: shortest paths need weights: build the graph with Options.Weights", g.Name)
	}
	return nil
}

func newBFS(n int, root int32) *BFSResult {
	r := &BFSResult{Parent: make([]int32, n), Depth: make([]int32, n)}
	for i := range r.Parent {
		r.Parent[i], r.Depth[i] = -1, -1
	}
	r.Parent[root], r.Depth[root] = root, 0
	return r
}

// BFS is the textbook queue BFS over out-arcs.
func BFS(g *graph.Graph, root int32) (*BFSResult, error) {
	if err := checkRoot(g, root); err != nil {
		return nil, err
	}
	r := newBFS(g.NumVertices, root)
	queue := make([]int32, 1, 1024)
	queue[0] = root
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		du := r.Depth[u]
		nb := g.Neighbors(u)
		r.Inspected += int64(len(nb))
		for _, v := range nb {
			if r.Parent[v] < 0 {
				r.Parent[v], r.Depth[v] = u, du+1
				queue = append(queue, v)
			}
		}
	}
	r.levelStats(g)
	return r, nil
}

// ParallelBFS is a level-synchronous top-down BFS: each level's frontier is
// split among the workers, which claim unvisited vertices with an atomic
// compare-and-swap on their parent, as a GPU kernel does. Frontiers of
// fewer than 4096 vertices run on one goroutine.
func ParallelBFS(g *graph.Graph, root int32) (*BFSResult, error) {
	if err := checkRoot(g, root); err != nil {
		return nil, err
	}
	r := newBFS(g.NumVertices, root)
	frontier := []int32{root}
	var inspected atomic.Int64
	for depth := int32(1); len(frontier) > 0; depth++ {
		frontier = topDownStep(g, r, frontier, depth, &inspected)
	}
	r.Inspected = inspected.Load()
	r.levelStats(g)
	return r, nil
}

// number is the arithmetic Dijkstra runs in: float32 (rounded at every
// addition, as on the GPU) or int64 (exact).
type number interface{ ~float32 | ~int64 }

// heap is a binary min-heap of vertices keyed by dist, with each vertex's
// position for decrease-key: flat arrays, no pointers.
type heap[T number] struct {
	items []int32
	pos   []int32 // -1 not in the heap
	dist  []T
}

func (h *heap[T]) less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	return h.dist[a] < h.dist[b] || (h.dist[a] == h.dist[b] && a < b)
}

func (h *heap[T]) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i]], h.pos[h.items[j]] = int32(i), int32(j)
}

func (h *heap[T]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *heap[T]) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

// push inserts v or, when it is in the heap already, moves it up after its
// distance dropped.
func (h *heap[T]) push(v int32) {
	if p := h.pos[v]; p >= 0 {
		h.up(int(p))
		return
	}
	h.items = append(h.items, v)
	h.pos[v] = int32(len(h.items) - 1)
	h.up(len(h.items) - 1)
}

func (h *heap[T]) pop() int32 {
	v := h.items[0]
	last := len(h.items) - 1
	h.swap(0, last)
	h.items = h.items[:last]
	h.pos[v] = -1
	h.down(0)
	return v
}

func dijkstra[T number](g *graph.Graph, root int32, inf T, weight func(e int64) T) ([]T, []int32, int64) {
	n := g.NumVertices
	dist, pred := make([]T, n), make([]int32, n)
	h := &heap[T]{pos: make([]int32, n), dist: dist}
	for i := range dist {
		dist[i], pred[i], h.pos[i] = inf, -1, -1
	}
	dist[root], pred[root] = 0, root
	h.push(root)
	var inspected int64
	for len(h.items) > 0 {
		u := h.pop()
		du := dist[u]
		lo, hi := g.Offsets[u], g.Offsets[u+1]
		inspected += hi - lo
		for e := lo; e < hi; e++ {
			v := g.Adj[e]
			if d := du + weight(e); d < dist[v] {
				dist[v], pred[v] = d, u
				h.push(v)
			}
		}
	}
	return dist, pred, inspected
}

// Dijkstra computes shortest paths in float32, each addition rounded to
// float32 as a GPU kernel rounds it.
func Dijkstra(g *graph.Graph, root int32) (*SSSPResult, error) {
	if err := checkWeighted(g, root); err != nil {
		return nil, err
	}
	w := g.Weight
	dist, pred, insp := dijkstra(g, root, float32(math.Inf(1)), func(e int64) float32 { return w[e] })
	return &SSSPResult{Dist: dist, Pred: pred, Inspected: insp}, nil
}

// Unreached is DijkstraInt's distance of a vertex the root does not reach.
const Unreached = math.MaxInt64

// DijkstraInt computes exact shortest paths of a graph with integer
// weights (graph.Graph.Integer) in int64: the oracle for distances.
// Unreached vertices get Unreached.
func DijkstraInt(g *graph.Graph, root int32) (dist []int64, pred []int32, err error) {
	if err := checkWeighted(g, root); err != nil {
		return nil, nil, err
	}
	if !g.Integer {
		return nil, nil, fmt.Errorf("%s: exact distances need integer weights", g.Name)
	}
	w := g.Weight
	dist, pred, _ = dijkstra(g, root, int64(Unreached), func(e int64) int64 { return int64(w[e]) })
	return dist, pred, nil
}

// DeltaStepping is Meyer and Sanders' delta-stepping with buckets of width
// delta (0 picks the mean arc weight, at least the smallest positive
// weight): the vertices of the lowest non-empty bucket are relaxed in
// parallel, again until the bucket stays empty, then the next bucket. A
// vertex's distance and predecessor are one 64-bit word (distance bits
// high, predecessor low) replaced by compare-and-swap only when the
// distance strictly drops, so the pair is always consistent and the
// predecessors form a tree (a vertex's distance is never below its
// predecessor's). Buckets live in a ring of ceil(maxWeight/delta)+2
// slots, all a pending distance can reach. A vertex queued more than once
// at the same distance is relaxed once (4 bytes per vertex record the
// distance each was last relaxed at).
func DeltaStepping(g *graph.Graph, root int32, delta float32) (*SSSPResult, error) {
	if err := checkWeighted(g, root); err != nil {
		return nil, err
	}
	if delta < 0 || math.IsNaN(float64(delta)) || math.IsInf(float64(delta), 0) {
		return nil, fmt.Errorf("delta %v must be positive and finite (0 for the default)", delta)
	}
	var maxW float32
	var sum float64
	minPos := float32(math.Inf(1))
	for _, w := range g.Weight {
		maxW = max(maxW, w)
		sum += float64(w)
		if w > 0 {
			minPos = min(minPos, w)
		}
	}
	if delta == 0 {
		delta = 1
		if len(g.Weight) > 0 && sum > 0 {
			delta = max(float32(sum/float64(len(g.Weight))), minPos)
		}
	}
	ring := int(min(float64(maxW)/float64(delta), 1<<24)) + 2
	if float64(maxW)/float64(delta) > 1<<24 {
		return nil, fmt.Errorf("delta %v is too small for weights up to %v (over 2^24 buckets)", delta, maxW)
	}
	n := g.NumVertices
	state := make([]uint64, n)
	inf := pack(float32(math.Inf(1)), -1)
	for i := range state {
		state[i] = inf
	}
	state[root] = pack(0, root)
	// relaxed[v] is the distance (bits) v's arcs were last relaxed at.
	relaxed := make([]uint32, n)
	for i := range relaxed {
		relaxed[i] = math.Float32bits(float32(math.Inf(1)))
	}
	buckets := make([][]int32, ring)
	buckets[0] = []int32{root}
	pending := 1
	var inspected atomic.Int64
	bucketOf := func(d float32, cur int64) int64 {
		b := int64(float64(d) / float64(delta))
		return max(b, cur)
	}
	const grain = 512
	for cur := int64(0); pending > 0; cur++ {
		slot := int(cur % int64(ring))
		for len(buckets[slot]) > 0 {
			items := buckets[slot]
			buckets[slot] = nil
			pending -= len(items)
			tasks := (len(items) + grain - 1) / grain
			if len(items) < 4*grain {
				tasks = 1
			}
			per := (len(items) + tasks - 1) / tasks
			type update struct {
				b int64
				v int32
			}
			out := make([][]update, tasks)
			par.Do(tasks, func(t int) {
				var local []update
				var seen int64
				for _, u := range items[t*per : min((t+1)*per, len(items))] {
					du := dist(atomic.LoadUint64(&state[u]))
					if atomic.SwapUint32(&relaxed[u], math.Float32bits(du)) == math.Float32bits(du) {
						continue // relaxed at this distance already (a vertex queued twice)
					}
					lo, hi := g.Offsets[u], g.Offsets[u+1]
					seen += hi - lo
					for e := lo; e < hi; e++ {
						v := g.Adj[e]
						nd := float32(du + g.Weight[e])
						for {
							old := atomic.LoadUint64(&state[v])
							if nd >= dist(old) {
								break
							}
							if atomic.CompareAndSwapUint64(&state[v], old, pack(nd, u)) {
								local = append(local, update{bucketOf(nd, cur), v})
								break
							}
						}
					}
				}
				out[t] = local
				inspected.Add(seen)
			})
			for _, l := range out {
				for _, up := range l {
					s := int(up.b % int64(ring))
					buckets[s] = append(buckets[s], up.v)
				}
				pending += len(l)
			}
		}
	}
	res := &SSSPResult{Dist: make([]float32, n), Pred: make([]int32, n), Inspected: inspected.Load()}
	par.Do((n+65535)/65536, func(t int) {
		for v := t * 65536; v < min((t+1)*65536, n); v++ {
			res.Dist[v], res.Pred[v] = dist(state[v]), int32(uint32(state[v]))
		}
	})
	return res, nil
}

func pack(d float32, p int32) uint64 { return uint64(math.Float32bits(d))<<32 | uint64(uint32(p)) }
func dist(s uint64) float32          { return math.Float32frombits(uint32(s >> 32)) }
