package gpu

// The CPU references: what each primitive computes, element by element.

// cpuScan is the scan of in (32-bit words read as in's type) into out's
// width, modulo 2^width.
func cpuScan(src []uint32, in, out Elem, inclusive bool) []uint64 {
	dst := make([]uint64, len(src))
	var run uint64
	for i, v := range src {
		x := uint64(v)
		if in == Int32 {
			x = uint64(int64(int32(v)))
		}
		if inclusive {
			run += x
			dst[i] = run
		} else {
			dst[i] = run
			run += x
		}
	}
	if out.Size() == 4 {
		for i := range dst {
			dst[i] = uint64(uint32(dst[i]))
		}
	}
	return dst
}

// cpuSelect keeps values[i] (or i, where values is nil) where flags[i] != 0.
func cpuSelect(values []uint32, flags []uint32, n int) []uint32 {
	var out []uint32
	for i := 0; i < n; i++ {
		if flags[i] != 0 {
			if values != nil {
				out = append(out, values[i])
			} else {
				out = append(out, uint32(i))
			}
		}
	}
	return out
}

// cpuReduce is Reduce's result as a 64-bit word (the 32-bit results in
// its low half).
func cpuReduce(src []uint32, op ReduceOp, in, out Elem) uint64 {
	switch op {
	case Sum:
		var s uint64
		for _, v := range src {
			if in == Int32 {
				s += uint64(int64(int32(v)))
			} else {
				s += uint64(v)
			}
		}
		if out.Size() == 4 {
			s = uint64(uint32(s))
		}
		return s
	}
	var acc uint32
	if in == Int32 {
		a := int32(1<<31 - 1)
		if op == Max {
			a = -1 << 31
		}
		for _, v := range src {
			if x := int32(v); (op == Min && x < a) || (op == Max && x > a) {
				a = x
			}
		}
		acc = uint32(a)
	} else {
		a := uint32(1<<32 - 1)
		if op == Max {
			a = 0
		}
		for _, v := range src {
			if (op == Min && v < a) || (op == Max && v > a) {
				a = v
			}
		}
		acc = a
	}
	return uint64(acc)
}

// cpuHistogram counts src into b's bins.
func cpuHistogram(src []uint32, b Bins) []uint32 {
	h := make([]uint32, b.N)
	for _, v := range src {
		if k := b.Bin(v); k >= 0 {
			h[k]++
		}
	}
	return h
}
