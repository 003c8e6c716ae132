//go:build cuda

package gaussian

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/spac-gpu/spac/gpu"
)

func openGPU(t *testing.T) *GPU {
	t.Helper()
	g, err := NewGPU(gpu.OpenForTest(t))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The original kernels, the original on the RCM-renumbered system, and the
// SPAC Fan2 with SPAC's and with strip-shaped parts all eliminate exactly
// as the CPU does (every value of A, b and x bit for bit), in both
// precisions, at every block size, on a generated system of a size that
// is no multiple of the window and on one written and read back.
func TestGPUMatchesCPU(t *testing.T) {
	g := openGPU(t)
	gen, _ := Generate(Spec{N: 333})
	var buf bytes.Buffer
	other, _ := Generate(Spec{N: 130, Lambda: 0.2})
	if err := WriteSystem(&buf, other); err != nil {
		t.Fatal(err)
	}
	read, err := ReadSystem(&buf, "m.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*System{gen, read} {
		perm, _ := RCM(s)
		ps, err := s.Permute(perm)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Precision{FP32, FP64} {
			ref, _ := Solve(s, p)
			pref, _ := Solve(ps, p)
			for _, b := range BlockSizes {
				runs := []struct {
					name string
					sys  *System
					tp   *Template
					ref  *Solution
				}{
					{"original", s, nil, ref},
					{"rcm", ps, nil, pref},
					{"spac", s, template(t, b, "spac"), ref},
					{"strips", s, template(t, b, "default"), ref},
				}
				for _, r := range runs {
					name := fmt.Sprintf("%s n=%d %s B=%d %s", s.Name, s.N, p, b, r.name)
					res, err := g.Eliminate(r.sys, r.tp, p, b, 2)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					d, err := Compare(&res.Solution, r.ref)
					if err != nil {
						t.Fatal(err)
					}
					if d.Mismatches > 0 {
						t.Errorf("%s: %d values differ from the CPU's (x off by %.3g)", name, d.Mismatches, d.MaxRelX)
					}
					if res.Time.Median <= 0 {
						t.Errorf("%s: no time measured", name)
					}
					t.Logf("%s: %.1f us, %d blocks", name, float64(res.Time.Median.Nanoseconds())/1e3, res.Blocks)
				}
			}
		}
	}
}

// A template's block size is the kernel's: another is refused.
func TestGPUBlockSizeMismatch(t *testing.T) {
	g := openGPU(t)
	s, _ := Generate(Spec{N: 40})
	if _, err := g.Eliminate(s, template(t, 256, "spac"), FP32, 128, 1); err == nil {
		t.Fatal("a template of block size 256 ran with 128 threads")
	}
}
