"""Stop 53's tables (README, "Stop 53") from the raw files of calls a, b and c: python3 tables.py, in this folder."""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchtables import counters, timings  # noqa: E402

ORDERS = ("as given", "spac", "rcm", "nd")


def orders(title, path, kernels):
    """Each order's rows of one spmv --reorder run (the input's name ends in ~ORDER), against cuSPARSE's best path on
    the order the input came in."""
    us = {}
    for r in csv.DictReader(open(path)):
        if r["device"] == "gpu":
            order = r["input"].rsplit("~", 1)[-1]
            us[(order if order in ORDERS else "as given", r["precision"], r["kernel"])] = float(r["time_us"])
    best = {p: min(t for (o, q, k), t in us.items() if o == "as given" and q == p and k.startswith("cusparse"))
            for p in ("fp32", "fp64")}
    print(f"\n{title}\n")
    print("| order | kernel | fp32 us | x | fp64 us | x |")
    print("|---|---|---:|---:|---:|---:|")
    for o in ORDERS:
        for k in kernels:
            if (o, "fp32", k) in us:
                a, b = us[(o, "fp32", k)], us[(o, "fp64", k)]
                print(f"| {o} | {k} | {a:.1f} | {best['fp32'] / a:.3f} | {b:.1f} | {best['fp64'] / b:.3f} |")


CUSPARSE = ["cusparse-csr", "cusparse-csr-alg2", "cusparse-coo"]
orders("Call a: the 272^3 mesh numbered at random (140,421,632 nonzeros), in SPAC's and RCM's orders, medians of 20",
       "a/mesh-orders.csv", CUSPARSE + ["cusparse-sell", "csr-d16-hot", "spac-d16-ord"])
timings("Call b: R-MAT 23 (131,158,214 nonzeros), B=1024, medians of 20", "b/r23-all.csv",
        CUSPARSE + ["spac-d16-hot", "spac-d16-ord", "spac-d16-own", "csr-d16-hot"])
orders("Call b: R-MAT 23 in SPAC's and RCM's orders, medians of 20", "b/r23-orders.csv", CUSPARSE + ["csr-d16-hot"])
timings("Call c: R-MAT 23 with its B=4096 schedule, medians of 20", "c/r23b4-all.csv",
        ["cusparse-csr", "spac-d16-hot", "spac-d16-ord", "spac-d16-own"])
run = [(p, k) for group in (["cusparse-csr", "cusparse-coo", "csr-d16-hot"], ["spac-d16-hot", "spac-d16-ord"])
       for p in ("fp32", "fp64") for k in group]
counters("Call c: R-MAT 23 under Nsight Compute, one product (every launch of it: gathers, clearing, the kernel)",
         "c/r23-ncu.ncu.csv", 131_158_214, ["cusparse-csr", "cusparse-coo", "spac-d16-hot", "spac-d16-ord", "csr-d16-hot"], run)
