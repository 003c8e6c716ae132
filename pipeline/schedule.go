package pipeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

// PartitionConfig is how a schedule's partition is made: the method's
// name and its settings (seed, and SPAC's formulation, order, weights,
// imbalance, coarsening and polish). K and Cap are set from the block
// size: a block runs one part.
type PartitionConfig struct {
	Method   string
	Settings spac.Options
}

// Params records the method and every setting that changes the partition,
// in a fixed order: they go into the schedule file and the cache key.
// SPAC's own settings count only for SPAC.
func Params(pc PartitionConfig, in *Input) []schedule.Param {
	o := pc.Settings
	ps := []schedule.Param{
		{Key: "method", Value: pc.Method},
		{Key: "seed", Value: strconv.FormatInt(o.Seed, 10)},
		{Key: "model", Value: in.Model.String()},
		{Key: "as-stored", Value: strconv.FormatBool(in.AsStored)},
	}
	if pc.Method == "spac" {
		ps = append(ps,
			schedule.Param{Key: "formulation", Value: o.Formulation.String()},
			schedule.Param{Key: "order", Value: o.Order.String()},
			schedule.Param{Key: "dominant-weight", Value: strconv.Itoa(int(o.DominantWeight))},
			schedule.Param{Key: "imbalance", Value: strconv.FormatFloat(o.Imbalance, 'g', -1, 64)},
			schedule.Param{Key: "coarsen", Value: strconv.Itoa(o.Coarsen)},
			schedule.Param{Key: "polish", Value: strconv.Itoa(o.Polish)},
			schedule.Param{Key: "refine", Value: strconv.Itoa(o.Refine)},
			schedule.Param{Key: "starts", Value: strings.Join(o.Starts, ",")},
			schedule.Param{Key: "memory-per-task", Value: strconv.FormatFloat(o.MemoryPerTask, 'g', -1, 64)},
			schedule.Param{Key: "revision", Value: spac.Revision},
		)
	}
	if pc.Method == "hep" {
		ps = append(ps, schedule.Param{Key: "tau", Value: strconv.FormatFloat(o.HEPTau(), 'g', -1, 64)})
	}
	return ps
}

// Provenance says where a schedule came from.
type Provenance struct {
	// Cached is set when the schedule came from the cache in CacheDir.
	Cached   bool
	CacheDir string
	// Metrics are the partition's (zero when cached); BuildTime is the
	// time schedule.Build took.
	Metrics   spac.Metrics
	BuildTime time.Duration
}

// withParams is sopts with the partition's parameters.
func withParams(in *Input, pc PartitionConfig, sopts schedule.Options) schedule.Options {
	sopts.Params = Params(pc, in)
	return sopts
}

// Lookup is the schedule of in under pc and sopts from the cache alone.
func Lookup(in *Input, pc PartitionConfig, sopts schedule.Options, cache *schedule.Cache) (*schedule.Schedule, bool) {
	return cache.Load(in.Used, withParams(in, pc, sopts))
}

// Schedule is the schedule of in for sopts (sopts.BlockSize tasks per
// block; Params are set here) with the partition of pc: from the cache
// when it holds one, else partitioned, built and stored (a failure to
// store only warns, on cache.Warn). A nil cache neither finds nor stores.
// A line about the schedule goes to prog.
func Schedule(ctx context.Context, in *Input, pc PartitionConfig, sopts schedule.Options, cache *schedule.Cache, prog *progress.Reporter) (*schedule.Schedule, Provenance, error) {
	sopts = withParams(in, pc, sopts)
	if s, ok := cache.Load(in.Used, sopts); ok {
		prog.Printf("  schedule %s, B=%d from the cache in %s", pc.Method, sopts.BlockSize, cache.Dir)
		return s, Provenance{Cached: true, CacheDir: cache.Dir}, nil
	}
	method, err := spac.Lookup(pc.Method)
	if err != nil {
		return nil, Provenance{}, &ConfigError{err}
	}
	if err := in.Locality(); err != nil {
		return nil, Provenance{}, err
	}
	opts := pc.Settings
	if opts.K, opts.Cap, err = spac.Resolve(in.Graph.NumEdges(), 0, sopts.BlockSize); err != nil {
		return nil, Provenance{}, err
	}
	p, met, err := Partition(ctx, in, method, opts, prog)
	if err != nil {
		return nil, Provenance{}, err
	}
	start := time.Now()
	s, err := schedule.Build(in.Used, p, sopts)
	if err != nil {
		return nil, Provenance{}, err
	}
	if err := ctx.Err(); err != nil {
		return nil, Provenance{}, err
	}
	prov := Provenance{Metrics: met, BuildTime: time.Since(start)}
	prog.Printf("  schedule %s, B=%d: %d blocks, %d vertex copies, partitioned in %.2f s", pc.Method, sopts.BlockSize, s.NumBlocks(), met.Copies, met.Time.Seconds())
	if err := cache.Store(s); err != nil && cache.Warn != nil {
		fmt.Fprintf(cache.Warn, "spac: warning: the schedule was not cached: %v\n", err)
	}
	return s, prov, nil
}
