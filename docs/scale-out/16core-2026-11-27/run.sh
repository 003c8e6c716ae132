#!/usr/bin/env bash
# issue 21 on the 16-core GPU host: distributed SPAC's time against the process count (CPU only).
# Usage: bash bin/mr/run.sh SCALE "NP list" [NO_SINGLE]
set -uo pipefail
scale=$1; nps=$2
root=$(pwd)
mkdir -p /tmp/mb && tar -xzf bin/mr/mpi-bundle.tgz -C /tmp/mb
. /tmp/mb/mpi-bundle/env.sh
echo "host: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; $(lscpu | grep 'Model name' | sed 's/ \+/ /g')"
which spac-mpi mpirun
mkdir -p $OUT/s
export OUT=$OUT/s
[ -n "${3:-}" ] && export NO_SINGLE=1
SPAC=$(command -v spac-mpi) NP="$nps" bash scripts/mpi-scale.sh "$scale" 16 > $OUT/table-$scale.md 2> $OUT/log-$scale.txt
rc=$?
rm -f $OUT/*.mtx
cat $OUT/table-$scale.md; tail -40 $OUT/log-$scale.txt
exit $rc
