package enum

import (
	"slices"
	"strings"
	"testing"
)

type color uint8

var colors = New("color",
	Name[color]{0, "red", []string{"r"}},
	Name[color]{1, "green", nil},
	Name[color]{2, "blue", []string{"b", "azure"}},
)

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want color
	}{{"red", 0}, {" R ", 0}, {"GREEN", 1}, {"azure", 2}, {"b", 2}} {
		got, err := colors.Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	// Every name parses back to its value.
	for _, v := range colors.Values() {
		if got, err := colors.Parse(colors.String(v)); err != nil || got != v {
			t.Errorf("round trip of %v: %v, %v", v, got, err)
		}
	}
	_, err := colors.Parse("mauve")
	if err == nil || err.Error() != `unknown color "mauve" (want red, green or blue)` {
		t.Errorf("error = %v", err)
	}
	if s := colors.String(7); s != "color(7)" {
		t.Errorf("String(7) = %q", s)
	}
	l, err := colors.ParseList("blue, red,,blue")
	if err != nil || !slices.Equal(l, []color{2, 0}) {
		t.Errorf("ParseList = %v, %v", l, err)
	}
	if _, err := colors.ParseList("red,pink"); err == nil || !strings.Contains(err.Error(), `"pink"`) {
		t.Errorf("ParseList error = %v", err)
	}
}
