package particlefilter

import (
	_ "embed"
	"fmt"
	"math/bits"
	"time"

	"github.com/spac-gpu/spac/gpu"
)

// pfPTX is kernels/particlefilter.ptx, made from kernels/particlefilter.cu
// by 'make ptx'.
//
//go:embed kernels/particlefilter.ptx
var pfPTX string

// Module is the particle filter's kernels' PTX, which NewGPU loads.
var Module = gpu.PTXModule{Name: "particlefilter", PTX: pfPTX, Entries: []string{
	"pf_likelihood", "pf_likelihood_perm", "pf_sum", "pf_normalize", "pf_cdf", "pf_find_index",
	"pf_motion", "pf_spac_terms", "pf_spac_weight"}}

// BlockSizes are the thread-block sizes the paper's Fig. 14 sweeps for
// particlefilter.
var BlockSizes = []int{32, 64, 128, 256, 512, 1024}

// GPU runs the filter on a device with the kernels of Module.
type GPU struct {
	dev *gpu.Device
	mod *gpu.Module
}

// NewGPU loads the kernels into an open device (gpu.Open); without a CUDA
// build it returns gpu.ErrNoCUDA.
func NewGPU(d *gpu.Device) (*GPU, error) {
	mod, err := d.LoadModule(Module)
	if err != nil {
		return nil, err
	}
	return &GPU{dev: d, mod: mod}, nil
}

// Source says where the kernels' PTX came from: embedded, or a file under
// SPAC_PTX_DIR.
func (g *GPU) Source() string { return g.mod.Source() }

// GPUResult is one run of the filter on the GPU.
type GPUResult struct {
	Result    // Time: the frames; CUDA events, or the wall clock for Naive (host work and copies included)
	BlockSize int
	// Launches is the kernel launches of one run; Blocks the thread blocks
	// they start.
	Launches, Blocks int
	// Shared is the most dynamic shared memory a block of the run uses.
	Shared int
	// Likelihood is the time of the likelihood's kernels alone, summed over
	// the frames (the original's and RCM's likelihood kernel, SPAC's
	// motion, terms and weights: the steps the variants differ in), each
	// frame's between CUDA events of its own, in a third run from the same
	// start; zero for Naive.
	Likelihood time.Duration
}

// Run runs the filter over the video's frames 1 to Frames-1 as plan says,
// from the generator states seed (NewVideo's; not modified), with
// plan.BlockSize threads per block. The GPU-resident variants run once as
// a warm-up (the driver compiles each kernel at its first launch), start
// again from the same state, and are timed between CUDA events; the naive
// variant, whose frames alternate host and device work, is timed by the
// wall clock after the same warm-up.
func (g *GPU) Run(v *Video, seed []int32, plan *Plan) (*GPUResult, error) {
	B := plan.BlockSize
	if B < 32 || B > 1024 || B%32 != 0 {
		return nil, fmt.Errorf("block size %d: want a multiple of 32 from 32 to 1024 threads", B)
	}
	if len(seed) == 0 {
		return nil, fmt.Errorf("no particles")
	}
	frames := v.Frames - 1
	switch plan.Variant {
	case Original, Naive:
	case RCM:
		if len(plan.Perm) != frames {
			return nil, fmt.Errorf("rcm plan of %d frames for a video of %d tracked frames", len(plan.Perm), frames)
		}
	case SPAC:
		if len(plan.Frames) != frames || plan.Cells == nil || len(plan.Cells.CellX) != frames || plan.Cells.N != len(seed) {
			return nil, fmt.Errorf("spac plan of %d frames for a video of %d tracked frames and %d particles", len(plan.Frames), frames, len(seed))
		}
	default:
		return nil, fmt.Errorf("unknown variant %q", plan.Variant)
	}
	r := &run{g: g, v: v, seed: seed, plan: plan, n: len(seed), B: B}
	defer r.free()
	if plan.Variant == Naive {
		return r.naive()
	}
	return r.resident()
}

// run holds one run's device memory.
type run struct {
	g    *GPU
	v    *Video
	seed []int32
	plan *Plan
	n, B int
	bufs []*gpu.Buffer
}

func (r *run) free() {
	for _, b := range r.bufs {
		b.Free()
	}
}

func (r *run) alloc(bytes int, what string) (*gpu.Buffer, error) {
	b, err := r.g.dev.Alloc(int64(bytes), what)
	if err != nil {
		return nil, err
	}
	r.bufs = append(r.bufs, b)
	return b, nil
}

func upload[E any](r *run, s []E, what string) (*gpu.Buffer, error) {
	b, err := gpu.Upload(r.g.dev, s, what)
	if err != nil {
		return nil, err
	}
	r.bufs = append(r.bufs, b)
	return b, nil
}

// state is the particles' device arrays.
type state struct {
	seed, xj, yj, ax, ay, w, lik, cdf, u *gpu.Buffer
}

func (r *run) newState() (*state, error) {
	var s state
	var err error
	if s.seed, err = upload(r, r.seed, "generator states"); err != nil {
		return nil, err
	}
	for _, d := range []struct {
		b    **gpu.Buffer
		what string
	}{{&s.xj, "drawn x"}, {&s.yj, "drawn y"}, {&s.ax, "positions x"}, {&s.ay, "positions y"}, {&s.w, "weights"},
		{&s.lik, "likelihoods"}, {&s.cdf, "cumulative weights"}, {&s.u, "resampling points"}} {
		if *d.b, err = r.alloc(8*r.n, d.what); err != nil {
			return nil, err
		}
	}
	return &s, nil
}

// reset puts the state where a run starts: the generators as given and
// every particle drawn at the frame's centre.
func (r *run) reset(s *state) error {
	if err := gpu.Write(s.seed, r.seed, "generator states"); err != nil {
		return err
	}
	f := newFilter(r.v, r.seed)
	if err := gpu.Write(s.xj, f.xj, "drawn x"); err != nil {
		return err
	}
	return gpu.Write(s.yj, f.yj, "drawn y")
}

// result downloads the final state.
func (r *run) result(s *state) (*Result, error) {
	res := &Result{Variant: r.plan.Variant}
	outs := []*[]float64{&res.X, &res.Y, &res.W, &res.XJ, &res.YJ}
	for i, b := range []*gpu.Buffer{s.ax, s.ay, s.w, s.xj, s.yj} {
		*outs[i] = make([]float64, r.n)
		if err := gpu.Download(b, *outs[i], "the final state"); err != nil {
			return nil, err
		}
	}
	f := &filter{n: r.n, x: res.X, y: res.Y, w: res.W}
	res.Estimate = [][2]float64{f.estimate()}
	return res, nil
}

// pow2 is the smallest power of two of at least b.
func pow2(b int) int { return 1 << bits.Len(uint(b-1)) }

// resident runs the original (and RCM) or SPAC kernels, every step on the
// GPU.
func (r *run) resident() (*GPUResult, error) {
	v, n, B, plan := r.v, r.n, r.B, r.plan
	s, err := r.newState()
	if err != nil {
		return nil, err
	}
	img, err := upload(r, v.I, "video")
	if err != nil {
		return nil, err
	}
	grid := (n + B - 1) / B
	partial, err := r.alloc(8*grid, "partial sums")
	if err != nil {
		return nil, err
	}
	scal, err := r.alloc(16, "sum and offset")
	if err != nil {
		return nil, err
	}
	p2 := pow2(B)
	sumShared := 8 * p2
	out := &GPUResult{BlockSize: B, Shared: sumShared}
	yf, frames, size := v.Y*v.Frames, v.Frames, len(v.I)
	ptr := gpu.Ptr
	var steps []*gpu.Launch
	// Per frame, where its likelihood's launches end in steps and where
	// its resampling's end.
	type frameSteps struct{ lik, end int }
	var phases []frameSteps
	launch := func(name string, blocks, threads, shared int, args ...uint64) error {
		l, err := r.g.mod.LaunchOptIn(name, blocks, threads, shared, args...)
		if err != nil {
			return err
		}
		steps = append(steps, l)
		out.Launches++
		out.Blocks += blocks
		return nil
	}
	// The resampling's steps, the same for every variant.
	tail := func() error {
		phases = append(phases, frameSteps{lik: len(steps)})
		defer func() { phases[len(phases)-1].end = len(steps) }()
		if err := launch("pf_sum", 1, 32, 0, gpu.Int(grid), ptr(partial), ptr(scal), ptr(s.seed), gpu.Int(n)); err != nil {
			return err
		}
		if err := launch("pf_normalize", grid, B, 0, gpu.Int(n), ptr(s.w), ptr(scal), ptr(s.u)); err != nil {
			return err
		}
		if err := launch("pf_cdf", 1, 32, 0, gpu.Int(n), ptr(s.w), ptr(s.cdf)); err != nil {
			return err
		}
		return launch("pf_find_index", grid, B, 0, gpu.Int(n), ptr(s.ax), ptr(s.ay), ptr(s.cdf), ptr(s.u), ptr(s.xj), ptr(s.yj))
	}
	var mismatch *gpu.Buffer
	switch plan.Variant {
	case Original, RCM:
		objxy, err := upload(r, Offsets, "sample offsets")
		if err != nil {
			return nil, err
		}
		ind, err := r.alloc(4*n*CountOnes, "sample pixels")
		if err != nil {
			return nil, err
		}
		for k := 1; k < v.Frames; k++ {
			common := []uint64{ptr(s.xj), ptr(s.yj), ptr(s.ax), ptr(s.ay), ptr(ind), ptr(objxy), ptr(s.lik), ptr(img), ptr(s.w),
				gpu.Int(CountOnes), gpu.Int(size), gpu.Int(k), gpu.Int(yf), gpu.Int(frames), ptr(s.seed), ptr(partial), gpu.Int(p2)}
			if plan.Variant == Original {
				err = launch("pf_likelihood", grid, B, sumShared, append([]uint64{gpu.Int(n)}, common...)...)
			} else {
				var perm *gpu.Buffer
				if perm, err = upload(r, plan.Perm[k-1], "thread order"); err != nil {
					return nil, err
				}
				err = launch("pf_likelihood_perm", grid, B, sumShared, append([]uint64{gpu.Int(n), ptr(perm)}, common...)...)
			}
			if err != nil {
				return nil, err
			}
			if err := tail(); err != nil {
				return nil, err
			}
		}
	case SPAC:
		lsum, err := r.alloc(4*n, "likelihood sums")
		if err != nil {
			return nil, err
		}
		if mismatch, err = r.alloc(4, "cell mismatches"); err != nil {
			return nil, err
		}
		for k := 1; k < v.Frames; k++ {
			fs := plan.Frames[k-1]
			if fs.Frame != k || fs.Sched.BlockSize != B || fs.Sched.NRows != n {
				return nil, fmt.Errorf("frame %d: the plan's schedule is for frame %d, block size %d, %d particles", k, fs.Frame, fs.Sched.BlockSize, fs.Sched.NRows)
			}
			cx, err := upload(r, plan.Cells.CellX[k-1], "cells x")
			if err != nil {
				return nil, err
			}
			cy, err := upload(r, plan.Cells.CellY[k-1], "cells y")
			if err != nil {
				return nil, err
			}
			if err := launch("pf_motion", grid, B, 0, gpu.Int(n), ptr(s.xj), ptr(s.yj), ptr(s.ax), ptr(s.ay), ptr(s.seed),
				ptr(cx), ptr(cy), ptr(lsum), ptr(mismatch)); err != nil {
				return nil, err
			}
			sc := fs.Sched
			var arr []uint64
			for _, a := range []struct {
				s    []int32
				what string
			}{{sc.NewSchedule, "schedule"}, {sc.XLocal, "pixel slots"}, {sc.YLocal, "particle slots"}, {sc.XOffsets, "pixel ranges"},
				{fs.StagePixel, "staged pixels"}, {sc.YOffsets, "particle ranges"}, {sc.YUnique, "particles"}} {
				b, err := upload(r, a.s, a.what)
				if err != nil {
					return nil, err
				}
				arr = append(arr, ptr(b))
			}
			shared, err := upload(r, sc.YShared, "shared particles")
			if err != nil {
				return nil, err
			}
			arr = append(arr, ptr(shared), ptr(img), ptr(lsum))
			sh := spacShared(sc)
			out.Shared = max(out.Shared, sh)
			if err := launch("pf_spac_terms", sc.NumBlocks(), B, sh, arr...); err != nil {
				return nil, err
			}
			if err := launch("pf_spac_weight", grid, B, sumShared, gpu.Int(n), ptr(lsum), ptr(s.lik), ptr(s.w), gpu.Int(CountOnes),
				ptr(partial), gpu.Int(p2)); err != nil {
				return nil, err
			}
			if err := tail(); err != nil {
				return nil, err
			}
		}
	}
	runSteps := func(ls []*gpu.Launch) error {
		for _, l := range ls {
			if err := l.Run(); err != nil {
				return err
			}
		}
		return nil
	}
	frameLoop := func() error { return runSteps(steps) }
	start := func() error {
		if mismatch != nil {
			if err := mismatch.Zero(); err != nil {
				return err
			}
		}
		return r.reset(s)
	}
	// Warm-up, then the timed run from the same start.
	if err := start(); err != nil {
		return nil, err
	}
	if err := frameLoop(); err != nil {
		return nil, err
	}
	if err := r.g.dev.Sync("particle filter warm-up"); err != nil {
		return nil, err
	}
	if err := start(); err != nil {
		return nil, err
	}
	t, err := r.g.dev.Time(frameLoop, 0, 1, fmt.Sprintf("particle filter %s B=%d, %d frames", plan.Variant, B, v.Frames-1))
	if err != nil {
		return nil, err
	}
	res, err := r.result(s)
	if err != nil {
		return nil, err
	}
	moved := func() error {
		if mismatch == nil {
			return nil
		}
		var m [1]int32
		if err := gpu.Download(mismatch, m[:], "cell mismatches"); err != nil {
			return err
		}
		if m[0] != 0 {
			return fmt.Errorf("spac B=%d: %d particle positions left the cells the schedules were built for (the GPU's trajectory parted from the reference's at a resampling tie); the likelihoods of those frames are not the GPU's own", B, m[0])
		}
		return nil
	}
	if err := moved(); err != nil {
		return nil, err
	}
	res.Time = t.Median
	out.Result = *res

	// The likelihood alone: the same run again, each frame's likelihood
	// launches between events of their own (the device idle before them,
	// as Time synchronizes), its resampling untimed. A frame's likelihood
	// advances the generators, so it runs once, in the frames' order.
	if err := start(); err != nil {
		return nil, err
	}
	from := 0
	for k, ph := range phases {
		lik, err := r.g.dev.Time(func() error { return runSteps(steps[from:ph.lik]) }, 0, 1, fmt.Sprintf("likelihood %s B=%d, frame %d", plan.Variant, B, k+1))
		if err != nil {
			return nil, err
		}
		out.Likelihood += lik.Median
		if err := runSteps(steps[ph.lik:ph.end]); err != nil {
			return nil, err
		}
		from = ph.end
	}
	if err := r.g.dev.Sync("particle filter likelihood run"); err != nil {
		return nil, err
	}
	if err := moved(); err != nil {
		return nil, err
	}
	return out, nil
}

// naive runs Rodinia's naive program: motion, likelihood, weights and
// cumulative weights on the host (the CPU reference's code), the
// find-index kernel on the GPU, the arrays copied each way every frame.
func (r *run) naive() (*GPUResult, error) {
	n, B := r.n, r.B
	grid := (n + B - 1) / B
	var ax, ay, cdf, u, xj, yj *gpu.Buffer
	for _, d := range []struct {
		b    **gpu.Buffer
		what string
	}{{&ax, "positions x"}, {&ay, "positions y"}, {&cdf, "cumulative weights"}, {&u, "resampling points"}, {&xj, "drawn x"}, {&yj, "drawn y"}} {
		var err error
		if *d.b, err = r.alloc(8*n, d.what); err != nil {
			return nil, err
		}
	}
	find, err := r.g.mod.Launch("pf_find_index", grid, B, 0, gpu.Int(n), gpu.Ptr(ax), gpu.Ptr(ay), gpu.Ptr(cdf), gpu.Ptr(u), gpu.Ptr(xj), gpu.Ptr(yj))
	if err != nil {
		return nil, err
	}
	pass := func() (*filter, time.Duration, error) {
		f := newFilter(r.v, append([]int32(nil), r.seed...))
		start := time.Now()
		for k := 1; k < r.v.Frames; k++ {
			f.motion()
			f.likelihood(k, nil, nil)
			f.normalize()
			for i, c := range []struct {
				b *gpu.Buffer
				s []float64
			}{{ax, f.x}, {ay, f.y}, {cdf, f.cdf}, {u, f.u}} {
				if err := gpu.Write(c.b, c.s, [...]string{"positions x", "positions y", "cumulative weights", "resampling points"}[i]); err != nil {
					return nil, 0, err
				}
			}
			if err := find.Run(); err != nil {
				return nil, 0, err
			}
			if err := gpu.Download(xj, f.xj, "drawn x"); err != nil {
				return nil, 0, err
			}
			if err := gpu.Download(yj, f.yj, "drawn y"); err != nil {
				return nil, 0, err
			}
		}
		return f, time.Since(start), nil
	}
	if _, _, err := pass(); err != nil {
		return nil, err
	}
	f, took, err := pass()
	if err != nil {
		return nil, err
	}
	res := f.result(Naive)
	res.Estimate = [][2]float64{f.estimate()}
	res.Time = took
	return &GPUResult{Result: *res, BlockSize: B, Launches: r.v.Frames - 1, Blocks: grid * (r.v.Frames - 1)}, nil
}
