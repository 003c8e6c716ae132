package traversal

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
)

// chainModel is a model whose tree picks seq[l] (an index into cands) at
// level l and seq's last beyond: a chain of splits on the level, so that a
// search runs the bodies in that order and every switch between
// neighbours happens. It goes through Save and Load like a trained one.
func chainModel(t testing.TB, cands []Strategy, seq []int) *ModelChooser {
	t.Helper()
	m := &adaptive.Model{Format: adaptive.ModelFormat, Version: adaptive.ModelVersion, Algorithm: "bfs", Features: adaptive.FeatureNames()}
	for _, s := range cands {
		m.Candidates = append(m.Candidates, s.String())
	}
	tr := &m.Tree
	node := func(f int32, thr float64, l, r, label int32) {
		tr.Feature, tr.Threshold = append(tr.Feature, f), append(tr.Threshold, thr)
		tr.Left, tr.Right, tr.Label = append(tr.Left, l), append(tr.Right, r), append(tr.Label, label)
	}
	for i, c := range seq[:len(seq)-1] {
		at := int32(2 * i)
		node(int32(adaptive.Level), float64(i)+0.5, at+1, at+2, int32(c))
		node(-1, 0, 0, 0, int32(c))
	}
	node(-1, 0, 0, 0, int32(seq[len(seq)-1]))
	var b bytes.Buffer
	if err := m.Save(&b); err != nil {
		t.Fatal(err)
	}
	loaded, err := adaptive.Load(&b, "chain")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewModelChooser(loaded)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// deviceStrategies are the strategies with a body in ad_level, in body
// order.
func deviceStrategies() []Strategy {
	var out []Strategy
	for b := range bodies {
		s, ok := strategyOfBody(b)
		if !ok {
			panic("no strategy for a body")
		}
		out = append(out, s)
	}
	return out
}

// Every body maps to a strategy and back, the paper's implementations and
// do-beamer have one, the others none.
func TestDeviceBodies(t *testing.T) {
	seen := map[int]bool{}
	for _, s := range Strategies() {
		b, ok := deviceBody(s)
		if want := s.Paper() || s == DOBeamer; ok != want {
			t.Errorf("%s: a device body %v, want %v", s, ok, want)
		}
		if !ok {
			continue
		}
		if seen[b] {
			t.Errorf("%s: body %d twice", s, b)
		}
		seen[b] = true
		if back, ok := strategyOfBody(b); !ok || back != s {
			t.Errorf("%s: body %d maps back to %s", s, b, back)
		}
	}
	if len(seen) != bodies {
		t.Errorf("%d bodies mapped, want %d", len(seen), bodies)
	}
	for _, b := range []int{-1, bodies + 2, 99} {
		if _, ok := strategyOfBody(b); ok {
			t.Errorf("body %d maps to a strategy", b)
		}
	}
	// the one block's levels are in the log only: no strategy runs them
	if s, ok := strategyOfBody(bodyOneBlock); !ok || s != oneBlock {
		t.Errorf("body %d maps to %v, %v, want the one block", bodyOneBlock, s, ok)
	}
	if _, ok := deviceBody(oneBlock); ok {
		t.Error("the one block has a body of its own")
	}
	// the hand-off to the persistent kernel too
	if s, ok := strategyOfBody(bodyHandOff); !ok || s != Persistent {
		t.Errorf("body %d maps to %v, %v, want the persistent strategy", bodyHandOff, s, ok)
	}
}

// The tree as ad_level reads it: the header's stats and node count, each
// node's threshold, feature, children, and a leaf's body in place of its
// candidate.
func TestEncodeDeviceTree(t *testing.T) {
	cands := deviceStrategies()
	seq := []int{17, 0, 5, 12, 16, 17}
	c := chainModel(t, cands, seq)
	if ok, why := c.OnDevice(); !ok {
		t.Fatalf("a chain of device bodies: not on the device: %s", why)
	}
	stats := adaptive.GraphStats{Vertices: 1000, Arcs: 16000, MaxDegree: 300, DegreeCV: 2.5}
	b, err := encodeDeviceTree(c, stats)
	if err != nil {
		t.Fatal(err)
	}
	tr := &c.Model.Tree
	if len(b) != adGraphSize+adNodeSize*tr.Nodes() {
		t.Fatalf("%d bytes for %d nodes", len(b), tr.Nodes())
	}
	le := binary.LittleEndian
	f64 := func(o int) float64 { return math.Float64frombits(le.Uint64(b[o:])) }
	i32 := func(o int) int32 { return int32(le.Uint32(b[o:])) }
	if f64(0) != 1000 || f64(8) != 16000 || f64(16) != 300 || f64(24) != 2.5 || le.Uint64(b[32:]) != uint64(tr.Nodes()) {
		t.Errorf("header %v %v %v %v %d", f64(0), f64(8), f64(16), f64(24), le.Uint64(b[32:]))
	}
	for i := range tr.Nodes() {
		o := adGraphSize + adNodeSize*i
		want := int32(-1)
		if tr.Feature[i] < 0 {
			bd, _ := deviceBody(c.Strategies[tr.Label[i]])
			want = int32(bd)
		}
		if f64(o) != tr.Threshold[i] || i32(o+8) != tr.Feature[i] || i32(o+12) != tr.Left[i] || i32(o+16) != tr.Right[i] || i32(o+20) != want {
			t.Errorf("node %d: %v %d %d %d %d", i, f64(o), i32(o+8), i32(o+12), i32(o+16), i32(o+20))
		}
	}
	// leaves in level order give the sequence's bodies
	for l, want := range seq {
		if got := i32(adGraphSize + adNodeSize*(2*min(l, len(seq)-1)+boolInt(l < len(seq)-1)) + 20); got != int32(want) {
			t.Errorf("level %d: body %d, want %d", l, got, want)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A model with a candidate outside ad_level's bodies, or a tree larger
// than its shared memory, stays on the host, and says why.
func TestOnDeviceRefuses(t *testing.T) {
	c := chainModel(t, []Strategy{DOBeamer, LBCull}, []int{0, 1})
	if ok, why := c.OnDevice(); ok || !strings.Contains(why, "lb-cull") {
		t.Errorf("a model with lb-cull: on the device %v (%s)", ok, why)
	}
	if _, err := encodeDeviceTree(c, adaptive.GraphStats{}); err == nil {
		t.Error("encoded a tree the device cannot run")
	}
	seq := make([]int, adMaxNodes/2+2)
	big := chainModel(t, []Strategy{DOBeamer}, seq)
	if ok, why := big.OnDevice(); ok || !strings.Contains(why, "nodes") {
		t.Errorf("a tree of %d nodes: on the device %v (%s)", big.Model.Tree.Nodes(), ok, why)
	}
}

// The persistent kernel follows ad_persist only where a level can be
// handed to it: small out-degrees, and frontiers that can outgrow the one
// block (with the block off, any frontier).
func TestHandOffLevel(t *testing.T) {
	on := Options{PersistentAfter: 32, OneBlockArcs: oneBlockArcs}
	for _, c := range []struct {
		name         string
		opt          Options
		n, m, maxDeg int64
		want         int
	}{
		{"road", on, 9_000_000, 22_000_000, 6, 32},
		{"degree at the bound", on, 9_000_000, 22_000_000, handOffMaxDegree, 32},
		{"hubs", on, 9_000_000, 22_000_000, handOffMaxDegree + 1, 0},
		{"fits the block", on, 30, 180, 6, 0},
		{"few vertices, many arcs", on, 2000, 5000, 6, 32},
		{"block off", Options{PersistentAfter: 32, OneBlockArcs: -1}, 30, 180, 6, 32},
		{"never", Options{PersistentAfter: -1, OneBlockArcs: oneBlockArcs}, 9_000_000, 22_000_000, 6, 0},
	} {
		if got := handOffLevel(c.opt, c.n, c.m, c.maxDeg); got != c.want {
			t.Errorf("%s: hand-off level %d, want %d", c.name, got, c.want)
		}
	}
}
