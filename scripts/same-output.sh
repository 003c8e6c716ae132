#!/usr/bin/env bash
# Checks that two spac binaries produce byte-identical partitions and
# schedules (a refactoring must not change them): the demo graph and two
# shared matrices, SPAC and one baseline, the part of every nonzero
# (--assignment) and the binary schedule file (-o), compared with cmp.
#
# Usage: scripts/same-output.sh OLD_BIN NEW_BIN [INPUT ...]
#        (default inputs: the demo graph, ../shared/matrices/bcsstk13.mtx.gz,
#        ../shared/matrices/CA-CondMat_tab-sep.edgelist.gz)
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
  "$new" gen ba:n=50000,m=8 --seed 1 -o "$work/demo.mtx" 2>/dev/null
  set -- "$work/demo.mtx" "$root/../shared/matrices/bcsstk13.mtx.gz" "$root/../shared/matrices/CA-CondMat_tab-sep.edgelist.gz"
fi
fail=0
echo "| input | what | bytes | identical |"
echo "|---|---|---:|---|"
for in in "$@"; do
  name=$(basename "$in")
  model=()
  [ "$name" = demo.mtx ] && model=(--model graph --as-stored)
  for run in "partition -m spac -b 1024" "partition -m wvp-greedy -b 1024" "schedule -b 256"; do
    for which in old new; do
      bin=$old; [ $which = new ] && bin=$new
      out="$work/$which.out"
      case $run in
        partition*) "$bin" $run "$in" "${model[@]}" --assignment "$out" >/dev/null 2>&1 ;;
        schedule*) "$bin" $run "$in" "${model[@]}" --no-cache -o "$out" >/dev/null 2>&1 ;;
      esac
    done
    if cmp -s "$work/old.out" "$work/new.out"; then same=yes; else same=NO; fail=1; fi
    echo "| $name | $run | $(stat -c %s "$work/new.out") | $same |"
  done
done
exit $fail
