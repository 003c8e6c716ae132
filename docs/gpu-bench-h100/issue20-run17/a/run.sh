#!/usr/bin/env bash
# stop 41, call a (round 17): csr-d16-rcm and spac-d16-ord storing each row straight into y through their order
# (spac-d16's row map: fused.patch) instead of into a y of their own scattered back by a launch of its own; against
# the committed build (f8330fe, bin/o) and the fused build without L2 hints (nohint.patch's PTX through SPAC_PTX_DIR),
# the same schedule, alternating; the random-order 200^3 mesh at B=1024; the GPU tests of the fused build.
T0=$SECONDS
mkdir -p bin/x bin/o && tar -xzf bin/c90/b.tgz -C bin/x && tar -xzf bin/c90/old.tgz -C bin/o && cp -r bin/x/gpu/lib bin/o/gpu/
D=$OUT/c90a; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB SPAC_CACHE_DIR=/tmp/cache
M=gen:stencil3d:nx=200,ny=200,nz=200
( SPAC=bin/x/gpu/spac KERNELS=spac-d16-ord BLOCKS=1024 ITERS=3 JOBS=1 SPMV_ARGS="--renumber random" timeout 330 scripts/gpu-bench.sh $D/p-mesh "$M" > $D/p-mesh.out 2>&1; echo "partition rc=$? +$((SECONDS-T0))s" ) &
(cd apps/spmv && timeout 230 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head -3; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt) failed: $(grep -c '^--- FAIL' $D/tests.txt)"
wait
grep -h partitioned $D/p-mesh/log.txt
run() { # label binary kernels [ptxdir]
  [ $((SECONDS-T0)) -lt 480 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$4 SPAC=$2 SKIP_PARTITION=1 KERNELS=$3 BLOCKS=1024 ITERS=20 JOBS=1 SPMV_ARGS="--renumber random" timeout $((570 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$M" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
run new bin/x/gpu/spac spac-d16-ord,csr-d16-rcm,cusparse-sell
run old bin/o/gpu/spac spac-d16-ord,csr-d16-rcm
run nohint bin/x/gpu/spac spac-d16-ord,csr-d16-rcm $PWD/bin/c90/nohint
run new2 bin/x/gpu/spac spac-d16-ord,csr-d16-rcm
run old2 bin/o/gpu/spac spac-d16-ord,csr-d16-rcm
cd $OUT && tar -czf c90a.tgz c90a && rm -rf c90a
