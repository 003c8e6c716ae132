package apsp

import (
	"math/bits"

	"github.com/spac-gpu/spac/apps/traversal/graph"
)

// Crossover is one row of the GPU's Auto rule: at N vertices, sssp-all
// (AllSourcesGPU) took less time than fw-blocked on graphs of up to Degree
// arcs per vertex.
type Crossover struct {
	N      int
	Degree float64
}

// GPUCrossover is Auto's rule on the GPU, from measurements: the table
// that TestBenchmarkTable prints (SPAC_APSP_BENCH=1, its crossover part:
// fw-blocked against sssp-all for n = 1024 to 8192 at average degrees 4,
// 16, 64 and n/4, each row ending with the degree where the two take the
// same time), one row per n. Rows in increasing N.
//
// Why the threshold grows with n: fw-blocked costs n^3 relaxations
// whatever the graph; sssp-all about c·n·m (c: how often a label-correcting
// search relaxes an arc, 2 to 5 on random weights) plus a fixed cost per
// round of each batch. The two meet near m/n = n·R_sssp / (c·R_fw) (R: the
// relaxation rates), a degree proportional to n once the rounds' fixed
// cost no longer counts; CrossoverDegree extends the table that way.
//
// Measured on the H100 (2026-11-26; docs and the closing note of issue 18
// give the table): by total time (SolveGPU's wall time, the host matrix
// and copies included, median of 3), sssp-all was faster up to average
// degree 11.9 at n = 1024, 63.8 at 2048, 49.8 at 4096 and 71.1 at 8192.
// The 2048 row is capped at 4096's (the two methods were within 0.2% at
// degree 64 there, and the rule must not fall as n grows).
var GPUCrossover = []Crossover{
	{N: 1024, Degree: 11.9},
	{N: 2048, Degree: 49.8},
	{N: 4096, Degree: 49.8},
	{N: 8192, Degree: 71.1},
}

// GPUCrossoverMeasured says GPUCrossover's rows come from a device run;
// Choose uses them on the GPU only then.
const GPUCrossoverMeasured = true

// CrossoverDegree is the average degree up to which Auto runs sssp-all on
// the GPU for a graph of n vertices: GPUCrossover's rows interpolated
// linearly in n between rows, proportional to n outside them.
func CrossoverDegree(n int) float64 {
	t := GPUCrossover
	first, last := t[0], t[len(t)-1]
	switch {
	case n <= first.N:
		return first.Degree * float64(n) / float64(first.N)
	case n >= last.N:
		return last.Degree * float64(n) / float64(last.N)
	}
	for i := 1; i < len(t); i++ {
		if n <= t[i].N {
			a, b := t[i-1], t[i]
			f := float64(n-a.N) / float64(b.N-a.N)
			return a.Degree + f*(b.Degree-a.Degree)
		}
	}
	return last.Degree
}

// Choose is Auto's pick for g.
//
// On the GPU (onGPU): sssp-all when the average degree (arcs / vertices)
// is at most CrossoverDegree(N), the measured crossover with fw-blocked
// (once GPUCrossoverMeasured); else fw-blocked. (SolveGPU also takes sssp-all where fw-blocked's
// matrix does not fit the device: sssp-all keeps it on the host.)
//
// On the CPU: Dijkstra from every source when the graph is sparse enough
// that N searches of O((N + M) log N) heap work beat Floyd-Warshall's N^3
// relaxations, counting a heap step as 32 relaxations (a relaxation is a
// vectorizable add and min, a heap step a few dependent cache misses):
// M log2 N * 32 < N^2; else FW, which beats the blocked order on the CPU
// (n = 1024, 2 cores: 0.34 s against 0.70; Dijkstra from every source 0.26
// s on a Kronecker graph of 16 arcs per vertex).
func Choose(g *graph.Graph, onGPU bool) Method {
	n := int64(g.NumVertices)
	if onGPU {
		if GPUCrossoverMeasured && n >= 2 && float64(g.NumArcs()) <= CrossoverDegree(int(n))*float64(n) {
			return SSSPAll
		}
		return FWBlocked
	}
	if n < 2 {
		return FW
	}
	if g.NumArcs()*int64(bits.Len64(uint64(n)))*32 < n*n {
		return SSSPAll
	}
	return FW
}
