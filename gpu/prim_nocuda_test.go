//go:build !cuda

package gpu

import (
	"errors"
	"testing"
)

// Without CUDA no device opens, so no primitives are made; a nil or
// closed Prims refuses every call.
func TestPrimsNoCUDA(t *testing.T) {
	d, err := Open(0)
	if !errors.Is(err, ErrNoCUDA) {
		t.Fatalf("Open = %v; want ErrNoCUDA", err)
	}
	p, err := d.NewPrims(1 << 20)
	if p != nil || err == nil {
		t.Fatalf("NewPrims on no device = %v, %v", p, err)
	}
	for what, err := range map[string]error{
		"scan":      p.ExclusiveScan(nil, nil, HostLen(0), Int32, Int32, nil),
		"select":    p.Select(nil, nil, nil, HostLen(0), Uint8, nil),
		"reduce":    p.Reduce(nil, nil, HostLen(0), Sum, Int32, Int64),
		"histogram": p.Histogram(nil, nil, HostLen(0), Bins{N: 1}),
		"sort":      p.Sort(nil, nil, HostLen(0), Uint32, 0),
	} {
		if err == nil {
			t.Errorf("%s on no primitives: no error", what)
		}
	}
	if _, err := p.Selected(); err == nil {
		t.Error("Selected on no primitives: no error")
	}
}
