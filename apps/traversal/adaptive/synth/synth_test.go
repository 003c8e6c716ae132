package synth

import (
	"math"
	"reflect"
	"testing"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
)

// TestSweep: the synthetic sweep is deterministic, marks the directed
// graph's pull rows invalid, and reads back from files as it was made.
func TestSweep(t *testing.T) {
	specs := Small(6)
	d, err := Dataset(specs, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Dataset(specs, 2, 3)
	if !reflect.DeepEqual(d.Candidates, again.Candidates) || len(d.Samples) != len(again.Samples) {
		t.Fatal("two synthetic datasets differ")
	}
	for i := range d.Samples {
		a, b := d.Samples[i], again.Samples[i]
		for c := range a.Time {
			if a.Time[c] != b.Time[c] && !(math.IsNaN(a.Time[c]) && math.IsNaN(b.Time[c])) {
				t.Fatalf("sample %d differs: %v and %v", i, a.Time, b.Time)
			}
		}
	}
	pull := 2
	if d.Candidates[pull] != "pull" {
		t.Fatalf("candidates %v", d.Candidates)
	}
	for _, s := range d.Samples {
		directed := d.Graphs[s.Graph].Directed
		if math.IsNaN(s.Time[pull]) != directed {
			t.Fatalf("graph %s (directed %v): pull time %v", d.Graphs[s.Graph].Name, directed, s.Time[pull])
		}
	}
	dir := t.TempDir()
	if err := Write(dir, specs, 2, 3); err != nil {
		t.Fatal(err)
	}
	read, err := adaptive.LoadDataset(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Samples) != len(d.Samples) || !reflect.DeepEqual(read.Candidates, d.Candidates) {
		t.Fatalf("read %d samples, made %d", len(read.Samples), len(d.Samples))
	}
	for i := range d.Samples {
		if read.Samples[i].Features != d.Samples[i].Features {
			t.Fatalf("sample %d: features differ after the files", i)
		}
	}
	for _, g := range read.Graphs {
		if !g.Synthetic || g.Generator == "" {
			t.Errorf("sidecar %+v: not marked synthetic, or no generator", g)
		}
	}
}
