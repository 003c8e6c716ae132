package spac

import (
	"time"

	"github.com/spac-gpu/spac/matrices"
)

// DegreeSummary describes the degrees of the vertices that have at least one
// edge (a self-loop counts once, as in matrices.Incidence).
type DegreeSummary struct {
	Min, Max int
	Mean     float64
	Median   float64 // mean of the two middle degrees when the count is even
	P99      int     // nearest-rank 99th percentile
}

// Metrics is the quality of an edge partition in the paper's terms.
type Metrics struct {
	Method   string // filled by the caller
	Edges    int
	Vertices int // vertices with at least one edge
	K        int
	Cap      int // filled by the caller (Evaluate does not know the cap)

	// Copies is the paper's C_EP = sum over vertices of (p_v - 1), where p_v
	// is the number of distinct parts among v's edges: the extra loads of
	// data objects a schedule causes.
	Copies int64
	// RF is the replication factor 1 + Copies/Vertices.
	RF float64

	// MaxLoad is the largest part; MaxLoadRatio is MaxLoad / (Edges/K).
	MaxLoad      int
	MaxLoadRatio float64

	// MaxUnique and MeanUnique count, per part, the distinct vertices its
	// edges touch. The largest is the shared memory a block must reserve
	// when it stages its data objects; the mean is (Vertices+Copies)/K.
	MaxUnique  int
	MeanUnique float64

	// CutVertices is the number of vertices with p_v > 1 and AvgCutDegree
	// their mean degree (the paper's Table 1).
	CutVertices  int
	AvgCutDegree float64

	Degree DegreeSummary

	Time time.Duration // filled by the caller
}

// Evaluate measures partition p of g's edges; inc is g's incidence. p must
// be a valid partition (see Check); the cap is not known here and is left to
// the caller, like the method name and the time.
//
// It runs in O(m + n + K + maximum degree) with flat arrays: each vertex
// walks its incident edges and counts the distinct parts among them with a
// stamp array over the parts.
func Evaluate(g *matrices.Graph, inc *matrices.Incidence, p Partition) Metrics {
	m := g.NumEdges()
	k := p.K
	met := Metrics{Edges: m, K: k}
	if k <= 0 {
		return met
	}
	load := make([]int, k)
	for _, q := range p.Part {
		load[q]++
	}
	for _, l := range load {
		if l > met.MaxLoad {
			met.MaxLoad = l
		}
	}
	if m > 0 {
		met.MaxLoadRatio = float64(met.MaxLoad) * float64(k) / float64(m)
	}

	stamp := make([]int32, k) // stamp[q] == v+1: v already seen in part q
	unique := make([]int32, k)
	maxDeg := 0
	var degSum, cutDegSum int64
	minDeg := -1
	part := p.Part
	off, edge := inc.Offsets, inc.Edge
	for v := 0; v < g.NumVertices; v++ {
		lo, hi := off[v], off[v+1]
		if lo == hi {
			continue
		}
		deg := int(hi - lo)
		met.Vertices++
		degSum += int64(deg)
		if deg > maxDeg {
			maxDeg = deg
		}
		if minDeg < 0 || deg < minDeg {
			minDeg = deg
		}
		mark := int32(v + 1)
		pv := 0
		for _, e := range edge[lo:hi] {
			q := part[e]
			if stamp[q] != mark {
				stamp[q] = mark
				unique[q]++
				pv++
			}
		}
		if pv > 1 {
			met.Copies += int64(pv - 1)
			met.CutVertices++
			cutDegSum += int64(deg)
		}
	}
	if met.Vertices > 0 {
		met.RF = 1 + float64(met.Copies)/float64(met.Vertices)
	}
	if met.CutVertices > 0 {
		met.AvgCutDegree = float64(cutDegSum) / float64(met.CutVertices)
	}
	var uniqueSum int64
	for _, u := range unique {
		uniqueSum += int64(u)
		if int(u) > met.MaxUnique {
			met.MaxUnique = int(u)
		}
	}
	met.MeanUnique = float64(uniqueSum) / float64(k)

	if met.Vertices > 0 {
		met.Degree = summarizeDegrees(inc, g.NumVertices, met.Vertices, minDeg, maxDeg, degSum)
	}
	return met
}

// summarizeDegrees finds the median and 99th percentile with a histogram of
// the degrees, which is linear where sorting would not be.
func summarizeDegrees(inc *matrices.Incidence, n, count, minDeg, maxDeg int, sum int64) DegreeSummary {
	s := DegreeSummary{Min: minDeg, Max: maxDeg, Mean: float64(sum) / float64(count)}
	hist := make([]int32, maxDeg+1)
	for v := 0; v < n; v++ {
		if d := inc.Offsets[v+1] - inc.Offsets[v]; d > 0 {
			hist[d]++
		}
	}
	// nth returns the degree of rank r (0-based) in increasing order.
	nth := func(r int) int {
		seen := 0
		for d, c := range hist {
			seen += int(c)
			if seen > r {
				return d
			}
		}
		return maxDeg
	}
	if count%2 == 1 {
		s.Median = float64(nth(count / 2))
	} else {
		s.Median = float64(nth(count/2-1)+nth(count/2)) / 2
	}
	rank := (99*count + 99) / 100 // ceil(0.99 * count)
	if rank < 1 {
		rank = 1
	}
	s.P99 = nth(rank - 1)
	return s
}
