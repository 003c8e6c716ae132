#!/usr/bin/env bash
# H200, call e: the question stop 46 asked, aimed at the kernels R-MAT runs. Variant wide16 (wide16.patch): csr-d16's
# and spac-d16's wide kernels (24-bit columns: R-MAT's blocks, the random-order mesh's) asking for 16 resident blocks
# in fp32 (32 registers, no spill) and 12 in fp64 (39-40 registers, 20-32 bytes spilled) instead of 12 and 10.
# Alternating with main's build: R-MAT 23 with csr-d16-hot and the 200^3 mesh in a random order with csr-d16-rcm
# (neither needs a partition), cuSPARSE in every run.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/h200e; mkdir -p $D
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir deadline input kernels [extra]
  [ $((SECONDS-T0)) -lt $3 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((370 - (SECONDS-T0))) bin/m/gpu/spac spmv $4 --gpu -b 1024 --precision fp32,fp64 \
    --kernels $5 --iters 20 --cpu-iters 1 --format csv $6 > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
R23=gen:rmat:scale=23,ef=16
one r23-m1 "" 150 $R23 csr-d16-hot,cusparse-csr
one r23-w1 bin/c117s/wide16 150 $R23 csr-d16-hot,cusparse-csr
one r23-m2 "" 150 $R23 csr-d16-hot,cusparse-csr
one r23-w2 bin/c117s/wide16 150 $R23 csr-d16-hot,cusparse-csr
M=gen:stencil3d:nx=200,ny=200,nz=200
one mesh-m1 "" 300 $M csr-d16-rcm,cusparse-sell "--renumber random"
one mesh-w1 bin/c117s/wide16 300 $M csr-d16-rcm,cusparse-sell "--renumber random"
one mesh-m2 "" 300 $M csr-d16-rcm,cusparse-sell "--renumber random"
one mesh-w2 bin/c117s/wide16 300 $M csr-d16-rcm,cusparse-sell "--renumber random"
cd $OUT && tar -czf h200e.tgz h200e && rm -rf h200e
