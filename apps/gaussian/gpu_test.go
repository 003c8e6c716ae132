package gaussian

import (
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX was generated from the current kernels/gaussian.cu and
// has every entry point the Go side launches.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/gaussian/kernels/gaussian.cu")); err != nil {
		t.Fatal(err)
	}
}

// Without a CUDA build the GPU path says how to get one.
func TestGPUWithoutCUDA(t *testing.T) {
	gpu.CheckNoCUDA(t, func(d *gpu.Device) error {
		_, err := NewGPU(d)
		return err
	})
}
