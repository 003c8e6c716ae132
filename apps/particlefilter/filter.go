package particlefilter

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"
)

// Result is one run of the filter over the video's frames 1 to Frames-1,
// on the CPU or the GPU.
type Result struct {
	Variant string // "original" for the CPU reference, else the GPU variant
	// Particles' final state: positions after the last frame's motion
	// model (X, Y), their normalized weights (W), and the positions the
	// last resampling drew (XJ, YJ).
	X, Y, W, XJ, YJ []float64
	// Estimate is the tracked object's position of each frame (x, y), the
	// weighted mean Rodinia prints: a CPU run has one per tracked frame, a
	// GPU run only the last frame's (from its final state).
	Estimate [][2]float64
	Time     time.Duration // the frames only
}

// Trajectory is what the CPU reference saw of each tracked frame: every
// particle's pixel cell after the motion model, (trunc x, trunc y), for
// frame k at index k-1. It is the inspector's input: the per-frame
// locality graphs are built from it.
type Trajectory struct {
	N            int
	CellX, CellY [][]int32
}

// filter is the state of one run; its steps are Rodinia's, in Rodinia's
// order of random draws.
type filter struct {
	v                *Video
	n                int
	seed             []int32
	x, y, xj, yj, w  []float64
	lik, cdf, u      []float64
	sampleX, sampleY []int32 // the offsets split by axis
}

func newFilter(v *Video, seed []int32) *filter {
	n := len(seed)
	f := &filter{v: v, n: n, seed: seed}
	for _, s := range []*[]float64{&f.x, &f.y, &f.xj, &f.yj, &f.w, &f.lik, &f.cdf, &f.u} {
		*s = make([]float64, n)
	}
	// Every particle starts at the frame's centre (Y/2, X/2).
	xe, ye := float64(v.Y/2), float64(v.X/2)
	for i := 0; i < n; i++ {
		f.xj[i], f.yj[i], f.w[i] = xe, ye, 1/float64(n)
	}
	for j := 0; j < CountOnes; j++ {
		f.sampleX = append(f.sampleX, Offsets[2*j+1])
		f.sampleY = append(f.sampleY, Offsets[2*j])
	}
	return f
}

// motion moves every particle from its drawn position: x + 1 + 5 randn,
// y - 2 + 2 randn (the object moves twice as fast in y), two draws of its
// own generator each.
func (f *filter) motion() {
	for i := 0; i < f.n; i++ {
		f.x[i] = (f.xj[i] + 1.0) + float64(5.0*randn(f.seed, i))
		f.y[i] = (f.yj[i] - 2.0) + float64(2.0*randn(f.seed, i))
	}
}

// sampleIndex is Rodinia's index of sample j of a particle at cell (cx,
// cy) in frame k: |x*Y*Frames + y*Frames + k| in 32-bit arithmetic, 0 when
// it is past the video's end (or, never at valid sizes, wrapped negative).
func sampleIndex(cx, cy, dx, dy int32, yf, frames, k, size int32) int32 {
	ind := (cx+dx)*yf + (cy+dy)*frames + k
	if ind < 0 {
		ind = -ind
	}
	if ind < 0 || ind >= size {
		return 0
	}
	return ind
}

// term is one sample's likelihood ratio times 50: (I-100)^2 - (I-228)^2 =
// 256 I - 41984, exact in any arithmetic.
func term(i uint8) int32 { return 256*int32(i) - 41984 }

// likelihood computes each particle's likelihood in frame k, the mean of
// its samples' ratios, and its weight (1/n) exp(likelihood); cells
// records the particles' cells when not nil.
func (f *filter) likelihood(k int, cellX, cellY []int32) {
	v := f.v
	yf, frames, size := int32(v.Y*v.Frames), int32(v.Frames), int32(len(v.I))
	for i := 0; i < f.n; i++ {
		cx, cy := int32(f.x[i]), int32(f.y[i])
		if cellX != nil {
			cellX[i], cellY[i] = cx, cy
		}
		sum := 0.0
		for j := 0; j < CountOnes; j++ {
			t := term(v.I[sampleIndex(cx, cy, f.sampleX[j], f.sampleY[j], yf, frames, int32(k), size)])
			sum += float64(t) / 50.0
		}
		f.lik[i] = sum / float64(CountOnes)
		f.w[i] = (1 / float64(f.n)) * math.Exp(f.lik[i])
	}
}

// normalize divides the weights by their sum (added in particle order),
// builds the cumulative weights and the systematic resampling's points
// u[i] = u1 + i/n, u1 drawn from particle 0's generator.
func (f *filter) normalize() {
	sum := 0.0
	for _, w := range f.w {
		sum += w
	}
	u1 := (1 / float64(f.n)) * randu(f.seed, 0)
	for i := range f.w {
		f.w[i] /= sum
	}
	f.cdf[0] = f.w[0]
	for i := 1; i < f.n; i++ {
		f.cdf[i] = f.w[i] + f.cdf[i-1]
	}
	for i := range f.u {
		f.u[i] = u1 + float64(i)/float64(f.n)
	}
}

// findIndex is the first particle whose cumulative weight reaches u, the
// last one when none does: Rodinia's linear search, here a binary search,
// which finds the same particle because the cumulative weights never
// decrease (each adds a weight >= 0, and rounding is monotone); with NaN
// weights no comparison holds and both give the last particle.
func findIndex(cdf []float64, u float64) int {
	i := sort.Search(len(cdf), func(x int) bool { return cdf[x] >= u })
	if i == len(cdf) {
		return len(cdf) - 1
	}
	return i
}

// resample draws every particle's next position from the cumulative
// weights.
func (f *filter) resample() {
	for i := 0; i < f.n; i++ {
		p := findIndex(f.cdf, f.u[i])
		f.xj[i], f.yj[i] = f.x[p], f.y[p]
	}
}

// estimate is the weighted mean position.
func (f *filter) estimate() [2]float64 {
	var xe, ye float64
	for i := 0; i < f.n; i++ {
		xe += f.x[i] * f.w[i]
		ye += f.y[i] * f.w[i]
	}
	return [2]float64{xe, ye}
}

func (f *filter) result(variant string) *Result {
	return &Result{Variant: variant, X: f.x, Y: f.y, W: f.w, XJ: f.xj, YJ: f.yj}
}

// Reference runs the filter on the CPU as Rodinia's programs define it
// (the same arithmetic in the same order, weights summed in particle
// order) and records the trajectory the inspector needs. It checks ctx
// between frames.
func Reference(ctx context.Context, spec Spec) (*Result, *Trajectory, error) {
	v, seed, err := NewVideo(spec)
	if err != nil {
		return nil, nil, err
	}
	return ReferenceOn(ctx, v, seed)
}

// ReferenceOn is Reference on a video already made, with the generator
// states NewVideo returned (not modified).
func ReferenceOn(ctx context.Context, v *Video, seed []int32) (*Result, *Trajectory, error) {
	if len(seed) == 0 {
		return nil, nil, fmt.Errorf("no particles")
	}
	f := newFilter(v, append([]int32(nil), seed...))
	tr := &Trajectory{N: f.n}
	var est [][2]float64
	start := time.Now()
	for k := 1; k < v.Frames; k++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		cx, cy := make([]int32, f.n), make([]int32, f.n)
		f.motion()
		f.likelihood(k, cx, cy)
		f.normalize()
		est = append(est, f.estimate())
		f.resample()
		tr.CellX, tr.CellY = append(tr.CellX, cx), append(tr.CellY, cy)
	}
	r := f.result("original")
	r.Time = time.Since(start)
	r.Estimate = est
	return r, tr, nil
}
