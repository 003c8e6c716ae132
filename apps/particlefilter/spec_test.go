package particlefilter

import (
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	rodinia, _ := LookupPreset("rodinia")
	for _, tc := range []struct {
		in   string
		want Spec
		err  string
	}{
		{in: "pf:x=128,y=128,z=10,np=1000", want: rodinia},
		{in: "pf:np=5000", want: Spec{X: 128, Y: 128, Frames: 10, Particles: 5000, Seed: DefaultSeed}},
		{in: "pf:x=64, y=32,frames=3,particles=7,seed=-4", want: Spec{X: 64, Y: 32, Frames: 3, Particles: 7, Seed: -4}},
		{in: "x=1", err: "starts with pf:"},
		{in: "pf:x", err: "not key=value"},
		{in: "pf:x=1.5", err: "want an integer"},
		{in: "pf:q=1", err: "unknown key"},
		{in: "pf:x=64,x=32", err: "given twice"},
		{in: "pf:x=9", err: "at least 10 x 10"},
		{in: "pf:z=1", err: "at least 2"},
		{in: "pf:np=0", err: "at least 1"},
		{in: "pf:np=16777217", err: "quadratic"},
		{in: "pf:x=32768,y=32768,z=2", err: "32-bit"},
		{in: "pf:seed=x", err: "seed"},
	} {
		got, err := ParseSpec(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.err == "" && got != tc.want:
			t.Errorf("%s: %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// Every preset is valid, and a spec's String parses back to it.
func TestSpecRoundTrip(t *testing.T) {
	specs := []Spec{{X: 10, Y: 200, Frames: 2, Particles: 1, Seed: 0}}
	for _, p := range Presets {
		if err := p.Spec.Validate(); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
		specs = append(specs, p.Spec)
		if p.Spec.Name() != p.Name {
			t.Errorf("preset %s is named %s", p.Name, p.Spec.Name())
		}
	}
	for _, s := range specs {
		back, err := ParseSpec(s.String())
		if err != nil || back != s {
			t.Errorf("%+v: %s parses to %+v, %v", s, s.String(), back, err)
		}
	}
}

// Rodinia's seeds: time(0)*i stored into an int, wrapping.
func TestSeeds(t *testing.T) {
	s := Spec{Particles: 4, Seed: 1 << 31}
	got := s.seeds()
	for i, want := range []int32{0, -1 << 31, 0, -1 << 31} {
		if got[i] != want {
			t.Errorf("seed[%d] = %d, want %d", i, got[i], want)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	f.Add("pf:x=128,y=128,z=10,np=1000")
	f.Add("pf:np=1,seed=-9223372036854775808")
	f.Add("pf:x=10,y=10,z=2")
	f.Add("pf:")
	f.Add("pf:x=,y")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpec(in)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("%q: accepted an invalid spec: %v", in, err)
		}
		back, err := ParseSpec(s.String())
		if err != nil || back != s {
			t.Fatalf("%q: %s parses to %+v, %v", in, s.String(), back, err)
		}
	})
}
