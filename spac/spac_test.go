package spac

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/transform"
)

func graphOf(n int, uv ...int32) (*matrices.Graph, *matrices.Incidence) {
	g := &matrices.Graph{NumVertices: n, NumRowVertices: n, Model: matrices.ModelGraph}
	for i := 0; i < len(uv); i += 2 {
		g.U = append(g.U, uv[i])
		g.V = append(g.V, uv[i+1])
	}
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		panic(err)
	}
	return g, inc
}

// every variant SPAC offers, so that each one is held to the same checks.
func variants() []Options {
	var out []Options
	for _, f := range []transform.Formulation{transform.Contracted, transform.Split} {
		for _, o := range []transform.Order{transform.Cycle, transform.ByIndex, transform.ByNeighbour, transform.Walk} {
			out = append(out, Options{Formulation: f, Order: o, Seed: 1})
		}
	}
	return out
}

func name(o Options) string { return fmt.Sprintf("%v/%v", o.Formulation, o.Order) }

// Four disjoint 4-cliques (6 edges each) into 4 parts of 6: the perfect
// partition has no copy, and SPAC must find it.
func TestSPACFindsDisjointBlocks(t *testing.T) {
	var uv []int32
	for b := int32(0); b < 4; b++ {
		for i := int32(0); i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				uv = append(uv, 4*b+i, 4*b+j)
			}
		}
	}
	g, inc := graphOf(16, uv...)
	for _, opts := range variants() {
		opts.K, opts.Cap = 4, 6
		p, err := SPAC{}.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatalf("%s: %v", name(opts), err)
		}
		if c := Evaluate(g, inc, p).Copies; c != 0 {
			t.Errorf("%s: %d copies, want 0 (parts %v)", name(opts), c, p.Part)
		}
	}
}

// A path of 64 edges into 8 parts of 8: the optimum cuts it into 8
// stretches, 7 shared vertices.
func TestSPACPathIsOptimal(t *testing.T) {
	var uv []int32
	for i := int32(0); i < 64; i++ {
		uv = append(uv, i, i+1)
	}
	g, inc := graphOf(65, uv...)
	for _, opts := range variants() {
		opts.K, opts.Cap = 8, 8
		p, err := SPAC{}.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatalf("%s: %v", name(opts), err)
		}
		if c := Evaluate(g, inc, p).Copies; c != 7 {
			t.Errorf("%s: %d copies, want 7", name(opts), c)
		}
	}
}

// On random graphs every variant, coarsened or not, assigns every edge
// once, holds the cap with zero slack, and repeats itself for a seed.
func TestSPACProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 30; trial++ {
		n := 5 + r.IntN(60)
		m := 20 + r.IntN(400)
		uv := make([]int32, 0, 2*m)
		for i := 0; i < m; i++ {
			uv = append(uv, int32(r.IntN(n)), int32(r.IntN(n)))
		}
		g, inc := graphOf(n, uv...)
		k := 2 + r.IntN(6)
		for _, opts := range variants() {
			opts.K, opts.Cap = k, (m+k-1)/k
			opts.Coarsen = r.IntN(3)
			p, err := SPAC{}.Partition(context.Background(), g, inc, opts)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, name(opts), err)
			}
			if err := Check(g, p, opts.Cap); err != nil {
				t.Fatalf("trial %d %s: %v", trial, name(opts), err)
			}
			again, _ := SPAC{}.Partition(context.Background(), g, inc, opts)
			if !slices.Equal(p.Part, again.Part) {
				t.Fatalf("trial %d %s: two runs with one seed differ", trial, name(opts))
			}
		}
	}
}

func TestSPACRejectsAndCancels(t *testing.T) {
	g, inc := graphOf(3, 0, 1, 1, 2, 0, 2)
	if _, err := (SPAC{}).Partition(context.Background(), g, inc, Options{K: 1, Cap: 2}); err == nil {
		t.Error("one part of 2 edges accepted 3 edges")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (SPAC{}).Partition(ctx, g, inc, Options{K: 2, Cap: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}
