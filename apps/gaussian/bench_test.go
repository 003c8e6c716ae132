package gaussian

import (
	"testing"
)

// BenchmarkForward eliminates Rodinia's generated 512 x 512 system on the
// CPU in fp32 (the reference every GPU run is checked against).
func BenchmarkForward(b *testing.B) {
	s, _ := Generate(Spec{N: 512})
	for range b.N {
		if _, err := Solve(s, FP32); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(s.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n*n*n/3), "ns/update")
}

// BenchmarkTemplate partitions the window of block size 256 with SPAC and
// lays it out (the cost a SPAC run adds before its first launch).
func BenchmarkTemplate(b *testing.B) {
	for range b.N {
		template(b, 256, "spac")
	}
}
