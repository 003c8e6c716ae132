// Package validate checks BFS and SSSP results by the rules of the Graph500
// benchmark and defines the benchmark's units: every GPU result in a test
// or a benchmark goes through BFS or SSSP here, and every rate is computed
// by TEPS, InspectedPerSecond and HarmonicMean.
//
// # Rules
//
// BFS (parent and optional depth arrays, -1 for unreached vertices): the
// root is its own parent at depth 0; every parent chain reaches the root
// (a tree); tree edges join levels one apart; every arc u->v from a
// reached u reaches v, at a level at most one deeper (on an undirected
// graph, whose arcs go both ways, every input edge spans at most one
// level or joins two unreached vertices, and the tree reaches exactly the
// root's component); every parent edge is an arc of the graph.
//
// SSSP (float32 distances, +Inf for unreached, and int32 predecessors):
// d(root) = 0 and the root is its own predecessor; no distance is NaN or
// negative; unreached vertices have no predecessor; d(v) <= d(u) + w on
// every arc u->v from a reached u; every other reached v has a
// predecessor p with an arc p->v of weight w such that d(v) == d(p) + w
// bitwise, the sum rounded to float32 as the GPU computes it; the
// predecessors form a tree rooted at the root. With integer weights,
// SameDistances compares the distances with Dijkstra's exact ones.
//
// A failed check returns a *Violation naming the rule and the first
// vertex or arc (lowest source vertex) that breaks it.
//
// # Complexity
//
// O(n + m) time, parallel over vertex ranges, and 5 bytes per vertex of
// scratch (levels and marks); the graph needs no transpose.
package validate

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/par"
)

// Rule is one of the checks.
type Rule uint8

const (
	RuleShape       Rule = iota + 1 // arrays of the wrong length, ids out of range
	RuleRoot                        // the root is not its own parent at depth / distance 0
	RuleTree                        // a parent chain does not reach the root
	RuleTreeLevel                   // a tree edge does not join levels one apart
	RuleDepth                       // a depth disagrees with the parent tree
	RuleEdgeSpan                    // an arc spans more than one level
	RuleComponent                   // a reached vertex has an arc to an unreached one
	RuleParentEdge                  // a parent edge is not an arc of the graph
	RuleDistance                    // a distance is NaN or negative, or reached without a predecessor
	RuleRelaxed                     // d(v) > d(u) + w on an arc
	RulePredecessor                 // no arc from the predecessor gives d(v) exactly
	RuleMismatch                    // distances or depths differ from the reference
)

var ruleNames = [...]string{
	RuleShape:       "shape",
	RuleRoot:        "root",
	RuleTree:        "tree",
	RuleTreeLevel:   "tree-level",
	RuleDepth:       "depth",
	RuleEdgeSpan:    "edge-span",
	RuleComponent:   "component",
	RuleParentEdge:  "parent-edge",
	RuleDistance:    "distance",
	RuleRelaxed:     "relaxed",
	RulePredecessor: "predecessor",
	RuleMismatch:    "mismatch",
}

func (r Rule) String() string {
	if int(r) < len(ruleNames) && ruleNames[r] != "" {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", uint8(r))
}

// Violation is a failed check: the rule, the vertex (and for an arc, the
// other end; -1 when there is none) and what was found.
type Violation struct {
	Rule   Rule
	Vertex int32
	Other  int32
	Detail string
}

func (v *Violation) Error() string { return fmt.Sprintf("%v rule broken: %s", v.Rule, v.Detail) }

func violation(r Rule, v, o int32, format string, args ...any) *Violation {
	return &Violation{Rule: r, Vertex: v, Other: o, Detail: fmt.Sprintf(format, args...)}
}

const grain = 1 << 14 // vertices per parallel task

// overVertices runs f on vertex ranges in parallel and returns the
// violation of the lowest range that has one.
func overVertices(n int, f func(lo, hi int32) *Violation) *Violation {
	tasks := (n + grain - 1) / grain
	out := make([]*Violation, tasks)
	par.Do(tasks, func(t int) { out[t] = f(int32(t*grain), int32(min((t+1)*grain, n))) })
	for _, v := range out {
		if v != nil {
			return v
		}
	}
	return nil
}

func checkShape(g *graph.Graph, root int32, what string, lens ...int) *Violation {
	for _, l := range lens {
		if l != g.NumVertices {
			return violation(RuleShape, -1, -1, "%s array has %d entries for %d vertices", what, l, g.NumVertices)
		}
	}
	if root < 0 || int(root) >= g.NumVertices {
		return violation(RuleShape, root, -1, "root %d is not a vertex of the %d", root, g.NumVertices)
	}
	return nil
}

// treeLevels follows the parent chains to the root and returns each
// vertex's level (-1 unreached), or the violation of a chain that does not
// end at the root. O(n): each vertex's level is computed once.
func treeLevels(g *graph.Graph, root int32, parent []int32) ([]int32, *Violation) {
	n := int32(g.NumVertices)
	level := make([]int32, n)
	for v, p := range parent {
		if p < -1 || p >= n {
			return nil, violation(RuleShape, int32(v), p, "vertex %d has parent %d, not a vertex (nor -1)", v, p)
		}
		level[v] = -2 // not yet known
		if p < 0 {
			level[v] = -1
		}
	}
	level[root] = 0
	var path []int32
	for v := range n {
		if level[v] != -2 {
			continue
		}
		// Walk up until a known level; a walk longer than n is a cycle.
		path = path[:0]
		u := v
		for level[u] == -2 {
			path = append(path, u)
			level[u] = -3 // on the current path
			u = parent[u]
		}
		if level[u] < 0 { // -3: a cycle; -1: an unreached ancestor
			for _, w := range path {
				level[w] = -1
			}
			if level[u] == -3 || u == path[0] {
				return nil, violation(RuleTree, v, u, "the parent chain of vertex %d runs into a cycle at vertex %d instead of reaching root %d", v, u, root)
			}
			return nil, violation(RuleTree, v, u, "the parent chain of vertex %d reaches vertex %d, which has no parent, instead of root %d", v, u, root)
		}
		for i := len(path) - 1; i >= 0; i-- {
			w := path[i]
			level[w] = level[parent[w]] + 1
		}
	}
	return level, nil
}

// BFS checks a breadth-first search tree from root: parent is required,
// depth may be nil (levels then come from the tree alone).
func BFS(g *graph.Graph, root int32, parent, depth []int32) error {
	lens := []int{len(parent)}
	if depth != nil {
		lens = append(lens, len(depth))
	}
	if v := checkShape(g, root, "BFS", lens...); v != nil {
		return v
	}
	if parent[root] != root {
		return violation(RuleRoot, root, parent[root], "root %d has parent %d: the root must be its own parent", root, parent[root])
	}
	if depth != nil && depth[root] != 0 {
		return violation(RuleRoot, root, -1, "root %d has depth %d, not 0", root, depth[root])
	}
	// With depths, a tree edge that joins levels one apart from a reached
	// parent makes every parent chain descend to depth 0, which only the
	// root has: the depths are the tree's levels, checked in parallel.
	// Without, the chains are walked.
	level := depth
	if depth != nil {
		n := int32(g.NumVertices)
		if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
			for v := lo; v < hi; v++ {
				p := parent[v]
				switch {
				case p < -1 || p >= n:
					return violation(RuleShape, v, p, "vertex %d has parent %d, not a vertex (nor -1)", v, p)
				case v == root:
				case p < 0:
					if depth[v] != -1 {
						return violation(RuleDepth, v, -1, "vertex %d has no parent but depth %d (unreached is -1)", v, depth[v])
					}
				case depth[p] < 0:
					return violation(RuleTree, v, p, "the parent chain of vertex %d reaches vertex %d, which has no parent, instead of root %d", v, p, root)
				case depth[v] != depth[p]+1:
					return violation(RuleTreeLevel, v, p, "tree edge %d->%d joins depth %d to depth %d, not one level apart", p, v, depth[p], depth[v])
				}
			}
			return nil
		}); v != nil {
			return v
		}
	} else {
		var viol *Violation
		if level, viol = treeLevels(g, root, parent); viol != nil {
			return viol
		}
	}
	found := make([]bool, g.NumVertices) // the parent edge of v is an arc
	if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
		// Arcs of u are in this range only, and found[v] is set only
		// from parent[v]'s arcs: no two workers write the same mark.
		for u := lo; u < hi; u++ {
			lu := level[u]
			if lu < 0 {
				continue
			}
			for _, v := range g.Neighbors(u) {
				lv := level[v]
				switch {
				case lv < 0:
					return violation(RuleComponent, u, v, "arc %d->%d joins reached vertex %d (level %d) to unreached vertex %d: the tree misses part of what the root reaches", u, v, u, lu, v)
				case lv > lu+1:
					return violation(RuleEdgeSpan, u, v, "arc %d->%d spans levels %d to %d: more than one level", u, v, lu, lv)
				}
				if parent[v] == u {
					found[v] = true
				}
			}
		}
		return nil
	}); v != nil {
		return v
	}
	if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
		for v := lo; v < hi; v++ {
			if p := parent[v]; p >= 0 && v != root && !found[v] {
				return violation(RuleParentEdge, v, p, "parent edge %d->%d of vertex %d is not an arc of the graph", p, v, v)
			}
		}
		return nil
	}); v != nil {
		return v // not the nil *Violation, which is a non-nil error
	}
	return nil
}

// SSSP checks a shortest-path tree from root on a weighted graph.
func SSSP(g *graph.Graph, root int32, dist []float32, pred []int32) error {
	if v := checkShape(g, root, "SSSP", len(dist), len(pred)); v != nil {
		return v
	}
	if g.Weight == nil {
		return violation(RuleShape, -1, -1, "%s has no weights", g.Name)
	}
	if dist[root] != 0 || pred[root] != root {
		return violation(RuleRoot, root, pred[root], "root %d has distance %v and predecessor %d: want 0 and itself", root, dist[root], pred[root])
	}
	n := int32(g.NumVertices)
	if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
		for v := lo; v < hi; v++ {
			d, p := dist[v], pred[v]
			switch {
			case math.IsNaN(float64(d)) || d < 0:
				return violation(RuleDistance, v, -1, "vertex %d has distance %v", v, d)
			case p < -1 || p >= n:
				return violation(RuleShape, v, p, "vertex %d has predecessor %d, not a vertex (nor -1)", v, p)
			case math.IsInf(float64(d), 1) != (p < 0):
				return violation(RuleDistance, v, p, "vertex %d has distance %v but predecessor %d: unreached is +Inf with -1", v, d, p)
			}
		}
		return nil
	}); v != nil {
		return v
	}
	found := make([]bool, g.NumVertices)
	if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
		for u := lo; u < hi; u++ {
			du := dist[u]
			if pred[u] < 0 {
				continue
			}
			for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
				v, w := g.Adj[e], g.Weight[e]
				nd := float32(du + w)
				dv := dist[v]
				switch {
				case pred[v] < 0:
					return violation(RuleComponent, u, v, "arc %d->%d joins reached vertex %d (distance %v) to unreached vertex %d", u, v, u, du, v)
				case dv > nd:
					return violation(RuleRelaxed, v, u, "d(%d) = %v > d(%d) + w = %v + %v = %v: arc %d->%d was not relaxed", v, dv, u, du, w, nd, u, v)
				}
				if pred[v] == u && dv == nd {
					found[v] = true
				}
			}
		}
		return nil
	}); v != nil {
		return v
	}
	var flat atomic.Bool // some d(v) == d(pred(v))
	if v := overVertices(g.NumVertices, func(lo, hi int32) *Violation {
		for v := lo; v < hi; v++ {
			p := pred[v]
			if p < 0 || v == root {
				continue
			}
			if !found[v] {
				return violation(RulePredecessor, v, p, "d(%d) = %v but no arc %d->%d gives d(%d) + w == d(%d) exactly in float32 (d(%d) = %v)", v, dist[v], p, v, p, v, p, dist[p])
			}
			if !(dist[p] < dist[v]) {
				flat.Store(true)
			}
		}
		return nil
	}); v != nil {
		return v
	}
	// Predecessors whose distances strictly decrease reach the root, the
	// only vertex at distance 0. Exact ones can still form a cycle through
	// zero weights or additions that round away a tiny weight: then the
	// chains are walked.
	if flat.Load() {
		if _, v := treeLevels(g, root, pred); v != nil {
			return v
		}
	}
	return nil
}

// SameDepths compares BFS depths with a reference's.
func SameDepths(got, want []int32) error {
	if len(got) != len(want) {
		return violation(RuleShape, -1, -1, "%d depths, want %d", len(got), len(want))
	}
	for v := range got {
		if got[v] != want[v] {
			return violation(RuleMismatch, int32(v), -1, "vertex %d at depth %d, the reference says %d", v, got[v], want[v])
		}
	}
	return nil
}

// SameDistances compares float32 distances bitwise with a reference's
// (+Inf equals +Inf).
func SameDistances(got, want []float32) error {
	if len(got) != len(want) {
		return violation(RuleShape, -1, -1, "%d distances, want %d", len(got), len(want))
	}
	for v := range got {
		if math.Float32bits(got[v]) != math.Float32bits(want[v]) {
			return violation(RuleMismatch, int32(v), -1, "vertex %d at distance %v, the reference says %v", v, got[v], want[v])
		}
	}
	return nil
}

// SameIntDistances compares float32 distances with exact integer ones
// (ref.DijkstraInt; math.MaxInt64 for unreached, which must be +Inf). A
// float32 distance equals an integer one only when the integer is exact in
// float32; larger distances than 2^24 are compared after rounding, which
// the error says.
func SameIntDistances(got []float32, want []int64) error {
	if len(got) != len(want) {
		return violation(RuleShape, -1, -1, "%d distances, want %d", len(got), len(want))
	}
	for v := range got {
		w := want[v]
		if w == math.MaxInt64 {
			if !math.IsInf(float64(got[v]), 1) {
				return violation(RuleMismatch, int32(v), -1, "vertex %d at distance %v, but the root does not reach it", v, got[v])
			}
			continue
		}
		if float64(got[v]) != float64(w) && !(w > 1<<24 && got[v] == float32(w)) {
			return violation(RuleMismatch, int32(v), -1, "vertex %d at distance %v, exact Dijkstra says %d", v, got[v], w)
		}
	}
	return nil
}

// TEPS is traversed edges per second: Graph500's count of input edges
// (graph.Graph.ReachedInputEdges) over the time of one search.
func TEPS(inputEdges int64, d time.Duration) float64 {
	return float64(inputEdges) / d.Seconds()
}

// InspectedPerSecond is the rate of arcs a traversal actually looked at
// (each direction of an undirected edge counts): what memory bandwidth
// bounds. Never mix it with TEPS.
func InspectedPerSecond(inspected int64, d time.Duration) float64 {
	return float64(inspected) / d.Seconds()
}

// HarmonicMean is how Graph500 averages TEPS over roots: n / sum(1/x).
// It is 0 when any rate is 0 or there is none.
func HarmonicMean(rates []float64) float64 {
	if len(rates) == 0 {
		return 0
	}
	var s float64
	for _, r := range rates {
		if r <= 0 {
			return 0
		}
		s += 1 / r
	}
	return float64(len(rates)) / s
}
