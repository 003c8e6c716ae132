//go:build mpi

package dist

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/mpi"
	"github.com/spac-gpu/spac/mpi/mpitest"
	"github.com/spac-gpu/spac/ptscotch"
	"github.com/spac-gpu/spac/spac"
)

// mpiCases are the inputs of the MPI test: generated, a few hundred parts
// each, small enough for CI.
var mpiCases = []struct {
	name  string
	gen   func() (*matrices.COO, error)
	model matrices.Model
	block int
}{
	{"stencil2d.mtx", func() (*matrices.COO, error) { return matrices.Stencil2D(120, 100, 5) }, matrices.ModelGraph, 256},
	{"ba.mtx", func() (*matrices.COO, error) { return matrices.BarabasiAlbert(6000, 4, 3) }, matrices.ModelGraph, 256},
	{"rmat.mtx", func() (*matrices.COO, error) { return matrices.RMAT(13, 8, 0.57, 0.19, 0.19, 3) }, matrices.ModelSpMV, 256},
}

// writeCases writes the inputs of mpiCases into a temporary directory and
// returns it.
func writeCases(t *testing.T) string {
	dir := t.TempDir()
	for _, tc := range mpiCases {
		m, err := tc.gen()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := matrices.WriteMatrixMarket(&b, m); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, tc.name), b.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDistributedMatchesSingle runs distributed SPAC with PT-Scotch on 1, 2
// and 4 processes, the tasks grouped one by one and by cluster: the
// partition is valid (spac.Check on the gathered parts), the distributed
// metrics equal spac.Evaluate's, the assignment file is the single-machine
// command's, the ranks agree, and the copies are within 10% of the
// single-machine SPAC's.
func TestDistributedMatchesSingle(t *testing.T) {
	if !mpitest.Rank() {
		dir := writeCases(t)
		for _, np := range []int{1, 2, 4} {
			out := mpitest.Run(t, np, "TestDistributedMatchesSingle", nil, "SPAC_TEST_DIR="+dir)
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "copies") && strings.Contains(l, "single machine") {
					t.Log(strings.TrimSpace(l))
				}
			}
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	dir := os.Getenv("SPAC_TEST_DIR")
	for _, tc := range mpiCases {
		for _, grouping := range []Grouping{GroupTasks, GroupClusters} {
			matchSingle(t, c, dir, tc.name, tc.model, tc.block, grouping)
		}
	}
}

// matchSingle is one case of TestDistributedMatchesSingle, on this rank.
func matchSingle(t *testing.T, c mpi.Comm, dir, file string, model matrices.Model, block int, grouping Grouping) {
	name := fmt.Sprintf("%s, grouping %v,", file, grouping)
	path := filepath.Join(dir, file)
	sh, err := Read(c, path, ReadConfig{Model: &model})
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, err := spac.Resolve(int(sh.Total), 0, block)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Partition(context.Background(), c, sh, Options{K: k, Cap: capacity, Local: spacOptions(1), Grouping: grouping})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, fmt.Sprintf("%s.%d.%v.tsv", file, c.Size(), grouping))
	if err := WriteAssignment(c, sh, res.Part, out, nil); err != nil {
		t.Fatal(err)
	}
	all, err := gather(c, res.Part)
	if err != nil {
		t.Fatal(err)
	}
	mets, err := mpi.Allgather(c, []spac.Metrics{res.Metrics})
	if err != nil {
		t.Fatal(err)
	}
	for r, m := range mets {
		if m[0] != res.Metrics {
			t.Errorf("%s rank %d's metrics differ from this rank's", name, r)
		}
	}
	if c.Rank() != 0 {
		return
	}
	whole, g, single := singleMachine(t, path, model, block)
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		t.Fatal(err)
	}
	p := spac.Partition{K: k, Part: all}
	if err := spac.Check(g, p, capacity); err != nil {
		t.Fatalf("%s %v", name, err)
	}
	want := spac.Evaluate(g, inc, p)
	want.Cap, want.Time = res.Metrics.Cap, res.Metrics.Time
	if want != res.Metrics {
		t.Errorf("%s distributed metrics\n%+v\nwant spac.Evaluate's\n%+v", name, res.Metrics, want)
	}
	ratio := float64(res.Metrics.Copies) / float64(single.Copies)
	fmt.Printf("%s on %d processes: %d copies, single machine %d (%.3f)\n", name, c.Size(), res.Metrics.Copies, single.Copies, ratio)
	if ratio > 1.10 {
		t.Errorf("%s on %d processes: %d copies, more than 10%% above the single machine's %d", name, c.Size(), res.Metrics.Copies, single.Copies)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	for e := range whole.Row {
		fmt.Fprintf(&w, "%d\t%d\t%d\n", whole.Row[e]+1, whole.Col[e]+1, all[e])
	}
	if !bytes.Equal(got, w.Bytes()) {
		t.Errorf("%s the assignment file differs from the single-machine format", name)
	}
}

// TestClusterGraphScotch: the cluster graph passes SCOTCH_dgraphCheck
// (symmetric as PT-Scotch sees it) and PT-Scotch partitions it, its
// clusters without tasks weighing 0.
func TestClusterGraphScotch(t *testing.T) {
	if !mpitest.Rank() {
		dir := writeCases(t)
		for _, np := range []int{2, 3} {
			mpitest.Run(t, np, "TestClusterGraphScotch", nil, "SPAC_TEST_DIR="+dir)
		}
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	var empties int64
	for _, tc := range mpiCases {
		model := tc.model
		sh, err := Read(c, filepath.Join(os.Getenv("SPAC_TEST_DIR"), tc.name), ReadConfig{Model: &model})
		if err != nil {
			t.Fatal(err)
		}
		cg, _, err := clusterGraph(c, newShareGraph(sh))
		if err != nil {
			t.Fatal(err)
		}
		empty := int64(0)
		for _, w := range cg.Vwgt {
			if w == 0 {
				empty++
			}
		}
		if empty, err = mpi.Sum(c, empty); err != nil {
			t.Fatal(err)
		}
		empties += empty
		if _, err := ptscotch.Part(c, cg, c.Size(), ptscotch.Options{Seed: 1, Check: true}); err != nil {
			t.Errorf("%s, %d clusters without tasks: %v", tc.name, empty, err)
		}
	}
	if empties == 0 {
		t.Errorf("no case has a cluster without tasks: weight 0 is not tested")
	}
}

// TestDeterministic: two runs on the same processes give the same parts.
func TestDeterministic(t *testing.T) {
	if !mpitest.Rank() {
		dir := t.TempDir()
		m, err := matrices.BarabasiAlbert(3000, 4, 9)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		matrices.WriteMatrixMarket(&b, m)
		os.WriteFile(filepath.Join(dir, "ba.mtx"), b.Bytes(), 0o666)
		mpitest.Run(t, 3, "TestDeterministic", nil, "SPAC_TEST_DIR="+dir)
		return
	}
	c, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer mpi.Finalize()
	sh, err := Read(c, filepath.Join(os.Getenv("SPAC_TEST_DIR"), "ba.mtx"), ReadConfig{})
	if err != nil {
		t.Fatal(err)
	}
	k, capacity, _ := spac.Resolve(int(sh.Total), 0, 128)
	var first []int32
	for run := range 2 {
		res, err := Partition(context.Background(), c, sh, Options{K: k, Cap: capacity, Local: spacOptions(4)})
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = res.Part
		} else if !slicesEqual(first, res.Part) {
			t.Errorf("rank %d: two runs differ", c.Rank())
		}
	}
}

func slicesEqual(a, b []int32) bool { return bytes.Equal(asBytes(a), asBytes(b)) }

func asBytes(s []int32) []byte {
	var b bytes.Buffer
	for _, x := range s {
		fmt.Fprintf(&b, "%d,", x)
	}
	return b.Bytes()
}
