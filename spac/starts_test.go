package spac

import (
	"slices"
	"testing"
)

func TestParseStarts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"auto", nil, true},
		{"", nil, true},
		{"metis", []string{"metis"}, true},
		{" ne , wvp", []string{"ne", "wvp"}, true},
		{"metis,hdrf", nil, false},
	} {
		got, err := ParseStarts(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("ParseStarts(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}
