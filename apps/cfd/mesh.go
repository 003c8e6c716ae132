package cfd

import (
	"fmt"
	"math"
)

// Sizes of euler3d's arrays.
const (
	NNB  = 4 // face slots per element
	NDim = 3 // components of a normal
	NVar = 5 // variables per element
)

// Variable indices: Var[i + v*N].
const (
	VarDensity  = 0
	VarMomentum = 1 // x, y, z at 1, 2, 3
	VarEnergy   = VarMomentum + NDim
)

// Neighbour codes of boundary faces in Mesh.Neighbor.
const (
	Wing     int32 = -1
	FarField int32 = -2
)

// Mesh is an unstructured mesh of elements with four face slots each, laid
// out as euler3d.cu lays it out on the device (structure of arrays).
type Mesh struct {
	Name string
	N    int
	// Area[i] is the element's area (volume in 3D); positive.
	Area []float64
	// Neighbor[i + j*N] is slot j's neighbour: an element index, Wing or
	// FarField.
	Neighbor []int32
	// Normal[i + (j + k*NNB)*N] is component k of slot j's normal, pointing
	// into element i (the negated normal of the file), its length the
	// face's size.
	Normal []float64
}

// NewMesh allocates a mesh of n elements with every slot a far-field face.
func NewMesh(name string, n int) *Mesh {
	m := &Mesh{Name: name, N: n, Area: make([]float64, n), Neighbor: make([]int32, NNB*n), Normal: make([]float64, NDim*NNB*n)}
	for i := range m.Neighbor {
		m.Neighbor[i] = FarField
	}
	return m
}

// Nb is slot j's neighbour of element i.
func (m *Mesh) Nb(i, j int) int32 { return m.Neighbor[i+j*m.N] }

// Norm returns slot j's normal of element i.
func (m *Mesh) Norm(i, j int) (x, y, z float64) {
	n := m.N
	return m.Normal[i+(j+0*NNB)*n], m.Normal[i+(j+1*NNB)*n], m.Normal[i+(j+2*NNB)*n]
}

// SetFace sets slot j of element i.
func (m *Mesh) SetFace(i, j int, nb int32, x, y, z float64) {
	n := m.N
	m.Neighbor[i+j*n] = nb
	m.Normal[i+(j+0*NNB)*n] = x
	m.Normal[i+(j+1*NNB)*n] = y
	m.Normal[i+(j+2*NNB)*n] = z
}

// Validate checks what the solver relies on: consistent array sizes,
// neighbour codes in range, positive finite areas and finite normals.
func (m *Mesh) Validate() error {
	if m.N <= 0 {
		return fmt.Errorf("%s: mesh has %d elements", m.Name, m.N)
	}
	if m.N >= math.MaxInt32 {
		return fmt.Errorf("%s: %d elements exceed the int32 index range", m.Name, m.N)
	}
	if len(m.Area) != m.N || len(m.Neighbor) != NNB*m.N || len(m.Normal) != NDim*NNB*m.N {
		return fmt.Errorf("%s: array sizes %d, %d, %d do not fit %d elements", m.Name, len(m.Area), len(m.Neighbor), len(m.Normal), m.N)
	}
	for i, a := range m.Area {
		if !(a > 0) || math.IsInf(a, 0) {
			return fmt.Errorf("%s: element %d has area %g (want positive and finite)", m.Name, i, a)
		}
	}
	for s, nb := range m.Neighbor {
		if nb < FarField || int(nb) >= m.N {
			return fmt.Errorf("%s: element %d slot %d has neighbour %d, outside [-2, %d)", m.Name, s%m.N, s/m.N, nb, m.N)
		}
	}
	for s, x := range m.Normal {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			i, rest := s%m.N, s/m.N
			return fmt.Errorf("%s: element %d slot %d normal component %d is %g", m.Name, i, rest%NNB, rest/NNB, x)
		}
	}
	return nil
}

// FaceCounts counts a mesh's face slots by kind; an interior face is seen
// from both sides, so Interior is twice the number of interior faces of a
// conforming mesh.
type FaceCounts struct {
	Interior, Wing, FarField int
}

// Counts counts the slots of each kind.
func (m *Mesh) Counts() FaceCounts {
	var c FaceCounts
	for _, nb := range m.Neighbor {
		switch {
		case nb >= 0:
			c.Interior++
		case nb == Wing:
			c.Wing++
		default:
			c.FarField++
		}
	}
	return c
}

// Permute returns the mesh with its elements renumbered: element q of the
// result is element perm[q] of m, and neighbour ids follow (inv is perm's
// inverse). Slot order within an element is kept, so the element-centric
// solver computes bit for bit the same values on either numbering.
func (m *Mesh) Permute(perm, inv []int32) *Mesh {
	n := m.N
	out := &Mesh{Name: m.Name, N: n, Area: make([]float64, n), Neighbor: make([]int32, len(m.Neighbor)), Normal: make([]float64, len(m.Normal))}
	for q, old := range perm {
		out.Area[q] = m.Area[old]
		for j := 0; j < NNB; j++ {
			nb := m.Neighbor[int(old)+j*n]
			if nb >= 0 {
				nb = inv[nb]
			}
			out.Neighbor[q+j*n] = nb
		}
		for s := 0; s < NNB*NDim; s++ {
			out.Normal[q+s*n] = m.Normal[int(old)+s*n]
		}
	}
	return out
}

// Equal reports whether two meshes have bit-for-bit the same contents
// (names aside).
func (m *Mesh) Equal(o *Mesh) bool {
	if m.N != o.N || len(m.Area) != len(o.Area) || len(m.Neighbor) != len(o.Neighbor) || len(m.Normal) != len(o.Normal) {
		return false
	}
	for i := range m.Area {
		if math.Float64bits(m.Area[i]) != math.Float64bits(o.Area[i]) {
			return false
		}
	}
	for i := range m.Neighbor {
		if m.Neighbor[i] != o.Neighbor[i] {
			return false
		}
	}
	for i := range m.Normal {
		if math.Float64bits(m.Normal[i]) != math.Float64bits(o.Normal[i]) {
			return false
		}
	}
	return true
}

// CheckPermutation verifies that perm is a permutation of [0, n) and inv
// its inverse.
func CheckPermutation(perm, inv []int32, n int) error {
	if len(perm) != n || len(inv) != n {
		return fmt.Errorf("permutation of %d and inverse of %d entries for %d elements", len(perm), len(inv), n)
	}
	for q, old := range perm {
		if old < 0 || int(old) >= n {
			return fmt.Errorf("permutation maps %d to %d, outside [0, %d)", q, old, n)
		}
		if inv[old] != int32(q) {
			return fmt.Errorf("inverse maps %d to %d, permutation maps %d to %d", old, inv[old], q, old)
		}
	}
	return nil
}

// Inverse returns the inverse of a permutation of [0, len(perm)).
func Inverse(perm []int32) []int32 {
	inv := make([]int32, len(perm))
	for q, old := range perm {
		inv[old] = int32(q)
	}
	return inv
}
