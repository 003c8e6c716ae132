#!/usr/bin/env bash
# H200, stop 48, call a: the committed build with lean256 (bin/c118: scripts/gpu-build.sh of the working tree with
# run3/lean256.patch applied and its PTX embedded, stripped; spac, spmv.test, cg.test): the GPU tests of apps/spmv
# and apps/cg, then the 20M-row circuit beyond the L2 (B=16384: spac-d16-own, its fp32 kernel the early form;
# cuSPARSE's CSR and COO), csr-d16 at B=1024, and the B=16384 run again from the cached schedule.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c118/b.tgz -C bin/m
D=$OUT/h200r4a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
for t in spmv:apps/spmv cg:apps/cg; do
  name=${t%%:*}; dir=${t#*:}
  (cd $dir && timeout 150 $OLDPWD/bin/m/gpu/$name.test -test.count=1 -test.v > $D/tests-$name.txt 2>&1
   echo "$name rc=$? passed $(grep -c -- '--- PASS' $D/tests-$name.txt) failed $(grep -c -- '--- FAIL' $D/tests-$name.txt) skipped $(grep -c -- '--- SKIP' $D/tests-$name.txt) +$((SECONDS-T0))s")
done
C20=gen:circuit:n=20000000,deg=5
one() { # label deadline blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1"; return; }
  timeout $((560 - (SECONDS-T0))) bin/m/gpu/spac spmv $C20 --gpu -b $3 --precision fp32,fp64 --kernels $4 \
    --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one c20-own1 400 16384 spac-d16-own,cusparse-csr,cusparse-coo
one c20-csr 470 1024 csr-d16,cusparse-csr,cusparse-coo
one c20-own2 490 16384 spac-d16-own,cusparse-csr,cusparse-coo
for f in $D/c20-*.csv; do echo "== $f"; cut -d, -f6-12 $f | head -12; done
cd $OUT && tar -czf h200r4a.tgz h200r4a && rm -rf h200r4a
