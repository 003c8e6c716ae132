package particlefilter

import (
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX was generated from the current kernels/particlefilter.cu
// and has every entry point the Go side launches.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/particlefilter/kernels/particlefilter.cu")); err != nil {
		t.Fatal(err)
	}
}

// The kernels' constants are the CPU's: the generator and the likelihood
// ratio.
func TestKernelConstants(t *testing.T) {
	src := gpu.ReadKernelSource(t, "apps/particlefilter/kernels/particlefilter.cu")
	define := func(name string) int64 { return gpu.KernelDefine(t, src, name) }
	for _, c := range []struct {
		name      string
		cu, goVal int64
	}{
		{"LCG_A", define("LCG_A"), lcgA}, {"LCG_C", define("LCG_C"), lcgC}, {"LCG_M", define("LCG_M"), lcgM},
		{"TERM at 0", -define("TERM_SHIFT"), int64(term(0))},
		{"TERM at 255", 255*define("TERM_SCALE") - define("TERM_SHIFT"), int64(term(255))},
	} {
		if c.cu != c.goVal {
			t.Errorf("%s: particlefilter.cu has %d, the Go side %d", c.name, c.cu, c.goVal)
		}
	}
	// The ratio is Rodinia's ((I-100)^2 - (I-228)^2) for every intensity.
	for i := 0; i < 256; i++ {
		if want := (i-background)*(i-background) - (i-foreground)*(i-foreground); int(term(uint8(i))) != want {
			t.Fatalf("term(%d) = %d, want %d", i, term(uint8(i)), want)
		}
	}
}

func TestPow2(t *testing.T) {
	for _, tc := range [][2]int{{32, 32}, {33, 64}, {96, 128}, {192, 256}, {1024, 1024}, {1000, 1024}} {
		if got := pow2(tc[0]); got != tc[1] {
			t.Errorf("pow2(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}

// Without a CUDA build the GPU path says how to get one.
func TestGPUWithoutCUDA(t *testing.T) {
	gpu.CheckNoCUDA(t, func(d *gpu.Device) error {
		_, err := NewGPU(d)
		return err
	})
}
