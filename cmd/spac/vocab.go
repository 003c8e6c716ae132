package main

import (
	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/enum"
)

// The command's own enumerations, each named in one table (the packages
// below name theirs: precision, schedule.Overflow, transform's formulation
// and order, the SpMV kernels, the partitioning methods). Every flag that
// takes one of them parses it when the command line is read, so that a
// wrong name is a usage error (exit status 2) that lists the names.

// outputFormat is how a command prints its results (--format).
type outputFormat uint8

const (
	formatTable outputFormat = iota
	formatCSV
	formatJSON
)

var outputFormats = enum.New("output format",
	enum.Name[outputFormat]{Value: formatTable, Name: "table"},
	enum.Name[outputFormat]{Value: formatCSV, Name: "csv"},
	enum.Name[outputFormat]{Value: formatJSON, Name: "json"},
)

func (f outputFormat) String() string { return outputFormats.String(f) }

// enumFlag is a flag whose value is one name of a table, or of the subset
// allowed.
type enumFlag[T comparable] struct {
	v       *T
	table   *enum.Table[T]
	allowed *enum.Table[T]
}

func (f *enumFlag[T]) String() string { return f.table.String(*f.v) }
func (f *enumFlag[T]) Type() string   { return "string" }
func (f *enumFlag[T]) Set(s string) error {
	v, err := f.allowed.Parse(s)
	if err == nil {
		*f.v = v
	}
	return err
}

// subset is the table of the given values of t, in their order.
func subset[T comparable](t *enum.Table[T], values ...T) *enum.Table[T] {
	var names []enum.Name[T]
	for _, v := range values {
		names = append(names, enum.Name[T]{Value: v, Name: t.String(v)})
	}
	return enum.New(t.What, names...)
}

// registerFormat adds --format/-f, taking the given formats; the first is
// the default.
func registerFormat(c *cobra.Command, v *outputFormat, formats ...outputFormat) {
	*v = formats[0]
	allowed := subset(outputFormats, formats...)
	c.Flags().VarP(&enumFlag[outputFormat]{v: v, table: outputFormats, allowed: allowed}, "format", "f", "output: "+allowed.List())
}

// cgMode is the SpMV every CG iteration runs (--schedule).
type cgMode uint8

const (
	modeDefault cgMode = iota
	modeSPAC
	modeCuSPARSE
	modeAdapt
)

var cgModeNames = enum.New("schedule",
	enum.Name[cgMode]{Value: modeDefault, Name: "default"},
	enum.Name[cgMode]{Value: modeSPAC, Name: "spac"},
	enum.Name[cgMode]{Value: modeCuSPARSE, Name: "cusparse"},
	enum.Name[cgMode]{Value: modeAdapt, Name: "adapt"},
)

func (m cgMode) String() string { return cgModeNames.String(m) }

// words is a table whose values are their names, for choices the code
// keeps as strings.
func words(what string, names ...string) *enum.Table[string] {
	ns := make([]enum.Name[string], len(names))
	for i, n := range names {
		ns[i] = enum.Name[string]{Value: n, Name: n}
	}
	return enum.New(what, ns...)
}

var (
	adaptStarts  = words("--adapt-start kernel", "cusparse", "default")
	backgrounds  = words("--background", "process", "goroutine")
	cfdSchedules = words("schedule", "original", "rcm", "spac")
)
