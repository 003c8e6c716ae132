package schedule

import (
	"fmt"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// AccessKind is how a kernel touches an array.
type AccessKind uint8

const (
	Load   AccessKind = iota // global load (x through the read-only cache included)
	Store                    // global store
	Atomic                   // atomic read-modify-write (atomicAdd without a return value)
)

func (k AccessKind) String() string {
	switch k {
	case Load:
		return "load"
	case Store:
		return "store"
	case Atomic:
		return "atomic"
	}
	return fmt.Sprintf("AccessKind(%d)", uint8(k))
}

// Stream is the global-memory traffic of one array access in one kernel.
type Stream struct {
	Name         string
	Kind         AccessKind
	ElemBytes    int
	Instructions int64 // warp instructions with at least one active lane
	Elements     int64 // distinct elements per warp instruction, summed
	Sectors      int64 // distinct 32-byte sectors per warp instruction, summed
}

// KernelTraffic is the traffic of one kernel, array by array.
type KernelTraffic struct {
	Kernel  string
	Streams []Stream
}

// Total sums elements and sectors over every stream.
func (k KernelTraffic) Total() (elements, sectors int64) {
	for _, s := range k.Streams {
		elements += s.Elements
		sectors += s.Sectors
	}
	return elements, sectors
}

// Of sums elements and sectors over the streams of one kind.
func (k KernelTraffic) Of(kind AccessKind) (elements, sectors int64) {
	for _, s := range k.Streams {
		if s.Kind == kind {
			elements += s.Elements
			sectors += s.Sectors
		}
	}
	return elements, sectors
}

// Traffic compares the plain kernel with the schedule's kernel.
type Traffic struct {
	BlockSize, ValueBytes int
	Default, Optimized    KernelTraffic
}

// ElementRatio and SectorRatio are the default kernel's totals over the
// optimized kernel's: above 1 the schedule moves less data.
func (t Traffic) ElementRatio() float64 {
	d, _ := t.Default.Total()
	o, _ := t.Optimized.Total()
	return ratio(d, o)
}

func (t Traffic) SectorRatio() float64 {
	_, d := t.Default.Total()
	_, o := t.Optimized.Total()
	return ratio(d, o)
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// PredictTraffic builds the schedule of partition p at the given block size
// with the default options (48 KiB budget, auto overflow policy) and
// predicts the traffic of both kernels for fp64 values; above MaxThreads
// (the kernels it models run a thread a task) it returns ErrBlockTooLarge. It is what `spac compare` calls for its
// traffic columns.
func PredictTraffic(coo *matrices.COO, p spac.Partition, blockSize int) (Traffic, error) {
	if blockSize > MaxThreads {
		return Traffic{}, fmt.Errorf("block size %d: %w", blockSize, ErrBlockTooLarge)
	}
	s, err := Build(coo, p, Options{BlockSize: blockSize})
	if err != nil {
		return Traffic{}, err
	}
	return s.Traffic(8), nil
}

// Traffic predicts the global-memory traffic of one SpMV y = A x with values
// of valueBytes bytes (4 or 8) under two kernels, both launched with the
// schedule's block size B.
//
// The model. Every array starts at a 256-byte aligned address (as
// cudaMalloc returns); element i of an array of w-byte elements lies at
// byte i*w, in sector i*w/32. Threads run in warps of 32 consecutive
// threads of one block (thread t of a block is in warp t/32). For every
// array access instruction a warp executes, the model counts the distinct
// elements and the distinct 32-byte sectors its active lanes touch, and
// sums over all warp instructions: the sectors are what the GPU's L1
// requests from memory for that instruction (Nsight Compute's
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st,red}), before any cache
// reuse between instructions. Indices are int32 (4 bytes), local
// addresses 2 bytes (AddrBytes), shared flags 1 byte, values w bytes.
//
// Default kernel (today's): thread t of the grid handles nonzero t of the
// CSR order (rows ascending, columns ascending within a row), active when
// t < nnz. It loads row[t], col[t], val[t] and x[col[t]] and does
// atomicAdd(&y[row[t]], val*x). Streams: row, col, val, x (loads), y
// (atomic).
//
// Optimized kernel (the schedule's, with reorganized data and the software
// cache): block b, thread t, slot s = b*B + t.
//  1. Every warp of the block loads its block's offsets: block_offsets[b],
//     [b+1], xunique_offsets[b], [b+1] (unless x is read-only) and
//     yunique_offsets[b], [b+1] (stream "offsets", one instruction per
//     array, 2 elements each).
//  2. Staging (unless x is read-only): for i = t, t+B, ... < n_x the lane
//     loads xunique[XOffsets[b]+i] and x at that column (streams xunique,
//     x): consecutive lanes read consecutive sorted unique columns.
//  3. Tasks: threads t < n_b load val[s], xlocal[s] and ylocal[s]
//     (contiguous); with x read-only, col[s] and x[col[s]] instead of
//     xlocal[s]. Products go to shared memory: no global traffic.
//  4. Flush: for i = t, t+B, ... < n_y the lane loads yunique[YOffsets[b]+i]
//     and yshared[YOffsets[b]+i], then stores y[row] when the row is owned
//     (stream y-store) or does atomicAdd(&y[row], ...) when it is shared
//     (stream y-atomic); owned and shared lanes of a warp are two separate
//     instructions.
//
// The model ignores what both kernels share (launch parameters, the loop
// over iterations) and shared-memory traffic, which does not reach global
// memory.
func (s *Schedule) Traffic(valueBytes int) Traffic {
	if valueBytes != 4 {
		valueBytes = 8
	}
	return Traffic{BlockSize: s.BlockSize, ValueBytes: valueBytes,
		Default: s.defaultTraffic(valueBytes), Optimized: s.optimizedTraffic(valueBytes)}
}

// streamCounter accumulates one stream.
type streamCounter struct {
	Stream
	idx [32]int64 // element indices of the current instruction's lanes
	n   int
}

func newCounter(name string, kind AccessKind, w int) *streamCounter {
	return &streamCounter{Stream: Stream{Name: name, Kind: kind, ElemBytes: w}}
}

// contiguous counts one instruction touching elements [i, j).
func (c *streamCounter) contiguous(i, j int64) {
	if j <= i {
		return
	}
	w := int64(c.ElemBytes)
	c.Instructions++
	c.Elements += j - i
	c.Sectors += ((j-1)*w)>>5 - (i*w)>>5 + 1
}

// lane adds one active lane's element to the current gather instruction.
func (c *streamCounter) lane(i int32) {
	c.idx[c.n] = int64(i)
	c.n++
}

// flush ends a gather instruction: sorts its at most 32 indices and counts
// the distinct elements and sectors.
func (c *streamCounter) flush() {
	n := c.n
	if n == 0 {
		return
	}
	c.n = 0
	a := c.idx[:n]
	for i := 1; i < n; i++ {
		v := a[i]
		j := i
		for j > 0 && a[j-1] > v {
			a[j] = a[j-1]
			j--
		}
		a[j] = v
	}
	w := int64(c.ElemBytes)
	c.Instructions++
	c.Elements++
	c.Sectors++
	for i := 1; i < n; i++ {
		if a[i] != a[i-1] {
			c.Elements++
			if (a[i]*w)>>5 != (a[i-1]*w)>>5 {
				c.Sectors++
			}
		}
	}
}

// defaultTraffic models the plain kernel over the CSR order of the entries.
func (s *Schedule) defaultTraffic(w int) KernelTraffic {
	// CSR order of the slots: counting sort by column, then stably by row.
	active := make([]int32, 0, s.NNZ)
	for tid, e := range s.NewSchedule {
		if e >= 0 {
			active = append(active, int32(tid))
		}
	}
	byCol := sortSlots(active, s.Cols, s.NCols)
	csr := sortSlots(byCol, s.Rows, s.NRows)

	row := newCounter("row", Load, 4)
	col := newCounter("col", Load, 4)
	val := newCounter("val", Load, w)
	x := newCounter("x", Load, w)
	y := newCounter("y", Atomic, w)
	B, nnz := int64(s.BlockSize), int64(len(csr))
	for start := int64(0); start < nnz; start += B {
		end := min(start+B, nnz)
		for lo := start; lo < end; lo += 32 {
			hi := min(lo+32, end)
			row.contiguous(lo, hi)
			col.contiguous(lo, hi)
			val.contiguous(lo, hi)
			for t := lo; t < hi; t++ {
				tid := csr[t]
				x.lane(s.Cols[tid])
				y.lane(s.Rows[tid])
			}
			x.flush()
			y.flush()
		}
	}
	return KernelTraffic{Kernel: "default", Streams: []Stream{row.Stream, col.Stream, val.Stream, x.Stream, y.Stream}}
}

// sortSlots stably sorts the slots in order by key[slot] in [0, n).
func sortSlots(order, key []int32, n int) []int32 {
	cnt := make([]int32, n+1)
	for _, tid := range order {
		cnt[key[tid]+1]++
	}
	for i := range n {
		cnt[i+1] += cnt[i]
	}
	out := make([]int32, len(order))
	for _, tid := range order {
		k := key[tid]
		out[cnt[k]] = tid
		cnt[k]++
	}
	return out
}

// optimizedTraffic models the schedule's kernel.
func (s *Schedule) optimizedTraffic(w int) KernelTraffic {
	const aw = AddrBytes
	ro := s.XReadOnly()
	offsets := newCounter("offsets", Load, 4)
	xunique := newCounter("xunique", Load, 4)
	x := newCounter("x", Load, w)
	val := newCounter("val", Load, w)
	xlocal := newCounter("xlocal", Load, aw)
	cols := newCounter("col", Load, 4)
	ylocal := newCounter("ylocal", Load, aw)
	yunique := newCounter("yunique", Load, 4)
	yshared := newCounter("yshared", Load, 1)
	ystore := newCounter("y-store", Store, w)
	yatomic := newCounter("y-atomic", Atomic, w)
	B := int64(s.BlockSize)
	warps := (B + 31) / 32
	for b := range s.NumBlocks() {
		b64 := int64(b)
		for range warps {
			offsets.contiguous(b64, b64+2)
			if !ro {
				offsets.contiguous(b64, b64+2)
			}
			offsets.contiguous(b64, b64+2)
		}
		if !ro {
			xo, nx := int64(s.XOffsets[b]), int64(s.UniqueX(b))
			for i0 := int64(0); i0 < nx; i0 += B {
				for lo := i0; lo < min(i0+B, nx); lo += 32 {
					hi := min(lo+32, i0+B, nx)
					xunique.contiguous(xo+lo, xo+hi)
					for i := lo; i < hi; i++ {
						x.lane(s.XUnique[xo+i])
					}
					x.flush()
				}
			}
		}
		base := b64 * B
		n := int64(s.Tasks(b))
		for lo := int64(0); lo < n; lo += 32 {
			hi := min(lo+32, n)
			val.contiguous(base+lo, base+hi)
			ylocal.contiguous(base+lo, base+hi)
			if ro {
				cols.contiguous(base+lo, base+hi)
				for t := lo; t < hi; t++ {
					x.lane(s.Cols[base+t])
				}
				x.flush()
			} else {
				xlocal.contiguous(base+lo, base+hi)
			}
		}
		yo, ny := int64(s.YOffsets[b]), int64(s.UniqueY(b))
		for i0 := int64(0); i0 < ny; i0 += B {
			for lo := i0; lo < min(i0+B, ny); lo += 32 {
				hi := min(lo+32, i0+B, ny)
				yunique.contiguous(yo+lo, yo+hi)
				yshared.contiguous(yo+lo, yo+hi)
				for i := lo; i < hi; i++ {
					if s.YShared[yo+i] != 0 {
						yatomic.lane(s.YUnique[yo+i])
					} else {
						ystore.lane(s.YUnique[yo+i])
					}
				}
				ystore.flush()
				yatomic.flush()
			}
		}
	}
	streams := []Stream{offsets.Stream}
	if ro {
		streams = append(streams, val.Stream, cols.Stream, x.Stream, ylocal.Stream)
	} else {
		streams = append(streams, xunique.Stream, x.Stream, val.Stream, xlocal.Stream, ylocal.Stream)
	}
	streams = append(streams, yunique.Stream, yshared.Stream, ystore.Stream, yatomic.Stream)
	return KernelTraffic{Kernel: "schedule", Streams: streams}
}
