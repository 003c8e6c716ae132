package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/spac-gpu/spac/apps/traversal/internal/rng"
	"github.com/spac-gpu/spac/internal/par"
)

// Streams of the seeded draws (see package rng): each use its own.
const (
	streamWeights = 1
	streamRelabel = 2
	streamRoots   = 3
)

// chunk is the number of input edges (or, for row tasks, arcs) per
// parallel task: fixed, so that tasks do not depend on GOMAXPROCS.
const chunk = 1 << 16

// Build makes the Graph of the input edges e under opt. It refuses, with
// the edge named, ids outside [0, NumVertices), negative, NaN or infinite
// file weights, and inputs without values when asked for file weights. See
// the package documentation for the time, memory and determinism.
func Build(e *Edges, opt Options) (*Graph, error) {
	name := e.Name
	if name == "" {
		name = "graph"
	}
	n, m := e.NumVertices, len(e.Src)
	if n < 0 || n > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d vertices: a graph has 0 to 2^31-1 vertices (int32 ids)", name, n)
	}
	if len(e.Dst) != m || (e.Val != nil && len(e.Val) != m) {
		return nil, fmt.Errorf("%s: %d sources, %d targets and %d values: one of each per edge", name, m, len(e.Dst), len(e.Val))
	}
	if err := checkIDs(name, e); err != nil {
		return nil, err
	}
	w, integer, err := edgeWeights(name, e, opt)
	if err != nil {
		return nil, err
	}
	undirected := !e.Directed || opt.Undirected
	g := &Graph{Name: name, NumVertices: n, Directed: !undirected, Integer: integer, InputEdges: int64(m)}
	b := &builder{src: e.Src, dst: e.Dst, w: w, both: undirected, dropLoops: opt.DropSelfLoops}
	switch opt.Relabel {
	case RelabelNone:
	case RelabelDegree:
		g.NewID, g.OldID = byDegree(b, n)
	case RelabelRandom:
		g.NewID, g.OldID = randomPerm(n, opt.Seed)
	default:
		return nil, fmt.Errorf("%s: unknown relabelling %v", name, opt.Relabel)
	}
	b.perm = g.NewID
	g.InputCount = b.inputCounts(n)
	g.Offsets, g.Adj, g.Weight, g.DroppedSelfLoops, g.DroppedDuplicates = b.csr(n, false, opt.Dedupe)
	switch {
	case undirected:
		g.InOffsets, g.InAdj, g.InWeight = g.Offsets, g.Adj, g.Weight
	case opt.Transpose:
		g.InOffsets, g.InAdj, g.InWeight, _, _ = b.csr(n, true, opt.Dedupe)
	}
	return g, nil
}

// checkIDs names the first edge (lowest index) with an end outside [0,n).
func checkIDs(name string, e *Edges) error {
	n := int32(e.NumVertices)
	bad := make([]int, tasks(len(e.Src)))
	par.Do(len(bad), func(t int) {
		bad[t] = -1
		for i := t * chunk; i < min((t+1)*chunk, len(e.Src)); i++ {
			if u, v := e.Src[i], e.Dst[i]; u < 0 || u >= n || v < 0 || v >= n {
				bad[t] = i
				return
			}
		}
	})
	for _, i := range bad {
		if i >= 0 {
			return fmt.Errorf("%s: edge %d (%d,%d) has an end outside the %d vertices [0,%d)", name, i, e.Src[i], e.Dst[i], n, n)
		}
	}
	return nil
}

func tasks(items int) int { return (items + chunk - 1) / chunk }

// edgeWeights returns the weight of every input edge and whether all are
// integers exact in float32.
func edgeWeights(name string, e *Edges, opt Options) ([]float32, bool, error) {
	m := len(e.Src)
	ws := opt.Weights
	switch ws.Kind {
	case NoWeights:
		return nil, false, nil
	case FileWeights:
		if e.Val == nil {
			return nil, false, fmt.Errorf("%s: the input has no values to use as weights (a pattern matrix or an unweighted list): use uniform-int:W or uniform-float", name)
		}
		w := make([]float32, m)
		bad := make([]int, tasks(m))
		frac := make([]bool, tasks(m))
		par.Do(len(bad), func(t int) {
			bad[t] = -1
			for i := t * chunk; i < min((t+1)*chunk, m); i++ {
				v := e.Val[i]
				if !(v >= 0) || v > math.MaxFloat32 {
					bad[t] = i
					return
				}
				w[i] = float32(v)
				if v != math.Trunc(v) || v > 1<<24 {
					frac[t] = true
				}
			}
		})
		for _, i := range bad {
			if i >= 0 {
				return nil, false, fmt.Errorf("%s: edge %d (%d,%d) has weight %v: weights must be non-negative, finite and within float32's range", name, i, e.Src[i], e.Dst[i], e.Val[i])
			}
		}
		return w, !slices.Contains(frac, true), nil
	case UniformInt, UniformFloat:
		if ws.Kind == UniformInt && (ws.Max < 1 || ws.Max > 1<<24) {
			return nil, false, fmt.Errorf("%s: uniform-int:%d: W must be in [1, 16777216]", name, ws.Max)
		}
		key := rng.NewKey(opt.Seed, streamWeights)
		w := make([]float32, m)
		par.Do(tasks(m), func(t int) {
			for i := t * chunk; i < min((t+1)*chunk, m); i++ {
				x := key.At(uint64(i))
				if ws.Kind == UniformInt {
					w[i] = float32(1 + rng.Below(x, uint32(ws.Max)))
				} else {
					w[i] = rng.Unit(x)
				}
			}
		})
		return w, ws.Kind == UniformInt, nil
	}
	return nil, false, fmt.Errorf("%s: unknown weight kind %v", name, ws.Kind)
}

// builder turns input edges into arcs: edge e gives src->dst (dst->src when
// reversed), and its mirror when both is set and the ends differ.
type builder struct {
	src, dst  []int32
	w         []float32 // per input edge, or nil
	perm      []int32   // new id of each input id, or nil
	both      bool
	dropLoops bool
}

func (b *builder) ends(e int, reverse bool) (int32, int32) {
	u, v := b.src[e], b.dst[e]
	if b.perm != nil {
		u, v = b.perm[u], b.perm[v]
	}
	if reverse {
		u, v = v, u
	}
	return u, v
}

func (b *builder) inputCounts(n int) []int64 {
	c := make([]int64, n)
	par.Do(tasks(len(b.src)), func(t int) {
		for e := t * chunk; e < min((t+1)*chunk, len(b.src)); e++ {
			u, _ := b.ends(e, false)
			atomic.AddInt64(&c[u], 1)
		}
	})
	return c
}

// degrees counts the arcs leaving each vertex into deg[0:n] (deg has n+1
// entries) and returns the self-loops dropped.
func (b *builder) degrees(deg []int64, reverse bool) int64 {
	var dropped atomic.Int64
	par.Do(tasks(len(b.src)), func(t int) {
		var loops int64
		for e := t * chunk; e < min((t+1)*chunk, len(b.src)); e++ {
			u, v := b.ends(e, reverse)
			if u == v {
				if b.dropLoops {
					loops++
				} else {
					atomic.AddInt64(&deg[u], 1)
				}
				continue
			}
			atomic.AddInt64(&deg[u], 1)
			if b.both {
				atomic.AddInt64(&deg[v], 1)
			}
		}
		dropped.Add(loops)
	})
	return dropped.Load()
}

// csr builds one direction's CSR: counting sort by source, then each
// vertex's arcs sorted by (target, weight) so that the result does not
// depend on the order the atomic cursors handed out positions in.
func (b *builder) csr(n int, reverse, dedupe bool) (off []int64, adj []int32, wt []float32, loops, dups int64) {
	off = make([]int64, n+1)
	loops = b.degrees(off, reverse)
	var sum int64
	for v := range n {
		d := off[v]
		off[v] = sum
		sum += d
	}
	off[n] = sum
	adj = make([]int32, sum)
	if b.w != nil {
		wt = make([]float32, sum)
	}
	cur := make([]int64, n)
	copy(cur, off[:n])
	place := func(u, v int32, e int) {
		p := atomic.AddInt64(&cur[u], 1) - 1
		adj[p] = v
		if wt != nil {
			wt[p] = b.w[e]
		}
	}
	par.Do(tasks(len(b.src)), func(t int) {
		for e := t * chunk; e < min((t+1)*chunk, len(b.src)); e++ {
			u, v := b.ends(e, reverse)
			if u == v {
				if !b.dropLoops {
					place(u, u, e)
				}
				continue
			}
			place(u, v, e)
			if b.both {
				place(v, u, e)
			}
		}
	})
	// cur now holds the end of each vertex's arcs; reuse it for the
	// deduplicated degrees.
	bounds := rowTasks(off)
	par.DoWith(len(bounds)-1, func() []uint64 { return nil }, func(scratch []uint64, t int) {
		for v := bounds[t]; v < bounds[t+1]; v++ {
			lo, hi := off[v], off[v+1]
			if hi-lo > 1 {
				if wt == nil {
					slices.Sort(adj[lo:hi])
				} else {
					scratch = sortWeighted(adj[lo:hi], wt[lo:hi], scratch)
				}
			}
			if dedupe {
				cur[v] = lo + unique(adj[lo:hi], wt, lo)
			}
		}
	})
	if !dedupe {
		return off, adj, wt, loops, 0
	}
	// Compact in place: each vertex's kept arcs move left, never past
	// where an earlier vertex's end.
	var k int64
	for v := range n {
		lo, end := off[v], cur[v]
		off[v] = k
		if k != lo {
			copy(adj[k:], adj[lo:end])
			if wt != nil {
				copy(wt[k:], wt[lo:end])
			}
		}
		k += end - lo
	}
	dups = off[n] - k
	off[n] = k
	adj = slices.Clip(adj[:k])
	if wt != nil {
		wt = slices.Clip(wt[:k])
	}
	return off, adj, wt, loops, dups
}

// rowTasks splits the vertices into ranges of about chunk arcs each.
func rowTasks(off []int64) []int {
	n := len(off) - 1
	bounds := []int{0}
	for t := int64(chunk); t < off[n]; t += chunk {
		v, _ := slices.BinarySearch(off, t)
		if v > bounds[len(bounds)-1] && v < n {
			bounds = append(bounds, v)
		}
	}
	return append(bounds, n)
}

// sortWeighted sorts arcs by (target, weight): non-negative float32 bits
// order as the numbers do.
func sortWeighted(adj []int32, w []float32, scratch []uint64) []uint64 {
	scratch = slices.Grow(scratch[:0], len(adj))[:len(adj)]
	for i, t := range adj {
		scratch[i] = uint64(uint32(t))<<32 | uint64(math.Float32bits(w[i]))
	}
	slices.Sort(scratch)
	for i, k := range scratch {
		adj[i] = int32(k >> 32)
		w[i] = math.Float32frombits(uint32(k))
	}
	return scratch
}

// unique moves the first (lightest) arc of each target to the front of the
// sorted list adj (whose weights start at wt[base]) and returns how many.
func unique(adj []int32, wt []float32, base int64) int64 {
	if len(adj) == 0 {
		return 0
	}
	k := 1
	for i := 1; i < len(adj); i++ {
		if adj[i] != adj[k-1] {
			adj[k] = adj[i]
			if wt != nil {
				wt[base+int64(k)] = wt[base+int64(i)]
			}
			k++
		}
	}
	return int64(k)
}

// byDegree orders the vertices by decreasing number of incident arcs (as
// if undirected, self-loops once), ties by input id: a counting sort.
func byDegree(b *builder, n int) (newID, oldID []int32) {
	deg := make([]int64, n+1)
	u := *b
	u.both, u.dropLoops, u.perm = true, false, nil
	u.degrees(deg, false)
	deg = deg[:n]
	maxd := int64(0)
	for _, d := range deg {
		maxd = max(maxd, d)
	}
	start := make([]int64, maxd+1)
	for _, d := range deg {
		start[d]++
	}
	var sum int64
	for d := maxd; d >= 0; d-- {
		c := start[d]
		start[d] = sum
		sum += c
	}
	newID, oldID = make([]int32, n), make([]int32, n)
	for v, d := range deg {
		newID[v] = int32(start[d])
		oldID[start[d]] = int32(v)
		start[d]++
	}
	return newID, oldID
}

// randomPerm is a uniformly random relabelling (Fisher-Yates on a PCG
// seeded from seed).
func randomPerm(n int, seed uint64) (newID, oldID []int32) {
	r := rand.New(rand.NewPCG(seed, uint64(rng.NewKey(seed, streamRelabel))))
	oldID = make([]int32, n)
	for i := range oldID {
		oldID[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		oldID[i], oldID[j] = oldID[j], oldID[i]
	}
	newID = make([]int32, n)
	for nw, old := range oldID {
		newID[old] = int32(nw)
	}
	return newID, oldID
}
