#!/usr/bin/env bash
# stop 40, call e (round 16): spac-d16-ord (csr-d16 over the matrix numbered in the SPAC schedule's order, x gathered
# and y scattered each product): the GPU tests, then the random-order 200^3 mesh (B=1024, 16384), in-2004 in a random
# order (B=1024), circuit5M and the 20M-row circuit (B=16384), against spac-d16-own, csr-d16-rcm and cuSPARSE.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c84/b.tgz -C bin/x
D=$OUT/c84e; mkdir -p $D
export SPAC=bin/x/gpu/spac SPAC_CACHE_MAX_SIZE=48GiB SPAC_CACHE_DIR=/tmp/cache
M=gen:stencil3d:nx=200,ny=200,nz=200
C='gen:circuit:n=20000000,deg=5'
R=random
part() { # label input blocks [spmv args]
  KERNELS=spac-d16-ord BLOCKS=$3 ITERS=3 JOBS=1 SPMV_ARGS="$4" timeout 330 scripts/gpu-bench.sh $D/p-$1 "$2" > $D/p-$1.out 2>&1
  echo "partition $1 rc=$? +$((SECONDS-T0))s"
}
part mesh1k $M 1024 "--renumber random" &
part mesh16k $M 16384 "--renumber random" &
part rand gen:in-2004 1024 "--renumber random" &
part c5 gen:circuit5M 16384 &
part big "$C" 16384 &
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head -3; grep -E -m5 "_test.go:[0-9]+:.*(off|wrong|fail)" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt) failed: $(grep -c '^--- FAIL' $D/tests.txt)"
wait
grep -h partitioned $D/p-*/log.txt
run() { # label input blocks kernels [spmv args]
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  SKIP_PARTITION=1 KERNELS=$4 BLOCKS=$3 ITERS=20 JOBS=1 SPMV_ARGS="$5" timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$2" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
K=spac-d16-ord,spac-d16-own,csr-d16-rcm,cusparse-csr,cusparse-sell
run mesh $M 1024,16384 $K "--renumber random"
run rand gen:in-2004 1024 $K "--renumber random"
run c5 gen:circuit5M 16384 spac-d16-ord,spac-d16-own,cusparse-csr
run big "$C" 16384 spac-d16-ord,spac-d16-own,cusparse-csr
cd $OUT && tar -czf c84e.tgz c84e && rm -rf c84e
