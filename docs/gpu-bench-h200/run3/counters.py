#!/usr/bin/env python3
"""The tables of stop 48's variants from the raw files of run3's calls a and b (run from this folder:
python3 counters.py).

Plain: the medians of 20 products of each run, in run order (call a's runs 1 and 2, call b's run 3); cuSPARSE's CSR
from main's runs. ncu (--iters 1 --warmup 0): per precision the check product, gpu_spin, then the timed product (the
launches after gpu_spin whose names the check had); the tables use the timed product's launches (spmv_zero_rows and
the kernel), as run2/counters.py does. Per nonzero: warp instructions x 32 (smsp__inst_executed), active-thread
instructions (smsp__thread_inst_executed) in brackets, DRAM bytes (read + write). Registers, the shared-memory
carveout (launch__shared_mem_config_size) and occupancy are the kernel's launch's. Spills
(smsp__sass_inst_executed_op_local_ld/st) are checked to be 0."""
import csv, glob, os

def num(v):
    return float(v.replace(",", "")) if v not in ("", "n/a") else float("nan")

def launches(f):
    rows = list(csv.reader(l for l in open(f) if l.startswith('"')))
    c = {h: i for i, h in enumerate(rows[0])}
    return [{k: r[c[k]] for k in c} for r in rows[2:]]

def timed(f):
    out, check, group, names = [], [], None, set()
    for L in launches(f):
        n = L["Kernel Name"]
        if n == "gpu_spin":
            names, group = {x["Kernel Name"] for x in check}, []
            continue
        if group is not None and n in names and n not in {x["Kernel Name"] for x in group}:
            group.append(L)
            continue
        if group:
            out.append(group)
            group, check = None, []
        check.append(L)
    if group:
        out.append(group)
    return out

def prec(g):
    return "fp64" if "f64" in " ".join(x["Kernel Name"] for x in g) else "fp32"

dirs = ["a/r3a", "b/r3b"]
builds = ["main", "lean256", "lean1k", "lean128"]
inputs = [("in", "in-2004", 16470920), ("c5", "circuit5M", 59486666)]
kernels = [("1k", "csr-d16", "csr-d16 B=1024"), ("16k", "spac-d16-own", "spac-d16-own B=16384")]

def plain(tag, kt, b, kname, p):
    runs = []
    for d in dirs:
        for f in sorted(glob.glob(f"{d}/{tag}-plain{kt}-{b}-*.csv")):
            for r in csv.DictReader(open(f)):
                if r["device"] == "gpu" and r["kernel"] == kname and r["precision"] == p:
                    runs.append(f"{float(r['time_us']):.1f}" + ("" if r["ok"] == "true" else " (failed)"))
    return runs

spills = 0
for tag, title, nnz in inputs:
    for p in ("fp32", "fp64"):
        print(f"\n**{title}, {p}**\n")
        print("| kernel | variant | plain us (runs) | thread instr / nnz (active threads) | DRAM B / nnz | registers | carveout KiB | occupancy |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for kt, kname, klabel in kernels:
            for b in builds:
                ncu = [f for d in dirs for f in glob.glob(f"{d}/{tag}-ncu{kt}-{b}.ncu.csv")]
                runs = plain(tag, kt, b, kname, p)
                if not ncu and not runs:
                    continue
                cells = ["-"] * 5
                for g in (timed(ncu[0]) if ncu else []):
                    if prec(g) != p:
                        continue
                    s = lambda m: sum(num(x[m]) for x in g)
                    k = max(g, key=lambda x: num(x["gpu__time_duration.sum"]))
                    spills += s("smsp__sass_inst_executed_op_local_ld.sum") + s("smsp__sass_inst_executed_op_local_st.sum")
                    cells = [f"{s('smsp__inst_executed.sum') * 32 / nnz:.1f} ({s('smsp__thread_inst_executed.sum') / nnz:.1f})",
                             f"{(s('dram__bytes_read.sum') + s('dram__bytes_write.sum')) / nnz:.2f}",
                             k["launch__registers_per_thread"], f"{num(k['launch__shared_mem_config_size']) / 1024:.0f}",
                             f"{num(k['sm__warps_active.avg.pct_of_peak_sustained_active']):.0f}%"]
                print(f"| {klabel} | {b} | {' / '.join(runs) or '-'} | " + " | ".join(cells) + " |")
        cs = [f"{float(r['time_us']):.1f}" for d in dirs for f in sorted(glob.glob(f"{d}/{tag}-plain*-main-*.csv"))
              for r in csv.DictReader(open(f)) if r["kernel"] == "cusparse-csr" and r["precision"] == p]
        print(f"| cusparse-csr | - | {' / '.join(cs)} | - | - | - | - | - |")
print(f"\nspill instructions in all profiled launches: {spills:.0f}")
