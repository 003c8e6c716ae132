package mpi

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exercise runs every collective on c and checks the results; the same
// checks run on Local groups here and on MPI_COMM_WORLD under mpirun.
func exercise(c Comm, dir string) error {
	p, r := c.Size(), c.Rank()
	// Alltoall: rank r sends q+1 copies of r*100+q to rank q.
	send := make([][]int32, p)
	for q := range send {
		for range q + 1 {
			send[q] = append(send[q], int32(r*100+q))
		}
	}
	recv, err := Alltoall(c, send)
	if err != nil {
		return err
	}
	for q, got := range recv {
		want := slices.Repeat([]int32{int32(q*100 + r)}, r+1)
		if !slices.Equal(got, want) {
			return fmt.Errorf("alltoall: from rank %d got %v, want %v", q, got, want)
		}
	}
	// Reductions and scans.
	for _, tc := range []struct {
		op   func(Comm, int64) (int64, error)
		name string
		want int64
	}{
		{Sum, "sum", int64(p * (p + 1) / 2)},
		{Max, "max", int64(p)},
		{Min, "min", 1},
	} {
		got, err := tc.op(c, int64(r+1))
		if err != nil {
			return err
		}
		if got != tc.want {
			return fmt.Errorf("%s: got %d, want %d", tc.name, got, tc.want)
		}
	}
	before, total, err := Exscan(c, int64(r+1))
	if err != nil {
		return err
	}
	if want := int64(r * (r + 1) / 2); before != want || total != int64(p*(p+1)/2) {
		return fmt.Errorf("exscan: got %d, %d, want %d, %d", before, total, want, p*(p+1)/2)
	}
	b, err := Bcast(c, []float64{float64(r) + 0.5}, p-1)
	if err != nil {
		return err
	}
	if len(b) != 1 || b[0] != float64(p-1)+0.5 {
		return fmt.Errorf("bcast: got %v", b)
	}
	// Agree: nil everywhere, then the last rank fails.
	if err := Agree(c, nil); err != nil {
		return fmt.Errorf("agree with no failure: %v", err)
	}
	var mine error
	if r == p-1 {
		mine = errors.New("planted")
	}
	err = Agree(c, mine)
	if err == nil || !strings.Contains(err.Error(), "planted") {
		return fmt.Errorf("agree with a failure on rank %d: got %v", p-1, err)
	}
	// A shared file: rank r writes r+1 bytes 'a'+r after the ranks before.
	path := filepath.Join(dir, "shared.txt")
	f, err := c.Create(path)
	if err != nil {
		return err
	}
	at, _, err := Exscan(c, int64(r+1))
	if err != nil {
		return err
	}
	if err := f.WriteAt([]byte(strings.Repeat(string(rune('a'+r)), r+1)), at); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var want strings.Builder
	for q := range p {
		want.WriteString(strings.Repeat(string(rune('a'+q)), q+1))
	}
	if string(got) != want.String() {
		return fmt.Errorf("shared file: got %q, want %q", got, want.String())
	}
	return Barrier(c)
}

func TestLocal(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			for r, err := range RunLocal(n, func(c Comm) error { return exercise(c, dir) }) {
				if err != nil {
					t.Errorf("rank %d: %v", r, err)
				}
			}
		})
	}
}

func TestAgreeKeepsTheError(t *testing.T) {
	sentinel := errors.New("only me")
	errs := RunLocal(3, func(c Comm) error {
		var e error
		if c.Rank() == 1 {
			e = fmt.Errorf("wrapped: %w", sentinel)
		}
		return Agree(c, e)
	})
	if !errors.Is(errs[1], sentinel) {
		t.Errorf("rank 1: %v does not wrap its own error", errs[1])
	}
	for _, r := range []int{0, 2} {
		var re *RankError
		if !errors.As(errs[r], &re) || re.Ranks[0] != 1 || !strings.Contains(errs[r].Error(), "rank 1: wrapped: only me") {
			t.Errorf("rank %d: %v, want a RankError naming rank 1", r, errs[r])
		}
	}
}
