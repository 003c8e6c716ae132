package gaussian

import (
	_ "embed"
	"fmt"
	"unsafe"

	"github.com/spac-gpu/spac/gpu"
)

// gaussianPTX is kernels/gaussian.ptx, made from kernels/gaussian.cu by
// 'make ptx'.
//
//go:embed kernels/gaussian.ptx
var gaussianPTX string

// Module is the gaussian kernels' PTX, which NewGPU loads: each kernel in
// fp32 and fp64.
var Module = gpu.PTXModule{Name: "gaussian", PTX: gaussianPTX,
	Entries: gpu.Variants("gaussian", []string{"fan1", "fan2", "spac_fan2"}, "f32", "f64")}

// BlockSizes are the block sizes a sweep runs by default.
var BlockSizes = []int{32, 64, 128, 256, 512, 1024}

// Fan2Shape is the original Fan2's 2D block for blockSize threads: bx rows
// (threadIdx.x, the fastest index) by by columns, bx the largest power of
// two whose square is at most blockSize (Rodinia's square BLOCK_SIZE_XY
// blocks where blockSize is a square: 16 x 16 for 256).
func Fan2Shape(blockSize int) (bx, by int, err error) {
	if blockSize < 1 || blockSize > 1024 {
		return 0, 0, fmt.Errorf("block size %d: want 1 to 1024 threads", blockSize)
	}
	bx = 1
	for 4*bx*bx <= blockSize {
		bx *= 2
	}
	if blockSize%bx != 0 {
		return 0, 0, fmt.Errorf("block size %d is not a multiple of %d: no %d-row 2D block", blockSize, bx, bx)
	}
	return bx, blockSize / bx, nil
}

// GPU runs the elimination on a device with the kernels of Module.
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

// GPUResult is one elimination on the GPU, back-substituted on the host.
type GPUResult struct {
	Solution
	Time   gpu.Timing // the whole elimination (restoring A and b included)
	Blocks int64      // blocks launched over all steps, Fan1's included
	Shared int        // SPAC Fan2's dynamic shared memory per block
}

// SharedBytes is the SPAC Fan2's shared memory per block in precision p.
func SharedBytes(tp *Template, p Precision) int { return (tp.MaxRows + tp.MaxCols) * (p.Bytes() + 4) }

// Eliminate runs Rodinia's forward elimination of s on the GPU in
// precision p with blockSize threads per block: Fan1 and the original Fan2
// when tp is nil, Fan1 and the SPAC Fan2 of template tp (whose block size
// blockSize must be) otherwise; then back substitution on the host. The
// n-1 steps are recorded once as a CUDA graph with a copy of A and b from
// pristine device copies at its start; it runs once for the result, then
// reps times after a warm-up between CUDA events (median in Time).
func (g *GPU) Eliminate(s *System, tp *Template, p Precision, blockSize, reps int) (*GPUResult, error) {
	if tp != nil && tp.BlockSize != blockSize {
		return nil, fmt.Errorf("block size %d for a template of block size %d: a block runs one part", blockSize, tp.BlockSize)
	}
	if reps < 1 {
		return nil, fmt.Errorf("%d timed repetitions", reps)
	}
	if tp != nil {
		if err := tp.Check(); err != nil {
			return nil, err
		}
	}
	switch p {
	case FP32:
		return eliminate[float32](g, s, tp, p, blockSize, reps)
	case FP64:
		return eliminate[float64](g, s, tp, p, blockSize, reps)
	}
	return nil, fmt.Errorf("unknown precision %v", p)
}

func eliminate[T Float](g *GPU, s *System, tp *Template, p Precision, blockSize, reps int) (*GPUResult, error) {
	n := s.N
	bx, by, err := Fan2Shape(blockSize)
	if err != nil {
		return nil, err
	}
	var bufs []*gpu.Buffer
	defer func() {
		for _, b := range bufs {
			b.Free()
		}
	}()
	upload := func(v any, what string) (*gpu.Buffer, error) {
		var b *gpu.Buffer
		var err error
		switch v := v.(type) {
		case []T:
			b, err = gpu.Upload(g.dev, v, what)
		case []int32:
			b, err = gpu.Upload(g.dev, v, what)
		case []uint32:
			b, err = gpu.Upload(g.dev, v, what)
		}
		if err == nil {
			bufs = append(bufs, b)
		}
		return b, err
	}
	a0, err := upload(convert[T](s.A), "matrix")
	if err != nil {
		return nil, err
	}
	b0, err := upload(convert[T](s.B), "right-hand side")
	if err != nil {
		return nil, err
	}
	var work [3]*gpu.Buffer // a, b, m
	for i, what := range []string{"eliminated matrix", "eliminated right-hand side", "multipliers"} {
		count := n * n
		if i == 1 {
			count = n
		}
		if work[i], err = g.dev.Alloc(int64(count*int(unsafe.Sizeof(T(0)))), what); err != nil {
			return nil, err
		}
		bufs = append(bufs, work[i])
	}
	a, b, m := work[0], work[1], work[2]
	if err := m.Zero(); err != nil {
		return nil, err
	}
	name := func(k string) string { return "gaussian_" + k + "_" + p.Suffix() }
	res := &GPUResult{}

	// The SPAC template's arrays.
	var tArgs []uint64
	if tp != nil {
		for _, arr := range [][]int32{tp.RowStart, tp.Rows, tp.ColStart, tp.Cols, tp.LastRow, tp.LastCol} {
			buf, err := upload(arr, "template")
			if err != nil {
				return nil, err
			}
			tArgs = append(tArgs, gpu.Ptr(buf))
		}
		task, err := upload(tp.Task, "template tasks")
		if err != nil {
			return nil, err
		}
		tArgs = append(tArgs, gpu.Ptr(task), gpu.Int(tp.MaxRows), gpu.Int(tp.MaxCols))
		res.Shared = SharedBytes(tp, p)
	}
	steps := func() error {
		if err := a.CopyFrom(a0); err != nil {
			return err
		}
		if err := b.CopyFrom(b0); err != nil {
			return err
		}
		for t := 0; t < n-1; t++ {
			fan1, err := g.mod.Launch(name("fan1"), (n-1-t+blockSize-1)/blockSize, blockSize, 0, gpu.Int(n), gpu.Int(t), gpu.Ptr(a), gpu.Ptr(m))
			if err != nil {
				return err
			}
			var fan2 *gpu.Launch
			if tp == nil {
				gx, gy := (n+bx-1)/bx, (n+by-1)/by
				fan2, err = g.mod.Launch(name("fan2"), gx*gy, blockSize, 0, gpu.Int(n), gpu.Int(t), gpu.Int(bx), gpu.Int(by), gpu.Int(gx),
					gpu.Ptr(m), gpu.Ptr(a), gpu.Ptr(b))
			} else {
				r0, nr, c0, nc := tp.windows(n, t)
				args := append([]uint64{gpu.Int(n), gpu.Int(t), gpu.Int(tp.W), gpu.Int(tp.K), gpu.Int(r0), gpu.Int(c0), gpu.Int(nc)}, tArgs...)
				args = append(args, gpu.Ptr(m), gpu.Ptr(a), gpu.Ptr(b))
				fan2, err = g.mod.LaunchOptIn(name("spac_fan2"), nr*nc*tp.K, blockSize, res.Shared, args...)
			}
			if err != nil {
				return err
			}
			if err := fan1.Run(); err != nil {
				return err
			}
			if err := fan2.Run(); err != nil {
				return err
			}
		}
		return nil
	}
	res.Blocks = Blocks(n, blockSize, tp)
	graph, err := g.dev.Capture(steps)
	if err != nil {
		return nil, fmt.Errorf("%s, n=%d, block size %d: %w", s.Name, n, blockSize, err)
	}
	defer graph.Close()
	if err := graph.Launch(); err != nil {
		return nil, err
	}
	outA, outB := make([]T, n*n), make([]T, n)
	if err := gpu.Download(a, outA, "eliminated matrix"); err != nil {
		return nil, err
	}
	if err := gpu.Download(b, outB, "eliminated right-hand side"); err != nil {
		return nil, err
	}
	res.Solution = *finish(n, outA, outB)
	what := fmt.Sprintf("gaussian n=%d %s B=%d", n, p, blockSize)
	if res.Time, err = g.dev.Time(graph.Launch, 1, reps, what); err != nil {
		return nil, err
	}
	return res, nil
}

// Blocks is the number of blocks an elimination of n unknowns launches
// with blockSize threads: Fan1's, and the original Fan2's full grid at
// every step (tp nil) or the SPAC Fan2's active windows.
func Blocks(n, blockSize int, tp *Template) int64 {
	var sum int64
	for t := 0; t < n-1; t++ {
		sum += int64((n - 1 - t + blockSize - 1) / blockSize)
	}
	if tp != nil {
		return sum + tp.Blocks(n)
	}
	bx, by, err := Fan2Shape(blockSize)
	if err != nil {
		return 0
	}
	return sum + int64(n-1)*int64((n+bx-1)/bx)*int64((n+by-1)/by)
}
