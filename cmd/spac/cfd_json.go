package main

import (
	"math"

	"github.com/spac-gpu/spac/apps/cfd"
)

// cfdJSON is 'spac cfd --format json': the schema of 'spac btree --format
// json' (apps/btree's package documentation) that scripts/rodinia-sweep.sh
// reads for the four Rodinia applications, with kernel "iteration" and
// time_ms the time of one iteration (the mean over the run's iterations).
// Runs of --iterations 0 (partitions only) have no time. JSON has no
// infinity: a difference that is one (a NaN in the state) is written as
// the largest float64.
func cfdJSON(m *cfd.Mesh, parts []cfdPart, rows []cfdRow, device string) rodiniaReport {
	rep := rodiniaReport{App: "cfd", Input: m.Name, Device: device, Sizes: map[string]int{"elements": m.N}}
	run := func(variant, method, dev, prec string, b int, p *cfdPart) rodiniaRun {
		r := rodiniaRun{Kernel: "iteration", Variant: variant, Method: method, Device: dev, Precision: prec, BlockSize: b}
		if p != nil {
			r.setPartition(p.met, p.buildTime, p.sched.BlockSize)
			r.Method, r.Parts, r.Copies, r.Blocks = method, p.sched.K, p.sched.Copies, int64(p.sched.K)
		}
		return r
	}
	if len(rows) == 0 {
		for i := range parts {
			p := &parts[i]
			rep.Runs = append(rep.Runs, run("spac", p.met.Method, "cpu", "", p.sched.BlockSize, p))
		}
	}
	for _, r := range rows {
		variant, method := r.schedule, ""
		if r.part != nil {
			variant, method = "spac", r.schedule
		}
		x := run(variant, method, r.device, r.precision.String(), r.blockSize, r.part)
		if r.part == nil && r.prep > 0 {
			x.PartitionS = r.prep.Seconds()
		}
		if r.iterations > 0 {
			x.TimeMS = float64(r.total) / float64(r.iterations) / 1e6
			rep.Sizes["iterations"] = r.iterations
		}
		x.Reps, x.SharedBytes = 1, r.shared
		if r.device == "gpu" && r.blockSize > 0 {
			x.Blocks = max(x.Blocks, int64((m.N+r.blockSize-1)/r.blockSize))
		}
		x.Checked, x.OK = r.checked, !r.checked || r.ok
		if r.checked {
			x.MaxRelDiff = math.Max(r.diff[0].MaxRel, math.Max(r.diff[1].MaxRel, r.diff[2].MaxRel))
			if math.IsInf(x.MaxRelDiff, 0) || math.IsNaN(x.MaxRelDiff) {
				x.MaxRelDiff = math.MaxFloat64
			}
		}
		rep.Runs = append(rep.Runs, x)
	}
	return rep
}
