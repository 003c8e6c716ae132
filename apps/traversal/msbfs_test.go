package traversal

import (
	"math"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX of the many-source BFS was generated from the current
// kernels/msbfs.cu and has every entry point msbfs.go launches.
func TestMSBFSPTXMatchesSource(t *testing.T) {
	if err := MSBFSModule.CheckSource(gpu.ReadKernelSource(t, "apps/traversal/kernels/msbfs.cu")); err != nil {
		t.Fatal(err)
	}
}

// The options' defaults, and the values refused.
func TestMSBFSOptions(t *testing.T) {
	var o MSBFSOptions
	if err := o.fill(); err != nil || o.Alpha != msbfsAlpha || o.Beta != msbfsBeta || o.Direction != DirectionAuto {
		t.Fatalf("defaults: %+v, %v", o, err)
	}
	for _, bad := range []MSBFSOptions{
		{Direction: DirectionPull + 1},
		{Alpha: -1},
		{Alpha: math.NaN()},
		{Beta: math.Inf(1)},
		{Beta: 1e300},
		{LevelsPerGraph: -1},
		{LevelsPerGraph: maxLevelsK + 1},
	} {
		if err := bad.fill(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	for d, want := range map[Direction]string{DirectionAuto: "auto", DirectionPush: "push", DirectionPull: "pull", 9: "Direction(9)"} {
		if d.String() != want {
			t.Errorf("%d: %q, want %q", d, d.String(), want)
		}
	}
}
