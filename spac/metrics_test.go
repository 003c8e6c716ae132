package spac

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

func TestEvaluateGolden(t *testing.T) {
	// Vertices 0..3 and an isolated vertex 4; e4 is a self-loop.
	g := &matrices.Graph{NumVertices: 5, NumRowVertices: 5, Model: matrices.ModelGraph,
		U: []int32{0, 0, 1, 2, 3},
		V: []int32{1, 2, 2, 3, 3}}
	inc, _ := matrices.BuildIncidence(g)
	p := Partition{K: 2, Part: []int32{0, 0, 1, 1, 1}}
	// v0 {0}, v1 {0,1}, v2 {0,1}, v3 {1}: copies 2; part 0 touches 0,1,2,
	// part 1 touches 1,2,3. Degrees 2,2,3,2.
	got := Evaluate(g, inc, p)
	want := Metrics{Edges: 5, Vertices: 4, K: 2, Copies: 2, RF: 1.5,
		MaxLoad: 3, MaxLoadRatio: 1.2, MaxUnique: 3, MeanUnique: 3,
		CutVertices: 2, AvgCutDegree: 2.5,
		Degree: DegreeSummary{Min: 2, Max: 3, Mean: 2.25, Median: 2, P99: 3}}
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	// All in one part: no copies.
	got = Evaluate(g, inc, Partition{K: 3, Part: make([]int32, 5)})
	if got.Copies != 0 || got.RF != 1 || got.MaxUnique != 4 || got.CutVertices != 0 || got.MaxLoadRatio != 3 {
		t.Fatalf("one part: %+v", got)
	}
	// One edge per part: p_v = degree.
	got = Evaluate(g, inc, Partition{K: 5, Part: []int32{0, 1, 2, 3, 4}})
	if got.Copies != 1+1+2+1 || got.MaxUnique != 2 || got.CutVertices != 4 {
		t.Fatalf("one edge per part: %+v", got)
	}
}

// blNaiveCopies computes the copies and per-part unique counts with maps.
func blNaiveCopies(g *matrices.Graph, p Partition) (int64, []int) {
	parts := map[int32]map[int32]bool{}
	uniq := make([]map[int32]bool, p.K)
	for i := range uniq {
		uniq[i] = map[int32]bool{}
	}
	for e := range g.U {
		for _, w := range []int32{g.U[e], g.V[e]} {
			if parts[w] == nil {
				parts[w] = map[int32]bool{}
			}
			parts[w][p.Part[e]] = true
			uniq[p.Part[e]][w] = true
		}
	}
	var c int64
	for _, s := range parts {
		c += int64(len(s) - 1)
	}
	u := make([]int, p.K)
	for i := range uniq {
		u[i] = len(uniq[i])
	}
	return c, u
}

func TestEvaluateMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 50; trial++ {
		var g *matrices.Graph
		if trial%2 == 0 {
			g = blBipartite(rng, 1+rng.IntN(50), 1+rng.IntN(50), 1+rng.IntN(400))
		} else {
			g = blLoopy(rng, 10+rng.IntN(50), 1+rng.IntN(400), 0.3)
		}
		inc, _ := matrices.BuildIncidence(g)
		k := 1 + rng.IntN(12)
		p := Partition{K: k, Part: make([]int32, g.NumEdges())}
		for e := range p.Part {
			p.Part[e] = int32(rng.IntN(k))
		}
		met := Evaluate(g, inc, p)
		c, u := blNaiveCopies(g, p)
		if met.Copies != c {
			t.Fatalf("trial %d: Copies %d, naive %d", trial, met.Copies, c)
		}
		maxU, sumU := 0, 0
		for _, x := range u {
			sumU += x
			maxU = max(maxU, x)
		}
		if met.MaxUnique != maxU || math.Abs(met.MeanUnique-float64(sumU)/float64(k)) > 1e-9 {
			t.Fatalf("trial %d: unique max %d mean %v, naive %d %v", trial, met.MaxUnique, met.MeanUnique, maxU, float64(sumU)/float64(k))
		}
		if want := 1 + float64(c)/float64(met.Vertices); math.Abs(met.RF-want) > 1e-12 {
			t.Fatalf("RF %v want %v", met.RF, want)
		}
	}
}

func TestDegreeSummary(t *testing.T) {
	// A star with 100 leaves plus a path: degrees 100, 1 x 100 (leaves; one
	// of them also on the path gets 2), ...
	g := &matrices.Graph{NumVertices: 102, NumRowVertices: 102}
	for i := 1; i <= 100; i++ {
		g.U = append(g.U, 0)
		g.V = append(g.V, int32(i))
	}
	inc, _ := matrices.BuildIncidence(g)
	met := Evaluate(g, inc, Partition{K: 1, Part: make([]int32, 100)})
	d := met.Degree
	if d.Min != 1 || d.Max != 100 || d.Median != 1 || d.P99 != 1 || math.Abs(d.Mean-200.0/101) > 1e-12 {
		t.Fatalf("%+v", d)
	}
	if met.Vertices != 101 {
		t.Fatalf("vertices %d", met.Vertices)
	}
}
