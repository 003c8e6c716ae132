package gaussian

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/order"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// WindowFor is the side of the window SPAC partitions for block size B:
// four times the side of a square part of B tasks, rounded up to a power
// of two, at least 64. The window then holds 16 to 128 parts, enough for
// the partitioner to choose their shapes, and tiles any matrix.
func WindowFor(blockSize int) int {
	side := int(math.Ceil(math.Sqrt(float64(blockSize))))
	w := 64
	for w < 4*side {
		w *= 2
	}
	return w
}

// NoTask marks a padding slot of a block (Template.Task).
const NoTask = ^uint32(0)

// Template is the SPAC schedule of one W x W window of Fan2's tasks (window
// row i, column j: the update of a[R+i][C+j] for the window at (R, C)),
// which the kernel repeats over every window of the matrix. Block p of a
// window runs part p:
//   - its rows Rows[RowStart[p]:RowStart[p+1]] and columns
//     Cols[ColStart[p]:ColStart[p+1]] (window-relative, ascending) are the
//     multipliers and pivot-row values it stages in shared memory;
//   - thread s runs the task Task[p*BlockSize+s]: the update at row slot
//     Task&0xffff and column slot Task>>16 of those lists, or nothing
//     (NoTask). Tasks are sorted by (row, column), so a warp's loads and
//     stores of a fall on few rows;
//   - LastRow[p] and LastCol[p] are its largest row and column: a block
//     whose rows all lie above the pivot, or whose columns lie left of it,
//     has nothing to do.
type Template struct {
	Method    string
	BlockSize int
	W         int
	K         int // parts (blocks) per window
	RowStart  []int32
	Rows      []int32
	ColStart  []int32
	Cols      []int32
	Task      []uint32
	LastRow   []int32
	LastCol   []int32
	MaxRows   int // most rows of a part
	MaxCols   int
	Metrics   spac.Metrics  // the partition's (copies: rows and columns staged beyond one per window)
	BuildTime time.Duration // schedule.Build
}

// Window is the locality graph's matrix form for one W x W window: entry
// (i, j) is the task updating window row i, column j; as a bipartite graph
// (pipeline's spmv model) row i is the multiplier m[i] the task reads and
// column j the pivot-row value a[t][j]. Tasks come in row-major order, so
// the default method's contiguous chunks are strips of rows.
func Window(w int) *matrices.COO {
	coo := &matrices.COO{Name: fmt.Sprintf("gaussian Fan2 window %dx%d", w, w), NRows: w, NCols: w,
		Row: make([]int32, w*w), Col: make([]int32, w*w), Field: matrices.Pattern, Symmetry: matrices.General}
	for e := range coo.Row {
		coo.Row[e], coo.Col[e] = int32(e/w), int32(e%w)
	}
	return coo
}

// NewTemplate partitions the window of block size blockSize with the
// method of pc through the shared pipeline (pipeline.Schedule: the
// partition checked, evaluated and laid out by schedule.Build; cache nil:
// a window is partitioned in milliseconds) and turns the schedule into a
// Template.
func NewTemplate(ctx context.Context, blockSize int, pc pipeline.PartitionConfig, prog *progress.Reporter) (*Template, error) {
	if blockSize < 1 || blockSize > schedule.MaxThreads {
		return nil, fmt.Errorf("block size %d: want 1 to %d threads", blockSize, schedule.MaxThreads)
	}
	w := WindowFor(blockSize)
	coo := Window(w)
	in := &pipeline.Input{Matrix: coo, Used: coo, Model: matrices.ModelSpMV}
	s, prov, err := pipeline.Schedule(ctx, in, pc, schedule.Options{BlockSize: blockSize, Budget: schedule.MaxBudget}, nil, prog)
	if err != nil {
		return nil, err
	}
	if s.Applied != schedule.None {
		return nil, fmt.Errorf("internal error: the window's schedule overflowed shared memory (%v)", s.Applied)
	}
	t := &Template{Method: pc.Method, BlockSize: blockSize, W: w, K: s.NumBlocks(), Metrics: prov.Metrics, BuildTime: prov.BuildTime,
		RowStart: s.YOffsets, Rows: s.YUnique, ColStart: s.XOffsets, Cols: s.XUnique,
		Task: make([]uint32, len(s.NewSchedule)), LastRow: make([]int32, s.NumBlocks()), LastCol: make([]int32, s.NumBlocks())}
	for slot, e := range s.NewSchedule {
		t.Task[slot] = NoTask
		if e >= 0 {
			t.Task[slot] = uint32(s.YLocal[slot]) | uint32(s.XLocal[slot])<<16
		}
	}
	for p := 0; p < t.K; p++ {
		t.LastRow[p], t.LastCol[p] = t.Rows[t.RowStart[p+1]-1], t.Cols[t.ColStart[p+1]-1]
		t.MaxRows = max(t.MaxRows, int(t.RowStart[p+1]-t.RowStart[p]))
		t.MaxCols = max(t.MaxCols, int(t.ColStart[p+1]-t.ColStart[p]))
	}
	return t, nil
}

// windows is the range of window rows and columns holding the tasks of
// pivot step t of an n x n matrix: rows t+1..n-1, columns t..n-1.
func (tp *Template) windows(n, t int) (r0, nr, c0, nc int) {
	last := (n - 1) / tp.W
	r0, c0 = (t+1)/tp.W, t/tp.W
	return r0, last - r0 + 1, c0, last - c0 + 1
}

// Blocks is the number of blocks the SPAC kernel launches over the n-1
// pivot steps of an n x n system.
func (tp *Template) Blocks(n int) int64 {
	var sum int64
	for t := 0; t < n-1; t++ {
		_, nr, _, nc := tp.windows(n, t)
		sum += int64(nr * nc * tp.K)
	}
	return sum
}

// Check reports whether the template runs every task of its window
// exactly once, within its lists.
func (tp *Template) Check() error {
	if len(tp.Task) != tp.K*tp.BlockSize || len(tp.RowStart) != tp.K+1 || len(tp.ColStart) != tp.K+1 {
		return fmt.Errorf("a template of %d slots and %d parts for blocks of %d", len(tp.Task), tp.K, tp.BlockSize)
	}
	seen := make([]int32, tp.W*tp.W)
	for blk := 0; blk < tp.K; blk++ {
		nr, nc := uint32(tp.RowStart[blk+1]-tp.RowStart[blk]), uint32(tp.ColStart[blk+1]-tp.ColStart[blk])
		for _, task := range tp.Task[blk*tp.BlockSize : (blk+1)*tp.BlockSize] {
			if task == NoTask {
				continue
			}
			if task&0xffff >= nr || task>>16 >= nc {
				return fmt.Errorf("block %d: task slot (%d, %d) outside its %d rows and %d columns", blk, task&0xffff, task>>16, nr, nc)
			}
			i, j := tp.Rows[tp.RowStart[blk]+int32(task&0xffff)], tp.Cols[tp.ColStart[blk]+int32(task>>16)]
			seen[int(i)*tp.W+int(j)]++
		}
	}
	for cell, c := range seen {
		if c != 1 {
			return fmt.Errorf("the template runs window task (%d, %d) %d times", cell/tp.W, cell%tp.W, c)
		}
	}
	return nil
}

// Run eliminates a system in place on the CPU by the template, as the SPAC
// kernel does: each pivot step's multipliers (Fan1), then window by
// window, block by block, every thread's task. The result is Forward's,
// bit for bit, if the template runs every task exactly once (Check).
func Run[T Float](tp *Template, n int, a, b, m []T) error {
	if err := tp.Check(); err != nil {
		return err
	}
	fma := fmaOf[T]()
	for t := 0; t < n-1; t++ {
		for r := t + 1; r < n; r++ {
			m[r*n+t] = a[r*n+t] / a[t*n+t]
		}
		r0, nr, c0, nc := tp.windows(n, t)
		for wr := r0; wr < r0+nr; wr++ {
			for wc := c0; wc < c0+nc; wc++ {
				for blk := 0; blk < tp.K; blk++ {
					for _, task := range tp.Task[blk*tp.BlockSize : (blk+1)*tp.BlockSize] {
						if task == NoTask {
							continue
						}
						r := wr*tp.W + int(tp.Rows[tp.RowStart[blk]+int32(task&0xffff)])
						c := wc*tp.W + int(tp.Cols[tp.ColStart[blk]+int32(task>>16)])
						if r <= t || r >= n || c < t || c >= n {
							continue
						}
						a[r*n+c] = fma(-m[r*n+t], a[t*n+c], a[r*n+c])
						if c == t {
							b[r] = fma(-m[r*n+t], b[t], b[r])
						}
					}
				}
			}
		}
	}
	return nil
}

// SolveTemplate eliminates s on the CPU by the template in precision p and
// back-substitutes: the CPU run of the SPAC schedule.
func SolveTemplate(tp *Template, s *System, p Precision) (*Solution, error) {
	if p == FP32 {
		return solveTemplate[float32](tp, s)
	}
	return solveTemplate[float64](tp, s)
}

func solveTemplate[T Float](tp *Template, s *System) (*Solution, error) {
	n := s.N
	a, b, m := convert[T](s.A), convert[T](s.B), make([]T, n*n)
	if err := Run(tp, n, a, b, m); err != nil {
		return nil, err
	}
	return finish(n, a, b), nil
}

// Loads are the values Fan2 reads from global memory at its largest step
// (t = 0, every task active): the original's three per task (the
// multiplier, the pivot-row value, the value updated); SPAC's one per
// task, plus the rows' multipliers and columns' pivot values each block
// stages.
func (tp *Template) Loads(n int) int64 {
	tasks := int64(n-1) * int64(n)
	if tp == nil {
		return 3 * tasks
	}
	loads := tasks
	r0, nr, c0, nc := tp.windows(n, 0)
	for wr := r0; wr < r0+nr; wr++ {
		for wc := c0; wc < c0+nc; wc++ {
			for blk := 0; blk < tp.K; blk++ {
				for _, i := range tp.Rows[tp.RowStart[blk]:tp.RowStart[blk+1]] {
					if r := wr*tp.W + int(i); r >= 1 && r < n {
						loads++
					}
				}
				for _, j := range tp.Cols[tp.ColStart[blk]:tp.ColStart[blk+1]] {
					if wc*tp.W+int(j) < n {
						loads++
					}
				}
			}
		}
	}
	return loads
}

// RCM is the reverse Cuthill-McKee ordering of s's matrix graph (a vertex
// per unknown, an edge per nonzero off the diagonal; package order): the
// renumbering a careful user applies before reaching for a partitioner.
// For a dense matrix every ordering has the same bandwidth; RCM then
// amounts to a relabelling (for a complete graph, the reversal).
func RCM(s *System) ([]int32, time.Duration) {
	start := time.Now()
	n := s.N
	ptr := make([]int64, n+1)
	adj := make([]int32, 0, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j && s.A[i*n+j] != 0 {
				adj = append(adj, int32(j))
			}
		}
		ptr[i+1] = int64(len(adj))
	}
	return order.RCM(n, ptr, adj), time.Since(start)
}
