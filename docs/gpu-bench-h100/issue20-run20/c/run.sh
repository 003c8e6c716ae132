#!/usr/bin/env bash
# Round 20, call c. Call b's cp.async copy of the row list into shared memory was slower (fp32 451.2 against 403.2 us
# on the 20M-row circuit). Here spac-d16's kernel reads a block's rows from its runs of consecutive rows of y, up to
# eight a block (rowRuns, mapped_row; 48 bytes a block), and from the list only in a block of more runs. B: main
# with the change; B/old: the PTX before it, through $SPAC_PTX_DIR (its kernels take no runs, and ignore the extra
# argument). Alternating new, old, new on SPAC's own schedules.
T0=$SECONDS
B=${B:-bin/c101}
mkdir -p bin/new && tar -xzf $B/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run20c; mkdir -p $D
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
cd $OUT && tar -czf run20c.tgz run20c && rm -rf run20c
