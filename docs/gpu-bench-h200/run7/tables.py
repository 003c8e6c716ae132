"""Stop 51's tables (README, "Stop 51") from the raw files of calls b and c: python3 tables.py, in this folder."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchtables import counters, medians, timings  # noqa: E402

timings("Call b: the 272^3 mesh numbered at random (140,421,632 nonzeros, 20.1M rows), B=1024, medians of 20",
        "b/mesh-all.csv", ["cusparse-sell", "cusparse-csr", "cusparse-csr-alg2", "cusparse-coo", "spac-d16-ord",
                           "spac-d16-own", "spac-d16", "csr-d16-rcm"])
timings("Call c: R-MAT 24 (263,431,244 nonzeros), B=1024, medians of 20", "c/r24-all.csv",
        ["cusparse-csr", "cusparse-csr-alg2", "cusparse-coo", "spac-d16-hot", "spac-d16-ord", "spac-d16-own", "csr-d16-hot"])
run = [(p, k) for group in (["cusparse-csr", "cusparse-coo", "csr-d16-hot"], ["spac-d16-hot", "spac-d16-own", "spac-d16-ord"])
       for p in ("fp32", "fp64") for k in group]
counters("Call c: R-MAT 24 under Nsight Compute, one product (every launch of it: gathers, clearing, the kernel)",
         "c/r24-ncu.ncu.csv", 263_431_244, ["cusparse-csr", "cusparse-coo", "spac-d16-hot", "spac-d16-own", "spac-d16-ord",
                                            "csr-d16-hot"], run)

print("\nCall d: R-MAT 22 (65,243,570 nonzeros; fp64 x and y beyond the L2), its SPAC schedule at B=1024, medians of 20, us:"
      " c125 gathers every column, c126 only those with entries\n")
runs = {f: medians(f"d/r22-{f}.csv") for f in ("old1", "new1", "old2")}
print("| kernel | prec | c125 (1st run) | c126 | c125 (2nd run) | c126 / mean of c125 | x cuSPARSE's best: c125, c126 |")
print("|---|---|---:|---:|---:|---:|---|")
for p in ("fp32", "fp64"):
    best = {f: min(float(r["time_us"]) for (q, k), r in t.items() if q == p and k.startswith("cusparse")) for f, t in runs.items()}
    for k in ("spac-d16-hot", "spac-d16-ord", "csr-d16-hot"):
        us = {f: float(t[(p, k)]["time_us"]) for f, t in runs.items()}
        old = (us["old1"] + us["old2"]) / 2
        print(f"| {k} | {p} | {us['old1']:.1f} | {us['new1']:.1f} | {us['old2']:.1f} | {us['new1'] / old:.3f} | "
              f"{best['old1'] / us['old1']:.3f}, {best['new1'] / us['new1']:.3f} |")
