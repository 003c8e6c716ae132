// Package pipeline is the one way the command and the applications go from
// an input to a schedule: read the matrix or graph (Read), build its
// locality graph (Input.Locality; Load does both), partition its tasks
// (Partition, PartitionGraph) and plan the schedule of the partition,
// through the schedule cache (Schedule). The command keeps only its flags,
// its output and its exit codes; what a step does, and in which order, is
// decided here once.
//
// # Contract
//
// Every step is deterministic: the same input and configuration give the
// same partition and byte-for-byte the same schedule, whether it comes
// from the partitioner or from the cache (Schedule returns what a cache
// hit holds, with the values refreshed from the input). A partition is
// checked (spac.Check: every task in a part, no part over the cap) before
// it is returned, so that no caller evaluates or schedules an invalid one.
//
// Defaults are the command line's: the locality model is graph for inputs
// read from graph files (edge lists, METIS) and spmv for matrices, unless
// ReadConfig.Model says otherwise; symmetric storage is expanded unless
// ReadConfig.AsStored. The cache key (Params) holds the method, the seed,
// the model, as-stored and, for SPAC alone, its own settings and revision,
// so that a baseline's entry does not depend on settings it ignores.
//
// # Cancellation and progress
//
// Every step takes a context; a canceled context stops the partitioner at
// its next check (METIS included, see package metis) and Schedule returns
// the context's error without storing anything. Progress goes to a
// *progress.Reporter, which draws on a terminal only; a nil Reporter is
// silent. Warnings (a cache entry that cannot be used or stored) go to the
// cache's Warn writer, whatever the Reporter.
//
// The package reads no environment: the command passes what it read
// ($SPAC_CACHE_DIR and the rest) as options.
package pipeline

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// ReadConfig says how to read an input.
type ReadConfig struct {
	// Read are the readers' options (format, edge-list conventions, the
	// largest dimension); Read.Progress is set from Progress.
	Read matrices.ReadOptions
	// AsStored keeps only the stored triangle of a symmetric matrix
	// instead of expanding it to both.
	AsStored bool
	// Model is the locality model; nil is the default (graph for graph
	// files, spmv for matrices).
	Model *matrices.Model
	// Generate accepts gen:SPEC[@SCALE] inputs ('spac gen' presets and
	// kinds), generated with GenSeed, presets scaled by GenScale (or the
	// SCALE after @).
	Generate bool
	GenScale float64
	GenSeed  int64
	Progress *progress.Reporter
	// Notice receives what the reader did to the input that changes it
	// (duplicate entries summed or merged); nil: nothing is said. Unlike
	// progress it is not for terminals only: spac sends it to stderr.
	Notice io.Writer
}

// Input is a matrix as read, the entries used, and its locality graph once
// built.
type Input struct {
	Matrix *matrices.COO // as read
	// Used are the entries partitioned and multiplied: Matrix expanded to
	// both triangles, or Matrix itself when AsStored (edge e is entry e).
	Used     *matrices.COO
	AsStored bool
	Model    matrices.Model
	// Graph and Inc are the locality graph and its incidence lists, nil
	// until Locality (Load calls it).
	Graph *matrices.Graph
	Inc   *matrices.Incidence
	// ReadTime is the time Load took: reading and building the graph.
	ReadTime time.Duration
	// Generated is set for a gen: input.
	Generated bool

	mu sync.Mutex
}

// Load reads path and builds its locality graph.
func Load(ctx context.Context, path string, cfg ReadConfig) (*Input, error) {
	start := time.Now()
	in, err := Read(ctx, path, cfg)
	if err != nil {
		return nil, err
	}
	if err := in.Locality(); err != nil {
		return nil, err
	}
	in.ReadTime = time.Since(start)
	return in, nil
}

// Read reads path (or generates a gen: input) and resolves the model; it
// does not build the locality graph, which a run served from the schedule
// cache never needs.
func Read(ctx context.Context, path string, cfg ReadConfig) (*Input, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var m *matrices.COO
	var err error
	spec, generated := strings.CutPrefix(path, "gen:")
	if generated = generated && cfg.Generate; generated {
		m, err = generateInput(spec, cfg)
	} else {
		opt := cfg.Read
		opt.Progress = cfg.Progress.Writer()
		opt.Notice = cfg.Notice
		m, err = matrices.Open(path, opt)
	}
	if err != nil {
		return nil, err
	}
	in := &Input{Matrix: m, Used: m, AsStored: cfg.AsStored, Generated: generated}
	if !cfg.AsStored {
		in.Used = m.Expanded()
	}
	in.Model = resolveModel(m, cfg.Model)
	return in, ctx.Err()
}

// resolveModel applies the default model: graph for what was read from a
// graph file (whose adjacency matrix is square by construction), spmv for
// matrices.
func resolveModel(m *matrices.COO, model *matrices.Model) matrices.Model {
	switch {
	case model != nil:
		return *model
	case m.Format == matrices.FormatEdgeList || m.Format == matrices.FormatMETIS:
		return matrices.ModelGraph
	}
	return matrices.ModelSpMV
}

// generateInput makes a gen:SPEC[@SCALE] input, named gen:SPEC[@SCALE].
func generateInput(spec string, cfg ReadConfig) (*matrices.COO, error) {
	scale := cfg.GenScale
	if name, s, ok := strings.Cut(spec, "@"); ok {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 {
			return nil, &ConfigError{fmt.Errorf("gen:%s: the scale after @ must be a positive number", spec)}
		}
		spec, scale = name, v
	}
	m, err := Generate(spec, scale, cfg.GenSeed)
	if err != nil {
		return nil, err
	}
	m.Name = "gen:" + spec
	if scale != 1 {
		m.Name += "@" + strconv.FormatFloat(scale, 'g', -1, 64)
	}
	return m, nil
}

// Generate makes a preset (scaled) or a generator spec KIND:key=value,...
// A name that is neither is a ConfigError.
func Generate(name string, scale float64, seed int64) (*matrices.COO, error) {
	if !strings.Contains(name, ":") {
		for _, p := range matrices.PresetNames() {
			if p == name {
				return matrices.Preset(name, scale, seed)
			}
		}
	}
	spec, err := matrices.ParseGenSpec(name)
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("%w (%q is not a preset either; 'spac gen --list' shows the presets and kinds)", err, name)}
	}
	return spec.Generate(seed)
}

// ConfigError is an error in what the caller asked for (a bad gen: spec),
// rather than in the input's data: the command exits 2 on it.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// Locality builds the locality graph of the entries used, once; it is safe
// to call from several goroutines.
func (in *Input) Locality() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.Graph != nil {
		return nil
	}
	g, inc, err := matrices.BuildLocality(in.Used, in.Model)
	if err != nil {
		return err
	}
	in.Graph, in.Inc = g, inc
	return nil
}

// DropEntries keeps what partitioning reads, the locality graph (built
// if need be), and lets go of the entries the graph does not share: the
// stored half of a symmetric matrix, whose expansion the graph's rows are,
// and under the spmv model the columns, which it numbers after the rows.
// That is 4 to 8 bytes a task of the partition command's peak memory, which
// --memory-per-task bounds (issue 19). Matrix and Used keep their name,
// dimensions, field and symmetry, without entries; Graph.Entry gives edge
// e's row and column. Call Describe before: it counts the entries.
func (in *Input) DropEntries() error {
	if err := in.Locality(); err != nil {
		return err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	same := in.Used == in.Matrix
	in.Matrix, in.Used = withoutEntries(in.Matrix), withoutEntries(in.Used)
	if same { // Used is Matrix as stored (AsStored, or a general matrix)
		in.Used = in.Matrix
	}
	return nil
}

// withoutEntries is m's description without its entries.
func withoutEntries(m *matrices.COO) *matrices.COO {
	return &matrices.COO{Name: m.Name, NRows: m.NRows, NCols: m.NCols, Field: m.Field, Symmetry: m.Symmetry, Format: m.Format, Duplicates: m.Duplicates}
}

// Describe is a line about the input: dimensions, entries and, once built,
// the locality graph.
func (in *Input) Describe() string {
	m := in.Matrix
	s := fmt.Sprintf("%s: %d x %d, %d stored entries (%s %s)", m.Name, m.NRows, m.NCols, m.NNZ(), m.Field, m.Symmetry)
	if in.Used != m {
		s += fmt.Sprintf(", %d after expanding the symmetric storage", in.Used.NNZ())
	}
	if in.Graph != nil {
		s += fmt.Sprintf("; locality graph (%s): %d vertices, %d edges", in.Graph.Model, in.Graph.NumVertices, in.Graph.NumEdges())
	}
	return s
}

// Partition partitions the input's locality graph (built if need be) with
// method under opts (K and Cap set, see spac.Resolve) and evaluates the
// result; see PartitionGraph.
func Partition(ctx context.Context, in *Input, method spac.Method, opts spac.Options, prog *progress.Reporter) (spac.Partition, spac.Metrics, error) {
	if err := in.Locality(); err != nil {
		return spac.Partition{}, spac.Metrics{}, err
	}
	return PartitionGraph(ctx, in.Matrix.Name, in.Graph, in.Inc, method, opts, prog)
}

// PartitionGraph partitions g (named name in errors) with method, shows
// the method's stages on prog, checks the partition (spac.Check under
// opts.Cap) and evaluates it: the metrics carry the method's name, the cap
// and the partitioner's time.
func PartitionGraph(ctx context.Context, name string, g *matrices.Graph, inc *matrices.Incidence, method spac.Method, opts spac.Options, prog *progress.Reporter) (spac.Partition, spac.Metrics, error) {
	what := method.Name()
	if name != "" {
		what += " on " + name
	}
	start := time.Now()
	stages := prog.Stages(method.Name())
	if stages != nil {
		opts.Progress = stages.Begin
	}
	p, err := method.Partition(ctx, g, inc, opts)
	elapsed := time.Since(start)
	stages.End(err == nil, elapsed)
	if err != nil {
		return p, spac.Metrics{}, fmt.Errorf("%s: %w", what, err)
	}
	if err := spac.Check(g, p, opts.Cap); err != nil {
		return p, spac.Metrics{}, fmt.Errorf("%s produced an invalid partition: %w", what, err)
	}
	met := spac.Evaluate(g, inc, p)
	met.Method, met.Cap, met.Time = method.Name(), opts.Cap, elapsed
	return p, met, nil
}
