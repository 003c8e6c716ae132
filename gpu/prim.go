package gpu

// The device-wide primitives: what the CUDA and no-CUDA builds share (types,
// argument checks, the module, the CPU references the tests compare with).
// The package doc's section "Device-wide primitives" states the contract.

import (
	_ "embed"
	"fmt"
	"math/bits"
)

// Elem is the element type of a primitive's input or output.
type Elem uint8

const (
	Int32 Elem = iota
	Uint32
	Int64
	Uint64
	Uint8 // flags only
)

func (e Elem) String() string {
	switch e {
	case Int32:
		return "int32"
	case Uint32:
		return "uint32"
	case Int64:
		return "int64"
	case Uint64:
		return "uint64"
	case Uint8:
		return "uint8"
	}
	return fmt.Sprintf("Elem(%d)", uint8(e))
}

// Size is the element's size in bytes.
func (e Elem) Size() int {
	switch e {
	case Int64, Uint64:
		return 8
	case Uint8:
		return 1
	}
	return 4
}

// Len is how many elements a primitive reads: a number the host knows
// (HostLen), or an int32 on the device that an earlier kernel wrote
// (DeviceLen: a Select's count, say), which the kernels read themselves, so
// that a loop of primitives needs no host round trip and can be captured
// into a graph. Max bounds it and sizes the grid.
type Len struct {
	Max   int
	Count *Buffer // nil: the length is Max
}

// HostLen is a length of n elements.
func HostLen(n int) Len { return Len{Max: n} }

// DeviceLen is the int32 at the start of count, clamped to [0, max], read
// when the kernel runs.
func DeviceLen(count *Buffer, max int) Len { return Len{Max: max, Count: count} }

// ReduceOp is what Reduce computes.
type ReduceOp uint8

const (
	Sum ReduceOp = iota
	Min
	Max
)

func (op ReduceOp) String() string {
	switch op {
	case Sum:
		return "sum"
	case Min:
		return "min"
	case Max:
		return "max"
	}
	return fmt.Sprintf("ReduceOp(%d)", uint8(op))
}

// Bins says how Histogram maps a value to its bin. Linear (Log2 false):
// bin (v - Lo) >> Shift, so bins of width 2^Shift from Lo. Log2: bin 0 for
// v <= 0, else the bit length of v (1 for 1, 2 for 2-3, 3 for 4-7, ...),
// the degree buckets of node splitting. Values outside [0, N) bins are not
// counted. Unsigned reads values and Lo as uint32.
type Bins struct {
	N        int
	Lo       int32
	Shift    uint
	Log2     bool
	Unsigned bool
}

// Bin returns v's bin, or -1 where it is not counted (the kernel's rule).
func (b Bins) Bin(v uint32) int {
	var k int64
	switch {
	case b.Log2 && b.Unsigned:
		k = int64(bits.Len32(v))
	case b.Log2:
		if int32(v) > 0 {
			k = int64(bits.Len32(v))
		}
	case b.Unsigned:
		k = (int64(v) - int64(uint32(b.Lo))) >> b.Shift
		if int64(v) < int64(uint32(b.Lo)) {
			return -1
		}
	default:
		if int32(v) < b.Lo {
			return -1
		}
		k = (int64(int32(v)) - int64(b.Lo)) >> b.Shift
	}
	if k >= int64(b.N) {
		return -1
	}
	return int(k)
}

// Tile sizes of prim.cu: the single-pass kernels' (scan, select, reduce)
// and the sort's; the block size of all of them.
const (
	primTile     = 8192
	primSortTile = 4096
	primThreads  = 256
	primRadix    = 256
	primMaxGrid  = 1024 // the reduce's partials
	// PrimMaxN is the largest length the primitives take: element
	// indices are int32 on the device.
	PrimMaxN = 1<<31 - 1 - primTile
	// histSharedMax is the largest histogram counted in shared memory
	// (48 KiB of bins); larger ones count with global atomics.
	histSharedMax = 12 << 10
)

// checkLen validates a length against the Prims' capacity.
func checkLen(what string, n Len, maxN int) error {
	if n.Max < 0 {
		return fmt.Errorf("gpu: %s of %d elements", what, n.Max)
	}
	if n.Max > maxN {
		return fmt.Errorf("gpu: %s of %d elements, more than the %d these primitives were made for (NewPrims)", what, n.Max, maxN)
	}
	return nil
}

// scanEntry names the scan kernel for in -> out.
func scanEntry(in, out Elem, inclusive bool) (string, error) {
	kind := "ex"
	if inclusive {
		kind = "in"
	}
	switch {
	case (in == Int32 || in == Uint32) && (out == Int32 || out == Uint32):
		return "prim_scan_" + kind + "_32", nil
	case in == Int32 && out == Int64:
		return "prim_scan_" + kind + "_i32_64", nil
	case in == Uint32 && (out == Uint64 || out == Int64):
		return "prim_scan_" + kind + "_u32_64", nil
	}
	return "", fmt.Errorf("gpu: no scan from %s to %s (int32/uint32 to the same width, int32 to int64, uint32 to uint64)", in, out)
}

// reduceEntry names the reduce kernel for op over in into out.
func reduceEntry(op ReduceOp, in, out Elem) (string, error) {
	switch {
	case op == Sum && (in == Int32 || in == Uint32) && (out == Int32 || out == Uint32):
		return "prim_reduce_sum_32", nil
	case op == Sum && in == Int32 && out == Int64:
		return "prim_reduce_sum_i32_64", nil
	case op == Sum && in == Uint32 && (out == Uint64 || out == Int64):
		return "prim_reduce_sum_u32_64", nil
	case (op == Min || op == Max) && in == out && (in == Int32 || in == Uint32):
		name := "prim_reduce_" + op.String() + "_u32"
		if in == Int32 {
			name = "prim_reduce_" + op.String() + "_i32"
		}
		return name, nil
	}
	return "", fmt.Errorf("gpu: no %s reduce of %s into %s (sums of int32/uint32 into the same width or 64 bits; min and max of int32 or uint32 into the same type)", op, in, out)
}

// selectEntry names the select kernel for flags of type flag.
func selectEntry(flag Elem) (string, error) {
	switch flag {
	case Uint8:
		return "prim_select_f8", nil
	case Int32, Uint32:
		return "prim_select_f32", nil
	}
	return "", fmt.Errorf("gpu: select flags of type %s (want uint8, int32 or uint32)", flag)
}

// checkBins validates a histogram's binning.
func checkBins(b Bins) error {
	if b.N < 1 || b.N > 1<<24 {
		return fmt.Errorf("gpu: a histogram of %d bins (want 1 to 2^24)", b.N)
	}
	if b.Shift > 31 {
		return fmt.Errorf("gpu: a histogram bin width of 2^%d (want a shift of 0 to 31)", b.Shift)
	}
	return nil
}

// sortPasses checks a sort's key type and bit count and returns the passes:
// the shift and width of each digit, 8 bits at most.
func sortPasses(key Elem, nbits int) ([][2]int, error) {
	if key != Int32 && key != Uint32 {
		return nil, fmt.Errorf("gpu: sorting keys of type %s (want int32 or uint32)", key)
	}
	if nbits == 0 {
		nbits = 32
	}
	if nbits < 1 || nbits > 32 {
		return nil, fmt.Errorf("gpu: sorting by %d bits (want 1 to 32, or 0 for all)", nbits)
	}
	if key == Int32 && nbits != 32 {
		return nil, fmt.Errorf("gpu: int32 keys sort by all 32 bits (the sign is the top bit); sort uint32 keys by fewer")
	}
	var passes [][2]int
	for s := 0; s < nbits; s += 8 {
		passes = append(passes, [2]int{s, min(8, nbits-s)})
	}
	return passes, nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// primTiles is the number of tiles of n elements (at least one: the last
// tile writes totals and counts, also for no elements).
func primTiles(n, tile int) int { return max(1, ceilDiv(n, tile)) }

// primStatusCap is how many tiles the scratch's look-back status holds for
// primitives of up to maxN elements, the sort's scan of its counts
// included.
func primStatusCap(maxN int) int {
	return max(primTiles(maxN, primTile), primTiles(primRadix*primTiles(maxN, primSortTile), primTile))
}

// primScratchWords is the size of the scratch in 8-byte words: a header of
// 8, three status arrays, the reduce's partials.
func primScratchWords(cap int) int { return 8 + 3*cap + primMaxGrid }

// primPTX is gpu/kernels/prim.ptx, made from prim.cu by 'make ptx'.
//
//go:embed kernels/prim.ptx
var primPTX string

// primModule holds the primitives' kernels, loaded on a device's first use
// of a primitive.
var primModule = PTXModule{Name: "prim", PTX: primPTX, Entries: primEntries()}

func primEntries() []string {
	names := Variants("prim_scan", []string{"ex", "in"}, "32", "i32_64", "u32_64")
	names = append(names, "prim_select_f8", "prim_select_f32",
		"prim_reduce_sum_32", "prim_reduce_sum_i32_64", "prim_reduce_sum_u32_64",
		"prim_reduce_min_i32", "prim_reduce_max_i32", "prim_reduce_min_u32", "prim_reduce_max_u32",
		"prim_histogram", "prim_fill", "prim_copy", "prim_radix_count", "prim_radix_scatter")
	return names
}
