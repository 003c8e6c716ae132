package schedule

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spac-gpu/spac/internal/enum"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// Shared-memory budgets per thread block, in bytes.
const (
	DefaultBudget = 48 << 10  // what every CUDA GPU gives a block without opting in
	MaxBudget     = 227 << 10 // the most a block can opt into (Hopper, Blackwell)
)

// Overflow is what to do when a block's shared-memory demand exceeds the
// budget. As a policy it is Auto, Split or ReadOnly; as what was applied it
// is None, Split or ReadOnly.
type Overflow uint8

const (
	Auto     Overflow = iota // read-only when y alone fits, else split
	Split                    // split overflowing parts into halves until they fit
	ReadOnly                 // x through the read-only cache, only y in shared memory
	None                     // applied: every block fit, x and y in shared memory
)

// overflows are the policies as the command line spells them ("" is auto).
var overflows = enum.New("overflow policy",
	enum.Name[Overflow]{Value: Auto, Name: "auto", Aliases: []string{""}},
	enum.Name[Overflow]{Value: Split, Name: "split"},
	enum.Name[Overflow]{Value: ReadOnly, Name: "readonly", Aliases: []string{"read-only"}},
)

func (o Overflow) String() string {
	if o == None {
		return "none"
	}
	return overflows.String(o)
}

// ParseOverflow reads a policy as the command line spells it.
func ParseOverflow(s string) (Overflow, error) { return overflows.Parse(s) }

// OverflowNames lists the policies, for help texts.
func OverflowNames() []string { return overflows.Names() }

// Param is one key=value pair of the method and parameters a schedule was
// made with; they are recorded in the file and are part of the cache key.
type Param struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Options say how Build lays out a schedule.
type Options struct {
	BlockSize int // threads per block; every part must hold at most this many tasks
	// Budget is the shared memory a block may use, in bytes; 0 means
	// DefaultBudget. At most MaxBudget.
	Budget int
	// ValueBytes is the size of a value the budget is checked for: 8 (fp64,
	// the default when 0) or 4 (fp32). An fp64 plan that fits also fits fp32.
	ValueBytes int
	Overflow   Overflow // policy: Auto, Split or ReadOnly
	Params     []Param  // method and parameters, recorded as given
}

func (o Options) resolve() (Options, error) {
	if o.BlockSize < 1 {
		return o, fmt.Errorf("block size %d: want at least 1 thread", o.BlockSize)
	}
	if o.Budget == 0 {
		o.Budget = DefaultBudget
	}
	if o.Budget < 0 || o.Budget > MaxBudget {
		return o, fmt.Errorf("shared-memory budget %d bytes: want 1 to %d (227 KiB, the most a Hopper block can have)", o.Budget, MaxBudget)
	}
	if o.ValueBytes == 0 {
		o.ValueBytes = 8
	}
	if o.ValueBytes != 4 && o.ValueBytes != 8 {
		return o, fmt.Errorf("value size %d bytes: want 4 (fp32) or 8 (fp64)", o.ValueBytes)
	}
	if o.Overflow != Auto && o.Overflow != Split && o.Overflow != ReadOnly {
		return o, fmt.Errorf("overflow policy %v: want auto, split or readonly", o.Overflow)
	}
	for _, p := range o.Params {
		if p.Key == "" || strings.ContainsAny(p.Key, "=\n\r") || strings.ContainsAny(p.Value, "\n\r") {
			return o, fmt.Errorf("parameter %q=%q: keys must be non-empty without '=' or line breaks, values without line breaks", p.Key, p.Value)
		}
	}
	return o, nil
}

// Schedule is a locality schedule: the job-swapping array, the nonzeros in
// schedule order and the shared-memory plan. The package documentation
// describes the layout. Every per-task slice has NumBlocks()*BlockSize
// entries indexed by thread id.
type Schedule struct {
	NRows, NCols int
	NNZ          int
	BlockSize    int
	Parts        int     // K of the partition the schedule came from
	Params       []Param // method and parameters, as Options.Params gave them
	// Fingerprint is StructureFingerprint of the matrix the schedule was
	// made for; files and the cache check it.
	Fingerprint uint64

	Budget      int      // shared-memory budget per block, bytes
	ValueBytes  int      // value size the budget was checked for
	Policy      Overflow // requested: Auto, Split or ReadOnly
	Applied     Overflow // None, Split or ReadOnly
	SplitBlocks int      // blocks added by splitting (NumBlocks() - Parts)

	NewSchedule  []int32   // thread id -> entry, -1 for padding
	Slot         []int32   // entry -> thread id (inverse of NewSchedule)
	BlockPart    []int32   // block -> part it runs (a split part runs on several blocks)
	BlockOffsets []int32   // compact task offsets, NumBlocks()+1
	Rows, Cols   []int32   // global row and column per slot, -1 for padding
	Vals         []float64 // value per slot, 0 for padding; nil when the matrix has no real values
	XLocal       []int32   // shared-memory x address per slot (index into the block's XUnique)
	YLocal       []int32   // shared-memory y address per slot (index into the block's YUnique)
	XOffsets     []int32   // block b's columns are XUnique[XOffsets[b]:XOffsets[b+1]]
	XUnique      []int32
	YOffsets     []int32 // block b's rows are YUnique[YOffsets[b]:YOffsets[b+1]]
	YUnique      []int32
	YShared      []uint8 // per YUnique entry: 1 when other blocks touch the row too (atomic flush), 0 when owned
}

// NumBlocks is the number of thread blocks a launch has.
func (s *Schedule) NumBlocks() int { return len(s.BlockPart) }

// Tasks is the number of tasks of block b.
func (s *Schedule) Tasks(b int) int { return int(s.BlockOffsets[b+1] - s.BlockOffsets[b]) }

// UniqueX and UniqueY are the numbers of distinct columns and rows block b
// touches: its x and y slots in shared memory.
func (s *Schedule) UniqueX(b int) int { return int(s.XOffsets[b+1] - s.XOffsets[b]) }
func (s *Schedule) UniqueY(b int) int { return int(s.YOffsets[b+1] - s.YOffsets[b]) }

// XReadOnly reports whether x goes through the read-only cache instead of
// shared memory.
func (s *Schedule) XReadOnly() bool { return s.Applied == ReadOnly }

// SharedBytes is the shared memory block b needs for values of valueBytes
// bytes: its x slots (unless x is read-only) and its y slots.
func (s *Schedule) SharedBytes(b, valueBytes int) int {
	n := s.UniqueY(b)
	if !s.XReadOnly() {
		n += s.UniqueX(b)
	}
	return n * valueBytes
}

// MaxSharedBytes is the largest SharedBytes over all blocks: the dynamic
// shared-memory size a kernel launch asks for.
func (s *Schedule) MaxSharedBytes(valueBytes int) int {
	m := 0
	for b := range s.NumBlocks() {
		m = max(m, s.SharedBytes(b, valueBytes))
	}
	return m
}

// AddrBytes is the width of a local address in the files and the traffic
// model: uint16. A block fits the budget, at most MaxBudget bytes, so it
// has at most MaxBudget/4 = 59,392 slots of 4-byte values: every address
// is below 65,536.
const AddrBytes = 2

// Perm is the compact schedule order: position BlockOffsets[b]+t holds the
// entry that thread t of block b runs. It is NewSchedule without padding.
func (s *Schedule) Perm() []int32 {
	perm := make([]int32, 0, s.NNZ)
	for _, e := range s.NewSchedule {
		if e >= 0 {
			perm = append(perm, e)
		}
	}
	return perm
}

// Inverse is the inverse of Perm: the compact position of every entry.
func (s *Schedule) Inverse() []int32 {
	inv := make([]int32, s.NNZ)
	for e, tid := range s.Slot {
		b := int(tid) / s.BlockSize
		inv[e] = s.BlockOffsets[b] + tid - int32(b*s.BlockSize)
	}
	return inv
}

// Param returns the value of the named parameter and whether it is there.
func (s *Schedule) Param(key string) (string, bool) {
	for _, p := range s.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// ErrOverBudget says a schedule cannot be made to fit the shared-memory
// budget with the policy asked for.
var ErrOverBudget = errors.New("shared-memory budget exceeded")

// MaxThreads is the most threads a CUDA block has.
const MaxThreads = 1024

// MaxBlockSize is the most tasks of a block of the schedule, that is of a
// part. Kernels of a thread a task (the paper's) run parts of at most
// MaxThreads; spac-d16 runs a part of up to 16384 as thread blocks of
// 1024 tasks (128 threads of eight), and larger parts share fewer rows.
const MaxBlockSize = 16384

// ErrBlockTooLarge is PredictTraffic's answer to parts larger than a CUDA
// block: the kernels it models run a thread a task, and building the
// schedule would pad every split part to the part size (gigabytes for
// large parts).
var ErrBlockTooLarge = fmt.Errorf("more than the %d threads of a CUDA block", MaxThreads)

// Build makes the schedule of partition p of coo's entries: entry e runs in
// block p.Part[e]. Every part must hold at most opts.BlockSize entries.
// Values come from coo.RealValues; a matrix without real values (complex)
// gets a schedule without Vals, usable for its structure only.
//
// Build runs in O(nnz + rows + cols + blocks*B) with counting sorts and flat
// stamp arrays, no comparison sorts and no maps.
func Build(coo *matrices.COO, p spac.Partition, opts Options) (*Schedule, error) {
	opts, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	nnz := coo.NNZ()
	if nnz == 0 {
		return nil, fmt.Errorf("%s: the matrix has no entries: nothing to schedule", coo.Name)
	}
	if len(coo.Col) != nnz {
		return nil, fmt.Errorf("%s: inconsistent entry arrays", coo.Name)
	}
	if len(p.Part) != nnz {
		return nil, fmt.Errorf("%s: the partition covers %d entries, the matrix has %d (was it made with the other --as-stored setting?)", coo.Name, len(p.Part), nnz)
	}
	if p.K < 1 {
		return nil, fmt.Errorf("%s: partition with %d parts", coo.Name, p.K)
	}
	B := opts.BlockSize
	if int64(p.K)*int64(B) > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d blocks of %d threads exceed the int32 thread-id range", coo.Name, p.K, B)
	}
	load := make([]int32, p.K)
	for e, q := range p.Part {
		if q < 0 || int(q) >= p.K {
			return nil, fmt.Errorf("%s: entry %d is in part %d, outside [0,%d)", coo.Name, e, q, p.K)
		}
		load[q]++
	}
	for q, l := range load {
		if int(l) > B {
			return nil, fmt.Errorf("%s: part %d holds %d tasks, more than the %d threads of a block (partition with --block-size %d)", coo.Name, q, l, B, B)
		}
	}
	for e := range nnz {
		if r, c := coo.Row[e], coo.Col[e]; r < 0 || int(r) >= coo.NRows || c < 0 || int(c) >= coo.NCols {
			return nil, fmt.Errorf("%s: entry %d at (%d,%d) is outside the %d x %d matrix", coo.Name, e, r, c, coo.NRows, coo.NCols)
		}
	}

	bl := builder{coo: coo, B: B}
	bl.byCol = matrices.CountingSort(coo.Col, coo.NCols, nil)
	bl.csr = matrices.CountingSort(coo.Row, coo.NRows, bl.byCol)
	blockPart := make([]int32, p.K)
	for b := range blockPart {
		blockPart[b] = int32(b)
	}
	s := bl.layout(p.Part, blockPart)
	s.Parts = p.K
	s.Budget, s.ValueBytes, s.Policy, s.Applied = opts.Budget, opts.ValueBytes, opts.Overflow, None

	if s.MaxSharedBytes(opts.ValueBytes) > opts.Budget {
		yOnly := 0
		for b := range s.NumBlocks() {
			yOnly = max(yOnly, s.UniqueY(b)*opts.ValueBytes)
		}
		switch {
		case opts.Overflow != Split && yOnly <= opts.Budget:
			// x bypasses shared memory: no staging list, no local x addresses.
			s.Applied = ReadOnly
			s.XUnique = []int32{}
			clear(s.XOffsets)
			clear(s.XLocal)
		case opts.Overflow == ReadOnly:
			return nil, fmt.Errorf("%s: %w: even with x through the read-only cache a block needs %d bytes for its y slots, over the budget of %d (use --overflow split or auto, or a larger budget)",
				coo.Name, ErrOverBudget, yOnly, opts.Budget)
		default:
			blockOf, parts, err := bl.split(s, opts)
			if err != nil {
				return nil, err
			}
			split := bl.layout(blockOf, parts)
			split.Parts = p.K
			split.Budget, split.ValueBytes, split.Policy, split.Applied = opts.Budget, opts.ValueBytes, opts.Overflow, Split
			split.SplitBlocks = split.NumBlocks() - p.K
			s = split
		}
	}

	if vals, err := coo.RealValues(); err == nil {
		s.Vals = make([]float64, len(s.NewSchedule))
		for tid, e := range s.NewSchedule {
			if e >= 0 {
				s.Vals[tid] = vals[e]
			}
		}
	}
	s.Params = append([]Param(nil), opts.Params...)
	s.Fingerprint = StructureFingerprint(coo)
	return s, nil
}

// builder holds the orders Build computes once and reuses when it splits.
type builder struct {
	coo   *matrices.COO
	B     int
	byCol []int32 // entries by column, ties by index
	csr   []int32 // entries by (row, column), ties by index
}

// layout places every entry e in block blockOf[e] (len(blockPart) blocks)
// and computes the plan.
func (bl *builder) layout(blockOf []int32, blockPart []int32) *Schedule {
	coo, B := bl.coo, bl.B
	nb := len(blockPart)
	nnz := coo.NNZ()
	s := &Schedule{NRows: coo.NRows, NCols: coo.NCols, NNZ: nnz, BlockSize: B, BlockPart: blockPart}

	// Compact order: the CSR order bucketed by block, which keeps it sorted
	// by (row, column) within each block.
	off := make([]int32, nb+1)
	for _, b := range blockOf {
		off[b+1]++
	}
	for b := range nb {
		off[b+1] += off[b]
	}
	s.BlockOffsets = off
	n := nb * B
	s.NewSchedule = make([]int32, n)
	s.Rows = make([]int32, n)
	s.Cols = make([]int32, n)
	for i := range s.NewSchedule {
		s.NewSchedule[i], s.Rows[i], s.Cols[i] = -1, -1, -1
	}
	s.Slot = make([]int32, nnz)
	next := make([]int32, nb) // next free thread id of each block
	for b := range nb {
		next[b] = int32(b * B)
	}
	for _, e := range bl.csr {
		b := blockOf[e]
		tid := next[b]
		next[b]++
		s.NewSchedule[tid] = e
		s.Slot[e] = tid
		s.Rows[tid] = coo.Row[e]
		s.Cols[tid] = coo.Col[e]
	}

	s.XLocal = make([]int32, n)
	s.YLocal = make([]int32, n)
	s.XOffsets, s.XUnique, _ = bl.unique(bl.byCol, coo.Col, blockOf, nb, s.XLocal, s.Slot, false)
	var shared []uint8
	s.YOffsets, s.YUnique, shared = bl.unique(bl.csr, coo.Row, blockOf, nb, s.YLocal, s.Slot, true)
	s.YShared = shared
	return s
}

// unique lists, for every block, the distinct keys (columns or rows) of its
// entries in ascending order, and writes each entry's position in its
// block's list to local[slot[e]]. order must list the entries sorted by key,
// so each block's list comes out sorted without a comparison sort. With
// flagShared it also marks the keys that occur in more than one block.
func (bl *builder) unique(order, key, blockOf []int32, nb int, local, slot []int32, flagShared bool) (off, uniq []int32, shared []uint8) {
	last := make([]int32, nb) // last key appended to each block's list
	for b := range last {
		last[b] = -1
	}
	off = make([]int32, nb+1)
	for _, e := range order {
		b, k := blockOf[e], key[e]
		if last[b] != k {
			last[b] = k
			off[b+1]++
		}
	}
	for b := range nb {
		off[b+1] += off[b]
		last[b] = -1
	}
	uniq = make([]int32, off[nb])
	if flagShared {
		shared = make([]uint8, off[nb])
	}
	pos := make([]int32, nb) // next free position of each block's list
	copy(pos, off[:nb])
	var pending []int32 // positions appended for the current key
	cur := int32(-1)
	for _, e := range order {
		b, k := blockOf[e], key[e]
		if flagShared && k != cur {
			markShared(shared, pending)
			pending, cur = pending[:0], k
		}
		if last[b] != k {
			last[b] = k
			uniq[pos[b]] = k
			if flagShared {
				pending = append(pending, pos[b])
			}
			pos[b]++
		}
		local[slot[e]] = pos[b] - 1 - off[b]
	}
	if flagShared {
		markShared(shared, pending)
	}
	return off, uniq, shared
}

// markShared flags a key's list positions when the key is in several blocks.
func markShared(shared []uint8, positions []int32) {
	if len(positions) > 1 {
		for _, p := range positions {
			shared[p] = 1
		}
	}
}

// split cuts every block whose demand exceeds the budget into halves of
// its (row, column)-ordered tasks, recursively, until each piece fits with x
// and y in shared memory. A cut is moved to the nearest row boundary within
// a quarter of the piece, so that the halves share as few rows as possible.
// It returns the new block of every entry and the part of every new block.
func (bl *builder) split(s *Schedule, opts Options) (blockOf, blockPart []int32, err error) {
	coo, B, w := bl.coo, bl.B, opts.ValueBytes
	if 2*w > opts.Budget {
		return nil, nil, fmt.Errorf("%s: %w: a budget of %d bytes cannot hold even one task's x and y (%d bytes)", coo.Name, ErrOverBudget, opts.Budget, 2*w)
	}
	blockOf = make([]int32, coo.NNZ())
	rowSeen := make([]int32, coo.NRows)
	colSeen := make([]int32, coo.NCols)
	stamp := int32(0)
	// demand counts the distinct rows and columns of one block's slots [lo, hi).
	demand := func(lo, hi int) int {
		stamp++
		n := 0
		for tid := lo; tid < hi; tid++ {
			if r := s.Rows[tid]; rowSeen[r] != stamp {
				rowSeen[r] = stamp
				n++
			}
			if c := s.Cols[tid]; colSeen[c] != stamp {
				colSeen[c] = stamp
				n++
			}
		}
		return n * w
	}
	var emit func(part int32, lo, hi int)
	emit = func(part int32, lo, hi int) {
		if hi-lo > 1 && demand(lo, hi) > opts.Budget {
			mid := (lo + hi) / 2
			reach := max(1, (hi-lo)/4)
			for d := 0; d <= reach; d++ {
				if m := mid + d; m < hi && s.Rows[m] != s.Rows[m-1] {
					mid = m
					break
				}
				if m := mid - d; m > lo && s.Rows[m] != s.Rows[m-1] {
					mid = m
					break
				}
			}
			emit(part, lo, mid)
			emit(part, mid, hi)
			return
		}
		nb := int32(len(blockPart))
		for tid := lo; tid < hi; tid++ {
			blockOf[s.NewSchedule[tid]] = nb
		}
		blockPart = append(blockPart, part)
	}
	for b := range s.NumBlocks() {
		lo := b * B
		emit(s.BlockPart[b], lo, lo+s.Tasks(b))
	}
	if int64(len(blockPart))*int64(B) > math.MaxInt32 {
		return nil, nil, fmt.Errorf("%s: splitting made %d blocks of %d threads, beyond the int32 thread-id range", coo.Name, len(blockPart), B)
	}
	return blockOf, blockPart, nil
}
