#!/usr/bin/env bash
# stop 40, call f (round 16): spac-d16-ord with its parts numbered near each other (reverse Cuthill-McKee over the
# parts' graph) against call e's build (the schedule's part numbering), the same schedules, alternating; the random-
# order 200^3 mesh (B=1024, 16384) and in-2004 in a random order (B=1024); the GPU tests of the new build.
T0=$SECONDS
mkdir -p bin/x bin/o && tar -xzf bin/c85/b.tgz -C bin/x && tar -xzf bin/c85/old.tgz -C bin/o
D=$OUT/c85f; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB SPAC_CACHE_DIR=/tmp/cache
M=gen:stencil3d:nx=200,ny=200,nz=200
part() { # label input blocks
  SPAC=bin/x/gpu/spac KERNELS=spac-d16-ord BLOCKS=$3 ITERS=3 JOBS=1 SPMV_ARGS="--renumber random" timeout 330 scripts/gpu-bench.sh $D/p-$1 "$2" > $D/p-$1.out 2>&1
  echo "partition $1 rc=$? +$((SECONDS-T0))s"
}
part mesh1k $M 1024 &
part mesh16k $M 16384 &
part rand gen:in-2004 1024 &
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head -3; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt) failed: $(grep -c '^--- FAIL' $D/tests.txt)"
wait
grep -h partitioned $D/p-*/log.txt
run() { # label binary input blocks kernels
  [ $((SECONDS-T0)) -lt 500 ] || { echo "skip $1"; return; }
  SPAC=$2 SKIP_PARTITION=1 KERNELS=$5 BLOCKS=$4 ITERS=20 JOBS=1 SPMV_ARGS="--renumber random" timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$3" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
run mesh-new bin/x/gpu/spac $M 1024,16384 spac-d16-ord,csr-d16-rcm,cusparse-csr,cusparse-sell
run mesh-old bin/o/gpu/spac $M 1024,16384 spac-d16-ord,cusparse-sell
run rand-new bin/x/gpu/spac gen:in-2004 1024 spac-d16-ord,spac-d16-own,cusparse-csr
run rand-old bin/o/gpu/spac gen:in-2004 1024 spac-d16-ord,cusparse-csr
run mesh-new2 bin/x/gpu/spac $M 1024,16384 spac-d16-ord,cusparse-sell
cd $OUT && tar -czf c85f.tgz c85f && rm -rf c85f
