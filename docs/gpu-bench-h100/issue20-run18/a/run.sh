#!/usr/bin/env bash
# Round 18, call a: ran the build of branch exp/permute at 219244b (not in main; main keeps its "gather" way, without $SPAC_MOVE).
# ($SPAC_MOVE: scatter = main's, gather, tiles-y, tiles), alternating, on the random-order meshes (no partition
# needed), and the GPU tests under each way. Build here: git checkout exp/permute && scripts/gpu-build.sh; pack
# bin/gpu/{spac,spmv.test,lib} stripped into bin/cNN/b.tgz; run with carry ["bin/cNN"] and this script's path.
T0=$SECONDS
B=${B:-bin/c94}
tar -xzf $B/src.tgz   # the branch's apps/spmv over main's, so the tests read the sources the binary was built from
mkdir -p bin/x && tar -xzf $B/b.tgz -C bin/x
D=$OUT/run18a; mkdir -p $D
for way in tiles gather; do
  (cd apps/spmv && SPAC_MOVE=$way timeout 120 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests-$way.txt 2>&1
   echo "tests $way rc=$? passed $(grep -c '^--- PASS' $D/tests-$way.txt) failed $(grep -c '^--- FAIL' $D/tests-$way.txt) +$((SECONDS-T0))s")
done
run() { # label way input kernels
  [ $((SECONDS-T0)) -lt 500 ] || { echo "skip $1"; return; }
  SPAC_MOVE=$2 SPAC=bin/x/gpu/spac KERNELS=$4 BLOCKS=1024 ITERS=20 JOBS=1 SPMV_ARGS="--renumber random" \
    timeout $((580 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$3" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
M=gen:stencil3d:nx=200,ny=200,nz=200
L=gen:stencil3d:nx=272,ny=272,nz=272
run m200-scatter scatter $M csr-d16-rcm,cusparse-sell
run m200-tiles tiles $M csr-d16-rcm
run m200-gather gather $M csr-d16-rcm
run m200-tilesy tiles-y $M csr-d16-rcm
run m200-scatter2 scatter $M csr-d16-rcm
run m272-scatter scatter $L csr-d16-rcm
run m272-tiles tiles $L csr-d16-rcm
run m272-gather gather $L csr-d16-rcm
cd $OUT && tar -czf run18a.tgz run18a && rm -rf run18a
