package main

// What spmv.go at b9addaf calls, kept until its move to the pipeline
// (readSpMV, pipeline.Schedule) is committed with the report changes in the
// same file; then this file goes.

import (
	"context"
	"io"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/schedule"
	"github.com/spac-gpu/spac/spac"
)

type input = pipeline.Input

func progressTo(quiet bool) io.Writer {
	if w := (&inputFlags{quiet: quiet}).progress().Writer(); w != nil {
		return w
	}
	return io.Discard
}

func (f *inputFlags) read(path string) (m, used *matrices.COO, err error) {
	in, err := f.open(context.Background(), path)
	if err != nil {
		return nil, nil, err
	}
	return in.Matrix, in.Used, nil
}

func generate(name string, scale float64, seed int64) (*matrices.COO, error) {
	return usage(pipeline.Generate(name, scale, seed))
}

func localityInput(m, used *matrices.COO, model matrices.Model) (*input, error) {
	in := &pipeline.Input{Matrix: m, Used: used, Model: model}
	return in, in.Locality()
}

func scheduleParams(method string, in *inputFlags, pf *partFlags, model matrices.Model) []schedule.Param {
	pc, _ := pf.config(method)
	return pipeline.Params(pc, &pipeline.Input{Model: model, AsStored: in.asStored})
}

func buildSchedule(ctx context.Context, method string, data *input, pf *partFlags, sopts schedule.Options, _ io.Writer) (*schedule.Schedule, spac.Metrics, error) {
	pc, err := pf.config(method)
	if err != nil {
		return nil, spac.Metrics{}, err
	}
	s, prov, err := pipeline.Schedule(ctx, data, pc, sopts, nil, (&inputFlags{}).progress())
	return s, prov.Metrics, err
}

func storeSchedule(cache *schedule.Cache, s *schedule.Schedule, warn io.Writer) {
	if err := cache.Store(s); err != nil {
		io.WriteString(warn, "spac: warning: the schedule was not cached: "+err.Error()+"\n")
	}
}
