//go:build cuda

package btree

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func openGPU(t *testing.T) *GPU {
	t.Helper()
	g, err := NewGPU(gpu.OpenForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Every variant (original, RCM, SPAC with its partition and with
// contiguous chunks, the original on SPAC's order) answers every query as
// the CPU reference does, at every block size, on generated keys and on a
// key file read back, with keys held and absent; SPAC blocks with more
// queries than the default.
func TestGPUMatchesCPU(t *testing.T) {
	g := openGPU(t)
	cmds := []Command{{Op: 'k', Count: 3000}, {Op: 'j', Count: 2000, Range: 700}}
	sparse, err := GenerateKeys(KeySpec{N: 60000, Span: 150000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteKeys(&buf, sparse); err != nil {
		t.Fatal(err)
	}
	read, err := ReadKeys(&buf, "keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	dense, _ := GenerateKeys(KeySpec{N: 600000, Seed: 3})
	for _, in := range []struct {
		name string
		keys []int32
		size int
	}{{"dense", dense, 600000}, {"file, sparse", read, 150000}} {
		bs, err := MakeQueries(cmds, in.size, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range BlockSizes {
			tr, err := Build(in.keys, BuildOptions{Order: order})
			if err != nil {
				t.Fatal(err)
			}
			rcm, err := NewRCM(tr, bs)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range bs {
				ref := Reference(tr, b)
				found := 0
				for _, v := range ref.A {
					if v > 0 {
						found++
					}
				}
				if found == 0 || found == b.Len() && in.size != len(in.keys) {
					t.Fatalf("%s %s: %d of %d queries find a record", in.name, b.Kind, found, b.Len())
				}
				sp := schedule(t, tr, b, "spac", DefaultPerBlock(order))
				runs := []struct {
					name  string
					tree  *Tree
					ord   []int32
					sched *Schedule
				}{
					{"original", tr, nil, nil},
					{"rcm", rcm.Tree, rcm.Orders[i], nil},
					{"spac", tr, nil, sp},
					{"spac-swap", tr, sp.Order, nil},
					{"spac x4", tr, nil, schedule(t, tr, b, "spac", 4*DefaultPerBlock(order))},
					{"default", tr, nil, schedule(t, tr, b, "default", DefaultPerBlock(order))},
				}
				for _, r := range runs {
					name := fmt.Sprintf("%s %s order %d (height %d) %s", in.name, b.Kind, order, tr.Height, r.name)
					res, err := g.Run(r.tree, b, r.ord, r.sched, 3)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if m := Mismatches(res.Answers, ref); m > 0 {
						t.Errorf("%s: %d of %d answers differ from the CPU", name, m, b.Len())
					}
					if res.Time.Median <= 0 {
						t.Errorf("%s: no time measured", name)
					}
					if r.sched != nil && res.Shared != SharedBytes(tr, b.Kind) {
						t.Errorf("%s: %d B of shared memory, want %d", name, res.Shared, SharedBytes(tr, b.Kind))
					}
					t.Logf("%s: %.1f us, %d blocks, %d B shared", name, float64(res.Time.Median.Nanoseconds())/1e3, res.Blocks, res.Shared)
				}
			}
		}
	}
}

// A schedule made for another tree order is refused.
func TestGPUScheduleMismatch(t *testing.T) {
	g := openGPU(t)
	tr, bs := fixture(t, 5000, 64, []Command{{Op: 'k', Count: 100}})
	other, _ := fixture(t, 5000, 128, nil)
	s := schedule(t, tr, bs[0], "spac", 2)
	if _, err := g.Run(other, bs[0], nil, s, 1); err == nil {
		t.Fatal("a schedule for order 64 ran on a tree of order 128")
	}
}

// The SPAC kernels on the tree shapes their caches depend on: a single
// leaf (height 0: no shared memory, the leaf in registers only, no barrier
// between queries), and a thin deep tree of order 1024 whose two staged
// paths need more than the 48 KiB of shared memory a launch gets without
// the opt-in. Many queries per block, so that consecutive queries reuse
// the cached levels and leaves, and each answer equals the CPU's.
func TestGPUSPACShapes(t *testing.T) {
	g := openGPU(t)
	cmds := []Command{{Op: 'k', Count: 1500}, {Op: 'j', Count: 1000, Range: 10}}
	for _, c := range []struct {
		name      string
		keys      int
		opt       BuildOptions
		height    int // exactly, or at least with atLeast
		atLeast   bool
		optInPath bool // findRange needs more than 48 KiB
	}{
		{"single leaf", 40, BuildOptions{Order: 64}, 0, false, false},
		{"thin, order 1024", 200000, BuildOptions{Order: 1024, Fill: 0.01}, 4, true, true},
	} {
		keys, err := GenerateKeys(KeySpec{N: c.keys, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Build(keys, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Height != c.height && !(c.atLeast && tr.Height > c.height) {
			t.Fatalf("%s: height %d, the case needs %d", c.name, tr.Height, c.height)
		}
		bs, err := MakeQueries(cmds, c.keys, 6)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			ref := Reference(tr, b)
			for _, per := range []int{1, DefaultPerBlock(c.opt.Order), 64} {
				name := fmt.Sprintf("%s (height %d) %s, %d a block", c.name, tr.Height, b.Kind, per)
				res, err := g.Run(tr, b, nil, schedule(t, tr, b, "spac", per), 2)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if m := Mismatches(res.Answers, ref); m > 0 {
					t.Errorf("%s: %d of %d answers differ from the CPU", name, m, b.Len())
				}
				if big := res.Shared > 48<<10; c.optInPath && b.Kind == FindRange && !big {
					t.Errorf("%s: %d B of shared memory: the opt-in path went untested", name, res.Shared)
				}
			}
		}
	}
}
