#!/usr/bin/env bash
# H200, stop 48, call c: the build of call a (bin/c118, lean256): circuit5M at B=4096 and 16384 (spac-d16-own,
# cuSPARSE's CSR and COO), then the 200^3 mesh in a random order at B=1024 (spac-d16-ord, csr-d16-rcm and cuSPARSE's
# paths; both kernels are csr-d16's narrow form on their orders).
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c118/b.tgz -C bin/m
D=$OUT/h200r4c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label deadline input blocks kernels [extra]
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1"; return; }
  timeout $((430 - (SECONDS-T0))) bin/m/gpu/spac spmv $3 --gpu -b $4 --precision fp32,fp64 --kernels $5 \
    --iters 20 --cpu-iters 1 --format csv $6 > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one c5-16k 150 gen:circuit5M 16384 spac-d16-own,cusparse-csr,cusparse-coo
one c5-4k 200 gen:circuit5M 4096 spac-d16-own,cusparse-csr,cusparse-coo
one mesh 260 gen:stencil3d:nx=200,ny=200,nz=200 1024 spac-d16-ord,csr-d16-rcm,cusparse-csr,cusparse-coo,cusparse-sell "--renumber random"
cd $OUT && tar -czf h200r4c.tgz h200r4c && rm -rf h200r4c
