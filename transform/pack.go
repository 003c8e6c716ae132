package transform

import (
	"slices"
	"sort"

	"github.com/spac-gpu/spac/internal/par"
)

// Packed is a WeightedGraph and its vertex weights stored compactly while
// they wait, for a multilevel scheme's graphs between the way down, which
// builds them, and the way up, which refines on them again: every row is
// its length, the vertex's weight and each neighbour as its distance from
// the vertex (zigzag), all varints, with the entry's weight after it where
// it is not 1 (a bit of the distance says which). Neighbours in these
// graphs lie near their vertex (consecutive tasks share a row, and
// coarsening numbers coarse vertices in the order of their members): on the
// in-2004 and circuit5M stand-ins a level takes 1.6 to 2.7 bytes per entry
// instead of 8, so the levels waiting take a fifth of the room they would
// unpacked. Unpack gives back the very graph packed, row order included, so
// that nothing computed on it changes.
type Packed struct {
	n, entries               int
	weighted, vertexWeighted bool
	chunks                   []packedChunk
}

// packedChunk is the packed rows of the vertices from lo on (to the next
// chunk's lo), whose adjacency starts at entry first.
type packedChunk struct {
	lo, first int32
	data      []byte
}

// packChunk is about how many vertices and entries a chunk holds: chunks
// are packed and unpacked independently, in parallel, each through a
// worker's scratch of at most 10 bytes per vertex and entry, and then kept
// in a slice of its own size. A variable, so that the tests can cut small
// graphs into many chunks.
var packChunk = 1 << 18

// Pack packs w and its vertex weights (nil: all 1). Packing is linear, one
// pass, parallel over ranges of vertices of about packChunk vertices and
// entries.
func Pack(w *WeightedGraph, weight []int32) *Packed {
	n := w.NumVertices()
	p := &Packed{n: n, entries: len(w.Adjncy), weighted: w.Adjwgt != nil, vertexWeighted: weight != nil}
	total := int64(n) + int64(p.entries)
	chunks := int(max(1, (total+int64(packChunk)-1)/int64(packChunk)))
	p.chunks = make([]packedChunk, chunks)
	for c := range chunks {
		// The first vertex v with Xadj[v]+v at least the chunk's share.
		share := total * int64(c) / int64(chunks)
		lo := sort.Search(n, func(v int) bool { return int64(w.Xadj[v])+int64(v) >= share })
		p.chunks[c] = packedChunk{lo: int32(lo), first: w.Xadj[lo]}
	}
	par.DoWith(chunks, func() *[]byte { return new([]byte) }, func(scratch *[]byte, c int) {
		lo, hi := p.bound(c)
		need := 10 * (hi - lo + int(w.Xadj[hi]-w.Xadj[lo]))
		if cap(*scratch) < need {
			*scratch = make([]byte, need)
		}
		b := (*scratch)[:need]
		p.chunks[c].data = slices.Clone(b[:p.encode(w, weight, lo, hi, b)])
	})
	return p
}

// Bytes is the room the packed graph takes.
func (p *Packed) Bytes() int {
	b := 0
	for _, c := range p.chunks {
		b += len(c.data) + 32
	}
	return b
}

// bound returns chunk c's vertices [lo, hi).
func (p *Packed) bound(c int) (lo, hi int) {
	hi = p.n
	if c+1 < len(p.chunks) {
		hi = int(p.chunks[c+1].lo)
	}
	return int(p.chunks[c].lo), hi
}

// encode writes the rows of vertices [lo, hi) into b, which has room for
// them, and returns the bytes written.
func (p *Packed) encode(w *WeightedGraph, weight []int32, lo, hi int, b []byte) int {
	at := 0
	for v := lo; v < hi; v++ {
		at = putUvarint(b, at, uint64(w.Xadj[v+1]-w.Xadj[v]))
		if weight != nil {
			at = putUvarint(b, at, uint64(weight[v]))
		}
		row := w.Adjncy[w.Xadj[v]:w.Xadj[v+1]]
		if w.Adjwgt == nil {
			for _, u := range row {
				at = putUvarint(b, at, zigzag(u-int32(v)))
			}
			continue
		}
		wgt := w.Adjwgt[w.Xadj[v]:w.Xadj[v+1]]
		for i, u := range row {
			d := zigzag(u-int32(v)) << 1
			if wt := wgt[i]; wt != 1 {
				at = putUvarint(b, at, d|1)
				at = putUvarint(b, at, uint64(wt))
			} else {
				at = putUvarint(b, at, d)
			}
		}
	}
	return at
}

// Unpack returns the graph and vertex weights packed (weights nil if they
// were), in fresh arrays; the ranges are unpacked in parallel.
func (p *Packed) Unpack() (*WeightedGraph, []int32) { return p.unpack(false) }

// Drain is Unpack that uses p up: each chunk's pages are given back to the
// kernel as soon as it is decoded, so that the packed graph and the
// unpacked one are not both resident (the finest level's unpacking was a
// 19.1M-task 3-D mesh's peak: draining took it from 1,858,280-1,915,040
// KiB to 1,713,668-1,726,124). p is empty afterwards.
func (p *Packed) Drain() (*WeightedGraph, []int32) {
	w, weight := p.unpack(true)
	p.chunks, p.n, p.entries = nil, 0, 0
	return w, weight
}

func (p *Packed) unpack(drain bool) (*WeightedGraph, []int32) {
	w := &WeightedGraph{Xadj: bigInt32s(p.n + 1), Adjncy: bigInt32s(p.entries)}
	if p.weighted {
		w.Adjwgt = bigInt32s(p.entries)
	}
	var weight []int32
	if p.vertexWeighted {
		weight = bigInt32s(p.n)
	}
	par.Do(len(p.chunks), func(c int) {
		lo, hi := p.bound(c)
		b := p.chunks[c].data
		at := 0
		var x uint64
		e := p.chunks[c].first
		for v := lo; v < hi; v++ {
			x, at = uvarint(b, at)
			end := e + int32(x)
			if weight != nil {
				x, at = uvarint(b, at)
				weight[v] = int32(x)
			}
			row := w.Adjncy[e:end]
			if w.Adjwgt == nil {
				for i := range row {
					x, at = uvarint(b, at)
					row[i] = int32(v) + unzigzag(x)
				}
			} else {
				wgt := w.Adjwgt[e:end]
				for i := range row {
					x, at = uvarint(b, at)
					wt := int32(1)
					if x&1 != 0 {
						var y uint64
						y, at = uvarint(b, at)
						wt = int32(y)
					}
					row[i], wgt[i] = int32(v)+unzigzag(x>>1), wt
				}
			}
			e = end
			w.Xadj[v+1] = end
		}
		if drain {
			releaseBytes(b)
			p.chunks[c].data = nil
		}
	})
	return w, weight
}

// Release gives the physical pages of the arrays back to the kernel, for
// arrays that are done with (packed, or used up) before they are dropped:
// the Go heap keeps the room of a freed array resident and hands it out
// again, and where the next arrays are smaller the rest stays resident for
// nothing (on the circuit5M stand-in 0.9 GB of its peak). Read again the
// arrays are zero.
func Release(arrays ...[]int32) {
	for _, s := range arrays {
		release(s)
	}
}

// PackedMap is a level's map (fine vertex to coarse vertex) stored
// compactly: each entry as its distance, zigzag varint, from one more than
// the largest before it. Coarse vertices are numbered in the order of their
// first member, so a first member costs one byte (0) and a second member
// the distance back to its partner's number, usually one byte too.
type PackedMap struct {
	n      int
	chunks []packedMapChunk
}

// packedMapChunk is the packed entries from lo on (to the next chunk's lo),
// the largest entry before them being top (-1: none).
type packedMapChunk struct {
	lo, top int32
	data    []byte
}

// Bytes is the room the packed map takes.
func (p *PackedMap) Bytes() int {
	b := 0
	for _, c := range p.chunks {
		b += len(c.data) + 32
	}
	return b
}

// PackMap packs m; chunks of packChunk entries are packed in parallel, as
// Pack's are.
func PackMap(m []int32) *PackedMap {
	chunks := max(1, (len(m)+packChunk-1)/packChunk)
	p := &PackedMap{n: len(m), chunks: make([]packedMapChunk, chunks)}
	for c := range chunks {
		p.chunks[c].lo = int32(int64(len(m)) * int64(c) / int64(chunks))
	}
	par.Do(chunks-1, func(c int) { // each chunk's largest entry, kept for now in the next one's top
		lo, hi := p.bound(c)
		top := int32(-1)
		for _, x := range m[lo:hi] {
			top = max(top, x)
		}
		p.chunks[c+1].top = top
	})
	p.chunks[0].top = -1
	for c := 1; c < chunks; c++ {
		p.chunks[c].top = max(p.chunks[c].top, p.chunks[c-1].top)
	}
	par.DoWith(chunks, func() *[]byte { return new([]byte) }, func(scratch *[]byte, c int) {
		lo, hi := p.bound(c)
		if need := 5 * (hi - lo); cap(*scratch) < need {
			*scratch = make([]byte, need)
		}
		b, at, top := (*scratch)[:cap(*scratch)], 0, p.chunks[c].top
		for _, x := range m[lo:hi] {
			at = putUvarint(b, at, zigzag(x-(top+1)))
			top = max(top, x)
		}
		p.chunks[c].data = slices.Clone(b[:at])
	})
	return p
}

// bound returns chunk c's entries [lo, hi).
func (p *PackedMap) bound(c int) (lo, hi int) {
	hi = p.n
	if c+1 < len(p.chunks) {
		hi = int(p.chunks[c+1].lo)
	}
	return int(p.chunks[c].lo), hi
}

// Unpack returns the map packed, in a fresh array; the chunks are unpacked
// in parallel.
func (p *PackedMap) Unpack() []int32 { return p.unpack(false) }

// Drain is Unpack that uses p up, as Packed.Drain does.
func (p *PackedMap) Drain() []int32 {
	m := p.unpack(true)
	p.chunks, p.n = nil, 0
	return m
}

func (p *PackedMap) unpack(drain bool) []int32 {
	m := bigInt32s(p.n)
	par.Do(len(p.chunks), func(c int) {
		lo, hi := p.bound(c)
		b, at, top := p.chunks[c].data, 0, p.chunks[c].top
		var d uint64
		for v := lo; v < hi; v++ {
			d, at = uvarint(b, at)
			x := top + 1 + unzigzag(d)
			m[v] = x
			top = max(top, x)
		}
		if drain {
			releaseBytes(b)
			p.chunks[c].data = nil
		}
	})
	return m
}

// putUvarint writes x as a varint at b[at:] and returns the index after
// it. Small enough to be inlined for the one-byte case, the common one.
func putUvarint(b []byte, at int, x uint64) int {
	if x < 0x80 {
		b[at] = byte(x)
		return at + 1
	}
	return putUvarintLong(b, at, x)
}

func putUvarintLong(b []byte, at int, x uint64) int {
	for x >= 0x80 {
		b[at] = byte(x) | 0x80
		x >>= 7
		at++
	}
	b[at] = byte(x)
	return at + 1
}

// uvarint reads the varint at b[at:] and returns it and the index after it.
func uvarint(b []byte, at int) (uint64, int) {
	if c := b[at]; c < 0x80 {
		return uint64(c), at + 1
	}
	return uvarintLong(b, at)
}

func uvarintLong(b []byte, at int) (uint64, int) {
	var x uint64
	for s := uint(0); ; s += 7 {
		c := b[at]
		at++
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x, at
		}
	}
}

// zigzag maps a signed distance to an unsigned one, small in magnitude to
// small (0, -1, 1, -2 ... to 0, 1, 2, 3 ...).
func zigzag(d int32) uint64 { return uint64(uint32(d<<1) ^ uint32(d>>31)) }

func unzigzag(x uint64) int32 { return int32(uint32(x>>1)) ^ -int32(uint32(x)&1) }
