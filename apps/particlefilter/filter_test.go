package particlefilter

import (
	"context"
	"math"
	"slices"
	"testing"
)

// The disk of samples: every cell strictly inside the radius, each once,
// symmetric under reflection.
func TestOffsets(t *testing.T) {
	want := 0
	seen := map[[2]int32]bool{}
	for dx := -Radius + 1; dx < Radius; dx++ {
		for dy := -Radius + 1; dy < Radius; dy++ {
			if dx*dx+dy*dy < Radius*Radius {
				want++
			}
		}
	}
	if CountOnes != want {
		t.Fatalf("%d samples, want %d", CountOnes, want)
	}
	for j := 0; j < CountOnes; j++ {
		dx, dy := Offsets[2*j+1], Offsets[2*j]
		seen[[2]int32{dx, dy}] = true
	}
	for p := range seen {
		if !seen[[2]int32{-p[0], p[1]}] || !seen[[2]int32{p[0], -p[1]}] {
			t.Errorf("offset %v has no mirror image", p)
		}
	}
	if len(seen) != CountOnes {
		t.Errorf("%d distinct offsets of %d", len(seen), CountOnes)
	}
}

// The generator is C's: the product wraps to 32 bits and % truncates
// toward zero; the draw is |state|/M.
func TestRandu(t *testing.T) {
	// wrap is C's conversion of a wider int to a 32-bit one.
	wrap := func(x int64) int32 { return int32(uint32(uint64(x))) }
	for _, tc := range []struct{ seed, next int32 }{
		{0, 12345},
		{1, 1103515245 + 12345},
		// 2*A + C wraps to a negative int; % keeps the sign.
		{2, wrap(2*lcgA+lcgC) % lcgM},
		{-7, wrap(-7*lcgA+lcgC) % lcgM},
		{1 << 30, wrap((1<<30)*lcgA+lcgC) % lcgM},
	} {
		s := []int32{tc.seed}
		u := randu(s, 0)
		if s[0] != tc.next {
			t.Errorf("seed %d: next state %d, want %d", tc.seed, s[0], tc.next)
		}
		if want := math.Abs(float64(tc.next)) / lcgM; u != want || u < 0 || u >= 1 {
			t.Errorf("seed %d: draw %v, want %v", tc.seed, u, want)
		}
	}
}

// A state of 0 would give log(0): the draw is 1/M instead.
func TestRanduZero(t *testing.T) {
	// The state s with A*s + C = 0 modulo 2^32: A is odd, so invertible.
	inv := uint32(1)
	for range 5 { // Newton's iteration doubles the correct low bits: 1, 2, 4, ... 32
		inv *= 2 - lcgA*inv
	}
	c := uint32(lcgC)
	zero := int32(-(c * inv))
	st := []int32{zero}
	if u := randu(st, 0); st[0] != 0 || u != 1/float64(lcgM) {
		t.Fatalf("state %d, draw %v: want state 0 and draw 1/M", st[0], u)
	}
	st[0] = zero
	if v := randn(st, 0); math.IsInf(v, 0) || math.IsNaN(v) {
		t.Fatalf("randn %v", v)
	}
}

// The video: the object's pixels are about foreground, the rest about
// background, within the noise; each frame holds one dilated disk; the
// same spec gives the same video, and so does another seed: Rodinia draws
// the noise from seed[0] = time(0)*0 = 0.
func TestVideo(t *testing.T) {
	spec := Spec{X: 64, Y: 64, Frames: 4, Particles: 3, Seed: 11}
	v, seed, err := NewVideo(spec)
	if err != nil {
		t.Fatal(err)
	}
	v2, seed2, _ := NewVideo(spec)
	if !slices.Equal(v.I, v2.I) || !slices.Equal(seed, seed2) {
		t.Fatal("the same spec made two videos")
	}
	spec.Seed = 12
	if v3, _, _ := NewVideo(spec); !slices.Equal(v.I, v3.I) {
		t.Fatal("another seed made another video")
	}
	// Particle 0's generator drew the noise; the others are untouched.
	if init := (Spec{Particles: 3, Seed: 11}).seeds(); seed[0] == init[0] || seed[1] != init[1] || seed[2] != init[2] {
		t.Errorf("states %v from %v: want only particle 0's advanced", seed, init)
	}
	// Pixels of a dilated disk: the window [-5, 5) within the radius.
	disk := 0
	for dx := -Radius; dx < Radius; dx++ {
		for dy := -Radius; dy < Radius; dy++ {
			if dx*dx+dy*dy < Radius*Radius {
				disk++
			}
		}
	}
	for k := 0; k < v.Frames; k++ {
		bright := 0
		for x := 0; x < v.X; x++ {
			for y := 0; y < v.Y; y++ {
				// Noise is 5 randn: 7 sigma from the midpoint 164 never happens here.
				if v.I[v.pixel(x, y, k)] > (background+foreground)/2 {
					bright++
				}
			}
		}
		if bright != disk {
			t.Errorf("frame %d: %d bright pixels, want one disk of %d", k, bright, disk)
		}
	}
}

func reference(t testing.TB, spec Spec) (*Video, []int32, *Result, *Trajectory) {
	t.Helper()
	v, seed, err := NewVideo(spec)
	if err != nil {
		t.Fatal(err)
	}
	ref, tr, err := ReferenceOn(context.Background(), v, seed)
	if err != nil {
		t.Fatal(err)
	}
	return v, seed, ref, tr
}

// The reference is deterministic, leaves its input states alone, keeps
// its state finite, normalizes the weights, draws every particle from
// one of the last frame's positions, and follows the object: the
// estimate stays within a few radii of the disk's centre.
func TestReference(t *testing.T) {
	spec := Spec{X: 128, Y: 128, Frames: 8, Particles: 500, Seed: DefaultSeed}
	v, seed, ref, tr := reference(t, spec)
	before := slices.Clone(seed)
	again, _, err := ReferenceOn(context.Background(), v, seed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seed, before) {
		t.Fatal("the reference changed the caller's generator states")
	}
	if d, _ := Compare(again, ref); !d.Identical {
		t.Fatalf("two runs differ: %+v", d)
	}
	if len(ref.Estimate) != spec.Frames-1 || len(tr.CellX) != spec.Frames-1 {
		t.Fatalf("%d estimates and %d trajectory frames for %d frames", len(ref.Estimate), len(tr.CellX), spec.Frames)
	}
	sum := 0.0
	for i := range ref.W {
		sum += ref.W[i]
		for _, x := range []float64{ref.X[i], ref.Y[i], ref.W[i]} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("particle %d: non-finite state", i)
			}
		}
		if !slices.Contains(ref.X, ref.XJ[i]) || !slices.Contains(ref.Y, ref.YJ[i]) {
			t.Fatalf("particle %d was drawn at (%v, %v), no particle's position", i, ref.XJ[i], ref.YJ[i])
		}
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("weights sum to %v", sum)
	}
	// The disk of frame k sits at Rodinia's (swapped) stored position.
	x0, y0 := spec.Y/2, spec.X/2
	for k, e := range ref.Estimate {
		kk := k + 1
		wantX, wantY := float64(abs(y0-2*(kk-1))), float64(abs(x0+(kk-1)))
		if d := math.Hypot(e[0]-wantX, e[1]-wantY); d > 3*Radius {
			t.Errorf("frame %d: estimate %v is %.1f pixels from the object at (%v, %v)", kk, e, d, wantX, wantY)
		}
	}
}

// findIndex is the linear search's answer.
func TestFindIndex(t *testing.T) {
	cdf := []float64{0.1, 0.1, 0.5, 0.5, 0.9, 1}
	for _, u := range []float64{0, 0.05, 0.1, 0.2, 0.5, 0.6, 0.95, 1, 1.5, math.NaN()} {
		want := -1
		for x, c := range cdf {
			if c >= u {
				want = x
				break
			}
		}
		if want == -1 {
			want = len(cdf) - 1
		}
		if got := findIndex(cdf, u); got != want {
			t.Errorf("u=%v: %d, want %d", u, got, want)
		}
	}
	nan := []float64{math.NaN(), math.NaN()}
	if got := findIndex(nan, 0.3); got != 1 {
		t.Errorf("NaN weights: %d, want the last particle", got)
	}
}

// A sample's pixel folds to 0 past the video's end and takes the
// absolute value before it, as Rodinia's does.
func TestSampleIndex(t *testing.T) {
	const yf, frames, size = 100 * 10, 10, 50 * 100 * 10
	for _, tc := range []struct {
		cx, cy, dx, dy, k, want int32
	}{
		{3, 4, 0, 0, 2, 3*yf + 4*frames + 2},
		{3, 4, -1, 2, 2, 2*yf + 6*frames + 2},
		{0, 0, -1, 0, 3, yf - 3},
		{49, 99, 0, 0, 9, size - 1},
		{49, 99, 1, 0, 9, 0},
	} {
		if got := sampleIndex(tc.cx, tc.cy, tc.dx, tc.dy, yf, frames, tc.k, size); got != tc.want {
			t.Errorf("%+v: %d", tc, got)
		}
	}
}
