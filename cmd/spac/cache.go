package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/schedule"
)

// environment is what the command reads from the environment, once, when
// the root command is made; the packages below read none of it.
type environment struct {
	cacheDir     string // $SPAC_CACHE_DIR: the schedule cache's directory
	cacheMaxSize string // $SPAC_CACHE_MAX_SIZE: its bound
	hugePages    bool   // $SPAC_HUGEPAGES: not "off" (transform.SetHugePages)
	ptxDir       string // $SPAC_PTX_DIR: PTX files that replace the embedded kernels (gpu.SetPTXDir)
}

const (
	cacheDirEnv     = "SPAC_CACHE_DIR"
	cacheMaxSizeEnv = "SPAC_CACHE_MAX_SIZE"
	hugePagesEnv    = "SPAC_HUGEPAGES"
	ptxDirEnv       = "SPAC_PTX_DIR"
)

func readEnvironment(getenv func(string) string) environment {
	return environment{cacheDir: getenv(cacheDirEnv), cacheMaxSize: getenv(cacheMaxSizeEnv), hugePages: getenv(hugePagesEnv) != "off", ptxDir: getenv(ptxDirEnv)}
}

// cacheFlags are the schedule cache's flags, for the commands that build
// schedules (schedule, spmv, cg).
type cacheFlags struct {
	noCache bool
	dir     string
	maxSize string
	limit   int64 // maxSize in bytes, once checked
}

// maxCacheBytes is the largest --cache-max-size.
const maxCacheBytes = 1 << 40

func (f *cacheFlags) register(c *cobra.Command, env environment) {
	fl := c.Flags()
	maxSize := env.cacheMaxSize
	if maxSize == "" {
		maxSize = formatBytes(schedule.DefaultMaxBytes)
	}
	fl.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the schedule cache")
	fl.StringVar(&f.dir, "cache-dir", env.cacheDir, "directory of the schedule cache (default $"+cacheDirEnv+", else ~/.cache/spac/schedules)")
	fl.StringVar(&f.maxSize, "cache-max-size", maxSize, "bound on the schedule cache, 1MiB to 1TiB (KiB, MiB, GiB, TiB; all binary; default $"+cacheMaxSizeEnv+", else 2GiB): the least recently used schedules are removed beyond it")
}

// check validates the flags (a usage error), before any work; open needs
// it first.
func (f *cacheFlags) check() error {
	var err error
	f.limit, err = bytesIn("cache-max-size", f.maxSize, 1<<20, maxCacheBytes, "below 1MiB not even the schedule of a mid-sized matrix fits")
	return err
}

// open is the schedule cache (bounded by the --cache-max-size that check
// read), or nil under --no-cache or, with a warning, when there is no cache
// directory.
func (f *cacheFlags) open(warn io.Writer) *schedule.Cache {
	if f.noCache {
		return nil
	}
	dir, err := schedule.DefaultCacheDir(f.dir)
	if err != nil {
		fmt.Fprintf(warn, "spac: warning: %v (--cache-dir or $%s); running without the schedule cache\n", err, cacheDirEnv)
		return nil
	}
	return &schedule.Cache{Dir: dir, Warn: warn, MaxBytes: f.limit}
}

// clear empties the cache directory and says so on w.
func (f *cacheFlags) clear(w io.Writer) error {
	dir, err := schedule.DefaultCacheDir(f.dir)
	if err != nil {
		return err
	}
	n, err := (&schedule.Cache{Dir: dir}).Clear()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "removed %d cached schedules from %s\n", n, dir)
	return nil
}
