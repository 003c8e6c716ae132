package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
)

// inputFlags are the flags of every command that reads a matrix or graph.
type inputFlags struct {
	format   string
	model    string
	asStored bool
	directed bool
	base     string
	header   string
	quiet    bool
	maxDim   int
	// genSeed generates gen: inputs: 1, or the command's --seed where it
	// partitions, so that 'spac partition gen:X --seed S' partitions the
	// matrix 'spac spmv gen:X --seed S' multiplies and caches a schedule of.
	genSeed int64
}

func (f *inputFlags) register(c *cobra.Command) {
	f.genSeed = 1
	fl := c.Flags()
	fl.StringVar(&f.format, "input-format", "auto", "input format: auto, mm (Matrix Market), edgelist or metis")
	fl.StringVar(&f.model, "model", "", "locality graph: spmv (a vertex per row and per column, the paper's model) or graph (the matrix as a graph's adjacency); default spmv for matrices, graph for graph files")
	fl.BoolVar(&f.asStored, "as-stored", false, "keep only the stored triangle of a symmetric matrix (how the paper counts: cant = 2,034,917 edges) instead of expanding it to both triangles")
	fl.BoolVar(&f.directed, "directed", false, "edge lists: read each line as a directed edge (by default an edge list is undirected)")
	fl.StringVar(&f.base, "base", "auto", "edge lists: vertex ids are 0- or 1-based: auto, 0 or 1")
	fl.StringVar(&f.header, "header", "auto", `edge lists: the first line is an "n m" header: auto, yes or no`)
	registerQuiet(c, &f.quiet)
	fl.IntVar(&f.maxDim, "max-dimension", 0, "largest number of rows, columns or vertices of a Matrix Market file or an edge list (default: 64 per entry + 2^20, so that a nearly empty matrix declaring a billion rows is refused instead of taking gigabytes)")
}

// registerQuiet is --quiet, the same on every command that shows progress.
func registerQuiet(c *cobra.Command, quiet *bool) {
	c.Flags().BoolVar(quiet, "quiet", false, "no progress on standard error (progress is drawn only when standard error is a terminal)")
}

// progress is where the command's progress goes.
func (f *inputFlags) progress() *progress.Reporter { return progress.Stderr(f.quiet) }

// config turns the flags into the pipeline's read configuration; a bad
// value is a usage error.
func (f *inputFlags) config() (pipeline.ReadConfig, error) {
	var cfg pipeline.ReadConfig
	format, err := matrices.ParseFormat(f.format)
	if err != nil {
		return cfg, usageError{err}
	}
	cfg.Read.Format = format
	cfg.Read.MaxDimension = f.maxDim
	cfg.Read.EdgeList.Directed = f.directed
	if cfg.Read.EdgeList.Base, err = matrices.ParseIDBase(f.base); err != nil {
		return cfg, usageError{fmt.Errorf("--base: %w", err)}
	}
	if cfg.Read.EdgeList.Header, err = matrices.ParseHeaderMode(f.header); err != nil {
		return cfg, usageError{fmt.Errorf("--header: %w", err)}
	}
	if f.model != "" {
		model, err := matrices.ParseModel(f.model)
		if err != nil {
			return cfg, usageError{err}
		}
		cfg.Model = &model
	}
	cfg.AsStored = f.asStored
	cfg.Generate, cfg.GenSeed, cfg.GenScale = true, f.genSeed, 1
	cfg.Progress = f.progress()
	cfg.Notice = os.Stderr
	return cfg, nil
}

// load reads path and builds its locality graph.
func (f *inputFlags) load(ctx context.Context, path string) (*pipeline.Input, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	return usage(pipeline.Load(ctx, path, cfg))
}

// open reads path without building the locality graph.
func (f *inputFlags) open(ctx context.Context, path string) (*pipeline.Input, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	return usage(pipeline.Read(ctx, path, cfg))
}

// genInputs is what every command that reads a matrix says of gen: inputs.
const genInputs = `IN may also be gen:PRESET or gen:KIND:k=v,... for a generated matrix
('spac gen --list'), optionally gen:PRESET@SCALE.`

// readSpMV reads path (or a gen: input) for a product: the whole matrix
// (symmetric storage expanded) under the spmv model.
func (f *inputFlags) readSpMV(ctx context.Context, path string, seed int64, genScale float64) (*pipeline.Input, error) {
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	spmv := matrices.ModelSpMV
	cfg.Model, cfg.AsStored = &spmv, false
	cfg.Generate, cfg.GenSeed, cfg.GenScale = true, seed, genScale
	return usage(pipeline.Read(ctx, path, cfg))
}

// usage makes the pipeline's configuration errors usage errors.
func usage[T any](v T, err error) (T, error) {
	var ce *pipeline.ConfigError
	if errors.As(err, &ce) {
		err = usageError{err}
	}
	return v, err
}
