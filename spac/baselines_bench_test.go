package spac

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// The benchmark graph: Barabasi-Albert-like, 250,000 vertices, 8 edges per
// new vertex (about 2M edges), cut into blocks of 1024 edges.
var blBench struct {
	once sync.Once
	g    *matrices.Graph
	inc  *matrices.Incidence
	k    int
	cap  int
}

func blBenchGraph(b *testing.B) (*matrices.Graph, *matrices.Incidence, Options) {
	blBench.once.Do(func() {
		g := blBA(rand.New(rand.NewPCG(21, 22)), 250_000, 8)
		inc, err := matrices.BuildIncidence(g)
		if err != nil {
			panic(err)
		}
		k, c, err := Resolve(g.NumEdges(), 0, 1024)
		if err != nil {
			panic(err)
		}
		blBench.g, blBench.inc, blBench.k, blBench.cap = g, inc, k, c
	})
	return blBench.g, blBench.inc, Options{K: blBench.k, Cap: blBench.cap, Seed: 1}
}

func BenchmarkEvaluate(b *testing.B) {
	g, inc, opts := blBenchGraph(b)
	p, err := Random{}.Partition(context.Background(), g, inc, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		Evaluate(g, inc, p)
	}
}

// BenchmarkEvaluate17M measures Evaluate at the size of the largest
// matrices of the paper: 17M edges, random parts of 1024 edges.
func BenchmarkEvaluate17M(b *testing.B) {
	rng := rand.New(rand.NewPCG(31, 32))
	g := blBipartite(rng, 2_000_000, 2_000_000, 17_000_000)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		b.Fatal(err)
	}
	k := (g.NumEdges() + 1023) / 1024
	p := Partition{K: k, Part: make([]int32, g.NumEdges())}
	for e := range p.Part {
		p.Part[e] = int32(rng.IntN(k))
	}
	b.ResetTimer()
	for b.Loop() {
		Evaluate(g, inc, p)
	}
}

func BenchmarkBaselines(b *testing.B) {
	g, inc, opts := blBenchGraph(b)
	for _, name := range blMethods {
		b.Run(name, func(b *testing.B) {
			meth, _ := Lookup(name)
			var p Partition
			for b.Loop() {
				var err error
				if p, err = meth.Partition(context.Background(), g, inc, opts); err != nil {
					b.Fatal(err)
				}
			}
			met := Evaluate(g, inc, p)
			b.ReportMetric(float64(met.Copies), "copies")
			b.ReportMetric(met.RF, "RF")
			b.ReportMetric(float64(met.MaxUnique), "maxunique")
		})
	}
}

// BenchmarkEnforceCap measures the cap pass from the worst start (every
// edge in part 0) and from random hashing.
func BenchmarkEnforceCap(b *testing.B) {
	g, inc, opts := blBenchGraph(b)
	starts := map[string]func() Partition{
		"all-in-0": func() Partition { return Partition{K: opts.K, Part: make([]int32, g.NumEdges())} },
		"hashed": func() Partition {
			p := Partition{K: opts.K, Part: make([]int32, g.NumEdges())}
			for e := range p.Part {
				p.Part[e] = hashPart(hash2(1, g.U[e], g.V[e]), opts.K)
			}
			return p
		},
	}
	for _, name := range []string{"all-in-0", "hashed"} {
		b.Run(name, func(b *testing.B) {
			var p Partition
			var moved int
			for b.Loop() {
				b.StopTimer()
				p = starts[name]()
				b.StartTimer()
				var err error
				if moved, err = EnforceCap(g, inc, &p, opts.Cap); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(moved), "moved")
			b.ReportMetric(float64(Evaluate(g, inc, p).Copies), "copies")
		})
	}
}
