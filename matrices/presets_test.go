package matrices

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPresetNames(t *testing.T) {
	names := PresetNames()
	for _, want := range []string{"cant", "circuit5M", "cop20k_A", "Ga41As41H72", "in-2004", "mac_econ_fwd500", "mc2depi", "scircuit", "ba-50k-d16"} {
		p, ok := LookupPreset(strings.ToUpper(want))
		if !ok || p.Name != want {
			t.Fatalf("preset %s missing", want)
		}
	}
	if len(Presets()) != len(names) {
		t.Fatal("Presets and PresetNames disagree")
	}
	for _, p := range Presets() {
		if p.Description == "" || p.Rows <= 0 || p.NNZ <= 0 {
			t.Fatalf("preset %s lacks a description or size", p.Name)
		}
	}
}

// TestPresets generates every preset at a small scale and checks storage,
// size and the paper's entries per row.
func TestPresets(t *testing.T) {
	scale := 0.05
	if testing.Short() {
		scale = 0.02
	}
	for _, p := range Presets() {
		t.Run(p.Name, func(t *testing.T) {
			m, err := Preset(p.Name, scale, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			checkSorted(t, m)
			if p.Symmetric != (m.Symmetry == Symmetric) {
				t.Fatalf("symmetry %v, want symmetric=%v", m.Symmetry, p.Symmetric)
			}
			if m.Symmetry == Symmetric {
				for e := range m.Row {
					if m.Col[e] > m.Row[e] {
						t.Fatalf("entry (%d,%d) above the diagonal", m.Row[e], m.Col[e])
					}
				}
			}
			wantRows := max(presetMinRows, int(math.Round(float64(p.Rows)*scale)))
			if r := float64(m.NRows) / float64(wantRows); r < 0.7 || r > 1.4 { // grids and R-MAT round
				t.Fatalf("%d rows, want about %d", m.NRows, wantRows)
			}
			tol := 0.15
			if strings.HasPrefix(p.Name, "rmat") {
				tol = 0.25 // duplicates removed, more of them at small scales
			}
			got, want := float64(m.NNZ())/float64(m.NRows), float64(p.NNZ)/float64(p.Rows)
			if math.Abs(got-want) > tol*want {
				t.Fatalf("%.3f entries per row, paper %.3f", got, want)
			}
			again, err := Preset(p.Name, scale, 1)
			if err != nil || !sameCOO(m, again) {
				t.Fatalf("not deterministic (%v)", err)
			}
		})
	}
}

// TestPresetsFullSize checks the smaller paper matrices at scale 1: stored
// entries within 10% of the paper's.
func TestPresetsFullSize(t *testing.T) {
	if testing.Short() {
		t.Skip("full-size presets in -short mode")
	}
	for _, name := range []string{"cant", "cop20k_A", "mac_econ_fwd500", "mc2depi", "scircuit", "ba-50k-d64"} {
		p, _ := LookupPreset(name)
		m, err := Preset(name, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		if m.NRows != p.Rows {
			t.Fatalf("%s: %d rows, paper %d", name, m.NRows, p.Rows)
		}
		if r := float64(m.NNZ()) / float64(p.NNZ); r < 0.9 || r > 1.1 {
			t.Fatalf("%s: %d entries, paper %d", name, m.NNZ(), p.NNZ)
		}
	}
}

func TestPresetSPD(t *testing.T) {
	for _, name := range []string{"cant", "cop20k_A", "Ga41As41H72"} {
		m, err := Preset(name, 0.01, 4)
		if err != nil {
			t.Fatal(err)
		}
		checkDiagDominant(t, m, true)
	}
}

func TestPresetErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scale float64
		want  string
	}{
		{"nope", 1, "unknown preset"},
		{"cant", 0, "positive"},
		{"cant", -1, "positive"},
		{"cant", math.NaN(), "positive"},
		{"cant", math.Inf(1), "positive"},
		{"circuit5M", 1000, "beyond"},
	} {
		_, err := Preset(tc.name, tc.scale, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Preset(%q, %v): error %v, want one saying %q", tc.name, tc.scale, err, tc.want)
		}
	}
}

func TestParseGenSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want string // canonical form
	}{
		{"ba:n=500,m=4", "ba:n=500,m=4"},
		{" BA : m = 4 , n = 500 ", "ba:n=500,m=4"},
		{"er:n=1000,deg=10", "er:n=1000,deg=10"},
		{"rmat:scale=10", "rmat:scale=10,ef=16,a=0.57,b=0.19,c=0.19"},
		{"rmat:scale=10,ef=8,a=0.45,b=0.15,c=0.15", "rmat:scale=10,ef=8,a=0.45,b=0.15,c=0.15"},
		{"stencil2d:nx=30,ny=20", "stencil2d:nx=30,ny=20,points=5"},
		{"stencil3d:nx=10,ny=10,nz=10,points=27", "stencil3d:nx=10,ny=10,nz=10,points=27"},
		{"circuit:n=1e4,deg=5", "circuit:n=10000,deg=5"},
		{"fem:n=3000", "fem:n=3000,block=3,nnz=64,band=0"},
		{"fem:n=3000,block=2,nnz=30,band=200", "fem:n=3000,block=2,nnz=30,band=200"},
		{"web:n=2000", "web:n=2000,deg=12"},
		{"epidemic:k=50", "epidemic:k=50"},
	} {
		s, err := ParseGenSpec(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if s.String() != tc.want {
			t.Fatalf("%q: canonical %q, want %q", tc.spec, s.String(), tc.want)
		}
		m, err := s.Generate(1)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if err := m.Validate(); err != nil || m.NNZ() == 0 {
			t.Fatalf("%q: %d entries, %v", tc.spec, m.NNZ(), err)
		}
		again, err := ParseGenSpec(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%q: canonical form does not parse back (%v)", tc.spec, err)
		}
	}
}

func TestParseGenSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"", "missing kind"},
		{"foo:n=1", "unknown generator"},
		{"ba:n=100,q=3", "valid keys: n, m"},
		{"ba:n=100", "needs m"},
		{"ba:n=100,m", "not key=value"},
		{"ba:n=100,m=", "not key=value"},
		{"ba:n=100,m=x", "not a number"},
		{"ba:n=100,m=4,m=5", "twice"},
		{"ba:n=100.5,m=4", "integer"},
		{"ba:n=1e12,m=4", "integer"},
		{"ba:n=100,m=100", "m = 100"},
		{"er:n=0,deg=1", "at least one row"},
		{"er:n=100,deg=inf", "not a number"},
		{"er:n=2000000000,deg=1000", "more than"},
		{"rmat:scale=40", "scale 40"},
		{"stencil2d:nx=10,ny=10,points=7", "not supported"},
		{"stencil3d:nx=5000,ny=5000,nz=5000", "int32"},
		{"fem:n=1000,nnz=64,band=20", "bandwidth"},
		{"epidemic", "needs k"},
	} {
		_, err := ParseGenSpec(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.spec, err, tc.want)
		}
	}
	// A hand-built spec is checked too.
	if _, err := (GenSpec{Kind: "ba", Params: map[string]float64{"n": 10}}).Generate(1); err == nil {
		t.Error("Generate accepted a spec without m")
	}
	if _, err := (GenSpec{Kind: "nope"}).Generate(1); err == nil {
		t.Error("Generate accepted an unknown kind")
	}
	if h := GenSpecHelp(); !strings.Contains(h, "stencil3d") || !strings.Contains(h, "required") {
		t.Errorf("help text incomplete:\n%s", h)
	}
}

// TestPresetReport prints size and timing for every preset at the scale in
// SPAC_PRESET_SCALE (e.g. 1); it is skipped unless that is set.
func TestPresetReport(t *testing.T) {
	s := os.Getenv("SPAC_PRESET_SCALE")
	if s == "" {
		t.Skip("set SPAC_PRESET_SCALE to print preset sizes")
	}
	scale, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Presets() {
		start := time.Now()
		m, err := Preset(p.Name, scale, 1)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		perRow := make([]int, m.NRows)
		for _, r := range m.Expanded().Row {
			perRow[r]++
		}
		longest := 0
		for _, c := range perRow {
			longest = max(longest, c)
		}
		t.Logf("%-16s rows %9d nnz %10d (paper %10d at scale 1) nnz/row %7.3f (paper %7.3f) longest full row %7d  %v",
			p.Name, m.NRows, m.NNZ(), p.NNZ, float64(m.NNZ())/float64(m.NRows), float64(p.NNZ)/float64(p.Rows), longest, el.Round(time.Millisecond))
	}
}
