#!/usr/bin/env bash
# stop 39, call f (a diagnostic, not committed): spac-d16-own with y stored in the schedule's row order (an identity
# row map into a scratch y: the product is not the user's y, so its check fails) against the real kernel, the same
# schedules, alternating: what y's scattered stores cost. R-MAT 23 and circuit5M at B=16384, in-2004 in a random
# order at B=1024.
T0=$SECONDS
mkdir -p bin/y && tar -xzf bin/c76/new.tgz -C bin/y
D=$OUT/c76f; mkdir -p $D
R="gen:rmat:scale=23,ef=16"
( i=0
  for v in 0 1; do i=$((i+1)); left=$((575 - (SECONDS-T0))); [ $left -gt 40 ] || break
    SKIP=0; [ $i -gt 1 ] && SKIP=1
    SPAC_D16_YIDENT=$v SKIP_PARTITION=$SKIP KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=20 JOBS=1 SPAC=bin/y/gpu/spac SPAC_CACHE_DIR=/tmp/cache-rmat DEADLINE=$((left-25)) GRACE=10 timeout $((left-5)) scripts/gpu-bench.sh $D/rmat$i-$v $R > $D/rmat$i-$v.out 2>&1
    echo "rmat $i ($v) rc=$? +$((SECONDS-T0))s"
  done ) > $D/rmat.log 2>&1 &
BIG=$!
i=0
for v in 0 1 0 1; do i=$((i+1))
  SPAC_D16_YIDENT=$v KERNELS=spac-d16-own,cusparse-csr BLOCKS=1024 ITERS=30 JOBS=1 SPAC=bin/y/gpu/spac SPMV_ARGS='--renumber random' SPAC_CACHE_DIR=/tmp/cache-rand timeout 100 scripts/gpu-bench.sh $D/rand$i-$v gen:in-2004 > $D/rand$i-$v.out 2>&1
  echo "random $i ($v) rc=$? +$((SECONDS-T0))s"
  SPAC_D16_YIDENT=$v KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=30 JOBS=1 SPAC=bin/y/gpu/spac SPAC_CACHE_DIR=/tmp/cache-c5 timeout 200 scripts/gpu-bench.sh $D/c5$i-$v gen:circuit5M > $D/c5$i-$v.out 2>&1
  echo "circuit5M $i ($v) rc=$? +$((SECONDS-T0))s"
  [ $((SECONDS-T0)) -lt 300 ] || break
done
wait $BIG; cat $D/rmat.log
cd $OUT && tar -czf c76f.tgz c76f && rm -rf c76f
