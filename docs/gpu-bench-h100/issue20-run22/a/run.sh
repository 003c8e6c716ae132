#!/usr/bin/env bash
# Round 22, call a. The 20M-row circuit's fp32 spac-d16-own (the early form, d16EarlyRows) is at 1.194-1.202x of
# cuSPARSE's CSR. The early kernels mark a quarter of x's lines evict-last, the fraction tuned on circuit5M (x and y
# fit the L2). PTX variants of the committed build (bin/c114) through $SPAC_PTX_DIR, the early fp32 entries only:
#   f50, f12, f100: half, an eighth, all of x's lines evict-last;  fnone: an evict_normal policy (no priority);
#   lcs: the two early row-list entries loaded evict-first (ld.global.cs) instead of through the non-coherent path.
# Alternating, fp32, B=16384, each input partitioned once (the schedule cache).
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c114/b.tgz -C bin/m
D=$OUT/run22a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((590 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:circuit:n=20000000,deg=5 --gpu -b 16384 \
    --precision fp32 --kernels spac-d16-own,cusparse-csr --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s $(grep -h -E 'spac-d16-own|cusparse-csr' $D/$1.csv | awk -F, '{printf "%s %s  ", $8, $11}')"
}
one m1 ""
for v in f50 f12 f100 fnone lcs; do one ${v}1 bin/c114/$v; done
one m2 ""
for v in f50 f12 f100 fnone lcs; do one ${v}2 bin/c114/$v; done
one m3 ""
cd $OUT && tar -czf run22a.tgz run22a && rm -rf run22a
