package particlefilter

import (
	"context"
	"fmt"
	"time"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// FrameMatrix is the likelihood of one tracked frame as a sparse matrix:
// row i is particle i, column c is the video pixel ColPixel[c], and entry
// e = i*CountOnes + j is sample j of particle i, so that the frame's sums
// of likelihood ratios are A g, g the ratios of the frame's pixels. It is
// the frame's locality graph in the paper's SpMV model: a task (thread)
// per sample, joining the particle it adds to and the pixel it reads;
// particles near each other share pixels.
type FrameMatrix struct {
	Frame    int
	COO      *matrices.COO
	ColPixel []int32
}

// NewFrameMatrix builds frame k's matrix (1 <= k < Frames) from the
// cells of the trajectory. Columns are numbered in the order the samples
// first reach them.
func NewFrameMatrix(v *Video, tr *Trajectory, k int) (*FrameMatrix, error) {
	if k < 1 || k >= v.Frames || k > len(tr.CellX) {
		return nil, fmt.Errorf("frame %d: the trajectory has frames 1 to %d", k, len(tr.CellX))
	}
	n := tr.N
	if int64(n)*int64(CountOnes) > 1<<31-1 {
		return nil, fmt.Errorf("%d particles: %d samples a frame exceed the int32 task range", n, int64(n)*int64(CountOnes))
	}
	nnz := n * CountOnes
	coo := &matrices.COO{Name: fmt.Sprintf("particle filter frame %d", k), NRows: n,
		Row: make([]int32, nnz), Col: make([]int32, nnz), Field: matrices.Pattern}
	col := map[int32]int32{}
	var colPixel []int32
	yf, frames, size := int32(v.Y*v.Frames), int32(v.Frames), int32(len(v.I))
	cx, cy := tr.CellX[k-1], tr.CellY[k-1]
	for i := 0; i < n; i++ {
		for j := 0; j < CountOnes; j++ {
			p := sampleIndex(cx[i], cy[i], Offsets[2*j+1], Offsets[2*j], yf, frames, int32(k), size)
			c, ok := col[p]
			if !ok {
				c = int32(len(colPixel))
				col[p] = c
				colPixel = append(colPixel, p)
			}
			e := i*CountOnes + j
			coo.Row[e], coo.Col[e] = int32(i), c
		}
	}
	coo.NCols = len(colPixel)
	return &FrameMatrix{Frame: k, COO: coo, ColPixel: colPixel}, nil
}

// FrameSchedule is the SPAC schedule of one frame's likelihood: the
// schedule of its FrameMatrix (package schedule: block b runs part b,
// slot s's task is the sample NewSchedule[s]) and the video pixel of every
// column a block stages.
type FrameSchedule struct {
	Frame int
	Sched *schedule.Schedule
	// StagePixel[x] is the video pixel of Sched.XUnique[x].
	StagePixel []int32
	Metrics    spac.Metrics
}

// Plan is how a GPU variant runs: the original kernels (Original, Naive),
// the original with its likelihood threads renumbered per frame (RCM), or
// the SPAC-scheduled likelihood (SPAC).
type Plan struct {
	Variant   string
	BlockSize int
	// Perm[k-1][t] is the particle thread t of frame k's likelihood
	// kernel runs (RCM).
	Perm [][]int32
	// Frames[k-1] is frame k's schedule (SPAC); Cells are the cells it
	// was built for, which the kernels check.
	Frames []*FrameSchedule
	Cells  *Trajectory
	// Method is the partitioning method (SPAC) or "rcm"; Prep is the time
	// the per-frame orders or partitions took, all frames together.
	Method string
	Prep   time.Duration
	// Copies sums the frames' vertex copies (SPAC); MaxShared is the most
	// dynamic shared memory a block of the likelihood needs, in bytes.
	Copies    int64
	MaxShared int
}

// Variants of a GPU run.
const (
	Original = "original" // Rodinia's particlefilter_float: every step on the GPU
	Naive    = "naive"    // Rodinia's particlefilter_naive: only the resampling on the GPU
	RCM      = "rcm"      // the original, likelihood threads in reverse Cuthill-McKee order
	SPAC     = "spac"     // the likelihood by SPAC-scheduled samples
)

// Variants lists the variants, the original first.
var Variants = []string{Original, Naive, RCM, SPAC}

// PlanOriginal is the plan of the original kernels (Original or Naive).
func PlanOriginal(variant string, blockSize int) (*Plan, error) {
	if variant != Original && variant != Naive {
		return nil, fmt.Errorf("variant %q: want %s or %s", variant, Original, Naive)
	}
	return &Plan{Variant: variant, BlockSize: blockSize}, nil
}

// PlanSPAC partitions every tracked frame's samples with method into parts
// of at most blockSize (opts.K and opts.Cap are set here; the rest is
// passed on) through pipeline.PartitionGraph, and builds each frame's
// schedule. The trajectory is the inspector's: the reference run's cells.
// Frames are partitioned in parallel (METIS calls run concurrently, see
// package metis); Prep sums their times, and a line per frame goes to
// prog.
func PlanSPAC(ctx context.Context, v *Video, tr *Trajectory, method spac.Method, blockSize int, opts spac.Options, prog *progress.Reporter) (*Plan, error) {
	frames := v.Frames - 1
	plan := &Plan{Variant: SPAC, BlockSize: blockSize, Cells: tr, Method: method.Name(), Frames: make([]*FrameSchedule, frames)}
	took := make([]time.Duration, frames)
	err := par.DoCtx(ctx, frames, func(f int) error {
		start := time.Now()
		fs, err := frameSchedule(ctx, v, tr, f+1, method, blockSize, opts)
		if err != nil {
			return err
		}
		took[f] = time.Since(start)
		plan.Frames[f] = fs
		prog.Printf("  frame %d, B=%d: %s partition of %d samples in %.2f s, %d copies", f+1, blockSize, method.Name(), fs.Metrics.Edges, fs.Metrics.Time.Seconds(), fs.Metrics.Copies)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for f, fs := range plan.Frames {
		plan.Prep += took[f]
		plan.Copies += fs.Metrics.Copies
		plan.MaxShared = max(plan.MaxShared, spacShared(fs.Sched))
	}
	return plan, nil
}

// frameSchedule partitions and schedules frame k.
func frameSchedule(ctx context.Context, v *Video, tr *Trajectory, k int, method spac.Method, blockSize int, opts spac.Options) (*FrameSchedule, error) {
	fm, err := NewFrameMatrix(v, tr, k)
	if err != nil {
		return nil, err
	}
	g, err := matrices.LocalityGraph(fm.COO, matrices.ModelSpMV)
	if err != nil {
		return nil, err
	}
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		return nil, err
	}
	if opts.K, opts.Cap, err = spac.Resolve(g.NumEdges(), 0, blockSize); err != nil {
		return nil, err
	}
	p, met, err := pipeline.PartitionGraph(ctx, fm.COO.Name, g, inc, method, opts, nil)
	if err != nil {
		return nil, err
	}
	s, err := schedule.Build(fm.COO, p, schedule.Options{BlockSize: blockSize, ValueBytes: 4,
		Params: []schedule.Param{{Key: "method", Value: method.Name()}}})
	if err != nil {
		return nil, fmt.Errorf("frame %d: %w", k, err)
	}
	// Two ints a task at most: far below every budget, so Build never
	// splits parts or leaves x out of shared memory.
	if s.Applied != schedule.None {
		return nil, fmt.Errorf("frame %d: the schedule did not fit shared memory (%v)", k, s.Applied)
	}
	fs := &FrameSchedule{Frame: k, Sched: s, Metrics: met, StagePixel: make([]int32, len(s.XUnique))}
	for x, c := range s.XUnique {
		fs.StagePixel[x] = fm.ColPixel[c]
	}
	return fs, nil
}

// spacShared is the dynamic shared memory of a SPAC likelihood block of s:
// an int per staged pixel and per particle sum of its largest block.
func spacShared(s *schedule.Schedule) int {
	most := 0
	for b := range s.NumBlocks() {
		most = max(most, 4*(s.UniqueX(b)+s.UniqueY(b)))
	}
	return most
}
