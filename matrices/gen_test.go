package matrices

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

type genCase struct {
	name   string
	seeded bool
	sym    bool // Symmetric storage, lower triangle
	gen    func(seed int64) (*COO, error)
}

var genCases = []genCase{
	{"er", true, false, func(s int64) (*COO, error) { return ErdosRenyi(2000, 8, s) }},
	{"er-dense", true, false, func(s int64) (*COO, error) { return ErdosRenyi(50, 50, s) }},
	{"ba", true, true, func(s int64) (*COO, error) { return BarabasiAlbert(3000, 4, s) }},
	{"rmat", true, false, func(s int64) (*COO, error) { return RMAT(12, 8, 0.57, 0.19, 0.19, s) }},
	{"stencil2d-5", false, false, func(int64) (*COO, error) { return Stencil2D(31, 17, 5) }},
	{"stencil2d-9", false, false, func(int64) (*COO, error) { return Stencil2D(17, 31, 9) }},
	{"stencil3d-7", false, false, func(int64) (*COO, error) { return Stencil3D(9, 7, 5, 7) }},
	{"stencil3d-27", false, false, func(int64) (*COO, error) { return Stencil3D(5, 9, 7, 27) }},
	{"circuit", true, false, func(s int64) (*COO, error) { return Circuit(5000, 5, s) }},
	{"fem", true, true, func(s int64) (*COO, error) { return FEMBlock(3001, 3, 40, 90, s) }},
	{"web", true, false, func(s int64) (*COO, error) { return WebGraph(5000, 10, s) }},
	{"econ", true, false, func(s int64) (*COO, error) { return genEcon(3000, 6, s), nil }},
	{"epidemic", false, false, func(int64) (*COO, error) { return Epidemic2D(40) }},
	{"road", true, true, func(s int64) (*COO, error) { return Road(60, 40, 0.7, 0.05, s) }},
	{"community", true, true, func(s int64) (*COO, error) { return Community(5000, 8, 0.15, s) }},
}

// checkSorted verifies that entries are sorted by row then column with no
// repeats, which every generator promises, and returns the first violation.
func checkSorted(t *testing.T, m *COO) {
	t.Helper()
	for e := 1; e < m.NNZ(); e++ {
		if m.Row[e] < m.Row[e-1] || (m.Row[e] == m.Row[e-1] && m.Col[e] <= m.Col[e-1]) {
			t.Fatalf("%s: entry %d (%d,%d) follows (%d,%d): unsorted or duplicate", m.Name, e, m.Row[e], m.Col[e], m.Row[e-1], m.Col[e-1])
		}
	}
}

func sameCOO(a, b *COO) bool {
	return a.NRows == b.NRows && a.NCols == b.NCols && a.Symmetry == b.Symmetry &&
		slices.Equal(a.Row, b.Row) && slices.Equal(a.Col, b.Col) && slices.Equal(a.Val, b.Val)
}

func TestGenerators(t *testing.T) {
	for _, tc := range genCases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.gen(1)
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
			if a.NNZ() == 0 || a.Val == nil || a.Field != Real || a.NRows != a.NCols {
				t.Fatalf("%s: %d entries, values %v, field %v, %d x %d", a.Name, a.NNZ(), a.Val != nil, a.Field, a.NRows, a.NCols)
			}
			checkSorted(t, a)
			for e := range a.Row {
				if a.Val[e] == 0 && a.Row[e] != a.Col[e] {
					t.Fatalf("%s: explicit zero at (%d,%d)", a.Name, a.Row[e], a.Col[e])
				}
			}
			if tc.sym != (a.Symmetry == Symmetric) {
				t.Fatalf("%s: symmetry %v", a.Name, a.Symmetry)
			}
			if tc.sym {
				for e := range a.Row {
					if a.Col[e] > a.Row[e] {
						t.Fatalf("%s: entry (%d,%d) above the diagonal", a.Name, a.Row[e], a.Col[e])
					}
				}
			}
			b, err := tc.gen(1)
			if err != nil {
				t.Fatal(err)
			}
			if !sameCOO(a, b) {
				t.Fatalf("%s: same seed, different output", a.Name)
			}
			if tc.seeded {
				c, err := tc.gen(2)
				if err != nil {
					t.Fatal(err)
				}
				if sameCOO(a, c) {
					t.Fatalf("%s: seeds 1 and 2 give the same output", a.Name)
				}
			}
		})
	}
}

func degrees(m *COO) []int {
	deg := make([]int, m.NRows)
	for _, r := range m.Expanded().Row {
		deg[r]++
	}
	return deg
}

func TestBarabasiAlbertDegrees(t *testing.T) {
	for _, m0 := range []int{4, 8, 32} {
		n := 50000
		if testing.Short() {
			n = 10000
		}
		m, err := BarabasiAlbert(n, m0, 7)
		if err != nil {
			t.Fatal(err)
		}
		if want := n*m0 - m0*(m0+1)/2; m.NNZ() != want {
			t.Fatalf("m=%d: %d edges, want %d", m0, m.NNZ(), want)
		}
		deg := degrees(m)
		sum, top := 0, 0
		for _, d := range deg {
			sum += d
			top = max(top, d)
			if d < m0 {
				t.Fatalf("m=%d: a vertex of degree %d < m", m0, d)
			}
		}
		avg := float64(sum) / float64(n)
		if math.Abs(avg-2*float64(m0)) > 0.01*2*float64(m0) {
			t.Fatalf("m=%d: average degree %.3f, want about %d", m0, avg, 2*m0)
		}
		// Preferential attachment grows the largest degree like sqrt(n):
		// far above anything a degree-regular or Poisson graph would show.
		if float64(top) < 8*avg {
			t.Fatalf("m=%d: max degree %d is not heavy-tailed (average %.1f)", m0, top, avg)
		}
	}
}

func TestRoad(t *testing.T) {
	// keep=1, diag=0: the grid itself.
	g, err := Road(30, 20, 1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := 29*20 + 30*19; g.NNZ() != want {
		t.Fatalf("the whole grid: %d edges, want %d", g.NNZ(), want)
	}
	r, err := Road(300, 300, 0.7, 0.05, 3)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for v, d := range degrees(r) {
		if d > 6 {
			t.Fatalf("vertex %d: degree %d, more than a grid vertex and two diagonals", v, d)
		}
		sum += d
	}
	// Inner vertices: 4*0.7 + 2*0.05 = 2.9; the border lowers it a little.
	if avg := float64(sum) / float64(r.NRows); avg < 2.85 || avg > 2.9 {
		t.Fatalf("mean degree %.3f, want about 2.9", avg)
	}
	for e := range r.Row { // neighbours on the grid: numbers within a row and one
		if d := r.Row[e] - r.Col[e]; d != 1 && d != 300 && d != 301 {
			t.Fatalf("edge (%d,%d) joins no grid neighbours", r.Row[e], r.Col[e])
		}
	}
}

func TestCommunity(t *testing.T) {
	n := 20000
	m, err := Community(n, 8, 0.15, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := n * 8 / 2; m.NNZ() < want*999/1000 || m.NNZ() > want {
		t.Fatalf("%d edges, want about %d", m.NNZ(), want)
	}
	sum, top := 0, 0
	for _, d := range degrees(m) {
		sum += d
		top = max(top, d)
	}
	if avg := float64(sum) / float64(n); float64(top) < 8*avg {
		t.Fatalf("max degree %d is not heavy-tailed (mean %.1f)", top, avg)
	}
	// Without edges between communities the graph falls apart into them;
	// with all edges drawn from everywhere it is one piece, or nearly.
	components := func(mix float64) int {
		g, err := Community(n, 8, mix, 4)
		if err != nil {
			t.Fatal(err)
		}
		root := make([]int32, n)
		for v := range root {
			root[v] = int32(v)
		}
		var find func(int32) int32
		find = func(v int32) int32 {
			for root[v] != v {
				root[v] = root[root[v]]
				v = root[v]
			}
			return v
		}
		for e := range g.Row {
			root[find(g.Row[e])] = find(g.Col[e])
		}
		size := make([]int, n)
		for v := range root {
			size[find(int32(v))]++
		}
		c := 0 // pieces of two vertices or more: a vertex of low weight may draw no edge
		for _, k := range size {
			if k > 1 {
				c++
			}
		}
		return c
	}
	apart, whole := components(0), components(1)
	t.Logf("pieces: %d without edges between communities, %d with only such", apart, whole)
	if apart < 100 || whole > 3 {
		t.Fatalf("components: %d without edges between communities, %d with only such edges", apart, whole)
	}
}

func TestStencilCounts(t *testing.T) {
	cases := []struct {
		name    string
		m       func() (*COO, error)
		rows    int
		nnz     int
		maxRow  int
		diagVal float64
	}{
		{"5pt", func() (*COO, error) { return Stencil2D(30, 20, 5) }, 600, 5*600 - 2*30 - 2*20, 5, 4},
		{"9pt", func() (*COO, error) { return Stencil2D(30, 20, 9) }, 600, (3*30 - 2) * (3*20 - 2), 9, 8},
		{"7pt", func() (*COO, error) { return Stencil3D(10, 8, 6, 7) }, 480, 7*480 - 2*(10*8+8*6+10*6), 7, 6},
		{"27pt", func() (*COO, error) { return Stencil3D(10, 8, 6, 27) }, 480, (3*10 - 2) * (3*8 - 2) * (3*6 - 2), 27, 26},
		{"line", func() (*COO, error) { return Stencil2D(50, 1, 5) }, 50, 3*50 - 2, 3, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := tc.m()
			if err != nil {
				t.Fatal(err)
			}
			if m.NRows != tc.rows || m.NNZ() != tc.nnz {
				t.Fatalf("%d rows %d entries, want %d and %d", m.NRows, m.NNZ(), tc.rows, tc.nnz)
			}
			perRow := make([]int, m.NRows)
			for _, r := range m.Row {
				perRow[r]++
			}
			if slices.Max(perRow) != tc.maxRow {
				t.Fatalf("longest row %d, want %d", slices.Max(perRow), tc.maxRow)
			}
			checkSymmetricValues(t, m)
			checkDiagDominant(t, m, false)
			for e := range m.Row {
				if m.Row[e] == m.Col[e] && m.Val[e] != tc.diagVal {
					t.Fatalf("diagonal %v, want %v", m.Val[e], tc.diagVal)
				}
			}
		})
	}
}

// checkSymmetricValues verifies that a General matrix equals its transpose.
func checkSymmetricValues(t *testing.T, m *COO) {
	t.Helper()
	type ent struct {
		r, c int32
		v    float64
	}
	a := make([]ent, m.NNZ())
	b := make([]ent, m.NNZ())
	for e := range m.Row {
		a[e] = ent{m.Row[e], m.Col[e], m.Val[e]}
		b[e] = ent{m.Col[e], m.Row[e], m.Val[e]}
	}
	cmp := func(x, y ent) int {
		if x.r != y.r {
			return int(x.r - y.r)
		}
		return int(x.c - y.c)
	}
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	if !slices.Equal(a, b) {
		t.Fatalf("%s is not symmetric", m.Name)
	}
}

// checkDiagDominant checks every row of the full matrix: a positive
// diagonal at least the sum of the off-diagonal magnitudes (strictly when
// strict), and strictly in at least one row, which with symmetry and
// irreducibility (stencils) or strictness (FEM) gives positive definiteness.
func checkDiagDominant(t *testing.T, m *COO, strict bool) {
	t.Helper()
	full := m.Expanded()
	diag := make([]float64, m.NRows)
	off := make([]float64, m.NRows)
	for e, r := range full.Row {
		if r == full.Col[e] {
			diag[r] += full.Val[e]
		} else {
			off[r] += math.Abs(full.Val[e])
		}
	}
	someStrict := false
	for i := range diag {
		switch {
		case diag[i] <= 0 || diag[i] < off[i]:
			t.Fatalf("%s: row %d: diagonal %v, off-diagonal sum %v", m.Name, i, diag[i], off[i])
		case diag[i] > off[i]:
			someStrict = true
		case strict:
			t.Fatalf("%s: row %d: diagonal %v not above off-diagonal sum %v", m.Name, i, diag[i], off[i])
		}
	}
	if !someStrict {
		t.Fatalf("%s: no row is strictly diagonally dominant", m.Name)
	}
}

func TestFEMBlock(t *testing.T) {
	for _, tc := range []struct {
		n, block  int
		rowNNZ    float64
		bandwidth int
	}{
		{3000, 3, 64, 150},
		{3001, 3, 64, 96}, // last node partial; band of exactly the blocks needed
		{2000, 1, 9, 40},
		{1000, 4, 4, 4}, // diagonal blocks only
	} {
		m, err := FEMBlock(tc.n, tc.block, tc.rowNNZ, tc.bandwidth, 3)
		if err != nil {
			t.Fatal(err)
		}
		checkDiagDominant(t, m, true)
		full := m.Expanded()
		got := float64(full.NNZ()) / float64(tc.n)
		if math.Abs(got-tc.rowNNZ) > 0.05*tc.rowNNZ {
			t.Fatalf("%s: %.2f entries per row, want about %v", m.Name, got, tc.rowNNZ)
		}
		for e := range m.Row {
			if d := m.Row[e] - m.Col[e]; int(d) > tc.bandwidth+2*tc.block {
				t.Fatalf("%s: entry (%d,%d) outside the band", m.Name, m.Row[e], m.Col[e])
			}
		}
	}
}

func TestCircuit(t *testing.T) {
	n, deg := 20000, 6.0
	m, err := Circuit(n, deg, 5)
	if err != nil {
		t.Fatal(err)
	}
	got := float64(m.NNZ()) / float64(n)
	if math.Abs(got-deg) > 0.02*deg {
		t.Fatalf("%.3f entries per row, want about %v", got, deg)
	}
	// Structurally symmetric with a full diagonal, values unsymmetric.
	type key struct{ r, c int32 }
	keys := make([]key, m.NNZ())
	tkeys := make([]key, m.NNZ())
	for e := range m.Row {
		keys[e] = key{m.Row[e], m.Col[e]}
		tkeys[e] = key{m.Col[e], m.Row[e]}
	}
	cmp := func(a, b key) int {
		if a.r != b.r {
			return int(a.r - b.r)
		}
		return int(a.c - b.c)
	}
	slices.SortFunc(tkeys, cmp)
	if !slices.Equal(keys, tkeys) {
		t.Fatal("pattern is not structurally symmetric")
	}
	perRow := make([]int, n)
	diags := 0
	for e, r := range m.Row {
		perRow[r]++
		if m.Col[e] == r {
			diags++
		}
	}
	if diags != n {
		t.Fatalf("%d diagonal entries, want %d", diags, n)
	}
	checkDiagDominant(t, m, true)
	sorted := slices.Clone(perRow)
	slices.Sort(sorted)
	if med := sorted[n/2]; med < 2 || med > 7 {
		t.Fatalf("median row length %d, want a sparse 2..7", med)
	}
	if top := sorted[n-1]; top < n/100 {
		t.Fatalf("longest row %d: no dense power/ground row", top)
	}
	// Locality: most off-diagonal entries join near indices.
	near, off := 0, 0
	for e := range m.Row {
		if d := int(m.Row[e]) - int(m.Col[e]); d != 0 {
			off++
			if d > -64 && d < 64 {
				near++
			}
		}
	}
	if float64(near) < 0.6*float64(off) {
		t.Fatalf("only %d of %d off-diagonal entries within 64 of the diagonal", near, off)
	}
}

func TestRMAT(t *testing.T) {
	m, err := RMAT(14, 16, 0.57, 0.19, 0.19, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 1 << 14
	if m.NRows != n || m.NNZ() > 16*n || m.NNZ() < 12*n {
		t.Fatalf("%d x %d with %d entries", m.NRows, m.NCols, m.NNZ())
	}
	// Skewed towards low indices: row 0 is the heaviest quadrant's corner.
	deg := make([]int, n)
	for _, r := range m.Row {
		deg[r]++
	}
	if deg[0] < 20*16 {
		t.Fatalf("row 0 has %d entries: no skew", deg[0])
	}
	// a=1 puts every draw at (0,0).
	m, err = RMAT(5, 4, 1, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 1 || m.Row[0] != 0 || m.Col[0] != 0 {
		t.Fatalf("a=1: %d entries", m.NNZ())
	}
}

func TestErdosRenyiSize(t *testing.T) {
	m, err := ErdosRenyi(20000, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := 200000.0
	if math.Abs(float64(m.NNZ())-want) > 5*math.Sqrt(want) {
		t.Fatalf("%d entries, want about %v", m.NNZ(), want)
	}
	full, err := ErdosRenyi(30, 30, 3)
	if err != nil {
		t.Fatal(err)
	}
	if full.NNZ() != 900 {
		t.Fatalf("deg = n: %d entries, want 900", full.NNZ())
	}
}

func TestWebGraph(t *testing.T) {
	n, deg := 30000, 12.0
	m, err := WebGraph(n, deg, 9)
	if err != nil {
		t.Fatal(err)
	}
	if got := float64(m.NNZ()) / float64(n); math.Abs(got-deg) > 0.05*deg {
		t.Fatalf("%.2f links per page, want about %v", got, deg)
	}
	in := make([]int, n)
	out := make([]int, n)
	for e := range m.Row {
		if m.Row[e] == m.Col[e] {
			t.Fatalf("self-link at %d", m.Row[e])
		}
		out[m.Row[e]]++
		in[m.Col[e]]++
	}
	if slices.Max(in) < 50*int(deg) || slices.Max(out) < 10*int(deg) {
		t.Fatalf("max in-degree %d, max out-degree %d: not heavy-tailed", slices.Max(in), slices.Max(out))
	}
}

func TestEpidemicMatchesMc2depi(t *testing.T) {
	m, err := Epidemic2D(1024)
	if err != nil {
		t.Fatal(err)
	}
	if m.NRows != 525825 || m.NNZ() != 2100225 {
		t.Fatalf("%d rows, %d entries; mc2depi has 525825 and 2100225", m.NRows, m.NNZ())
	}
	// A rate matrix: rows sum to zero.
	sum := make([]float64, m.NRows)
	for e, r := range m.Row {
		sum[r] += m.Val[e]
	}
	for i, s := range sum {
		if math.Abs(s) > 1e-12 {
			t.Fatalf("row %d sums to %v", i, s)
		}
	}
}

func TestGeneratorErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  func() error
	}{
		{"er n=0", func() error { _, err := ErdosRenyi(0, 1, 1); return err }},
		{"er deg>n", func() error { _, err := ErdosRenyi(10, 11, 1); return err }},
		{"er deg NaN", func() error { _, err := ErdosRenyi(10, math.NaN(), 1); return err }},
		{"er too big", func() error { _, err := ErdosRenyi(math.MaxInt32, 1000, 1); return err }},
		{"er n overflow", func() error { _, err := ErdosRenyi(math.MaxInt32+1, 1, 1); return err }},
		{"ba m=0", func() error { _, err := BarabasiAlbert(10, 0, 1); return err }},
		{"ba m>=n", func() error { _, err := BarabasiAlbert(10, 10, 1); return err }},
		{"rmat scale 31", func() error { _, err := RMAT(31, 1, .57, .19, .19, 1); return err }},
		{"rmat probs", func() error { _, err := RMAT(10, 1, .6, .3, .3, 1); return err }},
		{"rmat negative", func() error { _, err := RMAT(10, 1, -.1, .3, .3, 1); return err }},
		{"stencil points", func() error { _, err := Stencil2D(10, 10, 7); return err }},
		{"stencil zero side", func() error { _, err := Stencil3D(10, 0, 10, 7); return err }},
		{"stencil overflow", func() error { _, err := Stencil3D(2000, 2000, 2000, 7); return err }},
		{"circuit deg<1", func() error { _, err := Circuit(100, 0.5, 1); return err }},
		{"fem narrow band", func() error { _, err := FEMBlock(1000, 3, 64, 30, 1); return err }},
		{"fem block", func() error { _, err := FEMBlock(1000, 0, 64, 300, 1); return err }},
		{"web n=1", func() error { _, err := WebGraph(1, 1, 1); return err }},
		{"epidemic k", func() error { _, err := Epidemic2D(0); return err }},
		{"road keep 0", func() error { _, err := Road(10, 10, 0, 0, 1); return err }},
		{"road diag NaN", func() error { _, err := Road(10, 10, 0.5, math.NaN(), 1); return err }},
		{"road empty grid", func() error { _, err := Road(0, 10, 0.5, 0, 1); return err }},
		{"road overflow", func() error { _, err := Road(1<<16, 1<<16, 0.5, 0, 1); return err }},
		{"community n=1", func() error { _, err := Community(1, 1, 0, 1); return err }},
		{"community mix 2", func() error { _, err := Community(100, 4, 2, 1); return err }},
		{"community deg n", func() error { _, err := Community(100, 100, 0.1, 1); return err }},
	} {
		if err := tc.err(); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestMergeAndRadix(t *testing.T) {
	r := genRand(1, 99)
	for _, n := range []int{0, 1, 100, 5000, 100000} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64() & (1<<40 - 1) % 50000
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		want = slices.Compact(want)
		half := n / 2
		a := genSortUnique(slices.Clone(keys[:half]), 40)
		b := genSortUnique(slices.Clone(keys[half:]), 40)
		got := genMergeUnique(a, b)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: merge of sorted halves differs from a sort", n)
		}
		a = genSortUnique(slices.Clone(keys[:half]), 40)
		a = append(a, keys[half:]...)[:len(a)] // room after a, as Circuit leaves it
		if got := genMergeUnique(a, b); !slices.Equal(got, want) {
			t.Fatalf("n=%d: in-place merge differs from a sort", n)
		}
	}
}

func BenchmarkBarabasiAlbert2M(b *testing.B) {
	for b.Loop() {
		if _, err := BarabasiAlbert(125000, 16, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPresetCant(b *testing.B) {
	for b.Loop() {
		if _, err := Preset("cant", 1, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCircuit2M(b *testing.B) {
	for b.Loop() {
		if _, err := Circuit(200000, 10, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGeneratorTinySizes runs every generator at the smallest sizes it
// accepts: no panics, valid output.
func TestGeneratorTinySizes(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func() (*COO, error)
	}{
		{"er", func() (*COO, error) { return ErdosRenyi(1, 1, 1) }},
		{"er-tiny-deg", func() (*COO, error) { return ErdosRenyi(1000, 1e-9, 1) }},
		{"ba", func() (*COO, error) { return BarabasiAlbert(2, 1, 1) }},
		{"rmat", func() (*COO, error) { return RMAT(1, 1, 0.25, 0.25, 0.25, 1) }},
		{"stencil2d", func() (*COO, error) { return Stencil2D(1, 1, 9) }},
		{"stencil3d", func() (*COO, error) { return Stencil3D(1, 1, 1, 27) }},
		{"circuit-1", func() (*COO, error) { return Circuit(1, 1, 1) }},
		{"circuit-2", func() (*COO, error) { return Circuit(2, 1.5, 1) }},
		{"circuit-full", func() (*COO, error) { return Circuit(9, 5, 1) }},
		{"fem-1", func() (*COO, error) { return FEMBlock(1, 1, 1, 1, 1) }},
		{"fem-partial", func() (*COO, error) { return FEMBlock(5, 3, 9, 3, 1) }},
		{"web", func() (*COO, error) { return WebGraph(5, 1, 1) }},
		{"epidemic", func() (*COO, error) { return Epidemic2D(1) }},
		{"road", func() (*COO, error) { return Road(1, 1, 1, 1, 1) }},
		{"road-line", func() (*COO, error) { return Road(5, 1, 1, 1, 1) }},
		{"community", func() (*COO, error) { return Community(2, 1, 0, 1) }},
	} {
		m, err := tc.gen()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		checkSorted(t, m)
	}
}

// TestPCGAdvance: a stream moved n draws ahead gives what n draws of the
// stream itself leave next.
func TestPCGAdvance(t *testing.T) {
	for _, n := range []uint64{0, 1, 2, 3, 7, 64, 1000, 12345} {
		for _, stream := range []uint64{streamRMAT, 99} {
			stepped := genRand(7, stream)
			for range n {
				stepped.Uint64()
			}
			jumped := genRandAt(7, stream, n)
			for i := range 5 {
				if got, want := jumped.Uint64(), stepped.Uint64(); got != want {
					t.Fatalf("stream %d, %d draws ahead, draw %d: %#x, want %#x", stream, n, i, got, want)
				}
			}
		}
	}
}

// serialRMAT is RMAT as one loop over one stream (and a comparison sort):
// the output the parallel generator must keep.
func serialRMAT(scale, edgeFactor int, a, b, c float64, seed int64) *COO {
	r := genRand(seed, streamRMAT)
	n := 1 << scale
	ta, tb, tc := uint64(a*(1<<32)), uint64((a+b)*(1<<32)), uint64(math.Min(a+b+c, 1)*(1<<32))
	keys := make([]uint64, edgeFactor*n)
	for e := range keys {
		keys[e] = rmatEdge(r, scale, ta, tb, tc)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	m := &COO{NRows: n, NCols: n, Row: make([]int32, len(keys)), Col: make([]int32, len(keys)), Val: make([]float64, len(keys))}
	for e, k := range keys {
		m.Row[e], m.Col[e], m.Val[e] = int32(k>>scale), int32(k&uint64(n-1)), genValue(r)
	}
	return m
}

// TestRMATParallel: the generator's runs of edges and values, each from
// its own place in the stream, give the serial loop's matrix, on one core
// and on several, for odd and even scales (one draw serves two levels).
func TestRMATParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		scale, ef int
		seed      int64
	}{{13, 16, 1}, {14, 8, 2}, {15, 4, 3}} {
		want := serialRMAT(tc.scale, tc.ef, 0.57, 0.19, 0.19, tc.seed)
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			got, err := RMAT(tc.scale, tc.ef, 0.57, 0.19, 0.19, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Row, want.Row) || !slices.Equal(got.Col, want.Col) || !slices.Equal(got.Val, want.Val) {
				t.Fatalf("scale %d, ef %d, seed %d, %d cores: not the serial stream's matrix", tc.scale, tc.ef, tc.seed, procs)
			}
		}
	}
}

// TestGenRadixSort: the parallel radix sort sorts, on one core and on
// several, keys of a few widths, including runs that all share a digit
// (the pass is skipped) and inputs too small to split.
func TestGenRadixSort(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := genRand(3, 77)
	for _, tc := range []struct{ n, nbits int }{{100, 20}, {5000, 13}, {300000, 42}, {300000, 64}, {200000, 30}} {
		keys := make([]uint64, tc.n)
		for i := range keys {
			keys[i] = r.Uint64()
			if tc.nbits < 64 {
				keys[i] &= 1<<tc.nbits - 1
			}
			if tc.nbits == 30 {
				keys[i] &^= 0xfff << 11 // digits 11-22 all zero: their pass is skipped
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			got := slices.Clone(keys)
			genRadixSort(got, tc.nbits)
			if !slices.Equal(got, want) {
				t.Fatalf("%d keys of %d bits, %d cores: not sorted", tc.n, tc.nbits, procs)
			}
		}
	}
}

// BenchmarkRMAT: the Graph500 generator at scale 18, edge factor 16 (4.2M
// draws, their sort and their values).
func BenchmarkRMAT(b *testing.B) {
	for range b.N {
		if _, err := RMAT(18, 16, 0.57, 0.19, 0.19, 1); err != nil {
			b.Fatal(err)
		}
	}
}
