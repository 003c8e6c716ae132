#!/usr/bin/env bash
# issue 20, round 7 (b): beyond the L2: a 3-D mesh of 20.1M rows in a random order, then SPAC's; R-MAT 24 as generated
T0=$SECONDS
tar -xzf bin/c31b/b.tgz -C bin
D=$OUT/r7b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache SPAC_CACHE_MAX_SIZE=40GiB
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((575 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
L="--gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 --budget 3"
run mesh272-random 470 gen:stencil3d:nx=272,ny=272,nz=272 --renumber random --reorder spac --reorder-block-size 1024 $L --kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
run rmat24 200 gen:rmat:scale=24,ef=16 $L --kernels csr-vector,cusparse-csr,cusparse-csr-alg2,cusparse-coo
cd $OUT && tar -czf r7b.tgz r7b && rm -rf r7b
