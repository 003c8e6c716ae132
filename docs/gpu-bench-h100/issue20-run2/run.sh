#!/usr/bin/env bash
# Issue 20, round 2, on the GPU machine: spac-seg8 (eight slots per thread,
# row starts in the x addresses, no descriptor, streamed loads) against
# spac-seg and cuSPARSE's best path of all; the --reorder run that crashed
# in round 1; Nsight Compute counters of spac-seg8 next to spac-seg and
# cuSPARSE's csrmv/coomv.
# Run from the repository root with $OUT set; everything lands in ONE file,
# $OUT/spmv2.tgz (spmv2/: log.txt, gpu.txt, ptxas.txt, tests.txt,
# json/*.jsonl with their .err, part/*.log, ncu/*.csv and summary.txt,
# report/). Each step is guarded by `timeout` and by the time left of a
# BUDGET-second budget (default 195; 12 s kept for the report and packing).
set -u
T0=$SECONDS
BUDGET=${BUDGET:-195}
tar -xzf bin/c20/spmv.tgz -C bin
S=bin/gpu-spmv/spac
D=$OUT/spmv2
mkdir -p "$D/json" "$D/part" "$D/ncu"
export SPAC_CACHE_DIR=/tmp/spmv-cache # round 1's: on a machine still warm from it, its schedules are there
export SPAC_CACHE_MAX_SIZE=40GiB # the large inputs' schedules take 1-2 GB each: none may be evicted
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p "$SPAC_CACHE_DIR"
rm -f /tmp/spmv2-part-* # markers of an earlier run of this script
left() { echo $((BUDGET - 12 - (SECONDS - T0))); }
log() { echo "+$((SECONDS - T0))s $*" >>"$D/log.txt"; }
cap() { local l; l=$(left); [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; } # a step's timeout within what is left
name() { local n=${1#gen:}; echo "${n//[^A-Za-z0-9._-]/_}"; }

{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader; nproc; free -g | head -2; } >"$D/gpu.txt" 2>&1

# The PTX again with this machine's nvcc (13.0), as round 1's timings; the
# tests run the embedded copy (nvcc 11.8). ptxas's registers and spills of
# the SPAC kernels for sm_90.
NVCC=/usr/local/cuda/bin/nvcc
if [ -x $NVCC ]; then
  mkdir -p /tmp/ptx13
  if timeout 30 $NVCC -ptx -arch=compute_80 -O3 -std=c++17 -o /tmp/ptx13/spmv.ptx apps/spmv/kernels/spmv.cu 2>"$D/ptxas.txt"; then
    export SPAC_PTX_DIR=/tmp/ptx13
    /usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/ptx13/spmv.ptx -o /dev/null 2>&1 | grep -A2 -E "spac_(seg8|seg|smem_x4)_f" >>"$D/ptxas.txt"
  fi
fi
log "ptx: ${SPAC_PTX_DIR:-embedded}"

# 1. Partitions in the background, one process per input and block size
#    (a run without --gpu builds the schedule into the cache; the GPU runs
#    find it there). circuit5M is left out: its partition did not fit
#    round 1's 45 s.
CIRC="gen:circuit:n=7000000,deg=5"
MESH="gen:stencil3d:nx=170,ny=170,nz=170"
part() { # TAG INPUT BLOCKS [spmv flags...]
  local tag=$1 in=$2 b=$3 t0=$SECONDS
  shift 3
  timeout 190 $S spmv "$in" -b "$b" --precision fp64 --cpu-iters 1 --kernels spac-seg8 --quiet --format csv "$@" >/dev/null 2>"$D/part/$tag.log" &
  echo $! >"/tmp/spmv2-part-$tag.pid"
  wait $!
  echo "rc=$? $((SECONDS - t0)) s" >>"$D/part/$tag.log"
  touch "/tmp/spmv2-part-$tag.done"
}
part in-2004-1024 gen:in-2004 1024 >/dev/null 2>&1 &
part in-2004-512 gen:in-2004 512 >/dev/null 2>&1 &
for in in mac_econ_fwd500 mc2depi cant cop20k_A; do part "$in" "gen:$in" 512,1024 >/dev/null 2>&1 & done
part circuit7M "$CIRC" 1024 >/dev/null 2>&1 &
part mesh170-random "$MESH" 1024 --renumber random >/dev/null 2>&1 &
part Ga41As41H72 gen:Ga41As41H72 1024 >/dev/null 2>&1 &
log "partitions started"

# 2. The GPU tests: every kernel (spac-seg8 among them) against the CPU
#    reference, and RunSpMV with a schedule but no schedule kernel (the
#    round-1 crash).
timeout "$(cap 60)" bin/gpu-spmv/spmv.test -test.v >"$D/tests.txt" 2>&1
log "tests rc=$? ($(grep -c '^--- FAIL' "$D/tests.txt") failed, $(grep -c '^--- PASS' "$D/tests.txt") passed)"

# 3. Timing runs (JSON Lines, both precisions) and counters, in priority
#    order, each as soon as the partitions it needs are in the cache.
K=spac-seg8,spac-seg,spac-smem-x4,spac-ldg-x4,csr-scalar,csr-vector,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
KB=spac-seg8,spac-seg,spac-smem-x4,csr-vector,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr # the large inputs
KR=cusparse-csr,cusparse-coo # renumbered in-2004: cuSPARSE's two paths that won on it (no SELL, no BSR: over 3x padding)
ready() { local t; for t in ${1//,/ }; do [ -e "/tmp/spmv2-part-$t.done" ] || return 1; done; }
run() { # TAG INPUT WANT_SECONDS BLOCKS KERNELS [spmv flags...]
  local tag=$1 in=$2 want=$3 b=$4 k=$5 t0=$SECONDS
  shift 5
  [ "$(left)" -gt 15 ] || { log "skip $tag: out of time"; return; }
  timeout "$(cap "$want")" $S spmv "$in" --gpu -b "$b" --precision fp32,fp64 --kernels "$k" --iters 15 --warmup 3 \
    --cpu-iters 1 --budget 4 --format json --quiet "$@" >"$D/json/$tag.jsonl" 2>"$D/json/$tag.err"
  log "run $tag ($in -b $b $*): rc=$? in $((SECONDS - t0)) s"
}
# Counters (Nsight Compute), one product per kernel; caches flushed before
# each kernel (ncu's default), clocks as they are.
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,lts__t_sector_hit_rate.pct
metrics+=,launch__registers_per_thread
ncu_run() { # TAG INPUT WANT_SECONDS PRECISIONS KERNELS [spmv flags...]
  local tag=$1 in=$2 want=$3 prec=$4 k=$5 t0=$SECONDS
  shift 5
  command -v ncu >/dev/null 2>&1 || { log "no ncu"; return; }
  [ "$(left)" -gt 20 ] || { log "skip ncu $tag: out of time"; return; }
  timeout "$(cap "$want")" ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" \
    -k 'regex:^(?!spmv_spin)' --log-file "$D/ncu/$tag.csv" \
    $S spmv "$in" --gpu -b 1024 --precision "$prec" --kernels "$k" --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json "$@" \
    >"$D/ncu/$tag.jsonl" 2>"$D/ncu/$tag.err"
  log "ncu $tag ($in $prec $k $*): rc=$? in $((SECONDS - t0)) s"
}
NK=spac-seg8,spac-seg,cusparse-csr,cusparse-coo
steps=(
  "in-2004-1024,in-2004-512|run in-2004 gen:in-2004 35 512,1024 $K"
  "in-2004-1024|ncu_run in-2004 gen:in-2004 30 fp32,fp64 $NK"
  "mac_econ_fwd500|run mac_econ_fwd500 gen:mac_econ_fwd500 20 512,1024 $K"
  "mc2depi|run mc2depi gen:mc2depi 20 512,1024 $K"
  "cant|run cant gen:cant 20 512,1024 $K"
  "cop20k_A|run cop20k_A gen:cop20k_A 20 512,1024 $K"
  "circuit7M|run circuit7M $CIRC 40 1024 $KB"
  "mesh170-random|run mesh170-random $MESH 45 1024 $KB --renumber random"
  "circuit7M|ncu_run circuit7M $CIRC 30 fp64 $NK"
  "in-2004-1024|run in-2004-reorder gen:in-2004 45 1024 $KR --reorder rcm,nd,spac"
  "Ga41As41H72|run Ga41As41H72 gen:Ga41As41H72 35 1024 $KB"
  "in-2004-1024|ncu_run in-2004-reorder gen:in-2004 40 fp64 cusparse-csr --reorder rcm,nd,spac"
)
while [ ${#steps[@]} -gt 0 ] && [ "$(left)" -gt 15 ]; do
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

# 4. Counters per nonzero (thread instructions = warp instructions x 32,
#    DRAM bytes read and written) per kernel, from the ncu CSVs.
if command -v python3 >/dev/null 2>&1; then
  timeout 5 python3 - "$D/ncu" >"$D/ncu/summary.txt" 2>&1 <<'EOF'
import csv, glob, json, os, sys
d = sys.argv[1]
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    nnz = {}
    try:
        for line in open(f[:-4] + ".jsonl"):
            v = json.loads(line)
            nnz[v.get("input")] = v.get("nnz")
    except (OSError, ValueError):
        pass
    rows = list(csv.reader(open(f)))
    hs = [i for i, r in enumerate(rows) if r and r[0] == "ID"]
    if not hs:
        continue
    h = rows[hs[0]]
    n = max(nnz.values()) if nnz else 0
    print(f"{os.path.basename(f)}: nnz {n} (per-nonzero figures use it)")
    print(f"  {'kernel':44s} {'us':>7s} {'DRAM rd B/nnz':>13s} {'wr B/nnz':>8s} {'thr inst/nnz':>12s} {'issue%':>6s} {'dram%':>6s} {'occ%':>5s} {'L2 hit%':>7s} {'regs':>4s}")
    for r in rows[hs[0] + 1:]:
        if len(r) < len(h) or not r[0] or "spin" in r[h.index("Kernel Name")]:
            continue
        v = dict(zip(h, r))
        g = lambda k: float(v.get(k, "0").replace(",", "") or 0)
        if n == 0:
            continue
        k = v["Kernel Name"]
        if not k.startswith("spmv_"):  # cuSPARSE's templates: the name and the value type
            k = k.replace("void ", "").replace("<unnamed>::", "").split("<")[0] + (" f64" if "double" in k else " f32" if "float" in k else "")
        print(f"  {k[:44]:44s} {g('gpu__time_duration.sum')/1e3:7.1f} {g('dram__bytes_read.sum')/n:13.2f} "
              f"{g('dram__bytes_write.sum')/n:8.2f} {32*g('smsp__inst_executed.sum')/n:12.1f} "
              f"{g('smsp__issue_active.avg.pct_of_peak_sustained_active'):6.1f} {g('dram__throughput.avg.pct_of_peak_sustained_elapsed'):6.1f} "
              f"{g('sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f} {g('lts__t_sector_hit_rate.pct'):7.1f} {v.get('launch__registers_per_thread', '-'):>4s}")
EOF
  log "ncu summary rc=$?"
fi

# 5. The report of every row measured (report.md, speedup.svg, results.csv),
#    and what is left of the partitions.
cat "$D"/json/*.jsonl | grep '}$' >"$D/rows.jsonl" # complete lines: a run cut short may end mid-line
timeout 8 $S spmv --merge "$D/rows.jsonl" --report "$D/report" --title "SpMV on an H100: spac-seg8 against cuSPARSE's best path (issue 20, round 2)" \
  >/dev/null 2>"$D/report.err"
log "report rc=$?"
for f in /tmp/spmv2-part-*.done; do [ -e "$f" ] && basename "$f" .done; done >"$D/part/done.txt"
for f in /tmp/spmv2-part-*.pid; do [ -e "${f%.pid}.done" ] || kill "$(cat "$f")" 2>/dev/null; done # partitions still running
log "end"
cat "$D/log.txt"
grep -E "^(--- FAIL|FAIL|ok|PASS)" "$D/tests.txt" | head -20
rm -f "$D/report/speedup.png"
cd "$OUT" && tar -czf spmv2.tgz spmv2 && rm -rf spmv2
