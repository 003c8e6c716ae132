package apsp

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/ref"
	"github.com/spac-gpu/spac/internal/par"
)

// relax is the one relaxation loop of every CPU Floyd-Warshall: for k in
// [k0, k1) in increasing order, then every row i in [i0, i1), then every
// column j in [j0, j1): d(i,j) = d(i,k) + d(k,j) where that is strictly
// smaller, the next hop following, in place. Rows with d(i,k) = Inf are
// skipped (nothing in them can improve). The sum may wrap for int32 (two
// values near MaxInt32): a wrapped sum is below d(i,k) and refused, which
// is what the kernels' unsigned sum and min give.
func (m *Matrix[T]) relax(k0, k1, i0, i1, j0, j1 int) {
	n, inf := m.N, Inf[T]()
	for k := k0; k < k1; k++ {
		rowK := m.Dist[k*n+j0 : k*n+j1]
		for i := i0; i < i1; i++ {
			dik := m.Dist[i*n+k]
			if dik == inf {
				continue
			}
			row := m.Dist[i*n+j0 : i*n+j1]
			if m.Next == nil {
				for j, b := range rowK {
					if s := dik + b; s < row[j] && s >= dik {
						row[j] = s
					}
				}
				continue
			}
			via, next := m.Next[i*n+k], m.Next[i*n+j0:i*n+j1]
			for j, b := range rowK {
				if s := dik + b; s < row[j] && s >= dik {
					row[j], next[j] = s, via
				}
			}
		}
	}
}

// rowTasks splits n rows into tasks of at least 16 rows, a few per worker.
func rowTasks(n int) int { return max(1, min(4*runtime.GOMAXPROCS(0), n/16)) }

// FloydWarshall runs Floyd-Warshall on m in place, in the textbook order:
// for each k, every pair (i, j) relaxed through k, the rows in parallel.
// Row k and column k do not change in step k (the diagonal is 0), so the
// workers never write what another reads. It is the naive kernel's
// reference: the same sums of the same values, bit for bit. O(N^3) time;
// ctx is checked at every k.
func FloydWarshall[T Weight](ctx context.Context, m *Matrix[T]) error {
	n := m.N
	tasks := rowTasks(n)
	for k := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		par.Do(tasks, func(t int) { m.relax(k, k+1, t*n/tasks, (t+1)*n/tasks, 0, n) })
	}
	return nil
}

// Tiles are the tile sizes of the blocked Floyd-Warshall (the kernels are
// compiled for these); DefaultTile is the one chosen for the H100.
var Tiles = []int{32, 64, 128}

// DefaultTile is fw-blocked's tile size unless Options.Tile says another.
const DefaultTile = 64

func checkTile(tile int) error {
	for _, t := range Tiles {
		if t == tile {
			return nil
		}
	}
	return fmt.Errorf("apsp: tile %d: the blocked kernels come in tiles of %v", tile, Tiles)
}

// FloydWarshallBlocked runs the blocked Floyd-Warshall on m in place, in
// the blocked kernels' order, so that its results (float32 included) are
// theirs bit for bit: per round kb of tile values of k, the diagonal tile
// with k outermost, then the tiles of row and column kb (in parallel),
// then every other tile (in parallel), each tile with k outermost. Within
// a round a tile reads only itself and tiles that the phase does not
// write. A last partial tile (N not a multiple of tile) is what the
// kernels' padding vertices leave: they are isolated and change nothing.
func FloydWarshallBlocked[T Weight](ctx context.Context, m *Matrix[T], tile int) error {
	if err := checkTile(tile); err != nil {
		return err
	}
	n := m.N
	nt := (n + tile - 1) / tile
	lo := func(b int) int { return b * tile }
	hi := func(b int) int { return min(n, (b+1)*tile) }
	for kb := range nt {
		if err := ctx.Err(); err != nil {
			return err
		}
		k0, k1 := lo(kb), hi(kb)
		m.relax(k0, k1, k0, k1, k0, k1)
		par.Do(2*nt, func(t int) {
			switch b := t % nt; {
			case b == kb:
			case t < nt: // the row tile (kb, b)
				m.relax(k0, k1, k0, k1, lo(b), hi(b))
			default: // the column tile (b, kb)
				m.relax(k0, k1, lo(b), hi(b), k0, k1)
			}
		})
		par.Do(nt*nt, func(t int) {
			if ib, jb := t/nt, t%nt; ib != kb && jb != kb {
				m.relax(k0, k1, lo(ib), hi(ib), lo(jb), hi(jb))
			}
		})
	}
	return nil
}

// AllSources runs Dijkstra from every source of g in parallel (package
// ref's binary-heap Dijkstra: float32 sums rounded at every arc, or exact
// int64 sums for int32): the reference for sparse graphs, O(N (N + M) log
// N) time. Next hops come from each search's predecessor tree.
func AllSources[T Weight](ctx context.Context, g *graph.Graph, paths bool) (*Matrix[T], error) {
	if err := checkWeights[T](g); err != nil {
		return nil, err
	}
	n, inf := g.NumVertices, Inf[T]()
	_, integer := any(inf).(int32)
	m := &Matrix[T]{N: n, Dist: make([]T, n*n)}
	if paths {
		m.Next = make([]int32, n*n)
	}
	err := par.DoCtx(ctx, n, func(s int) error {
		row := m.Dist[s*n : (s+1)*n]
		var pred []int32
		if integer {
			d, p, err := ref.DijkstraInt(g, int32(s))
			if err != nil {
				return err
			}
			for v, x := range d {
				row[v] = inf
				if x != ref.Unreached {
					row[v] = any(int32(x)).(T) // below MaxInt32: checkIntBound
				}
			}
			pred = p
		} else {
			r, err := ref.Dijkstra(g, int32(s))
			if err != nil {
				return err
			}
			for v, x := range r.Dist {
				if x == 0 {
					x = 0 // +0, as Dense stores zero weights
				}
				row[v] = any(x).(T)
			}
			pred = r.Pred
		}
		if paths {
			return nextHops(int32(s), pred, m.Next[s*n:(s+1)*n])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// nextHops fills next (one source's row) from the predecessor tree of a
// search from s (pred[v] < 0: unreached): the hop after s toward v is the
// vertex of v's tree path whose predecessor is s. Each vertex is resolved
// once (the walk stops at the first resolved ancestor), O(N). It fails
// when the predecessors do not form a tree rooted at s (a walk longer than
// N, or one that leaves the vertices or meets an unreached one): what a
// kernel bug would leave.
func nextHops(s int32, pred, next []int32) error {
	const unknown = math.MinInt32
	n := len(pred)
	for v, p := range pred {
		next[v] = unknown
		if p < 0 {
			next[v] = -1
		}
	}
	next[s] = s
	var stack []int32
	for v := range next {
		for u := int32(v); next[u] == unknown; u = pred[u] {
			if len(stack) >= n || pred[u] >= int32(n) {
				return fmt.Errorf("the predecessors from source %d do not form a tree (at vertex %d)", s, v)
			}
			stack = append(stack, u)
		}
		for len(stack) > 0 {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch p := pred[w]; {
			case p == s:
				next[w] = w
			case next[p] < 0:
				return fmt.Errorf("the predecessors from source %d lead vertex %d to %d, which is unreached", s, w, p)
			default:
				next[w] = next[p]
			}
		}
	}
	return nil
}
