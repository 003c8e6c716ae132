#!/usr/bin/env bash
# SPAC's free choices measured side by side: formulation (contracted or
# split), clone order (index, cycle, neighbour, walk), Go pre-coarsening levels,
# METIS imbalance, the starts and the rounds of pair refinement (the order
# and coarsening rows run SPAC's own start alone, unrefined, to isolate them). Prints one markdown row per input and variant: copies and
# partition time at block size 1024. The defaults in spac/spac.go and
# cmd/spac come from this table.
# Usage: scripts/variants.sh [FILE...]  (default: ../shared/matrices and
# three generated inputs: cant (2.0M edges as stored), in-2004 at scale 0.1
# (1.65M edges) and ba:n=50000,m=8). Coarsening applies from 1M edges, so
# only the generated inputs tell its rows apart.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
go build -o bin/spac ./cmd/spac
dir=${BENCH_DIR:-/tmp/spac-bench}
mkdir -p "$dir"
if [ $# -eq 0 ]; then
  [ -f "$dir/cant.mtx" ] || bin/spac gen cant -o "$dir/cant.mtx"
  [ -f "$dir/in-2004-0.1.mtx" ] || bin/spac gen in-2004 --scale 0.1 -o "$dir/in-2004-0.1.mtx"
  [ -f "$dir/ba-50k-d16.mtx" ] || bin/spac gen ba:n=50000,m=8 -o "$dir/ba-50k-d16.mtx"
  set -- ../shared/matrices/*.gz "$dir/cant.mtx" "$dir/in-2004-0.1.mtx" "$dir/ba-50k-d16.mtx"
fi
own="--starts metis --refine 0"
variants=(
  "$own --formulation split --order index --coarsen 0"
  "$own --formulation contracted --order index --coarsen 0"
  "$own --formulation contracted --order neighbour --coarsen 0"
  "$own --formulation contracted --order cycle --coarsen 0"
  "$own --formulation contracted --order walk --coarsen 0"
  "$own --formulation contracted --order walk --coarsen 1"
  "$own --formulation contracted --order walk --coarsen 2"
  "$own --formulation contracted --order walk --coarsen 1 --imbalance 0.01"
  "--starts metis --refine 16"
  "--starts metis --refine 64"
  "--refine 0"
  "--refine 16"
)
echo "| input | variant | copies | seconds |"
echo "|---|---|---|---|"
for f in "$@"; do
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2086
    model=""
    case "$f" in *ba-*) model="--model graph --as-stored" ;; *cant*) model="--as-stored" ;; esac
    out=$(bin/spac partition "$f" --block-size 1024 --quiet $model $v)
    copies=$(awk '/^vertex copies/ {print $3}' <<<"$out")
    secs=$(awk '/^partition time/ {print $3}' <<<"$out")
    echo "| $(basename "$f") | $v | $copies | $secs |"
  done
done
