package btree

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Key bounds: the smallest and largest int32 are the sentinels that pad
// every node (Rodinia's INT_MIN in slot 0, INT_MAX after the last key), so
// a key must lie strictly between them.
const (
	MinKey = math.MinInt32 + 1
	MaxKey = math.MaxInt32 - 1
)

// DefaultFill is the share of a node's capacity that Build fills: inserting
// keys in random order, as Rodinia builds its tree from mil.txt, leaves the
// nodes of a B+tree about ln 2 = 69% full on average (Yao, "On random 2-3
// trees", 1978), so bulk loading at that fill gives a tree of the shape
// the benchmark searches, with the same height.
const DefaultFill = math.Ln2

// Tree is a B+tree laid out for the GPU as Rodinia's transform_to_cuda lays
// it out: every node a fixed-size record, nodes numbered in breadth-first
// order (the root first, the leaves last), a node's children contiguous.
//
// A node of a tree of order O has S = O+1 key slots and S index slots,
// stored together as Nodes[n*2*S : (n+1)*2*S]: keys first, then indices.
// A node holding k keys (at most O-1) has key slot 0 = math.MinInt32, its
// keys ascending in slots 1..k and math.MaxInt32 in slots k+1..O. An
// internal node's index slot s (s <= k) is the child whose keys lie in
// [key[s], key[s+1]); a leaf's index slot s (1 <= s <= k) is the position
// in Records of key[s]. So the search step of Rodinia's kernels, thread s of
// O testing key[s] <= x < key[s+1], finds one child, and at a leaf the
// thread with key[s] == x finds the record.
type Tree struct {
	Order int
	// Height is the number of levels above the leaves: the kernels take
	// that many steps down from the root (Rodinia's maxheight).
	Height   int
	NumNodes int
	Root     int32   // the root's node number: 0 in breadth-first order
	Nodes    []int32 // NumNodes records of 2*(Order+1) int32
	// Records are the values, in key order; Rodinia stores each key as its
	// own value.
	Records []int32
	// Keys is the number of distinct keys.
	Keys int
}

// Slots is the number of key (and of index) slots of a node.
func (t *Tree) Slots() int { return t.Order + 1 }

// node returns node n's key and index slots.
func (t *Tree) node(n int32) (keys, idx []int32) {
	s := t.Slots()
	base := int(n) * 2 * s
	return t.Nodes[base : base+s], t.Nodes[base+s : base+2*s]
}

// NodeBytes is the size of one node record.
func (t *Tree) NodeBytes() int { return 2 * t.Slots() * 4 }

// BuildOptions say how Build shapes the tree.
type BuildOptions struct {
	Order int // children per node at most (3 or more); the GPU block size
	// Fill is the share of a node's capacity filled (0: DefaultFill): a
	// leaf holds about Fill*(Order-1) keys, an internal node about
	// Fill*Order children.
	Fill float64
}

// Build makes the tree of the given keys by bulk loading: keys sorted and
// duplicates dropped (Rodinia's insert ignores a key already there), leaves
// filled evenly left to right, then each level of internal nodes above them
// the same way until one node, the root, remains. Keys must lie in
// [MinKey, MaxKey]. The input is not modified.
func Build(keys []int32, opt BuildOptions) (*Tree, error) {
	if opt.Order < 3 {
		return nil, fmt.Errorf("order %d: a B+tree node needs at least 3 children", opt.Order)
	}
	fill := opt.Fill
	if fill == 0 {
		fill = DefaultFill
	}
	if !(fill > 0 && fill <= 1) {
		return nil, fmt.Errorf("fill %g: want a share in (0, 1]", opt.Fill)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no keys: nothing to build a tree of")
	}
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	if sorted[0] < MinKey || sorted[len(sorted)-1] > MaxKey {
		return nil, fmt.Errorf("keys must lie in [%d, %d]: the extremes of int32 pad the nodes", MinKey, MaxKey)
	}
	order := opt.Order
	leafKeys := max(1, int(math.Round(fill*float64(order-1))))
	children := max(2, int(math.Round(fill*float64(order))))

	// Levels bottom-up: levels[0] the leaves. Node j of a level spans
	// lower[j]..lower[j+1]-1 (keys for leaves, nodes of the level below
	// otherwise) and has the smallest key min[j].
	type level struct{ lower, min []int32 }
	n := len(sorted)
	split := func(count, per int) []int32 {
		parts := (count + per - 1) / per
		off := make([]int32, parts+1)
		for j := range off {
			off[j] = int32(int64(count) * int64(j) / int64(parts))
		}
		return off
	}
	leaves := level{lower: split(n, leafKeys)}
	leaves.min = make([]int32, len(leaves.lower)-1)
	for j := range leaves.min {
		leaves.min[j] = sorted[leaves.lower[j]]
	}
	levels := []level{leaves}
	for cur := levels[0]; len(cur.min) > 1; {
		up := level{lower: split(len(cur.min), children)}
		up.min = make([]int32, len(up.lower)-1)
		for j := range up.min {
			up.min[j] = cur.min[up.lower[j]]
		}
		levels = append(levels, up)
		cur = up
	}

	// Number the nodes breadth first: the root level first.
	t := &Tree{Order: order, Height: len(levels) - 1, Records: sorted, Keys: n}
	first := make([]int32, len(levels)) // first node number of each level
	total := 0
	for l := len(levels) - 1; l >= 0; l-- {
		first[l] = int32(total)
		total += len(levels[l].min)
	}
	if int64(total)*int64(2*t.Slots()) > math.MaxInt32 {
		return nil, fmt.Errorf("%d nodes of order %d exceed the int32 indices of the node array", total, order)
	}
	t.NumNodes = total
	t.Nodes = make([]int32, total*2*t.Slots())
	for l, lv := range levels {
		for j := range lv.min {
			keysOf, idx := t.node(first[l] + int32(j))
			lo, hi := int(lv.lower[j]), int(lv.lower[j+1])
			keysOf[0] = math.MinInt32
			k := 0
			if l == 0 {
				for i := lo; i < hi; i++ {
					k++
					keysOf[k], idx[k] = sorted[i], int32(i)
				}
			} else {
				below := levels[l-1]
				idx[0] = first[l-1] + int32(lo)
				for i := lo + 1; i < hi; i++ {
					k++
					keysOf[k], idx[k] = below.min[i], first[l-1]+int32(i)
				}
			}
			for s := k + 1; s < len(keysOf); s++ {
				keysOf[s] = math.MaxInt32
			}
		}
	}
	return t, nil
}

// slot is the search step of the kernels at node n: the slot s in [0, Order)
// with key[s] <= x < key[s+1]. Keys ascend strictly up to the padding, so
// it is the last slot whose key is at most x.
func (t *Tree) slot(n, x int32) int {
	keys, _ := t.node(n)
	return sort.Search(t.Order, func(s int) bool { return keys[s+1] > x }) // first s with key[s+1] > x
}

// Path returns the nodes a search for x visits, root first: Height+1 of
// them, the last a leaf.
func (t *Tree) Path(x int32, path []int32) []int32 {
	path = path[:0]
	n := t.Root
	for range t.Height {
		path = append(path, n)
		_, idx := t.node(n)
		n = idx[t.slot(n, x)]
	}
	return append(path, n)
}

// Leaf returns the leaf a search for x ends in and its parent (the leaf
// itself when the root is a leaf).
func (t *Tree) Leaf(x int32) (leaf, parent int32) {
	n, p := t.Root, t.Root
	for range t.Height {
		_, idx := t.node(n)
		p, n = n, idx[t.slot(n, x)]
	}
	return n, p
}

// record is the position in Records of key x in leaf n, or -1.
func (t *Tree) record(n, x int32) int32 {
	keys, idx := t.node(n)
	s := t.slot(n, x)
	if s > 0 && keys[s] == x {
		return idx[s]
	}
	return -1
}

// FindK answers findK queries on the CPU as the kernels do: the record
// value of each key, or -1 where the tree does not hold the key.
func (t *Tree) FindK(keys []int32) []int32 {
	ans := make([]int32, len(keys))
	for q, x := range keys {
		leaf, _ := t.Leaf(x)
		ans[q] = -1
		if r := t.record(leaf, x); r >= 0 {
			ans[q] = t.Records[r]
		}
	}
	return ans
}

// FindRange answers findRangeK queries on the CPU as the kernels do:
// recStart is the record position of start (0 when the tree does not hold
// start), recLen the position of end minus recStart plus one (0 when it
// does not hold end). Where both keys are held it is the number of records
// in [start, end]; otherwise it keeps Rodinia's values.
func (t *Tree) FindRange(start, end []int32) (recStart, recLen []int32) {
	recStart, recLen = make([]int32, len(start)), make([]int32, len(start))
	for q := range start {
		ls, _ := t.Leaf(start[q])
		if r := t.record(ls, start[q]); r >= 0 {
			recStart[q] = r
		}
		le, _ := t.Leaf(end[q])
		if r := t.record(le, end[q]); r >= 0 {
			recLen[q] = r - recStart[q] + 1
		}
	}
	return recStart, recLen
}

// Renumber returns the tree with node new being node perm[new] of t
// (perm[new] = old, a permutation of the nodes): the same tree stored in
// another order, as the RCM baseline stores it.
func (t *Tree) Renumber(perm []int32) (*Tree, error) {
	if len(perm) != t.NumNodes {
		return nil, fmt.Errorf("renumbering %d nodes with a permutation of %d", t.NumNodes, len(perm))
	}
	inv := make([]int32, t.NumNodes)
	for i := range inv {
		inv[i] = -1
	}
	for nw, old := range perm {
		if old < 0 || int(old) >= t.NumNodes || inv[old] >= 0 {
			return nil, fmt.Errorf("renumbering: %d is not a permutation of the %d nodes", old, t.NumNodes)
		}
		inv[old] = int32(nw)
	}
	out := *t
	out.Nodes = make([]int32, len(t.Nodes))
	out.Root = inv[t.Root]
	w := 2 * t.Slots()
	for nw, old := range perm {
		copy(out.Nodes[nw*w:(nw+1)*w], t.Nodes[int(old)*w:(int(old)+1)*w])
	}
	// The internal nodes, level by level from the root: their index slots
	// name children (a leaf's name records, which keep their positions).
	level := []int32{t.Root}
	for range t.Height {
		var next []int32
		for _, old := range level {
			keys, idx := out.node(inv[old])
			for s := 0; s <= numKeys(keys); s++ {
				next = append(next, idx[s])
				idx[s] = inv[idx[s]]
			}
		}
		level = next
	}
	return &out, nil
}

// numKeys is the number of keys of a node: its slots before the padding.
func numKeys(keys []int32) int {
	return sort.Search(len(keys)-1, func(s int) bool { return keys[s+1] == math.MaxInt32 })
}
