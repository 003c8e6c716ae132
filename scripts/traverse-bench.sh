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
# Every set searches from Graph500's 64 roots, but a strategy stops taking
# roots once its searches have used STRATEGY_BUDGET seconds (spac
# --budget): the node-based strategies, 30-300x slower than the best on
# Kronecker graphs, then search from fewer roots, which the report's roots
# column shows. ONLY=bfs or ONLY=sssp runs that problem's steps alone, and
# SETS (a regular expression, e.g. 'kron2[34]') the sets whose label it
# matches: a device call has a time limit, so run the parts in turn into
# one OUT (the log and device.txt gather every part).
#
# Usage: scripts/traverse-bench.sh [MATRICES_DIR [OUT]]
# Env:   SPAC (bin/gpu/spac), BUDGET (seconds, 560), STRATEGY_BUDGET (3),
#        ROOTS (64), ROAD (nx=4000,ny=4000), ONLY (bfs, sssp or both),
#        SETS (all)
set -uo pipefail
cd "$(dirname "$0")/.."
mdir=${1:-../shared/matrices}
out=${2:-${OUT:-traverse-bench-out}}
spac=${SPAC:-bin/gpu/spac}
budget=${BUDGET:-560}
roots=${ROOTS:-64}
only=${ONLY:-both}
sets=${SETS:-.*}
road=${ROAD:-nx=4000,ny=4000}
mkdir -p "$out/runs" "$out/levels"
log=$out/log.txt
touch "$log"
t0=$SECONDS
[ -x "$spac" ] || { echo "traverse-bench: no binary at $spac (scripts/gpu-build.sh)" | tee -a "$log" >&2; exit 1; }
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(hostname), $(nproc) cores"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
  echo "spac: $("$spac" --version 2>/dev/null | head -1)"
  echo "budget: $budget s per call, ${STRATEGY_BUDGET:-3} s of searches per strategy and set, $roots roots (ONLY=$only SETS=$sets)"
} >>"$out/device.txt"
cat "$out/device.txt" >&2

# step LABEL PROBLEM GRAPH [FLAGS...]: one spac run into runs/LABEL.PROBLEM.csv
step() {
  local label=$1 prob=$2 graph=$3
  shift 3
  [ "$only" = both ] || [ "$only" = "$prob" ] || return 0
  [[ "$label" =~ ^($sets)$ ]] || return 0
  local left=$((budget - (SECONDS - t0)))
  local cmd=("$spac" "$prob" "$graph" --gpu --roots "$roots" --budget "${STRATEGY_BUDGET:-3}" --format csv "$@")
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

# The goals first: BFS on Kronecker 22 (with its levels), the road graph's
# BFS (with its levels), SSSP on Kronecker 22.
step kron22 bfs kron:scale=22 --levels "$out/levels/kron22.bfs.csv"
step road bfs "road:$road" --levels "$out/levels/road.bfs.csv"
step kron22 sssp kron:scale=22 "${W[@]}"
for s in 24 23 21 20; do
  step "kron$s" bfs "kron:scale=$s"
  step "kron$s" sssp "kron:scale=$s" "${W[@]}"
done
# Real graphs: small, every root cheap.
for spec in "facebook:facebook_combined.txt.gz" "ca-condmat:CA-CondMat_tab-sep.edgelist.gz" \
  "wiki-vote:wiki-Vote.txt.gz:--directed" "4elt:4elt.graph.gz" "copter2:copter2.graph.gz" "bcsstk13:bcsstk13.mtx.gz" \
  "bayer10:bayer10.mtx.gz" "rajat01:rajat01.mtx.gz" "lund_a:lund_a.mtx.gz" "pores_1:pores_1.mtx.gz"; do
  IFS=: read -r label file extra <<<"$spec"
  [ -e "$(m "$file")" ] || { echo "MISSING $(m "$file")" | tee -a "$log" >&2; continue; }
  step "$label" bfs "$(m "$file")" ${extra:+"$extra"}
  step "$label" sssp "$(m "$file")" ${extra:+"$extra"} "${W[@]}"
done
step road sssp "road:$road" "${W[@]}"
echo "total $((SECONDS - t0)) s ($only)" | tee -a "$log" >&2
