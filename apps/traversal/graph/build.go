package graph

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/internal/rng"
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

// csr builds one direction's CSR: a stable counting sort by source
// (scatter), then each vertex's arcs sorted by (target, weight), and the
// repeats dropped when deduplicating.
func (b *builder) csr(n int, reverse, dedupe bool) (off []int64, adj []int32, wt []float32, loops, dups int64) {
	off, adj, wt, loops = b.scatter(n, reverse)
	var cur []int64 // the end of each vertex's kept arcs, when deduplicating
	if dedupe {
		cur = make([]int64, n)
	}
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

// scatterTasks is the number of tasks of scatter's first two passes: fixed,
// so that the arc order does not depend on GOMAXPROCS.
const scatterTasks = 128

// scatter is a stable parallel counting sort of the arcs by source without
// atomics (a radix partition): the vertices are cut into buckets of 2^s
// consecutive ids, at most 2^15 of them. Pass 1: each of scatterTasks
// tasks counts its input edges' arcs per bucket. Pass 2: each task copies
// its arcs, in input order, to its own slots of a bucket-major temporary
// (bucket-local source as uint16, target, weight). Pass 3: each bucket
// counts its vertices' degrees and places its arcs, which already occupy
// the bucket's final range, by source within it: random writes stay
// inside one bucket's range. Every vertex's arcs come out in input order,
// whatever the number of workers. Memory: 6 bytes per arc of temporary
// (10 with weights) and 4 bytes per task and bucket of counts; time O(n +
// m), with no contended atomics (a hub's counter would be contended).
func (b *builder) scatter(n int, reverse bool) (off []int64, adj []int32, wt []float32, loops int64) {
	m := len(b.src)
	shift := max(0, bits.Len(uint(max(n, 1)-1))-15)
	nb := (n + 1<<shift - 1) >> shift
	nt := min(scatterTasks, max(1, tasks(m)))
	per := (m + nt - 1) / max(nt, 1)
	hist := make([]int64, nt*nb)
	dropped := make([]int64, nt)
	par.Do(nt, func(t int) {
		h := hist[t*nb : (t+1)*nb]
		for e := t * per; e < min((t+1)*per, m); e++ {
			u, v := b.ends(e, reverse)
			switch {
			case u == v && b.dropLoops:
				dropped[t]++
			case u == v || !b.both:
				h[u>>shift]++
			default:
				h[u>>shift]++
				h[v>>shift]++
			}
		}
	})
	for _, d := range dropped {
		loops += d
	}
	// Bucket-major exclusive prefix: slot (bucket c, task t) starts after
	// every arc of buckets below c and of tasks below t in bucket c.
	bstart := make([]int64, nb+1)
	var sum int64
	for c := range nb {
		bstart[c] = sum
		for t := range nt {
			k := hist[t*nb+c]
			hist[t*nb+c] = sum
			sum += k
		}
	}
	bstart[nb] = sum
	local := make([]uint16, sum)
	adj = make([]int32, sum)
	tmpAdj := make([]int32, sum)
	var tmpW []float32
	if b.w != nil {
		wt = make([]float32, sum)
		tmpW = make([]float32, sum)
	}
	mask := int32(1)<<shift - 1
	par.Do(nt, func(t int) {
		pos := hist[t*nb : (t+1)*nb]
		put := func(u, v int32, e int) {
			p := pos[u>>shift]
			pos[u>>shift]++
			local[p], tmpAdj[p] = uint16(u&mask), v
			if tmpW != nil {
				tmpW[p] = b.w[e]
			}
		}
		for e := t * per; e < min((t+1)*per, m); e++ {
			u, v := b.ends(e, reverse)
			switch {
			case u == v && b.dropLoops:
			case u == v || !b.both:
				put(u, v, e)
			default:
				put(u, v, e)
				put(v, u, e)
			}
		}
	})
	hist = nil
	off = make([]int64, n+1)
	par.DoWith(nb, func() []int64 { return make([]int64, 1<<shift+1) }, func(cnt []int64, c int) {
		lo, hi := bstart[c], bstart[c+1]
		first := c << shift
		nv := min(1<<shift, n-first)
		clear(cnt)
		for _, l := range local[lo:hi] {
			cnt[l+1]++
		}
		for i := range nv {
			cnt[i+1] += cnt[i]
		}
		for i := range nv {
			off[first+i] = lo + cnt[i]
		}
		for p := lo; p < hi; p++ {
			q := lo + cnt[local[p]]
			cnt[local[p]]++
			adj[q] = tmpAdj[p]
			if wt != nil {
				wt[q] = tmpW[p]
			}
		}
	})
	off[n] = sum
	return off, adj, wt, loops
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
