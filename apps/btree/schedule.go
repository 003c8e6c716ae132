package btree

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spac-gpu/spac/internal/par"
	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/order"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

// ends returns the two data objects of query q: for FindK the parent of
// the key's leaf and the leaf (the leaf twice when the root is a leaf), for
// FindRange the leaves of the range's two ends.
func ends(t *Tree, b *Batch, q int) (u, v int32) {
	if b.Kind == FindRange {
		u, _ = t.Leaf(b.Start[q])
		v, _ = t.Leaf(b.End[q])
		return u, v
	}
	leaf, parent := t.Leaf(b.Start[q])
	return parent, leaf
}

// endpoints returns the two nodes of every query of b (see ends).
func endpoints(t *Tree, b *Batch) (u, v []int32) {
	n := b.Len()
	u, v = make([]int32, n), make([]int32, n)
	const chunk = 1 << 14
	par.DoRanges(n, chunk, func(lo, hi int) {
		for q := lo; q < hi; q++ {
			u[q], v[q] = ends(t, b, q)
		}
	})
	return u, v
}

// Locality is the locality graph of batch b on tree t: a vertex per node
// some query touches (Nodes[i] is vertex i's node, in node order), an edge
// per query joining the two nodes that set it apart from the other
// queries (see the package documentation). Edge q is query q. Nodes no
// query touches are left out: they play no part in a partition, and
// METIS's recursive bisection stumbles on graphs that are mostly isolated
// vertices.
func Locality(t *Tree, b *Batch) (g *matrices.Graph, nodes []int32) {
	u, v := endpoints(t, b)
	vertex := make([]int32, t.NumNodes)
	for q := range u {
		vertex[u[q]], vertex[v[q]] = 1, 1
	}
	for n, used := range vertex {
		if used != 0 {
			vertex[n] = int32(len(nodes))
			nodes = append(nodes, int32(n))
		}
	}
	for q := range u {
		u[q], v[q] = vertex[u[q]], vertex[v[q]]
	}
	return &matrices.Graph{NumVertices: len(nodes), U: u, V: v, NumRowVertices: len(nodes), Model: matrices.ModelGraph}, nodes
}

// DefaultPerBlock is the number of queries a SPAC block runs by default:
// one per warp of its blockSize threads. A block answers its queries one
// after another, so this keeps as many queries in flight on the GPU as the
// original's one query per block, while the queries of a block share the
// nodes it keeps in shared memory.
func DefaultPerBlock(blockSize int) int { return max(1, blockSize/32) }

// Schedule is a SPAC schedule of one batch: which block runs which
// queries, in which order. Block p runs queries Order[Start[p]:Start[p+1]]
// one after another, sorted by key (a range by its start, then its end),
// so that the nodes on consecutive queries' paths repeat and each node a
// block needs is loaded into its shared memory once.
type Schedule struct {
	Kind      Kind
	Method    string
	BlockSize int // threads of a block: the tree's order
	PerBlock  int // queries of a part at most: the partition's cap
	K         int
	Start     []int32 // K+1
	Order     []int32
	// Metrics are the partition's: copies of the locality graph's
	// vertices, time.
	Metrics   spac.Metrics
	BuildTime time.Duration
}

// NewSchedule partitions the queries of b on t (whose order is the block
// size) with method into parts of at most perBlock queries, through
// pipeline.PartitionGraph (checked and evaluated; stages shown on prog),
// and orders each part's queries by key. opts carries the method's
// settings; K and Cap are set here.
func NewSchedule(ctx context.Context, t *Tree, b *Batch, method spac.Method, perBlock int, opts spac.Options, prog *progress.Reporter) (*Schedule, error) {
	if b.Len() == 0 {
		return nil, fmt.Errorf("no %s queries to schedule", b.Kind)
	}
	if perBlock < 1 {
		return nil, fmt.Errorf("%d queries per block: want at least 1", perBlock)
	}
	g, _ := Locality(t, b)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		return nil, err
	}
	if opts.K, opts.Cap, err = spac.Resolve(g.NumEdges(), 0, perBlock); err != nil {
		return nil, err
	}
	if opts.Starts == nil && 2*opts.K > g.NumVertices {
		// SPAC's WVP start is METIS's vertex partition into K parts; with
		// nearly as many parts as vertices (small blocks of queries on few
		// leaves) METIS fails on empty subgraphs and prints its errors to
		// standard output. The other starts need no vertex partition.
		opts.Starts = slices.DeleteFunc(slices.Clone(spac.DefaultStarts), func(s string) bool { return s == "wvp" })
	}
	p, met, err := pipeline.PartitionGraph(ctx, "", g, inc, method, opts, prog)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	s := &Schedule{Kind: b.Kind, Method: met.Method, BlockSize: t.Order, PerBlock: perBlock, K: p.K, Metrics: met}
	s.Start = make([]int32, p.K+1)
	for _, part := range p.Part {
		s.Start[part+1]++
	}
	for i := 0; i < p.K; i++ {
		s.Start[i+1] += s.Start[i]
	}
	s.Order = make([]int32, b.Len())
	pos := slices.Clone(s.Start[:p.K])
	for q, part := range p.Part {
		s.Order[pos[part]] = int32(q)
		pos[part]++
	}
	for i := 0; i < p.K; i++ {
		slices.SortFunc(s.Order[s.Start[i]:s.Start[i+1]], b.byKey)
	}
	s.BuildTime = time.Since(start)
	return s, nil
}

// byKey orders queries by start key, then end key, then number.
func (b *Batch) byKey(x, y int32) int {
	if c := cmp.Compare(b.Start[x], b.Start[y]); c != 0 {
		return c
	}
	if b.End != nil {
		if c := cmp.Compare(b.End[x], b.End[y]); c != 0 {
			return c
		}
	}
	return cmp.Compare(x, y)
}

// MaxQueries is the most queries a block runs.
func (s *Schedule) MaxQueries() int {
	m := 0
	for p := 0; p < s.K; p++ {
		m = max(m, int(s.Start[p+1]-s.Start[p]))
	}
	return m
}

// paths is the number of root-to-leaf paths a query of kind k walks.
func paths(k Kind) int {
	if k == FindRange {
		return 2
	}
	return 1
}

// SharedBytes is the shared memory a SPAC block of kind k on t needs: a
// node record per level above the leaves of each path it walks (the
// kernels keep the leaf's slots in registers).
func SharedBytes(t *Tree, k Kind) int { return paths(k) * t.Height * t.NodeBytes() }

// OriginalLoads is the number of node records the original kernels read:
// every query reads every node of its path (or two paths).
func OriginalLoads(t *Tree, b *Batch) int64 {
	return int64(b.Len()) * int64(paths(b.Kind)) * int64(t.Height+1)
}

// Answers are a batch's results in query order: for FindK the record
// values (-1 where the key is absent) in A; for FindRange recStart in A,
// recLen in B.
type Answers struct{ A, B []int32 }

// Reference answers b on the CPU as the kernels do (Tree.FindK,
// Tree.FindRange).
func Reference(t *Tree, b *Batch) Answers {
	if b.Kind == FindRange {
		s, l := t.FindRange(b.Start, b.End)
		return Answers{s, l}
	}
	return Answers{A: t.FindK(b.Start)}
}

// Mismatches counts the queries whose answers differ.
func Mismatches(got, want Answers) int {
	n := 0
	for q := range want.A {
		if q >= len(got.A) || got.A[q] != want.A[q] || (want.B != nil && (q >= len(got.B) || got.B[q] != want.B[q])) {
			n++
		}
	}
	return n
}

// Run executes the schedule on the CPU block by block as the SPAC kernels
// do: each block keeps the last node it read at every level of each path
// and reads a node only when the path leaves it. It returns the answers in
// query order and the node records read (the kernels' global loads of
// nodes). It fails where the schedule does not run every query exactly
// once.
func (s *Schedule) Run(t *Tree, b *Batch) (Answers, int64, error) {
	if len(s.Order) != b.Len() || len(s.Start) != s.K+1 || s.Start[s.K] != int32(b.Len()) || s.BlockSize != t.Order {
		return Answers{}, 0, fmt.Errorf("a schedule of %d queries in %d blocks of %d threads for %d queries on a tree of order %d", len(s.Order), s.K, s.BlockSize, b.Len(), t.Order)
	}
	seen := make([]bool, b.Len())
	for _, q := range s.Order {
		if q < 0 || int(q) >= b.Len() || seen[q] {
			return Answers{}, 0, fmt.Errorf("the schedule runs query %d twice or names a query that does not exist", q)
		}
		seen[q] = true
	}
	ans := Answers{A: make([]int32, b.Len())}
	if b.Kind == FindRange {
		ans.B = make([]int32, b.Len())
	}
	var loads int64
	cached := make([]int32, paths(b.Kind)*(t.Height+1))
	var path []int32
	for p := 0; p < s.K; p++ {
		for i := range cached {
			cached[i] = -1
		}
		for _, q := range s.Order[s.Start[p]:s.Start[p+1]] {
			keys := []int32{b.Start[q]}
			if b.Kind == FindRange {
				keys = append(keys, b.End[q])
			}
			for j, x := range keys {
				path = t.Path(x, path)
				for l, n := range path {
					if c := &cached[j*(t.Height+1)+l]; *c != n {
						*c = n
						loads++
					}
				}
				r := t.record(path[t.Height], x)
				switch {
				case b.Kind == FindK && r >= 0:
					ans.A[q] = t.Records[r]
				case b.Kind == FindK:
					ans.A[q] = -1
				case j == 0:
					ans.A[q] = max(r, 0)
				case r >= 0:
					ans.B[q] = r - ans.A[q] + 1
				}
			}
		}
	}
	return ans, loads, nil
}

// RCM is the fair baseline's data: the tree's nodes renumbered by reverse
// Cuthill-McKee of the locality graphs of all batches together (their
// union: a vertex per node, an edge per query), and each batch's queries
// sorted by the new numbers of their two nodes (the smaller first, ties
// by query number). The original kernels run on it unchanged.
type RCM struct {
	Tree   *Tree
	Perm   []int32   // Perm[new] = old node
	Orders [][]int32 // per batch: query numbers in the order run
	Time   time.Duration
}

// NewRCM orders t and the batches (package order's RCM).
func NewRCM(t *Tree, batches []*Batch) (*RCM, error) {
	start := time.Now()
	us, vs := make([][]int32, len(batches)), make([][]int32, len(batches))
	deg := make([]int64, t.NumNodes+1)
	for i, b := range batches {
		us[i], vs[i] = endpoints(t, b)
		for q, u := range us[i] {
			deg[u+1]++
			deg[vs[i][q]+1]++
		}
	}
	for v := 0; v < t.NumNodes; v++ {
		deg[v+1] += deg[v]
	}
	adj := make([]int32, deg[t.NumNodes])
	pos := slices.Clone(deg[:t.NumNodes])
	for i := range batches {
		for q, u := range us[i] {
			v := vs[i][q]
			adj[pos[u]], adj[pos[v]] = v, u
			pos[u]++
			pos[v]++
		}
	}
	perm := order.RCM(t.NumNodes, deg, adj)
	inv := order.Inverse(perm)
	tree, err := t.Renumber(perm)
	if err != nil {
		return nil, err
	}
	r := &RCM{Tree: tree, Perm: perm}
	for i := range batches {
		lo, hi := make([]int32, len(us[i])), make([]int32, len(us[i]))
		ord := make([]int32, len(us[i]))
		for q := range ord {
			a, b := inv[us[i][q]], inv[vs[i][q]]
			lo[q], hi[q], ord[q] = min(a, b), max(a, b), int32(q)
		}
		slices.SortFunc(ord, func(x, y int32) int {
			if c := cmp.Compare(lo[x], lo[y]); c != 0 {
				return c
			}
			if c := cmp.Compare(hi[x], hi[y]); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		r.Orders = append(r.Orders, ord)
	}
	r.Time = time.Since(start)
	return r, nil
}
