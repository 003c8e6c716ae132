#!/usr/bin/env bash
# issue 21 on the 16-core GPU host: distributed SPAC's time against the process count (CPU only).
# Usage: bash bin/mr/run.sh SCALE "NP list" [NO_SINGLE] ; env HARDCAP, MEMCAP pass through
set -uo pipefail
scale=$1; nps=$2
mkdir -p /tmp/mb && tar -xzf bin/mr/mpi-bundle.tgz -C /tmp/mb
. /tmp/mb/mpi-bundle/env.sh
echo "host: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB; $(lscpu | grep 'Model name' | sed 's/ \+/ /g')"
which spac-mpi mpirun
if [ -n "${HARDCAP:-}" ]; then scripts/memcap.sh 64 true && echo "memcap works"; fi
mkdir -p $OUT/s /tmp/in
ln -sf /tmp/in/rmat-$scale-16.mtx $OUT/s/rmat-$scale-16.mtx
[ -f /tmp/in/rmat-$scale-16.mtx ] || spac-mpi gen "rmat:scale=$scale,ef=16" --seed 1 -o /tmp/in/rmat-$scale-16.mtx
export OUT=$OUT/s
[ -n "${3:-}" ] && export NO_SINGLE=1
SPAC=$(command -v spac-mpi) NP="$nps" timeout ${LIMIT:-560} bash scripts/mpi-scale.sh "$scale" 16 > $OUT/table-$scale.md 2> $OUT/log-$scale.txt
rc=$?
rm -f $OUT/*.mtx
grep -v pmix $OUT/log-$scale.txt | grep -v -i 'compress\|dlopen\|Perhaps\|----\|startup times\|continue, but\|a comparable\|suppress this\|PMIX_MCA\|^$' > $OUT/log-$scale.clean.txt
cat $OUT/table-$scale.md; tail -60 $OUT/log-$scale.clean.txt
exit $rc
