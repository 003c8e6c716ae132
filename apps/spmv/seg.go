package spmv

import (
	"fmt"
	"math"
)

// The spac-seg kernel's format. It runs a SPAC schedule with four
// consecutive slots per thread (B/4 threads for blocks of B tasks) and
// reads, per slot, only the value and the uint16 block-local x address
// (XLocal); x is staged in shared memory from the block's unique columns.
// Everything a thread needs to know about rows is precomputed here into
// one 32-bit descriptor per thread (Desc), so the kernel ranks nothing:
//
//	bits 0-9    the block-local row of the thread's first slot
//	bits 10-13  bit j: slot j starts a row (slot 0: the thread's first
//	            slot starts a row of its own, not the previous thread's)
//	bits 14-18  the lane where the thread's last row starts in its warp
//	            (0 when it starts in an earlier warp): the segment start of
//	            the warp's segmented scan
//	bit 19      the thread's last row ends with the thread (the next slot
//	            of the block starts another row, or there is none)
//	bit 20      the thread's first row ends inside the thread and began in
//	            an earlier warp: its sum is the warp's head carry
//	bit 21      the thread's last row ends with the thread and began in an
//	            earlier warp: its sum is the warp's head carry
//	bit 22      (lane 31) the warp is one row from end to end, continued
//	            from an earlier warp and into a later one
//	bit 23      the thread has slots with tasks
//
// A thread sums its runs of equal rows; a run that starts and ends inside
// it is stored at once. The last run of each thread enters one segmented
// inclusive scan per warp (five shuffles; the segment starts are the
// precomputed lanes); the lane where a row ends stores it, and a row that
// crosses a warp boundary leaves a carry in shared memory (the sum of its
// part in the warp). After one barrier, thread 0 adds the carries of the
// block's warps in order and stores the rows they finish: one block-wide
// segmented reduction in two levels. Every row goes to y exactly once per
// block, by a plain store where the block owns it, by atomicAdd where other
// blocks share it (YRow's sign bit; those rows are cleared first, as
// ZeroRows says). No shared-memory y, no atomics inside the block.
const (
	segRowBits     = 10
	segHeadShift   = 10
	segLaneShift   = 14
	segTailEnd     = 1 << 19
	segFirstCarry  = 1 << 20
	segTrailCarry  = 1 << 21
	segWhole       = 1 << 22
	segActive      = 1 << 23
	segSlots       = 4 // slots per thread
	segSharedFlag  = math.MinInt32
	segMaxLocalRow = 1<<segRowBits - 1
)

// segDescriptors fills a.Desc and a.YRow for the spac-seg kernel, or leaves
// them nil where the kernel cannot run the schedule (block size not a
// multiple of 128: its B/4 threads must fill whole warps; or above 1024).
func (a *ScheduleArrays) segDescriptors() error {
	B := a.BlockSize
	if B%(32*segSlots) != 0 || B > MaxThreads {
		return nil
	}
	threads := B / segSlots
	a.Desc = make([]uint32, a.Blocks*threads)
	a.YRow = make([]int32, len(a.YUnique))
	for i, r := range a.YUnique {
		a.YRow[i] = r
		if a.YShared[i] != 0 {
			a.YRow[i] |= segSharedFlag
		}
	}
	for b := range a.Blocks {
		tasks := int(a.Meta[8*b+4])
		yl := a.YLocal[b*B : b*B+tasks]
		if tasks > 0 && int(yl[tasks-1]) > segMaxLocalRow {
			return fmt.Errorf("schedule %s: block %d has %d rows, spac-seg indexes at most %d", a.Label, b, yl[tasks-1]+1, segMaxLocalRow+1)
		}
		// first[r] is the first slot of local row r (tasks are sorted).
		first := make([]int, int(a.Meta[8*b+3]))
		for s := tasks - 1; s >= 0; s-- {
			first[yl[s]] = s
		}
		for t := range threads {
			lo := t * segSlots
			if lo >= tasks {
				break
			}
			hi := min(lo+segSlots, tasks) - 1 // the thread's last slot with a task
			lane, warpLo := t%32, (t-t%32)*segSlots
			d := uint32(yl[lo]) | segActive
			for j := 0; lo+j <= hi; j++ {
				if s := lo + j; s == 0 || yl[s] != yl[s-1] {
					d |= 1 << (segHeadShift + j)
				}
			}
			// The last row: where it starts, whether it ends here.
			start := first[yl[hi]]
			trailFromLeft := start < warpLo
			if !trailFromLeft {
				d |= uint32(start/segSlots%32) << segLaneShift
			}
			tailEnd := hi == tasks-1 || yl[hi+1] != yl[hi]
			if tailEnd {
				d |= segTailEnd
			}
			multi := yl[hi] != yl[lo]
			if multi && first[yl[lo]] < warpLo {
				d |= segFirstCarry
			}
			if tailEnd && trailFromLeft {
				d |= segTrailCarry
			}
			if lane == 31 && !tailEnd && trailFromLeft {
				d |= segWhole
			}
			a.Desc[b*threads+t] = d
		}
	}
	return nil
}

// SegBytesPerNNZ is what the spac-seg kernel reads of its format per
// nonzero with values of p (FormatBytes over the nonzeros): per slot,
// padding included, the value and a uint16 x address, per thread a 4-byte
// descriptor, per block its 32-byte meta, per unique column and row of a
// block a 4-byte index. x and y themselves are not counted, as
// CSRBytesPerNNZ does not count them either.
func (a *ScheduleArrays) SegBytesPerNNZ(p Precision) float64 {
	if a.NNZ == 0 {
		return 0
	}
	return float64(a.FormatBytes(SPACSeg, p)) / float64(a.NNZ)
}

// FormatBytes is what a SPAC kernel k reads of the schedule's arrays with
// values of p (not x and y): per slot the value and the local x address
// (staged x; spac-seg8's carries its row-start bit) or the int32 column
// (read-only x); the row-start bits of the older kernels or spac-seg's
// descriptors; per block the meta; per unique column of a block its index
// when x is staged; per unique row its index (and the older kernels'
// shared flag).
func (a *ScheduleArrays) FormatBytes(k Kernel, p Precision) int64 {
	slots := int64(a.Blocks) * int64(a.BlockSize)
	b := slots*int64(p.Bytes()) + int64(a.Blocks)*32 + int64(len(a.YUnique))*4
	if k.StagesX() {
		b += slots*2 + int64(len(a.XUnique))*4
	} else {
		b += slots * 4
	}
	switch {
	case k.IsSeg8():
		return b
	case k.IsSeg():
		return b + slots/segSlots*4
	}
	return b + slots/8 + int64(len(a.YUnique))
}

// CSRBytesPerNNZ is the same count for CSR with int32 indices: per nonzero
// a value and a column, per row an offset.
func CSRBytesPerNNZ(nRows, nnz int, p Precision) float64 {
	if nnz == 0 {
		return 0
	}
	return float64(int64(nnz)*int64(p.Bytes()+4)+int64(nRows+1)*4) / float64(nnz)
}

// emulateSeg runs the spac-seg kernel (k: spac-seg, x staged, or
// spac-seg-ldg, x at each slot's column) on the CPU, thread by thread and
// warp by warp as the device does (the shuffles of the segmented scan
// included), in the precision's arithmetic. y must hold the product's
// prior content; the rows in ZeroRows are cleared first, as the host does.
// The unit tests check it against the reference: the format and the
// kernel's reading of it are proven before any device runs them.
func emulateSeg(k Kernel, a *ScheduleArrays, x []float64, y []float64, p Precision) {
	round := emulationStart(a, y, p)
	var b int // the block running
	store := func(r int, v float64) {
		g := a.YRow[int(a.Meta[8*b+2])+r]
		if g < 0 {
			g &^= segSharedFlag
			y[g] = round(y[g] + v)
		} else {
			y[g] = v
		}
	}
	B := a.BlockSize
	threads := B / segSlots
	warps := threads / 32
	head, tail := make([]float64, warps), make([]float64, warps)
	rowT, flags := make([]int, warps), make([]int, warps)
	for b = range a.Blocks {
		x0, nx, tasks := int(a.Meta[8*b]), int(a.Meta[8*b+1]), int(a.Meta[8*b+4])
		var xs []float64
		if k.StagesX() {
			xs = make([]float64, nx)
			for i := range xs {
				xs[i] = round(x[a.XUnique[x0+i]])
			}
		}
		for w := range warps {
			var scan, firstSum [32]float64
			var last [32]int
			desc := a.Desc[b*threads+32*w : b*threads+32*w+32]
			for lane, d := range desc {
				t := 32*w + lane
				row, sum, ended := int(d&segMaxLocalRow), 0.0, 0
				for j := range segSlots {
					s := b*B + t*segSlots + j
					prod := 0.0
					if t*segSlots+j < tasks {
						xv := round(x[a.Col[s]])
						if k.StagesX() {
							xv = xs[a.XLocal[s]]
						}
						prod = round(round(a.Val[s]) * xv)
					}
					if j > 0 && d&(1<<(segHeadShift+j)) != 0 {
						if ended == 0 {
							firstSum[lane] = sum // completed after the scan
						} else {
							store(row, sum) // a run inside the thread
						}
						ended++
						row++
						sum = 0
					}
					sum = round(sum + prod)
				}
				scan[lane], last[lane] = sum, row
			}
			// The segmented inclusive scan, step by step as the shuffles
			// go: every lane reads its source before any writes.
			for dist := 1; dist < 32; dist *= 2 {
				prev := scan
				for lane, d := range desc {
					if lane-dist >= int(d>>segLaneShift&31) {
						scan[lane] = round(scan[lane] + prev[lane-dist])
					}
				}
			}
			for lane, d := range desc {
				active, tailEnd := d&segActive != 0, d&segTailEnd != 0
				if d>>segHeadShift&0xe != 0 { // the first row ends inside the thread
					v := firstSum[lane]
					if lane > 0 && d&(1<<segHeadShift) == 0 {
						v = round(v + scan[lane-1])
					}
					if d&segFirstCarry != 0 {
						head[w] = v
					} else {
						store(int(d&segMaxLocalRow), v)
					}
				}
				switch {
				case tailEnd && d&segTrailCarry != 0:
					head[w] = scan[lane]
				case tailEnd:
					store(last[lane], scan[lane])
				case lane == 31 && active:
					tail[w], rowT[w] = scan[lane], last[lane]
				}
				if lane == 31 {
					flags[w] = 0
					if active && !tailEnd {
						flags[w] = 1
						if d&segWhole != 0 {
							flags[w] |= 2
						}
					}
				}
			}
		}
		// Thread 0 after the barrier: the carries of the warps with tasks.
		open, c, r := false, 0.0, 0
		for w := range (tasks + 32*segSlots - 1) / (32 * segSlots) {
			if open {
				if flags[w]&2 != 0 {
					c = round(c + tail[w])
					continue
				}
				store(r, round(c+head[w]))
				open = false
			}
			if flags[w]&1 != 0 {
				c, r, open = tail[w], rowT[w], true
			}
		}
	}
}

// emulationStart begins a kernel's CPU emulation as the host begins a
// product: it clears the rows in ZeroRows, and returns the rounding of a
// result to the precision's arithmetic.
func emulationStart(a *ScheduleArrays, y []float64, p Precision) (round func(float64) float64) {
	for _, r := range a.ZeroRows {
		y[r] = 0
	}
	if p == FP32 {
		return func(v float64) float64 { return float64(float32(v)) }
	}
	return func(v float64) float64 { return v }
}
