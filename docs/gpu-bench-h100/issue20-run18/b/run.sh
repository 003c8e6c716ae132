#!/usr/bin/env bash
# Round 18, call b: y gathered back instead of scattered (main's build, bin/c95) against the scatter (the
# exp/permute build, bin/c94, SPAC_MOVE=scatter: main's kernels before), alternating, on the random-order 200^3
# mesh at B=1024; the schedule is made once (the first run) and read from the cache by the others. The GPU tests
# of apps/spmv first.
T0=$SECONDS
mkdir -p bin/new bin/old && tar -xzf bin/c95/b.tgz -C bin/new && tar -xzf bin/c94/b.tgz -C bin/old
D=$OUT/run18b; mkdir -p $D
(cd apps/spmv && timeout 120 ../../bin/new/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
run() { # label build input kernels
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  SPAC_MOVE=scatter SPAC=bin/$2/gpu/spac KERNELS=$4 BLOCKS=1024 ITERS=20 JOBS=1 SPMV_ARGS="--renumber random" \
    timeout $((590 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$3" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
M=gen:stencil3d:nx=200,ny=200,nz=200
run m200-new1 new $M spac-d16-ord,csr-d16-rcm,cusparse-sell,cusparse-csr
run m200-old1 old $M spac-d16-ord,csr-d16-rcm
run m200-new2 new $M spac-d16-ord,csr-d16-rcm
run m200-old2 old $M spac-d16-ord,csr-d16-rcm
run m200-new3 new $M spac-d16-ord,csr-d16-rcm,cusparse-sell
cd $OUT && tar -czf run18b.tgz run18b && rm -rf run18b
