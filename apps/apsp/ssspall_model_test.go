package apsp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/apps/traversal/traversaltest"
)

// msModel is kernels/ssspall.cu's protocol with paths, one warp's slot at
// a time in a random order instead of in parallel: the slots, their masks
// (taken and cleared by the reader, set by the improvers, the first setter
// listing the slot), the two searches (distances with no hops, then the
// fewest hops over tight arcs), the predecessor pass and the next hops.
// Its results must equal Dijkstra's distances and give the same next hops
// whatever the order and the batch: the properties the GPU tests check on
// the device, here checked on the design itself (this machine has no GPU).
type msModel struct {
	g       *graph.Graph
	w       []uint32
	integer bool
	rng     *rand.Rand
}

func (md *msModel) add(d, w uint32) uint32 {
	if md.integer {
		return d + w
	}
	return math.Float32bits(math.Float32frombits(d) + math.Float32frombits(w))
}

func (md *msModel) inf() uint32 {
	if md.integer {
		return math.MaxInt32
	}
	return 0x7f800000
}

func (md *msModel) next(du uint64, w, hop uint32) uint64 {
	return uint64(md.add(uint32(du>>32), w))<<32 | uint64(uint32(du)+hop)
}

// batch runs sources base .. base+b-1 in batches of B and returns their
// distance and predecessor rows (row r: source base+r).
func (md *msModel) batch(base, b, B int) (dist []uint32, pred []int32) {
	g, n, G := md.g, md.g.NumVertices, B/32
	unreached := uint64(md.inf())<<32 | 0xffffffff
	key := make([]uint64, n*B) // key[v*B + s]
	pr := make([]int32, n*B)
	for keep := range 2 {
		masks := [2][]uint32{make([]uint32, n*G), make([]uint32, n*G)}
		var queue []int
		for i := range key {
			v, s := i/B, i%B
			self := s < b && v == base+s
			switch {
			case self:
				key[i] = 0
			case keep == 1:
				key[i] |= 0xffffffff
			default:
				key[i] = unreached
			}
		}
		for s := range b {
			slot := (base+s)*G + s/32
			masks[0][slot] = 1 << (s % 32)
			queue = append(queue, slot)
		}
		hop := uint32(keep)
		for round := 0; len(queue) > 0; round++ {
			if round > 2*n+8 {
				panic("no end")
			}
			cur, nxt := masks[round&1], masks[(round+1)&1]
			var out []int
			md.rng.Shuffle(len(queue), func(i, j int) { queue[i], queue[j] = queue[j], queue[i] })
			for _, slot := range queue {
				mask := cur[slot]
				cur[slot] = 0
				u, grp := slot/G, slot%G
				for lane := range 32 {
					if mask>>lane&1 == 0 {
						continue
					}
					du := key[slot*32+lane]
					for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
						vs := int(g.Adj[e])*G + grp
						if c := md.next(du, md.w[e], hop); c < key[vs*32+lane] {
							key[vs*32+lane] = c
							if nxt[vs] == 0 {
								out = append(out, vs)
							}
							nxt[vs] |= 1 << lane
						}
					}
				}
			}
			queue = out
		}
	}
	for i := range pr {
		pr[i] = math.MaxInt32
		if v, s := i/B, i%B; s < b && v == base+s {
			pr[i] = int32(v)
		}
	}
	for u := range n {
		for s := range B {
			ku := key[u*B+s]
			if ku == unreached {
				continue
			}
			for e := g.Offsets[u]; e < g.Offsets[u+1]; e++ {
				q := int(g.Adj[e])*B + s
				if key[q] == md.next(ku, md.w[e], 1) {
					pr[q] = min(pr[q], int32(u))
				}
			}
		}
	}
	dist, pred = make([]uint32, b*n), make([]int32, b*n)
	for s := range b {
		for v := range n {
			dist[s*n+v] = uint32(key[v*B+s] >> 32)
			pred[s*n+v] = pr[v*B+s]
			if pred[s*n+v] == math.MaxInt32 {
				pred[s*n+v] = -1
			}
		}
	}
	return dist, pred
}

// solveModel is AllSourcesGPU with the model in place of the device.
func solveModel[T Weight](t *testing.T, g *graph.Graph, B int, seed uint64) *Matrix[T] {
	t.Helper()
	_, integer := any(Inf[T]()).(int32)
	md := &msModel{g: g, w: weightBits[T](g), integer: integer, rng: rand.New(rand.NewPCG(seed, 1))}
	n := g.NumVertices
	m := &Matrix[T]{N: n, Dist: make([]T, n*n), Next: make([]int32, n*n)}
	for base := 0; base < n; base += B {
		b := min(B, n-base)
		dist, pred := md.batch(base, b, B)
		for i, x := range dist {
			if integer {
				m.Dist[base*n+i] = any(int32(x)).(T)
			} else {
				m.Dist[base*n+i] = any(math.Float32frombits(x)).(T)
			}
		}
		for r := range b {
			if err := nextHops(int32(base+r), pred[r*n:(r+1)*n], m.Next[(base+r)*n:(base+r+1)*n]); err != nil {
				t.Fatalf("%s: %v", g.Name, err)
			}
		}
	}
	return m
}

// TestSSSPAllModel: the protocol of the GPU's sssp-all (msModel) gives
// Dijkstra's distances bit for bit, both types, on the corpus and random
// graphs; next hops that pass Check; and the same next hops for another
// order of the slots and another batch size.
func TestSSSPAllModel(t *testing.T) {
	ctx := context.Background()
	run := func(t *testing.T, integer bool) {
		cases := corpus(t, integer)
		w := graph.Weights{Kind: graph.UniformFloat}
		if integer {
			w = graph.Weights{Kind: graph.UniformInt, Max: 5} // small weights: many ties
		}
		for i, directed := range []bool{true, false} {
			name := fmt.Sprintf("random-directed=%v", directed)
			g, err := graph.Build(traversaltest.Random(name, 90, 400, directed, uint64(40+i)), graph.Options{Weights: w, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, testCase{name, g})
		}
		for _, c := range cases {
			if integer {
				modelSameAsCPU[int32](t, ctx, c)
			} else {
				modelSameAsCPU[float32](t, ctx, c)
			}
		}
	}
	t.Run("int32", func(t *testing.T) { run(t, true) })
	t.Run("float32", func(t *testing.T) { run(t, false) })
}

func modelSameAsCPU[T Weight](t *testing.T, ctx context.Context, c testCase) {
	t.Helper()
	want, err := AllSources[T](ctx, c.g, false)
	if err != nil {
		t.Fatal(err)
	}
	a := solveModel[T](t, c.g, 32, 1)
	b := solveModel[T](t, c.g, 64, 2)
	if err := Equal(&Matrix[T]{N: a.N, Dist: a.Dist}, want); err != nil {
		t.Errorf("%s: model against Dijkstra: %v", c.name, err)
		return
	}
	if err := Equal(a, b); err != nil {
		t.Errorf("%s: the next hops depend on the order or the batch: %v", c.name, err)
	}
	if c.g.NumVertices == 0 {
		return
	}
	w, err := Dense[T](c.g, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(a, w); err != nil {
		t.Errorf("%s: model's next hops: %v", c.name, err)
	}
}
