package cfd

import (
	"fmt"
	"time"

	"github.com/spac-gpu/spac/order"
)

// Renumbered is a mesh whose elements were renumbered by reverse
// Cuthill-McKee: the fair baseline of the SPAC schedule, the order a
// careful user applies before reaching for a partitioner. The original
// kernels run on it unchanged; neighbouring elements then sit at nearby
// indices, which the caches reward.
type Renumbered struct {
	Mesh *Mesh
	// Perm[new] is the original element of element new; Inv its inverse.
	Perm, Inv []int32
	Time      time.Duration // computing the order and permuting the mesh
}

// RenumberRCM orders m's elements by reverse Cuthill-McKee of the element
// graph (an edge per pair of neighbours; package order) and permutes the
// mesh. The element-centric solver computes bit for bit the same values
// on the renumbered mesh (Mesh.Permute keeps every element's face order).
func RenumberRCM(m *Mesh) (*Renumbered, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	n := m.N
	ptr := make([]int64, n+1)
	adj := make([]int32, 0, NNB*n)
	for i := 0; i < n; i++ {
		for j := 0; j < NNB; j++ {
			// order.RCM adds the reverse arcs and drops self-loops.
			if b := m.Neighbor[i+j*n]; b >= 0 {
				adj = append(adj, b)
			}
		}
		ptr[i+1] = int64(len(adj))
	}
	perm := order.RCM(n, ptr, adj)
	if len(perm) != n {
		return nil, fmt.Errorf("%s: RCM ordered %d of %d elements", m.Name, len(perm), n)
	}
	inv := order.Inverse(perm)
	r := &Renumbered{Mesh: m.Permute(perm, inv), Perm: perm, Inv: inv}
	r.Mesh.Name = m.Name
	r.Time = time.Since(start)
	return r, nil
}

// Restore maps a state of the renumbered mesh (Var layout) back to the
// original numbering.
func (r *Renumbered) Restore(vars []float64) []float64 {
	n := len(r.Perm)
	out := make([]float64, len(vars))
	for v := 0; v < len(vars)/n; v++ {
		for q, old := range r.Perm {
			out[int(old)+v*n] = vars[q+v*n]
		}
	}
	return out
}
