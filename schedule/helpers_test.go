package schedule

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

const sharedDir = "../../shared/matrices"

type namedCOO struct {
	name string
	coo  *matrices.COO
}

var (
	sharedOnce sync.Once
	sharedMats []namedCOO
	sharedErr  error
)

// sharedMatrices reads every matrix and graph in ../shared/matrices once,
// expanded to both triangles as the command line does by default. Graph
// files are pattern matrices: every value is 1.
func sharedMatrices(t testing.TB) []namedCOO {
	t.Helper()
	sharedOnce.Do(func() {
		files, _ := filepath.Glob(filepath.Join(sharedDir, "*.gz"))
		for _, f := range files {
			m, err := matrices.Open(f, matrices.ReadOptions{})
			if err != nil {
				sharedErr = err
				return
			}
			sharedMats = append(sharedMats, namedCOO{strings.TrimSuffix(filepath.Base(f), ".gz"), m.Expanded()})
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	if len(sharedMats) == 0 {
		if _, err := os.Stat(sharedDir); err != nil {
			t.Skipf("no shared matrices at %s: %v", sharedDir, err)
		}
		t.Fatalf("no inputs in %s", sharedDir)
	}
	return sharedMats
}

// partition runs a method on coo's SpMV locality graph with parts of at
// most blockSize entries.
func partition(t testing.TB, coo *matrices.COO, method string, blockSize int) spac.Partition {
	t.Helper()
	g, inc, err := matrices.BuildLocality(coo, matrices.ModelSpMV)
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := spac.Resolve(g.NumEdges(), 0, blockSize)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spac.Lookup(method)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Partition(context.Background(), g, inc, spac.Options{K: k, Cap: capacity, Seed: 1, Coarsen: spac.DefaultCoarsen})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return p
}

// build builds and validates a schedule.
func build(t testing.TB, coo *matrices.COO, p spac.Partition, opts Options) *Schedule {
	t.Helper()
	s, err := Build(coo, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("%s: built schedule is invalid: %v", coo.Name, err)
	}
	return s
}

// testVector is a deterministic x with values of both signs and varied
// magnitudes, so that cancellation and rounding show.
func testVector(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Sin(float64(i)*0.7+0.3) * (1 + float64(i%7))
	}
	return x
}

// csrSpMV is the reference: y = A x over the entries in CSR order, in
// float64, with scale[i] = sum_j |a_ij x_j| and the row's entry count,
// which bound the rounding error of any summation order.
func csrSpMV(coo *matrices.COO, x []float64) (y, scale []float64, count []int) {
	vals, err := coo.RealValues()
	if err != nil {
		panic(err)
	}
	order := matrices.RowMajor(coo.Row, coo.Col, coo.NRows, coo.NCols)
	y = make([]float64, coo.NRows)
	scale = make([]float64, coo.NRows)
	count = make([]int, coo.NRows)
	for _, e := range order {
		r := coo.Row[e]
		p := vals[e] * x[coo.Col[e]]
		y[r] += p
		scale[r] += math.Abs(p)
		count[r]++
	}
	return y, scale, count
}

// maxRelError is the largest |y_i - ref_i| / scale_i, and whether every
// row is within (2 count_i + 2) eps scale_i, the bound for two summation
// orders of the same products.
func maxRelError[T float32 | float64](y []T, ref, scale []float64, count []int, eps float64) (worst float64, ok bool) {
	ok = true
	for i := range y {
		d := math.Abs(float64(y[i]) - ref[i])
		if scale[i] == 0 {
			if d != 0 {
				return math.Inf(1), false
			}
			continue
		}
		rel := d / scale[i]
		worst = max(worst, rel)
		if rel > float64(2*count[i]+2)*eps {
			ok = false
		}
	}
	return worst, ok
}
