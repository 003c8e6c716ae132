package btree

import (
	"testing"
)

// BenchmarkBuild bulk-loads Rodinia's million keys at its default order.
func BenchmarkBuild(b *testing.B) {
	keys, _ := GenerateKeys(KeySpec{N: 1000000})
	b.ResetTimer()
	for range b.N {
		if _, err := Build(keys, BuildOptions{Order: 256}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReference answers Rodinia's command.txt on the CPU (the
// reference every GPU answer is checked against).
func BenchmarkReference(b *testing.B) {
	tr, bs := fixture(b, 1000000, 256, RodiniaCommands)
	b.ResetTimer()
	for range b.N {
		for _, batch := range bs {
			Reference(tr, batch)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/16000, "ns/query")
}

// BenchmarkSchedule partitions Rodinia's 10,000 findK queries with SPAC
// into blocks of 8 and orders them (the cost a SPAC run adds before its
// first launch).
func BenchmarkSchedule(b *testing.B) {
	tr, bs := fixture(b, 1000000, 256, []Command{{Op: 'k', Count: 10000}})
	b.ResetTimer()
	for range b.N {
		schedule(b, tr, bs[0], "spac", DefaultPerBlock(256))
	}
}
