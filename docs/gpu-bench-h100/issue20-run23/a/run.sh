#!/usr/bin/env bash
# Prepared in stop 46, not run (the device budget was spent). Round 15's counters put spac-d16-own's occupancy on
# R-MAT 23 at 57% against cuSPARSE's 71%; round 22 found the early fp32 kernel 3.9% faster on the 20M-row circuit at
# 16 resident blocks. Does R-MAT, whose gathers of x wait on DRAM, gain from more warps too? csr-d16-hot runs
# csr-d16's narrow kernel on R-MAT without a partition (spac-d16-hot, the best SPAC kernel there, runs the same kernel
# after a 486 s partition), so it asks the question cheaply. Variant occc (issue20-run22/c/occc.patch, applied to
# main's spmv.cu, its PTX in bin/cNNN/occc/): csr-d16's and spac-d16's narrow kernels at 16 blocks in fp32 (32
# registers, 20 bytes spilled) and 12 in fp64 (40, 32 bytes spilled), alternating with main's build.
T0=$SECONDS
B=${BUILD:-bin/c116}
mkdir -p bin/m && tar -xzf $B/b.tgz -C bin/m
D=$OUT/run23a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir
  [ $((SECONDS-T0)) -lt 480 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((580 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:rmat:scale=23,ef=16 --gpu -b 1024 \
    --precision fp32,fp64 --kernels csr-d16-hot,cusparse-csr --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one m1 ""
one v1 $B/occc
one m2 ""
one v2 $B/occc
cd $OUT && tar -czf run23a.tgz run23a && rm -rf run23a
