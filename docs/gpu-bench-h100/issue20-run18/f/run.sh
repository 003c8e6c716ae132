#!/usr/bin/env bash
# Round 18, call f: the gather's cache hints (main at 17e9f6e, bin/c95; the variants' PTX through $SPAC_PTX_DIR,
# from f/v1.patch, v2.patch, v3.patch): v1 the index loads evict-first and the source's loads evict-last, v2 v1 and
# the stores evict-first, v3 the index evict-first and the stores evict-first. csr-d16-rcm on the random-order
# meshes, alternating; spac-d16-ord on the 200^3 mesh once its schedule, partitioned in the background from the
# start, is in the cache.
T0=$SECONDS
mkdir -p bin/new && tar -xzf bin/c95/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run18f; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
M=gen:stencil3d:nx=200,ny=200,nz=200
L=gen:stencil3d:nx=272,ny=272,nz=272
( $S spmv $M -b 1024 --precision fp64 --cpu-iters 1 --quiet --format csv --renumber random > /dev/null 2> $D/part.err
  echo "partitioned rc=$? +$((SECONDS-T0))s" ) &
one() { # label variant input kernels
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  local dir=; [ "$2" = base ] || dir=bin/c96/$2
  SPAC_PTX_DIR=$dir timeout $((590 - (SECONDS-T0))) $S spmv "$3" --gpu -b 1024 --precision fp32,fp64 --kernels "$4" \
    --iters 20 --cpu-iters 1 --format csv --renumber random > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one m200-base1 base $M csr-d16-rcm
one m200-v1 v1 $M csr-d16-rcm
one m200-v2 v2 $M csr-d16-rcm
one m200-v3 v3 $M csr-d16-rcm
one m200-base2 base $M csr-d16-rcm
one m272-base1 base $L csr-d16-rcm
one m272-v2 v2 $L csr-d16-rcm
one m272-v3 v3 $L csr-d16-rcm
wait
one ord-base1 base $M spac-d16-ord
one ord-v2 v2 $M spac-d16-ord
one ord-v3 v3 $M spac-d16-ord
one ord-v1 v1 $M spac-d16-ord
one ord-base2 base $M spac-d16-ord
cd $OUT && tar -czf run18f.tgz run18f && rm -rf run18f
