package btree

import (
	"errors"
	"regexp"
	"strconv"
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
	src := string(gpu.ReadKernelSource(t, "apps/btree/kernels/btree.cu"))
	m := regexp.MustCompile(`(?m)^#define MAX_LEVELS\s+(\d+)`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("btree.cu defines no MAX_LEVELS")
	}
	if v, _ := strconv.Atoi(m[1]); v != maxLevels {
		t.Errorf("MAX_LEVELS: btree.cu has %d, the Go side %d", v, maxLevels)
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
