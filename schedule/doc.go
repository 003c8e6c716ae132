// Package schedule turns an edge partition of a sparse matrix's nonzeros into
// what a GPU kernel consumes: the job-swapping array newSchedule, the
// nonzeros reorganized into schedule order, and the shared-memory plan of
// every thread block (section 4 of the SPAC paper, Li et al., POMACS 2017).
//
// # The schedule
//
// A schedule for block size B runs part b of the partition on thread block b.
// Thread tid = b*B + t (t < B) runs the nonzero NewSchedule[tid], an index
// into the matrix's entries, or nothing when NewSchedule[tid] is -1 (an idle
// padding thread). A kernel that only swaps jobs replaces its thread id with
// NewSchedule[tid] and changes nothing else.
//
// Within a block the tasks are sorted by (row, column), ties by entry index.
// Row-major order puts the nonzeros of one row on neighbouring threads, so a
// warp updates few distinct rows, and consecutive columns of a row on
// neighbouring lanes, so a warp's x reads fall in few sectors (or few
// shared-memory banks once x is staged). The order is deterministic.
//
// # Layout of the reorganized data
//
// Every per-task array (NewSchedule, Rows, Cols, Vals, XLocal, YLocal) is
// padded to NumBlocks()*B slots and indexed by the thread id: a block's tasks
// are slots b*B .. b*B+n_b-1, followed by B-n_b padding slots (row and column
// -1, value 0, local addresses 0). Padding keeps every warp's loads aligned to
// 32-byte sectors; a balanced partition (K = ceil(m/B) parts of at most B
// tasks) wastes fewer than B slots in all. BlockOffsets (NumBlocks+1 entries)
// still gives the compact view: block b has n_b = BlockOffsets[b+1] -
// BlockOffsets[b] tasks, and task t of block b is entry
// Perm()[BlockOffsets[b]+t] of the compact order (Inverse() is its
// inverse). Slot maps an entry to its thread id, inverting NewSchedule.
//
// # The software-cache plan
//
// Block b touches the columns XUnique[XOffsets[b]:XOffsets[b+1]] and the rows
// YUnique[YOffsets[b]:YOffsets[b+1]], both sorted ascending. The task in slot
// s reads x from shared-memory slot XLocal[s] and accumulates into y slot
// YLocal[s]. A kernel stages x (x_s[i] = x[XUnique[XOffsets[b]+i]]), zeroes
// y_s, runs its tasks, and flushes: y[r] = y_s[i] when YShared says row r is
// owned by this block alone, atomicAdd(&y[r], y_s[i]) when other blocks
// touch it too (y must start at zero). Local addresses are uint16 in the
// files: the budget caps a block at MaxBudget/4 = 59,392 shared-memory
// slots, fewer than 65,536, so int32 addresses are never needed.
//
// A block needs (n_x + n_y) * w bytes of shared memory for values of w bytes
// (4 for fp32, 8 for fp64), or n_y * w when x goes through the read-only
// cache. When the largest demand exceeds the budget (DefaultBudget, 48 KiB,
// at most MaxBudget, 227 KiB on Hopper) the Overflow policy applies: split
// the overflowing parts into halves until they fit (more blocks, same cap),
// or read x through the read-only cache (only y in shared memory), or pick
// read-only when that fits and split otherwise (auto).
//
// # Files
//
// WriteFile writes a versioned, checksummed little-endian binary file (its
// layout is documented on Schedule.WriteTo); ReadFile refuses damaged,
// truncated or foreign files with an error that says what is wrong. ExportNPY
// writes the arrays as NumPy .npy files, WriteText a plain text form for
// small cases. Cache keeps built schedules keyed by the matrix structure and
// the parameters.
package schedule
