#!/usr/bin/env bash
# stop 40, call a (round 16): L2 eviction hints in csr_d16 (csr-d16, spac-d16, spac-d16-own), loaded from
# SPAC_PTX_DIR over the committed build: x's gathers L2::evict_last (x1: all of x, x2: half), y's plain stores
# st.global.cs (y1). "emb" is the committed PTX. The same schedules (one cache), variants alternated.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c80/b.tgz -C bin/x
D=$OUT/c80a; mkdir -p $D
export SPAC=bin/x/gpu/spac SPAC_CACHE_MAX_SIZE=48GiB
left() { echo $((575 - (SECONDS-T0))); }
# Partitions first, side by side (circuit5M B=16384, in-2004 random B=1024, mac_econ B=4096, random 200^3 mesh B=1024).
( KERNELS=spac-d16-own BLOCKS=16384 ITERS=5 JOBS=1 SPAC_CACHE_DIR=/tmp/cc5 timeout 200 scripts/gpu-bench.sh $D/p-c5 gen:circuit5M > $D/p-c5.out 2>&1; echo "p-c5 rc=$? +$((SECONDS-T0))s" ) &
( KERNELS=spac-d16-own BLOCKS=1024 ITERS=5 JOBS=1 SPAC_CACHE_DIR=/tmp/crand SPMV_ARGS='--renumber random' timeout 200 scripts/gpu-bench.sh $D/p-rand gen:in-2004 > $D/p-rand.out 2>&1; echo "p-rand rc=$? +$((SECONDS-T0))s" ) &
( KERNELS=spac-d16-own BLOCKS=4096 ITERS=5 JOBS=1 SPAC_CACHE_DIR=/tmp/cmac timeout 200 scripts/gpu-bench.sh $D/p-mac gen:mac_econ_fwd500 > $D/p-mac.out 2>&1; echo "p-mac rc=$? +$((SECONDS-T0))s" ) &
( KERNELS=spac-d16-own,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo BLOCKS=1024 ITERS=20 JOBS=1 SPAC_CACHE_DIR=/tmp/cmesh SPMV_ARGS='--renumber random' timeout 400 scripts/gpu-bench.sh $D/mesh gen:stencil3d:nx=200,ny=200,nz=200 > $D/mesh.out 2>&1; echo "mesh rc=$? +$((SECONDS-T0))s" ) > $D/mesh.log 2>&1 &
MESH=$!
wait %1 %2 %3
echo "partitions done +$((SECONDS-T0))s"
wait $MESH; cat $D/mesh.log
i=0
for v in emb x0y1 x1y0 x1y1 x2y1 emb x1y1; do i=$((i+1))
  [ "$(left)" -gt 60 ] || break
  P=""; [ $v != emb ] && P=bin/c80/$v
  SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,cusparse-csr,cusparse-coo BLOCKS=16384 ITERS=30 JOBS=1 SPAC_CACHE_DIR=/tmp/cc5 timeout 90 scripts/gpu-bench.sh $D/c5-$i-$v gen:circuit5M > $D/c5-$i-$v.out 2>&1
  echo "c5 $i $v rc=$? +$((SECONDS-T0))s"
  [ "$(left)" -gt 40 ] || break
  SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,csr-d16,cusparse-csr BLOCKS=1024 ITERS=30 JOBS=1 SPAC_CACHE_DIR=/tmp/crand SPMV_ARGS='--renumber random' timeout 60 scripts/gpu-bench.sh $D/rand-$i-$v gen:in-2004 > $D/rand-$i-$v.out 2>&1
  echo "rand $i $v rc=$? +$((SECONDS-T0))s"
  [ "$(left)" -gt 30 ] || break
  SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,cusparse-csr,cusparse-coo BLOCKS=4096 ITERS=50 JOBS=1 SPAC_CACHE_DIR=/tmp/cmac timeout 40 scripts/gpu-bench.sh $D/mac-$i-$v gen:mac_econ_fwd500 > $D/mac-$i-$v.out 2>&1
  echo "mac $i $v rc=$? +$((SECONDS-T0))s"
done
cd $OUT && tar -czf c80a.tgz c80a && rm -rf c80a
