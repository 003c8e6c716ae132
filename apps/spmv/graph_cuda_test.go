//go:build cuda

package spmv

import (
	"errors"
	"math"
	"testing"

	"github.com/spac-gpu/spac/gpu/cusparse"
)

// TestCapture: a captured product runs only when its graph is launched,
// and gives the reference; every kind of op (a memset step, zero_rows, a
// plain launch, cuSPARSE) captures; launches after a capture run at once
// again, and a failed or nested capture leaves the device usable.
func TestCapture(t *testing.T) {
	sp, ds, ref, abs := bandedSpMV(t, 5)
	kernels := []Kernel{CSRScalar, COOAtomic, SPACReadOnly, SPACShared}
	if _, _, err := cusparse.Version(); err == nil {
		kernels = append(kernels, CuSPARSECSR)
	} else {
		t.Logf("cuSPARSE not captured: %v", err)
	}
	for _, k := range kernels {
		op, err := sp.Op(k, 256, ds)
		if err != nil {
			t.Fatal(err)
		}
		if err := sp.poisonY(); err != nil {
			t.Fatal(err)
		}
		g, err := dev.Capture(func() error { return sp.Run(op) })
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if err := dev.Sync("capture"); err != nil {
			t.Fatal(err)
		}
		y, err := sp.Y()
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(y[0]) {
			t.Errorf("%s: y[0] = %g after the capture alone, want the NaN it held (a capture records, it does not run)", k, y[0])
		}
		for range 3 {
			if err := g.Launch(); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
		}
		if err := dev.Sync("graph"); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if y, err = sp.Y(); err != nil {
			t.Fatal(err)
		}
		if e := MaxRelError(y, ref, abs); !(e <= Tolerance(FP64)) {
			t.Errorf("%s: the graph's product is off by %.3g", k, e)
		}
		g.Close()
		check(t, sp, op, ref, abs, FP64, string(k)+" after its capture")
	}
	boom := errors.New("boom")
	var err error
	if _, err = dev.Capture(func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("a failing capture: %v, want boom", err)
	}
	_, err = dev.Capture(func() error {
		_, err := dev.Capture(func() error { return nil })
		return err
	})
	if err == nil {
		t.Error("a capture within a capture succeeded")
	}
	op, err := sp.Op(CSRVector, 128, nil)
	if err != nil {
		t.Fatal(err)
	}
	check(t, sp, op, ref, abs, FP64, "csr-vector after failed captures")
}
