package apsp

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/gpu"
)

// apspPTX is kernels/apsp.ptx, made from apsp.cu by 'make ptx'.
//
//go:embed kernels/apsp.ptx
var apspPTX string

// Module holds the Floyd-Warshall kernels: fw_naive_<type>[_paths] and
// fw_p<phase>_t<tile>_<type>[_paths] for every tile of Tiles, type f32 or
// i32.
var Module = gpu.PTXModule{Name: "apsp", PTX: apspPTX, Entries: moduleEntries()}

func moduleEntries() []string {
	var out []string
	for _, typ := range []string{"f32", "i32"} {
		for _, p := range []bool{false, true} {
			out = append(out, naiveKernel(typ, p))
			for _, t := range Tiles {
				for phase := 1; phase <= 3; phase++ {
					out = append(out, blockedKernel(phase, t, typ, p))
				}
			}
		}
	}
	return out
}

func pathsSuffix(paths bool) string {
	if paths {
		return "_paths"
	}
	return ""
}

func naiveKernel(typ string, paths bool) string { return "fw_naive_" + typ + pathsSuffix(paths) }

func blockedKernel(phase, tile int, typ string, paths bool) string {
	return fmt.Sprintf("fw_p%d_t%d_%s%s", phase, tile, typ, pathsSuffix(paths))
}

// kernelType is the kernels' name of T.
func kernelType[T Weight]() string {
	if TypeName[T]() == "float32" {
		return "f32"
	}
	return "i32"
}

// The kernels' constants (apsp.cu): THREADS, the naive kernel's block of
// 32 columns x 8 rows; syncEvery bounds the launches queued between two
// checks of the context.
const (
	threads   = 256
	syncEvery = 1024
	// reserve is device memory left to the driver and the module when
	// sizing the matrices.
	reserve = 256 << 20
)

// Solver runs the all-pairs kernels (Floyd-Warshall's and sssp-all's) on
// one device, one call at a time.
type Solver struct {
	d   *gpu.Device
	mod *gpu.Module // Module: Floyd-Warshall
	ms  *gpu.Module // SSSPAllModule: shortest paths from every source
}

// NewSolver loads the kernels on d. Without CUDA it returns gpu.ErrNoCUDA.
func NewSolver(d *gpu.Device) (*Solver, error) {
	if !gpu.Built {
		return nil, gpu.ErrNoCUDA
	}
	if d == nil {
		return nil, errors.New("apsp: no device")
	}
	mod, err := d.LoadModule(Module)
	if err != nil {
		return nil, err
	}
	ms, err := d.LoadModule(SSSPAllModule)
	if err != nil {
		return nil, err
	}
	return &Solver{d: d, mod: mod, ms: ms}, nil
}

// pitch is the row length of method's device matrix: N, or N rounded up
// to a whole number of tiles for the blocked kernels.
func pitch(n int, method Method, tile int) int {
	if method == FWBlocked {
		return (n + tile - 1) / tile * tile
	}
	return n
}

// MaxVertices is the largest N whose matrices (next hops when paths) fit
// in the device memory free now, for the blocked kernels (a multiple of
// the largest tile).
func (s *Solver) MaxVertices(paths bool) (int, error) {
	free, _, err := s.d.MemInfo()
	if err != nil {
		return 0, err
	}
	n := int(math.Sqrt(float64(max(free-reserve, 0)) / float64(Bytes(1, paths))))
	return n / Tiles[len(Tiles)-1] * Tiles[len(Tiles)-1], nil
}

// fits refuses a problem whose matrices do not fit in the free device
// memory, naming what it needs.
func (s *Solver) fits(n, pitch int, paths bool, typ string) error {
	need := Bytes(pitch, paths)
	free, total, err := s.d.MemInfo()
	if err != nil {
		return err
	}
	if need+reserve <= free {
		return nil
	}
	what := fmt.Sprintf("a %d x %d %s distance matrix", pitch, pitch, typ)
	if paths {
		what += " and its int32 next hops"
	}
	most, _ := s.MaxVertices(paths)
	return fmt.Errorf("apsp: %d vertices need %.2f GiB of device memory (%s), but %.2f GiB of %.2f GiB are free (%d MiB kept for the driver): at most about %d vertices fit; sssp-all keeps the matrix on the host and needs only a batch of rows on the device",
		n, gib(need), what, gib(free), gib(total), reserve>>20, most)
}

func gib(b int64) float64 { return float64(b) / (1 << 30) }

// SolveGPU computes g's all-pairs shortest paths on the device with opt's
// method and returns them with what ran: the method (Auto resolved by
// Choose, and sssp-all where Choose's fw-blocked would not fit the device
// memory but a batch of sssp-all does) and the kernels' device time
// (between CUDA events: the copies excluded), with sssp-all's batches and
// rounds. Floyd-Warshall's device memory is checked before the host
// matrix is built.
func SolveGPU[T Weight](ctx context.Context, s *Solver, g *graph.Graph, opt Options) (*Matrix[T], Run, error) {
	method := opt.Method
	if method == Auto {
		method = Choose(g, true)
		if method == FWBlocked && s.fits(g.NumVertices, pitch(g.NumVertices, method, opt.tile()), opt.Paths, TypeName[T]()) != nil {
			if _, err := s.ssspAllBatch(g, opt); err == nil {
				method = SSSPAll
			}
		}
	}
	run := Run{Method: method}
	opt.Method = method
	if method == SSSPAll {
		return AllSourcesGPU[T](ctx, s, g, opt)
	}
	if method == FWBlocked {
		if err := checkTile(opt.tile()); err != nil {
			return nil, run, err
		}
	}
	if err := checkWeights[T](g); err != nil {
		return nil, run, err
	}
	n := g.NumVertices
	if err := s.fits(n, pitch(n, method, opt.tile()), opt.Paths, TypeName[T]()); err != nil {
		return nil, run, err
	}
	m, err := Dense[T](g, opt.Paths)
	if err != nil {
		return nil, run, err
	}
	if run.Elapsed, err = RunGPU(ctx, s, m, opt); err != nil {
		return nil, run, err
	}
	return m, run, nil
}

// RunGPU runs Floyd-Warshall (opt.Method FW or FWBlocked) on m in place on
// the device: it uploads m (its next hops when m has them), runs the
// kernels and downloads the result; it returns the device time between
// CUDA events around the kernels. The results equal FloydWarshall's (FW)
// or FloydWarshallBlocked's with the same tile, bit for bit.
func RunGPU[T Weight](ctx context.Context, s *Solver, m *Matrix[T], opt Options) (time.Duration, error) {
	r, err := upload(s, m, opt)
	if err != nil {
		return 0, err
	}
	defer r.close()
	iv, err := s.d.NewInterval()
	if err != nil {
		return 0, err
	}
	defer iv.Close()
	if err := iv.Start(); err != nil {
		return 0, err
	}
	for i, l := range r.steps {
		if err := l.Run(); err != nil {
			return 0, err
		}
		if i%syncEvery == syncEvery-1 {
			if err := s.d.Sync("Floyd-Warshall"); err != nil {
				return 0, err
			}
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
	if err := iv.Stop(); err != nil {
		return 0, err
	}
	elapsed, err := iv.Elapsed()
	if err != nil {
		return 0, fmt.Errorf("apsp: Floyd-Warshall on the device: %w", err)
	}
	return elapsed, download(r, m)
}

// deviceRun is one matrix on the device with its launches.
type deviceRun struct {
	n, pitch   int
	dist, next *gpu.Buffer
	steps      []*gpu.Launch
}

func (r *deviceRun) close() {
	r.dist.Free()
	r.next.Free()
}

// padded returns a's N x N matrix with rows of pitch elements: a itself
// when pitch == N, else a copy whose padding holds fill off the diagonal
// and diag on it (isolated vertices).
func padded[E Weight](a []E, n, pitch int, fill, diag E) []E {
	if pitch == n {
		return a
	}
	out := make([]E, pitch*pitch)
	for i := range pitch {
		row := out[i*pitch : (i+1)*pitch]
		if i < n {
			copy(row, a[i*n:(i+1)*n])
		}
		for j := n; j < pitch; j++ {
			row[j] = fill
		}
		if i >= n {
			for j := range n {
				row[j] = fill
			}
			row[i] = diag
		}
	}
	return out
}

// upload copies m to the device (padded for the blocked kernels) and
// prepares the launches of opt.Method.
func upload[T Weight](s *Solver, m *Matrix[T], opt Options) (_ *deviceRun, err error) {
	method, tile, paths := opt.Method, opt.tile(), m.Next != nil
	if method != FW && method != FWBlocked {
		return nil, fmt.Errorf("apsp: the GPU runs fw and fw-blocked, not %v", method)
	}
	if method == FWBlocked {
		if err := checkTile(tile); err != nil {
			return nil, err
		}
	}
	n := m.N
	r := &deviceRun{n: n, pitch: pitch(n, method, tile)}
	if err := s.fits(n, r.pitch, paths, TypeName[T]()); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			r.close()
		}
	}()
	if r.dist, err = gpu.Upload(s.d, padded(m.Dist, n, r.pitch, Inf[T](), 0), "the distance matrix"); err != nil {
		return nil, err
	}
	nextPtr := uint64(0)
	if paths {
		if r.next, err = gpu.Upload(s.d, padded(m.Next, n, r.pitch, -1, 0), "the next-hop matrix"); err != nil {
			return nil, err
		}
		nextPtr = gpu.Ptr(r.next)
	}
	typ := kernelType[T]()
	if method == FW {
		name, grid := naiveKernel(typ, paths), ((n+31)/32)*((n+7)/8)
		for k := range n {
			l, err := s.mod.Launch(name, grid, threads, 0, gpu.Ptr(r.dist), nextPtr, gpu.Int(n), gpu.Int(r.pitch), gpu.Int(k))
			if err != nil {
				return nil, err
			}
			r.steps = append(r.steps, l)
		}
		return r, nil
	}
	// Shared memory: phase 1 holds a tile, phases 2 and 3 two; with next
	// hops, one tile of them more.
	nt := r.pitch / tile
	tileBytes, extra := tile*tile*4, 0
	if paths {
		extra = tileBytes
	}
	for kb := range nt {
		for _, p := range []struct {
			phase, grid, shared int
		}{{1, 1, tileBytes + extra}, {2, 2 * nt, 2*tileBytes + extra}, {3, nt * nt, 2*tileBytes + extra}} {
			l, err := s.mod.LaunchOptIn(blockedKernel(p.phase, tile, typ, paths), p.grid, threads, p.shared,
				gpu.Ptr(r.dist), nextPtr, gpu.Int(r.pitch), gpu.Int(kb), gpu.Int(nt))
			if err != nil {
				return nil, err
			}
			r.steps = append(r.steps, l)
		}
	}
	return r, nil
}

// download copies the result into m (dropping the padding).
func download[T Weight](r *deviceRun, m *Matrix[T]) error {
	if err := fetch(r.dist, m.Dist, r.n, r.pitch, "the distance matrix"); err != nil {
		return err
	}
	if m.Next == nil {
		return nil
	}
	return fetch(r.next, m.Next, r.n, r.pitch, "the next-hop matrix")
}

// fetch copies b's n x n matrix of row pitch pitch into a.
func fetch[E Weight](b *gpu.Buffer, a []E, n, pitch int, what string) error {
	if pitch == n {
		return gpu.Download(b, a, what)
	}
	all := make([]E, pitch*pitch)
	if err := gpu.Download(b, all, what); err != nil {
		return err
	}
	for i := range n {
		copy(a[i*n:(i+1)*n], all[i*pitch:i*pitch+n])
	}
	return nil
}

// PeakRelaxations is the device's ceiling in relaxations per second: a
// relaxation is an add and a min, two instructions, and a multiprocessor
// issues 128 per clock (4 schedulers of 32 lanes), so SMs x clock x 64.
func (s *Solver) PeakRelaxations() float64 {
	return float64(s.d.Info().SMs) * float64(s.d.ClockKHz()) * 1e3 * 64
}
