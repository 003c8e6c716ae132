#!/usr/bin/env bash
# stop 40, call b (round 16): the fraction of x marked L2::evict_last (x2 0.5, x3 0.25, x4 0.75), y's stores
# st.global.cs (y1), the row map read st .cs (r1); PTX from SPAC_PTX_DIR over the committed build ("emb").
# Then the y-order diagnostic (y.tgz: SPAC_D16_YIDENT=1 stores y in the schedule's row order, a wrong product).
T0=$SECONDS
mkdir -p bin/x bin/y && tar -xzf bin/c81/b.tgz -C bin/x && tar -xzf bin/c81/y.tgz -C bin/y
D=$OUT/c81b; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB
left() { echo $((575 - (SECONDS-T0))); }
( SPAC=bin/x/gpu/spac KERNELS=spac-d16-own BLOCKS=16384 ITERS=5 JOBS=1 SPAC_CACHE_DIR=/tmp/cc5 timeout 200 scripts/gpu-bench.sh $D/p-c5 gen:circuit5M > $D/p-c5.out 2>&1; echo "p-c5 rc=$? +$((SECONDS-T0))s" ) &
( SPAC=bin/x/gpu/spac KERNELS=spac-d16-own BLOCKS=1024 ITERS=5 JOBS=1 SPAC_CACHE_DIR=/tmp/cmesh SPMV_ARGS='--renumber random' timeout 250 scripts/gpu-bench.sh $D/p-mesh gen:stencil3d:nx=200,ny=200,nz=200 > $D/p-mesh.out 2>&1; echo "p-mesh rc=$? +$((SECONDS-T0))s" ) > $D/p-mesh.log 2>&1 &
MESH=$!
wait %1
c5() { # variant label, ptx dir, binary
  SPAC=$3 SPAC_PTX_DIR=$2 SKIP_PARTITION=1 KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=30 JOBS=1 SPAC_CACHE_DIR=/tmp/cc5 timeout 90 scripts/gpu-bench.sh $D/c5-$1 gen:circuit5M > $D/c5-$1.out 2>&1
  echo "c5 $1 rc=$? +$((SECONDS-T0))s"
}
i=0
for v in emb x2y1 x3y1 x4y1 x2y1r1 x2y0 emb x2y1 x4y1 x2y1r1; do i=$((i+1))
  [ "$(left)" -gt 200 ] || break
  P=""; [ $v != emb ] && P=bin/c81/$v
  c5 $i-$v "$P" bin/x/gpu/spac
done
for v in 0 1 0 1; do i=$((i+1))
  [ "$(left)" -gt 150 ] || break
  SPAC_D16_YIDENT=$v c5 $i-yid$v "" bin/y/gpu/spac
done
wait $MESH; cat $D/p-mesh.log
for v in emb x2y1 x4y1 emb x2y1; do i=$((i+1))
  [ "$(left)" -gt 45 ] || break
  P=""; [ $v != emb ] && P=bin/c81/$v
  SPAC=bin/x/gpu/spac SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,cusparse-csr BLOCKS=1024 ITERS=20 JOBS=1 SPAC_CACHE_DIR=/tmp/cmesh SPMV_ARGS='--renumber random' timeout 60 scripts/gpu-bench.sh $D/mesh-$i-$v gen:stencil3d:nx=200,ny=200,nz=200 > $D/mesh-$i-$v.out 2>&1
  echo "mesh $i $v rc=$? +$((SECONDS-T0))s"
done
cd $OUT && tar -czf c81b.tgz c81b && rm -rf c81b
