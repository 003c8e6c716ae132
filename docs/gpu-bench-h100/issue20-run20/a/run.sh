#!/usr/bin/env bash
# Prepared at stop 43, not yet run. Why spac-d16-own trails csr-d16 on the 20M-row circuit (round 19: 402.4 against
# 331.4 us in fp32): its row list and y's stores through it, or the rows' fragments (runs of 28.1 rows in the schedule
# from the input's order)? The row-order method's schedule (-m default) has each part's rows as one run: spac-d16-own
# on it costs the row list alone. SPAC's `auto` at B=16384 now starts from the row order too (stop 43) and keeps it
# there: 5,322,188 copies against the row-order method's 5,446,705. Build main: scripts/gpu-build.sh; pack stripped
# bin/gpu/{spac,spmv.test,lib} into bin/cNN/b.tgz; carry bin/cNN (B=bin/cNN).
T0=$SECONDS
B=${B:-bin/c99}
mkdir -p bin/new && tar -xzf $B/b.tgz -C bin/new
D=$OUT/run20a; mkdir -p $D
(cd apps/spmv && timeout 150 ../../bin/new/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
run() { # label kernels blocks [more spmv args]
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  SPAC=bin/new/gpu/spac KERNELS=$2 BLOCKS=$3 ITERS=20 JOBS=2 SPMV_ARGS="$4" \
    timeout $((585 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 gen:circuit:n=20000000,deg=5 > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
run c20-methods spac-d16-own,spac-d16,cusparse-csr 16384 "-m spac,default"
run c20-csr csr-d16,cusparse-csr 1024
cd $OUT && tar -czf run20a.tgz run20a && rm -rf run20a
