package gaussian

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// Rodinia's generated system: symmetric Toeplitz, 10 on the diagonal,
// decaying by exp(-lambda) per step away from it; b = 1.
func TestGenerate(t *testing.T) {
	s, err := Generate(Spec{N: 50})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if s.B[i] != 1 || s.A[i*50+i] != 10 {
			t.Fatalf("row %d: diagonal %g, b %g", i, s.A[i*50+i], s.B[i])
		}
		for j := 0; j < 50; j++ {
			if s.A[i*50+j] != s.A[j*50+i] || (i+1 < 50 && j+1 < 50 && s.A[i*50+j] != s.A[(i+1)*50+j+1]) {
				t.Fatalf("(%d, %d): not symmetric Toeplitz", i, j)
			}
		}
	}
	if r := s.A[1] / s.A[0]; math.Abs(r-math.Exp(-0.01)) > 1e-15 {
		t.Errorf("decay %g per step, want exp(-0.01)", r)
	}
	if l, _ := Generate(Spec{N: 3, Lambda: 1}); l.A[1] != 10*math.Exp(-1) || l.Name != "matrix:n=3,lambda=1" {
		t.Errorf("lambda 1: %g, name %q", l.A[1], l.Name)
	}
}

// A system written and read back is the same, bit for bit; Rodinia's own
// layout (blank line between A and b) reads.
func TestRoundTrip(t *testing.T) {
	s, _ := Generate(Spec{N: 17, Lambda: 0.3})
	s.A[5] = -1.2345678901234567e-300
	var buf bytes.Buffer
	if err := WriteSystem(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSystem(&buf, "m.txt")
	if err != nil {
		t.Fatal(err)
	}
	if back.N != s.N || !slices.Equal(back.A, s.A) || !slices.Equal(back.B, s.B) {
		t.Fatal("system read back differs")
	}
	rodinia := "4\n-0.6 -0.5 0.7 0.3\n-0.3 -0.9 0.3 0.7\n-0.4 -0.5 -0.3 -0.8\n0.0 -0.1 0.2 0.9\n\n-0.85 -0.68 0.24 -0.53\n"
	r, err := ReadSystem(strings.NewReader(rodinia), "matrix4.txt")
	if err != nil || r.N != 4 || r.A[15] != 0.9 || r.B[3] != -0.53 {
		t.Fatalf("Rodinia's layout: %+v, %v", r, err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "line 1: unexpected end of input, expected the size"},
		{"0\n", "the size \"0\""},
		{"x\n", "the size \"x\""},
		{"2\n1 2\n3\n", "line 3: unexpected end of input, expected A[1][1]"},
		{"2\n1 2\n3 4\n\n5\n", "expected b[1]"},
		{"1\n1\n2\n3\n", `line 4: "3" after the 2 values`},
		{"1\nNaN\n1\n", "A[0][0]: \"NaN\" is not a finite number"},
		{"1\n1\n1e999\n", "b[0]: \"1e999\" is not a finite number"},
		{"99999\n", "from 1 to 46340"},
	} {
		_, err := ReadSystem(strings.NewReader(c.in), "f.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.txt: ") {
			t.Errorf("ReadSystem(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for in, want := range map[string]Spec{"matrix:n=16": {N: 16}, "matrix:n=16,lambda=0.5": {N: 16, Lambda: 0.5}} {
		if got, err := ParseSpec(in); err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %+v, %v", in, got, err)
		}
	}
	for _, in := range []string{"n=16", "matrix:", "matrix:n=0", "matrix:n=16,lambda=-1", "matrix:n=16,x=1", "matrix:lambda=1", "matrix:n=99999"} {
		if _, err := ParseSpec(in); err == nil {
			t.Errorf("ParseSpec(%q) accepted", in)
		}
	}
}

// FuzzReadSystem: the reader never panics, its errors name the file, and
// what it accepts round-trips and eliminates without a panic.
func FuzzReadSystem(f *testing.F) {
	f.Add("2\n4 1\n1 3\n\n1 2\n")
	f.Add("1 5 5")
	f.Add("3\n1 0 0\n0 1 0\n0 0 1\n1 2")
	f.Add("2\n1e308 -1e308 0x1p3 -0\n1 1\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadSystem(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSystem(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSystem(&buf, "back")
		if err != nil || !slices.Equal(back.A, s.A) || !slices.Equal(back.B, s.B) {
			t.Fatalf("round trip: %v", err)
		}
		if s.N <= 64 {
			Solve(s, FP32) // singular systems give infinities, not panics
		}
	})
}
