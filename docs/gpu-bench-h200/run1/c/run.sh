#!/usr/bin/env bash
# H200, call c. (1) R-MAT 23 without a partition: csr-d16-hot (spac-d16-hot's kernel, the best SPAC kernel there on
# the H100) with main's PTX and with occc (occc.patch: csr-d16's and spac-d16's narrow kernels asking for 16
# resident blocks in fp32 and 12 in fp64), alternating, cuSPARSE's paths in every run. (2) The 20M-row circuit with
# csr-d16 at B=1024 (no partition). (3) The 200^3 mesh in a random order at B=1024 (partitioned here): spac-d16-ord,
# csr-d16-rcm and cuSPARSE's paths.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/h200c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir deadline input blocks kernels [extra]
  [ $((SECONDS-T0)) -lt $3 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((585 - (SECONDS-T0))) bin/m/gpu/spac spmv $4 --gpu -b $5 --precision fp32,fp64 \
    --kernels $6 --iters 20 --cpu-iters 1 --format csv $7 > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
R23=gen:rmat:scale=23,ef=16
K=csr-d16-hot,cusparse-csr,cusparse-coo
one r23-m1 "" 300 $R23 1024 $K
one r23-v1 bin/c117s/occc 300 $R23 1024 $K
one r23-m2 "" 300 $R23 1024 $K
one r23-v2 bin/c117s/occc 300 $R23 1024 $K
one c20-csr "" 420 gen:circuit:n=20000000,deg=5 1024 csr-d16,cusparse-csr,cusparse-coo
one mesh "" 430 gen:stencil3d:nx=200,ny=200,nz=200 1024 spac-d16-ord,csr-d16-rcm,cusparse-csr,cusparse-coo,cusparse-sell "--renumber random"
cd $OUT && tar -czf h200c.tgz h200c && rm -rf h200c
