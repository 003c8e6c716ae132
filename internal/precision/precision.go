// Package precision is the value type of a run, fp32 or fp64, with the one
// set of spellings that every command and application accepts:
//
//	fp32: fp32, f32, float, float32, single
//	fp64: fp64, f64, double, float64
//
// and, for a list, "both" or "all" for fp32,fp64.
package precision

import (
	"strings"

	"github.com/spac-gpu/spac/internal/enum"
)

// Precision is the floating-point type of a run's values.
type Precision uint8

const (
	FP32 Precision = iota
	FP64
)

var table = enum.New("precision",
	enum.Name[Precision]{Value: FP32, Name: "fp32", Aliases: []string{"f32", "float", "float32", "single"}},
	enum.Name[Precision]{Value: FP64, Name: "fp64", Aliases: []string{"f64", "double", "float64"}},
)

func (p Precision) String() string { return table.String(p) }

// Bytes is the size of one value.
func (p Precision) Bytes() int {
	if p == FP32 {
		return 4
	}
	return 8
}

// Suffix names the precision in kernel entry points: "f32" or "f64"
// (every app's kernels are spelled <app>_<kernel>_<suffix>).
func (p Precision) Suffix() string {
	if p == FP32 {
		return "f32"
	}
	return "f64"
}

// Parse reads one precision.
func Parse(s string) (Precision, error) { return table.Parse(s) }

// ParseList reads a comma-separated list of precisions, or "both" or
// "all" for fp32,fp64.
func ParseList(s string) ([]Precision, error) {
	if v := strings.ToLower(strings.TrimSpace(s)); v == "both" || v == "all" {
		return table.Values(), nil
	}
	return table.ParseList(s)
}

// Names lists the names, for help texts.
func Names() []string { return table.Names() }
