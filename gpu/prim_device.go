package gpu

// Prims is written on the package's exported API alone (Module, Launch,
// Buffer), so that it builds the same with and without CUDA: without it no
// Device opens, and NewPrims refuses the nil one.

import (
	"errors"
	"fmt"
)

// Prims runs the device-wide primitives on buffers already on the device,
// with scratch memory of its own sized once (NewPrims) for inputs of up to
// MaxN elements: repeated calls allocate no device memory. Work queues on
// the device's launch stream (the default stream, or Capture's) and the
// calls return without waiting. A Prims serves one stream of work at a time.
type Prims struct {
	d        *Device
	mod      *Module
	maxN     int
	cap      int     // tiles of the look-back status
	scratch  *Buffer // see prim.cu
	count    *Buffer // the last Select's count, a uint64
	sortTmp  *Buffer // the sort's counts, keys and values; made on its first use
	sortVals bool    // sortTmp holds room for values
}

// NewPrims allocates the scratch for primitives of up to maxN elements
// (about 6 bytes per 1,000 elements, plus the sort's 2 or 3 words per
// element on its first use).
func (d *Device) NewPrims(maxN int) (*Prims, error) {
	if d == nil {
		return nil, errors.New("gpu: primitives need an open device")
	}
	if maxN < 0 || maxN > PrimMaxN {
		return nil, fmt.Errorf("gpu: primitives for %d elements (want 0 to %d)", maxN, PrimMaxN)
	}
	p := &Prims{d: d, maxN: maxN, cap: primStatusCap(maxN)}
	var err error
	if p.scratch, err = d.Alloc(int64(primScratchWords(p.cap))*8, "the primitives' scratch"); err != nil {
		return nil, err
	}
	if p.count, err = d.Alloc(8, "the primitives' count"); err != nil {
		p.scratch.Free()
		return nil, err
	}
	if err := p.scratch.Zero(); err != nil {
		p.Close()
		return nil, err
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
	_ = p.d.Sync("freeing the primitives' scratch") // Close reports no error
	p.scratch.Free()
	p.count.Free()
	if p.sortTmp != nil {
		p.sortTmp.Free()
	}
	p.d = nil
}

// ready refuses a nil or closed Prims.
func (p *Prims) ready() error {
	if p == nil || p.d == nil {
		return errors.New("gpu: the primitives are closed")
	}
	return nil
}

// run launches kernel name on the device's launch stream.
func (p *Prims) run(name string, grid, block, shared int, args ...uint64) error {
	if p.mod == nil {
		// LoadModule returns the device's copy where it has one.
		m, err := p.d.LoadModule(primModule)
		if err != nil {
			return err
		}
		p.mod = m
	}
	l, err := p.mod.Launch(name, grid, block, shared, args...)
	if err != nil {
		return err
	}
	return l.Run()
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
	if err := p.ready(); err != nil {
		return err
	}
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
	return p.scan(name, Ptr(dst), Ptr(src), n, optPtr(total))
}

func (p *Prims) scan(name string, dst, src uint64, n Len, total uint64) error {
	np, nmax := lenArgs(n)
	return p.run(name, primTiles(n.Max, primTile), primThreads, 0, src, dst, np, nmax, Ptr(p.scratch), Int(p.cap), total)
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
	if err := p.ready(); err != nil {
		return err
	}
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
	np, nmax := lenArgs(n)
	return p.run(name, primTiles(n.Max, primTile), primThreads, 0, optPtr(values), Ptr(flags), Ptr(dst), np, nmax,
		Ptr(p.scratch), Int(p.cap), optPtr(count), Ptr(p.count))
}

// Selected returns the count of the last Select queued on the default
// stream (also within a graph launched since): it waits for the work queued
// there, not for the whole device, and copies 8 bytes.
func (p *Prims) Selected() (int, error) {
	if err := p.ready(); err != nil {
		return 0, err
	}
	var c [1]uint64
	if err := ReadBack(p.count, c[:], "the select's count"); err != nil {
		return 0, err
	}
	return int(c[0]), nil
}

// Reduce writes op over n elements of src (of type in) to the start of dst
// (one element of out): sums of int32 or uint32 into the same width
// (modulo 2^32) or into int64/uint64, min and max of int32 or uint32 into
// the same type. Empty input gives the identity (0; the type's largest
// value for Min, its smallest for Max). Exact and deterministic (integer
// operations). One launch.
func (p *Prims) Reduce(dst, src *Buffer, n Len, op ReduceOp, in, out Elem) error {
	if err := p.ready(); err != nil {
		return err
	}
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
	grid := min(primTiles(n.Max, primTile), 4*p.d.Info().SMs, primMaxGrid)
	np, nmax := lenArgs(n)
	return p.run(name, grid, primThreads, 0, Ptr(src), Ptr(dst), np, nmax, Ptr(p.scratch), Int(p.cap))
}

// Histogram counts n values (32-bit words) into counts (b.N uint32 words,
// overwritten) by b's rule. Two launches: a clear, then the count (in
// shared memory per block up to 12,288 bins, else with global atomics).
func (p *Prims) Histogram(counts, values *Buffer, n Len, b Bins) error {
	if err := p.ready(); err != nil {
		return err
	}
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
	if err := p.run("prim_fill", min(ceilDiv(b.N, primThreads), 1024), primThreads, 0, Ptr(counts), Int(b.N), 0); err != nil {
		return err
	}
	shared, useShared := 0, 0
	if b.N <= histSharedMax {
		shared, useShared = 4*b.N, 1
	}
	grid := max(1, min(ceilDiv(n.Max/4, primThreads), 4*p.d.Info().SMs))
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
	if err := p.ready(); err != nil {
		return err
	}
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
	tiles := primTiles(n.Max, primSortTile)
	maxTiles := primTiles(p.maxN, primSortTile)
	countWords := int64(primRadix * maxTiles)
	if p.sortTmp == nil || (values != nil && !p.sortVals) {
		if p.sortTmp != nil {
			if err := p.d.Sync("growing the sort's scratch"); err != nil {
				return err
			}
			p.sortTmp.Free()
		}
		words := countWords + int64(p.maxN)
		if values != nil {
			words += int64(p.maxN)
		}
		var err error
		if p.sortTmp, err = p.d.Alloc(4*words, "the sort's scratch"); err != nil {
			return err
		}
		p.sortVals = values != nil
	}
	counts := Ptr(p.sortTmp)
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
		grid := max(1, min(ceilDiv(n.Max, primThreads), 8*p.d.Info().SMs))
		if err := p.run("prim_copy", grid, primThreads, 0, Ptr(keys), srcK, np, nmax); err != nil {
			return err
		}
		if values != nil {
			return p.run("prim_copy", grid, primThreads, 0, Ptr(values), srcV, np, nmax)
		}
	}
	return nil
}
