#!/usr/bin/env bash
# Speed and memory of the hot paths, on this machine, side by side in one run:
#  1. SPAC on a cant-sized input (the cant preset as stored: ~2.0M edges,
#     block size 1024) and on an in-2004-sized power-law input (~17M edges):
#     median wall time of `spac partition` over RUNS runs, and its peak RSS.
#  2. Matrix Market reading speed (go test -bench in package matrices).
# Inputs are generated once into $BENCH_DIR (default /tmp/spac-bench).
# SPAC_BIN names another spac binary to time (an older build, for a
# before/after table); the inputs are still generated with this tree's.
# The machine's load average is printed before and after: other work on
# the cores shows in the times.
# Usage: scripts/bench.sh [RUNS]    (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
dir=${BENCH_DIR:-/tmp/spac-bench}
mkdir -p "$dir"
scripts/setup.sh
command -v /usr/bin/time >/dev/null 2>&1 || { echo "bench: installing GNU time for peak-memory figures" >&2; apt-get install -y -qq time >/dev/null; }
go build -o bin/spac ./cmd/spac
bin=${SPAC_BIN:-bin/spac}

gen() { # name preset
  [ -f "$dir/$1.mtx" ] || bin/spac gen "$2" --seed 1 -o "$dir/$1.mtx"
}
gen cant cant
gen in-2004 in-2004

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "binary: $bin; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | edges | parts | copies | median partition s | runs | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|"
for name in cant in-2004; do
  times=() ; rss=0 ; copies="" ; edges="" ; parts=""
  for i in $(seq "$runs"); do
    out=$(/usr/bin/time -f 'RSS %M' "$bin" partition "$dir/$name.mtx" --as-stored --block-size 1024 --quiet 2>"$dir/time.err")
    t=$(awk '/^partition time/ {print $3}' <<<"$out")
    times+=("$t")
    r=$(awk '/^RSS/ {print $2}' "$dir/time.err")
    [ "$r" -gt "$rss" ] && rss=$r
    copies=$(awk '/^vertex copies/ {print $3}' <<<"$out")
    edges=$(awk '/^locality graph/ {print $(NF-1)}' <<<"$out")
    parts=$(awk '/^parts/ {print $2}' <<<"$out")
  done
  med=$(printf '%s\n' "${times[@]}" | median)
  echo "| $name | $edges | $parts | $copies | $med | $runs | $((rss / 1024)) |"
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
go test -run '^$' -bench 'BenchmarkReadMatrixMarket' -benchmem -count "$runs" ./matrices
