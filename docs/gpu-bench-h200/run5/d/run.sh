#!/usr/bin/env bash
# H200, stop 49, call d: call c's mesh ran out of time before the SPAC order: the 200^3 mesh numbered at random, as
# given and renumbered by SPAC (B=1024), cuSPARSE's CSR and sliced ELL (its best paths on the other orders).
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c120/b.txz -C bin/m
D=$OUT/h200r5d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
timeout $((290 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:stencil3d:nx=200,ny=200,nz=200 --renumber random --gpu -b 1024 \
  --precision fp32,fp64 --iters 20 --cpu-iters 1 --reorder spac --kernels cusparse-csr,cusparse-sell --format csv \
  > $D/mesh-spac.csv 2> $D/mesh-spac.err; echo "mesh rc=$? +$((SECONDS-T0))s"
tr '\r' '\n' < $D/mesh-spac.err | grep -v '^\s*$' | tail -12 > $D/e; mv $D/e $D/mesh-spac.err; cat $D/mesh-spac.err
cd $OUT && tar -czf h200r5d.tgz h200r5d && rm -rf h200r5d
