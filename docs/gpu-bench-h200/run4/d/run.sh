#!/usr/bin/env bash
# H200, stop 48, call d: seg8_sums and seg8_stage sharing their last part (seg8_last_runs; the PTX differs from call
# a's in the order of a few instructions): bin/c119, scripts/gpu-build.sh of that tree, stripped (spac, spmv.test).
# apps/spmv's GPU tests, then in-2004 at B=1024 (csr-d16) and 16384 (spac-d16-own) against cuSPARSE's CSR.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c119/b.tgz -C bin/m
D=$OUT/h200r4d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 100 $OLDPWD/bin/m/gpu/spmv.test -test.count=1 -test.v > $D/tests-spmv.txt 2>&1
 echo "spmv rc=$? passed $(grep -c -- '--- PASS' $D/tests-spmv.txt) failed $(grep -c -- '--- FAIL' $D/tests-spmv.txt) skipped $(grep -c -- '--- SKIP' $D/tests-spmv.txt) +$((SECONDS-T0))s")
for b in 1024:csr-d16 16384:spac-d16-own; do
  timeout $((200 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:in-2004 --gpu -b ${b%%:*} --precision fp32,fp64 \
    --kernels ${b#*:},cusparse-csr --iters 20 --cpu-iters 1 --format csv > $D/in-${b%%:*}.csv 2> $D/in-${b%%:*}.err
  echo "in-2004 B=${b%%:*} rc=$? +$((SECONDS-T0))s"; grep gpu $D/in-${b%%:*}.csv | cut -d, -f5-11
done
cd $OUT && tar -czf h200r4d.tgz h200r4d && rm -rf h200r4d
