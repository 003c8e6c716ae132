package spac

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/matrices"
)

// blEnforce runs EnforceCap on a copy of start and checks what every
// result must satisfy: Check passes, only edges of overfull parts move,
// exactly the excess moves, and it is deterministic.
func blEnforce(t *testing.T, g *matrices.Graph, inc *matrices.Incidence, start Partition, capacity int) Partition {
	t.Helper()
	load := make([]int, start.K)
	for _, q := range start.Part {
		load[q]++
	}
	excess := 0
	for _, l := range load {
		excess += max(0, l-capacity)
	}
	p := Partition{K: start.K, Part: slices.Clone(start.Part)}
	moved, err := EnforceCap(g, inc, &p, capacity)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(g, p, capacity); err != nil {
		t.Fatal(err)
	}
	if moved != excess {
		t.Fatalf("moved %d edges, excess was %d", moved, excess)
	}
	changed := 0
	for e := range p.Part {
		if p.Part[e] != start.Part[e] {
			changed++
			if load[start.Part[e]] <= capacity {
				t.Fatalf("edge %d moved out of part %d, which was not over the cap", e, start.Part[e])
			}
		}
	}
	if changed != moved {
		t.Fatalf("%d edges changed part, moved says %d", changed, moved)
	}
	p2 := Partition{K: start.K, Part: slices.Clone(start.Part)}
	EnforceCap(g, inc, &p2, capacity)
	if !slices.Equal(p.Part, p2.Part) {
		t.Fatal("not deterministic")
	}
	return p
}

// blNaiveCap moves the surplus of each overfull part, in edge order, to the
// least loaded part: what the cap pass must beat.
func blNaiveCap(p Partition, capacity int) Partition {
	out := Partition{K: p.K, Part: slices.Clone(p.Part)}
	load := make([]int, p.K)
	for _, q := range p.Part {
		load[q]++
	}
	for e, a := range out.Part {
		if load[a] <= capacity {
			continue
		}
		b := 0
		for q := range load {
			if load[q] < load[b] {
				b = q
			}
		}
		out.Part[e] = int32(b)
		load[a]--
		load[b]++
	}
	return out
}

func TestEnforceCapAdversarial(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range blCases(t) {
		m := c.g.NumEdges()
		for _, k := range []int{1, 2, 3, 16, m} {
			if k > m {
				continue
			}
			capacity := (m + k - 1) / k
			// Everything in part 0, then everything in the last part.
			for _, home := range []int32{0, int32(k - 1)} {
				p := Partition{K: k, Part: make([]int32, m)}
				for e := range p.Part {
					p.Part[e] = home
				}
				blEnforce(t, c.g, c.inc, p, capacity)
			}
			// Random, skewed towards a few parts.
			p := Partition{K: k, Part: make([]int32, m)}
			for e := range p.Part {
				q := rng.IntN(k)
				if rng.IntN(3) == 0 {
					q = rng.IntN(1 + k/4)
				}
				p.Part[e] = int32(q)
			}
			blEnforce(t, c.g, c.inc, p, capacity)
			// With slack.
			blEnforce(t, c.g, c.inc, p, capacity+3)
		}
	}
}

func TestEnforceCapImpossible(t *testing.T) {
	c := blCases(t)[1]
	m := c.g.NumEdges()
	p := Partition{K: 4, Part: make([]int32, m)}
	if _, err := EnforceCap(c.g, c.inc, &p, (m-1)/4); err == nil {
		t.Fatal("no error for K*cap < m")
	}
	for e := range p.Part {
		if p.Part[e] != 0 {
			t.Fatal("partition changed on error")
		}
	}
	if _, err := EnforceCap(c.g, c.inc, &Partition{K: 4, Part: make([]int32, m-1)}, m); err == nil {
		t.Fatal("no error for a short partition")
	}
	bad := Partition{K: 2, Part: make([]int32, m)}
	bad.Part[3] = 2
	if _, err := EnforceCap(c.g, c.inc, &bad, m); err == nil {
		t.Fatal("no error for a part out of range")
	}
}

func TestEnforceCapNoop(t *testing.T) {
	c := blCases(t)[0]
	m := c.g.NumEdges()
	p := Partition{K: m, Part: make([]int32, m)}
	for e := range p.Part {
		p.Part[e] = int32(e)
	}
	blEnforce(t, c.g, c.inc, p, 1)
}

// TestEnforceCapQuality compares the cap pass with naive surplus moving on
// good but overfull partitions (a locality-aware partition with its parts
// cut short, as METIS's imbalance leaves them).
func TestEnforceCapQuality(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := blBA(rng, 4000, 4)
	inc, _ := matrices.BuildIncidence(g)
	m := g.NumEdges()
	k, capacity, _ := Resolve(m, 0, 128)
	// Greedy with 20% slack, then the real cap.
	start, err := Greedy{}.Partition(t.Context(), g, inc, Options{K: k, Cap: capacity * 6 / 5})
	if err != nil {
		t.Fatal(err)
	}
	before := Evaluate(g, inc, start).Copies
	ours := Evaluate(g, inc, blEnforce(t, g, inc, start, capacity)).Copies
	naive := Evaluate(g, inc, blNaiveCap(start, capacity)).Copies
	t.Logf("copies: before %d, cap pass %d, naive %d", before, ours, naive)
	if ours > naive {
		t.Errorf("cap pass leaves %d copies, naive %d", ours, naive)
	}
	// From scratch: all edges in part 0. The cap pass should do about as
	// well as a streaming partitioner, far better than random.
	all := Partition{K: k, Part: make([]int32, m)}
	fromZero := Evaluate(g, inc, blEnforce(t, g, inc, all, capacity)).Copies
	rnd, _ := Random{}.Partition(t.Context(), g, inc, Options{K: k, Cap: capacity})
	randCopies := Evaluate(g, inc, rnd).Copies
	t.Logf("from part 0: %d copies; random %d", fromZero, randCopies)
	if fromZero >= randCopies {
		t.Errorf("cap pass from part 0 leaves %d copies, random %d", fromZero, randCopies)
	}
}
