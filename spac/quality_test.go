package spac

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/metis"
)

// partitionAll runs the named methods on g at block size 1024, with the
// command's defaults (SPAC polishes), and returns their copies, checking
// every partition on the way.
func partitionAll(t *testing.T, g *matrices.Graph, names ...string) map[string]int64 {
	t.Helper()
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := Resolve(g.NumEdges(), 0, 1024)
	if err != nil {
		t.Fatal(err)
	}
	copies := map[string]int64{}
	for _, name := range names {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{K: k, Cap: capacity, Seed: 1, Coarsen: DefaultCoarsen, Polish: DefaultPolish}
		p, err := m.Partition(context.Background(), g, inc, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Check(g, p, capacity); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		copies[name] = Evaluate(g, inc, p).Copies
	}
	return copies
}

// The paper's Fig. 7: on Barabasi-Albert graphs with 50k vertices, SPAC
// needs fewer copies than WVP greedy, and WVP greedy fewer than PowerGraph
// greedy. Average degrees 8 and 16 here (spac/wvp-greedy 0.973 and 0.983,
// wvp-greedy/greedy 0.877 and 0.909); scripts/fig7.sh measures 8 to 64.
func TestBarabasiAlbertSPACFewestCopies(t *testing.T) {
	if testing.Short() {
		t.Skip("partitions two graphs of 0.2M and 0.4M edges three ways")
	}
	for _, m0 := range []int{4, 8} {
		g := fig7Graph(t, m0)
		c := partitionAll(t, g, "spac", "wvp-greedy", "greedy")
		t.Logf("average degree %d: spac %d, wvp-greedy %d (%.3f), greedy %d (%.3f)", 2*m0,
			c["spac"], c["wvp-greedy"], float64(c["spac"])/float64(c["wvp-greedy"]),
			c["greedy"], float64(c["wvp-greedy"])/float64(c["greedy"]))
		if c["spac"] >= c["wvp-greedy"] || c["wvp-greedy"] >= c["greedy"] {
			t.Errorf("average degree %d: want spac < wvp-greedy < greedy, got %d, %d, %d", 2*m0, c["spac"], c["wvp-greedy"], c["greedy"])
		}
	}
}

// TestWVPVolumeObjective measures WVP greedy with METIS minimising the
// communication volume instead of the edge cut, on the Fig. 7 graphs whose
// m (average degree / 2) SPAC_WVP_VOL lists, e.g. SPAC_WVP_VOL=4,8,16. It
// needs many times METIS's edge-cut time (minutes from degree 16 on, over
// 10 at degree 64), hence not the registered default; run with -timeout 0.
func TestWVPVolumeObjective(t *testing.T) {
	list := os.Getenv("SPAC_WVP_VOL")
	if list == "" {
		t.Skip("set SPAC_WVP_VOL=4,8,16 (m of the BA graphs) to measure")
	}
	for _, f := range strings.Split(list, ",") {
		m0, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		g := fig7Graph(t, m0)
		inc, err := matrices.BuildIncidence(g)
		if err != nil {
			t.Fatal(err)
		}
		k, capacity, err := Resolve(g.NumEdges(), 0, 1024)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range []metis.Objective{metis.EdgeCut, metis.CommVolume} {
			cfg := wvpGreedyConfig
			cfg.objective = obj
			start := time.Now()
			p, err := wvp(context.Background(), "wvp-greedy", cfg, g, inc, Options{K: k, Cap: capacity, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(g, p, capacity); err != nil {
				t.Fatal(err)
			}
			t.Logf("average degree %d, %v: %d copies in %.1f s", 2*m0, obj, Evaluate(g, inc, p).Copies, time.Since(start).Seconds())
		}
	}
}

// SPAC beats every streaming partitioner on every real input in
// ../shared/matrices, at block size 1024.
func TestSPACBeatsStreamingOnSharedMatrices(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "matrices")
	files, _ := filepath.Glob(filepath.Join(dir, "*.gz"))
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			t.Skipf("no shared matrices at %s: %v", dir, err)
		}
		t.Fatalf("no inputs found in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			coo, err := matrices.Open(f, matrices.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			model := matrices.ModelGraph // edge lists and METIS graphs
			if strings.Contains(f, ".mtx") {
				model = matrices.ModelSpMV
			}
			g, err := matrices.LocalityGraph(coo.Expanded(), model)
			if err != nil {
				t.Fatal(err)
			}
			c := partitionAll(t, g, "spac", "default", "random", "greedy", "hdrf", "dbh")
			t.Logf("%s (%v, %d edges): %v", filepath.Base(f), model, g.NumEdges(), c)
			if g.NumEdges() <= 1024 {
				// One part: nothing is copied, whatever the method.
				for name, copies := range c {
					if copies != 0 {
						t.Errorf("%s: %d copies in a single part", name, copies)
					}
				}
				return
			}
			for _, name := range []string{"random", "greedy", "hdrf", "dbh"} {
				if c[name] <= c["spac"] {
					t.Errorf("%s: %d copies, not more than spac's %d", name, c[name], c["spac"])
				}
			}
			// Row order is not a streaming method and can be near-optimal
			// on a narrow-banded matrix cut into a few parts (lund_a: 3).
			if c["default"] < c["spac"] {
				t.Logf("note: row order has %d copies, spac %d", c["default"], c["spac"])
			}
		})
	}
}

// fig7Graph is the graph-model locality graph of the Fig. 7 Barabasi-Albert
// graph with 50k vertices and m0 edges per new vertex (average degree 2 m0).
func fig7Graph(t *testing.T, m0 int) *matrices.Graph {
	t.Helper()
	coo, err := matrices.BarabasiAlbert(50000, m0, 1)
	if err != nil {
		t.Fatal(err)
	}
	g, err := matrices.LocalityGraph(coo, matrices.ModelGraph)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
