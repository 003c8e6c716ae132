#!/usr/bin/env bash
# issue 20, round 5b: inputs beyond the L2 in a random order (a matrix as it may come): SPAC's kernels and cuSPARSE, and cuSPARSE on the SPAC and RCM orders
T0=$SECONDS
tar -xzf bin/c20x/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r5b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache SPAC_CACHE_MAX_SIZE=40GiB
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p $SPAC_CACHE_DIR
K=cusparse-csr,cusparse-csr-alg2,cusparse-coo,spac-seg8,spac-seg8-pf,spac-seg
timeout 300 $S spmv gen:circuit:n=7000000,deg=5 --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --reorder spac,rcm --kernels $K --format json > $D/circuit7M-random.jsonl 2> $D/circuit7M-random.err; echo "circuit7M random rc=$? +$((SECONDS-T0))s"
l=$((540 - (SECONDS-T0)))
timeout $l $S spmv gen:stencil3d:nx=200,ny=200,nz=200 --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --reorder spac --kernels $K --format json > $D/stencil200-random.jsonl 2> $D/stencil200-random.err; echo "stencil random rc=$? +$((SECONDS-T0))s"
cd $OUT && tar -czf r5b.tgz r5b && rm -rf r5b
