package particlefilter

import (
	"context"
	"fmt"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

// BenchmarkReference times the CPU reference on Rodinia's input.
func BenchmarkReference(b *testing.B) {
	spec, _ := LookupPreset("rodinia")
	v, seed, err := NewVideo(spec)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := ReferenceOn(context.Background(), v, seed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlan times the inspector's per-frame work on Rodinia's input:
// the RCM orders and the SPAC partitions and schedules of every frame.
func BenchmarkPlan(b *testing.B) {
	spec, _ := LookupPreset("rodinia")
	v, _, _, tr := reference(b, spec)
	m, _ := spac.Lookup("spac")
	for _, bs := range []int{128, 1024} {
		b.Run(fmt.Sprintf("rcm/B%d", bs), func(b *testing.B) {
			for b.Loop() {
				if _, err := PlanRCM(context.Background(), v, tr, bs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("spac/B%d", bs), func(b *testing.B) {
			for b.Loop() {
				if _, err := PlanSPAC(context.Background(), v, tr, m, bs, spac.Options{}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
