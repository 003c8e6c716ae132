package schedule

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

func TestDefaultCacheDir(t *testing.T) {
	if d, err := DefaultCacheDir("/tmp/somewhere"); err != nil || d != "/tmp/somewhere" {
		t.Errorf("with a directory given: %q, %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	if d, err := DefaultCacheDir(""); err != nil || d != filepath.Join("/tmp/xdg", "spac", "schedules") {
		t.Errorf("default: %q, %v", d, err)
	}
}

// seedSchedules stores n schedules of tiny (seeds 1..n), each used a
// minute after the one before, and returns their options and the size of
// one entry.
func seedSchedules(t *testing.T, c *Cache, n int) ([]Options, int64) {
	t.Helper()
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	var opts []Options
	var size int64
	base := time.Now().Add(-time.Hour)
	for i := range n {
		o := Options{BlockSize: 6, Params: []Param{{"method", "hand"}, {"seed", strconv.Itoa(i + 1)}}}
		if err := c.Store(build(t, tiny(), p, o)); err != nil {
			t.Fatal(err)
		}
		path := c.path(StructureFingerprint(tiny()), o)
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		size = fi.Size()
		opts = append(opts, o)
	}
	return opts, size
}

// TestCacheEvictsLeastRecentlyUsed: a store beyond the bound removes the
// entries used longest ago first, and a hit counts as a use.
func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	opts, size := seedSchedules(t, c, 4)       // used in the order 0, 1, 2, 3
	if _, ok := c.Load(tiny(), opts[0]); !ok { // 0 is now the most recent
		t.Fatal("entry 0 missing before any bound")
	}
	c.MaxBytes = 3*size + size/2 // room for three
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	fifth := Options{BlockSize: 6, Params: []Param{{"method", "hand"}, {"seed", "5"}}}
	if err := c.Store(build(t, tiny(), p, fifth)); err != nil {
		t.Fatal(err)
	}
	// Five entries, room for three: 1 and 2 (the least recently used) go.
	for i, want := range []bool{true, false, false, true} {
		if _, ok := c.Load(tiny(), opts[i]); ok != want {
			t.Errorf("entry %d: present %v, want %v", i, ok, want)
		}
	}
	if _, ok := c.Load(tiny(), fifth); !ok {
		t.Error("the entry just stored was evicted")
	}
	if b, n, err := c.Size(); err != nil || n != 3 || b > c.MaxBytes {
		t.Errorf("cache after eviction: %d entries, %d bytes (bound %d), %v", n, b, c.MaxBytes, err)
	}
}

// TestCacheBound: the files never add up to more than the bound, and an
// entry larger than the bound alone is not kept, with an error that says
// so; no bound keeps everything.
func TestCacheBound(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	_, size := seedSchedules(t, c, 6)
	if _, n, _ := c.Size(); n != 6 {
		t.Fatalf("unbounded cache holds %d entries, want 6", n)
	}
	c.MaxBytes = 2 * size
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	if err := c.Store(build(t, tiny(), p, Options{BlockSize: 6, Params: []Param{{"method", "hand"}, {"seed", "7"}}})); err != nil {
		t.Fatal(err)
	}
	if b, n, _ := c.Size(); b > c.MaxBytes || n != 2 {
		t.Errorf("%d entries of %d bytes in all, bound %d", n, b, c.MaxBytes)
	}
	c.MaxBytes = size / 2
	err := c.Store(build(t, tiny(), p, Options{BlockSize: 7, Params: []Param{{"method", "hand"}}}))
	if err == nil || !strings.Contains(err.Error(), "more than the cache's bound") {
		t.Errorf("an entry over the bound: %v", err)
	}
	if b, n, _ := c.Size(); b != 0 || n != 0 {
		t.Errorf("after an entry over the bound: %d entries, %d bytes", n, b)
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
