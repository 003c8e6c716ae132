package btree

import (
	_ "embed"
	"fmt"

	"github.com/spac-gpu/spac/gpu"
)

// btreePTX is kernels/btree.ptx, made from kernels/btree.cu by 'make ptx'.
//
//go:embed kernels/btree.ptx
var btreePTX string

// Module is the b+tree kernels' PTX, which NewGPU loads.
var Module = gpu.PTXModule{Name: "btree", PTX: btreePTX,
	Entries: []string{"btree_findk", "btree_findrange", "btree_spac_findk", "btree_spac_findrange"}}

// maxLevels is MAX_LEVELS in btree.cu: the most levels a SPAC block caches
// per path.
const maxLevels = 32

// BlockSizes are the block sizes (tree orders) a sweep runs by default.
var BlockSizes = []int{32, 64, 128, 256, 512, 1024}

// GPU runs the queries on a device with the kernels of Module.
type GPU struct {
	dev *gpu.Device
	mod *gpu.Module
}

// NewGPU loads the kernels into an open device (gpu.Open); without a CUDA
// build it returns gpu.ErrNoCUDA.
func NewGPU(d *gpu.Device) (*GPU, error) {
	mod, err := d.LoadModule(Module)
	if err != nil {
		return nil, err
	}
	return &GPU{dev: d, mod: mod}, nil
}

// Source says where the kernels' PTX came from.
func (g *GPU) Source() string { return g.mod.Source() }

// GPUResult is one kernel's run on the GPU.
type GPUResult struct {
	Answers            // in query order
	Time    gpu.Timing // one launch, over the timed repetitions
	Shared  int        // dynamic shared memory per block (SPAC)
	Blocks  int
}

// buffers frees every device buffer it handed out.
type buffers []*gpu.Buffer

func (bs *buffers) free() {
	for _, b := range *bs {
		b.Free()
	}
}

func (bs *buffers) upload(d *gpu.Device, s []int32, what string) (*gpu.Buffer, error) {
	b, err := gpu.Upload(d, s, what)
	if err == nil {
		*bs = append(*bs, b)
	}
	return b, err
}

func (bs *buffers) alloc(d *gpu.Device, n int, what string) (*gpu.Buffer, error) {
	b, err := d.Alloc(4*int64(max(n, 1)), what)
	if err == nil {
		*bs = append(*bs, b)
	}
	return b, err
}

// Run answers batch b on tree t, whose order is the block size: with sched
// nil the original kernel, one block per query, the queries in the order
// ord (nil: as they come; the RCM baseline passes its order); else the
// SPAC kernel, one block per part of sched. It runs once and reads the
// answers back (into query order), then times reps launches after one
// warm-up (CUDA events; median in Time).
func (g *GPU) Run(t *Tree, b *Batch, ord []int32, sched *Schedule, reps int) (*GPUResult, error) {
	switch {
	case t.Order < 3 || t.Order > 1024:
		return nil, fmt.Errorf("a tree of order %d: a block of that many threads runs a node, from 3 to 1024", t.Order)
	case t.Height >= maxLevels:
		return nil, fmt.Errorf("a tree of height %d: the kernels cache at most %d levels", t.Height, maxLevels)
	case b.Len() == 0:
		return nil, fmt.Errorf("no %s queries", b.Kind)
	case sched != nil && (sched.Kind != b.Kind || len(sched.Order) != b.Len() || sched.BlockSize != t.Order):
		return nil, fmt.Errorf("a %s schedule of %d queries for block size %d does not fit %d %s queries on a tree of order %d",
			sched.Kind, len(sched.Order), sched.BlockSize, b.Len(), b.Kind, t.Order)
	case reps < 1:
		return nil, fmt.Errorf("%d timed repetitions", reps)
	}
	if sched != nil {
		ord = sched.Order
	}
	if ord == nil {
		ord = make([]int32, b.Len())
		for i := range ord {
			ord[i] = int32(i)
		}
	}
	in := b.Permute(ord)
	var bufs buffers
	defer bufs.free()
	nodes, err := bufs.upload(g.dev, t.Nodes, "tree nodes")
	if err != nil {
		return nil, err
	}
	starts, err := bufs.upload(g.dev, in.Start, "query keys")
	if err != nil {
		return nil, err
	}
	var ends *gpu.Buffer
	if b.Kind == FindRange {
		if ends, err = bufs.upload(g.dev, in.End, "range ends"); err != nil {
			return nil, err
		}
	}
	n := b.Len()
	outA, err := bufs.alloc(g.dev, n, "answers")
	if err != nil {
		return nil, err
	}
	outB, err := bufs.alloc(g.dev, n, "range lengths")
	if err != nil {
		return nil, err
	}
	args := []uint64{gpu.Int(t.Height), gpu.Int(int(t.Root)), gpu.Int(t.Slots()), gpu.Ptr(nodes)}
	if b.Kind == FindK {
		recs, err := bufs.upload(g.dev, t.Records, "records")
		if err != nil {
			return nil, err
		}
		args = append(args, gpu.Ptr(recs))
	}
	res := &GPUResult{Blocks: n}
	kernel := "btree_" + b.Kind.String()
	if sched == nil {
		// The original's per-query state: current and next node of each
		// path.
		for range paths(b.Kind) * 2 {
			state, err := bufs.alloc(g.dev, n, "query state")
			if err != nil {
				return nil, err
			}
			args = append(args, gpu.Ptr(state))
		}
	} else {
		pstart, err := bufs.upload(g.dev, sched.Start, "block query ranges")
		if err != nil {
			return nil, err
		}
		args = append(args, gpu.Ptr(pstart))
		kernel = "btree_spac_" + b.Kind.String()
		res.Shared, res.Blocks = SharedBytes(t, b.Kind), sched.K
	}
	args = append(args, gpu.Ptr(starts))
	if ends != nil {
		args = append(args, gpu.Ptr(ends))
	}
	if sched != nil {
		qid, err := bufs.upload(g.dev, sched.Order, "query numbers")
		if err != nil {
			return nil, err
		}
		args = append(args, gpu.Ptr(qid))
	}
	args = append(args, gpu.Ptr(outA))
	if b.Kind == FindRange {
		args = append(args, gpu.Ptr(outB))
	}
	launch, err := g.mod.LaunchOptIn(kernel, res.Blocks, t.Order, res.Shared, args...)
	if err != nil {
		return nil, fmt.Errorf("%s, order %d, height %d: %w", b.Kind, t.Order, t.Height, err)
	}

	// Answers start as the kernels expect: -1 (no record) for findK, 0
	// for ranges.
	fill := uint32(0)
	if b.Kind == FindK {
		fill = ^uint32(0)
	}
	if err := outA.Fill32(fill); err != nil {
		return nil, err
	}
	if err := outB.Zero(); err != nil {
		return nil, err
	}
	if err := launch.Run(); err != nil {
		return nil, err
	}
	gotA, gotB := make([]int32, n), make([]int32, n)
	if err := gpu.Download(outA, gotA, "answers"); err != nil {
		return nil, err
	}
	if err := gpu.Download(outB, gotB, "range lengths"); err != nil {
		return nil, err
	}
	res.A = make([]int32, n)
	if b.Kind == FindRange {
		res.B = make([]int32, n)
	}
	for i, q := range ord {
		if sched != nil {
			i = int(q) // the SPAC kernels write by query number
		}
		res.A[q] = gotA[i]
		if res.B != nil {
			res.B[q] = gotB[i]
		}
	}
	// Repeated launches write the same answers again.
	name := fmt.Sprintf("btree %s order %d", b.Kind, t.Order)
	if res.Time, err = g.dev.Time(launch.Run, 1, reps, name); err != nil {
		return nil, err
	}
	return res, nil
}
