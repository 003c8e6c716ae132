package mpi_test

import (
	"fmt"

	"github.com/spac-gpu/spac/mpi"
)

// Three ranks of one process add up their numbers and swap messages; under
// mpirun the same code runs on mpi.Init's world.
func ExampleRunLocal() {
	sums := make([]int64, 3)
	mpi.RunLocal(3, func(c mpi.Comm) error {
		total, err := mpi.Sum(c, int64(c.Rank()+1))
		if err != nil {
			return err
		}
		sums[c.Rank()] = total
		// Rank r sends r to every rank: each receives 0, 1, 2.
		send := make([][]int32, c.Size())
		for q := range send {
			send[q] = []int32{int32(c.Rank())}
		}
		got, err := mpi.Alltoall(c, send)
		if c.Rank() == 0 && err == nil {
			fmt.Println("rank 0 received", got)
		}
		return err
	})
	fmt.Println("sums", sums)
	// Output:
	// rank 0 received [[0] [1] [2]]
	// sums [6 6 6]
}
