#!/usr/bin/env bash
# The traversal benchmark of issue 16 (item 5), run on the GPU machine from
# the repository root with a carried CUDA binary of spac: BFS and SSSP
# (uniform float weights in (0,1]) with --gpu, every strategy, validated,
# on Kronecker graphs of scale 20 to 24 (edge factor 16), the road-like
# grid and the real graphs of a matrices folder (../shared/matrices is not
# on the GPU machine: carry copies, e.g. as bin/tb/m). The BFS runs of
# Kronecker 22 and of the road graph also time every level of one more
# search per strategy (spac --levels). Then, anywhere (no GPU needed):
#   go run ./scripts/traverse-report OUT docs/traverse-h100
#
# Every step runs under what is left of BUDGET seconds: a step that would
# start after it is skipped, and one that runs past it is killed; both are
# listed in OUT/log.txt and in the report. Steps run most important first.
#
# Usage: scripts/traverse-bench.sh [MATRICES_DIR [OUT]]
# Env:   SPAC (bin/gpu/spac), BUDGET (seconds, 315), ROAD (nx=4000,ny=4000),
#        roots per set: R20 R21 R22 R23 R24 RROAD RROADSSSP RREAL
#        (16 4 8 2 2 2 1 16), SSSP roots on Kronecker: RS20 RS22 (8 4)
set -uo pipefail
cd "$(dirname "$0")/.."
mdir=${1:-../shared/matrices}
out=${2:-${OUT:-traverse-bench-out}}
spac=${SPAC:-bin/gpu/spac}
budget=${BUDGET:-315}
road=${ROAD:-nx=4000,ny=4000}
mkdir -p "$out/runs" "$out/levels"
log=$out/log.txt
: >"$log"
t0=$SECONDS
[ -x "$spac" ] || { echo "traverse-bench: no binary at $spac (scripts/gpu-build.sh)" | tee -a "$log" >&2; exit 1; }
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(hostname), $(nproc) cores"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
  echo "spac: $("$spac" --version 2>/dev/null | head -1)"
  echo "budget: $budget s"
} >"$out/device.txt"
cat "$out/device.txt" >&2

# step LABEL PROBLEM ROOTS GRAPH [FLAGS...]: one spac run into runs/LABEL.PROBLEM.csv
step() {
  local label=$1 prob=$2 roots=$3 graph=$4
  shift 4
  local left=$((budget - (SECONDS - t0)))
  local cmd=("$spac" "$prob" "$graph" --gpu --roots "$roots" --format csv "$@")
  if [ "$left" -lt 5 ]; then
    echo "SKIPPED $label $prob (budget spent): ${cmd[*]}" | tee -a "$log" >&2
    return
  fi
  local s=$SECONDS rc
  timeout "$left" "${cmd[@]}" >"$out/runs/$label.$prob.csv" 2>"$out/runs/$label.$prob.err"
  rc=$?
  echo "rc=$rc ${SECONDS}s-${s}s=$((SECONDS - s))s $label $prob: ${cmd[*]}" | tee -a "$log" >&2
  [ -s "$out/runs/$label.$prob.err" ] || rm -f "$out/runs/$label.$prob.err"
}

m() { echo "$mdir/$1"; }
W=(--weights uniform-float)

# The goals first: BFS on Kronecker 22 (with its levels), SSSP there, the
# road graph's BFS (with its levels).
step kron22 bfs "${R22:-8}" kron:scale=22 --levels "$out/levels/kron22.bfs.csv"
step road bfs "${RROAD:-2}" "road:$road" --levels "$out/levels/road.bfs.csv"
step kron22 sssp "${RS22:-4}" kron:scale=22 "${W[@]}"
step kron24 bfs "${R24:-2}" kron:scale=24
step kron20 bfs "${R20:-16}" kron:scale=20
step kron20 sssp "${RS20:-8}" kron:scale=20 "${W[@]}"
# Real graphs: small, every root cheap.
for spec in "facebook:facebook_combined.txt.gz" "ca-condmat:CA-CondMat_tab-sep.edgelist.gz" \
  "wiki-vote:wiki-Vote.txt.gz:--directed" "4elt:4elt.graph.gz" "copter2:copter2.graph.gz" "bcsstk13:bcsstk13.mtx.gz"; do
  IFS=: read -r label file extra <<<"$spec"
  [ -e "$(m "$file")" ] || { echo "MISSING $(m "$file")" | tee -a "$log" >&2; continue; }
  step "$label" bfs "${RREAL:-16}" "$(m "$file")" ${extra:+"$extra"}
  step "$label" sssp "${RREAL:-16}" "$(m "$file")" ${extra:+"$extra"} "${W[@]}"
done
step road sssp "${RROADSSSP:-1}" "road:$road" "${W[@]}"
step kron23 bfs "${R23:-2}" kron:scale=23
step kron21 bfs "${R21:-4}" kron:scale=21
echo "total $((SECONDS - t0)) s" | tee -a "$log" >&2
