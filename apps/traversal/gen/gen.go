// Package gen generates the graphs traversal is benchmarked on, fast enough
// to run on the GPU machine instead of carrying files there: the Graph500
// Kronecker graph and a road-like grid. Both return input edges
// (graph.Edges) for graph.Build.
//
// # Determinism and parallelism
//
// Every random choice is a draw of a counter-based generator (SplitMix64
// on a Weyl sequence) keyed by the seed: edge e of a Kronecker graph, and
// the edges of road vertex v, depend on (seed, e) or (seed, v) only.
// Workers generate fixed slices of the output, so the result is
// bit-for-bit the same for any GOMAXPROCS.
//
// # Cost
//
// Kronecker: O(m * scale) time for m = EdgeFactor * 2^Scale edges (one
// 64-bit draw per two levels), 8 bytes per edge (two int32 ids), no other
// memory. Road: O(n) time for n = NX * NY vertices, about 1.25 edges per
// vertex at 8 bytes each.
//
// Measured (BenchmarkKronecker, BenchmarkRoad; 2026-11-25): Kronecker scale
// 20 in 0.6 s and scale 22 in 2.4 s on 2 cores (28 M edges/s); on the GPU
// machine's 16 cores scale 22 in 0.93 s and scale 24 (268M edges) in 3.6 s
// (75 M edges/s, first-touch page faults included). A 4000 x 4000 road
// graph in 55 ms there.
package gen

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/internal/rng"
)

// Streams of the seeded draws.
const (
	streamKronEdges = 101
	streamKronPerm  = 102
	streamRoad      = 201
	streamHighways  = 202
	streamRoadPerm  = 203
)

const chunk = 1 << 16

// Kronecker is the Graph500 graph generator: EdgeFactor * 2^Scale
// undirected edges, each drawn by descending Scale levels of the 2x2
// initiator [[A, B], [C, D]], D = 1-A-B-C, then both ends mapped through
// a seeded permutation of the vertex ids so that the heavy vertices are
// not the low ids. As the benchmark defines it, duplicates and self-loops
// are kept (graph.Options.Dedupe and DropSelfLoops remove them from the
// CSR; TEPS still counts them). Every edge is an independent draw, so the
// list is already in random order: the benchmark's shuffle of the edges
// changes nothing in distribution and is not done. The permutation is a
// keyed bijection of Scale-bit integers (three rounds of xor, odd
// multiply and xorshift), not one drawn by Fisher-Yates: it costs no
// memory and is computed per edge.
type Kronecker struct {
	Scale      int     // 2^Scale vertices, 1 to 30
	EdgeFactor int     // edges per vertex, Graph500: 16
	A, B, C    float64 // initiator probabilities, Graph500: 0.57, 0.19, 0.19
	Seed       uint64
}

// DefaultKronecker is Graph500's generator at the given scale: edge factor
// 16, A = 0.57, B = C = 0.19, seed 1.
func DefaultKronecker(scale int) Kronecker {
	return Kronecker{Scale: scale, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19, Seed: 1}
}

func (k Kronecker) String() string {
	return fmt.Sprintf("kronecker(scale=%d,ef=%d,a=%g,b=%g,c=%g,seed=%d)", k.Scale, k.EdgeFactor, k.A, k.B, k.C, k.Seed)
}

func (k Kronecker) check() error {
	if k.Scale < 1 || k.Scale > 30 {
		return fmt.Errorf("kronecker: scale %d must be in [1, 30] (2^scale vertex ids fit int32)", k.Scale)
	}
	if k.EdgeFactor < 1 || k.EdgeFactor > 1<<20 {
		return fmt.Errorf("kronecker: edge factor %d must be in [1, 2^20]", k.EdgeFactor)
	}
	finite := func(x float64) bool { return x >= 0 && x <= 1 }
	if !finite(k.A) || !finite(k.B) || !finite(k.C) || k.A+k.B+k.C > 1+1e-9 {
		return fmt.Errorf("kronecker: a=%v b=%v c=%v must be in [0,1] with a+b+c <= 1 (d = 1-a-b-c)", k.A, k.B, k.C)
	}
	if m := float64(k.EdgeFactor) * math.Ldexp(1, k.Scale); m > math.MaxInt/2 {
		return fmt.Errorf("kronecker: %g edges do not fit in memory", m)
	}
	return nil
}

// Generate draws the edges.
func (k Kronecker) Generate() (*graph.Edges, error) {
	if err := k.check(); err != nil {
		return nil, err
	}
	n := 1 << k.Scale
	m := k.EdgeFactor * n
	src, dst := make([]int32, m), make([]int32, m)
	// Thresholds on 32-bit draws.
	ta := threshold(k.A)
	tb := threshold(k.A + k.B)
	tc := threshold(k.A + k.B + k.C)
	key := rng.NewKey(k.Seed, streamKronEdges)
	p := newPerm(uint(k.Scale), k.Seed, streamKronPerm)
	scale := k.Scale
	par.Do((m+chunk-1)/chunk, func(t int) {
		for e := t * chunk; e < min((t+1)*chunk, m); e++ {
			var u, v uint64
			var x uint64
			base := uint64(e) * 16 // at most 15 draws per edge
			for l := range scale {
				if l&1 == 0 {
					x = key.At(base + uint64(l>>1))
				} else {
					x >>= 32
				}
				// Quadrant without branches (they would mispredict half the
				// time): u's bit is r >= tb; v's is set in [ta,tb) and [tc,1).
				r := x & (1<<32 - 1)
				u |= b2u(r >= tb) << l
				v |= (b2u(r >= ta) ^ b2u(r >= tb) ^ b2u(r >= tc)) << l
			}
			src[e] = int32(p.apply(u))
			dst[e] = int32(p.apply(v))
		}
	})
	return &graph.Edges{Name: k.String(), NumVertices: n, Src: src, Dst: dst}, nil
}

func threshold(p float64) uint64 { return uint64(math.Min(p, 1) * (1 << 32)) }

// perm is a keyed bijection of the integers [0, 2^bits).
type perm struct {
	mask  uint64
	shift uint
	key   [3]uint64
	mul   [3]uint64
}

func newPerm(nbits uint, seed, stream uint64) perm {
	k := rng.NewKey(seed, stream)
	p := perm{mask: 1<<nbits - 1, shift: max(1, (nbits+1)/2)}
	for r := range 3 {
		p.key[r] = k.At(uint64(2 * r))
		p.mul[r] = k.At(uint64(2*r+1)) | 1
	}
	return p
}

func (p perm) apply(x uint64) uint64 {
	for r := range 3 {
		x = ((x ^ p.key[r]) * p.mul[r]) & p.mask
		x ^= x >> p.shift
	}
	return x
}

// Road is a road-like graph: an NX x NY grid (vertex x + y*NX) whose
// vertices other than (0,0) each keep one edge to the left or lower
// neighbour (chosen at random, forced on the borders), which makes a
// spanning tree, so the graph is connected; the other of the two is kept
// with probability Extra. The average degree is about 2(1+Extra), 2.5 for
// Extra = 0.25, and a BFS from a vertex takes about as many levels as the
// grid's Manhattan distances, NX+NY and more: thousands of levels for a
// grid of millions of vertices. Highways adds that many edges between
// uniformly random vertex pairs (no self-loops), which shorten the
// diameter as a real road network's highways do. Shuffle relabels the
// vertices by a seeded permutation; otherwise ids follow the grid, rows
// of NX, which gives a kernel the locality a geographically ordered road
// network has.
type Road struct {
	NX, NY   int
	Extra    float64 // probability of the second grid edge per vertex, in [0,1]
	Highways int
	Shuffle  bool
	Seed     uint64
}

// DefaultRoad is the road-like graph of average degree 2.5 on an nx x ny
// grid, without highways or shuffling, seed 1.
func DefaultRoad(nx, ny int) Road { return Road{NX: nx, NY: ny, Extra: 0.25, Seed: 1} }

func (r Road) String() string {
	return fmt.Sprintf("road(%dx%d,extra=%g,highways=%d,shuffle=%t,seed=%d)", r.NX, r.NY, r.Extra, r.Highways, r.Shuffle, r.Seed)
}

func (r Road) check() error {
	if r.NX < 1 || r.NY < 1 || int64(r.NX)*int64(r.NY) > math.MaxInt32 {
		return fmt.Errorf("road: grid %d x %d must have 1 to 2^31-1 vertices", r.NX, r.NY)
	}
	if !(r.Extra >= 0 && r.Extra <= 1) {
		return fmt.Errorf("road: extra %v must be a probability in [0, 1]", r.Extra)
	}
	if r.Highways < 0 || r.Highways > 1<<30 {
		return fmt.Errorf("road: %d highways must be in [0, 2^30]", r.Highways)
	}
	if r.Highways > 0 && r.NX*r.NY < 2 {
		return fmt.Errorf("road: highways need 2 vertices at least")
	}
	return nil
}

// Generate draws the edges.
func (r Road) Generate() (*graph.Edges, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	n := r.NX * r.NY
	key := rng.NewKey(r.Seed, streamRoad)
	extra := threshold(r.Extra)
	if r.Extra >= 1 {
		extra = 1 << 32
	}
	// edges returns the grid edges of vertex v: to the left (x-1, y) and
	// to the lower neighbour (x, y-1), each kept or not.
	edges := func(v int) (left, down bool) {
		x, y := v%r.NX, v/r.NX
		switch {
		case x == 0 && y == 0:
			return false, false
		case x == 0:
			return false, true
		case y == 0:
			return true, false
		}
		d := key.At(uint64(v))
		keepOther := d>>32 < extra
		if d&1 == 0 {
			return true, keepOther
		}
		return keepOther, true
	}
	tasks := (n + chunk - 1) / chunk
	count := make([]int, tasks+1)
	par.Do(tasks, func(t int) {
		c := 0
		for v := t * chunk; v < min((t+1)*chunk, n); v++ {
			l, d := edges(v)
			c += b2i(l) + b2i(d)
		}
		count[t+1] = c
	})
	for t := range tasks {
		count[t+1] += count[t]
	}
	m := count[tasks] + r.Highways
	src, dst := make([]int32, m), make([]int32, m)
	par.Do(tasks, func(t int) {
		i := count[t]
		for v := t * chunk; v < min((t+1)*chunk, n); v++ {
			l, d := edges(v)
			if l {
				src[i], dst[i] = int32(v), int32(v-1)
				i++
			}
			if d {
				src[i], dst[i] = int32(v), int32(v-r.NX)
				i++
			}
		}
	})
	hk := rng.NewKey(r.Seed, streamHighways)
	base := count[tasks]
	par.Do((r.Highways+chunk-1)/chunk, func(t int) {
		for h := t * chunk; h < min((t+1)*chunk, r.Highways); h++ {
			u := rng.Below(hk.At(2*uint64(h)), uint32(n))
			v := (u + 1 + rng.Below(hk.At(2*uint64(h)+1), uint32(n-1))) % uint32(n)
			src[base+h], dst[base+h] = int32(u), int32(v)
		}
	})
	if r.Shuffle {
		nb := uint(bits.Len(uint(n - 1)))
		p := newPerm(nb, r.Seed, streamRoadPerm)
		relabel := func(v int32) int32 {
			x := p.apply(uint64(v))
			for x >= uint64(n) { // cycle-walking: a bijection of [0,n)
				x = p.apply(x)
			}
			return int32(x)
		}
		par.Do((m+chunk-1)/chunk, func(t int) {
			for e := t * chunk; e < min((t+1)*chunk, m); e++ {
				src[e], dst[e] = relabel(src[e]), relabel(dst[e])
			}
		})
	}
	return &graph.Edges{Name: r.String(), NumVertices: n, Src: src, Dst: dst}, nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
