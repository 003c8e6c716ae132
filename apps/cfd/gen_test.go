package cfd

import (
	"math"
	"strings"
	"testing"
)

// checkSymmetric verifies that every interior slot a->b has a partner slot
// b->a whose normal is the exact negative, slots matched one to one.
func checkSymmetric(t *testing.T, m *Mesh) {
	t.Helper()
	n := m.N
	used := make([]bool, NNB*n)
	for a := 0; a < n; a++ {
		for j := 0; j < NNB; j++ {
			b := m.Nb(a, j)
			if b < 0 || used[a+j*n] {
				continue
			}
			ax, ay, az := m.Norm(a, j)
			found := false
			for jj := 0; jj < NNB; jj++ {
				if m.Nb(int(b), jj) != int32(a) || used[int(b)+jj*n] || (int(b) == a && jj == j) {
					continue
				}
				bx, by, bz := m.Norm(int(b), jj)
				if bx == -ax && by == -ay && bz == -az {
					used[a+j*n], used[int(b)+jj*n] = true, true
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("element %d slot %d -> %d has no partner with the negated normal", a, j, b)
			}
		}
	}
}

func TestGenerate(t *testing.T) {
	for _, tc := range []struct {
		spec                 string
		wantWing, wantFar    bool
		wantInterior, closed bool
	}{
		{spec: "mesh:n=1,wing=0", wantFar: true},
		{spec: "mesh:n=7,wing=0", wantFar: true},
		{spec: "mesh:n=5000", wantWing: true, wantFar: true},
		{spec: "mesh:n=5000,shuffle=0,tilt=10,jitter=0.3,warp=0.05", wantWing: true, wantFar: true},
		{spec: "mesh:n=4000,wing=0,nx=40", wantFar: true},
		{spec: "mesh:n=400,nx=20,closed=1", closed: true},
		{spec: "mesh:n=9,nx=3,closed=1", closed: true},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			spec, err := ParseSpec(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Generate(spec)
			if err != nil {
				t.Fatal(err)
			}
			if m.N != spec.N {
				t.Fatalf("%d elements, want %d", m.N, spec.N)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			checkSymmetric(t, m)
			f, err := BuildFaces(m)
			if err != nil {
				t.Fatal(err)
			}
			if f.MaxNormalMismatch != 0 {
				t.Errorf("normal mismatch %g, want exact negatives", f.MaxNormalMismatch)
			}
			c := m.Counts()
			if (c.Wing > 0) != tc.wantWing || (c.FarField > 0) != tc.wantFar {
				t.Errorf("counts %+v: want wing %v, far field %v", c, tc.wantWing, tc.wantFar)
			}
			if tc.closed && c.Interior != NNB*m.N {
				t.Errorf("closed mesh has %+v", c)
			}
			// Every cell closes: its four normals sum to (nearly) zero.
			for i := 0; i < m.N; i++ {
				var sx, sy, size float64
				for j := 0; j < NNB; j++ {
					x, y, z := m.Norm(i, j)
					sx, sy, size = sx+x, sy+y, size+math.Hypot(x, y)
					if z != 0 {
						t.Fatalf("element %d: z normal %g", i, z)
					}
				}
				if math.Hypot(sx, sy) > 1e-12*size {
					t.Fatalf("element %d: normals sum to (%g, %g)", i, sx, sy)
				}
			}
			// Deterministic; another seed gives another mesh.
			again, _ := Generate(spec)
			if !again.Equal(m) {
				t.Error("same spec, different mesh")
			}
			spec.Seed++
			other, _ := Generate(spec)
			if other.Equal(m) && spec.Jitter > 0 {
				t.Error("another seed gave the same mesh")
			}
		})
	}
}

func TestGenerateShuffle(t *testing.T) {
	spec, _ := ParseSpec("mesh:n=3000")
	shuffled, _ := Generate(spec)
	spec.Shuffle = false
	plain, _ := Generate(spec)
	if plain.Equal(shuffled) {
		t.Fatal("shuffle changed nothing")
	}
	// Same cells, renumbered: equal multisets of areas and face counts.
	if plain.Counts() != shuffled.Counts() {
		t.Errorf("counts %+v vs %+v", plain.Counts(), shuffled.Counts())
	}
	var a, b float64
	for i := range plain.Area {
		a += plain.Area[i]
		b += shuffled.Area[i]
	}
	if math.Abs(a-b) > 1e-12*a {
		t.Errorf("total area %g vs %g", a, b)
	}
	// The generator's own order is local: most neighbours are within a
	// row's distance; shuffled, few are.
	near := func(m *Mesh) float64 {
		c, tot := 0, 0
		for i := 0; i < m.N; i++ {
			for j := 0; j < NNB; j++ {
				if nb := m.Nb(i, j); nb >= 0 {
					tot++
					if d := int(nb) - i; d < 200 && d > -200 {
						c++
					}
				}
			}
		}
		return float64(c) / float64(tot)
	}
	if p, s := near(plain), near(shuffled); p < 0.99 || s > 0.2 {
		t.Errorf("neighbours within 200 ids: %.2f generator order, %.2f shuffled", p, s)
	}
}

func TestPresets(t *testing.T) {
	want := map[string]int{"fvcorr-097k": 97046, "fvcorr-193k": 193474, "missile-0.2m": 232536}
	if testing.Short() {
		want = map[string]int{"fvcorr-097k": 97046}
	}
	for name, n := range want {
		spec, ok := LookupPreset(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		m, err := Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Counts()
		if m.N != n || c.Wing == 0 || c.FarField == 0 {
			t.Errorf("%s: %d elements, %+v", name, m.N, c)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"mesh:n=5000000", ""},
		{"mesh:n=10,nx=5,closed=1,jitter=0,warp=0,shuffle=false", ""},
		{"mesh:n=10,wing=0,cx=0.5,cy=0.5,ax=0.1,ay=0.1,tilt=3", ""},
		{"n=10", "starts with mesh:"},
		{"mesh:", "is not key=value"},
		{"mesh:nx=4", "give the number of elements"},
		{"mesh:n=-3", "positive integer"},
		{"mesh:n=ten", "invalid syntax"},
		{"mesh:n=10,size=3", `unknown key "size"`},
		{"mesh:n=10,jitter=nan", "finite"},
		{"mesh:n=10,closed=maybe", "closed=maybe"},
	} {
		spec, err := ParseSpec(tc.in)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.in, err)
				continue
			}
			back, err := ParseSpec(spec.String())
			if err != nil || back != spec {
				t.Errorf("%s: String %q parses back to %+v, %v", tc.in, spec.String(), back, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
		}
	}
	for _, bad := range []GenSpec{{N: 0}, {N: 10, Jitter: 0.5}, {N: 10, Warp: 0.2}, {N: 10, NX: 4, Closed: true}, {N: 10, NX: 2, Closed: true}, {N: 10, NX: 11}, {N: 10, AX: 2}} {
		if _, err := Generate(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
