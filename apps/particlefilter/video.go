package particlefilter

import "math"

// Radius is the tracked object's radius in pixels, and of the disk of
// samples the likelihood reads around a particle.
const Radius = 5

// Rodinia's intensities: the background and the object before noise.
const (
	background = 100
	foreground = 228
)

// Video is the synthetic video Rodinia tracks: a disk moving in a straight
// line over a constant background, with Gaussian noise. Pixel (x, y) of
// frame k is I[x*Y*Frames + y*Frames + k], Rodinia's layout (frames
// innermost), one byte each.
type Video struct {
	X, Y, Frames int
	I            []uint8
}

// pixel is the index of (x, y, k).
func (v *Video) pixel(x, y, k int) int { return x*v.Y*v.Frames + y*v.Frames + k }

// NewVideo makes the video of spec as Rodinia's videoSequence does and
// returns it with the particles' generator states after it. The noise is
// drawn from particle 0's generator (Rodinia draws it from seed[0]), so
// the filter starts with that state advanced by two draws per pixel; as
// seed[0] = Seed*0 = 0, the video is the same whatever the seed.
//
// Rodinia's quirks are kept: the object's centre is (Y/2, X/2), swapped
// for non-square frames, and its path from frame 1 on is stored with x
// and y swapped again (position (|x0+k-1|, |y0-2(k-1)|) at index
// yk*Y*Frames + xk*Frames + k, folded to 0 past the end); the dilation
// covers [p-5, p+5) (one pixel more below than above); the noise
// 5*randn is truncated to an integer and added modulo 256.
func NewVideo(spec Spec) (*Video, []int32, error) {
	if err := spec.Validate(); err != nil {
		return nil, nil, err
	}
	seed := spec.seeds()
	v := &Video{X: spec.X, Y: spec.Y, Frames: spec.Frames}
	n := spec.Pixels()
	marks := make([]uint8, n)
	x0, y0 := spec.Y/2, spec.X/2
	if p := v.pixel(x0, y0, 0); p < n {
		marks[p] = 1
	}
	for k := 1; k < spec.Frames; k++ {
		xk := abs(x0 + (k - 1))
		yk := abs(y0 - 2*(k-1))
		pos := yk*spec.Y*spec.Frames + xk*spec.Frames + k
		if pos >= n {
			pos = 0
		}
		marks[pos] = 1
	}
	// Dilate every mark by the disk: imdilate_disk, frame by frame.
	v.I = make([]uint8, n)
	for k := 0; k < spec.Frames; k++ {
		for x := 0; x < spec.X; x++ {
			for y := 0; y < spec.Y; y++ {
				if marks[v.pixel(x, y, k)] == 1 {
					v.dilate(x, y, k)
				}
			}
		}
	}
	for i, b := range v.I {
		if b == 1 {
			v.I[i] = foreground
		} else {
			v.I[i] = background
		}
	}
	// Noise, in Rodinia's loop order (x, y, then frame).
	for x := 0; x < spec.X; x++ {
		for y := 0; y < spec.Y; y++ {
			for k := 0; k < spec.Frames; k++ {
				p := v.pixel(x, y, k)
				v.I[p] += uint8(int(5 * randn(seed, 0)))
			}
		}
	}
	return v, seed, nil
}

// dilate sets the pixels of frame k within distance Radius of (px, py)
// (Rodinia's dilate_matrix: the window [p-5, p+5), clipped to the frame).
func (v *Video) dilate(px, py, k int) {
	x0, x1 := max(px-Radius, 0), min(px+Radius, v.X)
	y0, y1 := max(py-Radius, 0), min(py+Radius, v.Y)
	for x := x0; x < x1; x++ {
		for y := y0; y < y1; y++ {
			dx, dy := float64(x-px), float64(y-py)
			if math.Sqrt(dx*dx+dy*dy) < Radius {
				v.I[v.pixel(x, y, k)] = 1
			}
		}
	}
}

// Offsets are the sample offsets of the likelihood, Rodinia's objxy: the
// cells of a (2*Radius-1)-square strictly within distance Radius of its
// centre, row by row; offset j is (dx, dy) = (Offsets[2j+1],
// Offsets[2j]), Rodinia's order of the pair. There are CountOnes of them.
var Offsets = diskOffsets()

// CountOnes is the number of samples of a particle's likelihood (69).
var CountOnes = len(Offsets) / 2

func diskOffsets() []int32 {
	const d = 2*Radius - 1
	var out []int32
	for x := 0; x < d; x++ {
		for y := 0; y < d; y++ {
			dx, dy := float64(x-Radius+1), float64(y-Radius+1)
			if math.Sqrt(dx*dx+dy*dy) < Radius {
				out = append(out, int32(y-(Radius-1)), int32(x-(Radius-1)))
			}
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
