package cfd

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

var (
	benchOnce  sync.Once
	benchMesh  *Mesh
	benchSched *Schedule
)

// benchSetup generates fvcorr-097k and its SPAC schedule at Rodinia's block
// size once for all benchmarks.
func benchSetup(b *testing.B) (*Mesh, *Schedule) {
	benchOnce.Do(func() {
		spec, _ := LookupPreset("fvcorr-097k")
		m, err := Generate(spec)
		if err != nil {
			b.Fatal(err)
		}
		benchMesh, benchSched = m, schedule(b, m, "spac", 192)
	})
	return benchMesh, benchSched
}

// BenchmarkFlux times one compute_flux on fvcorr-097k: element-centric on
// the shuffled mesh, on the schedule's renumbered mesh, and face-centric.
func BenchmarkFlux(b *testing.B) {
	m, sc := benchSetup(b)
	for _, prec := range []Precision{FP32, FP64} {
		b.Run(fmt.Sprintf("%s/original", prec), func(b *testing.B) { benchFlux(b, prec, m, nil) })
		b.Run(fmt.Sprintf("%s/original-renumbered", prec), func(b *testing.B) { benchFlux(b, prec, sc.Mesh, nil) })
		b.Run(fmt.Sprintf("%s/spac-B192", prec), func(b *testing.B) { benchFlux(b, prec, m, sc) })
	}
}

func benchFlux(b *testing.B, prec Precision, m *Mesh, sc *Schedule) {
	if prec == FP32 {
		benchFluxT[float32](b, m, sc)
	} else {
		benchFluxT[float64](b, m, sc)
	}
}

func benchFluxT[T Float](b *testing.B, m *Mesh, sc *Schedule) {
	var s *Solver[T]
	var err error
	if sc == nil {
		s, err = NewSolver[T](m)
	} else {
		s, err = NewScheduledSolver[T](sc)
	}
	if err != nil {
		b.Fatal(err)
	}
	s.Init()
	s.Iterate(1)
	b.ResetTimer()
	for range b.N {
		s.ComputeFlux()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(m.N), "ns/element")
}

// BenchmarkSchedule times building the schedule from a SPAC partition
// (faces, home parts, renumbering, slots), the partition itself excluded.
func BenchmarkSchedule(b *testing.B) {
	m, _ := benchSetup(b)
	f, err := BuildFaces(m)
	if err != nil {
		b.Fatal(err)
	}
	meth, _ := spac.Lookup("spac")
	pp, err := PartitionFaces(context.Background(), f, meth, 192, spac.Options{Seed: 1}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := NewSchedule(m, f, pp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate times generating a preset-sized mesh.
func BenchmarkGenerate(b *testing.B) {
	spec, _ := LookupPreset("fvcorr-097k")
	for range b.N {
		if _, err := Generate(spec); err != nil {
			b.Fatal(err)
		}
	}
}
