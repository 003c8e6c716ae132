#!/usr/bin/env bash
# The A/B measurement behind SPAC-adapt's set-up (README.md, "Where adapt's
# overhead went"): on two short solves whose partition never finishes,
# cuSPARSE-CG against SPAC-adapt with the partitioner in this process or in
# a child process, with every product timed or only the probes; then one
# long repeated-SpMV run where the partition finishes mid-run. Variants run
# round-robin, REPS rounds, fresh processes. Writes OUT/ab.csv.
#
# Usage (GPU machine, repository root): scripts/cg-ab.sh OUT
set -euo pipefail
out=${1:?usage: scripts/cg-ab.sh OUT}
spac=${SPAC:-bin/gpu/spac}
reps=${REPS:-5}
mkdir -p "$out"
export SPAC_CACHE_DIR=$(mktemp -d)
variants=(
  "cusparse|--schedule cusparse"
  "cusparse-timeall|--schedule cusparse --time-all"
  "adapt-goroutine-timeall|--adapt --no-cache --background goroutine --time-all"
  "adapt-goroutine|--adapt --no-cache --background goroutine"
  "adapt-process-timeall|--adapt --no-cache --time-all"
  "adapt-process|--adapt --no-cache"
  "adapt-process-nice0|--adapt --no-cache --background-nice 0"
)
csv="$out/ab.csv"
: >"$csv"
for rep in $(seq "$reps"); do
  for item in "gen:stencil3d-100@0.125:1e-8" "gen:cant:1e-10"; do
    for v in "${variants[@]}"; do
      # shellcheck disable=SC2086
      line=$("$spac" cg "${item%:*}" --gpu --tol "${item##*:}" ${v#*|} --format csv --quiet)
      [ -s "$csv" ] || echo "variant,rep,$(echo "$line" | head -1)" >"$csv"
      echo "${v%%|*},$rep,$(echo "$line" | tail -1)" >>"$csv"
    done
  done
done
for v in "cusparse|--schedule cusparse" "adapt-process|--adapt --no-cache" "adapt-goroutine|--adapt --no-cache --background goroutine"; do
  # shellcheck disable=SC2086
  line=$("$spac" cg gen:stencil2d-1000@0.25 --gpu --repeat 200000 ${v#*|} --format csv --quiet)
  echo "${v%%|*}-repeat,1,$(echo "$line" | tail -1)" >>"$csv"
done
echo "ab: wrote $csv" >&2
