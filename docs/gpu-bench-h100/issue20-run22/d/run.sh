#!/usr/bin/env bash
# Round 22, call d: the committed build (bin/c116: the early fp32 kernel at 16 resident blocks, narrow formats only).
# The GPU tests of apps/spmv, then the 20M-row circuit at B=16384, both precisions, spac-d16-own, spac-d16 and
# cuSPARSE's CSR in one run (the report's rows).
T0=$SECONDS
mkdir -p bin/f && tar -xzf bin/c116/b.tgz -C bin/f
D=$OUT/run22d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 120 ../../bin/f/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
timeout $((380 - (SECONDS-T0))) bin/f/gpu/spac spmv gen:circuit:n=20000000,deg=5 --gpu -b 16384 --precision fp32,fp64 \
  --kernels spac-d16-own,spac-d16,cusparse-csr --iters 20 --cpu-iters 1 --format csv > $D/c20.csv 2> $D/c20.err
echo "c20 rc=$? +$((SECONDS-T0))s"
grep -E 'spac-d16|cusparse' $D/c20.csv | awk -F, '{printf "%s %s %s %s\n", $8, $6, $11, $23}'
cd $OUT && tar -czf run22d.tgz run22d && rm -rf run22d
