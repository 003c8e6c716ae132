//go:build cuda

// GPU tests of the device-wide primitives: every primitive against its CPU
// reference (prim_ref_test.go) at sizes around every warp, tile and grid
// boundary up to 2^27, on adversarial data; lengths on the device; a graph
// capture; a loop of calls that must leave the scratch reusable. With
// SPAC_PRIM_BENCH=1, TestPrimBench prints the benchmark table.
//
//	scripts/gpu-build.sh
//	bin/gpu/gpu.test -test.run 'Prim' -test.v     # on the GPU machine
package gpu

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
)

var primDev struct {
	once sync.Once
	d    *Device
	err  error
}

// primDevice opens device 0 once for the primitives' tests (never closed:
// the process ends).
func primDevice(t testing.TB) *Device {
	t.Helper()
	primDev.once.Do(func() { primDev.d, primDev.err = Open(0) })
	if primDev.err != nil {
		t.Fatal(primDev.err)
	}
	return primDev.d
}

const primTestMax = 1 << 27

var primTestPrims struct {
	once sync.Once
	p    *Prims
	err  error
}

func testPrims(t testing.TB) *Prims {
	t.Helper()
	d := primDevice(t)
	primTestPrims.once.Do(func() { primTestPrims.p, primTestPrims.err = d.NewPrims(primTestMax) })
	if primTestPrims.err != nil {
		t.Fatal(primTestPrims.err)
	}
	return primTestPrims.p
}

// primSizes are the lengths every primitive is tested at; large adds
// 2^24 and 2^27.
func primSizes(large bool) []int {
	s := []int{0, 1, 2, 3, 4, 5, 31, 32, 33, 127, 128, 129, 511, 512, 513, 1023, 1024, 1025,
		primTile - 1, primTile, primTile + 1, 2*primTile - 1, 2*primTile + 1, 33*primTile + 7, 1<<20 - 1, 1 << 20}
	r := rand.New(rand.NewPCG(1, 2))
	for range 4 {
		s = append(s, 1+r.IntN(3<<18))
	}
	if large {
		s = append(s, 1<<24+3, primTestMax)
	}
	return s
}

// primData makes n words of a kind of data.
func primData(kind string, n int, seed uint64) []uint32 {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	s := make([]uint32, n)
	for i := range s {
		switch kind {
		case "zeros":
		case "ones":
			s[i] = 1
		case "minus-one":
			s[i] = 0xffffffff
		case "int-max": // overflows an int32 sum at the second element
			s[i] = 1<<31 - 1
		case "alternating":
			s[i] = uint32(i & 1)
		case "small":
			s[i] = uint32(r.IntN(64))
		case "random":
			s[i] = r.Uint32()
		case "sparse": // one in 20 set
			if r.IntN(20) == 0 {
				s[i] = 1 + uint32(r.IntN(100))
			}
		case "descending":
			s[i] = uint32(n - i)
		default:
			panic(kind)
		}
	}
	return s
}

func upload32(t testing.TB, d *Device, s []uint32) *Buffer {
	t.Helper()
	b, err := Upload(d, s, "test data")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func alloc(t testing.TB, d *Device, bytes int) *Buffer {
	t.Helper()
	b, err := d.Alloc(int64(bytes), "test output")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// down copies the first n elements of b back.
func down[T any](t testing.TB, b *Buffer, n int) []T {
	t.Helper()
	s := make([]T, n)
	if err := Download(b, s, "test output"); err != nil {
		t.Fatal(err)
	}
	return s
}

func down32(t testing.TB, b *Buffer, n int) []uint32 { return down[uint32](t, b, n) }
func down64(t testing.TB, b *Buffer, n int) []uint64 { return down[uint64](t, b, n) }

// downScan reads a scan's n outputs of out's width as 64-bit words.
func downScan(t testing.TB, b *Buffer, n int, out Elem) []uint64 {
	if out.Size() == 8 {
		return down64(t, b, n)
	}
	got := make([]uint64, n)
	for i, v := range down32(t, b, n) {
		got[i] = uint64(v)
	}
	return got
}

// firstDiff returns the first index where got and want differ, or -1.
func firstDiff[T comparable](got, want []T) int {
	if len(got) != len(want) {
		return min(len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

func TestPrimModuleSource(t *testing.T) {
	if err := primModule.CheckSource(ReadKernelSource(t, "gpu/kernels/prim.cu")); err != nil {
		t.Fatal(err)
	}
}

func TestPrimScan(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	total := alloc(t, d, 8)
	defer total.Free()
	for _, n := range primSizes(true) {
		kinds := []string{"random", "int-max", "minus-one", "ones"}
		if n >= 1<<24 {
			kinds = []string{"int-max"}
		}
		for _, kind := range kinds {
			src := primData(kind, n, 1)
			in := upload32(t, d, src)
			for _, c := range []struct{ in, out Elem }{{Int32, Int32}, {Uint32, Uint32}, {Int32, Int64}, {Uint32, Uint64}} {
				if n >= 1<<24 && c.in == Uint32 {
					continue
				}
				out := alloc(t, d, n*c.out.Size())
				for _, incl := range []bool{false, true} {
					what := fmt.Sprintf("scan n=%d %s %s->%s inclusive=%v", n, kind, c.in, c.out, incl)
					if err := p.Scan(out, in, HostLen(n), c.in, c.out, incl, total); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					want := cpuScan(src, c.in, c.out, incl)
					got := downScan(t, out, n, c.out)
					if i := firstDiff(got, want); i >= 0 {
						t.Errorf("%s: element %d: got %d, want %d", what, i, got[i], want[i])
					}
					wantTotal := cpuReduce(src, Sum, c.in, c.out)
					if tot := down64(t, total, 1)[0]; c.out.Size() == 4 && uint32(tot) != uint32(wantTotal) || c.out.Size() == 8 && tot != wantTotal {
						t.Errorf("%s: total %d, want %d", what, tot, wantTotal)
					}
				}
				out.Free()
			}
			in.Free()
		}
	}
}

func TestPrimScanInPlace(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	n := 3*primTile + 17
	src := primData("small", n, 3)
	b := upload32(t, d, src)
	defer b.Free()
	if err := p.ExclusiveScan(b, b, HostLen(n), Int32, Int32, nil); err != nil {
		t.Fatal(err)
	}
	want := cpuScan(src, Int32, Int32, false)
	got := down32(t, b, n)
	for i := range got {
		if uint64(got[i]) != want[i] {
			t.Fatalf("in place: element %d: got %d, want %d", i, got[i], want[i])
		}
	}
}

func TestPrimSelect(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	count := alloc(t, d, 4)
	defer count.Free()
	for _, n := range primSizes(true) {
		kinds := []string{"random", "alternating", "zeros", "ones", "sparse"}
		if n >= 1<<24 {
			kinds = []string{"alternating"}
		}
		vals := primData("random", n, 7)
		vb := upload32(t, d, vals)
		out := alloc(t, d, 4*n)
		for _, kind := range kinds {
			flags := primData(kind, n, 5)
			f8 := make([]uint8, n)
			for i, f := range flags {
				if f != 0 {
					f8[i] = uint8(1 + f%255)
				}
			}
			fb32 := upload32(t, d, flags)
			fb8, err := Upload(d, f8, "flags")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				flag    Elem
				fb      *Buffer
				indices bool
			}{{Uint8, fb8, false}, {Uint32, fb32, false}, {Uint8, fb8, true}, {Int32, fb32, true}} {
				if n >= 1<<24 && c.flag != Uint8 {
					continue
				}
				what := fmt.Sprintf("select n=%d flags %s (%s) indices=%v", n, kind, c.flag, c.indices)
				src := vb
				if c.indices {
					src = nil
				}
				if err := p.Select(out, src, c.fb, HostLen(n), c.flag, count); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				sel, err := p.Selected()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				var want []uint32
				if c.indices {
					want = cpuSelect(nil, flags, n)
				} else {
					want = cpuSelect(vals, flags, n)
				}
				if sel != len(want) {
					t.Errorf("%s: Selected %d, want %d", what, sel, len(want))
				}
				if dc := int(int32(down32(t, count, 1)[0])); dc != len(want) {
					t.Errorf("%s: count on the device %d, want %d", what, dc, len(want))
				}
				got := down32(t, out, len(want))
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("%s: element %d: got %d, want %d", what, i, got[i], want[i])
				}
			}
			fb32.Free()
			fb8.Free()
		}
		out.Free()
		vb.Free()
	}
}

func TestPrimReduce(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	dst := alloc(t, d, 8)
	defer dst.Free()
	for _, n := range primSizes(true) {
		kinds := []string{"random", "int-max", "minus-one", "descending"}
		if n >= 1<<24 {
			kinds = []string{"random"}
		}
		for _, kind := range kinds {
			src := primData(kind, n, 11)
			in := upload32(t, d, src)
			for _, c := range []struct {
				op      ReduceOp
				in, out Elem
			}{{Sum, Int32, Int32}, {Sum, Int32, Int64}, {Sum, Uint32, Uint64}, {Min, Int32, Int32}, {Max, Int32, Int32}, {Min, Uint32, Uint32}, {Max, Uint32, Uint32}} {
				what := fmt.Sprintf("reduce n=%d %s %s %s->%s", n, kind, c.op, c.in, c.out)
				if err := p.Reduce(dst, in, HostLen(n), c.op, c.in, c.out); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				got := down64(t, dst, 1)[0]
				if c.out.Size() == 4 {
					got = uint64(uint32(got))
				}
				if want := cpuReduce(src, c.op, c.in, c.out); got != want {
					t.Errorf("%s: got %d, want %d", what, got, want)
				}
			}
			in.Free()
		}
	}
}

func TestPrimHistogram(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	for _, n := range primSizes(true) {
		kinds := []string{"random", "zeros", "small", "descending"}
		if n >= 1<<24 {
			kinds = []string{"random"}
		}
		for _, kind := range kinds {
			src := primData(kind, n, 13)
			in := upload32(t, d, src)
			for _, b := range []Bins{{N: 64}, {N: 256, Lo: -1000, Shift: 3}, {N: 33, Log2: true}, {N: 33, Log2: true, Unsigned: true},
				{N: 1 << 16, Shift: 16, Unsigned: true}, {N: 1 << 20, Shift: 12, Unsigned: true}} {
				what := fmt.Sprintf("histogram n=%d %s %+v", n, kind, b)
				counts := alloc(t, d, 4*b.N)
				if err := p.Histogram(counts, in, HostLen(n), b); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				want := cpuHistogram(src, b)
				got := down32(t, counts, b.N)
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("%s: bin %d: got %d, want %d", what, i, got[i], want[i])
				}
				counts.Free()
			}
			in.Free()
		}
	}
}

// checkSorted checks keys (sorted from orig, as key) and vals (the
// original indices moved with them): ordered, stable, and a permutation.
func checkSorted(orig, keys, vals []uint32, key Elem, nbits int) error {
	mask := uint32(1<<nbits - 1)
	if nbits == 32 || nbits == 0 {
		mask = 0xffffffff
	}
	ord := func(k uint32) int64 {
		if key == Int32 {
			return int64(int32(k))
		}
		return int64(k & mask)
	}
	seen := make([]bool, len(orig))
	for i := range keys {
		v := vals[i]
		if int(v) >= len(orig) || seen[v] {
			return fmt.Errorf("value %d at %d: not a permutation", v, i)
		}
		seen[v] = true
		if keys[i] != orig[v] {
			return fmt.Errorf("key %d at %d came with value %d, whose key is %d", keys[i], i, v, orig[v])
		}
		if i > 0 {
			a, b := ord(keys[i-1]), ord(keys[i])
			if a > b {
				return fmt.Errorf("keys %d, %d at %d out of order", keys[i-1], keys[i], i)
			}
			if a == b && vals[i-1] > vals[i] {
				return fmt.Errorf("equal keys at %d not stable (values %d, %d)", i, vals[i-1], vals[i])
			}
		}
	}
	return nil
}

func TestPrimSort(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	for _, n := range primSizes(true) {
		kinds := []string{"random", "zeros", "small", "descending", "minus-one"}
		if n >= 1<<24 {
			kinds = []string{"random"}
		}
		for _, kind := range kinds {
			orig := primData(kind, n, 17)
			idx := make([]uint32, n)
			for i := range idx {
				idx[i] = uint32(i)
			}
			for _, c := range []struct {
				key   Elem
				nbits int
				pairs bool
			}{{Int32, 0, true}, {Uint32, 32, true}, {Uint32, 12, true}, {Uint32, 0, false}} {
				if n >= 1<<24 && c != (struct {
					key   Elem
					nbits int
					pairs bool
				}{Int32, 0, true}) {
					continue
				}
				what := fmt.Sprintf("sort n=%d %s %s bits=%d pairs=%v", n, kind, c.key, c.nbits, c.pairs)
				kb := upload32(t, d, orig)
				var vb *Buffer
				if c.pairs {
					vb = upload32(t, d, idx)
				}
				if err := p.Sort(kb, vb, HostLen(n), c.key, c.nbits); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				keys := down32(t, kb, n)
				if c.pairs {
					if err := checkSorted(orig, keys, down32(t, vb, n), c.key, c.nbits); err != nil {
						t.Errorf("%s: %v", what, err)
					}
					vb.Free()
				} else {
					// Keys alone: ordered, and the same multiset (its sum and
					// xor, cheaply).
					var s1, s2, x1, x2 uint64
					for i := range keys {
						s1, x1 = s1+uint64(keys[i]), x1^uint64(keys[i])*0x9e3779b97f4a7c15
						s2, x2 = s2+uint64(orig[i]), x2^uint64(orig[i])*0x9e3779b97f4a7c15
						if i > 0 && keys[i-1] > keys[i] {
							t.Errorf("%s: keys %d, %d at %d out of order", what, keys[i-1], keys[i], i)
							break
						}
					}
					if s1 != s2 || x1 != x2 {
						t.Errorf("%s: not the input's keys", what)
					}
				}
				kb.Free()
			}
		}
	}
}

// TestPrimDeviceLen: lengths read from the device, each kernel's grid
// sized for the bound; nothing past the length is written.
func TestPrimDeviceLen(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	const max = 5*primTile + 3
	src := primData("small", max, 19)
	in := upload32(t, d, src)
	defer in.Free()
	out := alloc(t, d, 8*max)
	defer out.Free()
	cnt := alloc(t, d, 4)
	defer cnt.Free()
	sentinel := make([]uint32, 2*max)
	for i := range sentinel {
		sentinel[i] = 0xdeadbeef
	}
	for _, n := range []int{0, 1, 600, primTile, 3*primTile + 1, max, max + 100, -5} {
		nb := upload32(t, d, []uint32{uint32(int32(n))})
		eff := min(max, n)
		if eff < 0 {
			eff = 0
		}
		s, err := Upload(d, sentinel, "sentinel")
		if err != nil {
			t.Fatal(err)
		}
		if err := out.CopyFrom(s); err != nil {
			t.Fatal(err)
		}
		s.Free()
		if err := p.Scan(out, in, DeviceLen(nb, max), Int32, Int64, false, nil); err != nil {
			t.Fatal(err)
		}
		got := down64(t, out, max)
		want := cpuScan(src[:eff], Int32, Int64, false)
		if i := firstDiff(got[:eff], want); i >= 0 {
			t.Errorf("scan of device length %d: element %d: got %d, want %d", n, i, got[i], want[i])
		}
		for i := eff; i < max; i++ {
			if got[i] != 0xdeadbeefdeadbeef {
				t.Errorf("scan of device length %d wrote element %d", n, i)
				break
			}
		}
		if err := p.Select(out, nil, in, DeviceLen(nb, max), Int32, cnt); err != nil {
			t.Fatal(err)
		}
		want32 := cpuSelect(nil, src, eff)
		if c := int(down32(t, cnt, 1)[0]); c != len(want32) {
			t.Errorf("select of device length %d: count %d, want %d", n, c, len(want32))
		}
		if err := p.Reduce(out, in, DeviceLen(nb, max), Max, Int32, Int32); err != nil {
			t.Fatal(err)
		}
		if got, want := down32(t, out, 1)[0], uint32(cpuReduce(src[:eff], Max, Int32, Int32)); got != want {
			t.Errorf("max of device length %d: %d, want %d", n, got, want)
		}
		nb.Free()
	}
}

// TestPrimFrontierLoop is a traversal's shape: select a frontier, scan its
// degrees, reduce, histogram, sort, again and again on shrinking and
// growing lengths, on the device's lengths, then the same queued as a
// captured graph launched twice. The scratch must be right every time
// without being cleared.
func TestPrimFrontierLoop(t *testing.T) {
	d, p := primDevice(t), testPrims(t)
	const max = 200_000
	flagsAll := primData("random", max, 23)
	degrees := primData("small", max, 29)
	fb := upload32(t, d, flagsAll)
	defer fb.Free()
	db := upload32(t, d, degrees)
	defer db.Free()
	front := alloc(t, d, 4*max)
	defer front.Free()
	offs := alloc(t, d, 8*max)
	defer offs.Free()
	cnt := alloc(t, d, 4)
	defer cnt.Free()
	tot := alloc(t, d, 8)
	defer tot.Free()
	// step queues one iteration: select the flagged indices among the
	// first n, then scan the first count "degrees", count as the select
	// left it on the device.
	step := func(n int) error {
		if err := p.Select(front, nil, fb, HostLen(n), Uint32, cnt); err != nil {
			return err
		}
		return p.Scan(offs, db, DeviceLen(cnt, max), Uint32, Uint64, false, tot)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for it := range 40 {
		n := r.IntN(max + 1)
		if it%7 == 0 {
			n = r.IntN(50)
		}
		if err := step(n); err != nil {
			t.Fatal(err)
		}
		sel := cpuSelect(nil, flagsAll, n)
		got, err := p.Selected()
		if err != nil {
			t.Fatal(err)
		}
		if got != len(sel) {
			t.Fatalf("iteration %d (n %d): %d selected, want %d", it, n, got, len(sel))
		}
		want := cpuScan(degrees[:len(sel)], Uint32, Uint64, false)
		gotOffs := down64(t, offs, len(sel))
		if i := firstDiff(gotOffs, want); i >= 0 {
			t.Fatalf("iteration %d (n %d): offset %d: got %d, want %d", it, n, i, gotOffs[i], want[i])
		}
		if it%5 == 0 { // other primitives in between share the scratch
			if err := p.Reduce(tot, db, HostLen(n), Sum, Uint32, Uint64); err != nil {
				t.Fatal(err)
			}
			kb := upload32(t, d, degrees[:max/2])
			if err := p.Sort(kb, nil, HostLen(max/2), Uint32, 6); err != nil {
				t.Fatal(err)
			}
			kb.Free()
		}
	}
	// The same, captured: the kernels read the count the select wrote.
	n := max - 12345
	g, err := d.Capture(func() error { return step(n) })
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sel := cpuSelect(nil, flagsAll, n)
	want := cpuScan(degrees[:len(sel)], Uint32, Uint64, false)
	for rep := range 2 {
		if err := offs.Zero(); err != nil {
			t.Fatal(err)
		}
		if err := g.Launch(); err != nil {
			t.Fatal(err)
		}
		if c := int(down32(t, cnt, 1)[0]); c != len(sel) {
			t.Fatalf("graph launch %d: count %d, want %d", rep, c, len(sel))
		}
		gotOffs := down64(t, offs, len(sel))
		if i := firstDiff(gotOffs, want); i >= 0 {
			t.Fatalf("graph launch %d: offset %d: got %d, want %d", rep, i, gotOffs[i], want[i])
		}
	}
}

func TestPrimArgumentsOnDevice(t *testing.T) {
	d := primDevice(t)
	p, err := d.NewPrims(1000)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	small := alloc(t, d, 4*10)
	defer small.Free()
	big := alloc(t, d, 8*2000)
	defer big.Free()
	for what, err := range map[string]error{
		"over MaxN":         p.ExclusiveScan(big, big, HostLen(1001), Int32, Int32, nil),
		"small output":      p.ExclusiveScan(small, big, HostLen(100), Int32, Int32, nil),
		"small int64 out":   p.InclusiveScan(small, big, HostLen(6), Int32, Int64, nil),
		"no such scan":      p.ExclusiveScan(big, big, HostLen(10), Int64, Int64, nil),
		"small flags":       p.Select(big, big, small, HostLen(100), Uint32, nil),
		"select into int64": p.Select(big, big, big, HostLen(10), Int64, nil),
		"bins":              p.Histogram(big, big, HostLen(10), Bins{N: 0}),
		"sort int64":        p.Sort(big, nil, HostLen(10), Int64, 0),
	} {
		if err == nil {
			t.Errorf("%s: no error", what)
		}
	}
	if _, err := d.NewPrims(-1); err == nil {
		t.Error("NewPrims(-1) passed")
	}
}

// TestPrimBench prints the benchmark table (SPAC_PRIM_BENCH=1; n from
// SPAC_PRIM_BENCH_N, default 2^26): median of 20 repetitions, GB/s of the
// minimum traffic, the fraction of a device-to-device copy's bandwidth
// measured in the same run, every result checked against the CPU.
func TestPrimBench(t *testing.T) {
	if os.Getenv("SPAC_PRIM_BENCH") == "" {
		t.Skip("SPAC_PRIM_BENCH=1 runs the benchmark")
	}
	n := 1 << 26
	if s := os.Getenv("SPAC_PRIM_BENCH_N"); s != "" {
		fmt.Sscan(s, &n)
	}
	d, p := primDevice(t), testPrims(t)
	const reps = 20
	copyT, copyBW, err := d.CopyBandwidth(int64(4*n), reps)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("device: %s\n", d.Info())
	fmt.Printf("copy bandwidth (2 x %d bytes, median of %d): %.3f ms, %.0f GB/s\n\n", 4*n, reps, ms2(copyT), copyBW/1e9)
	fmt.Printf("| primitive | n | median ms | GB/s | of copy | Gelem/s | checked against CPU |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, tm Timing, bytes float64, check func() error) {
		t.Helper()
		ok := "yes"
		if err := check(); err != nil {
			t.Errorf("%s: %v", name, err)
			ok = "NO: " + err.Error()
		}
		bw := bytes / tm.Median.Seconds()
		fmt.Printf("| %s | %d | %.3f | %.0f | %.0f%% | %.2f | %s |\n", name, n, ms2(tm), bw/1e9, 100*bw/copyBW, float64(n)/tm.Median.Seconds()/1e9, ok)
	}
	timeOp := func(name string, op func() error) Timing {
		t.Helper()
		tm, err := d.Time(op, 3, reps, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return tm
	}
	src := primData("small", n, 31)
	in := upload32(t, d, src)
	defer in.Free()
	out := alloc(t, d, 8*n)
	defer out.Free()
	small := alloc(t, d, 8)
	defer small.Free()
	for _, c := range []struct {
		in, out Elem
		incl    bool
	}{{Int32, Int32, false}, {Int32, Int32, true}, {Int32, Int64, false}} {
		name := fmt.Sprintf("scan %s->%s %s", c.in, c.out, map[bool]string{false: "exclusive", true: "inclusive"}[c.incl])
		tm := timeOp(name, func() error { return p.Scan(out, in, HostLen(n), c.in, c.out, c.incl, small) })
		row(name, tm, float64(n)*float64(4+c.out.Size()), func() error {
			want := cpuScan(src, c.in, c.out, c.incl)
			got := downScan(t, out, n, c.out)
			if i := firstDiff(got, want); i >= 0 {
				return fmt.Errorf("element %d: got %d, want %d", i, got[i], want[i])
			}
			return nil
		})
	}
	flags := primData("random", n, 37)
	for i := range flags {
		flags[i] &= 1
	}
	f8 := make([]uint8, n)
	for i, f := range flags {
		f8[i] = uint8(f)
	}
	fb32 := upload32(t, d, flags)
	defer fb32.Free()
	fb8, err := Upload(d, f8, "flags")
	if err != nil {
		t.Fatal(err)
	}
	defer fb8.Free()
	kept := len(cpuSelect(nil, flags, n))
	for _, c := range []struct {
		name    string
		fb      *Buffer
		flag    Elem
		indices bool
	}{{"select values, uint8 flags (1/2 kept)", fb8, Uint8, false}, {"select values, int32 flags (1/2 kept)", fb32, Int32, false}, {"select indices, uint8 flags (1/2 kept)", fb8, Uint8, true}} {
		vals := in
		bytes := float64(n*c.flag.Size() + 4*kept)
		if c.indices {
			vals = nil
		} else {
			bytes += float64(4 * n)
		}
		tm := timeOp(c.name, func() error { return p.Select(out, vals, c.fb, HostLen(n), c.flag, small) })
		row(c.name, tm, bytes, func() error {
			var want []uint32
			if c.indices {
				want = cpuSelect(nil, flags, n)
			} else {
				want = cpuSelect(src, flags, n)
			}
			got := down32(t, out, len(want))
			if cnt := int(down32(t, small, 1)[0]); cnt != len(want) {
				return fmt.Errorf("count %d, want %d", cnt, len(want))
			}
			if i := firstDiff(got, want); i >= 0 {
				return fmt.Errorf("element %d: got %d, want %d", i, got[i], want[i])
			}
			return nil
		})
	}
	for _, c := range []struct {
		op      ReduceOp
		in, out Elem
	}{{Sum, Int32, Int32}, {Sum, Int32, Int64}, {Max, Int32, Int32}} {
		name := fmt.Sprintf("reduce %s %s->%s", c.op, c.in, c.out)
		tm := timeOp(name, func() error { return p.Reduce(small, in, HostLen(n), c.op, c.in, c.out) })
		row(name, tm, float64(4*n), func() error {
			got := down64(t, small, 1)[0]
			if c.out.Size() == 4 {
				got = uint64(uint32(got))
			}
			if want := cpuReduce(src, c.op, c.in, c.out); got != want {
				return fmt.Errorf("got %d, want %d", got, want)
			}
			return nil
		})
	}
	rnd := primData("random", n, 41)
	rb := upload32(t, d, rnd)
	defer rb.Free()
	for _, c := range []struct {
		name string
		b    Bins
		data []uint32
		buf  *Buffer
	}{{"histogram 256 bins (random)", Bins{N: 256, Shift: 24, Unsigned: true}, rnd, rb}, {"histogram log2, 33 bins (random)", Bins{N: 33, Log2: true, Unsigned: true}, rnd, rb},
		{"histogram 64 bins (values 0-63)", Bins{N: 64}, src, in}} {
		counts := alloc(t, d, 4*c.b.N)
		tm := timeOp(c.name, func() error { return p.Histogram(counts, c.buf, HostLen(n), c.b) })
		row(c.name, tm, float64(4*n), func() error {
			want := cpuHistogram(c.data, c.b)
			got := down32(t, counts, c.b.N)
			if i := firstDiff(got, want); i >= 0 {
				return fmt.Errorf("bin %d: got %d, want %d", i, got[i], want[i])
			}
			return nil
		})
		counts.Free()
	}
	// Sorts run in place: each repetition first restores the input with a
	// device copy, whose time (measured alone) is subtracted.
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	ib := upload32(t, d, idx)
	defer ib.Free()
	kb := alloc(t, d, 4*n)
	defer kb.Free()
	vb := alloc(t, d, 4*n)
	defer vb.Free()
	for _, c := range []struct {
		name  string
		key   Elem
		nbits int
		pairs bool
	}{{"sort uint32 keys (32 bits)", Uint32, 32, false}, {"sort int32 keys + values", Int32, 32, true}, {"sort uint32 keys + values (24 bits)", Uint32, 24, true}} {
		restore := func() error {
			if err := kb.CopyFrom(rb); err != nil {
				return err
			}
			if c.pairs {
				return vb.CopyFrom(ib)
			}
			return nil
		}
		var vals *Buffer
		if c.pairs {
			vals = vb
		}
		base := timeOp(c.name+" (restore)", restore)
		tm := timeOp(c.name, func() error {
			if err := restore(); err != nil {
				return err
			}
			return p.Sort(kb, vals, HostLen(n), c.key, c.nbits)
		})
		tm.Median -= base.Median
		passes, _ := sortPasses(c.key, c.nbits)
		bytes := float64(len(passes) * 2 * 4 * n)
		if c.pairs {
			bytes *= 2
		}
		row(c.name, tm, bytes, func() error {
			keys := down32(t, kb, n)
			if c.pairs {
				return checkSorted(rnd, keys, down32(t, vb, n), c.key, c.nbits)
			}
			for i := 1; i < n; i++ {
				if keys[i-1] > keys[i] {
					return fmt.Errorf("keys %d, %d at %d out of order", keys[i-1], keys[i], i)
				}
			}
			return nil
		})
	}
}

func ms2(t Timing) float64 { return float64(t.Median.Nanoseconds()) / 1e6 }
