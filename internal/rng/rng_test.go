package rng

import "testing"

func TestRanges(t *testing.T) {
	if Unit(0) != 1.0/(1<<24) || Unit(^uint64(0)) != 1 {
		t.Errorf("Unit spans [%v, %v], want [2^-24, 1]", Unit(0), Unit(^uint64(0)))
	}
	if Below(0, 7) != 0 || Below(^uint64(0), 7) != 6 {
		t.Errorf("Below(., 7) spans [%d, %d], want [0, 6]", Below(0, 7), Below(^uint64(0), 7))
	}
	// Streams and seeds differ; a draw is a pure function of its index.
	a, b, c := NewKey(1, 1), NewKey(1, 2), NewKey(2, 1)
	if a.At(5) == b.At(5) || a.At(5) == c.At(5) || a.At(5) != NewKey(1, 1).At(5) {
		t.Error("keys do not separate seeds and streams, or are not deterministic")
	}
	// Uniformity, roughly: the mean of 2^16 units is near 1/2.
	var s float64
	for i := range uint64(1 << 16) {
		s += float64(Unit(a.At(i)))
	}
	if m := s / (1 << 16); m < 0.49 || m > 0.51 {
		t.Errorf("mean unit draw %v", m)
	}
}
