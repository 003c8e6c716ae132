package matrices

// Synthetic matrix generators.
//
// Every random choice comes from math/rand/v2's PCG generator seeded with
// (seed, a constant private to the generator), so a generator's output is a
// pure function of its arguments, and two generators given the same seed
// draw unrelated streams. Outputs are sorted by row, then column, hold no
// duplicate entries and carry real values; the work is done on flat slices
// (per-row marks, packed uint64 keys and radix sorts), never on maps, so
// that tens of millions of entries are cheap.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/spac-gpu/spac/internal/par"
)

// maxGenEntries caps the entries a generator will build. Past it the
// incidence lists (two int32-indexed slots per edge) overflow, and memory
// runs to tens of GiB: such a request is a typo, not a workload.
const maxGenEntries = 1 << 30

// Stream constants: the second half of each generator's PCG seed.
const (
	streamER uint64 = 0x5ca1ab1e0000 + iota
	streamBA
	streamRMAT
	streamCircuit
	streamFEM
	streamWeb
	streamEcon
	streamRoad
	streamCommunity
)

func genRand(seed int64, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), stream))
}

// genRandAt is genRand(seed, stream) after n draws, reached in O(log n)
// steps: the parts of a generator that draw a known number of values each
// run in parallel and still give the serial stream's output.
func genRandAt(seed int64, stream uint64, n uint64) *rand.Rand {
	src := rand.NewPCG(uint64(seed), stream)
	if n > 0 {
		pcgAdvance(src, n)
	}
	return rand.New(src)
}

// pcgAdvance moves p n draws ahead. A draw of math/rand/v2's PCG is one
// step of the 128-bit LCG state = state*mul + inc (mod 2^128); n steps are
// state*M + C with M = mul^n and C = inc*(mul^(n-1) + ... + 1), which
// squaring computes a bit of n at a time (Brown, "Random number generation
// with arbitrary strides", 1994). The state is read and written through
// PCG's binary form ("pcg:", then the high and low words, big-endian);
// TestPCGAdvance checks the result against stepping.
func pcgAdvance(p *rand.PCG, n uint64) {
	type u128 struct{ hi, lo uint64 }
	mul := func(a, b u128) u128 {
		hi, lo := bits.Mul64(a.lo, b.lo)
		return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
	}
	add := func(a, b u128) u128 {
		lo, c := bits.Add64(a.lo, b.lo, 0)
		hi, _ := bits.Add64(a.hi, b.hi, c)
		return u128{hi, lo}
	}
	// math/rand/v2's multiplier and increment.
	curMul := u128{2549297995355413924, 4865540595714422341}
	curInc := u128{6364136223846793005, 1442695040888963407}
	accMul, accInc := u128{0, 1}, u128{}
	for ; n > 0; n >>= 1 {
		if n&1 != 0 {
			accMul = mul(accMul, curMul)
			accInc = add(mul(accInc, curMul), curInc)
		}
		curInc = mul(add(curMul, u128{0, 1}), curInc)
		curMul = mul(curMul, curMul)
	}
	b, _ := p.MarshalBinary() // never fails
	state := u128{binary.BigEndian.Uint64(b[4:12]), binary.BigEndian.Uint64(b[12:20])}
	state = add(mul(accMul, state), accInc)
	binary.BigEndian.PutUint64(b[4:12], state.hi)
	binary.BigEndian.PutUint64(b[12:20], state.lo)
	if err := p.UnmarshalBinary(b); err != nil {
		panic("matrices: math/rand/v2's PCG changed its binary form: " + err.Error())
	}
}

// genValue draws a value of magnitude in [0.1, 1) with a random sign: never
// zero, so a stored entry is a true nonzero, and never tiny, so that
// numerical kernels on generated matrices stay well scaled.
func genValue(r *rand.Rand) float64 {
	u := r.Uint64()
	v := 0.1 + 0.9*float64(u>>11)/(1<<53)
	if u&1 != 0 {
		v = -v
	}
	return v
}

func checkGenOrder(what string, n int) error {
	if n < 1 {
		return fmt.Errorf("%s: n = %d: need at least one row", what, n)
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("%s: n = %d exceeds the int32 index range (%d)", what, n, math.MaxInt32)
	}
	return nil
}

func checkGenEntries(what string, entries float64) error {
	if entries > maxGenEntries {
		return fmt.Errorf("%s: about %.3g entries requested, more than the %d a generator builds", what, entries, maxGenEntries)
	}
	return nil
}

// genFinite reports whether x is an ordinary number, so that checks written as
// x < lo || x > hi also reject NaN.
func genFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ---------------------------------------------------------------------------
// Sorting packed keys.

// genRadixSort sorts keys whose values are below 2^nbits, least
// significant digit first; a pass whose digit is the same in every key is
// skipped. Much faster than a comparison sort at the tens of millions of
// keys that RMAT and Circuit produce.
func genRadixSort(keys []uint64, nbits int) {
	if len(keys) < 1<<12 || nbits <= 0 {
		slices.Sort(keys)
		return
	}
	passes := (nbits + 10) / 11
	digit := (nbits + passes - 1) / passes
	mask := uint64(1)<<digit - 1
	// Each pass is stable and in parallel: runs of the keys count their
	// digits, a digit's keys go first from the first run, then the second,
	// and each run scatters its own keys in order.
	runs := min(par.Workers(len(keys)/genRun+1), 64)
	size := (len(keys) + runs - 1) / runs // run i is the range of par.DoRanges starting at i*size
	count := make([][]int, runs)
	for i := range count {
		count[i] = make([]int, 1<<digit)
	}
	buf := make([]uint64, len(keys))
	src, dst := keys, buf
	for shift := 0; shift < nbits; shift += digit {
		par.DoRanges(len(src), size, func(lo, hi int) {
			c := count[lo/size]
			clear(c)
			for _, k := range src[lo:hi] {
				c[(k>>shift)&mask]++
			}
		})
		if d := (src[0] >> shift) & mask; sumDigit(count, d) == len(src) {
			continue
		}
		sum := 0
		for d := range 1 << digit {
			for i := range runs {
				c := count[i][d]
				count[i][d] = sum
				sum += c
			}
		}
		par.DoRanges(len(src), size, func(lo, hi int) {
			c := count[lo/size]
			for _, k := range src[lo:hi] {
				d := (k >> shift) & mask
				dst[c[d]] = k
				c[d]++
			}
		})
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// sumDigit is how many keys of all runs have digit d.
func sumDigit(count [][]int, d uint64) int {
	n := 0
	for _, c := range count {
		n += c[d]
	}
	return n
}

// genSortUnique sorts keys (below 2^nbits) and drops repeats in place.
func genSortUnique(keys []uint64, nbits int) []uint64 {
	genRadixSort(keys, nbits)
	return slices.Compact(keys)
}

// genMergeUnique merges the sorted, repeat-free list b into the sorted,
// repeat-free list a, in a's storage when it has room, filling from the back
// so that no element of a is overwritten before it is read.
func genMergeUnique(a, b []uint64) []uint64 {
	if cap(a) < len(a)+len(b) {
		a = slices.Grow(a, len(b))
	}
	out := a[:len(a)+len(b)]
	i, j, w := len(a)-1, len(b)-1, len(out)
	for j >= 0 {
		w--
		switch {
		case i >= 0 && a[i] > b[j]:
			out[w] = a[i]
			i--
		case i >= 0 && a[i] == b[j]:
			out[w] = a[i]
			i--
			j--
		default:
			out[w] = b[j]
			j--
		}
	}
	// a[:i+1] is in place; repeats left a gap before out[w:].
	n := copy(out[i+1:], out[w:])
	return out[:i+1+n]
}

// genIndexBits is the number of bits an index below n needs (at least 1).
func genIndexBits(n int) uint {
	b := uint(bits.Len(uint(n - 1)))
	if b == 0 {
		b = 1
	}
	return b
}

// ---------------------------------------------------------------------------
// Erdős–Rényi.

func checkER(n int, avgDeg float64) error {
	if err := checkGenOrder("erdos-renyi", n); err != nil {
		return err
	}
	if !genFinite(avgDeg) || avgDeg <= 0 || avgDeg > float64(n) {
		return fmt.Errorf("erdos-renyi: average degree %v must be in (0, n=%d]", avgDeg, n)
	}
	return checkGenEntries("erdos-renyi", float64(n)*avgDeg)
}

// ErdosRenyi returns a general n x n matrix in which every entry, diagonal
// included, is present independently with probability avgDeg/n: G(n,p) for
// a directed graph with self-loops, about n*avgDeg entries. Positions are
// drawn by geometric skips over the n*n index space, so the cost is
// proportional to the entries made, and they come out sorted with no
// duplicates.
func ErdosRenyi(n int, avgDeg float64, seed int64) (*COO, error) {
	if err := checkER(n, avgDeg); err != nil {
		return nil, err
	}
	r := genRand(seed, streamER)
	expect := float64(n) * avgDeg
	capacity := int(expect + 4*math.Sqrt(expect) + 16)
	m := &COO{
		Name:  fmt.Sprintf("er(n=%d,deg=%g,seed=%d)", n, avgDeg, seed),
		NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: make([]int32, 0, capacity), Col: make([]int32, 0, capacity), Val: make([]float64, 0, capacity),
	}
	p := avgDeg / float64(n)
	total := int64(n) * int64(n)
	lq := math.Log1p(-p) // -Inf when p == 1: every skip is then 0
	for idx := int64(-1); ; {
		skip := 0.0
		if p < 1 {
			skip = math.Floor(math.Log1p(-r.Float64()) / lq)
		}
		if skip >= float64(total-idx-1) {
			break
		}
		idx += 1 + int64(skip)
		m.Row = append(m.Row, int32(idx/int64(n)))
		m.Col = append(m.Col, int32(idx%int64(n)))
		m.Val = append(m.Val, genValue(r))
	}
	return m, nil
}

// ---------------------------------------------------------------------------
// Barabási–Albert.

func checkBA(n, m int) error {
	if err := checkGenOrder("barabasi-albert", n); err != nil {
		return err
	}
	if m < 1 || m >= n {
		return fmt.Errorf("barabasi-albert: m = %d edges per new vertex must be in [1, n-1] (n = %d)", m, n)
	}
	return checkGenEntries("barabasi-albert", float64(n)*float64(m))
}

// BarabasiAlbert returns an undirected preferential-attachment graph on n
// vertices: a clique on vertices 0..m, then each later vertex v joins m
// distinct earlier vertices, each picked with probability proportional to
// its degree (uniform picks from the list of edge endpoints). It has
// n*m - m(m+1)/2 edges, average degree about 2m and a power-law degree tail.
// The result is Symmetric, each edge stored once as (v, u) with v > u, no
// diagonal; rows are sorted.
func BarabasiAlbert(n, m int, seed int64) (*COO, error) {
	if err := checkBA(n, m); err != nil {
		return nil, err
	}
	r := genRand(seed, streamBA)
	edges := n*m - m*(m+1)/2
	out := &COO{
		Name:  fmt.Sprintf("ba(n=%d,m=%d,seed=%d)", n, m, seed),
		NRows: n, NCols: n, Field: Real, Symmetry: Symmetric,
		Row: make([]int32, 0, edges), Col: make([]int32, 0, edges), Val: make([]float64, 0, edges),
	}
	ends := make([]int32, 0, 2*edges)
	add := func(v, u int32) {
		out.Row = append(out.Row, v)
		out.Col = append(out.Col, u)
		out.Val = append(out.Val, genValue(r))
	}
	for v := int32(1); v <= int32(m); v++ {
		for u := int32(0); u < v; u++ {
			add(v, u)
			ends = append(ends, v, u)
		}
	}
	// mark[t] == v: t is already a target of v. Vertices from m+1 on are
	// never 0, the initial mark.
	mark := make([]int32, n)
	targets := make([]int32, m)
	for v := int32(m + 1); int(v) < n; v++ {
		for k := 0; k < m; {
			t := ends[r.IntN(len(ends))]
			if mark[t] == v {
				continue
			}
			mark[t] = v
			targets[k] = t
			k++
		}
		slices.Sort(targets)
		for _, t := range targets {
			add(v, t)
			ends = append(ends, v, t)
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// R-MAT.

func checkRMAT(scale, edgeFactor int, a, b, c float64) error {
	if scale < 1 || scale > 30 {
		return fmt.Errorf("rmat: scale %d must be in [1, 30] (n = 2^scale must fit int32)", scale)
	}
	if edgeFactor < 1 {
		return fmt.Errorf("rmat: edge factor %d must be at least 1", edgeFactor)
	}
	if !genFinite(a) || !genFinite(b) || !genFinite(c) || a < 0 || b < 0 || c < 0 || a+b+c > 1+1e-9 {
		return fmt.Errorf("rmat: probabilities a=%v b=%v c=%v must be non-negative with a+b+c <= 1 (d = 1-a-b-c)", a, b, c)
	}
	return checkGenEntries("rmat", float64(edgeFactor)*math.Ldexp(1, scale))
}

// RMAT returns a general 2^scale x 2^scale R-MAT matrix: edgeFactor*2^scale
// entries are drawn by descending scale levels of the quadtree with
// quadrant probabilities a (top left), b (top right), c (bottom left) and
// d = 1-a-b-c, then duplicates are removed, so the result has somewhat fewer
// entries than drawn. Self-loops are kept: they are diagonal entries of the
// matrix. No vertex permutation is applied: the heavy rows and columns sit
// at small indices. Graph500 uses a=0.57, b=c=0.19. The draws, their sort
// and the values run on every core; the matrix depends on the seed alone.
func RMAT(scale, edgeFactor int, a, b, c float64, seed int64) (*COO, error) {
	if err := checkRMAT(scale, edgeFactor, a, b, c); err != nil {
		return nil, err
	}
	n := 1 << scale
	draws := edgeFactor * n
	// Each edge takes one Uint64 for two levels; the values come after all
	// the edges, one Uint64 each. Runs of edges and of values start their
	// stream where the serial loop would be, so the output does not depend
	// on the cores.
	perEdge := uint64(scale+1) / 2
	// Quadrant thresholds on 32-bit draws: each Uint64 serves two levels.
	ta := uint64(a * (1 << 32))
	tb := uint64((a + b) * (1 << 32))
	tc := uint64(math.Min(a+b+c, 1) * (1 << 32))
	keys := make([]uint64, draws)
	par.DoRanges(draws, genRun, func(lo, hi int) {
		r := genRandAt(seed, streamRMAT, uint64(lo)*perEdge)
		for e := lo; e < hi; e++ {
			keys[e] = rmatEdge(r, scale, ta, tb, tc)
		}
	})
	keys = genSortUnique(keys, 2*scale)
	out := &COO{
		Name:  fmt.Sprintf("rmat(scale=%d,ef=%d,a=%g,b=%g,c=%g,seed=%d)", scale, edgeFactor, a, b, c, seed),
		NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: make([]int32, len(keys)), Col: make([]int32, len(keys)), Val: make([]float64, len(keys)),
	}
	mask := uint64(n - 1)
	par.DoRanges(len(keys), genRun, func(lo, hi int) {
		r := genRandAt(seed, streamRMAT, uint64(draws)*perEdge+uint64(lo))
		for e := lo; e < hi; e++ {
			k := keys[e]
			out.Row[e] = int32(k >> scale)
			out.Col[e] = int32(k & mask)
			out.Val[e] = genValue(r)
		}
	})
	return out, nil
}

// rmatEdge draws one edge of R-MAT (row<<scale | col): a quadrant per
// level from the thresholds ta, tb, tc on 32-bit draws, two levels a
// Uint64.
func rmatEdge(r *rand.Rand, scale int, ta, tb, tc uint64) uint64 {
	var row, col, u uint64
	for l := 0; l < scale; l++ {
		if l&1 == 0 {
			u = r.Uint64()
		} else {
			u >>= 32
		}
		x := u & (1<<32 - 1)
		bit := uint64(1) << l
		switch {
		case x < ta:
		case x < tb:
			col |= bit
		case x < tc:
			row |= bit
		default:
			row |= bit
			col |= bit
		}
	}
	return row<<scale | col
}

// genRun is how many edges or values one task of a parallel generator
// draws: enough to pay for its stream's jump ahead many times over.
const genRun = 1 << 16

// ---------------------------------------------------------------------------
// Stencils.

func checkStencil(what string, dims []int, points int, valid ...int) error {
	n := int64(1)
	for _, d := range dims {
		if d < 1 {
			return fmt.Errorf("%s: grid dimensions %v must all be at least 1", what, dims)
		}
		n *= int64(d)
		if n > math.MaxInt32 {
			return fmt.Errorf("%s: grid %v has more than %d points (int32 index range)", what, dims, math.MaxInt32)
		}
	}
	if !slices.Contains(valid, points) {
		return fmt.Errorf("%s: %d-point stencil not supported (want one of %v)", what, points, valid)
	}
	return checkGenEntries(what, float64(n)*float64(points))
}

// Stencil2D returns the nx*ny x nx*ny matrix of the 5- or 9-point Laplacian
// stencil on an nx x ny grid with Dirichlet boundary, points numbered
// x + nx*y: off-diagonal entries -1 and diagonal points-1 (4 or 8). Every
// row is diagonally dominant and boundary rows strictly so; the matrix is
// irreducible and symmetric, hence positive definite (fit for CG). Storage
// is General (both triangles), rows sorted.
func Stencil2D(nx, ny, points int) (*COO, error) {
	if err := checkStencil("stencil2d", []int{nx, ny}, points, 5, 9); err != nil {
		return nil, err
	}
	return genStencil(fmt.Sprintf("stencil2d(nx=%d,ny=%d,points=%d)", nx, ny, points), nx, ny, 1, points == 5), nil
}

// Stencil3D is Stencil2D on an nx x ny x nz grid with the 7- or 27-point
// stencil (diagonal 6 or 26), points numbered x + nx*(y + ny*z).
func Stencil3D(nx, ny, nz, points int) (*COO, error) {
	if err := checkStencil("stencil3d", []int{nx, ny, nz}, points, 7, 27); err != nil {
		return nil, err
	}
	return genStencil(fmt.Sprintf("stencil3d(nx=%d,ny=%d,nz=%d,points=%d)", nx, ny, nz, points), nx, ny, nz, points == 7), nil
}

// genStencil builds the star (axis neighbours only) or box (all neighbours)
// Laplacian; visiting offsets by (dz, dy, dx) keeps each row's columns
// increasing.
func genStencil(name string, nx, ny, nz int, star bool) *COO {
	n := nx * ny * nz
	per, diag := 27, 26.0
	if star {
		per, diag = 7, 6.0
	}
	if nz == 1 {
		per, diag = 9, 8.0
		if star {
			per, diag = 5, 4.0
		}
	}
	m := &COO{Name: name, NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: make([]int32, 0, n*per), Col: make([]int32, 0, n*per), Val: make([]float64, 0, n*per)}
	for z := 0; z < nz; z++ {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				i := int32(x + nx*(y+ny*z))
				for dz := -1; dz <= 1; dz++ {
					if z+dz < 0 || z+dz >= nz {
						continue
					}
					for dy := -1; dy <= 1; dy++ {
						if y+dy < 0 || y+dy >= ny {
							continue
						}
						for dx := -1; dx <= 1; dx++ {
							if x+dx < 0 || x+dx >= nx {
								continue
							}
							off := dx*dx + dy*dy + dz*dz
							if star && off > 1 {
								continue
							}
							v := -1.0
							if off == 0 {
								v = diag
							}
							m.Row = append(m.Row, i)
							m.Col = append(m.Col, int32(x+dx+nx*(y+dy+ny*(z+dz))))
							m.Val = append(m.Val, v)
						}
					}
				}
			}
		}
	}
	return m
}

// ---------------------------------------------------------------------------
// Circuit.

// circuitOpts shapes Circuit: dense is the number of power/ground-like
// nodes, the first joined to a fraction maxFrac of all nodes, each next
// one to half as many.
type circuitOpts struct {
	n       int
	avgDeg  float64
	dense   int
	maxFrac float64
}

func defaultCircuitOpts(n int, avgDeg float64) circuitOpts {
	return circuitOpts{n: n, avgDeg: avgDeg, dense: 1 + bits.Len(uint(n))/6, maxFrac: 0.02}
}

func checkCircuit(n int, avgDeg float64) error {
	if err := checkGenOrder("circuit", n); err != nil {
		return err
	}
	if !genFinite(avgDeg) || avgDeg < 1 || avgDeg > 1+float64(n-1)/2 {
		return fmt.Errorf("circuit: average entries per row %v must be in [1, %v] (diagonal plus at most half the other columns)", avgDeg, 1+float64(n-1)/2)
	}
	return checkGenEntries("circuit", float64(n)*avgDeg)
}

// Circuit returns an n x n circuit-simulation-like matrix with about avgDeg
// entries per row (diagonal included): a full diagonal; a structurally
// symmetric off-diagonal pattern in which most connections join nearby
// indices (exponentially distributed distance, a tenth of them log-uniform
// long range), so most rows hold 2 to 6 entries; and a few dense
// power/ground rows and columns, touching 2%, 1%, ... of all nodes. Values
// are unsymmetric (each entry drawn on its own) with a dominant positive
// diagonal, so the matrix is nonsingular. Storage is General, rows sorted.
func Circuit(n int, avgDeg float64, seed int64) (*COO, error) {
	if err := checkCircuit(n, avgDeg); err != nil {
		return nil, err
	}
	return genCircuit(defaultCircuitOpts(n, avgDeg), seed), nil
}

func genCircuit(o circuitOpts, seed int64) *COO {
	n := o.n
	r := genRand(seed, streamCircuit)
	cb := genIndexBits(n)
	pack := func(i, j int) uint64 { return uint64(i)<<cb | uint64(j) }
	target := int(math.Round(float64(n) * (o.avgDeg - 1) / 2)) // distinct lower-triangle entries
	keys := make([]uint64, 0, target+target/8+16)

	// Dense nodes get at most half of the off-diagonal budget.
	frac := o.maxFrac
	if dense := 2 * frac * float64(n); dense > float64(target)/2 {
		frac *= float64(target) / 2 / dense
	}
	if n > 1 {
		hubs := make([]int, 0, o.dense)
		for len(hubs) < min(o.dense, n) {
			g := r.IntN(n)
			if !slices.Contains(hubs, g) {
				hubs = append(hubs, g)
			}
		}
		for _, g := range hubs {
			if frac > 0 {
				lq := math.Log1p(-frac)
				for j := -1; ; {
					skip := math.Floor(math.Log1p(-r.Float64()) / lq)
					if skip >= float64(n-j-1) {
						break
					}
					j += 1 + int(skip)
					if j != g {
						keys = append(keys, pack(max(g, j), min(g, j)))
					}
				}
			}
			frac /= 2
		}
	}

	// Local connections, then top-ups for what duplicates took away.
	window := 4 + o.avgDeg
	link := func(i int) {
		var d int
		if r.IntN(10) == 0 {
			d = int(math.Exp(r.Float64() * math.Log(float64(i))))
		} else {
			d = 1 + int(r.ExpFloat64()*window)
		}
		d = min(max(d, 1), i)
		keys = append(keys, pack(i, i-d))
	}
	if n > 1 {
		lambda := float64(target-len(keys)) / float64(n)
		if lambda > 0 {
			for i := 1; i < n; i++ {
				for k := genPoisson(r, lambda); k > 0; k-- {
					link(i)
				}
			}
		}
		keys = genSortUnique(keys, int(2*cb))
		// Top-ups are sorted on their own and merged: re-sorting everything
		// would cost a full radix sort per round.
		for round := 0; round < 6 && target-len(keys) > target/1000; round++ {
			extra := (target - len(keys)) + (target-len(keys))/8 + 1
			base := len(keys)
			for ; extra > 0; extra-- {
				link(1 + r.IntN(n-1))
			}
			more := genSortUnique(slices.Clone(keys[base:]), int(2*cb))
			keys = genMergeUnique(keys[:base], more)
		}
	}

	off, rows, cols := genExpandLower(n, keys, cb)
	vals := make([]float64, len(rows))
	for i := 0; i < n; i++ {
		sum, diag := 0.0, -1
		for e := off[i]; e < off[i+1]; e++ {
			if int(cols[e]) == i {
				diag = e
				continue
			}
			vals[e] = genValue(r)
			sum += math.Abs(vals[e])
		}
		vals[diag] = sum + 0.5 + r.Float64()
	}
	return &COO{
		Name:  fmt.Sprintf("circuit(n=%d,deg=%g,seed=%d)", n, o.avgDeg, seed),
		NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: rows, Col: cols, Val: vals,
	}
}

// genExpandLower turns sorted, distinct lower-triangle keys (row<<cb | col,
// row > col) into the rows and columns of the full matrix with its
// diagonal, sorted by row then column, and returns the row offsets. Keys
// are visited in row order, so a row's lower entries land first, then its
// diagonal, then (from later rows) its upper entries in increasing order.
func genExpandLower(n int, keys []uint64, cb uint) (off []int, rows, cols []int32) {
	mask := uint64(1)<<cb - 1
	off = make([]int, n+1)
	for _, k := range keys {
		off[int(k>>cb)+1]++
		off[int(k&mask)+1]++
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i] + 1
	}
	rows = make([]int32, off[n])
	cols = make([]int32, off[n])
	pos := slices.Clone(off[:n])
	put := func(i, j int) {
		rows[pos[i]] = int32(i)
		cols[pos[i]] = int32(j)
		pos[i]++
	}
	ki := 0
	for i := 0; i < n; i++ {
		for ki < len(keys) && int(keys[ki]>>cb) == i {
			j := int(keys[ki] & mask)
			put(i, j)
			put(j, i)
			ki++
		}
		put(i, i)
	}
	return off, rows, cols
}

// genPoisson draws from a Poisson distribution: Knuth's product method for
// small means, a rounded normal for large ones.
func genPoisson(r *rand.Rand, lambda float64) int {
	if lambda <= 0 {
		return 0
	}
	if lambda > 30 {
		return max(0, int(math.Round(lambda+math.Sqrt(lambda)*r.NormFloat64())))
	}
	limit := math.Exp(-lambda)
	k := 0
	for p := r.Float64(); p > limit; p *= r.Float64() {
		k++
	}
	return k
}

// ---------------------------------------------------------------------------
// FEM-like banded block matrices.

// femOpts shapes FEMBlock. jitter in [0,1] makes the number of neighbour
// nodes vary from node to node (0: all alike, 1: exponentially
// distributed); far is the fraction of neighbours picked anywhere before
// the node instead of inside the band.
type femOpts struct {
	n, block  int
	rowNNZ    float64
	bandwidth int
	jitter    float64
	far       float64
}

func checkFEM(n, block int, rowNNZ float64, bandwidth int) error {
	if err := checkGenOrder("fem", n); err != nil {
		return err
	}
	if block < 1 || block > 64 || block > n {
		return fmt.Errorf("fem: block size %d must be in [1, min(64, n=%d)]", block, n)
	}
	if !genFinite(rowNNZ) || rowNNZ < float64(block) {
		return fmt.Errorf("fem: entries per row %v must be at least the block size %d", rowNNZ, block)
	}
	if bandwidth < block {
		return fmt.Errorf("fem: bandwidth %d must be at least the block size %d", bandwidth, block)
	}
	lower := (rowNNZ/float64(block) - 1) / 2
	if w := bandwidth / block; lower > float64(w) {
		return fmt.Errorf("fem: %v entries per row need %.3g neighbour blocks on each side, more than the %d blocks a bandwidth of %d holds (want bandwidth >= %d)",
			rowNNZ, lower, w, bandwidth, int(math.Ceil(lower))*block)
	}
	return checkGenEntries("fem", float64(n)*rowNNZ/2)
}

// FEMBlock returns a symmetric positive definite matrix shaped like a
// finite-element stiffness matrix (e.g. SuiteSparse cant): rows come in
// nodes of blockSize consecutive unknowns; each node couples to some
// earlier nodes within bandwidth rows, half of them the nearest ones and
// half spread over the band, and every coupling is a dense blockSize x
// blockSize block. rowNNZ is the target mean of entries per row of the
// full matrix (both triangles). The result is Symmetric storage: the lower
// triangle with the diagonal, rows sorted. Off-diagonal values are random;
// each diagonal entry exceeds the sum of magnitudes in its full row, so the
// matrix is strictly diagonally dominant, hence SPD.
func FEMBlock(n, blockSize int, rowNNZ float64, bandwidth int, seed int64) (*COO, error) {
	if err := checkFEM(n, blockSize, rowNNZ, bandwidth); err != nil {
		return nil, err
	}
	return genFEM(femOpts{n: n, block: blockSize, rowNNZ: rowNNZ, bandwidth: bandwidth, jitter: 0.2}, seed), nil
}

func genFEM(o femOpts, seed int64) *COO {
	r := genRand(seed, streamFEM)
	bs := o.block
	nodes := (o.n + bs - 1) / bs
	w := max(1, o.bandwidth/bs)
	lower := (o.rowNNZ/float64(bs) - 1) / 2
	near := max(1, int(math.Ceil(lower)))
	capacity := int(float64(o.n)*(o.rowNNZ+1)/2*1.05) + 16
	m := &COO{
		Name:  fmt.Sprintf("fem(n=%d,block=%d,nnz=%g,band=%d,seed=%d)", o.n, bs, o.rowNNZ, o.bandwidth, seed),
		NRows: o.n, NCols: o.n, Field: Real, Symmetry: Symmetric,
		Row: make([]int32, 0, capacity), Col: make([]int32, 0, capacity), Val: make([]float64, 0, capacity),
	}
	absSum := make([]float64, o.n)
	diagAt := make([]int, o.n)
	mark := make([]int32, nodes) // mark[j] == k+1: node j already couples to node k
	var nbr []int32
	for k := 0; k < nodes; k++ {
		// Randomised rounding keeps the mean exact.
		want := lower * (1 - o.jitter + o.jitter*r.ExpFloat64())
		lk := int(want)
		if r.Float64() < want-float64(lk) {
			lk++
		}
		inBand := min(w, k)
		nbr = nbr[:0]
		if lk >= inBand && o.far == 0 {
			for j := k - inBand; j < k; j++ {
				nbr = append(nbr, int32(j))
			}
		} else {
			lk = min(lk, k)
			for tries := 0; len(nbr) < lk && tries < 8*lk+32; tries++ {
				var d int
				switch u := r.Float64(); {
				case u < o.far:
					d = 1 + r.IntN(k)
				case u < o.far+(1-o.far)/2:
					d = 1 + r.IntN(min(near, inBand))
				default:
					d = 1 + r.IntN(inBand)
				}
				j := k - d
				if mark[j] == int32(k+1) {
					continue
				}
				mark[j] = int32(k + 1)
				nbr = append(nbr, int32(j))
			}
			slices.Sort(nbr)
		}
		for row := k * bs; row < min(o.n, (k+1)*bs); row++ {
			for _, j := range nbr {
				for col := int(j) * bs; col < (int(j)+1)*bs; col++ {
					v := genValue(r)
					m.Row = append(m.Row, int32(row))
					m.Col = append(m.Col, int32(col))
					m.Val = append(m.Val, v)
					absSum[row] += math.Abs(v)
					absSum[col] += math.Abs(v)
				}
			}
			for col := k * bs; col < row; col++ {
				v := genValue(r)
				m.Row = append(m.Row, int32(row))
				m.Col = append(m.Col, int32(col))
				m.Val = append(m.Val, v)
				absSum[row] += math.Abs(v)
				absSum[col] += math.Abs(v)
			}
			diagAt[row] = len(m.Row)
			m.Row = append(m.Row, int32(row))
			m.Col = append(m.Col, int32(row))
			m.Val = append(m.Val, 0)
		}
	}
	for i, e := range diagAt {
		m.Val[e] = absSum[i] + 1 + r.Float64()
	}
	return m
}

// ---------------------------------------------------------------------------
// Web-like directed graphs.

func checkWeb(n int, avgDeg float64) error {
	if err := checkGenOrder("web", n); err != nil {
		return err
	}
	if n < 2 {
		return fmt.Errorf("web: n = %d: need at least two pages", n)
	}
	if !genFinite(avgDeg) || avgDeg < 1 || avgDeg > float64(n-1)/4 {
		return fmt.Errorf("web: average out-degree %v must be in [1, (n-1)/4 = %v]", avgDeg, float64(n-1)/4)
	}
	return checkGenEntries("web", float64(n)*avgDeg)
}

// WebGraph returns the adjacency matrix of a web-crawl-like directed graph
// on n pages with about avgDeg links per page and no self-links. Pages are
// grouped into hosts, contiguous index ranges of Pareto-distributed size,
// as in a crawl ordered by URL. Out-degrees are heavy-tailed (Lomax, tail
// exponent 2.2, at least 1). A link goes with probability 0.25 to one of
// the host's first 16 pages (navigation, skewed to the index page), with
// 0.74 to a page nearby in URL order (same directory), with 0.008 to the
// target of a random earlier link (copying: preferential attachment, so
// off-host links meet on popular pages and in-degrees follow a power law),
// and 0.2% of links go to a uniformly random page. Real URL-ordered crawls
// are this local: SPAC copies only ~7% of in-2004's vertices (the paper's
// Fig. 4). Storage is General, rows sorted.
func WebGraph(n int, avgDeg float64, seed int64) (*COO, error) {
	if err := checkWeb(n, avgDeg); err != nil {
		return nil, err
	}
	r := genRand(seed, streamWeb)
	m := genRowWise(fmt.Sprintf("web(n=%d,deg=%g,seed=%d)", n, avgDeg, seed), n, avgDeg)
	const alpha = 2.2
	scale := (avgDeg - 1) * (alpha - 1)
	maxHost := max(1, n/8)
	hostStart, hostEnd := 0, 0
	mark := make([]int32, n)
	for i := 0; i < n; i++ {
		if i == hostEnd {
			sz := int(20 * math.Pow(1-r.Float64(), -1/1.3))
			hostStart, hostEnd = i, i+min(max(sz, 1), maxHost, n-i)
		}
		hs := hostEnd - hostStart
		y := scale * (math.Pow(1-r.Float64(), -1/alpha) - 1)
		k := 1 + int(y+r.Float64())
		k = min(k, n-1)
		start := len(m.Col)
		for tries := 0; len(m.Col)-start < k && tries < 8*k+32; tries++ {
			var t int
			switch u := r.Float64(); {
			case u < 0.25:
				// Navigation: the host's front pages, the first ones most.
				x := r.Float64()
				t = hostStart + int(float64(min(hs, 16))*x*x)
			case u < 0.99:
				// A page nearby in URL order (same directory, or the next host).
				d := 1 + int(r.ExpFloat64()*24)
				if r.IntN(2) == 0 {
					d = -d
				}
				t = min(max(i+d, 0), n-1)
			case u < 0.998 && len(m.Col) > 0:
				// Copy the target of any earlier link: preferential
				// attachment, so off-host links meet on popular pages.
				t = int(m.Col[r.IntN(len(m.Col))])
			default:
				t = r.IntN(n)
			}
			if t == i || mark[t] == int32(i+1) {
				continue
			}
			mark[t] = int32(i + 1)
			m.Row = append(m.Row, int32(i))
			m.Col = append(m.Col, int32(t))
		}
		slices.Sort(m.Col[start:])
	}
	genFillValues(m, r)
	return m, nil
}

// genEcon returns an unsymmetric matrix shaped like an economic input-output
// model over regions (SuiteSparse mac_econ_fwd500): blocks of 500 sectors;
// rows of irregular length (a full diagonal plus Lomax-distributed extra
// entries, tail exponent 3); entries mostly inside the row's block, some at
// the same sector of another block, a few anywhere.
func genEcon(n int, avgDeg float64, seed int64) *COO {
	r := genRand(seed, streamEcon)
	m := genRowWise(fmt.Sprintf("econ(n=%d,deg=%g,seed=%d)", n, avgDeg, seed), n, avgDeg)
	const alpha, block = 3.0, 500
	scale := math.Max(avgDeg-1, 0) * (alpha - 1)
	mark := make([]int32, n)
	for i := 0; i < n; i++ {
		bstart := i / block * block
		bsize := min(block, n-bstart)
		y := scale * (math.Pow(1-r.Float64(), -1/alpha) - 1)
		k := min(1+int(y+r.Float64()), n)
		start := len(m.Col)
		mark[i] = int32(i + 1)
		m.Row = append(m.Row, int32(i))
		m.Col = append(m.Col, int32(i))
		for tries := 0; len(m.Col)-start < k && tries < 8*k+32; tries++ {
			var t int
			switch u := r.Float64(); {
			case u < 0.55:
				t = bstart + r.IntN(bsize)
			case u < 0.8:
				t = r.IntN((n+block-1)/block)*block + i%block
				if t >= n {
					continue
				}
			default:
				t = r.IntN(n)
			}
			if mark[t] == int32(i+1) {
				continue
			}
			mark[t] = int32(i + 1)
			m.Row = append(m.Row, int32(i))
			m.Col = append(m.Col, int32(t))
		}
		slices.Sort(m.Col[start:])
	}
	genFillValues(m, r)
	return m
}

func genRowWise(name string, n int, avgDeg float64) *COO {
	capacity := int(float64(n)*avgDeg*1.05) + 16
	return &COO{Name: name, NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: make([]int32, 0, capacity), Col: make([]int32, 0, capacity)}
}

func genFillValues(m *COO, r *rand.Rand) {
	m.Val = make([]float64, len(m.Row))
	for e := range m.Val {
		m.Val[e] = genValue(r)
	}
}

// ---------------------------------------------------------------------------
// 2D epidemiology Markov chain.

func checkEpidemic(k int) error {
	if k < 1 || k > 65000 {
		return fmt.Errorf("epidemic: k = %d must be in [1, 65000] (states (k+1)(k+2)/2 must fit int32)", k)
	}
	return nil
}

// Epidemic2D returns the transition-rate matrix of a two-dimensional
// Markov chain on the triangle of states (a, b), a, b >= 0, a+b <= k, like
// SuiteSparse mc2depi (k = 1024: 525,825 rows, 2,100,225 entries): from
// (a, b) the chain moves to (a-1, b+1) (infection), (a, b-1) (recovery) and
// (a+1, b) (arrival) where those states exist, and the diagonal is minus
// the row's total rate. States are numbered by a, then b, so each row holds
// at most 4 entries on 4 diagonals. Storage is General, unsymmetric, rows
// sorted; there is no randomness.
func Epidemic2D(k int) (*COO, error) {
	if err := checkEpidemic(k); err != nil {
		return nil, err
	}
	n := (k + 1) * (k + 2) / 2
	nnz := 4*n - 3*(k+1)
	m := &COO{Name: fmt.Sprintf("epidemic(k=%d)", k), NRows: n, NCols: n, Field: Real, Symmetry: General,
		Row: make([]int32, 0, nnz), Col: make([]int32, 0, nnz), Val: make([]float64, 0, nnz)}
	// start(a) is the index of state (a, 0): rows a' < a hold k-a'+1 states.
	start := func(a int) int { return a*(k+1) - a*(a-1)/2 }
	fk := float64(k)
	for a := 0; a <= k; a++ {
		for b := 0; a+b <= k; b++ {
			i := int32(start(a) + b)
			infect := 0.5*float64(a)*float64(b+1)/fk + 0.01
			recover := 0.2*float64(b) + 0.01
			arrive := 0.1*float64(k-a-b)/fk + 0.01
			add := func(j int, v float64) {
				m.Row = append(m.Row, i)
				m.Col = append(m.Col, int32(j))
				m.Val = append(m.Val, v)
			}
			total := 0.0
			if a > 0 {
				add(start(a-1)+b+1, infect)
				total += infect
			}
			if b > 0 {
				add(int(i)-1, recover)
				total += recover
			}
			diag := len(m.Val)
			add(int(i), 0)
			if a+b < k {
				add(start(a+1)+b, arrive)
				total += arrive
			}
			m.Val[diag] = -total
		}
	}
	return m, nil
}
