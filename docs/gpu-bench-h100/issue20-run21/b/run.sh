#!/usr/bin/env bash
# Round 21, call b: main's build (421b184, bin/c111) as committed, which no call had run as a whole: the GPU tests of
# apps/spmv; circuit5M and in-2004 at B=1024 with the fp32 early loads (round 20 lost circuit5M's rows); the 20M-row
# circuit's fp32 spac-d16-own and cuSPARSE's CSR three more times, for the spread around the 1.2x line.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c111/b.tgz -C bin/m
D=$OUT/run21b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/m/gpu/spmv.test -test.count=1 -test.v > $D/tests-m.txt 2>&1
 echo "tests (main) rc=$? passed $(grep -c -- '--- PASS' $D/tests-m.txt) failed $(grep -c -- '--- FAIL' $D/tests-m.txt) skipped $(grep -c -- '--- SKIP' $D/tests-m.txt) +$((SECONDS-T0))s")
one() { # label input kernels block precisions
  [ $((SECONDS-T0)) -lt 500 ] || { echo "skip $1"; return; }
  timeout $((585 - (SECONDS-T0))) bin/m/gpu/spac spmv $2 --gpu -b $4 --precision $5 \
    --kernels "$3" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
K=spac-d16-own,spac-d16,csr-d16,cusparse-csr,cusparse-coo
one circuit5M gen:circuit5M $K 1024 fp32,fp64
one in-2004 gen:in-2004 $K 1024 fp32,fp64
C=gen:circuit:n=20000000,deg=5
for i in 1 2 3; do one c20-m$i $C spac-d16-own,cusparse-csr 16384 fp32; done
cd $OUT && tar -czf run21b.tgz run21b && rm -rf run21b
