package cfd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// GenSpec describes a generated mesh: a grid of quadrilateral cells in the
// x-y plane (unit depth, so a face's normal has z = 0 and the length of the
// cell's edge), its vertices warped smoothly and jittered so that areas and
// normals vary from cell to cell. Cells are filled row by row until there
// are N of them (the last row may be partial); cells whose centre falls in
// the wing, an inclined ellipse, are left out and their faces become wing
// walls; every other face on the outside is far field.
type GenSpec struct {
	N  int // elements
	NX int // cells per row (0: about twice the number of rows)
	// Closed makes a periodic mesh without boundary faces (a torus): NX
	// columns and N/NX rows, N a multiple of NX. For tests: every face is
	// interior.
	Closed bool
	// Wing: centre (CX, CY) as fractions of the domain's width and height,
	// semi-axes (AX, AY) as fractions of its height, inclined by Tilt
	// degrees. AX = 0: no wing.
	CX, CY, AX, AY, Tilt float64
	Jitter               float64 // random displacement of vertices, fraction of a cell
	Warp                 float64 // amplitude of a smooth displacement, fraction of the height
	Shuffle              bool    // randomly renumber the elements
	Seed                 int64
}

// Preset is a named generated mesh.
type Preset struct {
	Name, Description string
	Spec              GenSpec
}

// Presets are stand-ins of Rodinia's cfd inputs with their element counts.
var Presets = []Preset{
	{"fvcorr-097k", "97,046 elements, as Rodinia's fvcorr.domn.097K: a thin wing at 2 degrees in a 2:1 far-field box", defaultSpec(97046)},
	{"fvcorr-193k", "193,474 elements, as Rodinia's fvcorr.domn.193K: the same at twice the resolution", defaultSpec(193474)},
	{"missile-0.2m", "232,536 elements, as Rodinia's missile.domn.0.2M: a long slender body", missileSpec(232536)},
}

// defaultSpec is the fvcorr presets' shape: a thin wing (chord half the
// height, 12% thick) at 2 degrees. Blunter wings (20% thick) made a shock
// whose reflection at the far-field boundary, which Rodinia treats with a
// central flux and no dissipation, drove the pressure negative within 2000
// iterations; these shapes run Rodinia's 2000 iterations at all three
// preset sizes in fp32 (checked with the original solver).
func defaultSpec(n int) GenSpec {
	return GenSpec{N: n, CX: 0.3, CY: 0.5, AX: 0.25, AY: 0.03, Tilt: 2, Jitter: 0.15, Warp: 0.02, Shuffle: true, Seed: 1}
}

func missileSpec(n int) GenSpec {
	s := defaultSpec(n)
	s.CX, s.AX, s.AY, s.Tilt = 0.4, 0.6, 0.025, 0
	return s
}

// PresetNames lists the presets.
func PresetNames() []string {
	var names []string
	for _, p := range Presets {
		names = append(names, p.Name)
	}
	return names
}

// LookupPreset returns the preset of that name.
func LookupPreset(name string) (GenSpec, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p.Spec, true
		}
	}
	return GenSpec{}, false
}

// SpecHelp describes ParseSpec's syntax.
const SpecHelp = `mesh:n=N[,key=value...]: a generated mesh of N elements. Keys: nx (cells per row),
closed (1: periodic, no boundary faces; N must be a multiple of nx), wing (0: none),
cx, cy, ax, ay, tilt (wing centre and semi-axes as fractions, tilt in degrees),
jitter, warp (vertex displacement), shuffle (0: keep the generator's order).`

// ParseSpec reads "mesh:n=5000000,nx=4000,..." (see SpecHelp). Keys not
// given keep the fvcorr presets' values.
func ParseSpec(s string) (GenSpec, error) {
	rest, ok := strings.CutPrefix(s, "mesh:")
	if !ok {
		return GenSpec{}, fmt.Errorf("%q: a mesh spec starts with mesh:", s)
	}
	spec := defaultSpec(0)
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return GenSpec{}, fmt.Errorf("%q: %q is not key=value", s, kv)
		}
		var err error
		switch k {
		case "n", "nx":
			var x int
			x, err = strconv.Atoi(v)
			if err == nil && x <= 0 {
				err = fmt.Errorf("want a positive integer")
			}
			if k == "n" {
				spec.N = x
			} else {
				spec.NX = x
			}
		case "closed", "wing", "shuffle":
			var b bool
			b, err = strconv.ParseBool(v)
			switch k {
			case "closed":
				spec.Closed = b
			case "wing":
				if !b {
					spec.AX = 0
				}
			case "shuffle":
				spec.Shuffle = b
			}
		case "cx", "cy", "ax", "ay", "tilt", "jitter", "warp":
			var x float64
			x, err = strconv.ParseFloat(v, 64)
			if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
				err = fmt.Errorf("want a finite number")
			}
			*map[string]*float64{"cx": &spec.CX, "cy": &spec.CY, "ax": &spec.AX, "ay": &spec.AY, "tilt": &spec.Tilt, "jitter": &spec.Jitter, "warp": &spec.Warp}[k] = x
		default:
			return GenSpec{}, fmt.Errorf("%q: unknown key %q (see the spec syntax: %s)", s, k, SpecHelp)
		}
		if err != nil {
			return GenSpec{}, fmt.Errorf("%q: %s=%s: %v", s, k, v, err)
		}
	}
	if spec.N == 0 {
		return GenSpec{}, fmt.Errorf("%q: give the number of elements, n=N", s)
	}
	return spec, nil
}

// negZero is -0.0, the negated zero z component of a normal.
var negZero = math.Copysign(0, -1)

// maxGenElements bounds generated meshes (int32 ids, and memory).
const maxGenElements = 1 << 28

// Generate builds the mesh a spec describes. It is deterministic: the same
// spec and seed give the same mesh. Interior faces are symmetric: if a
// lists b, b lists a, with the exactly negated normal.
func Generate(spec GenSpec) (*Mesh, error) {
	n := spec.N
	switch {
	case n <= 0 || n > maxGenElements:
		return nil, fmt.Errorf("mesh of %d elements: want 1 to %d", n, maxGenElements)
	case spec.Jitter < 0 || spec.Jitter > 0.3:
		return nil, fmt.Errorf("jitter %g: want 0 to 0.3 of a cell (more could fold cells)", spec.Jitter)
	case spec.Warp < 0 || spec.Warp > 0.05:
		return nil, fmt.Errorf("warp %g: want 0 to 0.05 of the height (more could fold cells)", spec.Warp)
	case spec.AX < 0 || spec.AY < 0 || spec.AX > 1 || spec.AY > 1:
		return nil, fmt.Errorf("wing semi-axes %g, %g: want 0 to 1 (fractions of the height)", spec.AX, spec.AY)
	case spec.NX < 0 || spec.NX > n:
		return nil, fmt.Errorf("%d cells per row for %d elements: want 1 to %d", spec.NX, n, n)
	}
	nx := spec.NX
	var rows int
	if spec.Closed {
		if nx == 0 {
			nx = int(math.Round(math.Sqrt(float64(n))))
		}
		if nx < 3 || n%nx != 0 || n/nx < 3 {
			return nil, fmt.Errorf("closed mesh of %d elements with %d per row: want a multiple of the row length, at least 3 rows and columns", n, nx)
		}
		rows = n / nx
	} else {
		hole := math.Pi * spec.AX * spec.AY / 2 // fraction of a 2:1 domain
		if nx == 0 {
			nx = max(1, 2*int(math.Ceil(math.Sqrt(float64(n)/2/(1-min(hole, 0.5))))))
		}
	}
	// The nominal grid (before the fill decides the rows) places the wing.
	nominalRows := max(1, int(math.Round(float64(n)/float64(nx))))
	if !spec.Closed {
		nominalRows = max(1, nx/2)
	}
	h := 1 / float64(nominalRows)
	inWing := func(i, j int) bool {
		if spec.Closed || spec.AX == 0 || spec.AY == 0 {
			return false
		}
		// Centre of the undistorted cell, relative to the wing centre.
		x := (float64(i)+0.5)*h - spec.CX*float64(nx)*h
		y := (float64(j)+0.5)*h - spec.CY*float64(nominalRows)*h
		t := spec.Tilt * math.Pi / 180
		u := x*math.Cos(t) + y*math.Sin(t)
		v := -x*math.Sin(t) + y*math.Cos(t)
		return (u/spec.AX)*(u/spec.AX)+(v/spec.AY)*(v/spec.AY) < 1
	}
	// Fill: id[j*nx+i] is the cell's element, -1 wing hole, -2 beyond the fill.
	var id []int32
	count := 0
	for j := 0; count < n; j++ {
		if spec.Closed && j >= rows {
			break
		}
		for i := 0; i < nx; i++ {
			switch {
			case count == n:
				id = append(id, FarField)
			case inWing(i, j):
				id = append(id, Wing)
			default:
				id = append(id, int32(count))
				count++
			}
		}
	}
	rows = len(id) / nx
	cell := func(i, j int) int32 {
		if spec.Closed {
			return id[((j+rows)%rows)*nx+(i+nx)%nx]
		}
		if i < 0 || i >= nx || j < 0 || j >= rows {
			return FarField
		}
		return id[j*nx+i]
	}

	// Vertices: a smooth warp plus seeded jitter; periodic when closed.
	rng := rand.New(rand.NewPCG(uint64(spec.Seed), 0x6366642d6d657368))
	vx, vy := nx+1, rows+1
	px := make([]float64, vx*vy)
	py := make([]float64, vx*vy)
	w, H := float64(nx)*h, float64(rows)*h
	for j := 0; j < vy; j++ {
		for i := 0; i < vx; i++ {
			x, y := float64(i)*h, float64(j)*h
			dx := spec.Warp * math.Sin(2*math.Pi*x/w) * math.Sin(2*math.Pi*y/H)
			dy := spec.Warp * math.Sin(2*math.Pi*x/w) * math.Cos(2*math.Pi*y/H)
			jx := spec.Jitter * h * (2*rng.Float64() - 1)
			jy := spec.Jitter * h * (2*rng.Float64() - 1)
			px[j*vx+i], py[j*vx+i] = dx+jx, dy+jy
		}
	}
	disp := func(i, j int) (float64, float64) {
		if spec.Closed { // the displacement wraps around
			i, j = i%nx, j%rows
		}
		return px[j*vx+i], py[j*vx+i]
	}

	m := NewMesh("", n)
	// Slots 0..3: east, north, west, south. The cell's corners run
	// counter-clockwise c0 (i,j), c1 (i+1,j), c2 (i+1,j+1), c3 (i,j+1); the
	// edge from p to q has outward normal (qy-py, -(qx-px)), stored inward.
	// An edge vector is (grid offset difference)*h + (displacement
	// difference), and a face shared by two cells is the same edge in
	// opposite order, so the two normals are exact negatives (also across
	// the periodic seam of a closed mesh).
	di := [NNB]int{1, 0, -1, 0}
	dj := [NNB]int{0, 1, 0, -1}
	oi := [4]int{0, 1, 1, 0}
	oj := [4]int{0, 0, 1, 1}
	for j := 0; j < rows; j++ {
		for i := 0; i < nx; i++ {
			e := id[j*nx+i]
			if e < 0 {
				continue
			}
			var dx, dy, rx, ry [4]float64
			for c := 0; c < 4; c++ {
				dx[c], dy[c] = disp(i+oi[c], j+oj[c])
			}
			for c := 0; c < 4; c++ { // corners relative to c0, for the area
				rx[c] = float64(oi[c])*h + (dx[c] - dx[0])
				ry[c] = float64(oj[c])*h + (dy[c] - dy[0])
			}
			a := 0.5 * ((rx[1]*ry[2] - rx[2]*ry[1]) + (rx[2]*ry[3] - rx[3]*ry[2]))
			if !(a > 0) {
				return nil, fmt.Errorf("generated cell (%d, %d) is folded (area %g): lower jitter or warp", i, j, a)
			}
			m.Area[e] = a
			for s := 0; s < NNB; s++ {
				// Edge s runs from corner s+1 to s+2 (east: c1->c2, ...).
				p, q := (s+1)%4, (s+2)%4
				ex := float64(oi[q]-oi[p])*h + (dx[q] - dx[p])
				ey := float64(oj[q]-oj[p])*h + (dy[q] - dy[p])
				// The outward normal (ey, -ex, 0), negated as a reader would:
				// z is -0, which a file shows as 0.
				m.SetFace(int(e), s, cell(i+di[s], j+dj[s]), -ey, ex, negZero)
			}
		}
	}
	if spec.Shuffle {
		perm := make([]int32, n)
		for i := range perm {
			perm[i] = int32(i)
		}
		srng := rand.New(rand.NewPCG(uint64(spec.Seed), 0x73687566666c65))
		srng.Shuffle(n, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		m = m.Permute(perm, Inverse(perm))
	}
	m.Name = spec.String()
	return m, nil
}

// String is the spec in ParseSpec's syntax (the keys that differ from the
// defaults).
func (s GenSpec) String() string {
	d := defaultSpec(s.N)
	parts := []string{"n=" + strconv.Itoa(s.N)}
	if s.NX != 0 {
		parts = append(parts, "nx="+strconv.Itoa(s.NX))
	}
	if s.Closed {
		parts = append(parts, "closed=1")
	}
	f := func(k string, v, dv float64) {
		if v != dv {
			parts = append(parts, k+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	f("cx", s.CX, d.CX)
	f("cy", s.CY, d.CY)
	f("ax", s.AX, d.AX)
	f("ay", s.AY, d.AY)
	f("tilt", s.Tilt, d.Tilt)
	f("jitter", s.Jitter, d.Jitter)
	f("warp", s.Warp, d.Warp)
	if !s.Shuffle {
		parts = append(parts, "shuffle=0")
	}
	return "mesh:" + strings.Join(slices.Clip(parts), ",")
}
