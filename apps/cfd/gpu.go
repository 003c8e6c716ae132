package cfd

import (
	_ "embed"
	"fmt"
	"unsafe"

	"github.com/spac-gpu/spac/gpu"
)

// cfdPTX is kernels/cfd.ptx, made from kernels/cfd.cu by 'make ptx'.
//
//go:embed kernels/cfd.ptx
var cfdPTX string

// Module is the cfd kernels' PTX, which NewGPU loads: each kernel in
// precision FP32 and FP64 (entry).
var Module = gpu.PTXModule{Name: "cfd", PTX: cfdPTX, Entries: gpu.Variants("cfd",
	[]string{"init", "step_factor", "flux", "time_step", "time_step_clear", "spac_flux"},
	"f32", "f64")}

func entry(base string, p Precision) string {
	return "cfd_" + base + "_" + p.Suffix()
}

// BlockSizes are the thread-block sizes the paper's Fig. 14 sweeps.
var BlockSizes = []int{128, 192, 256, 384, 512, 1024}

// sharedValues is how many values of precision T a SPAC flux block keeps in
// shared memory per slot (SH_LEN in cfd.cu): the five variables, velocity,
// pressure, speed of sound, speed, and the five flux accumulators.
const sharedValues = 16

// ffLen is the length of the far-field array the kernels read (FF_LEN in
// cfd.cu): density, momentum, energy, the flux contributions fcM and fcE.
const ffLen = 17

// GPU runs the solver on a device with the kernels of Module.
type GPU struct {
	dev *gpu.Device
	mod *gpu.Module
}

// NewGPU loads the cfd kernels into an open device (gpu.Open); without a
// CUDA build it returns gpu.ErrNoCUDA.
func NewGPU(d *gpu.Device) (*GPU, error) {
	mod, err := d.LoadModule(Module)
	if err != nil {
		return nil, err
	}
	return &GPU{dev: d, mod: mod}, nil
}

// GPUResult is one run of the solver on the GPU.
type GPUResult struct {
	Result        // Time: the iterations, between CUDA events; Vars in the mesh's numbering
	BlockSize int // threads per block of every kernel
	// Shared is the SPAC flux kernel's dynamic shared memory per block
	// (0 for the original kernels).
	Shared int
}

// SharedBytes is the dynamic shared memory a SPAC flux block of sc needs in
// precision p: its largest part's slots.
func SharedBytes(sc *Schedule, p Precision) int {
	if p == FP32 {
		return sharedValues * sc.MaxSlots * sizeOf[float32]()
	}
	return sharedValues * sc.MaxSlots * sizeOf[float64]()
}

// Simulate runs euler3d on the GPU as Simulate runs it on the CPU: the
// original kernels on m with blockSize threads per block when sched is nil,
// else the schedule's face-centric flux (a block per part, the schedule's
// block size, which blockSize must equal) with step factor and time step on
// the schedule's numbering. It initializes, runs one warm-up iteration
// (the driver loads each kernel at its first launch), initializes again,
// and times the iterations between CUDA events; the final state comes back
// in m's numbering.
func (g *GPU) Simulate(m *Mesh, sched *Schedule, prec Precision, blockSize, iterations int) (*GPUResult, error) {
	if sched != nil && blockSize != sched.BlockSize {
		return nil, fmt.Errorf("block size %d for a schedule of block size %d: a block runs one part", blockSize, sched.BlockSize)
	}
	if blockSize < 32 || blockSize > 1024 || blockSize%32 != 0 {
		return nil, fmt.Errorf("block size %d: want a multiple of 32 from 32 to 1024 threads", blockSize)
	}
	if iterations < 0 {
		return nil, fmt.Errorf("%d iterations", iterations)
	}
	switch prec {
	case FP32:
		return simulateGPU[float32](g, m, sched, prec, blockSize, iterations)
	case FP64:
		return simulateGPU[float64](g, m, sched, prec, blockSize, iterations)
	}
	return nil, fmt.Errorf("unknown precision %q", prec)
}

// deviceRun holds one run's device memory; free releases all of it.
type deviceRun struct {
	bufs []*gpu.Buffer
}

func (r *deviceRun) free() {
	for _, b := range r.bufs {
		b.Free()
	}
}

func upload[E any](g *GPU, r *deviceRun, s []E, what string) (*gpu.Buffer, error) {
	b, err := gpu.Upload(g.dev, s, what)
	if err != nil {
		return nil, err
	}
	r.bufs = append(r.bufs, b)
	return b, nil
}

func simulateGPU[T Float](g *GPU, m *Mesh, sched *Schedule, prec Precision, blockSize, iterations int) (*GPUResult, error) {
	mesh := m
	if sched != nil {
		mesh = sched.Mesh
	}
	if err := mesh.Validate(); err != nil {
		return nil, err
	}
	n := mesh.N
	var r deviceRun
	defer r.free()
	ff := newFarField[T]()

	// The state: variables, their copy, step factors, fluxes (cleared
	// before the first flux: the schedule's kernels add to shared ones).
	var bufs [4]*gpu.Buffer
	for i, what := range []string{"variables", "old variables", "step factors", "fluxes"} {
		count := NVar * n
		if i == 2 {
			count = n
		}
		b, err := g.dev.Alloc(int64(count*sizeOf[T]()), what)
		if err != nil {
			return nil, err
		}
		r.bufs = append(r.bufs, b)
		bufs[i] = b
	}
	vars, old, step, flux := bufs[0], bufs[1], bufs[2], bufs[3]
	ffBuf, err := upload(g, &r, farFieldArray(&ff), "far-field state")
	if err != nil {
		return nil, err
	}
	area, err := upload(g, &r, convert[T](mesh.Area), "areas")
	if err != nil {
		return nil, err
	}

	B := blockSize
	grid := (n + B - 1) / B
	name := func(base string) string { return entry(base, prec) }
	initL, err := g.mod.Launch(name("init"), grid, B, 0, gpu.Int(n), gpu.Ptr(ffBuf), gpu.Ptr(vars))
	if err != nil {
		return nil, err
	}
	stepL, err := g.mod.Launch(name("step_factor"), grid, B, 0, gpu.Int(n), gpu.Ptr(vars), gpu.Ptr(area), gpu.Ptr(step))
	if err != nil {
		return nil, err
	}
	var fluxL *gpu.Launch
	var timeL [RK]*gpu.Launch
	res := &GPUResult{Result: Result{Schedule: "original", Precision: prec, Iterations: iterations}, BlockSize: B}
	if sched == nil {
		nb, err := upload(g, &r, mesh.Neighbor, "neighbours")
		if err != nil {
			return nil, err
		}
		normal, err := upload(g, &r, convert[T](mesh.Normal), "normals")
		if err != nil {
			return nil, err
		}
		if fluxL, err = g.mod.Launch(name("flux"), grid, B, 0, gpu.Int(n), gpu.Ptr(nb), gpu.Ptr(normal), gpu.Ptr(vars), gpu.Ptr(ffBuf), gpu.Ptr(flux)); err != nil {
			return nil, err
		}
		for j := range timeL {
			if timeL[j], err = g.mod.Launch(name("time_step"), grid, B, 0, gpu.Int(j), gpu.Int(n), gpu.Ptr(old), gpu.Ptr(step), gpu.Ptr(flux), gpu.Ptr(vars)); err != nil {
				return nil, err
			}
		}
	} else {
		res.Schedule = sched.Method
		res.Shared = SharedBytes(sched, prec)
		// Elements several parts add to: time_step clears their fluxes.
		shared := make([]uint8, n)
		for p := 0; p < sched.K; p++ {
			for i := sched.SharedStart[p]; i < sched.HomeStart[p+1]; i++ {
				shared[i] = 1
			}
		}
		var arr [8]*gpu.Buffer
		for i, a := range []struct {
			s    []int32
			what string
		}{{sched.HomeStart, "home ranges"}, {sched.SharedStart, "shared starts"}, {sched.SlotStart, "slot ranges"}, {sched.Slots, "slots"},
			{sched.FaceStart, "face ranges"}, {sched.FaceA, "face elements"}, {sched.FaceB, "face neighbours"}} {
			if arr[i], err = upload(g, &r, a.s, a.what); err != nil {
				return nil, err
			}
		}
		if arr[7], err = upload(g, &r, convert[T](sched.FaceNormal), "face normals"); err != nil {
			return nil, err
		}
		flags, err := upload(g, &r, shared, "shared flags")
		if err != nil {
			return nil, err
		}
		args := []uint64{gpu.Int(n), gpu.Int(sched.NumFaces())}
		for _, b := range arr {
			args = append(args, gpu.Ptr(b))
		}
		args = append(args, gpu.Ptr(vars), gpu.Ptr(ffBuf), gpu.Ptr(flux))
		if fluxL, err = g.mod.LaunchOptIn(name("spac_flux"), sched.K, B, res.Shared, args...); err != nil {
			return nil, fmt.Errorf("%s, block size %d, %d slots: %w", m.Name, B, sched.MaxSlots, err)
		}
		for j := range timeL {
			if timeL[j], err = g.mod.Launch(name("time_step_clear"), grid, B, 0, gpu.Int(j), gpu.Int(n), gpu.Ptr(old), gpu.Ptr(step), gpu.Ptr(flux), gpu.Ptr(vars), gpu.Ptr(flags)); err != nil {
				return nil, err
			}
		}
	}

	// Each iteration: copy the variables, step factors, RK rounds of flux
	// and time step (which, for the schedule, leaves the shared elements'
	// fluxes zero for the next flux).
	iterate := func(count int) error {
		for it := 0; it < count; it++ {
			if err := old.CopyFrom(vars); err != nil {
				return err
			}
			if err := stepL.Run(); err != nil {
				return err
			}
			for j := 0; j < RK; j++ {
				if err := fluxL.Run(); err != nil {
					return err
				}
				if err := timeL[j].Run(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	start := func() error {
		if err := flux.Zero(); err != nil {
			return err
		}
		return initL.Run()
	}
	if err := start(); err != nil {
		return nil, err
	}
	if err := iterate(1); err != nil {
		return nil, err
	}
	if err := start(); err != nil {
		return nil, err
	}
	if err := g.dev.Sync("cfd warm-up iteration"); err != nil {
		return nil, err
	}
	if iterations > 0 {
		t, err := g.dev.Time(func() error { return iterate(iterations) }, 0, 1, fmt.Sprintf("cfd %s %s B=%d, %d iterations", res.Schedule, prec, B, iterations))
		if err != nil {
			return nil, err
		}
		res.Time = t.Median
	}
	out := make([]T, NVar*n)
	if err := gpu.Download(vars, out, "variables"); err != nil {
		return nil, err
	}
	res.Vars = make([]float64, NVar*n)
	for v := 0; v < NVar; v++ {
		for i := 0; i < n; i++ {
			j := i
			if sched != nil {
				j = int(sched.Inv[i])
			}
			res.Vars[i+v*n] = float64(out[j+v*n])
		}
	}
	return res, nil
}

// farFieldArray lays the free stream out as the kernels read it (FF_* in
// cfd.cu): the variables, then fcM row by row, then fcE.
func farFieldArray[T Float](ff *farField[T]) []T {
	out := make([]T, 0, ffLen)
	out = append(out, ff.vars[:]...)
	for row := range ff.cell.fcM {
		out = append(out, ff.cell.fcM[row][:]...)
	}
	return append(out, ff.cell.fcE[:]...)
}

// sizeOf is the size of one value of T.
func sizeOf[T any]() int {
	var x T
	return int(unsafe.Sizeof(x))
}

// Source says where the kernels' PTX came from: embedded, or a file under
// SPAC_PTX_DIR.
func (g *GPU) Source() string { return g.mod.Source() }
