package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// writeInput writes a generated matrix as Matrix Market into a temporary
// directory and returns its path.
func writeInput(t *testing.T, spec string, name string) (string, *matrices.COO) {
	t.Helper()
	m, err := Generate(spec, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := matrices.WriteMatrixMarket(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, m
}

func settings() spac.Options {
	return spac.Options{Seed: 1, DominantWeight: spac.DefaultDominantWeight, Imbalance: spac.DefaultImbalance,
		Coarsen: spac.DefaultCoarsen, Polish: spac.DefaultPolish}
}

func scheduleBytes(t *testing.T, s *schedule.Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestScheduleEqualsSteps: Load, Partition and Schedule give what the
// steps give done by hand (read, expand, locality graph, partition,
// build), for every method, model and block size of the table.
func TestScheduleEqualsSteps(t *testing.T) {
	path, _ := writeInput(t, "ba:n=600,m=4", "ba.mtx")
	graph := matrices.ModelGraph
	for _, tc := range []struct {
		method   string
		model    *matrices.Model
		asStored bool
		block    int
	}{
		{"spac", nil, false, 128},
		{"spac", &graph, true, 256},
		{"default", nil, false, 64},
		{"hdrf", &graph, false, 200},
	} {
		ctx := context.Background()
		in, err := Load(ctx, path, ReadConfig{AsStored: tc.asStored, Model: tc.model})
		if err != nil {
			t.Fatal(err)
		}
		// By hand.
		m, err := matrices.Open(path, matrices.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		used := m
		if !tc.asStored {
			used = m.Expanded()
		}
		model := matrices.ModelSpMV
		if tc.model != nil {
			model = *tc.model
		}
		g, inc, err := matrices.BuildLocality(used, model)
		if err != nil {
			t.Fatal(err)
		}
		meth, _ := spac.Lookup(tc.method)
		opts := settings()
		opts.K, opts.Cap, _ = spac.Resolve(g.NumEdges(), 0, tc.block)
		want, err := meth.Partition(ctx, g, inc, opts)
		if err != nil {
			t.Fatal(err)
		}
		pc := PartitionConfig{Method: tc.method, Settings: settings()}
		sopts := schedule.Options{BlockSize: tc.block, Params: Params(pc, in)}
		wantS, err := schedule.Build(used, want, sopts)
		if err != nil {
			t.Fatal(err)
		}

		got, met, err := Partition(ctx, in, meth, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Part, want.Part) || met.Method != tc.method || met.Cap != tc.block {
			t.Errorf("%+v: Partition differs from the steps by hand (metrics %+v)", tc, met)
		}
		s, prov, err := Schedule(ctx, in, pc, schedule.Options{BlockSize: tc.block}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if prov.Cached || prov.Metrics.Copies != met.Copies {
			t.Errorf("%+v: provenance %+v", tc, prov)
		}
		if !bytes.Equal(scheduleBytes(t, s), scheduleBytes(t, wantS)) {
			t.Errorf("%+v: Schedule differs from the steps by hand", tc)
		}
	}
}

// TestCacheHitIsIdentical: the second Schedule comes from the cache and is
// the same schedule, byte for byte; a baseline's key ignores SPAC's
// settings.
func TestCacheHitIsIdentical(t *testing.T) {
	path, _ := writeInput(t, "stencil2d:nx=30,ny=30,points=5", "lap.mtx")
	ctx := context.Background()
	in, err := Read(ctx, path, ReadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	cache := &schedule.Cache{Dir: t.TempDir(), Warn: &warn}
	pc := PartitionConfig{Method: "spac", Settings: settings()}
	sopts := schedule.Options{BlockSize: 256}
	first, prov, err := Schedule(ctx, in, pc, sopts, cache, nil)
	if err != nil || prov.Cached {
		t.Fatalf("first: %v, %+v", err, prov)
	}
	// A fresh input, as another run reads it: no locality graph is built.
	in2, err := Read(ctx, path, ReadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	second, prov, err := Schedule(ctx, in2, pc, sopts, cache, nil)
	if err != nil || !prov.Cached || prov.CacheDir != cache.Dir {
		t.Fatalf("second: %v, %+v", err, prov)
	}
	if in2.Graph != nil {
		t.Error("a cache hit built the locality graph")
	}
	if !bytes.Equal(scheduleBytes(t, first), scheduleBytes(t, second)) {
		t.Error("the cached schedule differs from the built one")
	}
	if s, ok := Lookup(in2, pc, sopts, cache); !ok || !bytes.Equal(scheduleBytes(t, s), scheduleBytes(t, first)) {
		t.Error("Lookup does not find the stored schedule")
	}
	if warn.Len() > 0 {
		t.Errorf("warnings: %s", warn.String())
	}
	base := PartitionConfig{Method: "default", Settings: settings()}
	other := base
	other.Settings.Polish = 1
	if !slices.Equal(Params(base, in), Params(other, in)) {
		t.Error("a baseline's parameters depend on SPAC's settings")
	}
}

// TestCancel: a canceled context stops every step and stores nothing.
func TestCancel(t *testing.T) {
	path, _ := writeInput(t, "ba:n=2000,m=8", "ba.mtx")
	ctx, cancel := context.WithCancel(context.Background())
	in, err := Load(context.Background(), path, ReadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := Read(ctx, path, ReadConfig{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Read: %v", err)
	}
	cache := &schedule.Cache{Dir: t.TempDir()}
	_, _, err = Schedule(ctx, in, PartitionConfig{Method: "spac", Settings: settings()}, schedule.Options{BlockSize: 128}, cache, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Schedule: %v", err)
	}
	if _, n, _ := cache.Size(); n != 0 {
		t.Errorf("a canceled Schedule stored %d entries", n)
	}
}

// TestDefaults: the model defaults to graph for graph files and spmv for
// matrices; gen: inputs are generated only when asked for.
func TestDefaults(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	edges := filepath.Join(dir, "g.txt")
	os.WriteFile(edges, []byte("0 1\n1 2\n2 0\n"), 0o644)
	in, err := Load(ctx, edges, ReadConfig{})
	if err != nil || in.Model != matrices.ModelGraph {
		t.Fatalf("edge list: %v, model %v", err, in.Model)
	}
	path, m := writeInput(t, "ba:n=100,m=2", "ba.mtx")
	in, err = Load(ctx, path, ReadConfig{AsStored: true})
	if err != nil || in.Model != matrices.ModelSpMV || in.Used != in.Matrix || in.Used.NNZ() != m.NNZ() {
		t.Fatalf("matrix: %v, %+v", err, in)
	}
	if _, err := Read(ctx, "gen:ba:n=100,m=2", ReadConfig{}); err == nil {
		t.Error("gen: read as a file name without Generate")
	}
	g, err := Read(ctx, "gen:ba:n=100,m=2", ReadConfig{Generate: true, GenScale: 1, GenSeed: 1})
	if err != nil || g.Matrix.Name != "gen:ba:n=100,m=2" || g.Used.NNZ() != m.Expanded().NNZ() {
		t.Fatalf("gen: %v, %+v", err, g)
	}
	var ce *ConfigError
	if _, err := Read(ctx, "gen:nosuch@2", ReadConfig{Generate: true, GenScale: 1}); !errors.As(err, &ce) {
		t.Errorf("gen:nosuch: %v", err)
	}
}

// TestProgress: on a (fake) terminal, Schedule shows the partitioner's
// stages and a line about the schedule; off, nothing.
func TestProgress(t *testing.T) {
	path, _ := writeInput(t, "ba:n=300,m=4", "ba.mtx")
	in, err := Load(context.Background(), path, ReadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	pc := PartitionConfig{Method: "spac", Settings: settings()}
	if _, _, err := Schedule(context.Background(), in, pc, schedule.Options{BlockSize: 128}, nil, progress.New(&buf, true)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"spac       total", "schedule spac, B=128:"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("progress lacks %q: %q", want, buf.String())
		}
	}
	buf.Reset()
	if _, _, err := Schedule(context.Background(), in, pc, schedule.Options{BlockSize: 128}, nil, progress.New(&buf, false)); err != nil || buf.Len() > 0 {
		t.Errorf("progress off wrote %q (%v)", buf.String(), err)
	}
}
