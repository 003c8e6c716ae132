package spmv

import (
	"math/bits"

	"github.com/spac-gpu/spac/gpu"
)

// The spac-seg8 kernel's format. It runs a SPAC schedule with eight
// consecutive slots per thread (B/8 threads, at most four warps, for blocks
// of B tasks) and reads per slot only the value and one uint16 (XFlag):
//
//	bits 0-14  the block-local x address (x is staged in shared memory)
//	bit 15     the slot starts a row: it is the block's first task, or its
//	           row differs from the previous task's
//
// Padding slots hold 0 (no row start, address 0, value 0). Per block the
// kernel reads Meta: x0, nx, y0, ny, the task count and, in Meta[8b+5..7],
// the rows started before warps 1, 2 and 3 (slots 256, 512 and 768); the
// block's unique x (XUnique) and its rows with their shared flag (YRow) are
// staged in shared memory before the products.
//
// spac-seg reads a 32-bit descriptor per four slots (one byte per nonzero)
// to know its rows; spac-seg8 derives the same from the row-start bits it
// loads with the x addresses: a thread's first local row is the rows
// started before its warp plus a warp scan of its count of row starts, and
// the segment start of the warp's segmented scan is the highest lane at or
// below the thread's that starts a row (one ballot). Per nonzero it reads
// w + 2 bytes (w: the value's size) and per block 4 bytes per unique
// column and row, against CSR's w + 4 and 4 per row; the eight slots per
// thread halve the per-thread work per nonzero (scan, carries, the
// staging's addressing) against spac-seg's four.
//
// As in spac-seg, each row reaches y once per block, by a plain store where
// the block owns it and by atomicAdd where other blocks share it (those rows
// are cleared first, ZeroRows); rows that cross a warp leave carries that
// thread 0 adds up in warp order after a barrier.
const (
	seg8Slots     = 8 // slots per thread
	seg8Warps     = 4 // at most four warps: Meta[8b+5..7] holds the rows before warps 1-3
	seg8WarpSlots = 32 * seg8Slots
	seg8Start     = 1 << 15 // XFlag: the slot starts a row
	seg8AddrMask  = seg8Start - 1
)

// seg8Format fills a.XFlag and the per-warp row counts in a.Meta for the
// spac-seg8 kernel, or leaves XFlag nil where the kernel cannot run the
// schedule: a block size that is not a multiple of 256 (its B/8 threads
// must fill whole warps) or x not staged.
func (a *ScheduleArrays) seg8Format() {
	B := a.BlockSize
	if B%seg8WarpSlots != 0 || B/seg8WarpSlots > seg8Warps || !a.XStaged {
		return
	}
	a.XFlag = make([]uint16, len(a.XLocal))
	for b := range a.Blocks {
		tasks := int(a.Meta[8*b+4])
		starts := 0
		for s := range tasks {
			slot := b*B + s
			if s%seg8WarpSlots == 0 && s > 0 {
				a.Meta[8*b+4+s/seg8WarpSlots] = int32(starts)
			}
			f := a.XLocal[slot]
			if a.RowStart[slot/32]>>(slot%32)&1 != 0 {
				f |= seg8Start
				starts++
			}
			a.XFlag[slot] = f
		}
	}
}

// emulateSeg8 runs the spac-seg8 kernel on the CPU, warp by warp as the
// device does (the ballots and the shuffles of both scans included), in
// the precision's arithmetic. y must hold the product's prior content; the
// rows in ZeroRows are cleared first, as the host does. The unit tests
// check it against the reference on every test case and schedule.
func emulateSeg8(a *ScheduleArrays, x, y []float64, p Precision) {
	round := emulationStart(a, y, p)
	B := a.BlockSize
	threads := B / seg8Slots
	var rows []int32 // the block's rows, as staged
	store := func(r int, v float64) {
		g := rows[r]
		if g < 0 {
			g &^= segSharedFlag
			y[g] = round(y[g] + v)
		} else {
			y[g] = v
		}
	}
	var head, tail [seg8Warps]float64
	var rowT, info [seg8Warps]int
	for b := range a.Blocks {
		meta := a.Meta[8*b : 8*b+8]
		x0, nx, y0, ny, tasks := int(meta[0]), int(meta[1]), int(meta[2]), int(meta[3]), int(meta[4])
		xs := make([]float64, nx)
		for i := range xs {
			xs[i] = round(x[a.XUnique[x0+i]])
		}
		rows = a.YRow[y0 : y0+ny]
		for w := range threads / 32 {
			var f [32]uint32
			var count, before [32]int
			for lane := range 32 {
				for j := range seg8Slots {
					if a.XFlag[b*B+(32*w+lane)*seg8Slots+j]&seg8Start != 0 {
						f[lane] |= 1 << j
					}
				}
				count[lane] = bits.OnesCount32(f[lane])
				before[lane] = count[lane]
			}
			shflScanInts(&before, func(lane, d int) bool { return lane >= d })
			var anyStart, starts uint32 // the ballots
			for lane := range 32 {
				if f[lane] != 0 {
					anyStart |= 1 << lane
				}
				starts |= (f[lane] & 1) << lane
			}
			wbase := 0
			if w > 0 {
				wbase = int(meta[4+w])
			}
			var sum, first [32]float64
			var row0, row, seg [32]int
			var multi [32]bool
			for lane := range 32 {
				t := 32*w + lane
				row0[lane] = wbase + before[lane] - count[lane] + int(f[lane]&1) - 1
				row[lane] = row0[lane]
				valid := tasks - seg8Slots*t
				for j := range seg8Slots {
					s := b*B + t*seg8Slots + j
					xv := xs[a.XFlag[s]&seg8AddrMask]
					if j >= valid {
						xv = 0
					}
					if j > 0 && f[lane]>>j&1 != 0 {
						if multi[lane] {
							store(row[lane], sum[lane])
						} else {
							first[lane] = sum[lane]
						}
						multi[lane] = true
						row[lane]++
						sum[lane] = 0
					}
					sum[lane] = round(sum[lane] + round(round(a.Val[s])*xv))
				}
				le := anyStart & (^uint32(0) >> (31 - lane))
				seg[lane] = -1
				if le != 0 {
					seg[lane] = 31 - bits.LeadingZeros32(le)
				}
			}
			shflScanFloats(&sum, func(lane, d int) bool { return lane-d >= max(seg[lane], 0) }, round)
			carried := false
			for lane := range 32 {
				t := 32*w + lane
				prev := sum[lane] // __shfl_up by 1: lane 0 reads its own
				if lane > 0 {
					prev = sum[lane-1]
				}
				if multi[lane] {
					switch {
					case f[lane]&1 != 0:
						store(row0[lane], first[lane])
					case anyStart&(1<<lane-1) != 0:
						store(row0[lane], round(first[lane]+prev))
					default:
						head[w] = first[lane]
						if lane > 0 {
							head[w] = round(first[lane] + prev)
						}
						carried = true
					}
				}
				valid := tasks - seg8Slots*t
				if valid <= 0 {
					continue
				}
				last := valid <= seg8Slots
				switch {
				case last || lane < 31 && starts>>(lane+1)&1 != 0:
					if seg[lane] < 0 {
						head[w] = sum[lane]
						carried = true
					} else {
						store(row[lane], sum[lane])
					}
				case lane == 31:
					tail[w], rowT[w] = sum[lane], row[lane]
				}
			}
			info[w] = int(starts & 1)
			if carried {
				info[w] |= 2
			}
			if tasks > seg8WarpSlots*(w+1) {
				info[w] |= 4
			}
		}
		if tasks <= seg8WarpSlots {
			continue // one warp of tasks: no barrier, no carries
		}
		// Thread 0 after the barrier.
		open, c, r := false, 0.0, 0
		for k := range (tasks + seg8WarpSlots - 1) / seg8WarpSlots {
			fl := info[k]
			if open {
				switch {
				case fl&1 != 0:
					store(r, c)
					open = false
				case fl&2 != 0:
					store(r, round(c+head[k]))
					open = false
				default:
					c = round(c + tail[k])
					continue
				}
			}
			if fl&4 != 0 {
				c, r, open = tail[k], rowT[k], true
			}
		}
	}
}

// shflScanInts is the warp's inclusive scan by __shfl_up_sync in steps of
// 1, 2, 4, 8, 16: every lane reads its source before any lane writes, and
// adds it where take says.
func shflScanInts(v *[32]int, take func(lane, d int) bool) {
	for d := 1; d < 32; d *= 2 {
		prev := *v
		for lane := range 32 {
			if lane >= d && take(lane, d) {
				v[lane] += prev[lane-d]
			}
		}
	}
}

// shflScanFloats is shflScanInts for sums in the precision's arithmetic.
func shflScanFloats(v *[32]float64, take func(lane, d int) bool, round func(float64) float64) {
	for d := 1; d < 32; d *= 2 {
		prev := *v
		for lane := range 32 {
			if lane >= d && take(lane, d) {
				v[lane] = round(v[lane] + prev[lane-d])
			}
		}
	}
}

// seg8Shared is the dynamic shared memory of spac-seg8 with values of p:
// the most any block stages, its x values and its rows' 4-byte indices.
func (a *ScheduleArrays) seg8Shared(p Precision) int {
	most := 0
	for b := range a.Blocks {
		most = max(most, int(a.Meta[8*b+1])*p.Bytes()+int(a.Meta[8*b+3])*4)
	}
	return most
}

// seg8PrefetchBlocksPerSM is how far ahead spac-seg8-pf and -lbpf prefetch,
// in blocks per SM: about a wave of resident blocks (9 to 16 of 128 threads
// fit an SM, by registers), so the block that finds its slots in the L2
// starts about when the one that fetched them ends.
const seg8PrefetchBlocksPerSM = 8

// seg8PrefetchDistance is the prefetch distance in blocks of spac-seg8-pf
// and -lbpf on device info with blockSize tasks a block and values of p:
// seg8PrefetchBlocksPerSM per SM, fewer where the slots prefetched ahead
// (value and uint16 each) would take more than a quarter of the L2, which
// x and y need; 0 (no prefetching) where the device tells neither.
func seg8PrefetchDistance(info gpu.DeviceInfo, blockSize int, p Precision) int {
	d := info.SMs * seg8PrefetchBlocksPerSM
	if perBlock := blockSize * (p.Bytes() + 2); perBlock > 0 && info.L2Bytes > 0 {
		d = min(d, info.L2Bytes/4/perBlock)
	}
	return max(d, 0)
}
