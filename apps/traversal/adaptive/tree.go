package adaptive

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
)

// Tree is a binary decision tree in flat arrays, nodes in preorder (the
// root is node 0, and a node's children come after it). An inner node i
// sends a level left when f[Feature[i]] <= Threshold[i], else right; a
// leaf has Feature -1 and chooses candidate Label[i]. An inner node's
// Label is the candidate it would choose as a leaf (informative only).
type Tree struct {
	Feature   []int32   `json:"feature"`
	Threshold []float64 `json:"threshold"`
	Left      []int32   `json:"left"`
	Right     []int32   `json:"right"`
	Label     []int32   `json:"label"`

	nodes []node // the same, one struct per node, for Predict
}

// node is one node as Predict reads it: 24 bytes, so a path of a deep
// tree stays within a few cache lines.
type node struct {
	threshold                   float64
	feature, left, right, label int32
}

// Predict returns the candidate index that the tree chooses for a level:
// one comparison per level of the tree, no allocation (go test -bench
// Predict). The tree must have passed check (Fit and Load do it).
func (t *Tree) Predict(f *Features) int {
	nodes := t.nodes
	i := int32(0)
	for {
		n := &nodes[i]
		if n.feature < 0 {
			return int(n.label)
		}
		if f[n.feature] <= n.threshold {
			i = n.left
		} else {
			i = n.right
		}
	}
}

// Nodes is the number of nodes.
func (t *Tree) Nodes() int { return len(t.Feature) }

// Depth is the number of comparisons on the longest path (0 for a leaf).
func (t *Tree) Depth() int {
	depth := make([]int, len(t.Feature))
	deepest := 0
	for i, f := range t.Feature {
		if f >= 0 {
			depth[t.Left[i]], depth[t.Right[i]] = depth[i]+1, depth[i]+1
		}
		deepest = max(deepest, depth[i])
	}
	return deepest
}

// check validates the arrays for a model of k candidates and builds the
// nodes Predict walks: equal lengths, at least one node, children after
// their parent (so every walk ends), each node the child of one parent,
// known features, finite thresholds, labels in range.
func (t *Tree) check(k int) error {
	n := len(t.Feature)
	if n == 0 {
		return fmt.Errorf("tree: no node")
	}
	if len(t.Threshold) != n || len(t.Left) != n || len(t.Right) != n || len(t.Label) != n {
		return fmt.Errorf("tree: arrays of %d, %d, %d, %d and %d nodes: feature, threshold, left, right and label have one entry per node", n, len(t.Threshold), len(t.Left), len(t.Right), len(t.Label))
	}
	parents := make([]int, n)
	nodes := make([]node, n)
	for i := range n {
		f, l, r, lab := t.Feature[i], t.Left[i], t.Right[i], t.Label[i]
		if lab < 0 || int(lab) >= k {
			return fmt.Errorf("tree: node %d chooses candidate %d of %d", i, lab, k)
		}
		nodes[i] = node{threshold: t.Threshold[i], feature: f, left: l, right: r, label: lab}
		if f < 0 {
			if f != -1 || l != 0 || r != 0 || t.Threshold[i] != 0 {
				return fmt.Errorf("tree: leaf %d has feature %d, children %d and %d, threshold %v: a leaf has -1, 0, 0, 0", i, f, l, r, t.Threshold[i])
			}
			continue
		}
		if int(f) >= NumFeatures {
			return fmt.Errorf("tree: node %d tests feature %d of %d", i, f, NumFeatures)
		}
		if math.IsNaN(t.Threshold[i]) || math.IsInf(t.Threshold[i], 0) {
			return fmt.Errorf("tree: node %d has threshold %v", i, t.Threshold[i])
		}
		for _, c := range []int32{l, r} {
			if int(c) <= i || int(c) >= n {
				return fmt.Errorf("tree: node %d has child %d: children come after their parent, below %d", i, c, n)
			}
			parents[c]++
		}
	}
	for i := 1; i < n; i++ {
		if parents[i] != 1 {
			return fmt.Errorf("tree: node %d has %d parents, want 1", i, parents[i])
		}
	}
	t.nodes = nodes
	return nil
}

// TreeParams bound a tree's growth.
type TreeParams struct {
	MaxDepth int // comparisons on a path, 0 (one leaf: the best fixed candidate) to MaxTreeDepth
	MinLeaf  int // levels (samples) in a leaf, at least 1
}

// MaxTreeDepth bounds TreeParams.MaxDepth.
const MaxTreeDepth = 30

func (p TreeParams) check() error {
	if p.MaxDepth < 0 || p.MaxDepth > MaxTreeDepth {
		return fmt.Errorf("max depth %d: want 0 to %d", p.MaxDepth, MaxTreeDepth)
	}
	if p.MinLeaf < 1 {
		return fmt.Errorf("min leaf %d: want at least 1 level per leaf", p.MinLeaf)
	}
	return nil
}

// problem is a cost-sensitive classification problem: each sample s has a
// cost cost[s*k+c] for every candidate c; a leaf's label minimises the sum
// over its samples, and a split the sum over both children.
type problem struct {
	k      int
	menu   []int  // the candidates a leaf may take (all when not restricted)
	splits []bool // the features a node may split on
	x      []*Features
	cost   []float64 // n*k
	least  []float64 // min_c cost, per sample
	stake  []float64 // weight of the sample's oracle label in the Gini tie-break
	oracle []int32   // the cheapest candidate, per sample
}

// newProblem weighs the samples of the given graphs so that the total
// cost of a choice is the mean over those graphs of the choice's total
// time over the per-level oracle's, the ratio Evaluate reports: sample s
// of a graph whose levels (all roots) take T* with the oracle, one of G
// graphs, costs Cost(c) / (T* G). Each graph counts once, whatever its
// size, root count or level count; within a graph, a level counts by the
// time at stake.
//
// menu, when not nil, holds the only candidates a leaf may take (the
// others still count in no sum: the oracle is the menu's); features, when
// not nil, the only features a node may split on.
func newProblem(d *Dataset, graphs []int, menu []int, features []Feature) *problem {
	in := make([]bool, len(d.Graphs))
	for _, g := range graphs {
		in[g] = true
	}
	oracle := make([]float64, len(d.Graphs))
	var idx []int
	for i := range d.Samples {
		s := &d.Samples[i]
		if !in[s.Graph] {
			continue
		}
		idx = append(idx, i)
		lo, _, _ := s.best()
		oracle[s.Graph] += lo
	}
	k := len(d.Candidates)
	p := &problem{k: k, menu: menu, splits: make([]bool, NumFeatures), x: make([]*Features, len(idx)), cost: make([]float64, len(idx)*k),
		least: make([]float64, len(idx)), stake: make([]float64, len(idx)), oracle: make([]int32, len(idx))}
	if p.menu == nil {
		p.menu = seq(k)
	}
	for f := range p.splits {
		p.splits[f] = features == nil
	}
	for _, f := range features {
		p.splits[f] = true
	}
	for j, i := range idx {
		s := &d.Samples[i]
		p.x[j] = &s.Features
		w := 1 / (oracle[s.Graph] * float64(len(graphs)))
		row := p.cost[j*k : (j+1)*k]
		lo, hi := math.Inf(1), math.Inf(-1)
		for c := range row {
			row[c] = w * s.Cost(c)
		}
		for _, c := range p.menu {
			if row[c] < lo {
				lo, p.oracle[j] = row[c], int32(c)
			}
			hi = max(hi, row[c])
		}
		p.least[j], p.stake[j] = lo, hi-lo
	}
	return p
}

// bnode is a node while the tree grows.
type bnode struct {
	feature     int // -1 for a leaf
	threshold   float64
	left, right *bnode
	label       int
}

// grower holds the state of one growth. Every feature has its own order
// of the samples, sorted once by that feature; a node owns the same range
// [lo, hi) of every order, and a split partitions each range stably, so
// the ranges stay sorted and no node sorts again.
type grower struct {
	p              *problem
	params         TreeParams
	sorted         [NumFeatures][]int32
	goLeft         []bool
	tmp            []int32
	total, gTotal  []float64 // the node's cost sums per candidate, stake sums per oracle label
	costTol, giniT float64
}

// parallelSamples is the size of a node from which its features are
// scanned in parallel (a variable for the test that both ways agree).
var parallelSamples = 4096

// scan is one feature's search scratch and result.
type scan struct {
	left, gLeft, gRight []float64
	cost, gini          float64
	pos                 int // left child: the first pos samples in the feature's order
	threshold           float64
}

func newScan(k int) *scan {
	return &scan{left: make([]float64, k), gLeft: make([]float64, k), gRight: make([]float64, k)}
}

// grow builds a CART tree on p: at every node the split (feature,
// threshold between two consecutive distinct values) that minimises the
// children's cost, each child labelled with its cheapest candidate; among
// splits of equal cost the one with the lowest Gini impurity of the
// oracle labels, weighted by what each level has at stake (its slowest
// minus its fastest candidate's cost), so that a node whose every split
// keeps the cost (a candidate that wins by a little in a band of a
// feature) can still be divided. A node stops at MaxDepth, below
// 2*MinLeaf samples, when its label is already every sample's cheapest,
// or when no split lowers the cost or the impurity. Ties go to the lower
// threshold within a feature, then to the lower feature: the tree is a
// function of the data alone, however many goroutines scan the features.
func (p *problem) grow(params TreeParams) *bnode {
	n := len(p.x)
	g := &grower{p: p, params: params, goLeft: make([]bool, n), tmp: make([]int32, n),
		total: make([]float64, p.k), gTotal: make([]float64, p.k)}
	var sum, stake float64
	for i := range n {
		sum += p.least[i]
		stake += p.stake[i]
	}
	g.costTol, g.giniT = 1e-12*max(sum, 1e-300), 1e-12*max(stake, 1e-300)
	par.Do(NumFeatures, func(f int) {
		order := make([]int32, n)
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			return cmp.Or(cmp.Compare(p.x[a][f], p.x[b][f]), cmp.Compare(a, b))
		})
		g.sorted[f] = order
	})
	return g.node(0, n, 0)
}

// argmin is the entry of x least among those menu names (the first of
// equals).
func argmin(x []float64, menu []int) (int, float64) {
	best := menu[0]
	for _, c := range menu[1:] {
		if x[c] < x[best] {
			best = c
		}
	}
	return best, x[best]
}

// gini is the impurity W - sum G^2/W of label weights G summing to W.
func gini(g []float64) float64 {
	var w, sq float64
	for _, x := range g {
		w += x
		sq += x * x
	}
	if w <= 0 {
		return 0
	}
	return w - sq/w
}

// node grows the subtree of the samples in [lo, hi) of every order.
func (g *grower) node(lo, hi, depth int) *bnode {
	p, k := g.p, g.p.k
	clear(g.total)
	clear(g.gTotal)
	var least float64
	for _, s := range g.sorted[0][lo:hi] {
		row := p.cost[int(s)*k : int(s+1)*k]
		for c, x := range row {
			g.total[c] += x
		}
		g.gTotal[p.oracle[s]] += p.stake[s]
		least += p.least[s]
	}
	label, cost := argmin(g.total, p.menu)
	nd := &bnode{feature: -1, label: label}
	n := hi - lo
	if depth >= g.params.MaxDepth || n < 2*g.params.MinLeaf || cost-least <= g.costTol {
		return nd
	}
	var scans [NumFeatures]*scan
	if n >= parallelSamples {
		par.DoWith(NumFeatures, func() *scan { return nil }, func(_ *scan, f int) {
			scans[f] = newScan(k)
			if p.splits[f] {
				g.scan(scans[f], f, lo, hi)
			}
		})
	} else {
		sc := newScan(k)
		for f := range NumFeatures {
			if !p.splits[f] {
				scans[f] = &scan{}
				continue
			}
			g.scan(sc, f, lo, hi)
			scans[f] = &scan{cost: sc.cost, gini: sc.gini, pos: sc.pos, threshold: sc.threshold}
		}
	}
	bestF := -1
	for f, sc := range scans {
		if sc.pos > 0 && (bestF < 0 || g.better(sc, scans[bestF])) {
			bestF = f
		}
	}
	if bestF < 0 {
		return nd
	}
	best := scans[bestF]
	if !(best.cost < cost-g.costTol || best.cost <= cost+g.costTol && best.gini < gini(g.gTotal)-g.giniT) {
		return nd
	}
	// Partition every order's range stably: the left child's samples
	// first, each side still sorted.
	split := lo + best.pos
	for i, s := range g.sorted[bestF][lo:hi] {
		g.goLeft[s] = lo+i < split
	}
	for f := range NumFeatures {
		r := g.sorted[f][lo:hi]
		nl, nr := 0, 0
		for _, s := range r {
			if g.goLeft[s] {
				r[nl] = s
				nl++
			} else {
				g.tmp[nr] = s
				nr++
			}
		}
		copy(r[nl:], g.tmp[:nr])
	}
	nd.feature, nd.threshold = bestF, best.threshold
	nd.left = g.node(lo, split, depth+1)
	nd.right = g.node(split, hi, depth+1)
	return nd
}

// better says split a beats split b: a lower cost beyond rounding, or the
// same cost and a lower impurity.
func (g *grower) better(a, b *scan) bool {
	return a.cost < b.cost-g.costTol || a.cost <= b.cost+g.costTol && a.gini < b.gini-g.giniT
}

// scan finds the best split of [lo, hi) on feature f into sc (pos 0: no
// split leaves MinLeaf samples on both sides between distinct values).
// It reads the node's sums in g.total and g.gTotal and writes only sc.
func (g *grower) scan(sc *scan, f, lo, hi int) {
	p, k, minLeaf := g.p, g.p.k, g.params.MinLeaf
	order := g.sorted[f][lo:hi]
	clear(sc.left)
	clear(sc.gLeft)
	sc.cost, sc.gini, sc.pos, sc.threshold = math.Inf(1), math.Inf(1), 0, 0
	for i := 0; i < len(order)-1; i++ {
		s := order[i]
		row := p.cost[int(s)*k : int(s+1)*k]
		for c, x := range row {
			sc.left[c] += x
		}
		sc.gLeft[p.oracle[s]] += p.stake[s]
		nl := i + 1
		if nl < minLeaf {
			continue
		}
		if len(order)-nl < minLeaf {
			break
		}
		a, b := p.x[s][f], p.x[order[i+1]][f]
		if a == b {
			continue
		}
		lc, rc := math.Inf(1), math.Inf(1)
		for _, c := range p.menu {
			x := sc.left[c]
			lc = min(lc, x)
			rc = min(rc, g.total[c]-x)
		}
		cost := lc + rc
		if cost > sc.cost+g.costTol {
			continue
		}
		for c, x := range sc.gLeft {
			sc.gRight[c] = g.gTotal[c] - x
		}
		gi := gini(sc.gLeft) + gini(sc.gRight)
		if cost < sc.cost-g.costTol || gi < sc.gini-g.giniT {
			sc.cost, sc.gini, sc.pos = cost, gi, nl
			sc.threshold = a + (b-a)/2
			if sc.threshold >= b { // a and b adjacent floats
				sc.threshold = a
			}
		}
	}
}

// predictDepth is Predict on a growing tree cut at depth: a node at depth
// answers its own label.
func (nd *bnode) predictDepth(f *Features, depth int) int {
	for ; nd.feature >= 0 && depth > 0; depth-- {
		if f[nd.feature] <= nd.threshold {
			nd = nd.left
		} else {
			nd = nd.right
		}
	}
	return nd.label
}

// cut returns a copy of the tree cut at depth, every subtree whose leaves
// all choose one candidate merged into a leaf (the same choices, fewer
// nodes).
func (nd *bnode) cut(depth int) *bnode {
	if nd.feature < 0 || depth == 0 {
		return &bnode{feature: -1, label: nd.label}
	}
	l, r := nd.left.cut(depth-1), nd.right.cut(depth-1)
	if l.feature < 0 && r.feature < 0 && l.label == r.label {
		return &bnode{feature: -1, label: l.label}
	}
	return &bnode{feature: nd.feature, threshold: nd.threshold, left: l, right: r, label: nd.label}
}

func (nd *bnode) size() int {
	if nd.feature < 0 {
		return 1
	}
	return 1 + nd.left.size() + nd.right.size()
}

// flatten lays the tree out in preorder and checks it.
func (nd *bnode) flatten(k int) (*Tree, error) {
	t := &Tree{}
	var walk func(b *bnode) int32
	walk = func(b *bnode) int32 {
		i := int32(len(t.Feature))
		t.Feature = append(t.Feature, int32(b.feature))
		t.Threshold = append(t.Threshold, b.threshold)
		t.Left = append(t.Left, 0)
		t.Right = append(t.Right, 0)
		t.Label = append(t.Label, int32(b.label))
		if b.feature >= 0 {
			l := walk(b.left)
			r := walk(b.right)
			t.Left[i], t.Right[i] = l, r
		}
		return i
	}
	walk(nd)
	return t, t.check(k)
}

// Fit grows a tree on the levels of the given graphs (indices into
// d.Graphs) that minimises the mean over those graphs of the chosen
// candidates' total time over the per-level oracle's (see newProblem and
// grow). O(depth * features * levels * (log levels + candidates)).
func Fit(d *Dataset, graphs []int, params TreeParams) (*Tree, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	p := newProblem(d, graphs, nil, nil)
	if len(p.x) == 0 {
		return nil, fmt.Errorf("adaptive: no timed level in the %d training graphs", len(graphs))
	}
	return p.grow(params).cut(params.MaxDepth).flatten(len(d.Candidates))
}
