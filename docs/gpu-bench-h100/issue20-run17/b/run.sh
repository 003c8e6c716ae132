#!/usr/bin/env bash
# stop 41, call b (round 17): the random-order mesh of at least 20M rows (272^3) with spac-d16-ord, the
# committed build (f8330fe), partitioned on this machine at B=1024, against csr-d16-rcm and cuSPARSE's CSR and sliced ELL.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c91/b.tgz -C bin/x
D=$OUT/c91b; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB SPAC_CACHE_DIR=/tmp/cache
M=gen:stencil3d:nx=272,ny=272,nz=272
SPAC=bin/x/gpu/spac KERNELS=spac-d16-ord,csr-d16-rcm,cusparse-sell,cusparse-csr BLOCKS=1024 ITERS=20 JOBS=1 SPMV_ARGS="--renumber random" timeout 580 scripts/gpu-bench.sh $D/mesh272 "$M" > $D/mesh272.out 2>&1
echo "run rc=$? +$((SECONDS-T0))s"
grep -h partitioned $D/mesh272/log.txt
cd $OUT && tar -czf c91b.tgz c91b && rm -rf c91b
