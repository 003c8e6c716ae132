"""Tables of the H200 runs' raw files (spmv CSVs, Nsight Compute raw CSVs), shared by the runs' tables.py."""
import csv


def medians(path):
    """(precision, kernel) -> the row of one spmv CSV, GPU rows only."""
    return {(r["precision"], r["kernel"]): r for r in csv.DictReader(open(path)) if r["device"] == "gpu"}


def timings(title, path, kernels):
    t = medians(path)
    print(f"\n{title}\n")
    print("| kernel | fp32 us | x | fp64 us | x | of copy (fp32 / fp64) | B/nnz of the format (fp32 / fp64) |")
    print("|---|---:|---:|---:|---:|---|---|")
    best = {p: min(float(r["time_us"]) for (q, k), r in t.items() if q == p and k.startswith("cusparse")) for p in ("fp32", "fp64")}
    for k in kernels:
        a, b = t[("fp32", k)], t[("fp64", k)]
        print(f"| {k} | {float(a['time_us']):.1f} | {best['fp32'] / float(a['time_us']):.2f} | {float(b['time_us']):.1f} | "
              f"{best['fp64'] / float(b['time_us']):.2f} | {100 * float(a['copy_fraction']):.0f}% / {100 * float(b['copy_fraction']):.0f}% | "
              f"{float(a['format_bytes_per_nnz']):.2f} / {float(b['format_bytes_per_nnz']):.2f} |")


def products(path, kernels):
    """The timed product of each kernel under ncu, per precision: the launches after the spin that follows its check
    product (as many as the check had, less cuSPARSE's CSR partitioning, which runs once), summed: us, DRAM bytes,
    thread and warp instructions, L2 sectors."""
    lines = open(path).read().splitlines()
    head = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    launches = []
    for r in csv.DictReader(lines[head:]):
        if r["ID"].isdigit():
            v = lambda k: float(r[k].replace(",", ""))
            launches.append((r["Kernel Name"], v("gpu__time_duration.sum") / 1e3, v("dram__bytes_read.sum") + v("dram__bytes_write.sum"),
                             v("smsp__thread_inst_executed.sum"), v("smsp__inst_executed.sum"), v("lts__t_sectors_srcunit_tex.sum")))
    out, pending, i = [], [], 0
    while i < len(launches):
        if launches[i][0] == "gpu_spin" and not pending:  # the spin before the first product
            i += 1
        elif launches[i][0] == "gpu_spin":
            n = len([l for l in pending if "partition" not in l[0]])
            out.append([sum(l[j] for l in launches[i + 1:i + 1 + n]) for j in range(1, 6)])
            i, pending = i + 1 + n, []
        else:
            pending.append(launches[i])
            i += 1
    assert len(out) == len(kernels), (len(out), kernels)
    return dict(zip(kernels, out))


def counters(title, path, nnz, kernels, run_order):
    """run_order: (precision, kernel) as the products ran: the kernels without a schedule in each precision, then those
    with one."""
    c = products(path, run_order)
    print(f"\n{title}\n")
    print("| kernel | us under ncu (fp32 / fp64) | thread instructions / nnz | warp instructions / nnz | DRAM B/nnz | L2 sectors / nnz |")
    print("|---|---|---|---|---|---|")
    for k in kernels:
        a, b = c[("fp32", k)], c[("fp64", k)]
        print(f"| {k} | {a[0]:.1f} / {b[0]:.1f} | {a[2] / nnz:.1f} / {b[2] / nnz:.1f} | {a[3] / nnz:.2f} / {b[3] / nnz:.2f} | "
              f"{a[1] / nnz:.2f} / {b[1] / nnz:.2f} | {a[4] / nnz:.3f} / {b[4] / nnz:.3f} |")
