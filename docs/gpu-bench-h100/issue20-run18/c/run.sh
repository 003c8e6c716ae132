#!/usr/bin/env bash
# Round 18, call c: main's build at 17e9f6e (bin/c95: y gathered back) on the random-order 272^3 mesh at B=1024,
# spac-d16-ord against csr-d16-rcm and cuSPARSE's CSR and sliced ELL (the partition, some 330 s, runs here).
mkdir -p bin/new && tar -xzf bin/c95/b.tgz -C bin/new
D=$OUT/run18c; mkdir -p $D
SPAC=bin/new/gpu/spac KERNELS=spac-d16-ord,csr-d16-rcm,cusparse-sell,cusparse-csr BLOCKS=1024 ITERS=20 JOBS=1 \
  SPMV_ARGS="--renumber random" timeout 585 scripts/gpu-bench.sh $D/m272 gen:stencil3d:nx=272,ny=272,nz=272 > $D/m272.out 2>&1
echo "rc=$? +${SECONDS}s"
cd $OUT && tar -czf run18c.tgz run18c && rm -rf run18c
