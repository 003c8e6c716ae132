#!/usr/bin/env bash
# Round 21, call d (call c again; in c its build did not list the two early fp32 entries among the
# module's, so they failed to load: 12 GPU tests failed and the 20M-row circuit's fp32 rows did not run; the
# stand-ins ran the stores' form). Build bin/c114, the entries listed. The GPU tests of apps/spmv, then the 20M-row
# circuit with the host's pick, and its fp32 once more.
T0=$SECONDS
mkdir -p bin/e && tar -xzf bin/c114/b.tgz -C bin/e
D=$OUT/run21d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/e/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
one() { # label input kernels block precisions
  [ $((SECONDS-T0)) -lt 500 ] || { echo "skip $1"; return; }
  timeout $((585 - (SECONDS-T0))) bin/e/gpu/spac spmv $2 --gpu -b $4 --precision $5 \
    --kernels "$3" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
one c20 $C spac-d16-own,spac-d16,cusparse-csr 16384 fp32,fp64
one c20-again $C spac-d16-own,cusparse-csr 16384 fp32
cd $OUT && tar -czf run21d.tgz run21d && rm -rf run21d
