package schedule

import (
	"testing"

	"github.com/spac-gpu/spac/matrices"
	"github.com/spac-gpu/spac/spac"
)

// The traffic model on the tiny matrix, counted by hand (see the comments
// for the arithmetic; fp64, B = 6, 2-byte local addresses).
func TestTrafficTiny(t *testing.T) {
	s := build(t, tiny(), spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}, Options{BlockSize: 6})
	tr := s.Traffic(8)
	type ec struct{ el, sec int64 }
	cases := []struct {
		kernel KernelTraffic
		want   map[string]ec
	}{
		{tr.Default, map[string]ec{
			"row": {8, 2}, // warps [0,6) and [6,8): 24 and 8 bytes, one sector each
			"col": {8, 2},
			"val": {8, 3}, // bytes 0-47 (2 sectors), 48-63 (1)
			"x":   {6, 3}, // columns {0,1,3,4} -> sectors {0,1}; {2,3} -> {0}
			"y":   {4, 2}, // rows {0,1,2} -> sector 0; {3} -> sector 0
		}},
		{tr.Optimized, map[string]ec{
			"offsets":  {12, 6}, // 2 blocks x 1 warp x 3 arrays x 2 elements, 1 sector each
			"xunique":  {6, 2},
			"x":        {6, 3}, // {0,1,3} -> 1 sector, {2,3,4} -> 2
			"val":      {8, 4}, // slots 0-4 (bytes 0-39) and 6-8 (bytes 48-71)
			"xlocal":   {8, 2},
			"ylocal":   {8, 2},
			"yunique":  {5, 2},
			"yshared":  {5, 2},
			"y-store":  {3, 2}, // rows 0,1 (block 0), row 3 (block 1)
			"y-atomic": {2, 2}, // row 2 from both blocks
		}},
	}
	for _, c := range cases {
		seen := 0
		for _, st := range c.kernel.Streams {
			w, ok := c.want[st.Name]
			if !ok {
				t.Errorf("%s: unexpected stream %s", c.kernel.Kernel, st.Name)
				continue
			}
			seen++
			if st.Elements != w.el || st.Sectors != w.sec {
				t.Errorf("%s %s: %d elements, %d sectors; want %d, %d", c.kernel.Kernel, st.Name, st.Elements, st.Sectors, w.el, w.sec)
			}
		}
		if seen != len(c.want) {
			t.Errorf("%s: %d streams, want %d", c.kernel.Kernel, seen, len(c.want))
		}
	}
	de, ds := tr.Default.Total()
	oe, os := tr.Optimized.Total()
	if de != 34 || ds != 12 || oe != 63 || os != 27 {
		t.Errorf("totals: default %d/%d, optimized %d/%d; want 34/12 and 63/27", de, ds, oe, os)
	}
	if r := tr.SectorRatio(); r != 12.0/27 {
		t.Errorf("sector ratio %g", r)
	}
	le, _ := tr.Default.Of(Load)
	if le != 30 {
		t.Errorf("default load elements %d, want 30", le)
	}
}

// Invariants of the model on real inputs: the plain kernel reads every
// nonzero once per index array; the scheduled kernel stages exactly the
// unique x, flushes exactly the unique y, and reads x per nonzero when x
// is read-only. fp32 halves nothing but the value streams.
func TestTrafficInvariants(t *testing.T) {
	coo, err := matrices.Preset("cop20k_A", 0.02, 1)
	if err != nil {
		t.Fatal(err)
	}
	coo = coo.Expanded()
	p := partition(t, coo, "greedy", 256)
	full := build(t, coo, p, Options{BlockSize: 256})
	for _, opts := range []Options{{BlockSize: 256}, {BlockSize: 256, Budget: full.MaxSharedBytes(8) - 8, Overflow: ReadOnly}} {
		s := build(t, coo, p, opts)
		for _, w := range []int{4, 8} {
			tr := s.Traffic(w)
			get := func(k KernelTraffic, name string) Stream {
				for _, st := range k.Streams {
					if st.Name == name {
						return st
					}
				}
				t.Fatalf("%s has no stream %s", k.Kernel, name)
				return Stream{}
			}
			nnz := int64(coo.NNZ())
			if e := get(tr.Default, "row").Elements; e != nnz {
				t.Errorf("default row elements %d, want %d", e, nnz)
			}
			if st := get(tr.Default, "val"); st.Sectors < nnz*int64(w)/32 {
				t.Errorf("default val sectors %d below the minimum %d", st.Sectors, nnz*int64(w)/32)
			}
			if e := get(tr.Optimized, "val").Elements; e != nnz {
				t.Errorf("optimized val elements %d, want %d", e, nnz)
			}
			ys := get(tr.Optimized, "y-store").Elements + get(tr.Optimized, "y-atomic").Elements
			if ys != int64(len(s.YUnique)) {
				t.Errorf("y flushed %d elements, %d unique", ys, len(s.YUnique))
			}
			if s.XReadOnly() {
				if get(tr.Optimized, "col").Elements != nnz {
					t.Error("read-only x: col not read per nonzero")
				}
			} else if e := get(tr.Optimized, "x").Elements; e != int64(len(s.XUnique)) {
				t.Errorf("x staged %d elements, %d unique", e, len(s.XUnique))
			}
			_, dsec := tr.Default.Total()
			_, osec := tr.Optimized.Total()
			t.Logf("x read-only %-5v fp%d: default %d sectors, schedule %d, ratio %.3f", s.XReadOnly(), 8*w, dsec, osec, tr.SectorRatio())
		}
	}
}

func TestPredictTraffic(t *testing.T) {
	coo := tiny()
	p := spac.Partition{K: 2, Part: []int32{1, 0, 0, 1, 0, 0, 1, 0}}
	tr, err := PredictTraffic(coo, p, 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, s := tr.Optimized.Total(); s != 27 || tr.ValueBytes != 8 || tr.BlockSize != 6 {
		t.Errorf("PredictTraffic: %d sectors, %d-byte values, B=%d", s, tr.ValueBytes, tr.BlockSize)
	}
	if _, err := PredictTraffic(coo, p, 4); err == nil {
		t.Error("PredictTraffic accepted parts larger than the block")
	}
}
