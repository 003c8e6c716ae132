package particlefilter

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Simulate runs a plan's variant on the CPU: the original and naive
// variants are the reference; RCM runs the likelihood in the plan's
// thread order; SPAC computes every frame's likelihood sums part by part
// from its schedule exactly as a block of pf_spac_terms does (stage the
// part's pixels' ratios, add each sample's into its particle's slot,
// store or add the slots out), checking each particle's cell as
// pf_motion does. Weights are summed in particle order throughout, so
// that a difference from the reference is the variant's own.
func Simulate(ctx context.Context, v *Video, seed []int32, plan *Plan) (*Result, error) {
	if len(seed) == 0 {
		return nil, fmt.Errorf("no particles")
	}
	frames := v.Frames - 1
	switch {
	case plan.Variant == Original || plan.Variant == Naive:
		r, _, err := ReferenceOn(ctx, v, seed)
		if err != nil {
			return nil, err
		}
		r.Variant = plan.Variant
		return r, nil
	case plan.Variant == RCM && len(plan.Perm) != frames, plan.Variant == SPAC && (len(plan.Frames) != frames || plan.Cells == nil):
		return nil, fmt.Errorf("%s plan for another number of frames than the video's %d", plan.Variant, frames)
	case plan.Variant != RCM && plan.Variant != SPAC:
		return nil, fmt.Errorf("unknown variant %q", plan.Variant)
	}
	f := newFilter(v, append([]int32(nil), seed...))
	lsum := make([]int32, f.n)
	var est [][2]float64
	start := time.Now()
	for k := 1; k < v.Frames; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f.motion()
		if plan.Variant == RCM {
			if err := f.likelihoodOrdered(k, plan.Perm[k-1]); err != nil {
				return nil, err
			}
		} else {
			if err := f.likelihoodScheduled(k, plan.Frames[k-1], plan.Cells, lsum); err != nil {
				return nil, err
			}
		}
		f.normalize()
		est = append(est, f.estimate())
		f.resample()
	}
	r := f.result(plan.Variant)
	r.Time = time.Since(start)
	r.Estimate = est
	return r, nil
}

// likelihoodOrdered is likelihood with particle perm[t] computed t-th.
func (f *filter) likelihoodOrdered(k int, perm []int32) error {
	if len(perm) != f.n {
		return fmt.Errorf("frame %d: an order of %d particles for %d", k, len(perm), f.n)
	}
	seen := make([]bool, f.n)
	for _, i := range perm {
		if i < 0 || int(i) >= f.n || seen[i] {
			return fmt.Errorf("frame %d: the thread order is not a permutation of the particles", k)
		}
		seen[i] = true
	}
	// Every particle's likelihood depends on nothing but its own state:
	// the order changes no value, only which thread computes it.
	f.likelihood(k, nil, nil)
	return nil
}

// likelihoodScheduled computes frame k's likelihood sums as the SPAC
// kernels do and the weights from them.
func (f *filter) likelihoodScheduled(k int, fs *FrameSchedule, cells *Trajectory, lsum []int32) error {
	s := fs.Sched
	if fs.Frame != k || s.NRows != f.n || s.NNZ != f.n*CountOnes {
		return fmt.Errorf("frame %d: a schedule of frame %d with %d particles", k, fs.Frame, s.NRows)
	}
	moved := 0
	for i := 0; i < f.n; i++ {
		if int32(f.x[i]) != cells.CellX[k-1][i] || int32(f.y[i]) != cells.CellY[k-1][i] {
			moved++
		}
		lsum[i] = 0
	}
	if moved > 0 {
		return fmt.Errorf("frame %d: %d particles left the cells the schedule was built for", k, moved)
	}
	B := s.BlockSize
	var xs, ys []int32
	for b := 0; b < s.NumBlocks(); b++ {
		x0, x1 := s.XOffsets[b], s.XOffsets[b+1]
		y0, y1 := s.YOffsets[b], s.YOffsets[b+1]
		xs, ys = xs[:0], ys[:0]
		for _, p := range fs.StagePixel[x0:x1] {
			xs = append(xs, term(f.v.I[p]))
		}
		ys = append(ys, make([]int32, y1-y0)...)
		for slot := b * B; slot < (b+1)*B; slot++ {
			if s.NewSchedule[slot] >= 0 {
				ys[s.YLocal[slot]] += xs[s.XLocal[slot]]
			}
		}
		for u, r := range s.YUnique[y0:y1] {
			if s.YShared[int(y0)+u] != 0 {
				lsum[r] += ys[u]
			} else {
				lsum[r] = ys[u]
			}
		}
	}
	for i := 0; i < f.n; i++ {
		f.lik[i] = (float64(lsum[i]) / 50.0) / float64(CountOnes)
		f.w[i] = (1 / float64(f.n)) * math.Exp(f.lik[i])
	}
	return nil
}
