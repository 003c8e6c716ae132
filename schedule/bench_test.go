package schedule

import (
	"os"
	"testing"
	"time"

	"github.com/spac-gpu/spac/matrices"
)

// BenchmarkBuild times Build (schedule, reorganized data and plan) against
// the SPAC partition it follows, on the same input in the same run: the
// partition is timed once per input before the loop and reported as
// spac-ns, the ratio as build/spac (target: at most 0.2). With
// SPAC_BENCH_FULL=1 it adds cant and cop20k_A at full size (SPAC takes
// 10-25 s on each).
func BenchmarkBuild(b *testing.B) {
	type input struct {
		preset string
		scale  float64
		bs     int
	}
	inputs := []input{
		{"cant", 0.1, 1024},
		{"scircuit", 0.5, 1024},
		{"mac_econ_fwd500", 0.2, 256},
	}
	if os.Getenv("SPAC_BENCH_FULL") != "" {
		inputs = append(inputs, input{"cant", 1, 1024}, input{"cop20k_A", 1, 1024})
	}
	for _, in := range inputs {
		coo, err := matrices.Preset(in.preset, in.scale, 1)
		if err != nil {
			b.Fatal(err)
		}
		coo = coo.Expanded()
		b.Run(coo.Name, func(b *testing.B) {
			start := time.Now()
			p := partition(b, coo, "spac", in.bs)
			spacNs := float64(time.Since(start).Nanoseconds())
			b.ResetTimer()
			for b.Loop() {
				if _, err := Build(coo, p, Options{BlockSize: in.bs}); err != nil {
					b.Fatal(err)
				}
			}
			perBuild := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(float64(coo.NNZ()), "nnz")
			b.ReportMetric(spacNs, "spac-ns")
			b.ReportMetric(perBuild/spacNs, "build/spac")
		})
	}
}
