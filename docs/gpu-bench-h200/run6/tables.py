"""Stop 50's tables (README, "Stop 50") from the raw files of calls a, b and c."""
import collections
import csv


def medians(path):
    """(order, precision, kernel) -> (median us, format bytes a nonzero) for the GPU rows of one spmv CSV."""
    out = collections.OrderedDict()
    for r in csv.DictReader(open(path)):
        if r["device"] == "gpu":
            order = r["input"].split("~")[-1]
            out[(order, r["precision"], r["kernel"])] = (float(r["time_us"]), float(r["format_bytes_per_nnz"]))
    return out


def ncu(path):
    """The product launches of an ncu raw CSV, in order: (kernel, us, DRAM bytes, DRAM read bytes, L2 sectors)."""
    lines = open(path).read().splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = []
    for r in csv.DictReader(lines[head:]):
        if not r["ID"].isdigit() or "spin" in r["Kernel Name"] or "partition" in r["Kernel Name"]:
            continue
        v = lambda k: float(r[k].replace(",", ""))
        rd, wr = v("dram__bytes_read.sum"), v("dram__bytes_write.sum")
        rows.append((r["Kernel Name"].split("<")[0].split("::")[-1], v("gpu__time_duration.sum") / 1e3, rd + wr, rd,
                     v("lts__t_sectors_srcunit_tex.sum")))
    return rows


def orders_table(title, csvfile, ncufile, nnz, kernels, ncu_kernels):
    t = medians(csvfile)
    orders = list(dict.fromkeys(o for o, _, _ in t))
    # Each order's launches under ncu: a check and a timed product per kernel, in --kernels order.
    launches = ncu(ncufile)
    per = len(launches) // len(orders)
    print(f"\n{title}\n")
    print("| order | fp32 best | x | fp64 best | x | fp64 DRAM B/nnz under ncu (" + ", ".join(ncu_kernels) + ") | L2 sectors / nnz |")
    print("|---|---:|---:|---:|---:|---|---|")
    base = {}
    for i, o in enumerate(orders):
        cells = []
        for p in ("fp32", "fp64"):
            k, (us, _) = min(((k, t[(o, p, k)]) for k in kernels), key=lambda kv: kv[1][0])
            base.setdefault(p, us)
            cells += [f"{us:.1f} ({k.removeprefix('cusparse-')})", f"{base[p] / us:.2f}"]
        mine = launches[i * per:(i + 1) * per]
        timed = [mine[j] for j in range(1, len(mine), 2)]  # the second launch of each kernel: the timed product
        dram = " / ".join(f"{l[2] / nnz:.2f}" for l in timed)
        sect = " / ".join(f"{l[4] / nnz:.3f}" for l in timed)
        print(f"| {o} | " + " | ".join(cells) + f" | {dram} | {sect} |")


orders_table("Call a: the 200^3 mesh numbered at random (55,760,000 nonzeros)", "a/mesh.csv", "a/ncu-mesh-fp64.csv",
             55_760_000, ["cusparse-csr", "cusparse-sell"], ["csr", "sell"])
orders_table("Call b: the circuit of 7M rows numbered at random (35,029,588 nonzeros)", "b/circuit7M.csv",
             "b/ncu-circuit7M-fp64.csv", 35_029_588, ["cusparse-csr", "cusparse-coo"], ["csr", "coo"])

print("\nCall c: spac-d16-ord and spac-d16-hot on the two orders, us (medians of 20)\n")
print("| input | prec | kernel | partsNear (c122) | ByParts (c123) | ByParts / partsNear | B/nnz before / after |")
print("|---|---|---|---:|---:|---:|---|")
for name in ("mesh", "circuit7M"):
    old, new = medians(f"c/{name}-c122.csv"), medians(f"c/{name}-c123.csv")
    for (o, p, k), (us, fb) in old.items():
        if k.startswith("spac-d16-o") or k == "spac-d16-hot":
            nus, nfb = new[(o, p, k)]
            print(f"| {name} | {p} | {k} | {us:.1f} | {nus:.1f} | {nus / us:.3f} | {fb:.2f} / {nfb:.2f} |")
    for (o, p, k), (us, fb) in old.items():
        if not k.startswith("spac"):
            print(f"| {name} | {p} | {k} (no schedule) | {us:.1f} | {new[(o, p, k)][0]:.1f} | | |")
