#!/usr/bin/env bash
# The cfd block-size sweep of the paper's Fig. 14: Rodinia's original euler3d
# kernels against the SPAC-scheduled flux, time per iteration at block sizes
# 128 to 1024, on several meshes. Runs ON the GPU machine with the binary
# built here (make gpu; that machine needs no Go).
#
# Meshes whose partitions are quick run in one process each (all block
# sizes; the CPU reference once); a mesh given as mesh:n=N with
# N >= REFERENCE_MAX runs one process per block size and skips the CPU
# reference (it would take minutes; the GPU tests check agreement). Up to
# JOBS processes partition at once; the GPU runs one process at a time
# (spac cfd --gpu-lock), so no two timings overlap.
#
# Writes into OUTDIR: report.md (summary, per-mesh tables, agreement with
# the CPU reference, how it was made), fig14.svg, fig14.png, results.csv, csv/ (each
# process's CSV and stderr), log.txt, and where Nsight Compute runs
# (NCU=1, the default when ncu is found) ncu.md: counters of one flux
# launch of each schedule on NCU_MESH at NCU_BLOCK.
#
# Usage: scripts/cfd-sweep.sh OUTDIR [MESH...]
#   MESHes default to fvcorr-097k fvcorr-193k missile-0.2m mesh:n=2000000.
# Env: SPAC (bin/gpu/spac), BLOCKS (128,192,256,384,512,1024), PRECISIONS
#      (fp32,fp64), ITERS (100), JOBS (8), REFERENCE_MAX (1000000), TIMEOUT
#      (seconds per process, 420), NCU (auto), NCU_MESH (fvcorr-097k),
#      NCU_BLOCK (192), NCU_PRECISION (fp32).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/cfd-sweep.sh OUTDIR [MESH...]}
shift
spac=${SPAC:-bin/gpu/spac}
blocks=${BLOCKS:-128,192,256,384,512,1024}
precisions=${PRECISIONS:-fp32,fp64}
iters=${ITERS:-100}
jobs=${JOBS:-8}
refmax=${REFERENCE_MAX:-1000000}
limit=${TIMEOUT:-420}
if [ $# -gt 0 ]; then meshes=("$@"); else meshes=(fvcorr-097k fvcorr-193k missile-0.2m mesh:n=2000000); fi
mkdir -p "$out/csv"
log=$out/log.txt
: >"$log"
[ -x "$spac" ] || { echo "cfd-sweep: no binary at $spac (build it with 'make gpu' and carry bin/gpu)" >&2; exit 1; }
stamp() { date -u +%H:%M:%S; }
name() { echo "${1//[^A-Za-z0-9._-]/_}"; }
{
  echo "cfd-sweep: $(stamp) on $(hostname), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1
  echo "meshes: ${meshes[*]}; block sizes $blocks; precisions $precisions; $iters iterations; $jobs processes at a time"
} | tee -a "$log" >&2

# Jobs: "MESH BLOCKS FLAGS", the slowest (largest mesh, smallest block:
# the most parts) first.
IFS=, read -ra bs <<<"$blocks"
: >"$out/csv/jobs.txt"
for mesh in "${meshes[@]}"; do
  n=0
  [[ $mesh =~ ^mesh:n=([0-9]+) ]] && n=${BASH_REMATCH[1]}
  if [ "$n" -ge "$refmax" ]; then
    for b in "${bs[@]}"; do echo "$mesh $b --no-reference" >>"$out/csv/jobs.txt"; done
  else
    echo "$mesh $blocks -" >>"$out/csv/jobs.txt"
  fi
done
run_job() { # mesh blocks flags
  local mesh=$1 b=$2 extra=$3 tag t0=$SECONDS rc
  tag=$(name "$mesh")-${b//,/_}
  [ "$extra" = - ] && extra=
  timeout "$limit" "$spac" cfd "$mesh" --gpu --gpu-lock "$out/gpu.lock" -b "$b" --precision "$precisions" -n "$iters" \
    --format csv $extra >"$out/csv/$tag.csv" 2>"$out/csv/$tag.err"
  rc=$?
  echo "cfd-sweep: $(stamp) $mesh B=$b: exit $rc in $((SECONDS - t0)) s; $(grep -c ',gpu,' "$out/csv/$tag.csv") GPU runs"
  [ $rc -ne 0 ] && tail -3 "$out/csv/$tag.err"
  return 0
}
export -f run_job name stamp
export spac out precisions iters limit
xargs -P "$jobs" -n 3 bash -c 'run_job "$1" "$2" "$3"' _ <"$out/csv/jobs.txt" 2>&1 | tee -a "$log" >&2

csvs=()
for f in "$out"/csv/*.csv; do grep -q ',gpu,' "$f" && csvs+=("$f"); done
[ ${#csvs[@]} -gt 0 ] || { echo "cfd-sweep: no GPU results (see $log)" >&2; exit 1; }
"$spac" cfd report "${csvs[@]}" -o "$out" 2>>"$log" || { echo "cfd-sweep: the report failed (see $log)" >&2; exit 1; }

{
  echo
  echo "## How these numbers were made"
  echo
  echo '```sh'
  echo "# on the GPU machine ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)), $(date -u +%Y-%m-%d)"
  echo "BLOCKS=$blocks PRECISIONS=$precisions ITERS=$iters scripts/cfd-sweep.sh $out ${*:-}"
  echo "# per mesh (block sizes in one process; a mesh of >= $refmax elements: one process per block size, --no-reference):"
  echo "$spac cfd MESH --gpu --gpu-lock $out/gpu.lock -b $blocks --precision $precisions -n $iters --format csv"
  echo "$spac cfd report $out/csv/*.csv -o $out"
  echo '```'
  echo
  echo "Meshes are generated (presets with the element counts of Rodinia's inputs, shuffled element order, seed 1)."
  echo "SPAC schedules: METIS through split-and-connect, default options; partition times are on the GPU machine's CPU with"
  echo "up to $jobs partitioning processes at once (METIS itself is serialized within a process)."
  echo
  echo "Processes:"
  echo
  grep -E "^cfd-sweep: .* exit" "$log" | sed 's/^cfd-sweep: /- /'
} >>"$out/report.md"

# Counters of one flux launch per schedule, where Nsight Compute runs.
if [ "${NCU:-auto}" != 0 ] && command -v ncu >/dev/null 2>&1; then
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
  metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
  nm=${NCU_MESH:-fvcorr-097k}
  nb=${NCU_BLOCK:-192}
  np=${NCU_PRECISION:-fp32}
  mkdir -p "$out/ncu"
  for s in original spac; do
    t0=$SECONDS
    timeout 240 ncu --clock-control none --csv --page raw --print-units base --metrics "$metrics" -k 'regex:cfd_(spac_)?flux' -c 1 \
      --log-file "$out/ncu/$s.csv" "$spac" cfd "$nm" --gpu --schedule "$s" -b "$nb" --precision "$np" -n 1 --no-reference --quiet \
      >"$out/ncu/$s.out" 2>"$out/ncu/$s.err"
    echo "cfd-sweep: $(stamp) ncu $nm $s B=$nb: exit $? in $((SECONDS - t0)) s" | tee -a "$log" >&2
  done
  python3 - "$out" "$nm" "$nb" "$np" >"$out/ncu.md" 2>>"$log" <<'PY' || echo "cfd-sweep: the ncu summary failed (see log.txt)" >&2
import csv, sys
out, mesh, nb, prec = sys.argv[1:5]
cols = [("gpu__time_duration.sum", "time us", 1e-3), ("dram__bytes_read.sum", "DRAM read MB", 1e-6),
        ("dram__bytes_write.sum", "DRAM write MB", 1e-6), ("lts__t_sectors_srcunit_tex.sum", "L2 sectors (k)", 1e-3),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "L1 load sectors (k)", 1e-3),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "L1 store sectors (k)", 1e-3),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "L1 reduction sectors (k)", 1e-3),
        ("sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy %", 1),
        ("smsp__inst_executed.sum", "instructions (M)", 1e-6),
        ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "shared bank conflicts (k)", 1e-3)]
print(f"## Counters of one flux launch (Nsight Compute)\n\n{mesh}, {prec}, block size {nb}; clocks not locked.\n")
print("| kernel | " + " | ".join(c[1] for c in cols) + " |")
print("|---|" + "---:|" * len(cols))
for s in ("original", "spac"):
    lines = [l for l in open(f"{out}/ncu/{s}.csv") if l.startswith('"')]
    if len(lines) < 3:
        print(f"| {s} | " + " | ".join("-" for _ in cols) + " |")
        continue
    rows = list(csv.reader(lines))
    hdr, r = rows[0], rows[-1]
    def val(m):
        try: return float(r[hdr.index(m)].replace(",", ""))
        except (ValueError, IndexError): return None
    cells = []
    for m, _, scale in cols:
        v = val(m)
        cells.append("-" if v is None else f"{v*scale:.1f}")
    print(f"| {r[hdr.index('Kernel Name')]} | " + " | ".join(cells) + " |")
PY
  [ -s "$out/ncu.md" ] && { echo; cat "$out/ncu.md"; } >>"$out/report.md"
else
  echo "cfd-sweep: Nsight Compute (ncu) not found or NCU=0: no counters" | tee -a "$log" >&2
fi
echo "cfd-sweep: $(stamp) wrote $out/report.md" | tee -a "$log" >&2
