//go:build cuda

package particlefilter

import (
	"context"
	"fmt"
	"testing"

	"github.com/spac-gpu/spac/gpu"
	"github.com/spac-gpu/spac/spac"
)

func openGPU(t *testing.T) *GPU {
	t.Helper()
	g, err := NewGPU(gpu.OpenForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Every variant on the GPU agrees with the CPU reference at several block
// sizes (192 is not a power of two: the block sums pad), on Rodinia's
// input shape and on a particle count that leaves the last block partial:
// the naive program bit for bit (its host steps are the reference's code
// and find-index compares the same numbers), the others within the
// tolerances with no particle drawn from another parent.
func TestGPUMatchesCPU(t *testing.T) {
	g := openGPU(t)
	ctx := context.Background()
	for _, spec := range []Spec{
		{X: 128, Y: 128, Frames: 10, Particles: 1000, Seed: DefaultSeed},
		{X: 96, Y: 160, Frames: 6, Particles: 777, Seed: 99},
	} {
		v, seed, ref, tr := reference(t, spec)
		for _, b := range []int{32, 128, 192, 1024} {
			plans := []*Plan{{Variant: Original, BlockSize: b}, {Variant: Naive, BlockSize: b}}
			rcm, err := PlanRCM(ctx, v, tr, b)
			if err != nil {
				t.Fatal(err)
			}
			plans = append(plans, rcm)
			for _, name := range []string{"spac", "default"} {
				m, _ := spac.Lookup(name)
				p, err := PlanSPAC(ctx, v, tr, m, b, spac.Options{Seed: 1}, nil)
				if err != nil {
					t.Fatal(err)
				}
				plans = append(plans, p)
			}
			for _, p := range plans {
				name := fmt.Sprintf("%s/%s/%s/B%d", spec.Name(), p.Variant, p.Method, b)
				res, err := g.Run(v, seed, p)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d, err := Compare(&res.Result, ref)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %.1f us, %d launches, %d B shared; %+v", name, float64(res.Time.Nanoseconds())/1e3, res.Launches, res.Shared, d)
				if !d.OK() || (p.Variant == Naive && !d.Identical) {
					t.Errorf("%s: differs from the reference: %+v", name, d)
				}
				if res.Time <= 0 {
					t.Errorf("%s: no time measured", name)
				}
				// The likelihood alone is part of every resident run's
				// frames; the naive program's is host work, not timed.
				if lik := res.Likelihood; (p.Variant == Naive) != (lik == 0) || lik >= res.Time {
					t.Errorf("%s: likelihood %v of a run of %v", name, lik, res.Time)
				}
			}
		}
	}
}

// Block sizes a kernel cannot run are refused.
func TestGPUBlockSize(t *testing.T) {
	g := openGPU(t)
	v, seed, _, _ := reference(t, Spec{X: 32, Y: 32, Frames: 2, Particles: 10, Seed: 1})
	for _, b := range []int{0, 16, 100, 2048} {
		if _, err := g.Run(v, seed, &Plan{Variant: Original, BlockSize: b}); err == nil {
			t.Errorf("block size %d ran", b)
		}
	}
}
