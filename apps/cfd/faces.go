package cfd

import (
	"context"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/internal/progress"
	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/pipeline"
	"github.com/spac-gpu/spac/spac"
)

// NormalTolerance is how far the two normals of an interior face may be
// from exact negatives, relative to their length, for the mesh to count as
// conforming. A mesh written with float32 precision of independently
// computed normals stays within it; generated meshes are exact. The
// face-centric flux uses the first element's normal for both sides.
const NormalTolerance = 1e-5

// Faces are a conforming mesh's faces: each interior face once (the edges
// of the locality graph) and each boundary face.
type Faces struct {
	N int // elements
	// Interior face e joins A[e] and B[e] (A[e] <= B[e]); it is slot
	// SlotA[e] of A[e], whose normal (pointing into A[e]) it uses.
	A, B  []int32
	SlotA []uint8
	// Boundary face e is slot BSlot[e] of element BElem[e], in element
	// order.
	BElem []int32
	BSlot []uint8
	// MaxNormalMismatch is the largest |n_a + n_b| / |n_a| over interior
	// faces (0 for a generated mesh).
	MaxNormalMismatch float64
}

// BuildFaces pairs every interior slot with its opposite slot. It fails,
// naming the element, where the mesh is not conforming: a lists b but b
// does not list a as often, or the two normals are not opposite.
func BuildFaces(m *Mesh) (*Faces, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	n := m.N
	f := &Faces{N: n}
	matched := make([]bool, NNB*n) // by slot index i + j*n
	for a := 0; a < n; a++ {
		for j := 0; j < NNB; j++ {
			b := m.Neighbor[a+j*n]
			switch {
			case b < 0:
				f.BElem = append(f.BElem, int32(a))
				f.BSlot = append(f.BSlot, uint8(j))
				continue
			case matched[a+j*n]:
				continue
			case int(b) < a:
				return nil, fmt.Errorf("%s: not conforming: element %d lists %d as neighbour (slot %d) but %d does not list %d back", m.Name, a, b, j, b, a)
			}
			ax, ay, az := m.Norm(a, j)
			la := math.Sqrt(ax*ax + ay*ay + az*az)
			found, worst := -1, 0.0
			start := 0
			if int(b) == a {
				start = j + 1 // a face of an element with itself pairs two of its slots
			}
			for jj := start; jj < NNB; jj++ {
				if m.Neighbor[int(b)+jj*n] != int32(a) || matched[int(b)+jj*n] {
					continue
				}
				bx, by, bz := m.Norm(int(b), jj)
				d := math.Sqrt((ax+bx)*(ax+bx) + (ay+by)*(ay+by) + (az+bz)*(az+bz))
				rel := d / la
				if la == 0 {
					rel = d
				}
				if rel <= NormalTolerance {
					found = jj
					f.MaxNormalMismatch = max(f.MaxNormalMismatch, rel)
					break
				}
				worst = rel
			}
			if found < 0 {
				if worst > 0 {
					return nil, fmt.Errorf("%s: not conforming: the normals of the face between elements %d and %d are not opposite (relative difference %.3g, tolerance %g)", m.Name, a, b, worst, NormalTolerance)
				}
				return nil, fmt.Errorf("%s: not conforming: element %d lists %d as neighbour (slot %d) but %d does not list %d back", m.Name, a, b, j, b, a)
			}
			matched[a+j*n], matched[int(b)+found*n] = true, true
			f.A = append(f.A, int32(a))
			f.B = append(f.B, b)
			f.SlotA = append(f.SlotA, uint8(j))
		}
	}
	return f, nil
}

// Graph is the locality graph: a vertex per element, edge e = interior
// face e. Edges come in element order, so the "default" method's
// row-order chunks are the original kernel's element order.
func (f *Faces) Graph() *matrices.Graph {
	return &matrices.Graph{NumVertices: f.N, U: f.A, V: f.B, NumRowVertices: f.N, Model: matrices.ModelGraph}
}

// Partitioned is an edge partition of a mesh's locality graph.
type Partitioned struct {
	Graph     *matrices.Graph
	Inc       *matrices.Incidence
	Partition spac.Partition
	Metrics   spac.Metrics // with Method, Cap and Time filled
	BlockSize int
}

// PartitionFaces partitions the interior faces with a method of package
// spac into parts of at most blockSize faces (opts.K and opts.Cap are set
// from the block size; the rest of opts is passed on), through
// pipeline.PartitionGraph: the partition is checked and evaluated, and the
// method's stages are shown on prog (nil: silent).
func PartitionFaces(ctx context.Context, f *Faces, method spac.Method, blockSize int, opts spac.Options, prog *progress.Reporter) (*Partitioned, error) {
	g := f.Graph()
	if g.NumEdges() == 0 {
		return nil, fmt.Errorf("the mesh has no interior faces: nothing to partition")
	}
	k, capacity, err := spac.Resolve(g.NumEdges(), 0, blockSize)
	if err != nil {
		return nil, err
	}
	opts.K, opts.Cap = k, capacity
	inc, err := matrices.BuildIncidence(g)
	if err != nil {
		return nil, err
	}
	p, met, err := pipeline.PartitionGraph(ctx, "", g, inc, method, opts, prog)
	if err != nil {
		return nil, err
	}
	return &Partitioned{Graph: g, Inc: inc, Partition: p, Metrics: met, BlockSize: blockSize}, nil
}
