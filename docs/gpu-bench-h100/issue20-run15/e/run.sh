#!/usr/bin/env bash
# stop 39, call e (an experiment, not committed): the d16 kernels' wide form as a loop over its blocks, the grid
# capped at N blocks an SM (SPAC_D16_WIDE_PER_SM=N; 0: no cap), against 4b46498 (old): in-2004 in a random order
# (spac-d16-own, spac-d16 and csr-d16 run the wide form) and csr-d16 on R-MAT 23; the GPU tests, without and with a cap
T0=$SECONDS
mkdir -p bin/x bin/y && tar -xzf bin/c75/new.tgz -C bin/y && tar -xzf bin/c75/new.tgz -C bin/x && tar -xzf bin/c75/old.tgz -C bin/x
D=$OUT/c75e; mkdir -p $D
(cd apps/spmv && timeout 60 ../../bin/y/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "tests rc=$?"; SPAC_D16_WIDE_PER_SM=1 timeout 60 ../../bin/y/gpu/spmv.test -test.count=1 -test.v > $D/tests-cap1.txt 2>&1; echo "tests (cap 1) rc=$? +$((SECONDS-T0))s")
for f in tests tests-cap1; do echo "$f passed: $(grep -c '^--- PASS' $D/$f.txt) skipped: $(grep -c '^--- SKIP' $D/$f.txt) failed: $(grep -c '^--- FAIL' $D/$f.txt)"; done
R="gen:rmat:scale=23,ef=16"
i=0
for v in old 0 8 4 old 0 8 4; do i=$((i+1))
  b=y; n=$v; [ $v = old ] && { b=x; n=0; }
  SPAC_D16_WIDE_PER_SM=$n KERNELS=spac-d16-own,spac-d16,csr-d16,cusparse-csr BLOCKS=1024 ITERS=30 JOBS=1 SPAC=bin/$b/gpu/spac SPMV_ARGS='--renumber random' SPAC_CACHE_DIR=/tmp/cache-rand timeout 100 scripts/gpu-bench.sh $D/rand$i-$v gen:in-2004 > $D/rand$i-$v.out 2>&1
  echo "random $i ($v) rc=$? +$((SECONDS-T0))s"
  SPAC_D16_WIDE_PER_SM=$n KERNELS=csr-d16,cusparse-csr BLOCKS=1024 ITERS=20 JOBS=1 SPAC=bin/$b/gpu/spac timeout 80 scripts/gpu-bench.sh $D/rcsr$i-$v $R > $D/rcsr$i-$v.out 2>&1
  echo "rmat csr-d16 $i ($v) rc=$? +$((SECONDS-T0))s"
  [ $((SECONDS-T0)) -lt 500 ] || break
done
cd $OUT && tar -czf c75e.tgz c75e && rm -rf c75e
