package schedule

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/spac-gpu/spac/matrices"
)

// CacheDirEnv overrides the cache directory (tests, shared machines).
const CacheDirEnv = "SPAC_CACHE_DIR"

// DefaultCacheDir is $SPAC_CACHE_DIR when set, else
// os.UserCacheDir()/spac/schedules (~/.cache/spac/schedules on Linux).
func DefaultCacheDir() (string, error) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("schedule cache: %w (set %s to choose a directory)", err, CacheDirEnv)
	}
	return filepath.Join(d, "spac", "schedules"), nil
}

// Cache keeps built schedules on disk, one file per matrix structure and
// set of parameters, so that the next run on the same matrix skips the
// partitioner. An entry that cannot be read is removed with a warning: the
// cache never turns a run into a failure.
type Cache struct {
	Dir  string
	Warn io.Writer // where warnings go; nil discards them
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
	return WriteFile(c.path(s.Fingerprint, opts), s)
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
