#!/usr/bin/env bash
# Round 20, call b. spac-d16's kernel (spac-d16, -own, -ord, -hot) read its row list at each row's store, a load whose
# latency came last, after the sums: without it (call a, nomap.patch, where the list is the identity) spac-d16-own on
# the 20M-row circuit's row-order schedule took 347.2/519.2 us against 404.5/613.6 (fp32/fp64). The build now copies
# the block's part of the list into shared memory with cp.async at the start, while x is gathered (B: main with the
# change; B/old: the PTX before it, through $SPAC_PTX_DIR). Alternating new, old, new on SPAC's own schedules.
T0=$SECONDS
B=${B:-bin/c100}
mkdir -p bin/new && tar -xzf $B/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run20b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/new/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1
 echo "tests rc=$? passed $(grep -c -- '--- PASS' $D/tests.txt) failed $(grep -c -- '--- FAIL' $D/tests.txt) skipped $(grep -c -- '--- SKIP' $D/tests.txt) +$((SECONDS-T0))s")
one() { # label variant input kernels block
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  local dir=; [ "$2" = new ] || dir=$B/$2
  SPAC_PTX_DIR=$dir timeout $((590 - (SECONDS-T0))) $S spmv $3 --gpu -b $5 --precision fp32,fp64 \
    --kernels "$4" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
one c20-new1 new $C spac-d16-own,spac-d16,cusparse-csr 16384
one c20-old old $C spac-d16-own,spac-d16 16384
one c20-new2 new $C spac-d16-own,spac-d16 16384
for g in circuit5M in-2004; do
  one $g-new1 new gen:$g spac-d16-own,spac-d16,cusparse-csr 1024
  one $g-old old gen:$g spac-d16-own,spac-d16 1024
  one $g-new2 new gen:$g spac-d16-own,spac-d16 1024
done
cd $OUT && tar -czf run20b.tgz run20b && rm -rf run20b
