package cfd

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// two elements side by side: a shared face, a wing face, far-field faces.
const twoElements = `2
0.5 2 -1 0 0  0 0 1 0  -1 1 0 0  -5 0 -1 0
0.25
 1 1 0 0   -1 -1 0 0
 -1 0 1 0  -1 0 -1 0
`

func TestReadDomn(t *testing.T) {
	m, err := ReadDomn(strings.NewReader(twoElements), "two")
	if err != nil {
		t.Fatal(err)
	}
	if m.N != 2 || m.Area[0] != 0.5 || m.Area[1] != 0.25 {
		t.Fatalf("N %d areas %v", m.N, m.Area)
	}
	wantNb := [][NNB]int32{{1, Wing, FarField, FarField}, {0, FarField, FarField, FarField}}
	for i := range wantNb {
		for j := 0; j < NNB; j++ {
			if got := m.Nb(i, j); got != wantNb[i][j] {
				t.Errorf("element %d slot %d: neighbour %d, want %d", i, j, got, wantNb[i][j])
			}
		}
	}
	// Normals are negated on reading.
	if x, y, z := m.Norm(0, 0); x != 1 || y != 0 || z != 0 {
		t.Errorf("normal (0,0) = %g %g %g, want 1 0 0", x, y, z)
	}
	if x, _, _ := m.Norm(1, 0); x != -1 {
		t.Errorf("normal (1,0).x = %g, want -1", x)
	}
	f, err := BuildFaces(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.A) != 1 || len(f.BElem) != 6 {
		t.Errorf("%d interior and %d boundary faces, want 1 and 6", len(f.A), len(f.BElem))
	}
}

func TestDomnRoundTrip(t *testing.T) {
	closed, err := Generate(GenSpec{N: 60, NX: 6, Closed: true, Jitter: 0.2, Warp: 0.03, Shuffle: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	wing, err := ParseSpec("mesh:n=3000,tilt=7")
	if err != nil {
		t.Fatal(err)
	}
	open, err := Generate(wing)
	if err != nil {
		t.Fatal(err)
	}
	file, err := ReadDomn(strings.NewReader(twoElements), "two")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *Mesh
	}{{"closed", closed}, {"wing", open}, {"file", file}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteDomn(&buf, tc.m); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			back, err := ReadDomn(&buf, "back")
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(tc.m) {
				t.Fatal("mesh read back differs")
			}
			// And the text is stable: writing the mesh read back gives the same bytes.
			var again bytes.Buffer
			if err := WriteDomn(&again, back); err != nil {
				t.Fatal(err)
			}
			if again.String() != text {
				t.Error("second write differs from the first")
			}
		})
	}

	// Through a gzip file and OpenDomn.
	path := filepath.Join(t.TempDir(), "m.domn.gz")
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	if err := WriteDomn(zw, open); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	if err := os.WriteFile(path, zbuf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := OpenDomn(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(open) || back.Name != "m.domn" {
		t.Errorf("gzip round trip: equal %v, name %q", back.Equal(open), back.Name)
	}
}

func TestReadDomnMalformed(t *testing.T) {
	elem := "1 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n" // a lone element's line
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "line 1: unexpected end of input, expected element count"},
		{"count not a number", "ten\n", `line 1: element count: "ten" is not an integer`},
		{"count zero", "0\n", "element count 0"},
		{"count negative", "-4\n", "element count -4"},
		{"count too large", "99999999999\n", "element count 99999999999"},
		{"truncated", "2\n" + elem, "line 2: unexpected end of input, expected area of element 2"},
		{"truncated in element", "1\n1 0 1 0 0 -1\n", "line 2: unexpected end of input, expected normal x of neighbour 2 of element 1"},
		{"huge count, short file", "2000000000\n" + elem, "line 2: unexpected end of input"},
		{"bad area", "1\nx 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", `line 2: area of element 1: "x" is not a finite number`},
		{"nan area", "1\nnan 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", `"nan" is not a finite number`},
		{"zero area", "1\n0 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", "line 2: area of element 1 is 0: want a positive area"},
		{"negative area", "1\n\n\n-2 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", "line 4: area of element 1 is -2"},
		{"fractional id", "1\n1 0.5 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", `line 2: neighbour 1 of element 1: "0.5" is not an integer`},
		{"id beyond count", "1\n1 2 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", "line 2: neighbour 1 of element 1 is 2, beyond the 1 elements"},
		{"infinite normal", "1\n1 0 1e999 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n", `normal x of neighbour 1 of element 1: "1e999" is not a finite number`},
		{"trailing data", "1\n" + elem + "7\n", `line 3: unexpected "7" after the 1 elements`},
		{"long token", "1\n" + strings.Repeat("1", 100), "line 2: token longer than 64 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadDomn(strings.NewReader(tc.in), "bad.domn")
			if err == nil {
				t.Fatalf("read %d elements, want an error containing %q", m.N, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "bad.domn: ") {
				t.Errorf("error %q, want it to name the file and contain %q", err, tc.want)
			}
		})
	}
}

func FuzzReadDomn(f *testing.F) {
	f.Add(twoElements)
	f.Add("1\n1 0 1 0 0 -1 0 1 0 -1 -1 0 0 -1 0 -1 0\n")
	f.Add("2\n1 2 1 0 0 0 0 0 0 -1 0 0 0 -3 1e-3 2 3\n1 1 -1 0 0 1 0 0 0 -1 0 0 0 -1 0 0 0\n")
	f.Add("3\n1 2 1 0 0")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		m, err := ReadDomn(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted an invalid mesh: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteDomn(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDomn(&buf, "back")
		if err != nil {
			t.Fatal(err)
		}
		if !back.Equal(m) {
			t.Fatal("round trip differs")
		}
		// Pairing faces must not panic either, conforming or not.
		BuildFaces(m)
	})
}
