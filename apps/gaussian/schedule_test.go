package gaussian

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

func template(t testing.TB, blockSize int, method string) *Template {
	t.Helper()
	tp, err := NewTemplate(context.Background(), blockSize, pipeline.PartitionConfig{Method: method, Settings: spac.Options{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// The window's locality graph: a task per cell, row-major, the row and
// column its two data objects.
func TestWindow(t *testing.T) {
	coo := Window(64)
	if coo.NRows != 64 || coo.NCols != 64 || coo.NNZ() != 64*64 {
		t.Fatalf("%d x %d, %d tasks", coo.NRows, coo.NCols, coo.NNZ())
	}
	for e := range coo.Row {
		if int(coo.Row[e]) != e/64 || int(coo.Col[e]) != e%64 {
			t.Fatalf("task %d at (%d, %d)", e, coo.Row[e], coo.Col[e])
		}
	}
	for b, w := range map[int]int{32: 64, 64: 64, 192: 64, 256: 64, 384: 128, 512: 128, 1024: 128} {
		if got := WindowFor(b); got != w {
			t.Errorf("WindowFor(%d) = %d, want %d", b, got, w)
		}
	}
}

// Every template runs each window task exactly once, in blocks of at most
// B tasks sorted by (row, column); SPAC's parts stage far fewer rows and
// columns than B-task strips (default), and its elimination on the CPU is
// Forward's, bit for bit, on sizes that are and are not multiples of W.
func TestTemplate(t *testing.T) {
	for _, b := range []int{32, 96, 256, 1024} {
		for _, method := range []string{"spac", "default"} {
			tp := template(t, b, method)
			name := fmt.Sprintf("B=%d %s", b, method)
			if err := tp.Check(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if tp.K != (tp.W*tp.W+b-1)/b {
				t.Errorf("%s: %d parts in a %d-wide window", name, tp.K, tp.W)
			}
			for p := 0; p < tp.K; p++ {
				var cells []int
				for _, task := range tp.Task[p*b : (p+1)*b] {
					if task == NoTask {
						continue
					}
					cells = append(cells, int(tp.Rows[tp.RowStart[p]+int32(task&0xffff)])*tp.W+int(tp.Cols[tp.ColStart[p]+int32(task>>16)]))
				}
				if !slices.IsSorted(cells) {
					t.Fatalf("%s: block %d's tasks are not in row-major order", name, p)
				}
			}
			// Staged values per window against the bound of square parts.
			staged := len(tp.Rows) + len(tp.Cols)
			t.Logf("%s: window %d, %d parts, %d rows+columns staged (%.1f per part), copies %d", name, tp.W, tp.K, staged, float64(staged)/float64(tp.K), tp.Metrics.Copies)
		}
		spacT, strips := template(t, b, "spac"), template(t, b, "default")
		if a, d := len(spacT.Rows)+len(spacT.Cols), len(strips.Rows)+len(strips.Cols); b >= 64 && a >= d {
			t.Errorf("B=%d: SPAC's parts stage %d values a window, strips %d", b, a, d)
		}
	}
	for _, n := range []int{1, 2, 63, 64, 65, 150} {
		s, _ := Generate(Spec{N: n, Lambda: 0.05})
		for _, p := range []Precision{FP32, FP64} {
			ref, _ := Solve(s, p)
			for _, b := range []int{64, 256} {
				got, err := SolveTemplate(template(t, b, "spac"), s, p)
				if err != nil {
					t.Fatal(err)
				}
				if d, _ := Compare(got, ref); d.Mismatches > 0 {
					t.Errorf("n=%d %s B=%d: %d values differ from Forward's", n, p, b, d.Mismatches)
				}
			}
		}
	}
}

// Check catches a template that runs a task twice or misses one.
func TestTemplateCheck(t *testing.T) {
	tp := template(t, 128, "spac")
	bad := *tp
	bad.Task = slices.Clone(tp.Task)
	bad.Task[1] = bad.Task[0]
	if err := bad.Check(); err == nil {
		t.Error("a task run twice passed")
	}
	bad.Task[1] = NoTask
	if err := bad.Check(); err == nil {
		t.Error("a missing task passed")
	}
	if _, err := SolveTemplate(&bad, &System{N: 2, A: []float64{1, 2, 3, 4}, B: []float64{1, 1}}, FP64); err == nil {
		t.Error("a broken template ran")
	}
}

// Loads: the original reads three values per task, SPAC one plus what its
// blocks stage; the block counts follow the grids.
func TestLoadsAndBlocks(t *testing.T) {
	n := 500
	tp := template(t, 256, "spac")
	if got := (*Template)(nil).Loads(n); got != 3*int64(n-1)*int64(n) {
		t.Errorf("original loads %d", got)
	}
	if got := tp.Loads(n); got <= int64(n-1)*int64(n) || got >= 2*int64(n-1)*int64(n) {
		t.Errorf("SPAC loads %d for %d tasks", got, (n-1)*n)
	}
	// Original: 16 x 16 blocks over the whole 500 x 500 matrix each step.
	fan1 := int64(0)
	for step := 0; step < n-1; step++ {
		fan1 += int64((n - 1 - step + 255) / 256)
	}
	if got := Blocks(n, 256, nil); got != fan1+int64(n-1)*32*32 {
		t.Errorf("original blocks %d", got)
	}
	if got := Blocks(n, 256, tp); got >= Blocks(n, 256, nil) || got <= fan1 {
		t.Errorf("SPAC blocks %d, original %d", got, Blocks(n, 256, nil))
	}
	for b, want := range map[int][2]int{32: {4, 8}, 64: {8, 8}, 128: {8, 16}, 192: {8, 24}, 256: {16, 16}, 512: {16, 32}, 1024: {32, 32}} {
		if bx, by, err := Fan2Shape(b); err != nil || bx != want[0] || by != want[1] {
			t.Errorf("Fan2Shape(%d) = %d x %d, %v", b, bx, by, err)
		}
	}
	if _, _, err := Fan2Shape(2000); err == nil {
		t.Error("a block of 2000 threads was accepted")
	}
}
