#!/usr/bin/env bash
# stop 39, call d: the d16 kernels' wide form at more resident blocks (fp32 16 blocks of 128 threads: 32 registers;
# fp64 12: 40 registers, 20 bytes spilled) against 4b46498 (10 and 12 blocks), alternating old/new/old/new:
# in-2004 in a random order (B=1024, 16384), csr-d16 on R-MAT 23 (no partition), and, in the background, R-MAT 23
# at B=16384 with spac-d16-own (partitioned here first); the GPU tests on new
T0=$SECONDS
mkdir -p bin/x bin/y && tar -xzf bin/c74/new.tgz -C bin/y && tar -xzf bin/c74/new.tgz -C bin/x && tar -xzf bin/c74/old.tgz -C bin/x
D=$OUT/c74d; mkdir -p $D
R="gen:rmat:scale=23,ef=16"
( i=0
  # the partition (old binary; the schedule is the same for both)
  KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=20 JOBS=1 SPAC=bin/x/gpu/spac SPAC_CACHE_DIR=/tmp/cache-rmat DEADLINE=500 GRACE=20 timeout 520 scripts/gpu-bench.sh $D/rmat1-x $R > $D/rmat1-x.out 2>&1
  echo "rmat 1 (x) rc=$? +$((SECONDS-T0))s"
  for b in y x y; do i=$((i+1)); left=$((570 - (SECONDS-T0))); [ $left -gt 45 ] || break
    KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=20 JOBS=1 SKIP_PARTITION=1 SPAC=bin/$b/gpu/spac SPAC_CACHE_DIR=/tmp/cache-rmat timeout $((left-5)) scripts/gpu-bench.sh $D/rmat$((i+1))-$b $R > $D/rmat$((i+1))-$b.out 2>&1
    echo "rmat $((i+1)) ($b) rc=$? +$((SECONDS-T0))s"
  done ) > $D/rmat.log 2>&1 &
BIG=$!
(cd apps/spmv && timeout 100 ../../bin/y/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head -3; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16-own,spac-d16,csr-d16,cusparse-csr
i=0
for b in x y x y; do i=$((i+1))
  KERNELS=$K BLOCKS=1024,16384 ITERS=30 JOBS=2 SPAC=bin/$b/gpu/spac SPMV_ARGS='--renumber random' SPAC_CACHE_DIR=/tmp/cache-rand timeout 150 scripts/gpu-bench.sh $D/rand$i-$b gen:in-2004 > $D/rand$i-$b.out 2>&1
  echo "random $i ($b) rc=$? +$((SECONDS-T0))s"
  KERNELS=csr-d16,cusparse-csr BLOCKS=1024 ITERS=20 JOBS=1 SPAC=bin/$b/gpu/spac timeout 100 scripts/gpu-bench.sh $D/rcsr$i-$b $R > $D/rcsr$i-$b.out 2>&1
  echo "rmat csr-d16 $i ($b) rc=$? +$((SECONDS-T0))s"
  [ $((SECONDS-T0)) -lt 270 ] || break
done
wait $BIG; cat $D/rmat.log
cd $OUT && tar -czf c74d.tgz c74d && rm -rf c74d
