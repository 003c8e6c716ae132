package gaussian

import (
	"errors"
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
	if gpu.Built {
		t.Skip("this build has CUDA support")
	}
	d, err := gpu.Open(0)
	if !errors.Is(err, gpu.ErrNoCUDA) {
		t.Fatalf("gpu.Open: %v, want ErrNoCUDA", err)
	}
	if _, err := NewGPU(d); !errors.Is(err, gpu.ErrNoCUDA) {
		t.Fatalf("NewGPU: %v, want ErrNoCUDA", err)
	}
}
