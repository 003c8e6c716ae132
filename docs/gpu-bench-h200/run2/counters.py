#!/usr/bin/env python3
"""Stop 48's counter tables from the raw files of calls a and b (run from this folder: python3 counters.py).

Each ncu log (--iters 1 --warmup 0) holds, per kernel and precision, the check product, gpu_spin, then the timed
product. A timed product is every launch after a gpu_spin whose name also appeared in the check before it; the
tables use the timed products only (cuSPARSE's csr_partition_kernel runs once, in the check's setup).
Per nonzero: warp instructions x 32 (smsp__inst_executed), active-thread instructions (smsp__thread_inst_executed),
DRAM bytes (dram__bytes_read + dram__bytes_write), L1->L2 sectors (lts__t_sectors_srcunit_tex). Minimum: the
tool's min_bytes (values, int32 columns, row offsets, x and y once). Plain: medians of 20 products, same call."""
import csv

def num(v):
    return float(v.replace(",", ""))

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

def label(g):
    n = " ".join(x["Kernel Name"] for x in g)
    prec = "fp64" if ("f64" in n or "double" in n) else "fp32"
    if "csrmv" in n: k = "cusparse-csr"
    elif "coomv" in n: k = "cusparse-coo"
    elif "spac_d16" in n: k = "spac-d16-own"
    elif "gather" in n: k = "csr-d16-hot"
    else: k = "csr-d16"
    return k, prec

def plain(files):
    t = {}
    for f in files:
        for r in csv.DictReader(open(f)):
            if r["device"] == "gpu":
                t.setdefault((r["kernel"], r["precision"]), []).append(float(r["time_us"]))
            t[("min", r["precision"])] = float(r["min_bytes"])
            t["nnz"] = int(r["nnz"])
    return t

inputs = [
    ("in-2004 (16,470,920 nonzeros)", ["a/in-ncu16k.ncu.csv", "a/in-ncu1k.ncu.csv"], ["a/in-plain16k.csv", "a/in-plain1k.csv"]),
    ("circuit5M (59,486,666 nonzeros)", ["a/c5-ncu16k.ncu.csv", "a/c5-ncu1k.ncu.csv"], ["a/c5-plain16k.csv", "a/c5-plain1k.csv"]),
    ("R-MAT 24 (gen:rmat:scale=24,ef=16, 263,431,244 nonzeros)", ["b/r24-ncu.ncu.csv"], ["b/r24-plain.csv"]),
]
order = {"spac-d16-own": 0, "csr-d16": 1, "csr-d16-hot": 1, "cusparse-csr": 2, "cusparse-coo": 3}
bs = {"spac-d16-own": " B=16384", "csr-d16": " B=1024", "csr-d16-hot": " B=1024"}
for title, ncus, plains in inputs:
    p = plain(plains)
    nnz = p["nnz"]
    rows = []
    for f in ncus:
        for g in timed(f):
            k, prec = label(g)
            s = lambda m: sum(num(x[m]) for x in g)
            main = max(g, key=lambda x: num(x["gpu__time_duration.sum"]))
            dram = s("dram__bytes_read.sum") + s("dram__bytes_write.sum")
            rows.append((prec, order[k], k, " + ".join(x["Kernel Name"].split("(")[0].split("<")[0].replace("void cusparse::", "") for x in g),
                         " / ".join(f"{v:.1f}" for v in p[(k, prec)]), s("gpu__time_duration.sum") / 1e3,
                         s("smsp__inst_executed.sum") * 32 / nnz, s("smsp__thread_inst_executed.sum") / nnz,
                         dram / nnz, s("dram__bytes_read.sum") / nnz, dram / p[("min", prec)], p[("min", prec)] / nnz,
                         s("lts__t_sectors_srcunit_tex.sum") / nnz, num(main["sm__warps_active.avg.pct_of_peak_sustained_active"]),
                         main["launch__registers_per_thread"]))
    print(f"\n**{title}**\n")
    print("| kernel | prec | plain us | us under ncu | thread instr / nnz (active threads) | DRAM B / nnz (read) | minimum B / nnz | DRAM / minimum | L2 sectors / nnz | occupancy | registers |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in sorted(rows):
        prec, _, k, launch, pl, t, wi, ti, d, dr, dm, mn, l2, occ, reg = r
        print(f"| {k}{bs.get(k, '')} | {prec} | {pl} | {t:.1f} | {wi:.1f} ({ti:.1f}) | {d:.2f} ({dr:.2f}) | {mn:.2f} | {dm:.2f} | {l2:.2f} | {occ:.0f}% | {reg} |")
    print()
    for r in sorted(rows):
        print(f"- {r[2]} {r[0]}: {r[3]}")
