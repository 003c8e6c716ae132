#!/usr/bin/env bash
# issue 20, round 5c: SPAC's kernels on SPAC-renumbered data (--renumber random,spac), inputs beyond the L2 as they may come
T0=$SECONDS
tar -xzf bin/c20x/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r5c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache SPAC_CACHE_MAX_SIZE=40GiB
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p $SPAC_CACHE_DIR; ls $SPAC_CACHE_DIR | wc -l > $D/cache-entries.txt
K=cusparse-csr,cusparse-csr-alg2,cusparse-coo,spac-seg8,spac-seg8-pf,spac-seg
timeout 280 $S spmv gen:circuit:n=7000000,deg=5 --renumber random,spac --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels $K --format json > $D/circuit7M-random-spac.jsonl 2> $D/circuit7M-random-spac.err; echo "circuit7M rc=$? +$((SECONDS-T0))s"
l=$((560 - (SECONDS-T0)))
timeout $l $S spmv gen:stencil3d:nx=200,ny=200,nz=200 --renumber random,spac --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels $K --format json > $D/stencil200-random-spac.jsonl 2> $D/stencil200-random-spac.err; echo "stencil rc=$? +$((SECONDS-T0))s"
cd $OUT && tar -czf r5c.tgz r5c && rm -rf r5c
