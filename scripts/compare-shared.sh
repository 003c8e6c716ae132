#!/usr/bin/env bash
# Every method on every real input in ../shared/matrices and on generated
# graphs of every family (issue 19's table): for each input, model (spmv,
# graph) and block size, SPAC's vertex copies over the best other method's
# (1.000 or below: SPAC leads) and which method that was; then the classic
# setting (graph model, --parts 32 and 256, --imbalance 0.05): SPAC's
# replication factor against NE's and HEP's. Prints markdown tables.
# Usage: scripts/compare-shared.sh [BLOCK_SIZES]   (default "256 1024 4096")
# GEN_DIR (default /tmp/spac-gen) holds the generated inputs; NO_GEN=1 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-256 1024 4096}
shared=../shared/matrices
[ -d "$shared" ] || { echo "compare-shared: no $shared beside the checkout" >&2; exit 1; }
scripts/setup.sh
go build -o bin/spac ./cmd/spac
inputs=("$shared"/*.gz)
if [ -z "${NO_GEN:-}" ]; then
  gen=${GEN_DIR:-/tmp/spac-gen}
  mkdir -p "$gen"
  for spec in ba:n=20000,m=4 er:n=20000,deg=8 rmat:scale=14 stencil2d:nx=300,ny=300 \
    stencil3d:nx=40,ny=40,nz=40 circuit:n=50000 fem:n=20000 web:n=30000 epidemic:k=300 \
    road:nx=200,ny=200 community:n=20000; do
    f="$gen/${spec//[:=,]/_}.mtx"
    [ -f "$f" ] || bin/spac gen "$spec" --seed 3 -o "$f" >/dev/null
    inputs+=("$f")
  done
fi
# row: the CSV of one compare run -> "| input | model | setting | spac | best other | ratio |"
row() {
  awk -F, -v name="$1" -v model="$2" -v set="$3" '
    NR > 1 { if ($2 == "spac") { s = $7; t = $12 } else if (!have || $7 + 0 < b) { b = $7 + 0; who = $2; have = 1 } }
    END {
      ratio = (b > 0) ? sprintf("%.3f", s / b) : (s == 0 ? "1.000" : "above")
      printf "| %s | %s | %s | %d (%.2f s) | %d (%s) | %s |\n", name, model, set, s, t, b, who, ratio
    }'
}
echo "| input | model | block | spac copies (time) | best other (method) | spac / best |"
echo "|---|---|---|---|---|---|"
for f in "${inputs[@]}"; do
  for model in spmv graph; do
    for bs in $sizes; do
      out=$(bin/spac compare "$f" --model "$model" --block-size "$bs" --format csv --quiet 2>/dev/null) || continue
      row "$(basename "$f")" "$model" "$bs" <<<"$out"
    done
  done
done
echo
echo "| input | parts | spac RF | ne RF | hep RF | spac / best other copies |"
echo "|---|---|---|---|---|---|"
for f in "${inputs[@]}"; do
  for k in 32 256; do
    out=$(bin/spac compare "$f" --model graph --parts "$k" --imbalance 0.05 --format csv --quiet 2>/dev/null) || continue
    awk -F, -v name="$(basename "$f")" -v k="$k" '
      NR > 1 { rf[$2] = $8; c[$2] = $7; if ($2 != "spac" && (!have || $7 + 0 < b)) { b = $7 + 0; have = 1 } }
      END { printf "| %s | %d | %.4f | %.4f | %.4f | %s |\n", name, k, rf["spac"], rf["ne"], rf["hep"], (b > 0) ? sprintf("%.3f", c["spac"] / b) : "1.000" }' <<<"$out"
  done
done
