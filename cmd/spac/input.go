package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/matrices"
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
}

func (f *inputFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.format, "input-format", "auto", "input format: auto, mm (Matrix Market), edgelist or metis")
	fl.StringVar(&f.model, "model", "", "locality graph: spmv (a vertex per row and per column, the paper's model) or graph (the matrix as a graph's adjacency); default spmv for matrices, graph for graph files")
	fl.BoolVar(&f.asStored, "as-stored", false, "keep only the stored triangle of a symmetric matrix (how the paper counts: cant = 2,034,917 edges) instead of expanding it to both triangles")
	fl.BoolVar(&f.directed, "directed", false, "edge lists: read each line as a directed edge (by default an edge list is undirected)")
	fl.StringVar(&f.base, "base", "auto", "edge lists: vertex ids are 0- or 1-based: auto, 0 or 1")
	fl.StringVar(&f.header, "header", "auto", `edge lists: the first line is an "n m" header: auto, yes or no`)
	fl.BoolVar(&f.quiet, "quiet", false, "no progress output on standard error")
	fl.IntVar(&f.maxDim, "max-dimension", 0, "largest number of rows, columns or vertices of a Matrix Market file or an edge list (default: 64 per entry + 2^20, so that a nearly empty matrix declaring a billion rows is refused instead of taking gigabytes)")
}

// input is a loaded matrix with its locality graph.
type input struct {
	matrix   *matrices.COO // as read
	used     *matrices.COO // expanded or as stored: edge e is entry e of this
	graph    *matrices.Graph
	inc      *matrices.Incidence
	readTime time.Duration
}

func (f *inputFlags) readOptions() (matrices.ReadOptions, error) {
	var opt matrices.ReadOptions
	format, err := matrices.ParseFormat(f.format)
	if err != nil {
		return opt, usageError{err}
	}
	opt.Format = format
	opt.MaxDimension = f.maxDim
	opt.EdgeList.Directed = f.directed
	if opt.EdgeList.Base, err = matrices.ParseIDBase(f.base); err != nil {
		return opt, usageError{fmt.Errorf("--base: %w", err)}
	}
	if opt.EdgeList.Header, err = matrices.ParseHeaderMode(f.header); err != nil {
		return opt, usageError{fmt.Errorf("--header: %w", err)}
	}
	if !f.quiet {
		opt.Progress = os.Stderr
	}
	return opt, nil
}

// load reads path and builds its locality graph.
func (f *inputFlags) load(path string) (*input, error) {
	start := time.Now()
	m, used, err := f.read(path)
	if err != nil {
		return nil, err
	}
	model, err := f.resolveModel(m)
	if err != nil {
		return nil, err
	}
	in, err := localityInput(m, used, model)
	if err != nil {
		return nil, err
	}
	in.readTime = time.Since(start)
	return in, nil
}

// read reads path: the matrix as read, and the entries used (expanded
// unless --as-stored).
func (f *inputFlags) read(path string) (m, used *matrices.COO, err error) {
	opt, err := f.readOptions()
	if err != nil {
		return nil, nil, err
	}
	m, err = matrices.Open(path, opt)
	if err != nil {
		return nil, nil, err
	}
	used = m
	if !f.asStored {
		used = m.Expanded()
	}
	return m, used, nil
}

// localityInput builds the locality graph of used (m as read) under model.
func localityInput(m, used *matrices.COO, model matrices.Model) (*input, error) {
	g, inc, err := matrices.BuildLocality(used, model)
	if err != nil {
		return nil, err
	}
	return &input{matrix: m, used: used, graph: g, inc: inc}, nil
}

// resolveModel applies the default model: graph for what was read from a
// graph file (whose adjacency matrix is square by construction), spmv for
// matrices.
func (f *inputFlags) resolveModel(m *matrices.COO) (matrices.Model, error) {
	if f.model != "" {
		model, err := matrices.ParseModel(f.model)
		if err != nil {
			return 0, usageError{err}
		}
		return model, nil
	}
	if m.Format == matrices.FormatEdgeList || m.Format == matrices.FormatMETIS {
		return matrices.ModelGraph, nil
	}
	return matrices.ModelSpMV, nil
}

// progressTo returns where progress goes: standard error unless quiet.
func progressTo(quiet bool) io.Writer {
	if quiet {
		return io.Discard
	}
	return os.Stderr
}

func describe(in *input) string {
	m := in.matrix
	s := fmt.Sprintf("%s: %d x %d, %d stored entries (%s %s)", m.Name, m.NRows, m.NCols, m.NNZ(), m.Field, m.Symmetry)
	if in.used != m {
		s += fmt.Sprintf(", %d after expanding the symmetric storage", in.used.NNZ())
	}
	return s + fmt.Sprintf("; locality graph (%s): %d vertices, %d edges", in.graph.Model, in.graph.NumVertices, in.graph.NumEdges())
}
