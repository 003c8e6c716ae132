package spac

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/transform"
)

// presetGraph builds the as-stored spmv locality graph of a preset, once
// per preset and scale for all benchmarks of a run.
var presetGraphs sync.Map

type benchInput struct {
	g   *matrices.Graph
	inc *matrices.Incidence
}

func presetGraph(b *testing.B, name string, scale float64) benchInput {
	key := fmt.Sprint(name, scale)
	if v, ok := presetGraphs.Load(key); ok {
		return v.(benchInput)
	}
	m, err := matrices.Preset(name, scale, 1)
	if err != nil {
		b.Fatal(err)
	}
	model := matrices.ModelSpMV
	if strings.HasPrefix(name, "ba-") {
		model = matrices.ModelGraph
	}
	g, inc, err := matrices.BuildLocality(m, model)
	if err != nil {
		b.Fatal(err)
	}
	in := benchInput{g, inc}
	presetGraphs.Store(key, in)
	return in
}

// benchmarkSPAC partitions a preset at block size 1024 and reports the
// copies, so that speed and quality of the variants are read side by side.
func benchmarkSPAC(b *testing.B, preset string, scale float64, f transform.Formulation, order transform.Order, coarsen int) {
	in := presetGraph(b, preset, scale)
	k, capacity, err := Resolve(in.g.NumEdges(), 0, 1024)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{K: k, Cap: capacity, Seed: 1, Formulation: f, Order: order, Coarsen: coarsen}
	b.ResetTimer()
	var p Partition
	for i := 0; i < b.N; i++ {
		p, err = SPAC{}.Partition(context.Background(), in.g, in.inc, opts)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	met := Evaluate(in.g, in.inc, p)
	b.ReportMetric(float64(met.Copies), "copies")
	b.ReportMetric(float64(in.g.NumEdges()), "edges")
}

// BenchmarkSPACCant: a cant-sized FEM input (2.0M stored entries). The
// paper partitions cant in 1.7 s on one core.
func BenchmarkSPACCant(b *testing.B) {
	for _, f := range []transform.Formulation{transform.Contracted, transform.Split} {
		for _, o := range []transform.Order{transform.Walk, transform.Cycle, transform.ByIndex, transform.ByNeighbour} {
			for _, c := range []int{0, 3, DefaultCoarsen} {
				b.Run(fmt.Sprintf("%v/%v/coarsen=%d", f, o, c), func(b *testing.B) { benchmarkSPAC(b, "cant", 1, f, o, c) })
			}
		}
	}
}

// BenchmarkSPACIn2004: an in-2004-sized power-law input (17M entries);
// the paper's single-core figure is 17.9 s.
func BenchmarkSPACIn2004(b *testing.B) {
	for _, scale := range []float64{0.1, 1} {
		for _, c := range []int{DefaultCoarsen, 2, 3} {
			b.Run(fmt.Sprintf("scale=%g/coarsen=%d", scale, c), func(b *testing.B) {
				benchmarkSPAC(b, "in-2004", scale, transform.Contracted, transform.Cycle, c)
			})
		}
	}
}

// BenchmarkSPACBarabasiAlbert: the largest graph of the paper's Fig. 7
// (50k vertices, average degree 64, graph model as stored: 1.6M edges).
func BenchmarkSPACBarabasiAlbert(b *testing.B) {
	for _, c := range []int{0, 3, DefaultCoarsen} {
		b.Run(fmt.Sprintf("coarsen=%d", c), func(b *testing.B) { benchmarkSPAC(b, "ba-50k-d64", 1, transform.Contracted, transform.Cycle, c) })
	}
}

// BenchmarkSPACTwoLevel measures METIS in one call against two stages on
// the same inputs, side by side (copies reported with the time).
func BenchmarkSPACTwoLevel(b *testing.B) {
	for _, in := range []struct {
		preset string
		scale  float64
	}{{"cant", 1}, {"in-2004", 0.1}} {
		for _, two := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s-%g/two=%v", in.preset, in.scale, two), func(b *testing.B) {
				saved := twoLevelMinParts
				if !two {
					twoLevelMinParts = 1 << 30
				}
				defer func() { twoLevelMinParts = saved }()
				benchmarkSPAC(b, in.preset, in.scale, transform.Contracted, transform.Cycle, DefaultCoarsen)
			})
		}
	}
}

// BenchmarkRefinePairs: RefinePairs's DefaultRefine rounds on the cant
// stand-in (2.0M tasks as stored), from the polished row-order partition,
// the start it has most to do on; the copies saved are reported so that a
// faster variant can be checked to do the same work.
func BenchmarkRefinePairs(b *testing.B) {
	in := presetGraph(b, "cant", 1)
	k, capacity, err := Resolve(in.g.NumEdges(), 0, 1024)
	if err != nil {
		b.Fatal(err)
	}
	start, err := Default{}.Partition(context.Background(), in.g, in.inc, Options{K: k, Cap: capacity})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Polish(context.Background(), in.g, in.inc, &start, capacity, PolishPasses); err != nil {
		b.Fatal(err)
	}
	var saved int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := Partition{K: start.K, Part: slices.Clone(start.Part)}
		if saved, err = RefinePairs(context.Background(), in.g, in.inc, &p, capacity, DefaultRefine); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(saved), "saved")
}
