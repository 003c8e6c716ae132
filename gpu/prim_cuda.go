//go:build cuda

package gpu

import (
	"fmt"
	"sync"
	"sync/atomic"

	"gorgonia.org/cu"
)

// primModules holds each open device's primitives module, loaded on the
// first use of a primitive there; entries of closed devices are dropped at
// the next lookup.
var primModules struct {
	sync.Mutex
	m map[*Device]*Module
}

// primModuleOf returns d's primitives module, loading it on first use;
// call it bound.
func primModuleOf(d *Device) (*Module, error) {
	primModules.Lock()
	defer primModules.Unlock()
	for dev := range primModules.m {
		if dev.closed {
			delete(primModules.m, dev)
		}
	}
	if m, ok := primModules.m[d]; ok {
		return m, nil
	}
	m, err := d.loadModule(primModule)
	if err != nil {
		return nil, err
	}
	if primModules.m == nil {
		primModules.m = map[*Device]*Module{}
	}
	primModules.m[d] = m
	return m, nil
}

// Prims runs the device-wide primitives on buffers already on the device,
// with scratch memory of its own sized once (NewPrims) for inputs of up to
// MaxN elements: repeated calls allocate no device memory. Work queues on
// the device's launch stream (the default stream, or Capture's) and the
// calls return without waiting. A Prims serves one stream of work at a time.
type Prims struct {
	d        *Device
	mod      *Module
	maxN     int
	cap      int      // tiles of the look-back status
	scratch  buffer   // see prim.cu
	sortTmp  buffer   // the sort's counts, keys and values; made on its first use
	sortVals bool     // sortTmp holds room for values
	mapped   *Mapped  // Select's count, posted by the kernel
	posted   cu.Event // recorded after the last Select outside a capture
	launches map[string]*launch
}

// NewPrims allocates the scratch for primitives of up to maxN elements
// (about 6 bytes per 1,000 elements, plus the sort's 2 or 3 words per
// element on its first use).
func (d *Device) NewPrims(maxN int) (*Prims, error) {
	if maxN < 0 || maxN > PrimMaxN {
		return nil, fmt.Errorf("gpu: primitives for %d elements (want 0 to %d)", maxN, PrimMaxN)
	}
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	p := &Prims{d: d, maxN: maxN, cap: primStatusCap(maxN), launches: map[string]*launch{}}
	if p.scratch, err = d.alloc(int64(primScratchWords(p.cap))*8, "the primitives' scratch"); err != nil {
		return nil, err
	}
	if err := cu.MemsetD8(p.scratch.ptr, 0, p.scratch.bytes); err != nil {
		p.scratch.free()
		return nil, fmt.Errorf("gpu: clearing the primitives' scratch: %w", err)
	}
	return p, nil
}

// MaxN is the largest length the Prims take.
func (p *Prims) MaxN() int { return p.maxN }

// Close frees the scratch (after the queued work is done).
func (p *Prims) Close() {
	if p == nil || p.d == nil {
		return
	}
	if p.mapped != nil {
		p.mapped.Close()
	}
	unbind, err := p.d.bind()
	if err != nil {
		return
	}
	defer unbind()
	_ = p.d.sync("freeing the primitives' scratch") // Close reports no error
	if p.posted != (cu.Event{}) {
		cu.DestroyEvent(&p.posted)
	}
	p.scratch.free()
	p.sortTmp.free()
	p.d = nil
}

// run launches kernel name, reusing its launch (no host allocation after
// the first call); call it bound.
func (p *Prims) run(name string, grid, block, shared int, args ...uint64) error {
	if p.mod == nil {
		m, err := primModuleOf(p.d)
		if err != nil {
			return err
		}
		p.mod = m
	}
	l := p.launches[name]
	if l == nil || len(l.args) != len(args) {
		fn, err := p.mod.function(name)
		if err != nil {
			return err
		}
		if l, err = p.d.prepare(fn, name, grid, block, shared, p.d.info.SharedPerBlock, append([]uint64(nil), args...)); err != nil {
			return err
		}
		p.launches[name] = l
	}
	l.grid, l.block, l.shared = grid, block, shared
	copy(l.args, args)
	return l.run()
}

// begin binds the device and checks the Prims are open.
func (p *Prims) begin() (func(), error) {
	if p == nil || p.d == nil {
		return nil, fmt.Errorf("gpu: the primitives are closed")
	}
	return p.d.bind()
}

// lenArgs are a length's two kernel arguments: the count's address (0 for
// a host length) and the bound.
func lenArgs(n Len) (uint64, uint64) {
	if n.Count == nil {
		return 0, Int(n.Max)
	}
	return Ptr(n.Count), Int(n.Max)
}

// optPtr is b's address, or 0 for nil.
func optPtr(b *Buffer) uint64 {
	if b == nil {
		return 0
	}
	return Ptr(b)
}

// checkBuf checks that b holds n elements of e.
func checkBuf(what string, b *Buffer, n int, e Elem) error {
	if b == nil {
		return fmt.Errorf("gpu: %s: no buffer", what)
	}
	if need := int64(n) * int64(e.Size()); b.Bytes() < need {
		return fmt.Errorf("gpu: %s holds %d bytes, %d elements of %s need %d", what, b.Bytes(), n, e, need)
	}
	return nil
}

// ExclusiveScan writes dst[i] = src[0] + ... + src[i-1] (dst[0] = 0) for i
// < n; see Scan.
func (p *Prims) ExclusiveScan(dst, src *Buffer, n Len, in, out Elem, total *Buffer) error {
	return p.Scan(dst, src, n, in, out, false, total)
}

// InclusiveScan writes dst[i] = src[0] + ... + src[i] for i < n; see Scan.
func (p *Prims) InclusiveScan(dst, src *Buffer, n Len, in, out Elem, total *Buffer) error {
	return p.Scan(dst, src, n, in, out, true, total)
}

// Scan is the prefix sum of n elements of src (of type in) into dst (of
// type out), modulo 2^(out's bits): int32 or uint32 into the same width,
// int32 into int64 (sign-extended), uint32 into uint64. Where total is not
// nil, the sum of all n (one element of out) goes there: an exclusive scan
// of degrees gives offsets and, in total, the edge count. dst may be src
// (in place) where in and out have the same width. One pass over the data
// (decoupled look-back), one launch.
func (p *Prims) Scan(dst, src *Buffer, n Len, in, out Elem, inclusive bool, total *Buffer) error {
	name, err := scanEntry(in, out, inclusive)
	if err != nil {
		return err
	}
	if err := p.checkIO("scan", dst, src, n, in, out); err != nil {
		return err
	}
	if total != nil && total.Bytes() < int64(out.Size()) {
		return fmt.Errorf("gpu: scan total: a buffer of %d bytes for a %s", total.Bytes(), out)
	}
	unbind, err := p.begin()
	if err != nil {
		return err
	}
	defer unbind()
	return p.scan(name, Ptr(dst), Ptr(src), n, optPtr(total))
}

func (p *Prims) scan(name string, dst, src uint64, n Len, total uint64) error {
	np, nmax := lenArgs(n)
	return p.run(name, primTiles(n.Max, primTile), primThreads, 0, src, dst, np, nmax, ptrArg(p.scratch), Int(p.cap), total)
}

// checkIO checks the sizes of a primitive's input and output.
func (p *Prims) checkIO(what string, dst, src *Buffer, n Len, in, out Elem) error {
	if err := checkLen(what, n, p.maxN); err != nil {
		return err
	}
	if err := checkBuf(what+" input", src, n.Max, in); err != nil {
		return err
	}
	return checkBuf(what+" output", dst, n.Max, out)
}

// Select writes, in order, the values[i] whose flags[i] is not zero (or
// the indices i, where values is nil) to dst, and their number, as an
// int32, to count (where not nil) and to the Prims (Selected reads it).
// values are 32-bit words; flags are uint8, int32 or uint32 (flag). dst
// must not overlap values or flags. One pass, one launch.
func (p *Prims) Select(dst, values, flags *Buffer, n Len, flag Elem, count *Buffer) error {
	name, err := selectEntry(flag)
	if err != nil {
		return err
	}
	if err := p.checkIO("select", dst, flags, n, flag, Uint32); err != nil {
		return err
	}
	if values != nil {
		if err := checkBuf("select values", values, n.Max, Uint32); err != nil {
			return err
		}
	}
	if count != nil && count.Bytes() < 4 {
		return fmt.Errorf("gpu: select count: a buffer of %d bytes for an int32", count.Bytes())
	}
	unbind, err := p.begin()
	if err != nil {
		return err
	}
	defer unbind()
	capturing := p.d.stream != (cu.Stream{})
	var post uint64
	if !capturing {
		if p.mapped == nil {
			if p.mapped, err = p.d.NewMapped(1); err != nil {
				return err
			}
			if p.posted, err = cu.MakeEvent(cu.DisableTiming); err != nil {
				return fmt.Errorf("gpu: creating an event: %w", err)
			}
		}
		post = p.mapped.Arg()
	}
	np, nmax := lenArgs(n)
	if err := p.run(name, primTiles(n.Max, primTile), primThreads, 0, optPtr(values), Ptr(flags), Ptr(dst), np, nmax,
		ptrArg(p.scratch), Int(p.cap), optPtr(count), post); err != nil {
		return err
	}
	if capturing {
		return nil
	}
	if err := p.posted.Record(cu.Stream{}); err != nil {
		return fmt.Errorf("gpu: recording an event: %w", err)
	}
	return nil
}

// Selected waits for the last Select queued outside a capture and returns
// its count. It waits on an event recorded after that Select, not for the
// whole device, and reads the count from page-locked host memory the kernel
// wrote: no copy. (Inside a graph, read the count buffer instead.)
func (p *Prims) Selected() (int, error) {
	if p == nil || p.mapped == nil {
		return 0, fmt.Errorf("gpu: Selected before any Select")
	}
	unbind, err := p.begin()
	if err != nil {
		return 0, err
	}
	defer unbind()
	if err := p.posted.Synchronize(); err != nil {
		return 0, fmt.Errorf("gpu: waiting for a select: %w", err)
	}
	w, err := p.mapped.word(0)
	if err != nil {
		return 0, err
	}
	return int(atomic.LoadUint64(w)), nil
}

// Reduce writes op over n elements of src (of type in) to the start of dst
// (one element of out): sums of int32 or uint32 into the same width
// (modulo 2^32) or into int64/uint64, min and max of int32 or uint32 into
// the same type. Empty input gives the identity (0; the type's largest
// value for Min, its smallest for Max). Exact and deterministic (integer
// operations). One launch.
func (p *Prims) Reduce(dst, src *Buffer, n Len, op ReduceOp, in, out Elem) error {
	name, err := reduceEntry(op, in, out)
	if err != nil {
		return err
	}
	if err := checkLen("reduce", n, p.maxN); err != nil {
		return err
	}
	if err := checkBuf("reduce input", src, n.Max, in); err != nil {
		return err
	}
	if err := checkBuf("reduce output", dst, 1, out); err != nil {
		return err
	}
	unbind, err := p.begin()
	if err != nil {
		return err
	}
	defer unbind()
	grid := min(primTiles(n.Max, primTile), 4*p.d.info.SMs, primMaxGrid)
	np, nmax := lenArgs(n)
	return p.run(name, grid, primThreads, 0, Ptr(src), Ptr(dst), np, nmax, ptrArg(p.scratch), Int(p.cap))
}

// Histogram counts n values (32-bit words) into counts (b.N uint32 words,
// overwritten) by b's rule. Two launches: a clear, then the count (in
// shared memory per block up to 12,288 bins, else with global atomics).
func (p *Prims) Histogram(counts, values *Buffer, n Len, b Bins) error {
	if err := checkBins(b); err != nil {
		return err
	}
	if err := checkLen("histogram", n, p.maxN); err != nil {
		return err
	}
	if err := checkBuf("histogram values", values, n.Max, Uint32); err != nil {
		return err
	}
	if err := checkBuf("histogram counts", counts, b.N, Uint32); err != nil {
		return err
	}
	unbind, err := p.begin()
	if err != nil {
		return err
	}
	defer unbind()
	if err := p.run("prim_fill", min(ceilDiv(b.N, primThreads), 1024), primThreads, 0, Ptr(counts), Int(b.N), 0); err != nil {
		return err
	}
	shared, useShared := 0, 0
	if b.N <= histSharedMax {
		shared, useShared = 4*b.N, 1
	}
	grid := max(1, min(ceilDiv(n.Max/4, primThreads), 4*p.d.info.SMs))
	mode, uns := 0, 0
	if b.Log2 {
		mode = 1
	}
	if b.Unsigned {
		uns = 1
	}
	np, nmax := lenArgs(n)
	return p.run("prim_histogram", grid, primThreads, shared, Ptr(values), np, nmax, Ptr(counts), Int(b.N),
		Int(int(b.Lo)), Int(int(b.Shift)), Int(mode), Int(uns), Int(useShared))
}

// Sort sorts n keys (int32 or uint32, key) in place, stably, by their low
// nbits bits (0: all 32; int32 keys only by all), and, where values is not
// nil, moves n 32-bit values with them. Least significant digit first, 8
// bits a pass: per pass a count of each tile's digits, a scan of the
// counts, and a scatter through shared memory (3 launches). The first call
// allocates the sort's scratch for MaxN keys (and values, when first sorting
// pairs).
func (p *Prims) Sort(keys, values *Buffer, n Len, key Elem, nbits int) error {
	passes, err := sortPasses(key, nbits)
	if err != nil {
		return err
	}
	if err := checkLen("sort", n, p.maxN); err != nil {
		return err
	}
	if err := checkBuf("sort keys", keys, n.Max, key); err != nil {
		return err
	}
	if values != nil {
		if err := checkBuf("sort values", values, n.Max, Uint32); err != nil {
			return err
		}
	}
	unbind, err := p.begin()
	if err != nil {
		return err
	}
	defer unbind()
	tiles := primTiles(n.Max, primSortTile)
	maxTiles := primTiles(p.maxN, primSortTile)
	countWords := int64(primRadix * maxTiles)
	if p.sortTmp.ptr == 0 || (values != nil && !p.sortVals) {
		if p.sortTmp.ptr != 0 {
			if err := p.d.sync("growing the sort's scratch"); err != nil {
				return err
			}
			p.sortTmp.free()
		}
		words := countWords + int64(p.maxN)
		if values != nil {
			words += int64(p.maxN)
		}
		if p.sortTmp, err = p.d.alloc(4*words, "the sort's scratch"); err != nil {
			return err
		}
		p.sortVals = values != nil
	}
	counts := uint64(p.sortTmp.ptr)
	altKeys := counts + uint64(4*countWords)
	altVals := altKeys + uint64(4*p.maxN)
	var flip uint64
	if key == Int32 {
		flip = 1 << 31
	}
	np, nmax := lenArgs(n)
	srcK, dstK, srcV, dstV := Ptr(keys), altKeys, optPtr(values), uint64(0)
	if values != nil {
		dstV = altVals
	}
	ncounts := primRadix * tiles
	for _, pass := range passes {
		shift, width := uint64(pass[0]), uint64(pass[1])
		if err := p.run("prim_radix_count", tiles, primThreads, 0, srcK, np, nmax, counts, shift, width, flip); err != nil {
			return err
		}
		if err := p.scan("prim_scan_ex_32", counts, counts, HostLen(ncounts), 0); err != nil {
			return err
		}
		if err := p.run("prim_radix_scatter", tiles, primThreads, 0, srcK, srcV, dstK, dstV, np, nmax, counts, shift, width, flip); err != nil {
			return err
		}
		srcK, dstK = dstK, srcK
		srcV, dstV = dstV, srcV
	}
	if len(passes)%2 == 1 {
		grid := max(1, min(ceilDiv(n.Max, primThreads), 8*p.d.info.SMs))
		if err := p.run("prim_copy", grid, primThreads, 0, Ptr(keys), srcK, np, nmax); err != nil {
			return err
		}
		if values != nil {
			return p.run("prim_copy", grid, primThreads, 0, Ptr(values), srcV, np, nmax)
		}
	}
	return nil
}
