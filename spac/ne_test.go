package spac

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"
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
	for _, name := range []string{"ne", "hep"} {
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

// NE names its stage, which the progress display shows while it runs (the
// whole of SPAC's start on an R-MAT graph of 4M tasks or more).
func TestNETellsItsStage(t *testing.T) {
	c := blCases(t)[5] // ba
	k, cp, _ := Resolve(c.g.NumEdges(), 0, 32)
	var stages []string
	opts := Options{K: k, Cap: cp, Seed: 1, Progress: func(s string) { stages = append(stages, s) }}
	if _, err := (NE{}).Partition(context.Background(), c.g, c.inc, opts); err != nil {
		t.Fatal(err)
	}
	if len(stages) == 0 || stages[0] != "ne" {
		t.Errorf("stages %v, want ne first", stages)
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

// HEP's contract: with tau = +Inf no vertex is high and HEP is NE, edge for
// edge; at the default tau on a power-law graph some edges join two high
// vertices and are streamed, the cap holds, and HEP has fewer copies than
// HDRF alone.
func TestHEPContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := blBA(rng, 20000, 5)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, block := range []int{64, 1024} {
		k, cp, _ := Resolve(g.NumEdges(), 0, block)
		opts := Options{K: k, Cap: cp, Seed: 1}
		ne, err := NE{}.Partition(ctx, g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		inf := opts
		inf.Tau = math.Inf(1)
		hinf, err := HEP{}.Partition(ctx, g, inc, inf)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ne.Part, hinf.Part) {
			t.Errorf("block %d: hep with tau=+Inf differs from ne", block)
		}
		mean := meanDegree(inc)
		h2h := 0
		for e := range g.U {
			if float64(inc.Degree(int(g.U[e]))) > DefaultTau*mean && float64(inc.Degree(int(g.V[e]))) > DefaultTau*mean {
				h2h++
			}
		}
		if h2h == 0 {
			t.Fatalf("no high-high edges at tau %v: the test graph tests nothing", DefaultTau)
		}
		hep, err := HEP{}.Partition(ctx, g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(g, hep, cp); err != nil {
			t.Fatal(err)
		}
		hdrf, _ := HDRF{}.Partition(ctx, g, inc, opts)
		cn, ch, cd := Evaluate(g, inc, ne).Copies, Evaluate(g, inc, hep).Copies, Evaluate(g, inc, hdrf).Copies
		t.Logf("block %d: %d high-high edges; copies ne %d, hep %d, hdrf %d", block, h2h, cn, ch, cd)
		if ch >= cd {
			t.Errorf("block %d: hep %d copies, not below hdrf's %d", block, ch, cd)
		}
	}
	if _, err := (HEP{}).Partition(ctx, g, inc, Options{K: 4, Cap: g.NumEdges(), Tau: -1}); err == nil {
		t.Error("tau -1: no error")
	}
}

// NE's and HEP's partitions of a fixed graph are pinned: the boundary
// set's representation (part numbers, then a byte, now a bit a vertex,
// cleared as each part ends) is for speed and must not change them. The
// sums were taken with the part numbers; a bit left set from an earlier
// part lets join take edges the part's boundary does not reach, and moves
// them.
func TestExpansionPinned(t *testing.T) {
	c := blCases(t)[5] // ba
	k, cp, _ := Resolve(c.g.NumEdges(), 0, 32)
	opts := Options{K: k, Cap: cp, Seed: 7, Tau: 2} // HEP: the hubs above twice the mean degree streamed
	for name, want := range map[string]uint64{"ne": neSumNE, "hep": neSumHEP} {
		meth, _ := Lookup(name)
		p, err := meth.Partition(context.Background(), c.g, c.inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		for _, q := range p.Part {
			h.Write([]byte{byte(q), byte(q >> 8), byte(q >> 16), byte(q >> 24)})
		}
		if got := h.Sum64(); got != want {
			t.Errorf("%s: partition sum %#x, want %#x (%d parts)", name, got, want, k)
		}
	}
}

const neSumNE, neSumHEP = 0x1df66b164a82d2fe, 0x76880803cd3c29b6
