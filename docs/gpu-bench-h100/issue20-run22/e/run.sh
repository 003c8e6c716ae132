#!/usr/bin/env bash
# Round 22, call e: where x and y fit the L2 (circuit5M, in-2004) spac-d16 runs the stores' form (the early one, at
# 12 blocks, was 3-7% slower in round 21). Would the early form at 16 blocks win there too? e16all (PTX through
# $SPAC_PTX_DIR): spmv_spac_d16_f32 built as the early kernel at 16 resident blocks. fp32, B=1024, alternating with
# the committed build (bin/c116).
T0=$SECONDS
mkdir -p bin/f && tar -xzf bin/c116/b.tgz -C bin/f
D=$OUT/run22e; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir input
  [ $((SECONDS-T0)) -lt 150 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((185 - (SECONDS-T0))) bin/f/gpu/spac spmv $3 --gpu -b 1024 --precision fp32 \
    --kernels spac-d16-own,spac-d16 --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s $(grep -h -E 'spac-d16' $D/$1.csv | awk -F, '{printf "%s %s %s  ", $7, $10, $22}')"
}
one c5-f1 "" gen:circuit5M
one c5-e1 bin/c116/e16all gen:circuit5M
one c5-f2 "" gen:circuit5M
one c5-e2 bin/c116/e16all gen:circuit5M
one w-f1 "" gen:in-2004
one w-e1 bin/c116/e16all gen:in-2004
one w-f2 "" gen:in-2004
one w-e2 bin/c116/e16all gen:in-2004
cd $OUT && tar -czf run22e.tgz run22e && rm -rf run22e
