package schedule

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/spac"
)

func tinySchedule(t testing.TB, opts Options) *Schedule {
	return build(t, tiny(), spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}, opts)
}

// Decode never panics and never returns a schedule that fails Validate,
// whatever the bytes (the checksums are recomputed on mutated inputs by
// the fuzzer only by chance, so seeds with valid checksums matter most).
func FuzzDecode(f *testing.F) {
	for _, opts := range []Options{{BlockSize: 6}, {BlockSize: 5, Budget: 24, Overflow: ReadOnly}, {BlockSize: 6, Budget: 32, Overflow: Split}} {
		var buf bytes.Buffer
		tinySchedule(f, opts).WriteTo(&buf)
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data, "fuzz", nil)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Decode accepted an invalid schedule: %v", err)
		}
		y := make([]float64, s.NRows)
		if s.Vals != nil {
			s.SpMV(make([]float64, s.NCols), y)
		}
		s.Traffic(8)
	})
}

// ReadText never panics; what it accepts is valid and runs.
func FuzzReadText(f *testing.F) {
	for _, opts := range []Options{{BlockSize: 6}, {BlockSize: 5, Budget: 24, Overflow: ReadOnly}} {
		var buf bytes.Buffer
		WriteText(&buf, tinySchedule(f, opts))
		f.Add(buf.String())
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadText(strings.NewReader(text), "fuzz")
		if err != nil {
			return
		}
		y := make([]float64, s.NRows)
		if s.Vals != nil {
			s.SpMV(make([]float64, s.NCols), y)
		}
		s.Traffic(4)
	})
}
