package particlefilter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Spec is a run's input: the synthetic video's frame size and length and
// the particle count, Rodinia's -x, -y, -z and -np, and the seed of the
// random numbers.
type Spec struct {
	X, Y      int // frame size: rows (Rodinia's IszX) and columns (IszY)
	Frames    int // frames (Rodinia's Nfr); the filter runs frames 1 to Frames-1
	Particles int // particles (Rodinia's Nparticles)
	// Seed stands for Rodinia's time(0): particle i's generator starts at
	// Seed*i, wrapped to 32 bits as C's int conversion wraps it.
	Seed int64
}

// DefaultSeed is the seed a Spec gets when none is given: a fixed value of
// the size of a Unix time, as Rodinia seeds its generators with time(0)*i.
const DefaultSeed = 1700000000

// MaxPixels bounds X*Y*Frames: Rodinia indexes the video with 32-bit ints
// and folds particles that stray outside onto pixel 0 by comparing with
// the video's size, so the size and the 69 offsets around a stray particle
// must stay well inside int32.
const MaxPixels = 1 << 30

// MaxParticles bounds the particle count: the original find-index kernel
// searches the cumulative weights linearly, O(particles^2) work a frame.
const MaxParticles = 1 << 24

// Preset is a named input.
type Preset struct {
	Name, Description string
	Spec              Spec
}

// Presets are the inputs the commands and scripts name.
var Presets = []Preset{
	{"rodinia", "Rodinia's run script: a 128 x 128 video of 10 frames, 1000 particles (-x 128 -y 128 -z 10 -np 1000)",
		Spec{X: 128, Y: 128, Frames: 10, Particles: 1000, Seed: DefaultSeed}},
	// Four times Rodinia's particles: SPAC's likelihood then runs 283k
	// sample threads, as many as an H100 holds at once (132 SMs of 2048),
	// while each frame's partition stays a few seconds; the original runs
	// a thread per particle, and its find-index grows with their square.
	{"h100", "a 256 x 256 video of 10 frames, 4096 particles: SPAC's likelihood has 283k sample threads, an H100's worth",
		Spec{X: 256, Y: 256, Frames: 10, Particles: 4096, Seed: DefaultSeed}},
}

// PresetNames lists the presets.
func PresetNames() []string {
	names := make([]string, len(Presets))
	for i, p := range Presets {
		names[i] = p.Name
	}
	return names
}

// LookupPreset returns the preset of that name.
func LookupPreset(name string) (Spec, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p.Spec, true
		}
	}
	return Spec{}, false
}

// SpecHelp describes ParseSpec's syntax.
const SpecHelp = `pf:x=X,y=Y,z=FRAMES,np=PARTICLES[,seed=S]: a video of FRAMES frames of X x Y pixels
and PARTICLES particles (Rodinia's -x, -y, -z, -np); keys not given keep the rodinia
preset's values. seed stands for Rodinia's time(0) (default 1700000000).`

// ParseSpec reads "pf:x=128,y=128,z=10,np=1000" (see SpecHelp) and
// validates the result.
func ParseSpec(s string) (Spec, error) {
	rest, ok := strings.CutPrefix(s, "pf:")
	if !ok {
		return Spec{}, fmt.Errorf("%q: a particle filter spec starts with pf:", s)
	}
	spec, _ := LookupPreset("rodinia")
	seen := map[string]bool{}
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return Spec{}, fmt.Errorf("%q: %q is not key=value", s, kv)
		}
		if seen[k] {
			return Spec{}, fmt.Errorf("%q: %s given twice", s, k)
		}
		seen[k] = true
		if k == "seed" {
			seed, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Spec{}, fmt.Errorf("%q: seed %q: want an integer", s, v)
			}
			spec.Seed = seed
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return Spec{}, fmt.Errorf("%q: %s %q: want an integer", s, k, v)
		}
		switch k {
		case "x":
			spec.X = n
		case "y":
			spec.Y = n
		case "z", "frames":
			spec.Frames = n
		case "np", "particles":
			spec.Particles = n
		default:
			return Spec{}, fmt.Errorf("%q: unknown key %q (want x, y, z, np or seed)", s, k)
		}
	}
	if err := spec.Validate(); err != nil {
		return Spec{}, fmt.Errorf("%q: %w", s, err)
	}
	return spec, nil
}

// Validate checks the sizes: every dimension at least what Rodinia's
// disk needs to be drawn (the object is dilated by a radius of 5 around
// the frame's centre), two frames (the filter starts at frame 1), and the
// bounds MaxPixels and MaxParticles.
func (s Spec) Validate() error {
	switch {
	case s.X < 2*Radius || s.Y < 2*Radius:
		return fmt.Errorf("frame %d x %d: want at least %d x %d pixels (the object has radius %d)", s.X, s.Y, 2*Radius, 2*Radius, Radius)
	case s.Frames < 2:
		return fmt.Errorf("%d frames: want at least 2 (the filter tracks from the second frame on)", s.Frames)
	case s.Particles < 1:
		return fmt.Errorf("%d particles: want at least 1", s.Particles)
	case s.Particles > MaxParticles:
		return fmt.Errorf("%d particles: at most %d (the original resampling is quadratic in the particle count)", s.Particles, MaxParticles)
	case int64(s.X)*int64(s.Y)*int64(s.Frames) > MaxPixels:
		return fmt.Errorf("video of %d x %d x %d pixels: at most %d (Rodinia's 32-bit pixel indices)", s.X, s.Y, s.Frames, MaxPixels)
	}
	return nil
}

// Pixels is the video's size in pixels (bytes).
func (s Spec) Pixels() int { return s.X * s.Y * s.Frames }

// String is the spec in ParseSpec's syntax.
func (s Spec) String() string {
	out := fmt.Sprintf("pf:x=%d,y=%d,z=%d,np=%d", s.X, s.Y, s.Frames, s.Particles)
	if s.Seed != DefaultSeed {
		out += ",seed=" + strconv.FormatInt(s.Seed, 10)
	}
	return out
}

// Name is the preset's name when s is one, else String.
func (s Spec) Name() string {
	for _, p := range Presets {
		if p.Spec == s {
			return p.Name
		}
	}
	return s.String()
}

// seeds are the particles' generator states at the start, Rodinia's
// seed[i] = time(0) * i stored into an int.
func (s Spec) seeds() []int32 {
	out := make([]int32, s.Particles)
	for i := range out {
		out[i] = int32(uint64(s.Seed) * uint64(i) & math.MaxUint32)
	}
	return out
}
