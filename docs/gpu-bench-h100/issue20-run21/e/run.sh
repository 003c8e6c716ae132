#!/usr/bin/env bash
# Round 21, call e: does the L2 rule (d16EarlyRows) pick well on a second input beyond the L2? The 200^3 3-D mesh
# in a random order (8M rows, 55.8M nonzeros; x and y 64 MB in fp32), B=1024, fp32: the committed build (bin/c114,
# whose host picks the early form there) against the same build with late.patch's PTX through $SPAC_PTX_DIR (the
# early entries instantiated with the stores' form), alternating.
T0=$SECONDS
mkdir -p bin/e && tar -xzf bin/c114/b.tgz -C bin/e
D=$OUT/run21e; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir
  [ $((SECONDS-T0)) -lt 330 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((420 - (SECONDS-T0))) bin/e/gpu/spac spmv gen:stencil3d:nx=200,ny=200,nz=200 --renumber random --gpu \
    -b 1024 --precision fp32 --kernels spac-d16-own,spac-d16,cusparse-csr --iters 20 --cpu-iters 1 --format csv \
    > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one early1 ""
one late1 bin/c114/late
one early2 ""
one late2 bin/c114/late
cd $OUT && tar -czf run21e.tgz run21e && rm -rf run21e
