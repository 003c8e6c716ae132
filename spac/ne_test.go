package spac

import (
	"context"
	"runtime"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// NE is known to beat streaming partitioners: on the Fig. 7 graph of
// average degree 8 at block size 1024 it has fewer copies than random and
// HDRF.
func TestNEBeatsStreaming(t *testing.T) {
	if testing.Short() {
		t.Skip("partitions a graph of 0.2M edges")
	}
	g := fig7Graph(t, 4)
	c := partitionAll(t, g, "ne", "random", "hdrf")
	t.Logf("copies: ne %d, hdrf %d, random %d", c["ne"], c["hdrf"], c["random"])
	for _, name := range []string{"random", "hdrf"} {
		if c["ne"] >= c[name] {
			t.Errorf("ne %d copies, not below %s's %d", c["ne"], name, c[name])
		}
	}
}

// The expansion methods run serially: one worker gives the same answer.
func TestExpansionSameOnOneCore(t *testing.T) {
	c := blCases(t)[5] // ba
	k, cp, _ := Resolve(c.g.NumEdges(), 0, 32)
	opts := Options{K: k, Cap: cp, Seed: 5}
	for _, name := range []string{"ne"} {
		meth, _ := Lookup(name)
		p, err := meth.Partition(context.Background(), c.g, c.inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		old := runtime.GOMAXPROCS(1)
		p1, err := meth.Partition(context.Background(), c.g, c.inc, opts)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Part, p1.Part) {
			t.Errorf("%s: GOMAXPROCS=1 gives another partition", name)
		}
	}
}

// A path grown from one end is cut into contiguous pieces: NE on a path
// of 12 edges in 3 parts of 4 copies each inner cut vertex once.
func TestNEPath(t *testing.T) {
	g := &matrices.Graph{NumVertices: 13, NumRowVertices: 13, Model: matrices.ModelGraph}
	for v := int32(0); v < 12; v++ {
		g.U = append(g.U, v)
		g.V = append(g.V, v+1)
	}
	inc, _ := matrices.BuildIncidence(g)
	for seed := int64(0); seed < 20; seed++ {
		p, err := NE{}.Partition(context.Background(), g, inc, Options{K: 3, Cap: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(g, p, 4); err != nil {
			t.Fatal(err)
		}
		// A seed inside the path leaves pieces on both sides, so up to
		// 2 more copies than the 2 of three contiguous pieces.
		if c := Evaluate(g, inc, p).Copies; c > 4 {
			t.Errorf("seed %d: %d copies on a path (parts %v)", seed, c, p.Part)
		}
	}
}
