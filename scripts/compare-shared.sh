#!/usr/bin/env bash
# Every method on every real input in ../shared/matrices at block size 1024
# (matrices: spmv model, symmetric storage expanded; graph files: graph
# model): vertex copies per method, and SPAC's lead over the best streaming
# method (random, greedy, hdrf, dbh). Prints a markdown table.
# Usage: scripts/compare-shared.sh [BLOCK_SIZE]   (default 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
bs=${1:-1024}
shared=../shared/matrices
[ -d "$shared" ] || { echo "compare-shared: no $shared beside the checkout" >&2; exit 1; }
scripts/setup.sh
go build -o bin/spac ./cmd/spac
methods=spac,default,random,greedy,wvp-random,wvp-greedy,hdrf,dbh
echo "| input | edges | parts | ${methods//,/ | } | best streaming / spac |"
echo "|---|---|---|$(sed 's/[^,]*/---/g; s/,/|/g' <<<"$methods")|---|"
for f in "$shared"/*.gz; do
  bin/spac compare "$f" --block-size "$bs" --methods "$methods" --format csv --quiet |
    awk -F, -v name="$(basename "$f")" -v order="$methods" '
      NR > 1 { c[$2] = $7; e = $5; k = $3 }
      END {
        n = split(order, m, ",")
        line = sprintf("| %s | %d | %d |", name, e, k)
        for (i = 1; i <= n; i++) line = line sprintf(" %d |", c[m[i]])
        best = c["random"]
        split("greedy hdrf dbh", s, " ")
        for (i in s) if (c[s[i]] < best) best = c[s[i]]
        line = line (c["spac"] > 0 ? sprintf(" %.3f |", best / c["spac"]) : " - (one part) |")
        print line
      }'
done
