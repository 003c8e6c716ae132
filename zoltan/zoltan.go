package zoltan

import "fmt"

// Hypergraph is one rank's share of a hypergraph: vertex Vertices[i]
// (a global id) belongs to the nets Nets[Ptr[i]:Ptr[i+1]] (global ids).
// Global ids are unique over all ranks and below 2^32 - 1 (Zoltan's
// unsigned int ids in Debian's build).
type Hypergraph struct {
	Vertices []uint32
	Ptr      []int32
	Nets     []uint32
}

// Options are Zoltan's settings.
type Options struct {
	Parts int
	// Imbalance is the imbalance allowed (IMBALANCE_TOL = 1 + Imbalance;
	// 0 means 0.03).
	Imbalance float64
	// Seed is Zoltan's SEED parameter (its random generator's seed).
	Seed int64
}

func (h *Hypergraph) check() error {
	n := len(h.Vertices)
	if len(h.Ptr) != n+1 {
		return fmt.Errorf("zoltan: %d pin offsets for %d vertices, want %d", len(h.Ptr), n, n+1)
	}
	if h.Ptr[0] != 0 || int(h.Ptr[n]) != len(h.Nets) {
		return fmt.Errorf("zoltan: pin offsets run from %d to %d, want 0 to %d", h.Ptr[0], h.Ptr[n], len(h.Nets))
	}
	for i := range n {
		if h.Ptr[i+1] < h.Ptr[i] {
			return fmt.Errorf("zoltan: pin offsets decrease at vertex %d", i)
		}
	}
	for i, v := range h.Vertices {
		if v == ^uint32(0) {
			return fmt.Errorf("zoltan: vertex %d has the reserved id %d", i, v)
		}
	}
	for i, v := range h.Nets {
		if v == ^uint32(0) {
			return fmt.Errorf("zoltan: pin %d names the reserved net id %d", i, v)
		}
	}
	return nil
}

func (o Options) imbalance() float64 {
	if o.Imbalance <= 0 {
		return 0.03
	}
	return o.Imbalance
}
