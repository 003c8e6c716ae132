package cfd

import (
	"fmt"
	"math"
	"slices"
)

// Schedule is a mesh's SPAC-scheduled flux computation: which part (thread
// block) evaluates which faces, the element numbering that makes each
// part's home elements contiguous, and each part's local slots (its
// shared-memory layout). Every array is flat and indexed by int32, as a
// kernel takes it; element ids are the schedule's numbering.
//
// Part p (block p):
//   - home elements: ids [HomeStart[p], HomeStart[p+1]); the first ones, up
//     to SharedStart[p], no other part touches (their flux is stored), the
//     rest other parts touch too (their flux is added, atomically on a GPU,
//     after being cleared);
//   - slots: Slots[SlotStart[p]:SlotStart[p+1]] are the global ids of the
//     part's unique elements; the first HomeStart[p+1]-HomeStart[p] are the
//     home range in order, the rest copies of other parts' elements in
//     increasing id order;
//   - faces: [FaceStart[p], FaceStart[p+1]); face f joins local slots
//     FaceA[f] and FaceB[f], or FaceB[f] is Wing or FarField for a boundary
//     face of FaceA[f]; its normal, pointing into FaceA[f]'s element, is
//     FaceNormal[f + k*NumFaces] for component k. Interior faces come
//     first, boundary faces after.
//
// Every element belongs to one home part: the part holding most of its
// interior faces, the lowest such part on a tie; an element without
// interior faces goes to part (its rank among such elements) mod K. Its
// boundary faces go to its home part, which touches it anyway, so they add
// no copies; a part may thus hold more faces than the block size (threads
// then take a second face).
type Schedule struct {
	Method    string
	BlockSize int
	K         int
	// Perm[new] is the original element of schedule element new; Inv is
	// its inverse.
	Perm, Inv []int32
	// Mesh is the mesh in the schedule's numbering (step factor and time
	// step run on it).
	Mesh *Mesh

	HomeStart   []int32 // K+1
	SharedStart []int32 // K
	SlotStart   []int32 // K+1
	Slots       []int32
	FaceStart   []int32 // K+1
	FaceA       []int32
	FaceB       []int32
	FaceNormal  []float64 // NDim * NumFaces

	MaxSlots int   // most slots of a part: its shared-memory demand
	MaxFaces int   // most faces of a part, boundary faces included
	Copies   int64 // slots beyond one per element: extra element loads per flux evaluation
}

// NumFaces is the number of faces (interior and boundary) scheduled.
func (s *Schedule) NumFaces() int { return len(s.FaceA) }

// NewSchedule turns an edge partition of m's interior faces (f, from
// BuildFaces; pp, from PartitionFaces) into a Schedule.
func NewSchedule(m *Mesh, f *Faces, pp *Partitioned) (*Schedule, error) {
	n := m.N
	p := pp.Partition
	K := p.K
	if f.N != n || len(p.Part) != len(f.A) || pp.Inc == nil || len(pp.Inc.Offsets) != n+1 {
		return nil, fmt.Errorf("partition of %d faces and %d vertices does not fit mesh %s of %d elements and %d interior faces", len(p.Part), len(pp.Inc.Offsets)-1, m.Name, n, len(f.A))
	}
	inc := pp.Inc

	// Home parts and sharing.
	home := make([]int32, n)
	shared := make([]bool, n)
	var rr int32
	for v := 0; v < n; v++ {
		edges := inc.Edge[inc.Offsets[v]:inc.Offsets[v+1]]
		if len(edges) == 0 {
			home[v] = rr % int32(K)
			rr++
			continue
		}
		// At most NNB faces: a quadratic count is cheapest.
		best, bestCount := int32(-1), 0
		for _, e := range edges {
			q := p.Part[e]
			c := 0
			for _, e2 := range edges {
				if p.Part[e2] == q {
					c++
				}
			}
			if c > bestCount || (c == bestCount && q < best) {
				best, bestCount = q, c
			}
		}
		home[v] = best
		shared[v] = bestCount < len(edges)
	}

	// Renumber: by home part, exclusive before shared, then original id.
	key := func(v int) int { return 2*int(home[v]) + b2i(shared[v]) }
	count := make([]int32, 2*K+1)
	for v := 0; v < n; v++ {
		count[key(v)+1]++
	}
	for i := 0; i < 2*K; i++ {
		count[i+1] += count[i]
	}
	s := &Schedule{Method: pp.Metrics.Method, BlockSize: pp.BlockSize, K: K,
		HomeStart: make([]int32, K+1), SharedStart: make([]int32, K)}
	for q := 0; q < K; q++ {
		s.HomeStart[q], s.SharedStart[q] = count[2*q], count[2*q+1]
	}
	s.HomeStart[K] = int32(n)
	s.Perm = make([]int32, n)
	pos := slices.Clone(count[:2*K])
	for v := 0; v < n; v++ {
		k := key(v)
		s.Perm[pos[k]] = int32(v)
		pos[k]++
	}
	s.Inv = Inverse(s.Perm)
	s.Mesh = m.Permute(s.Perm, s.Inv)
	s.Mesh.Name = m.Name

	// Interior faces grouped by part, in face order within a part.
	fstart := make([]int32, K+1)
	for _, q := range p.Part {
		fstart[q+1]++
	}
	for q := 0; q < K; q++ {
		fstart[q+1] += fstart[q]
	}
	byPart := make([]int32, len(p.Part))
	fpos := slices.Clone(fstart[:K])
	for e, q := range p.Part {
		byPart[fpos[q]] = int32(e)
		fpos[q]++
	}

	nb := s.Mesh.Counts()
	nf := len(f.A) + nb.Wing + nb.FarField
	if int64(nf) >= math.MaxInt32 || int64(n)+2*int64(len(f.A)) >= math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d faces exceed the int32 indices of a schedule", m.Name, nf)
	}
	s.FaceStart = make([]int32, K+1)
	s.FaceA = make([]int32, 0, nf)
	s.FaceB = make([]int32, 0, nf)
	s.FaceNormal = make([]float64, NDim*nf)
	s.SlotStart = make([]int32, K+1)
	s.Slots = make([]int32, 0, n+n/4)
	stamp := make([]int32, n) // part+1 that last listed the element (new id)
	local := make([]int32, n) // its slot there
	var foreign []int32
	for q := 0; q < K; q++ {
		h0, h1 := s.HomeStart[q], s.HomeStart[q+1]
		for v := h0; v < h1; v++ {
			s.Slots = append(s.Slots, v)
			stamp[v], local[v] = int32(q)+1, v-h0
		}
		foreign = foreign[:0]
		for _, e := range byPart[fstart[q]:fstart[q+1]] {
			for _, v := range [2]int32{s.Inv[f.A[e]], s.Inv[f.B[e]]} {
				if stamp[v] != int32(q)+1 {
					stamp[v] = int32(q) + 1
					foreign = append(foreign, v)
				}
			}
		}
		slices.Sort(foreign)
		for i, v := range foreign {
			local[v] = (h1 - h0) + int32(i)
		}
		s.Slots = append(s.Slots, foreign...)
		s.SlotStart[q+1] = int32(len(s.Slots))
		s.MaxSlots = max(s.MaxSlots, int(s.SlotStart[q+1]-s.SlotStart[q]))

		for _, e := range byPart[fstart[q]:fstart[q+1]] {
			x, y, z := m.Norm(int(f.A[e]), int(f.SlotA[e]))
			s.addFace(local[s.Inv[f.A[e]]], local[s.Inv[f.B[e]]], x, y, z, nf)
		}
		for v := h0; v < h1; v++ {
			for j := 0; j < NNB; j++ {
				if b := s.Mesh.Nb(int(v), j); b < 0 {
					x, y, z := s.Mesh.Norm(int(v), j)
					s.addFace(v-h0, b, x, y, z, nf)
				}
			}
		}
		s.FaceStart[q+1] = int32(len(s.FaceA))
		s.MaxFaces = max(s.MaxFaces, int(s.FaceStart[q+1]-s.FaceStart[q]))
	}
	if len(s.FaceA) != nf {
		return nil, fmt.Errorf("internal error: scheduled %d faces of %d", len(s.FaceA), nf)
	}
	s.Copies = int64(len(s.Slots) - n)
	return s, nil
}

func (s *Schedule) addFace(a, b int32, x, y, z float64, nf int) {
	f := len(s.FaceA)
	s.FaceA = append(s.FaceA, a)
	s.FaceB = append(s.FaceB, b)
	s.FaceNormal[f], s.FaceNormal[f+nf], s.FaceNormal[f+2*nf] = x, y, z
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
