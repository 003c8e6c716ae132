//go:build cuda

package cfd

import (
	"bytes"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func openGPU(t *testing.T) (*GPU, gpu.DeviceInfo) {
	t.Helper()
	d := gpu.OpenForTest(t)
	g, err := NewGPU(d)
	if err != nil {
		t.Fatal(err)
	}
	return g, d.Info()
}

// The original kernels (on the mesh as given and renumbered by RCM) and
// the SPAC kernels agree with the CPU reference after
// 100 iterations, in both precisions, at several block sizes, on a
// generated mesh and on one written and read back through .domn. Block size
// 1024 in fp64 needs more shared memory than a block gets without opting
// in; the test checks that it does.
func TestGPUMatchesCPU(t *testing.T) {
	const iterations = 100
	g, info := openGPU(t)
	generated := genMesh(t, "mesh:n=20000")
	var buf bytes.Buffer
	if err := WriteDomn(&buf, genMesh(t, "mesh:n=12000,tilt=7")); err != nil {
		t.Fatal(err)
	}
	read, err := ReadDomn(&buf, "read.domn")
	if err != nil {
		t.Fatal(err)
	}
	largeShared := false
	for _, mc := range []struct {
		name   string
		m      *Mesh
		blocks []int
	}{{"generated", generated, BlockSizes}, {"domn", read, []int{128, 384, 1024}}} {
		scheds := map[int]*Schedule{}
		for _, b := range mc.blocks {
			scheds[b] = schedule(t, mc.m, "spac", b)
		}
		rcm, err := RenumberRCM(mc.m)
		if err != nil {
			t.Fatal(err)
		}
		for _, prec := range []Precision{FP32, FP64} {
			ref, err := Simulate(mc.m, nil, prec, iterations)
			if err != nil {
				t.Fatal(err)
			}
			if maxRel(t, ref.Vars, perturbedZero(mc.m.N), mc.m.N) < 0.05 {
				t.Fatalf("%s: the reference hardly moved from the free stream", mc.name)
			}
			tol := Tolerance(prec, iterations)
			for _, b := range mc.blocks {
				for _, sc := range []*Schedule{nil, scheds[b]} {
					res, err := g.Simulate(mc.m, sc, prec, b, iterations)
					if err != nil {
						t.Fatalf("%s %s B=%d: %v", mc.name, prec, b, err)
					}
					d := maxRel(t, res.Vars, ref.Vars, mc.m.N)
					t.Logf("%s %s %s B=%d: max relative difference %.3g (tolerance %.3g), %.1f us/iteration, %d B shared",
						mc.name, prec, res.Schedule, b, d, tol, float64(res.PerIteration().Nanoseconds())/1e3, res.Shared)
					if d > tol {
						t.Errorf("%s %s %s B=%d: difference %.3g above %.3g", mc.name, prec, res.Schedule, b, d, tol)
					}
					if res.Time <= 0 {
						t.Errorf("%s %s %s B=%d: no time measured", mc.name, prec, res.Schedule, b)
					}
					largeShared = largeShared || res.Shared > info.SharedPerBlock
				}
				// The original kernels on the RCM-renumbered mesh.
				res, err := g.Simulate(rcm.Mesh, nil, prec, b, iterations)
				if err != nil {
					t.Fatalf("%s %s rcm B=%d: %v", mc.name, prec, b, err)
				}
				d := maxRel(t, rcm.Restore(res.Vars), ref.Vars, mc.m.N)
				t.Logf("%s %s rcm B=%d: max relative difference %.3g (tolerance %.3g), %.1f us/iteration",
					mc.name, prec, b, d, tol, float64(res.PerIteration().Nanoseconds())/1e3)
				if d > tol {
					t.Errorf("%s %s rcm B=%d: difference %.3g above %.3g", mc.name, prec, b, d, tol)
				}
			}
		}
	}
	if !largeShared {
		t.Errorf("no run needed more than the %d bytes of shared memory a block gets without opting in", info.SharedPerBlock)
	}
}

// A schedule's block size is the kernel's: another is refused.
func TestGPUBlockSizeMismatch(t *testing.T) {
	g, _ := openGPU(t)
	m := genMesh(t, "mesh:n=2000")
	if _, err := g.Simulate(m, schedule(t, m, "spac", 256), FP32, 128, 1); err == nil {
		t.Fatal("a schedule of block size 256 ran with 128 threads")
	}
	if _, err := g.Simulate(m, nil, FP32, 100, 1); err == nil {
		t.Fatal("block size 100 (not a multiple of 32) ran")
	}
}
