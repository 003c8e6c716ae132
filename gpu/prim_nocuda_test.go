//go:build !cuda

package gpu

import (
	"errors"
	"testing"
)

func TestPrimsNoCUDA(t *testing.T) {
	var d *Device
	p, err := d.NewPrims(1 << 20)
	if p != nil || !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("NewPrims = %v, %v; want ErrNoCUDA", p, err)
	}
	for what, err := range map[string]error{
		"scan":      p.ExclusiveScan(nil, nil, HostLen(1), Int32, Int32, nil),
		"select":    p.Select(nil, nil, nil, HostLen(1), Uint8, nil),
		"reduce":    p.Reduce(nil, nil, HostLen(1), Sum, Int32, Int64),
		"histogram": p.Histogram(nil, nil, HostLen(1), Bins{N: 1}),
		"sort":      p.Sort(nil, nil, HostLen(1), Uint32, 0),
	} {
		if !errors.Is(err, ErrNoCUDA) {
			t.Errorf("%s: %v", what, err)
		}
	}
}
