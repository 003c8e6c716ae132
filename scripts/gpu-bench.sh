#!/usr/bin/env bash
# The GPU SpMV suite. Runs ON the GPU machine with the binary built here
# (scripts/gpu-build.sh; that machine needs no Go):
#   - stand-ins for the SPAC paper's eight matrices at full size (gen:PRESET),
#   - every .gz matrix in $MATRICES (../shared/matrices is not on the GPU
#     machine: copy its files into an ignored folder, .kit/matrices, and carry it),
#   - fp32 and fp64, block sizes 256, 512, 1024, 4096 and 16384 (the kernels that
#     run at most 1024 skip the larger; spac-d16 runs those parts as blocks of
#     1024), the SPAC kernels with x in
#     shared memory (spac-smem) and through the read-only cache (spac-ldg),
#     four tasks per thread (-x4), spac-seg (precomputed rows, uint16 x) and
#     spac-seg8 (eight tasks per thread, row starts in the x addresses),
#     spac-d16 (csr-d16's format over the schedule's parts), spac-d16-ord
#     (csr-d16 over the matrix numbered in the schedule's order), spac-d16-hot
#     (spac-d16-ord with the columns grouped by degree, hottest first) and
#     spac-d16-own (its shared rows made whole in one part: no atomics), against csr-scalar, csr-vector, coo-atomic, csr-d16 (CSR's order, 16-bit
#     column offsets) with its orders of its own (csr-d16-hot: columns by
#     degree; csr-d16-rcm: reverse Cuthill-McKee) and every cuSPARSE path (CSR
#     default and ALG2, COO, sliced ELL, BSR).
# Writes into OUTDIR: report.md (the goals, a summary per input and precision,
# every row), speedup.svg and speedup.png (best SPAC kernel over cuSPARSE's
# best path of all), results.csv, log.txt, csv/*.jsonl (each GPU run's rows
# and result line, with the seconds each step took: setup_s and run_s per
# row, input_s, matrix_s, device_s, upload_s and wall_s per run), and where Nsight Compute
# works ncu.md: measured L1->L2
# sectors and DRAM bytes next to schedule.Traffic's predicted sectors and the
# minimum-traffic bytes.
#
# Schedules are partitioned JOBS at a time in the background into the
# schedule cache; the GPU runs go one at a time as their schedules arrive
# (GPU timings are CUDA events on the GPU alone; the partitioners use CPU
# cores only).
#
# The inputs beyond the L2 (issue 20), without the schedule kernels, whose
# partitions of 130M-260M nonzeros take longer than a call (R-MAT's run on
# one core: NE's expansion):
#   K=csr-d16,csr-d16-hot,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
#   KERNELS=$K BLOCKS=1024 scripts/gpu-bench.sh OUT gen:rmat:scale=23,ef=16 gen:rmat:scale=24,ef=16
#   KERNELS=$K BLOCKS=1024 SPMV_ARGS='--renumber random' scripts/gpu-bench.sh OUT2 gen:stencil3d:nx=272,ny=272,nz=272
# Two of them fit a call with the SPAC kernels at BLOCKS=16384 alone: the
# 20M-row circuit (partitioned in 106 s on 16 cores) and R-MAT 23 (376-381 s
# alone, 436 s with two more partitions beside it; B=4096 494 s):
#   KERNELS=spac-d16,spac-d16-own,cusparse-csr BLOCKS=16384 JOBS=1 scripts/gpu-bench.sh OUT gen:rmat:scale=23,ef=16
#
# Usage: scripts/gpu-bench.sh OUTDIR [INPUT...]
#   INPUTs default to gen:PRESET for the eight presets and $MATRICES/*.gz.
# Env: SPAC (bin/gpu/spac), MATRICES (.kit/matrices, else ../shared/matrices),
#      BLOCKS (256,512,1024,4096,16384), PRECISIONS (fp32,fp64), ITERS (50), JOBS (cores/2),
#      NCU (auto: when ncu runs and no INPUT is named, or NCU_INPUTS is set;
#      0 or 1), NCU_INPUTS (default below), NCU_BLOCK (1024),
#      NCU_GROUPS (the kernel lists profiled together, space-separated),
#      SPAC_CACHE_DIR (/tmp/spac-bench-cache), SPAC_CACHE_MAX_SIZE (48GiB: every
#      schedule of the suite, some 30 bytes a nonzero each, must stay cached
#      until its GPU run; the default 2GiB evicts the large stand-ins' and
#      their GPU runs partition again), SKIP_PARTITION=1 (cache already full),
#      KERNELS (the kernels to run, comma-separated; default every kernel: a
#      list without spac-* kernels partitions nothing, the way to run the
#      inputs beyond the L2, R-MAT at scale 24 say, whose partitions take
#      longer than a call),
#      SPMV_ARGS (more arguments for every spac spmv call, e.g. '--renumber
#      random' for a mesh given in an order without locality),
#      DEADLINE (seconds: no GPU run starts later, partitions still running are
#      stopped, and the report says what was not run; 0 = none), NCU_ONLY=1
#      (partitions and counters only: no timing runs; report.md holds ncu.md).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-bench.sh OUTDIR [INPUT...]}
shift
spac=${SPAC:-bin/gpu/spac}
blocks=${BLOCKS:-256,512,1024,4096,16384}
precisions=${PRECISIONS:-fp32,fp64}
iters=${ITERS:-50}
jobs=${JOBS:-$(( ($(nproc) + 1) / 2 ))}
export SPAC_CACHE_DIR=${SPAC_CACHE_DIR:-/tmp/spac-bench-cache}
export SPAC_CACHE_MAX_SIZE=${SPAC_CACHE_MAX_SIZE:-48GiB}
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p "$out/csv" "$SPAC_CACHE_DIR"
log=$out/log.txt
: >"$log"
[ -x "$spac" ] || { echo "gpu-bench: no binary at $spac (build it with scripts/gpu-build.sh and carry bin/gpu)" >&2; exit 1; }
"$spac" spmv --help >/dev/null 2>&1 || { echo "gpu-bench: $spac has no spmv command (main.go must add spmvCommand())" >&2; exit 1; }

if [ $# -gt 0 ]; then
  inputs=("$@")
else
  # Largest first: their partitions take longest.
  inputs=(gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 gen:scircuit)
  mdir=${MATRICES:-.kit/matrices}
  [ -d "$mdir" ] || mdir=../shared/matrices
  if [ -d "$mdir" ]; then
    for f in "$mdir"/*.gz; do [ -e "$f" ] && inputs+=("$f"); done
  else
    echo "gpu-bench: no matrix folder ($mdir): presets only" | tee -a "$log" >&2
  fi
fi
name() { local n=${1#gen:}; n=$(basename "$n" .gz); echo "${n//[^A-Za-z0-9._-]/_}"; }
stamp() { date -u +%H:%M:%S; }

{
  echo "gpu-bench: $(stamp) on $(hostname), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
  echo "inputs: ${inputs[*]}"
  echo "block sizes $blocks, precisions $precisions, $iters timed repetitions; $jobs partitions at a time"
} | tee -a "$log" >&2

# 1. Partitions, JOBS at a time in the background, into the schedule cache
#    (a CPU-only spmv run builds and stores the schedule it needs; its table
#    is not kept). Each job leaves NAME-B.done when it ends.
partition() {
  local input=$1 b=$2 t0=$SECONDS n
  n=$(name "$input")
  # shellcheck disable=SC2086 # SPMV_ARGS is a list of words
  if "$spac" spmv "$input" -b "$b" --precision fp64 --cpu-iters 1 --quiet --format csv $SPMV_ARGS >/dev/null 2>"$out/csv/$n-$b.part.err"; then
    echo "partitioned $input B=$b in $((SECONDS - t0)) s"
  else
    echo "FAILED partitioning $input B=$b: $(tail -3 "$out/csv/$n-$b.part.err")"
  fi
  touch "$out/csv/$n-$b.done"
}
export -f partition name
export spac out SPMV_ARGS=${SPMV_ARGS:-}
IFS=, read -ra bs <<<"$blocks"
t_start=$SECONDS
deadline=${DEADLINE:-0}   # seconds from the start after which no GPU run starts (0: none)
# The kernels of each GPU run; those that depend on the block size run again
# for each block size whose schedule arrives later. Without a spac-* kernel
# nothing needs a schedule, and nothing is partitioned.
all=${KERNELS:-csr-scalar,csr-vector,coo-atomic,csr-d16,csr-d16-hot,csr-d16-rcm,spac-smem,spac-ldg,spac-smem-x4,spac-ldg-x4,spac-seg,spac-seg-ldg,spac-seg8,spac-d16,spac-d16-own,spac-d16-ord,spac-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr}
perblock=$(tr , '\n' <<<"$all" | grep -v '^cusparse-' | paste -sd, -)
schedules=1
tr , '\n' <<<"$all" | grep -q '^spac-' || schedules=0
if [ "${SKIP_PARTITION:-0}" != 1 ] && [ $schedules = 1 ]; then
  # The slowest first: the largest block count.
  for input in "${inputs[@]}"; do
    for b in "${bs[@]}"; do echo "$input $b"; done
  done | sort -t' ' -k2,2n -s >"$out/csv/jobs.txt"
  (xargs -P "$jobs" -n 2 bash -c 'partition "$1" "$2"' _ <"$out/csv/jobs.txt" 2>&1 | tee -a "$log" >&2) &
  part_pid=$!
else
  for input in "${inputs[@]}"; do for b in "${bs[@]}"; do touch "$out/csv/$(name "$input")-$b.done"; done; done
fi

# 2. The GPU runs (skipped with NCU_ONLY=1, which goes on to the counters).
status=0
if [ "${NCU_ONLY:-0}" = 1 ]; then
  : >"$out/report.md"
else
#    One at a time, as the partitions come in (below).
csvs=()
gpu_run() { # input blocks methods tag
  local input=$1 b=$2 methods=$3 tag=$4 n t0=$SECONDS rc left limit
  n=$(name "$input")
  limit=900
  if [ "$deadline" -gt 0 ]; then
    left=$((deadline - (SECONDS - t_start)))
    if [ "$left" -le 0 ]; then
      echo "gpu-bench: $(stamp) $input B=$b: not run: past the deadline (${deadline} s)" | tee -a "$log" >&2
      return
    fi
    limit=$((left + ${GRACE:-90}))
  fi
  # shellcheck disable=SC2086 # SPMV_ARGS is a list of words
  timeout "$limit" "$spac" spmv "$input" --gpu -b "$b" --precision "$precisions" --kernels "$methods" --iters "$iters" \
    --cpu-iters 1 --format json $SPMV_ARGS >"$out/csv/$n$tag.jsonl" 2>"$out/csv/$n$tag.err"
  rc=$?
  [ $rc -ne 0 ] && status=1
  echo "gpu-bench: $(stamp) $input B=$b: exit $rc in $((SECONDS - t0)) s; $(grep -c '"device":"gpu"' "$out/csv/$n$tag.jsonl") GPU rows" | tee -a "$log" >&2
  [ $rc -ne 0 ] && tail -3 "$out/csv/$n$tag.err" | tee -a "$log" >&2
  [ -s "$out/csv/$n$tag.jsonl" ] && csvs+=(--merge "$out/csv/$n$tag.jsonl")
}
# Whatever is ready runs first, the smallest input first among those (the
# defaults list the large inputs first), so the GPU works while the large
# partitions run, whatever order the inputs are named in. An input whose
# schedules are all there runs every block size in one go; otherwise each
# block size runs as its schedule arrives (cuSPARSE, which takes none, with
# the first).
order=()
for ((i = ${#inputs[@]} - 1; i >= 0; i--)); do order+=("${inputs[i]}"); done
declare -A pend first
for input in "${order[@]}"; do pend[$input]="${bs[*]}"; first[$input]=1; done
while :; do
  waiting=0 ran=0
  for input in "${order[@]}"; do
    [ -n "${pend[$input]}" ] || continue
    n=$(name "$input")
    read -ra p <<<"${pend[$input]}"
    ready=1
    for b in "${p[@]}"; do [ -e "$out/csv/$n-$b.done" ] || ready=0; done
    if [ $ready = 1 ] && [ "${first[$input]}" = 1 ]; then
      gpu_run "$input" "$blocks" "$all" ""
      pend[$input]="" ran=1
      continue
    fi
    rest=()
    for b in "${p[@]}"; do
      if [ -e "$out/csv/$n-$b.done" ]; then
        if [ "${first[$input]}" = 1 ]; then gpu_run "$input" "$b" "$all" "-$b"; first[$input]=0; else gpu_run "$input" "$b" "$perblock" "-$b"; fi
        ran=1
      else
        rest+=("$b")
      fi
    done
    pend[$input]="${rest[*]}"
    [ ${#rest[@]} -gt 0 ] && waiting=1
  done
  [ $waiting = 1 ] || break
  if [ "$deadline" -gt 0 ] && [ $((SECONDS - t_start)) -ge "$deadline" ]; then
    for input in "${order[@]}"; do
      [ -n "${pend[$input]}" ] && echo "gpu-bench: $(stamp) $input B=${pend[$input]}: not run: the partitions did not finish before the deadline (${deadline} s)" | tee -a "$log" >&2
    done
    break
  fi
  [ $ran = 1 ] || sleep 2
done
# Without a deadline every partition has ended here; with one, those still
# running end with the call.
[ -n "${part_pid:-}" ] && [ "$deadline" = 0 ] && wait "$part_pid"
[ ${#csvs[@]} -gt 0 ] || { echo "gpu-bench: no results" >&2; exit 1; }
"$spac" spmv "${csvs[@]}" --report "$out" --title "SpMV on the GPU: SPAC schedules against cuSPARSE" 2>>"$log"

{
  echo
  echo "## How these numbers were made"
  echo
  echo '```sh'
  echo "# on the GPU machine ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)), $(date -u +%Y-%m-%d)"
  # Every setting that changes what runs, so that the lines reproduce it.
  recipe="BLOCKS=$blocks PRECISIONS=$precisions ITERS=$iters"
  [ -n "${KERNELS:-}" ] && recipe+=" KERNELS=$KERNELS"
  [ -n "$SPMV_ARGS" ] && recipe+=" SPMV_ARGS='$SPMV_ARGS'"
  echo "$recipe scripts/gpu-bench.sh $out ${*:-}"
  echo "# per input:"
  echo "$spac spmv INPUT --gpu -b $blocks --precision $precisions --kernels $all --iters $iters --cpu-iters 1 --format json${SPMV_ARGS:+ $SPMV_ARGS}"
  echo '```'
  echo
  if [ $schedules = 1 ]; then
    echo "Schedules: SPAC (METIS through split-and-connect, default options, seed 1), one per block size, built with the"
    echo "48 KiB shared-memory budget and auto overflow policy. Times do not include partitioning (see log.txt)."
  else
    echo "No kernel of this run takes a schedule: nothing was partitioned."
  fi
  if grep -qE "not run|FAILED" "$log"; then
    echo
    echo "Not run in this call:"
    echo
    grep -E "not run|FAILED" "$log" | sed 's/^gpu-bench: [0-9:]* /- /; s/^FAILED/- FAILED/'
  fi
  if grep -qE "^partitioned" "$log"; then
    echo
    echo "Partition times (CPU, on the GPU machine, JOBS=$jobs at a time):"
    echo
    grep -E "^partitioned" "$log" | sed 's/^/- /'
  fi

} >>"$out/report.md"

fi

# 3. Counters, where Nsight Compute works.
# Named INPUTs (a run of a few large inputs, say) skip the default inputs'
# counters unless asked for: they would profile other matrices.
ncu_ok=0
ncu_mode=${NCU:-auto}
if [ "$ncu_mode" = auto ] && [ $# -gt 0 ] && [ -z "${NCU_INPUTS:-}" ]; then
  ncu_mode=0
fi
if [ "$ncu_mode" != 0 ] && command -v ncu >/dev/null 2>&1; then
  ncu_ok=1
fi
if [ $ncu_ok = 1 ]; then
  ncu_inputs=(${NCU_INPUTS:-gen:scircuit gen:mc2depi gen:cant gen:mac_econ_fwd500 gen:cop20k_A})
  nb=${NCU_BLOCK:-1024}
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
  metrics+=,lts__t_sectors_srcunit_tex.sum
  # What bounds a kernel: instructions, issue slots, SM and DRAM throughput.
  metrics+=,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
  metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,smsp__cycles_active.avg.pct_of_peak_sustained_elapsed
  mkdir -p "$out/ncu"
  groups=(${NCU_GROUPS:-csr-vector,coo-atomic,csr-d16,csr-d16-hot,csr-d16-rcm,spac-smem,spac-ldg,spac-smem-x4,spac-ldg-x4,spac-seg,spac-seg-ldg,spac-seg8,spac-d16 cusparse-csr cusparse-csr-alg2 cusparse-coo cusparse-sell})
  for input in "${ncu_inputs[@]}"; do
    n=$(name "$input")
    # Its schedule may still be in the making (NCU_ONLY: counters as soon as
    # an input's partition is there).
    while [ -e "$out/csv/jobs.txt" ] && grep -q "^$input $nb\$" "$out/csv/jobs.txt" && [ ! -e "$out/csv/$n-$nb.done" ]; do sleep 2; done
    for methods in "${groups[@]}"; do
      tag=${methods%%,*}
      t0=$SECONDS
      timeout 240 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
        --section WarpStateStats --section Occupancy -k 'regex:^(?!spmv_spin)' \
        --log-file "$out/ncu/$n.$tag.ncu.csv" \
        "$spac" spmv "$input" --gpu -b "$nb" --precision fp64 --kernels "$methods" --iters 1 --warmup 0 --cpu-iters 1 \
        --quiet --format csv >"$out/ncu/$n.$tag.csv" 2>"$out/ncu/$n.$tag.err"
      echo "gpu-bench: $(stamp) ncu $input $methods: exit $? in $((SECONDS - t0)) s" | tee -a "$log" >&2
    done
  done
  python3 - "$out" "$nb" "${ncu_inputs[@]}" >"$out/ncu.md" 2>>"$log" <<'PY' || echo "gpu-bench: the ncu summary failed (see log.txt)" >&2
import csv, glob, os, re, sys
out, nb, inputs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def name(i):
    n = i[4:] if i.startswith("gen:") else i
    n = os.path.basename(n)
    n = n[:-3] if n.endswith(".gz") else n
    return re.sub(r"[^A-Za-z0-9._-]", "_", n)
def num(v):
    try: return float(v.replace(",", ""))
    except ValueError: return None
def ncu_last(f):
    # An ncu --csv log's columns and the last launch of each kernel (None: no launches).
    lines = [l for l in open(f) if l.startswith('"')]
    if len(lines) < 3: return None
    rows = list(csv.reader(lines))
    hdr, data = rows[0], rows[2:]
    col = {h: i for i, h in enumerate(hdr)}
    return col, {r[col["Kernel Name"]]: r for r in data}
ours = {"spmv_csr_scalar_f64": "csr-scalar", "spmv_csr_vector_f64": "csr-vector", "spmv_coo_atomic_f64": "coo-atomic",
        "spmv_spac_smem_f64": "spac-smem", "spmv_spac_ldg_f64": "spac-ldg", "spmv_zero_rows_f64": "zero-rows",
        "spmv_spac_smem_x4_f64": "spac-smem-x4", "spmv_spac_ldg_x4_f64": "spac-ldg-x4", "spmv_spac_seg_f64": "spac-seg", "spmv_spac_seg_ldg_f64": "spac-seg-ldg", "spmv_spac_seg8_f64": "spac-seg8",
        "spmv_csr_d16_f64": "csr-d16", "spmv_csr_d16_wide_f64": "csr-d16 (wide)",
        "spmv_spac_d16_f64": "spac-d16", "spmv_spac_d16_wide_f64": "spac-d16 (wide)", "spmv_gather_f64": "gather"}
print("## Measured traffic (Nsight Compute) against the model\n")
print(f"fp64, block size {nb}, one product per kernel (the last launch of each kernel: the first is the check). "
      "L1 sectors: l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st,red,atom}, the 32-byte sectors the load/store units request, "
      "which schedule.Traffic predicts (coo-atomic: its default kernel; spac-*: the optimized kernel; zero-rows not modelled). "
      "L2 sectors: lts__t_sectors_srcunit_tex (L1 misses reaching L2). DRAM: dram__bytes_read + write. "
      "Minimum: the minimum-traffic bytes of the product. Times under the profiler (clocks not locked).\n")
nnz = {}
print("| input | kernel (launch) | time us | L1 sectors | predicted | meas/pred | L2 sectors | DRAM MB | minimum MB | DRAM/min |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for inp in inputs:
    n = name(inp)
    pred, minb = {}, None
    for f in glob.glob(f"{out}/ncu/{n}.*.csv"):
        if f.endswith(".ncu.csv"): continue
        for r in csv.DictReader(open(f)):
            if r.get("precision") == "fp64" and r.get("device") == "gpu":
                minb = int(r["min_bytes"])
                nnz[inp] = int(r["nnz"])
                if int(r["predicted_bytes"] or 0) > 0 and int(r["block_size"]) == nb:
                    pred[r["kernel"]] = int(r["predicted_bytes"]) // 32
    for f in sorted(glob.glob(f"{out}/ncu/{n}.*.ncu.csv")):
        got = ncu_last(f)
        if got is None: continue
        col, last = got
        for k, r in last.items():
            g = lambda m: num(r[col[m]]) if m in col else None
            t = g("gpu__time_duration.sum")
            l1 = sum(g(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{o}.sum") or 0 for o in ("ld", "st", "red", "atom"))
            l2 = g("lts__t_sectors_srcunit_tex.sum")
            dram = (g("dram__bytes_read.sum") or 0) + (g("dram__bytes_write.sum") or 0)
            label = ours.get(k, k[:40])
            p = pred.get(label)
            us = t / 1000 if t is not None else 0  # base units: ns
            print(f"| {inp} | {label} | {us:.1f} | {l1:.0f} | {p if p else '-'} | {l1/p:.2f} | {l2:.0f} | {dram/1e6:.2f} | {minb/1e6 if minb else 0:.2f} | {dram/minb if minb else 0:.2f} |"
                  if p else
                  f"| {inp} | {label} | {us:.1f} | {l1:.0f} | - | - | {l2:.0f} | {dram/1e6:.2f} | {minb/1e6 if minb else 0:.2f} | {dram/minb if minb else 0:.2f} |")
def launches():
    # (input, kernel, columns, row) of the last launch of every kernel profiled.
    for inp in inputs:
        for f in sorted(glob.glob(f"{out}/ncu/{name(inp)}.*.ncu.csv")):
            got = ncu_last(f)
            if got is None: continue
            col, last = got
            for k, r in last.items():
                yield inp, k, col, r
stall_rows = []
pre, suf = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
for inp, k, col, r in launches():
    stalls = {h[len(pre):-len(suf)]: num(r[i]) or 0 for h, i in col.items() if h.startswith(pre) and h.endswith(suf)}
    if not stalls: continue
    total = sum(stalls.values())
    top = sorted(stalls.items(), key=lambda kv: -kv[1])[:4]
    occ = col.get("sm__warps_active.avg.pct_of_peak_sustained_active")
    occ = num(r[occ]) if occ is not None else None
    occ_s = f"{occ:.0f}%" if occ is not None else "-"
    reasons = ", ".join(f"{s} {v:.1f}" for s, v in top)
    stall_rows.append(f"| {inp} | {ours.get(k, k[:40])} | {total:.1f} | {reasons} | {occ_s} |")
bound_rows = []
for inp, k, col, r in launches():
    g = lambda m: num(r[col[m]]) if m in col else None
    inst = g("smsp__inst_executed.sum")
    if inst is None: continue
    per = f"{inst * 32 / nnz[inp]:.1f}" if nnz.get(inp) else "-"
    pct = lambda m: f"{g(m):.0f}%" if g(m) is not None else "-"
    bound_rows.append(f"| {inp} | {ours.get(k, k[:40])} | {inst / 1e6:.2f} | {per} | {pct('smsp__issue_active.avg.pct_of_peak_sustained_active')} "
                      f"| {pct('smsp__cycles_active.avg.pct_of_peak_sustained_elapsed')} | {pct('sm__throughput.avg.pct_of_peak_sustained_elapsed')} "
                      f"| {pct('dram__throughput.avg.pct_of_peak_sustained_elapsed')} |")
if bound_rows:
    print("\n### What bounds each kernel\n")
    print("Warp instructions executed (smsp__inst_executed) and thread instructions per nonzero (x32 / nnz); issue slots busy "
          "while the SM sub-partition has work (smsp__issue_active, % of peak); time the sub-partitions have work at all "
          "(smsp__cycles_active, % of elapsed: launch ramp, tails and imbalance lower it); SM throughput (sm__throughput, "
          "the busiest SM unit, % of peak) and DRAM throughput (dram__throughput, % of peak). A kernel near the DRAM peak is "
          "bound by memory; one far below both peaks with few issue slots busy waits on latency.\n")
    print("| input | kernel | warp instructions (M) | instructions per nonzero | issue slots busy | sub-partitions active | SM throughput | DRAM throughput |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in bound_rows: print(r)
if stall_rows:
    print("\n### Where the warps wait (Nsight Compute WarpStateStats)\n")
    print("Cycles a warp spends stalled per issued instruction (smsp__average_warps_issue_stalled_*_per_issue_active), "
          "in all and the four largest reasons: long_scoreboard = waiting for a global/local memory load (L1TEX), "
          "barrier = __syncthreads, lg_throttle = the load/store queue is full, membar = a memory fence, "
          "short_scoreboard = shared memory or a special function; and the achieved occupancy (active warps / the SM's maximum).\n")
    print("| input | kernel | stall cycles per issue | largest reasons | occupancy |")
    print("|---|---|---:|---|---:|")
    for r in stall_rows: print(r)
PY
  if [ -s "$out/ncu.md" ]; then
    { echo; cat "$out/ncu.md"; } >>"$out/report.md"
  fi
else
  echo "gpu-bench: no counters (Nsight Compute not found, NCU=0, or INPUTs named without NCU=1 or NCU_INPUTS)" | tee -a "$log" >&2
fi
echo "gpu-bench: $(stamp) wrote $out/report.md" | tee -a "$log" >&2
exit $status
