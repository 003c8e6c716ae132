package gpu

import (
	"strings"
	"testing"
)

// The primitives' host-side rules: which type combinations exist, what the
// arguments may be, how a value finds its bin. No device needed.

func TestPrimEntries(t *testing.T) {
	entries := map[string]bool{}
	for _, e := range primEntries() {
		entries[e] = true
	}
	for _, in := range []Elem{Int32, Uint32, Int64, Uint64, Uint8} {
		for _, out := range []Elem{Int32, Uint32, Int64, Uint64, Uint8} {
			for _, incl := range []bool{false, true} {
				name, err := scanEntry(in, out, incl)
				want := (in == Int32 || in == Uint32) && (out == Int32 || out == Uint32 || out == Int64 && in == Int32 || in == Uint32 && out.Size() == 8)
				if (err == nil) != want {
					t.Errorf("scan %s -> %s: %q, %v; want it to exist: %v", in, out, name, err, want)
				}
				if err == nil && !entries[name] {
					t.Errorf("scan %s -> %s: kernel %s is not among the module's entries", in, out, name)
				}
			}
			for _, op := range []ReduceOp{Sum, Min, Max} {
				name, err := reduceEntry(op, in, out)
				if err == nil && !entries[name] {
					t.Errorf("%s %s -> %s: kernel %s is not among the module's entries", op, in, out, name)
				}
			}
		}
	}
	for _, ok := range []struct {
		op      ReduceOp
		in, out Elem
	}{{Sum, Int32, Int32}, {Sum, Uint32, Uint32}, {Sum, Int32, Int64}, {Sum, Uint32, Uint64}, {Min, Int32, Int32}, {Max, Uint32, Uint32}} {
		if _, err := reduceEntry(ok.op, ok.in, ok.out); err != nil {
			t.Errorf("%s %s -> %s: %v", ok.op, ok.in, ok.out, err)
		}
	}
	for _, bad := range []struct {
		op      ReduceOp
		in, out Elem
	}{{Min, Int32, Int64}, {Max, Int32, Uint32}, {Sum, Int64, Int64}, {Sum, Uint8, Uint32}} {
		if name, err := reduceEntry(bad.op, bad.in, bad.out); err == nil {
			t.Errorf("%s %s -> %s: %s, want an error", bad.op, bad.in, bad.out, name)
		}
	}
	for _, f := range []Elem{Uint8, Int32, Uint32} {
		if name, err := selectEntry(f); err != nil || !entries[name] {
			t.Errorf("select with %s flags: %q, %v", f, name, err)
		}
	}
	if _, err := selectEntry(Int64); err == nil || !strings.Contains(err.Error(), "uint8, int32 or uint32") {
		t.Errorf("select with int64 flags: %v", err)
	}
}

func TestPrimArguments(t *testing.T) {
	if err := checkLen("scan", HostLen(-1), 10); err == nil {
		t.Error("a negative length passed")
	}
	if err := checkLen("scan", HostLen(11), 10); err == nil || !strings.Contains(err.Error(), "NewPrims") {
		t.Errorf("a length over the capacity: %v", err)
	}
	if err := checkLen("scan", DeviceLen(nil, 10), 10); err != nil {
		t.Errorf("a length at the capacity: %v", err)
	}
	for _, b := range []Bins{{N: 0}, {N: 1<<24 + 1}, {N: 4, Shift: 32}} {
		if checkBins(b) == nil {
			t.Errorf("bins %+v passed", b)
		}
	}
	for _, c := range []struct {
		key    Elem
		bits   int
		passes int
	}{{Uint32, 0, 4}, {Uint32, 32, 4}, {Int32, 0, 4}, {Uint32, 1, 1}, {Uint32, 8, 1}, {Uint32, 9, 2}, {Uint32, 20, 3}, {Uint32, 24, 3}} {
		p, err := sortPasses(c.key, c.bits)
		if err != nil || len(p) != c.passes {
			t.Errorf("sort %s by %d bits: %v passes, %v; want %d", c.key, c.bits, p, err, c.passes)
			continue
		}
		covered := 0
		for _, ps := range p {
			if ps[0] != covered || ps[1] < 1 || ps[1] > 8 {
				t.Errorf("sort %s by %d bits: passes %v", c.key, c.bits, p)
			}
			covered += ps[1]
		}
		if want := c.bits; want != 0 && covered != want || want == 0 && covered != 32 {
			t.Errorf("sort %s by %d bits: passes %v cover %d bits", c.key, c.bits, p, covered)
		}
	}
	for _, c := range []struct {
		key  Elem
		bits int
	}{{Int32, 16}, {Int64, 0}, {Uint32, 33}, {Uint32, -1}} {
		if _, err := sortPasses(c.key, c.bits); err == nil {
			t.Errorf("sort %s by %d bits passed", c.key, c.bits)
		}
	}
	// The status holds every tile of the largest scan and of the sort's
	// scan of its counts.
	for _, n := range []int{0, 1, primTile, primTile + 1, 1 << 20, 1 << 27, PrimMaxN} {
		c := primStatusCap(n)
		if c < primTiles(n, primTile) || c < primTiles(primRadix*primTiles(n, primSortTile), primTile) {
			t.Errorf("status for %d elements: %d tiles", n, c)
		}
	}
}

func TestBins(t *testing.T) {
	for _, c := range []struct {
		b    Bins
		v    int64
		want int
	}{
		{Bins{N: 4}, 0, 0}, {Bins{N: 4}, 3, 3}, {Bins{N: 4}, 4, -1}, {Bins{N: 4}, -1, -1},
		{Bins{N: 4, Lo: -2}, -2, 0}, {Bins{N: 4, Lo: -2}, -3, -1}, {Bins{N: 4, Lo: -2}, 1, 3},
		{Bins{N: 4, Shift: 4}, 63, 3}, {Bins{N: 4, Shift: 4}, 64, -1}, {Bins{N: 4, Shift: 4}, 15, 0},
		{Bins{N: 33, Log2: true}, 0, 0}, {Bins{N: 33, Log2: true}, -5, 0}, {Bins{N: 33, Log2: true}, 1, 1},
		{Bins{N: 33, Log2: true}, 2, 2}, {Bins{N: 33, Log2: true}, 3, 2}, {Bins{N: 33, Log2: true}, 4, 3},
		{Bins{N: 33, Log2: true}, 1<<31 - 1, 31}, {Bins{N: 33, Log2: true, Unsigned: true}, 1 << 31, 32},
		{Bins{N: 3, Log2: true}, 4, -1},
		{Bins{N: 4, Unsigned: true, Lo: -1}, 1<<32 - 1, 0}, {Bins{N: 4, Unsigned: true}, 1<<32 - 1, -1},
		{Bins{N: 1 << 20, Unsigned: true, Shift: 12}, 1<<32 - 1, 1<<20 - 1}, {Bins{N: 1 << 20, Unsigned: true, Shift: 12}, 1<<31 + 5, 1 << 19},
	} {
		if got := c.b.Bin(uint32(c.v)); got != c.want {
			t.Errorf("%+v: bin of %d = %d, want %d", c.b, c.v, got, c.want)
		}
	}
}

// The references themselves, on cases worked by hand.
func TestPrimReferences(t *testing.T) {
	src := []uint32{1, 2, 0xffffffff, 1 << 31}
	if got := cpuScan(src, Int32, Int64, false); got[3] != 2 {
		t.Errorf("exclusive int32 -> int64: %v", got)
	}
	if got := cpuScan(src, Uint32, Uint64, true); got[3] != 3+0xffffffff+1<<31 {
		t.Errorf("inclusive uint32 -> uint64: %v", got)
	}
	if got := cpuScan(src, Int32, Int32, true); got[3] != uint64(uint32(2+1<<31)) {
		t.Errorf("inclusive int32 wraps: %v", got)
	}
	if got := cpuReduce(src, Min, Int32, Int32); int32(got) != -1<<31 {
		t.Errorf("min int32: %d", int32(got))
	}
	if got := cpuReduce(src, Max, Uint32, Uint32); got != 0xffffffff {
		t.Errorf("max uint32: %d", got)
	}
	if got := cpuReduce(nil, Min, Uint32, Uint32); got != 0xffffffff {
		t.Errorf("min of nothing: %d", got)
	}
	if got := cpuSelect(nil, []uint32{0, 1, 0, 7}, 4); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("select indices: %v", got)
	}
}
