package metis_test

import (
	"fmt"
	"log"

	"github.com/spac-gpu/spac/metis"
)

// Partition a 4×2 grid (two rows of four vertices) into two parts.
func Example() {
	//  0 - 1 - 2 - 3
	//  |   |   |   |
	//  4 - 5 - 6 - 7
	g := &metis.Graph{
		Xadj:   []int32{0, 2, 5, 8, 10, 12, 15, 18, 20},
		Adjncy: []int32{1, 4, 0, 2, 5, 1, 3, 6, 2, 7, 0, 5, 1, 4, 6, 2, 5, 7, 3, 6},
	}
	if err := g.Validate(); err != nil {
		log.Fatal(err)
	}
	part, cut, err := metis.PartGraph(g, 2, metis.Options{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("cut:", cut, "=", g.EdgeCut(part))
	fmt.Println("part weights:", g.PartWeights(part, 2))
	fmt.Println("left half together:", part[0] == part[1] && part[0] == part[4] && part[0] == part[5])
	// Output:
	// cut: 2 = 2
	// part weights: [4 4]
	// left half together: true
}
