package btree

import (
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX was generated from the current kernels/btree.cu and has
// every entry point the Go side launches.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/btree/kernels/btree.cu")); err != nil {
		t.Fatal(err)
	}
}

// The level limit the Go side checks is the kernels'.
func TestKernelLimits(t *testing.T) {
	src := gpu.ReadKernelSource(t, "apps/btree/kernels/btree.cu")
	if v := gpu.KernelDefine(t, src, "MAX_LEVELS"); v != maxLevels {
		t.Errorf("MAX_LEVELS: btree.cu has %d, the Go side %d", v, maxLevels)
	}
}

// Without a CUDA build the GPU path says how to get one.
func TestGPUWithoutCUDA(t *testing.T) {
	gpu.CheckNoCUDA(t, func(d *gpu.Device) error {
		_, err := NewGPU(d)
		return err
	})
}
