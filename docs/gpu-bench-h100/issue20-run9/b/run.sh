#!/usr/bin/env bash
# issue 20, round 9 (b): the 3-D mesh of 20.1M rows in a random order, as given (no renumbering): csr-d16's wide form against cuSPARSE's paths
T0=$SECONDS
[ -x bin/x/gpu/spac ] || { mkdir -p bin/x && tar -xzf bin/c36/b.tgz -C bin/x; }
D=$OUT/r9b; mkdir -p $D
timeout 560 bin/x/gpu/spac spmv gen:stencil3d:nx=272,ny=272,nz=272 --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --budget 3 --kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell --format json > $D/mesh272-random.jsonl 2> $D/mesh272-random.err
echo "rc=$? +$((SECONDS-T0))s"; tail -3 $D/mesh272-random.err
cd $OUT && tar -czf r9b.tgz r9b && rm -rf r9b
