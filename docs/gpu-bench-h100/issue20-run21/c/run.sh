#!/usr/bin/env bash
# Round 21, call c: spac-d16's fp32 kernels in two forms, the row list's first entries loaded early (round 20's, for
# x and y beyond the L2: the 20M-row circuit) and at the stores (before round 20: faster on circuit5M and in-2004,
# call b); the host picks by x and y's size against the L2 (d16EarlyRows). Build bin/c113. The GPU tests of
# apps/spmv (both fp32 forms on every schedule), then each input with the host's pick.
T0=$SECONDS
mkdir -p bin/e && tar -xzf bin/c113/b.tgz -C bin/e
D=$OUT/run21c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/e/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
one() { # label input kernels block precisions
  [ $((SECONDS-T0)) -lt 500 ] || { echo "skip $1"; return; }
  timeout $((585 - (SECONDS-T0))) bin/e/gpu/spac spmv $2 --gpu -b $4 --precision $5 \
    --kernels "$3" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one circuit5M gen:circuit5M spac-d16-own,spac-d16,cusparse-csr 1024 fp32,fp64
one in-2004 gen:in-2004 spac-d16-own,spac-d16,cusparse-csr 1024 fp32,fp64
one c20 gen:circuit:n=20000000,deg=5 spac-d16-own,spac-d16,cusparse-csr 16384 fp32,fp64
cd $OUT && tar -czf run21c.tgz run21c && rm -rf run21c
