package schedule

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/spac-gpu/spac/matrices"
)

// DefaultCacheDir is dir when it is not empty (the command passes
// $SPAC_CACHE_DIR or its flag; the package reads no environment), else
// os.UserCacheDir()/spac/schedules (~/.cache/spac/schedules on Linux).
func DefaultCacheDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("schedule cache: %w (choose a directory for it)", err)
	}
	return filepath.Join(d, "spac", "schedules"), nil
}

// DefaultMaxBytes bounds the cache unless the caller chooses otherwise:
// 2 GiB. A schedule file takes about 30 bytes per nonzero (the job array,
// the nonzeros in schedule order, the block-local addresses and unique
// lists), so 2 GiB hold the schedules of some 70M nonzeros: the largest
// matrix of the paper (circuit5M, 59.5M) at one block size, or the other
// seven at three block sizes each, which is what a sweep of 'spac spmv'
// or scripts/gpu-bench.sh reuses; and it is a small share of a disk.
const DefaultMaxBytes = 2 << 30

// Cache keeps built schedules on disk, one file per matrix structure and
// set of parameters, so that the next run on the same matrix skips the
// partitioner. An entry that cannot be read is removed with a warning: the
// cache never turns a run into a failure.
//
// The cache is bounded: after every Store the least recently used entries
// are removed until the files add up to at most MaxBytes. Load marks an
// entry used by setting its modification time (access times are not
// reliable: most file systems are mounted noatime or relatime), so the
// order is that of the last store or hit. Processes sharing a directory
// may evict each other's entries; a reader that loses its entry misses.
type Cache struct {
	Dir  string
	Warn io.Writer // where warnings go; nil discards them
	// MaxBytes bounds the size of the cache's files; 0 or less: no bound.
	MaxBytes int64
}

// cacheExt names the cache's files; Clear removes only these.
const cacheExt = ".sched"

// Key is the name of the entry for a matrix with the given structure
// fingerprint and options (block size, budget, value size, overflow policy
// and every parameter, in order, defaults filled in): the xxhash64 of all
// of them.
func Key(fingerprint uint64, opts Options) string {
	if r, err := opts.resolve(); err == nil {
		opts = r
	}
	h := xxhash.New()
	fmt.Fprintf(h, "spac-schedule-cache v%d\nfingerprint=%016x\nblock-size=%d\nbudget=%d\nvalue-bytes=%d\noverflow=%s\n",
		Version, fingerprint, opts.BlockSize, opts.Budget, opts.ValueBytes, opts.Overflow)
	h.WriteString(encodeParams(opts.Params))
	return fmt.Sprintf("%016x", h.Sum64())
}

func (c *Cache) path(fingerprint uint64, opts Options) string {
	return filepath.Join(c.Dir, Key(fingerprint, opts)+cacheExt)
}

func (c *Cache) warnf(format string, a ...any) {
	if c.Warn != nil {
		fmt.Fprintf(c.Warn, "spac: warning: "+format+"\n", a...)
	}
}

// Load returns the cached schedule of coo under opts, if there is one. The
// values are refreshed from coo (the key covers only the structure). A
// damaged entry, or one made with other parameters, is removed with a
// warning and reported as a miss. A nil cache (caching off) always misses.
func (c *Cache) Load(coo *matrices.COO, opts Options) (*Schedule, bool) {
	if c == nil {
		return nil, false
	}
	opts, err := opts.resolve()
	if err != nil {
		return nil, false
	}
	path := c.path(StructureFingerprint(coo), opts)
	if _, err := os.Stat(path); err != nil {
		return nil, false
	}
	s, err := ReadFile(path, coo)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false // evicted by another process since the Stat
	}
	if err == nil && !s.madeWith(opts) {
		err = fmt.Errorf("it was made with other parameters")
	}
	if err != nil {
		c.warnf("ignoring cache entry %s: %v (removed; the schedule is built again)", path, err)
		if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			c.warnf("removing %s: %v", path, rerr)
		}
		return nil, false
	}
	s.refreshValues(coo)
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.warnf("marking cache entry %s used: %v (it may be evicted early)", path, err)
	}
	return s, true
}

// madeWith reports whether s was built with opts (resolved).
func (s *Schedule) madeWith(opts Options) bool {
	return s.BlockSize == opts.BlockSize && s.Budget == opts.Budget && s.ValueBytes == opts.ValueBytes &&
		s.Policy == opts.Overflow && slices.Equal(s.Params, opts.Params)
}

// refreshValues takes the values from coo, in schedule order.
func (s *Schedule) refreshValues(coo *matrices.COO) {
	vals, err := coo.RealValues()
	if err != nil {
		s.Vals = nil
		return
	}
	s.Vals = make([]float64, len(s.NewSchedule))
	for tid, e := range s.NewSchedule {
		if e >= 0 {
			s.Vals[tid] = vals[e]
		}
	}
}

// Store saves s under the key of its fingerprint and options, atomically;
// a nil Cache (no cache) stores nothing.
func (c *Cache) Store(s *Schedule) error {
	if c == nil {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return fmt.Errorf("schedule cache: %w", err)
	}
	opts := Options{BlockSize: s.BlockSize, Budget: s.Budget, ValueBytes: s.ValueBytes, Overflow: s.Policy, Params: s.Params}
	path := c.path(s.Fingerprint, opts)
	if err := WriteFile(path, s); err != nil {
		return err
	}
	return c.evict(path)
}

// entry is a cache file, for eviction.
type entry struct {
	path string
	size int64
	used time.Time
}

// entries lists the cache's schedule files; a missing directory is empty.
func (c *Cache) entries() ([]entry, error) {
	dirents, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("schedule cache: %w", err)
	}
	var es []entry
	for _, d := range dirents {
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), cacheExt) {
			continue
		}
		if fi, err := d.Info(); err == nil { // else removed meanwhile
			es = append(es, entry{path: filepath.Join(c.Dir, d.Name()), size: fi.Size(), used: fi.ModTime()})
		}
	}
	return es, nil
}

// evict removes the least recently used entries until the cache's files
// add up to at most MaxBytes. The entry just stored (kept) goes last: when
// it alone exceeds the bound it is removed too, and the error says so.
func (c *Cache) evict(kept string) error {
	if c.MaxBytes <= 0 {
		return nil
	}
	es, err := c.entries()
	if err != nil {
		return err
	}
	var total int64
	for i := range es {
		total += es[i].size
		if es[i].path == kept {
			es[i].used = time.Now().Add(time.Hour) // after every other
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Or(a.used.Compare(b.used), strings.Compare(a.path, b.path)) })
	for _, e := range es {
		if total <= c.MaxBytes {
			break
		}
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("schedule cache: evicting %s: %w", e.path, err)
		}
		total -= e.size
		if e.path == kept {
			return fmt.Errorf("schedule cache: the schedule takes %d bytes, more than the cache's bound of %d (not kept)", e.size, c.MaxBytes)
		}
	}
	return nil
}

// Size returns the bytes of the cache's entries and their number.
func (c *Cache) Size() (bytes int64, n int, err error) {
	es, err := c.entries()
	for _, e := range es {
		bytes += e.size
	}
	return bytes, len(es), err
}

// Clear removes every cached schedule (and temporary files an interrupted
// write left) from the cache directory and returns how many files it
// removed. Other files are left alone. A missing directory is empty.
func (c *Cache) Clear() (int, error) {
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("clearing the schedule cache: %w", err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !(strings.HasSuffix(name, cacheExt) || (strings.HasPrefix(name, ".") && strings.Contains(name, cacheExt+".tmp-"))) {
			continue
		}
		if err := os.Remove(filepath.Join(c.Dir, name)); err != nil {
			return n, fmt.Errorf("clearing the schedule cache: %w", err)
		}
		n++
	}
	return n, nil
}
