#!/usr/bin/env bash
# The paper's Fig. 7 rerun: Barabasi-Albert graphs with 50k vertices and
# average degree 8, 16, 32, 64 (graph model, each undirected edge once),
# block size 1024: copies of SPAC, WVP greedy and random, PowerGraph greedy
# and random, and the ratios of the order the paper reports
# (SPAC < WVP greedy < greedy: both ratios below 1). Prints a markdown table.
# WVP greedy with METIS's communication-volume objective is measured by
# SPAC_WVP_VOL=4,8,16 go test ./spac -run WVPVolumeObjective -v -timeout 0.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
go build -o bin/spac ./cmd/spac
dir=${BENCH_DIR:-/tmp/spac-bench}
mkdir -p "$dir"
echo "| avg degree | edges | parts | spac | wvp-greedy | wvp-random | greedy | random | spac/wvp-greedy | wvp-greedy/greedy |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in 4 8 16 32; do
  f="$dir/ba-50k-m$m.mtx"
  [ -f "$f" ] || bin/spac gen "ba:n=50000,m=$m" --seed 1 -o "$f" 2>/dev/null
  bin/spac compare "$f" --model graph --as-stored --block-size 1024 --methods spac,wvp-greedy,wvp-random,greedy,random --format csv --quiet |
    awk -F, -v d=$((2 * m)) 'NR > 1 { c[$2] = $7; e = $5; k = $3 }
      END { printf "| %d | %d | %d | %d | %d | %d | %d | %d | %.3f | %.3f |\n", d, e, k, c["spac"], c["wvp-greedy"], c["wvp-random"],
            c["greedy"], c["random"], c["spac"] / c["wvp-greedy"], c["wvp-greedy"] / c["greedy"] }'
done
