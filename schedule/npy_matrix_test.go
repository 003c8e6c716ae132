package schedule

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

// TestNPYMatrixRoundTrip: the two-dimensional writers give a (rows, cols)
// header whose data starts at a multiple of 64 bytes, and ReadNPY returns
// the shape and the elements.
func TestNPYMatrixRoundTrip(t *testing.T) {
	f := []float32{0, 1.5, float32(math.Inf(1)), -2, 3, 4}
	i := []int32{0, 7, math.MaxInt32, -1, 5, 6}
	for _, c := range []struct {
		name  string
		write func(*bytes.Buffer) error
		descr string
	}{
		{"float32", func(b *bytes.Buffer) error { return WriteNPYFloat32Matrix(b, f, 2, 3) }, DescrFloat32},
		{"int32", func(b *bytes.Buffer) error { return WriteNPYInt32Matrix(b, i, 2, 3) }, DescrInt32},
	} {
		var b bytes.Buffer
		if err := c.write(&b); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Contains(b.Bytes()[:128], []byte("'shape': (2, 3), }")) || (b.Len()-24)%64 != 0 {
			t.Errorf("%s: header %q", c.name, b.Bytes()[:64])
		}
		a, err := ReadNPY(&b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if a.Descr != c.descr || a.Len != 6 || !slices.Equal(a.Shape, []int{2, 3}) {
			t.Errorf("%s: read %s %v (%d elements)", c.name, a.Descr, a.Shape, a.Len)
		}
		if c.descr == DescrFloat32 {
			got, err := a.Float32s()
			if err != nil || !slices.Equal(got, f) {
				t.Errorf("%s: read %v, %v", c.name, got, err)
			}
		} else if got, err := a.Int32s(); err != nil || !slices.Equal(got, i) {
			t.Errorf("%s: read %v, %v", c.name, got, err)
		}
	}
	if err := WriteNPYFloat32Matrix(&bytes.Buffer{}, f, 4, 2); err == nil {
		t.Error("6 elements written as 4 x 2")
	}
}
