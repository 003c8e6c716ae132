#!/usr/bin/env bash
# Round 19, call c: the GPU tests of apps/spmv with spac-d16-hot (main's build, bin/c98), then spac-d16-own's cache
# hints on the 20M-row circuit at B=16384 with the schedule started from the input's order (--starts default),
# through $SPAC_PTX_DIR, alternating: v1 x read without the evict-last policy, v2 y stored plainly instead of
# evict-first, v3 both (c/v1.patch, v2.patch, v3.patch). The schedule is made in the first run and read
# from the cache after.
T0=$SECONDS
mkdir -p bin/new && tar -xzf bin/c98/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run19c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/new/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
C=gen:circuit:n=20000000,deg=5
one() { # label variant kernels
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  local dir=; [ "$2" = base ] || dir=bin/c98/$2
  SPAC_PTX_DIR=$dir timeout $((590 - (SECONDS-T0))) $S spmv $C --gpu -b 16384 --starts default --precision fp32,fp64 \
    --kernels "$3" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one base1 base spac-d16-own,cusparse-csr
one v1 v1 spac-d16-own
one v2 v2 spac-d16-own
one v3 v3 spac-d16-own
one base2 base spac-d16-own
cd $OUT && tar -czf run19c.tgz run19c && rm -rf run19c
