#!/usr/bin/env bash
# Prepared at stop 42 on branch exp/xmap, not yet run. csr-d16-rcm and spac-d16-ord read x through their column
# order inside the kernel ($SPAC_XMAP=1: the csr_d16_xmap kernels) instead of gathering it into that order first
# (main's), alternating, on the random-order 200^3 and 272^3 meshes (b/run.sh: the 20M-row circuit). The GPU tests
# under both switches ($SPAC_XMAP, $SPAC_ROWS16) first. Build here: git checkout exp/xmap && scripts/gpu-build.sh; pack stripped
# bin/gpu/{spac,spmv.test,lib} into bin/cNN/b.tgz and the branch's apps/spmv into bin/cNN/src.tgz; carry bin/cNN.
T0=$SECONDS
B=${B:-bin/c97}
tar -xzf $B/src.tgz   # the branch's apps/spmv, so that the tests read the sources the binary was built from
mkdir -p bin/x && tar -xzf $B/b.tgz -C bin/x
D=$OUT/run19a; mkdir -p $D
(cd apps/spmv && SPAC_XMAP=1 SPAC_ROWS16=1 timeout 120 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests-exp.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests-exp.txt) failed $(grep -c -- '--- FAIL' $D/tests-exp.txt) +$((SECONDS-T0))s")
run() { # label switches input kernels blocks [more spmv args]
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  env $2 SPAC=bin/x/gpu/spac KERNELS=$4 BLOCKS=$5 ITERS=20 JOBS=1 SPMV_ARGS="$6" \
    timeout $((585 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$3" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
M=gen:stencil3d:nx=200,ny=200,nz=200
L=gen:stencil3d:nx=272,ny=272,nz=272
run m200-gather SPAC_XMAP= $M spac-d16-ord,csr-d16-rcm 1024 "--renumber random"
run m200-xmap SPAC_XMAP=1 $M spac-d16-ord,csr-d16-rcm 1024 "--renumber random"
run m200-gather2 SPAC_XMAP= $M spac-d16-ord,csr-d16-rcm 1024 "--renumber random"
run m272-gather SPAC_XMAP= $L csr-d16-rcm 1024 "--renumber random"
run m272-xmap SPAC_XMAP=1 $L csr-d16-rcm 1024 "--renumber random"
cd $OUT && tar -czf run19a.tgz run19a && rm -rf run19a
