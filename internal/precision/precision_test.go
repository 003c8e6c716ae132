package precision

import (
	"slices"
	"testing"
)

func TestSpellings(t *testing.T) {
	for _, s := range []string{"fp32", "F32", "float", "float32", "single"} {
		if p, err := Parse(s); err != nil || p != FP32 || p.Bytes() != 4 {
			t.Errorf("Parse(%q) = %v, %v", s, p, err)
		}
	}
	for _, s := range []string{"fp64", "f64", "Double", "float64"} {
		if p, err := Parse(s); err != nil || p != FP64 || p.Bytes() != 8 {
			t.Errorf("Parse(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := Parse("half"); err == nil || err.Error() != `unknown precision "half" (want fp32 or fp64)` {
		t.Errorf("Parse(half): %v", err)
	}
	for in, want := range map[string][]Precision{"both": {FP32, FP64}, "all": {FP32, FP64}, "fp64,fp32": {FP64, FP32}, "double,fp64": {FP64}} {
		if got, err := ParseList(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseList(%q) = %v, %v", in, got, err)
		}
	}
}
