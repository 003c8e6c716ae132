package schedule

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv(CacheDirEnv, "/tmp/somewhere")
	if d, err := DefaultCacheDir(); err != nil || d != "/tmp/somewhere" {
		t.Errorf("with %s set: %q, %v", CacheDirEnv, d, err)
	}
	t.Setenv(CacheDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	if d, err := DefaultCacheDir(); err != nil || d != filepath.Join("/tmp/xdg", "spac", "schedules") {
		t.Errorf("default: %q, %v", d, err)
	}
}

func TestCache(t *testing.T) {
	var warn bytes.Buffer
	c := &Cache{Dir: filepath.Join(t.TempDir(), "cache"), Warn: &warn}
	coo := tiny()
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	opts := Options{BlockSize: 6, Params: []Param{{"method", "hand"}, {"seed", "1"}}}
	if _, ok := c.Load(coo, opts); ok {
		t.Fatal("hit in an empty cache")
	}
	var off *Cache // caching off
	if _, ok := off.Load(coo, opts); ok {
		t.Fatal("hit in a nil cache")
	}
	s := build(t, coo, p, opts)
	if err := c.Store(s); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Load(coo, opts)
	if !ok || got.NumBlocks() != 2 || got.Vals[0] != 1 {
		t.Fatalf("stored schedule not found (%v)", warn.String())
	}
	// Same structure, other values: a hit, with the new values.
	scaled := tiny()
	for i := range scaled.Val {
		scaled.Val[i] *= 10
	}
	if got, ok := c.Load(scaled, opts); !ok || got.Vals[0] != 10 {
		t.Error("values not refreshed from the matrix on a hit")
	}
	// Any other parameter, block size, budget or policy, or another matrix: a miss.
	misses := []struct {
		name string
		coo  *matrices.COO
		opts Options
	}{
		{"seed", coo, Options{BlockSize: 6, Params: []Param{{"method", "hand"}, {"seed", "2"}}}},
		{"block size", coo, Options{BlockSize: 8, Params: opts.Params}},
		{"budget", coo, Options{BlockSize: 6, Budget: 1024, Params: opts.Params}},
		{"policy", coo, Options{BlockSize: 6, Overflow: Split, Params: opts.Params}},
		{"matrix", &matrices.COO{Name: "other", NRows: 4, NCols: 5, Row: []int32{0}, Col: []int32{1}, Val: []float64{1}}, opts},
	}
	for _, m := range misses {
		if _, ok := c.Load(m.coo, m.opts); ok {
			t.Errorf("%s differs: still a hit", m.name)
		}
	}
	if warn.Len() != 0 {
		t.Errorf("warnings on clean misses: %s", warn.String())
	}
	// A corrupted entry is a warned miss and is removed.
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*"+cacheExt))
	if len(files) != 1 {
		t.Fatalf("%d cache files, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	data[len(data)-3] ^= 1
	os.WriteFile(files[0], data, 0o644)
	if _, ok := c.Load(coo, opts); ok {
		t.Error("corrupted entry was used")
	}
	if !strings.Contains(warn.String(), "damaged") {
		t.Errorf("no warning for a corrupted entry: %q", warn.String())
	}
	t.Logf("warning: %s", strings.TrimSpace(warn.String()))
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Error("corrupted entry was not removed")
	}
	// Clear removes schedules and leftovers of interrupted writes, nothing else.
	if err := c.Store(s); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.Dir, ".x"+cacheExt+".tmp-123"), nil, 0o644)
	os.WriteFile(filepath.Join(c.Dir, "README"), nil, 0o644)
	n, err := c.Clear()
	if err != nil || n != 2 {
		t.Errorf("Clear removed %d files (%v), want 2", n, err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "README")); err != nil {
		t.Error("Clear removed a file that is not a schedule")
	}
	if n, err := (&Cache{Dir: filepath.Join(c.Dir, "missing")}).Clear(); n != 0 || err != nil {
		t.Errorf("clearing a missing directory: %d, %v", n, err)
	}
}
