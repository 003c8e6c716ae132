#!/usr/bin/env bash
# Round 20, call d. Runs b (the list in shared memory by cp.async) and c (runs of rows) were slower. Here spac-d16's
# kernel loads the list's entries of each thread's first two rows before gathering x, instead of at their stores
# (pf.patch; the same registers, 40 fp32 / 48 fp64, no spills in the narrow form). B: main's build (05298d2);
# P: the build with the change. The GPU tests of apps/spmv run on P's first.
T0=$SECONDS
B=${B:-bin/c99} P=${P:-bin/c102}
mkdir -p bin/new bin/pf && tar -xzf $B/b.tgz -C bin/new && tar -xzf $P/b.tgz -C bin/pf
D=$OUT/run20d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 100 ../../bin/pf/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests (pf) rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
one() { # label variant input kernels block
  [ $((SECONDS-T0)) -lt 380 ] || { echo "skip $1"; return; }
  timeout $((420 - (SECONDS-T0))) bin/$2/gpu/spac spmv $3 --gpu -b $5 --precision fp32,fp64 \
    --kernels "$4" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
one c20-pf1 pf $C spac-d16-own,spac-d16,cusparse-csr 16384
one c20-base new $C spac-d16-own,spac-d16 16384
one c20-pf2 pf $C spac-d16-own,spac-d16 16384
one circuit5M-pf1 pf gen:circuit5M spac-d16-own,spac-d16,cusparse-csr 1024
one circuit5M-base new gen:circuit5M spac-d16-own,spac-d16 1024
one circuit5M-pf2 pf gen:circuit5M spac-d16-own,spac-d16 1024
cd $OUT && tar -czf run20d.tgz run20d && rm -rf run20d
