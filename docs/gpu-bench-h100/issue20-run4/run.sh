#!/usr/bin/env bash
# Issue 20, round 4, on the GPU machine: spac-seg8's memory-level
# parallelism. Three variants of spac-seg8 (same format, same code):
#   spac-seg8-lb    __launch_bounds__(128, 12 fp64 / 16 fp32): registers
#                   capped at 40 / 32 (from 56 / 40) for 12 / 16 resident
#                   blocks per SM (from 9 / 12)
#   spac-seg8-pf    each thread prefetches (prefetch.global.L2) its slots of
#                   the block 8 x SMs ahead (1056 on an H100)
#   spac-seg8-lbpf  both
# against spac-seg8, spac-seg and cuSPARSE's paths on cant, cop20k_A
# (B=512,1024), in-2004 (B=512,1024) and circuit7M (B=1024), both
# precisions; Nsight Compute counters (DRAM %, bytes, achieved and
# theoretical occupancy, registers, local-memory spills) of the variants
# against csrmv on in-2004 fp64 (then circuit7M fp64 and in-2004 fp32 if
# time is left).
# Run from the repository root with $OUT set; everything lands in ONE file,
# $OUT/spmv4.tgz (spmv4/: log.txt, gpu.txt, ptxas.txt, tests.txt,
# json/*.jsonl with .err, part/, ncu/*.csv and summary.txt, rows.jsonl,
# report/, run.sh). Every step is under `timeout` and the time left of a
# BUDGET-second budget (default 150; 10 s kept for the report and packing).
set -u
T0=$SECONDS
BUDGET=${BUDGET:-150}
tar -xzf bin/c20b/spmv.tgz -C bin
S=bin/gpu-c20b/spac
D=$OUT/spmv4
mkdir -p "$D/json" "$D/part" "$D/ncu"
cp "$0" "$D/run.sh" 2>/dev/null
export SPAC_CACHE_DIR=/tmp/spmv-cache # shared with rounds 1-2: a machine still warm from them has the schedules
export SPAC_CACHE_MAX_SIZE=40GiB
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p "$SPAC_CACHE_DIR"
rm -f /tmp/spmv4-part-* # markers of an earlier run of this script
left() { echo $((BUDGET - 10 - (SECONDS - T0))); }
log() { echo "+$((SECONDS - T0))s $*" >>"$D/log.txt"; }
cap() { local l; l=$(left); [ "$l" -lt 1 ] && l=1; [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; } # never 0: timeout 0 is none

{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader; nproc; free -g | head -2; } >"$D/gpu.txt" 2>&1

# The PTX again with this machine's nvcc (13.0), as rounds 1 and 2 timed
# it; ptxas's registers and spills of spac-seg8 and its variants for sm_90.
NVCC=/usr/local/cuda/bin/nvcc
if [ -x $NVCC ]; then
  mkdir -p /tmp/ptx13-r4
  if timeout 30 $NVCC -ptx -arch=compute_80 -O3 -std=c++17 -o /tmp/ptx13-r4/spmv.ptx apps/spmv/kernels/spmv.cu 2>"$D/ptxas.txt"; then
    export SPAC_PTX_DIR=/tmp/ptx13-r4
    timeout 30 /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/ptx13-r4/spmv.ptx -o /dev/null 2>&1 | grep -A3 -E "entry function 'spmv_spac_(seg8[a-z_]*|seg)_f" >>"$D/ptxas.txt"
  fi
fi
log "ptx: ${SPAC_PTX_DIR:-embedded}"

# 1. Partitions in the background, one process per input (a run without
#    --gpu builds the schedules into the cache; the GPU runs find them).
CIRC="gen:circuit:n=7000000,deg=5"
part() { # TAG INPUT BLOCKS
  local tag=$1 in=$2 b=$3 t0=$SECONDS
  timeout $((BUDGET - 20)) $S spmv "$in" -b "$b" --precision fp64 --cpu-iters 1 --kernels spac-seg8 --quiet --format csv >/dev/null 2>"$D/part/$tag.log" &
  echo $! >"/tmp/spmv4-part-$tag.pid"
  wait $!
  echo "rc=$? $((SECONDS - t0)) s" >>"$D/part/$tag.log"
  touch "/tmp/spmv4-part-$tag.done"
}
part in-2004-1024 gen:in-2004 1024 >/dev/null 2>&1 &
part in-2004-512 gen:in-2004 512 >/dev/null 2>&1 &
part cant gen:cant 512,1024 >/dev/null 2>&1 &
part cop20k_A gen:cop20k_A 512,1024 >/dev/null 2>&1 &
part circuit7M "$CIRC" 1024 >/dev/null 2>&1 &
log "partitions started"

# 2. The GPU tests: every kernel (the three variants among them) against
#    the CPU reference; TestSeg8PrefetchNear runs -pf and -lbpf 1 and 2
#    blocks ahead, so that the small cases prefetch.
timeout "$(cap 45)" bin/gpu-c20b/spmv.test -test.v >"$D/tests.txt" 2>&1
log "tests rc=$? ($(grep -c '^--- FAIL' "$D/tests.txt") failed, $(grep -c '^--- PASS' "$D/tests.txt") passed)"

# 3. Timing runs (JSON Lines, both precisions) and counters, in priority
#    order, each as soon as the partitions it needs are in the cache.
V=spac-seg8,spac-seg8-lb,spac-seg8-pf,spac-seg8-lbpf
K=$V,spac-seg,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
ready() { local t; for t in ${1//,/ }; do [ -e "/tmp/spmv4-part-$t.done" ] || return 1; done; }
run() { # TAG INPUT WANT_SECONDS BLOCKS KERNELS
  local tag=$1 in=$2 want=$3 b=$4 k=$5 t0=$SECONDS
  [ "$(left)" -gt 12 ] || { log "skip $tag: out of time"; return; }
  timeout "$(cap "$want")" $S spmv "$in" --gpu -b "$b" --precision fp32,fp64 --kernels "$k" --iters 15 --warmup 3 \
    --cpu-iters 1 --budget 4 --format json --quiet >"$D/json/$tag.jsonl" 2>"$D/json/$tag.err"
  log "run $tag ($in -b $b): rc=$? in $((SECONDS - t0)) s"
}
# Nsight Compute, one product per kernel at B=1024, caches flushed before
# each kernel, clocks as they are (as round 2). The extended metrics add
# the theoretical occupancy, its register limit and local-memory (spill)
# sectors; if ncu refuses one of them, the run is repeated with round 2's.
base=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
base+=,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
base+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct
base+=,launch__registers_per_thread
ext=$base,sm__maximum_warps_per_active_cycle_pct,launch__occupancy_limit_registers
ext+=,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
ncu_run() { # TAG INPUT WANT_SECONDS PRECISION KERNELS
  local tag=$1 in=$2 want=$3 prec=$4 k=$5 t0=$SECONDS m rc
  command -v ncu >/dev/null 2>&1 || { log "no ncu"; return; }
  for m in "$ext" "$base"; do
    [ "$(left)" -gt 20 ] || { log "skip ncu $tag: out of time"; return; }
    timeout "$(cap "$want")" ncu --clock-control none --csv --page raw --print-units base --metrics "$m" \
      -k 'regex:^(?!spmv_spin)' --log-file "$D/ncu/$tag.csv" \
      $S spmv "$in" --gpu -b 1024 --precision "$prec" --kernels "$k" --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json \
      >"$D/ncu/$tag.jsonl" 2>"$D/ncu/$tag.err"
    rc=$?
    log "ncu $tag ($in $prec $k, $([ "$m" = "$ext" ] && echo extended || echo base) metrics): rc=$rc in $((SECONDS - t0)) s"
    [ $rc -eq 0 ] && return
    [ $rc -eq 124 ] && return
  done
}
steps=(
  "in-2004-1024|ncu_run in-2004-fp64 gen:in-2004 30 fp64 $V,cusparse-csr"
  "cant|run cant gen:cant 15 512,1024 $K"
  "cop20k_A|run cop20k_A gen:cop20k_A 15 512,1024 $K"
  "in-2004-1024,in-2004-512|run in-2004 gen:in-2004 30 512,1024 $K"
  "circuit7M|run circuit7M $CIRC 35 1024 $K"
  "circuit7M|ncu_run circuit7M-fp64 $CIRC 30 fp64 $V,cusparse-csr"
  "in-2004-1024|ncu_run in-2004-fp32 gen:in-2004 25 fp32 $V,cusparse-csr"
)
while [ ${#steps[@]} -gt 0 ] && [ "$(left)" -gt 12 ]; do
  picked=-1
  for i in "${!steps[@]}"; do
    if ready "${steps[$i]%%|*}"; then picked=$i; break; fi
  done
  if [ $picked -lt 0 ]; then sleep 1; continue; fi
  step=${steps[$picked]#*|}
  unset "steps[$picked]"
  steps=("${steps[@]}")
  $step
done
for st in "${steps[@]}"; do log "not run: ${st#*|}"; done

# 4. Counters per nonzero from the ncu CSVs (thread instructions = warp
#    instructions x 32; local = spill traffic through the L1).
if command -v python3 >/dev/null 2>&1; then
  timeout 5 python3 - "$D/ncu" >"$D/ncu/summary.txt" 2>&1 <<'PY'
import csv, glob, json, os, sys
d = sys.argv[1]
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    nnz = 0
    try:
        for line in open(f[:-4] + ".jsonl"):
            nnz = max(nnz, json.loads(line).get("nnz") or 0)
    except (OSError, ValueError):
        pass
    rows = list(csv.reader(open(f)))
    hs = [i for i, r in enumerate(rows) if r and r[0] == "ID"]
    if not hs or nnz == 0:
        continue
    h = rows[hs[0]]
    print(f"{os.path.basename(f)}: nnz {nnz} (per-nonzero figures use it)")
    print(f"  {'kernel':30s} {'us':>7s} {'rd B/nnz':>8s} {'wr B/nnz':>8s} {'inst/nnz':>8s} {'issue%':>6s} {'dram%':>6s} {'occ%':>5s} {'theo%':>5s} {'L2hit%':>6s} {'regs':>4s} {'local B/nnz':>11s} {'blocks/SM by regs,smem':>22s}")
    for r in rows[hs[0] + 1:]:
        if len(r) < len(h) or not r[0]:
            continue
        v = dict(zip(h, r))
        k = v["Kernel Name"]
        if "spin" in k:
            continue
        g = lambda m: float((v.get(m) or "0").replace(",", "") or 0)
        if not k.startswith("spmv_"):  # cuSPARSE's templates: the name and the value type
            k = k.replace("void ", "").replace("<unnamed>::", "").split("<")[0] + (" f64" if "double" in k else " f32" if "float" in k else "")
        local = 32 * (g("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") + g("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")) / nnz
        print(f"  {k[:30]:30s} {g('gpu__time_duration.sum')/1e3:7.1f} {g('dram__bytes_read.sum')/nnz:8.2f} "
              f"{g('dram__bytes_write.sum')/nnz:8.2f} {32*g('smsp__inst_executed.sum')/nnz:8.1f} "
              f"{g('smsp__issue_active.avg.pct_of_peak_sustained_active'):6.1f} {g('dram__throughput.avg.pct_of_peak_sustained_elapsed'):6.1f} "
              f"{g('sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f} {g('sm__maximum_warps_per_active_cycle_pct'):5.1f} "
              f"{g('lts__t_sector_hit_rate.pct'):6.1f} {v.get('launch__registers_per_thread', '-'):>4s} {local:11.2f} {v.get('launch__occupancy_limit_registers', '-') + ',' + v.get('launch__occupancy_limit_shared_mem', '-'):>22s}")
PY
  log "ncu summary rc=$?"
fi

# 5. The report of every row measured (report.md, speedup.svg, results.csv).
cat "$D"/json/*.jsonl 2>/dev/null | grep '}$' >"$D/rows.jsonl" # complete lines only
timeout 8 $S spmv --merge "$D/rows.jsonl" --report "$D/report" --title "SpMV on an H100: spac-seg8's variants against cuSPARSE's best path (issue 20, round 4)" \
  >/dev/null 2>"$D/report.err"
log "report rc=$?"
for f in /tmp/spmv4-part-*.done; do [ -e "$f" ] && { t=$(basename "$f" .done); t=${t#spmv4-part-}; echo "$t: $(tail -1 "$D/part/$t.log")"; }; done >"$D/part/done.txt"
for f in /tmp/spmv4-part-*.pid; do [ -e "${f%.pid}.done" ] || kill "$(cat "$f")" 2>/dev/null; done # partitions still running
log "end"
cat "$D/log.txt"
grep -E "^(--- FAIL|FAIL|ok|PASS)" "$D/tests.txt" | head -20
cat "$D/ncu/summary.txt" 2>/dev/null
rm -f "$D/report/speedup.png"
cd "$OUT" && tar -czf spmv4.tgz spmv4 && rm -rf spmv4
