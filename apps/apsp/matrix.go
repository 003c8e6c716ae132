package apsp

import (
	"errors"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/apps/traversal/graph"
)

// Weight is a distance type: float32 (every sum rounded to float32, as the
// kernels compute it) or int32 (exact).
type Weight interface{ float32 | int32 }

// Inf is the distance of an unreachable pair: +Inf for float32,
// math.MaxInt32 for int32.
func Inf[T Weight]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(float32(math.Inf(1))).(T)
	}
	return any(int32(math.MaxInt32)).(T)
}

// TypeName is "float32" or "int32".
func TypeName[T Weight]() string {
	var z T
	if _, ok := any(z).(float32); ok {
		return "float32"
	}
	return "int32"
}

// Matrix is an all-pairs result, or the input of an in-place algorithm:
// N x N distances, row-major, row = source. With next hops, Next[i*N+j] is
// the vertex after i on a shortest path from i to j (i itself when i ==
// j, -1 when j is unreachable from i).
type Matrix[T Weight] struct {
	N    int
	Dist []T
	Next []int32 // nil without next hops
}

// At is the distance from i to j.
func (m *Matrix[T]) At(i, j int) T { return m.Dist[i*m.N+j] }

// Bytes is the memory an N x N matrix of T holds, next hops included when
// paths is set: what Dense allocates.
func Bytes(n int, paths bool) int64 {
	b := int64(n) * int64(n) * 4
	if paths {
		b *= 2
	}
	return b
}

// ErrNegative is what Dense answers for a negative (or NaN) arc weight.
var ErrNegative = errors.New("negative weight: these all-pairs shortest paths need non-negative weights (negative cycles are not detected)")

// Dense is the starting matrix of the algorithms for g: 0 on the
// diagonal, the lightest arc i->j elsewhere (a self-loop never shortens
// the empty path; a zero weight is stored as +0), Inf where there is no
// arc; with paths, next hop j for an arc i->j, i on the diagonal, -1
// elsewhere. int32 needs integer weights (g.Integer) whose longest simple
// path fits: the sum over the vertices of their heaviest out-arc stays
// below math.MaxInt32, so that no finite distance is taken for Inf.
func Dense[T Weight](g *graph.Graph, paths bool) (*Matrix[T], error) {
	if err := checkWeights[T](g); err != nil {
		return nil, err
	}
	n, inf := g.NumVertices, Inf[T]()
	m := &Matrix[T]{N: n, Dist: make([]T, n*n)}
	if paths {
		m.Next = make([]int32, n*n)
	}
	for i := range n {
		row := m.Dist[i*n : (i+1)*n]
		for j := range row {
			row[j] = inf
		}
		row[i] = 0
		var next []int32
		if paths {
			next = m.Next[i*n : (i+1)*n]
			for j := range next {
				next[j] = -1
			}
			next[i] = int32(i)
		}
		for e := g.Offsets[i]; e < g.Offsets[i+1]; e++ {
			j, w := g.Adj[e], g.Weight[e]
			if w == 0 {
				w = 0 // -0 becomes +0: the kernels' fminf and the CPU's comparisons then agree bit for bit
			}
			if t := T(w); int(j) != i && t < row[j] {
				row[j] = t
				if paths {
					next[j] = j
				}
			}
		}
	}
	return m, nil
}

// checkWeights says whether g's weights suit distances of type T: present,
// non-negative and, for int32, integers whose longest simple path stays
// below math.MaxInt32 (checkIntBound).
func checkWeights[T Weight](g *graph.Graph) error {
	if g.Weight == nil {
		return fmt.Errorf("%s: all-pairs shortest paths need weights (build the graph with weights)", g.Name)
	}
	for e, w := range g.Weight {
		if !(w >= 0) {
			return fmt.Errorf("%s: arc %d has weight %v: %w", g.Name, e, w, ErrNegative)
		}
	}
	if _, integer := any(Inf[T]()).(int32); !integer {
		return nil
	}
	if !g.Integer {
		return fmt.Errorf("%s: int32 distances need integer weights (uniform-int:W, or a file whose values are integers up to 2^24); use float32", g.Name)
	}
	return checkIntBound(g)
}

// checkIntBound refuses integer weights whose longest simple path could
// reach math.MaxInt32.
func checkIntBound(g *graph.Graph) error {
	var bound int64
	for v := range g.NumVertices {
		var heaviest float32
		for _, w := range g.ArcWeights(int32(v)) {
			heaviest = max(heaviest, w)
		}
		bound += int64(heaviest)
	}
	if bound >= math.MaxInt32 {
		return fmt.Errorf("%s: a shortest path may weigh up to %d, beyond int32 (the sum of every vertex's heaviest out-arc): use float32 or smaller weights", g.Name, bound)
	}
	return nil
}

// Path returns the vertices of the shortest path from i to j that the next
// hops give, i and j included; nil when j is unreachable from i. It fails
// without next hops, or when they do not lead to j within N-1 hops.
func (m *Matrix[T]) Path(i, j int) ([]int32, error) {
	if m.Next == nil {
		return nil, errors.New("apsp: no next hops (compute them with Options.Paths)")
	}
	n := m.N
	if i < 0 || i >= n || j < 0 || j >= n {
		return nil, fmt.Errorf("apsp: pair (%d, %d) outside the %d vertices", i, j, n)
	}
	if m.Next[i*n+j] < 0 {
		return nil, nil
	}
	path := []int32{int32(i)}
	for u := i; u != j; {
		u = int(m.Next[u*n+j])
		if u < 0 || u >= n || len(path) >= n {
			return nil, fmt.Errorf("apsp: the next hops from %d to %d do not reach %d (at %v)", i, j, j, path)
		}
		path = append(path, int32(u))
	}
	return path, nil
}

// Equal returns nil when a and b hold the same distances (== for every
// pair; +Inf equals +Inf) and, when both have them, the same next hops;
// else an error naming the first pair that differs.
func Equal[T Weight](a, b *Matrix[T]) error {
	if a.N != b.N {
		return fmt.Errorf("%d vertices against %d", a.N, b.N)
	}
	for k, x := range a.Dist {
		if y := b.Dist[k]; x != y {
			return fmt.Errorf("distance %d->%d: %v against %v", k/a.N, k%a.N, x, y)
		}
	}
	if a.Next != nil && b.Next != nil {
		for k, x := range a.Next {
			if y := b.Next[k]; x != y {
				return fmt.Errorf("next hop %d->%d: %d against %d", k/a.N, k%a.N, x, y)
			}
		}
	}
	return nil
}

// Tolerance is the relative difference allowed between float32 distances
// that two algorithms summed in different orders (Floyd-Warshall joins
// sub-paths, Dijkstra adds arc after arc): each sum of h non-negative
// terms is within (h-1)·2^-24 of the exact one, so two minima over paths
// differ by at most about 2n·2^-24 relatively. Results computed in the
// same order (a GPU kernel and its CPU reference) are compared with Equal.
func Tolerance(n int) float64 { return 2 * float64(max(n, 1)) * 0x1p-24 }

// Close returns nil when a and b agree within the relative tolerance tol
// (unreachable pairs must match exactly); else an error naming the first
// pair that differs more.
func Close(a, b *Matrix[float32], tol float64) error {
	if a.N != b.N {
		return fmt.Errorf("%d vertices against %d", a.N, b.N)
	}
	for k, x := range a.Dist {
		y := b.Dist[k]
		if x == y {
			continue
		}
		fx, fy := float64(x), float64(y)
		if math.IsInf(fx, 0) || math.IsInf(fy, 0) || math.Abs(fx-fy) > tol*max(fx, fy) {
			return fmt.Errorf("distance %d->%d: %v against %v (beyond a relative %.3g)", k/a.N, k%a.N, x, y, tol)
		}
	}
	return nil
}

// Check validates m against w, the Dense matrix of its graph (the arc
// weights): a zero diagonal; d(i,j) <= d(i,k) + w(k,j) for every arc k->j
// (in T's arithmetic; for float32 within Tolerance, since Floyd-Warshall
// adds in another order), which a shortest-path matrix satisfies; and, with
// next hops, every reachable pair's path made of arcs of w, whose weights
// added left to right give d(i,j) exactly for int32, within Tolerance for
// float32 (Floyd-Warshall adds in another order), and -1 for the
// unreachable ones. O(N^3) and O(N^2) path walks: for tests.
func Check[T Weight](m, w *Matrix[T]) error {
	n, inf := m.N, Inf[T]()
	_, integer := any(inf).(int32)
	slack := Tolerance(n)
	if w.N != n {
		return fmt.Errorf("%d vertices against %d arcs' matrix", n, w.N)
	}
	for i := range n {
		if d := m.At(i, i); d != 0 {
			return fmt.Errorf("distance %d->%d is %v, not 0", i, i, d)
		}
		for k := range n {
			dik := m.At(i, k)
			if dik == inf {
				continue
			}
			for j := range n {
				if wkj := w.At(k, j); wkj != inf && k != j {
					if s := dik + wkj; s >= dik && s < m.At(i, j) && (integer || float64(m.At(i, j)-s) > slack*float64(s)) {
						return fmt.Errorf("distance %d->%d is %v, but %d->%d (%v) and the arc %d->%d (%v) give %v", i, j, m.At(i, j), i, k, dik, k, j, wkj, s)
					}
				}
			}
		}
	}
	if m.Next == nil {
		return nil
	}
	for i := range n {
		if err := m.checkPathsFrom(w, i); err != nil {
			return err
		}
	}
	return nil
}

// checkPathsFrom walks the next hops from i to every vertex: each path
// made of arcs of w, whose weights added give d(i,j) exactly for int32,
// within Tolerance for float32, and none for the unreachable pairs. Check's
// path part, for one source: O(N x hops).
func (m *Matrix[T]) checkPathsFrom(w *Matrix[T], i int) error {
	n, inf := m.N, Inf[T]()
	_, integer := any(inf).(int32)
	for j := range n {
		p, err := m.Path(i, j)
		if err != nil {
			return err
		}
		if (p == nil) != (m.At(i, j) == inf) {
			return fmt.Errorf("pair %d->%d: distance %v but next hop %d", i, j, m.At(i, j), m.Next[i*n+j])
		}
		var sum float64
		for h := 1; h < len(p); h++ {
			a := w.At(int(p[h-1]), int(p[h]))
			if a == inf {
				return fmt.Errorf("path %d->%d %v uses %d->%d, not an arc", i, j, p, p[h-1], p[h])
			}
			sum += float64(a)
		}
		if d := float64(m.At(i, j)); p != nil && ((integer && sum != d) || (!integer && math.Abs(sum-d) > Tolerance(n)*max(sum, d))) {
			return fmt.Errorf("path %d->%d %v weighs %v, the distance is %v", i, j, p, sum, d)
		}
	}
	return nil
}
