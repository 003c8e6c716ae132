package spac

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/cespare/xxhash/v2"
	"github.com/spac-gpu/spac/matrices"
)

// This file holds what the baseline methods share: the check of their
// options, hashing, and the per-vertex sets of parts of the streaming ones.

// checkBaseline validates the options every baseline needs.
func checkBaseline(name string, g *matrices.Graph, inc *matrices.Incidence, opts Options) error {
	m := g.NumEdges()
	switch {
	case opts.K < 1:
		return fmt.Errorf("%s: need at least one part, got %d", name, opts.K)
	case opts.Cap < 1:
		return fmt.Errorf("%s: need a cap of at least one edge, got %d", name, opts.Cap)
	case int64(opts.K)*int64(opts.Cap) < int64(m):
		return fmt.Errorf("%s: %d parts of at most %d edges cannot hold %d edges", name, opts.K, opts.Cap, m)
	case len(g.V) != m:
		return fmt.Errorf("%s: graph has %d U endpoints and %d V endpoints", name, m, len(g.V))
	case len(inc.Offsets) != g.NumVertices+1:
		return fmt.Errorf("%s: incidence has %d offsets for %d vertices", name, len(inc.Offsets), g.NumVertices)
	}
	return nil
}

// tell reports a stage to opts.Progress when it is set.
func tell(opts Options, stage string) {
	if opts.Progress != nil {
		opts.Progress(stage)
	}
}

// cancelEvery is how many edges a streaming loop handles between looks at
// its context.
const cancelEvery = 1 << 16

// hash2 hashes two 32-bit values under a seed with xxhash.
func hash2(seed int64, a, b int32) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[0:], uint64(seed))
	binary.LittleEndian.PutUint32(buf[8:], uint32(a))
	binary.LittleEndian.PutUint32(buf[12:], uint32(b))
	return xxhash.Sum64(buf[:])
}

// hashPart maps a hash to one of k parts.
func hashPart(h uint64, k int) int32 {
	return int32(h % uint64(k))
}

// vertexParts is A(v) of the streaming partitioners: for every vertex, the
// parts that already hold one of its edges, in the order they were added.
// Vertex v's parts live in parts[off[v] : off[v]+n[v]]; off is the
// incidence's offsets, since a vertex cannot be in more parts than it has
// edges.
type vertexParts struct {
	off   []int32
	n     []int32
	parts []int32
}

func newVertexParts(inc *matrices.Incidence, nv int) vertexParts {
	return vertexParts{off: inc.Offsets, n: make([]int32, nv), parts: make([]int32, len(inc.Edge))}
}

func (a *vertexParts) of(v int32) []int32 {
	return a.parts[a.off[v] : a.off[v]+a.n[v]]
}

// add records that v has an edge in part q; q must not be there yet.
func (a *vertexParts) add(v, q int32) {
	a.parts[a.off[v]+a.n[v]] = q
	a.n[v]++
}

// has reports whether q is among v's parts.
func (a *vertexParts) has(v, q int32) bool {
	for _, r := range a.of(v) {
		if r == q {
			return true
		}
	}
	return false
}

// addNew adds q to v's parts unless it is there already.
func (a *vertexParts) addNew(v, q int32) {
	if !a.has(v, q) {
		a.add(v, q)
	}
}

// streamLoads tracks part loads for the streaming methods: the heap of the
// parts below the cap and the largest load.
type streamLoads struct {
	load    []int32
	cap     int32
	maxLoad int32
	open    partHeap
}

func newStreamLoads(k, capacity int) *streamLoads { return loadsOver(make([]int32, k), capacity) }

// loadsOver tracks the part loads in load, which may hold edges already.
func loadsOver(load []int32, capacity int) *streamLoads {
	s := &streamLoads{load: load, cap: int32(capacity)}
	for _, l := range load {
		s.maxLoad = max(s.maxLoad, l)
	}
	s.open = newPartHeap(s.load, s.cap, func(int) bool { return capacity > 0 })
	return s
}

func (s *streamLoads) eligible(q int32) bool { return s.load[q] < s.cap }

func (s *streamLoads) add(q int32) {
	s.load[q]++
	if s.load[q] > s.maxLoad {
		s.maxLoad = s.load[q]
	}
	s.open.update(int(q))
}

// cancelled returns ctx's error, looking only every cancelEvery edges.
func cancelled(ctx context.Context, e int) error {
	if e%cancelEvery == 0 {
		return ctx.Err()
	}
	return nil
}
