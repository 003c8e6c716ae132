// Package rng is the counter-based random number generator the traversal
// packages share, and the hash (Mix) that spreads keys over MPI ranks: draw i of a keyed stream is a pure function of (seed,
// stream, i), SplitMix64's output function applied to a Weyl sequence, so
// that any worker can compute any draw and parallel generators give the
// same output for every GOMAXPROCS. It is not cryptographic. Each call is a
// few multiplies and shifts, O(1) time and no memory.
package rng

const golden = 0x9e3779b97f4a7c15

// Mix is SplitMix64's finalizer: a bijection of uint64 whose output bits
// all depend on all input bits.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Key names one stream of draws: a seed and a stream number (each use of
// randomness in a generator takes its own stream, so that adding one does
// not change the others).
type Key uint64

// NewKey returns the key of stream stream under seed.
func NewKey(seed, stream uint64) Key { return Key(Mix(seed^Mix(stream*golden+golden)) | 1) }

// At returns draw i of the stream: 64 uniform bits.
func (k Key) At(i uint64) uint64 { return Mix(uint64(k) + i*golden) }

// Unit returns a float32 in (0, 1] from 64 random bits: one of the 2^24
// values j/2^24, j = 1..2^24, each exactly representable, uniformly.
func Unit(x uint64) float32 { return float32(x>>40+1) * (1.0 / (1 << 24)) }

// Below returns a uniform integer in [0, n) from 64 random bits (Lemire's
// multiply-shift on the high 32 bits; the bias is below n/2^32).
func Below(x uint64, n uint32) uint32 { return uint32((x >> 32) * uint64(n) >> 32) }
