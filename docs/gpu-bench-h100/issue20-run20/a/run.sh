#!/usr/bin/env bash
# Prepared at stop 43, not yet run. Why spac-d16-own trails csr-d16 on the 20M-row circuit (round 19: 402.4 against
# 331.4 us in fp32): its row list, read at each row's store, or the rows' fragments (runs of 28.1 rows in SPAC's
# schedule)? The row-order method's schedule (-m default) has each part's rows as one run, and spac-d16-own's row list
# over it is the identity (checked on this VM at stop 43: 20M rows, none out of place), so there:
#   - spac-d16-own against csr-d16: the list's cost without the fragments;
#   - spac-d16-own with nomap.patch (the list not read: to = the format's row; right only where the list is the
#     identity, and the CPU reference checks it) against the same kernel: the list's loads alone.
# SPAC's `auto` at B=16384 now starts from the row order too (stop 43): 5,322,188 copies against the row-order
# method's 5,446,705. Build main: scripts/gpu-build.sh; pack stripped bin/gpu/{spac,spmv.test,lib} into bin/cNN/b.tgz;
# apply nomap.patch to a copy of apps/spmv/kernels/spmv.cu, scripts/gen-ptx.sh on it, its spmv.ptx into
# bin/cNN/nomap/; carry bin/cNN (B=bin/cNN).
T0=$SECONDS
B=${B:-bin/c99}
mkdir -p bin/new && tar -xzf $B/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run20a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/new/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
C=gen:circuit:n=20000000,deg=5
# Both schedules partitioned and cached; spac-d16-own and spac-d16 on each, cuSPARSE's CSR beside them.
SPAC=$S KERNELS=spac-d16-own,spac-d16,cusparse-csr BLOCKS=16384 ITERS=20 JOBS=2 SPMV_ARGS="-m spac,default" \
  timeout 400 scripts/gpu-bench.sh $D/c20-methods $C > $D/c20-methods.out 2>&1
echo "run c20-methods rc=$? +$((SECONDS-T0))s"
one() { # label variant kernels block method
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  local dir=; [ "$2" = base ] || dir=$B/$2
  SPAC_PTX_DIR=$dir timeout $((590 - (SECONDS-T0))) $S spmv $C --gpu -b $4 -m $5 --precision fp32,fp64 \
    --kernels "$3" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
one csr base csr-d16,cusparse-csr 1024 spac
one ro-base1 base spac-d16-own 16384 default
one ro-nomap nomap spac-d16-own 16384 default
one ro-base2 base spac-d16-own 16384 default
cd $OUT && tar -czf run20a.tgz run20a && rm -rf run20a
