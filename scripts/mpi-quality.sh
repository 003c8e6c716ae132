#!/usr/bin/env bash
# Distributed SPAC and the hypergraph baseline against the single-machine
# SPAC (issue 21), on the shared inputs (../shared/matrices) and generated
# inputs of every family, default model, one block size:
#  1. copies and time of 'spac partition' (one process) and of 'spac
#     partition --mpi' under mpirun -np 1, 2 and 4, each distributed
#     assignment checked by 'spac evaluate' (the single-machine metrics
#     code: the cap held, the same copies);
#  2. copies and time of the hypergraph baseline (Zoltan PHG, column-net
#     model, strict cap) on 1 and 4 processes against SPAC's.
# Prints two markdown tables. Needs the MPI build (make mpi).
# Usage: scripts/mpi-quality.sh [BLOCK]   (default 1024)
# Env: GEN_DIR (default /tmp/spac-gen) holds the generated inputs; NO_GEN=1
# skips them; NO_HG=1 skips the hypergraph table; NP (default "1 2 4").
set -euo pipefail
cd "$(dirname "$0")/.."
block=${1:-1024}
nps=${NP:-1 2 4}
shared=../shared/matrices
make --no-print-directory mpi >/dev/null
go build -o bin/spac ./cmd/spac
inputs=()
[ -d "$shared" ] && inputs+=("$shared"/*.gz)
if [ -z "${NO_GEN:-}" ]; then
  gen=${GEN_DIR:-/tmp/spac-gen}
  mkdir -p "$gen"
  for spec in ba:n=20000,m=4 er:n=20000,deg=8 rmat:scale=14 stencil2d:nx=300,ny=300 \
    stencil3d:nx=40,ny=40,nz=40 circuit:n=50000 fem:n=20000 web:n=30000 epidemic:k=300; do
    f="$gen/${spec//[:=,]/_}.mtx"
    [ -f "$f" ] || bin/spac gen "$spec" --seed 3 -o "$f" >/dev/null
    inputs+=("$f")
  done
fi
run=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" = 0 ] && run+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=none
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copies() { awk '/^vertex copies/ { print $3 }'; }
seconds() { awk '/^partition time/ { print $3 }'; }
peak() { awk '/MiB/ { for (i = 1; i < NF; i++) if ($(i+1) == "MiB" && $i + 0 > m) m = $i + 0 } END { printf "%.0f", m }'; }

echo "| input | edges | parts | single SPAC copies (s) |$(for p in $nps; do printf ' %s procs: copies (vs single, s, peak MiB/proc) |' "$p"; done) checked |"
echo "|---|---|---|---|$(for p in $nps; do printf -- '---|'; done)---|"
for f in "${inputs[@]}"; do
  name=$(basename "$f")
  one=$(bin/spac partition "$f" -b "$block" --quiet 2>/dev/null) || continue
  s=$(copies <<<"$one")
  edges=$(awk '/^locality graph/ { print $(NF-1) }' <<<"$one")
  parts=$(awk '/^parts/ { print $2 }' <<<"$one")
  row="| $name | $edges | $parts | $s ($(seconds <<<"$one")) |"
  checked=yes
  for p in $nps; do
    out=$("${run[@]}" -np "$p" bin/mpi/spac partition "$f" --mpi -b "$block" -o "$tmp/a.tsv" --quiet 2>"$tmp/err") || { row+=" failed: $(tail -1 "$tmp/err") |"; checked=no; continue; }
    d=$(copies <<<"$out")
    ev=$(bin/spac evaluate "$f" -b "$block" -a "$tmp/a.tsv" --quiet 2>&1) || { checked="no ($p: $(tail -1 <<<"$ev"))"; }
    [ "$(copies <<<"$ev")" = "$d" ] || checked="no ($p procs: evaluate says $(copies <<<"$ev"))"
    ratio=$(awk -v a="$d" -v b="$s" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print (a == 0 ? "1.000" : "-") }')
    row+=" $d ($ratio, $(seconds <<<"$out") s, $(peak <<<"$out")) |"
  done
  echo "$row $checked |"
done
[ -n "${NO_HG:-}" ] && exit 0
echo
echo "| input | edges | parts | spac copies (s) | hypergraph, 1 proc: copies (vs spac, s) | hypergraph, 4 procs: copies (vs spac, s) |"
echo "|---|---|---|---|---|---|"
for f in "${inputs[@]}"; do
  name=$(basename "$f")
  one=$(bin/mpi/spac compare "$f" -b "$block" --methods spac,hypergraph --format csv --quiet 2>/dev/null) || continue
  four=$("${run[@]}" -np 4 bin/mpi/spac compare "$f" -b "$block" --methods hypergraph --format csv --quiet 2>/dev/null) || four=""
  awk -F, -v name="$name" -v four="$four" '
    NR > 1 { c[$2] = $7; t[$2] = $12; e = $5; k = $3 }
    END {
      split(four, l, "\n"); split(l[2], h, ",")
      f4 = (h[7] != "") ? sprintf("%d (%s, %.2f)", h[7], ratio(h[7], c["spac"]), h[12]) : "failed"
      printf "| %s | %d | %d | %d (%.2f) | %d (%s, %.2f) | %s |\n", name, e, k, c["spac"], t["spac"], c["hypergraph"], ratio(c["hypergraph"], c["spac"]), t["hypergraph"], f4
    }
    function ratio(a, b) { return b > 0 ? sprintf("%.3f", a / b) : (a == 0 ? "1.000" : "-") }' <<<"$one"
done
