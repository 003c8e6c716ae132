package main

import (
	"encoding/json"
	"testing"
)

// cfd's rcm row: the original on the RCM-renumbered mesh, on the CPU the
// reference's values bit for bit; --format json carries every run.
func TestCFDRCMAndJSON(t *testing.T) {
	out, code, err := execute(t, "cfd", "mesh:n=900", "-n", "3", "-b", "64", "--quiet", "--format", "json")
	if code != 0 {
		t.Fatal(err)
	}
	var rep rodiniaReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.App != "cfd" || rep.Sizes["elements"] != 900 || rep.Sizes["iterations"] != 3 {
		t.Errorf("header %+v", rep)
	}
	seen := map[string]bool{}
	for _, r := range rep.Runs {
		seen[r.Variant] = true
		if r.Kernel != "iteration" || r.TimeMS <= 0 {
			t.Errorf("run %+v", r)
		}
		switch r.Variant {
		case "rcm":
			if !r.Checked || !r.OK || r.MaxRelDiff != 0 || r.PartitionS <= 0 {
				t.Errorf("rcm run %+v: want the reference's values and the ordering's time", r)
			}
		case "spac":
			if !r.Checked || !r.OK || r.Method != "spac" || r.Parts == 0 || r.PerBlock != 64 {
				t.Errorf("spac run %+v", r)
			}
		}
	}
	if !seen["original"] || !seen["rcm"] || !seen["spac"] {
		t.Errorf("variants %v", seen)
	}
}
