package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
)

// product is y = A x of a COO (symmetric storage expanded) with x_j = j+1.
func product(m *matrices.COO, perm []int32) []float64 {
	m = m.Expanded()
	y := make([]float64, m.NRows)
	for e := range m.Row {
		c := m.Col[e]
		if perm != nil {
			c = perm[c]
		}
		y[m.Row[e]] += m.Val[e] * float64(c+1)
	}
	return y
}

// TestReorderCommand renumbers a rectangular and a symmetric matrix with
// every order and checks that the written matrix, with the written
// numberings, is the same operator: y[rows] = OUT @ x[cols].
func TestReorderCommand(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	// Random entries, so that no order is its own inverse by chance.
	rng := rand.New(rand.NewPCG(4, 5))
	var rect, sym strings.Builder
	fmt.Fprintf(&rect, "%%%%MatrixMarket matrix coordinate real general\n40 70 300\n")
	for i := range 300 {
		fmt.Fprintf(&rect, "%d %d %d\n", 1+rng.IntN(40), 1+rng.IntN(70), i+1)
	}
	fmt.Fprintf(&sym, "%%%%MatrixMarket matrix coordinate real symmetric\n60 60 200\n")
	for i := range 200 {
		r, c := 1+rng.IntN(60), 1+rng.IntN(60)
		fmt.Fprintf(&sym, "%d %d %d\n", max(r, c), min(r, c), i+1)
	}
	for _, in := range []string{writeFile(t, "r.mtx", rect.String()), writeFile(t, "s.mtx", sym.String())} {
		orig := readMatrixFile(t, in)
		for _, o := range orderNames {
			t.Run(filepath.Base(in)+" "+o, func(t *testing.T) {
				dir := t.TempDir()
				out := filepath.Join(dir, "out.mtx")
				prefix := filepath.Join(dir, "perm")
				_, errOut, code, _ := executeStreams(t, "reorder", in, "--order", o, "-b", "32", "-o", out, "--perm-out", prefix)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				if !strings.Contains(errOut, o+" order of") {
					t.Errorf("no summary: %s", errOut)
				}
				got := readMatrixFile(t, out)
				rows, err := readNPY(t, prefix+".rows.npy", "<i4", orig.NRows).Int32s()
				if err != nil {
					t.Fatal(err)
				}
				cols, err := readNPY(t, prefix+".cols.npy", "<i4", orig.NCols).Int32s()
				if err != nil {
					t.Fatal(err)
				}
				if o != orderSPAC && orig.Symmetry == matrices.Symmetric && got.Symmetry != matrices.Symmetric {
					t.Errorf("a symmetric order made the matrix %v", got.Symmetry)
				}
				want := product(orig, nil)
				y := product(got, cols)
				for i, r := range rows {
					if y[i] != want[r] {
						t.Fatalf("row %d of the output (row %d of the input): %g, want %g", i, r, y[i], want[r])
					}
				}
			})
		}
	}
}

func readMatrixFile(t *testing.T, path string) *matrices.COO {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := matrices.ReadMatrixMarket(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReorderUsage(t *testing.T) {
	in := writeFile(t, "a.mtx", small)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no output", []string{"reorder", in}, "needs -o"},
		{"unknown order", []string{"reorder", in, "-o", "-", "--order", "amd"}, "want one of"},
		{"two orders", []string{"reorder", in, "-o", "-", "--order", "rcm,nd"}, "takes one of"},
		{"block size", []string{"reorder", in, "-o", "-", "-b", "100"}, "block-size"},
		{"no input", []string{"reorder", "-o", "-"}, "one input"},
	} {
		_, errOut, code, _ := executeStreams(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, want 2 with %q: %s", tc.name, code, tc.want, errOut)
		}
	}
	// Standard output.
	out, errOut, code, _ := executeStreams(t, "reorder", in, "--order", "rcm", "-o", "-")
	if code != 0 || !strings.HasPrefix(out, "%%MatrixMarket matrix coordinate real general\n6 6 12\n") {
		t.Errorf("-o -: exit %d, %q, %s", code, out, errOut)
	}
}

// TestOrderStages: on a terminal each order shows its stages as it runs
// (nested dissection of a large input runs for minutes), and a line with
// its total when done.
func TestOrderStages(t *testing.T) {
	t.Setenv("SPAC_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	var rf reorderFlags
	rf.register(&cobra.Command{}, environment{}, "block-size", "b")
	rf.blockSize = 32
	m, err := matrices.ErdosRenyi(300, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	in := &pipeline.Input{Matrix: m, Used: m, Model: matrices.ModelSpMV}
	for _, tc := range []struct{ order, stages string }{
		{"rcm", "pattern sweep total"},
		{"nd", "pattern metis total"},
		{"spac", "by parts total"},
	} {
		var buf bytes.Buffer
		if _, _, err := rf.orderOf(context.Background(), in, tc.order, progress.New(&buf, true), io.Discard); err != nil {
			t.Fatalf("%s: %v", tc.order, err)
		}
		var got []string
		for _, line := range strings.Split(buf.String(), "\n") {
			line = line[strings.LastIndex(line, "\r")+1:] // what the spinner's redraws leave
			if f := strings.Fields(line); len(f) >= 4 && f[0] == tc.order && f[1] == "order" {
				got = append(got, strings.Join(f[2:len(f)-2], " "))
			}
		}
		if strings.Join(got, " ") != tc.stages {
			t.Errorf("%s: stages %q, want %q (drawn: %q)", tc.order, got, tc.stages, buf.String())
		}
	}
}
