package dist

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
)

func TestGroupingChoice(t *testing.T) {
	for _, tc := range []struct {
		grouping Grouping
		tasks    int64
		want     bool
	}{
		{GroupAuto, SmallTasks - 1, false},
		{GroupAuto, SmallTasks, true},
		{GroupTasks, SmallTasks, false},
		{GroupClusters, 10, true},
	} {
		if got := (Options{Grouping: tc.grouping}).clusters(tc.tasks); got != tc.want {
			t.Errorf("%v at %d tasks: clusters %v, want %v", tc.grouping, tc.tasks, got, tc.want)
		}
	}
}

// naiveClusters is every task's cluster, the obvious way: for the spmv
// model its row (u; v is numbered after the rows), for the graph model its
// endpoint of fewer tasks, the smaller on a tie.
func naiveClusters(u, v []int32, model matrices.Model) []int32 {
	tasks := map[int32]int32{}
	for e := range u {
		tasks[u[e]]++
		if v[e] != u[e] {
			tasks[v[e]]++
		}
	}
	cl := make([]int32, len(u))
	for e := range u {
		a, b := u[e], v[e]
		switch {
		case model == matrices.ModelSpMV:
			cl[e] = a
		case tasks[a] < tasks[b] || tasks[a] == tasks[b] && a < b:
			cl[e] = a
		default:
			cl[e] = b
		}
	}
	return cl
}

// naiveClusterGraph is the cluster graph of the whole input built the
// obvious way on one machine: every data object's tasks sorted by their
// other endpoint (then task), consecutive ones linked, closed into a cycle
// from three, each link between two clusters an edge of weight 1 both
// ways (but for objects of more than hubChainTasks tasks); a cluster's
// weight is its tasks.
func naiveClusterGraph(u, v, cl []int32, clusters int) ([]int32, map[[2]int32]int32) {
	type rec struct{ other, e int32 }
	chains := map[int32][]rec{}
	vwgt := make([]int32, clusters)
	for e := range u {
		chains[u[e]] = append(chains[u[e]], rec{v[e], int32(e)})
		if v[e] != u[e] {
			chains[v[e]] = append(chains[v[e]], rec{u[e], int32(e)})
		}
		vwgt[cl[e]]++
	}
	adj := map[[2]int32]int32{}
	link := func(x, y rec) {
		if a, b := cl[x.e], cl[y.e]; a != b {
			adj[[2]int32{a, b}]++
			adj[[2]int32{b, a}]++
		}
	}
	for _, ch := range chains {
		if len(ch) > hubChainTasks {
			continue
		}
		slices.SortFunc(ch, func(x, y rec) int { return cmp.Or(cmp.Compare(x.other, y.other), cmp.Compare(x.e, y.e)) })
		for i := 0; i+1 < len(ch); i++ {
			link(ch[i], ch[i+1])
		}
		if len(ch) >= 3 {
			link(ch[len(ch)-1], ch[0])
		}
	}
	return vwgt, adj
}

// countHubs counts the data objects of more than hubChainTasks tasks.
func countHubs(u, v []int32) int {
	tasks := map[int32]int{}
	for e := range u {
		tasks[u[e]]++
		if v[e] != u[e] {
			tasks[v[e]]++
		}
	}
	n := 0
	for _, k := range tasks {
		if k > hubChainTasks {
			n++
		}
	}
	return n
}

// TestClusterGraph builds the cluster graph on 1 to 4 goroutine ranks:
// every rank holds its clusters (r ≡ rank mod p), the graph is the naive
// one (symmetric, without self loops, its vertex weights adding up to the
// tasks), and clusterGroups gives every task its cluster's group.
func TestClusterGraph(t *testing.T) {
	dir := t.TempDir()
	in := inputs(t, dir)
	graph := matrices.ModelGraph
	type input struct {
		path  string
		model *matrices.Model // nil: the input's default
	}
	var cases []input
	for _, path := range slices.Sorted(maps.Keys(in)) {
		cases = append(cases, input{path, nil})
	}
	cases = append(cases, input{filepath.Join(dir, "rmat.mtx"), &graph}, input{filepath.Join(dir, "stencil.mtx"), &graph})
	var hubs atomic.Int64 // objects whose chains the rule leaves out, over every case
	defer func() {
		if hubs.Load() == 0 {
			t.Errorf("no input has an object of more than %d tasks: the hub rule went untested", hubChainTasks)
		}
	}()
	for _, tc := range cases {
		for _, p := range []int{1, 2, 3, 4} {
			name := fmt.Sprintf("%s/P%d", filepath.Base(tc.path), p)
			if tc.model != nil {
				name = fmt.Sprintf("%s/%v/P%d", filepath.Base(tc.path), *tc.model, p)
			}
			errs := mpi.RunLocal(p, func(c mpi.Comm) error {
				sh, err := Read(c, tc.path, ReadConfig{Model: tc.model, EdgeList: in[tc.path].EdgeList})
				if err != nil {
					return err
				}
				g := newShareGraph(sh)
				cg, deg, err := clusterGraph(c, g)
				if err != nil {
					return err
				}
				n := len(cg.Xadj) - 1
				if want := clusterCount(g.numRowVertices, p, c.Rank()); n != want || len(cg.Vwgt) != n {
					return fmt.Errorf("%d vertices and %d weights, want the %d clusters r ≡ %d (mod %d) of %d", n, len(cg.Vwgt), want, c.Rank(), p, g.numRowVertices)
				}
				// The whole graph by cluster, from every rank's share.
				u, err := gather(c, g.U)
				if err != nil {
					return err
				}
				v, err := gather(c, g.V)
				if err != nil {
					return err
				}
				cn := newClusterNumbers(g.numRowVertices, p)
				type arc struct{ A, B, W int32 }
				var arcs []arc
				for j := range n {
					for k := cg.Xadj[j]; k < cg.Xadj[j+1]; k++ {
						x := cg.Adjncy[k]
						q := rankOf(cn.first, x)
						arcs = append(arcs, arc{int32(j*p + c.Rank()), (x-cn.first[q])*int32(p) + int32(q), cg.Adjwgt[k]})
					}
				}
				all, err := gather(c, arcs)
				if err != nil {
					return err
				}
				vwgts, err := mpi.Allgather(c, cg.Vwgt)
				if err != nil {
					return err
				}
				cl := naiveClusters(u, v, g.model)
				wantW, wantAdj := naiveClusterGraph(u, v, cl, g.numRowVertices)
				if c.Rank() == 0 {
					hubs.Add(int64(countHubs(u, v)))
				}
				got := map[[2]int32]int32{}
				for _, a := range all {
					if _, dup := got[[2]int32{a.A, a.B}]; dup {
						return fmt.Errorf("edge %d-%d listed twice", a.A, a.B)
					}
					got[[2]int32{a.A, a.B}] = a.W
				}
				for e, w := range got {
					if got[[2]int32{e[1], e[0]}] != w {
						return fmt.Errorf("edge %d-%d of weight %d, %d-%d of weight %d: not symmetric", e[0], e[1], w, e[1], e[0], got[[2]int32{e[1], e[0]}])
					}
				}
				if !maps.Equal(got, wantAdj) {
					return fmt.Errorf("edges\n%v\nwant\n%v", got, wantAdj)
				}
				sum := int64(0)
				for q, ws := range vwgts {
					for j, w := range ws {
						if r := j*p + q; w != wantW[r] {
							return fmt.Errorf("cluster %d weighs %d, has %d tasks", r, w, wantW[r])
						}
						sum += int64(w)
					}
				}
				if sum != sh.Total {
					return fmt.Errorf("weights add up to %d, want the %d tasks", sum, sh.Total)
				}
				// Any grouping of the clusters: every task takes its cluster's.
				groupOf := func(r int32) int32 { return (7*r + 3) % 5 }
				part := make([]int32, n)
				for j := range part {
					part[j] = groupOf(int32(j*p + c.Rank()))
				}
				group, err := clusterGroups(c, g, deg, part)
				if err != nil {
					return err
				}
				if len(group) != len(g.U) {
					return fmt.Errorf("%d groups for %d tasks", len(group), len(g.U))
				}
				for i, q := range group {
					if r := cl[g.first+int64(i)]; q != groupOf(r) {
						return fmt.Errorf("task %d of cluster %d in group %d, want its cluster's %d", g.first+int64(i), r, q, groupOf(r))
					}
				}
				return nil
			})
			for r, err := range errs {
				if err != nil {
					t.Errorf("%s: rank %d: %v", name, r, err)
				}
			}
		}
	}
}

// rankOf is the rank whose range of global numbers (first, by rank, and
// the total last) holds x.
func rankOf(first []int32, x int32) int {
	q, _ := slices.BinarySearch(first, x+1)
	return q - 1
}
