package cfd

import (
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

// The embedded PTX was generated from the current kernels/cfd.cu and has
// every entry point the Go side launches.
func TestPTXMatchesSource(t *testing.T) {
	if err := Module.CheckSource(gpu.ReadKernelSource(t, "apps/cfd/kernels/cfd.cu")); err != nil {
		t.Fatal(err)
	}
}

// The array layouts the Go side builds are the ones the kernels read.
func TestKernelLayouts(t *testing.T) {
	src := gpu.ReadKernelSource(t, "apps/cfd/kernels/cfd.cu")
	define := func(name string) int { return int(gpu.KernelDefine(t, src, name)) }
	for _, c := range []struct {
		name      string
		cu, goVal int
	}{
		{"FF_LEN", define("FF_LEN"), ffLen}, {"FF_M", define("FF_M"), VarMomentum}, {"FF_E", define("FF_E"), VarEnergy},
		{"FF_FCM", define("FF_FCM"), NVar}, {"FF_FCE", define("FF_FCE"), NVar + 9},
		{"SH_LEN", define("SH_LEN"), sharedValues}, {"NNB", define("NNB"), NNB}, {"NVAR", define("NVAR"), NVar},
		{"RK", define("RK"), RK}, {"WING", define("WING"), int(Wing)},
	} {
		if c.cu != c.goVal {
			t.Errorf("%s: cfd.cu has %d, the Go side %d", c.name, c.cu, c.goVal)
		}
	}
	ff := newFarField[float64]()
	if got := len(farFieldArray(&ff)); got != ffLen {
		t.Errorf("far-field array of %d values, want %d", got, ffLen)
	}
}

// Without a CUDA build the GPU path says how to get one.
func TestGPUWithoutCUDA(t *testing.T) {
	gpu.CheckNoCUDA(t, func(d *gpu.Device) error {
		_, err := NewGPU(d)
		return err
	})
}
