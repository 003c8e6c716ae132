#!/usr/bin/env bash
# Round 21, call a. The 20M-row circuit's fp32 spac-d16-own is at 1.198x of cuSPARSE's CSR (round 20); the row list
# is 11% of its bytes. Builds: M, main (421b184, bin/c111); R, main with rowRuns (vR.patch: a block whose rows are
# one run of y carries ~g in its first meta word and reads no row list; 15% of spac-d16-own's blocks on this
# schedule, counted on the VM), bin/c112. PTX variants through $SPAC_PTX_DIR (the same kernel arguments):
#   vA (on M): the second meta int4 read as the two words a thread uses (flags, its warp's count), before the scan;
#   vB (on M): vA and the early row-list loads in fp64 too;  vC (on M): the early loads in fp64 only;
#   vRA (on R): vA on R's kernel.
# The GPU tests of apps/spmv run on R's test binary first (its embedded PTX is R's).
T0=$SECONDS
mkdir -p bin/m bin/r && tar -xzf bin/c111/b.tgz -C bin/m && tar -xzf bin/c112/b.tgz -C bin/r
D=$OUT/run21a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/r/gpu/spmv.test -test.count=1 -test.v > $D/tests-r.txt 2>&1
 echo "tests (R) rc=$? passed $(grep -c -- '--- PASS' $D/tests-r.txt) failed $(grep -c -- '--- FAIL' $D/tests-r.txt) skipped $(grep -c -- '--- SKIP' $D/tests-r.txt) +$((SECONDS-T0))s")
one() { # label build ptx-variant-dir input kernels block
  [ $((SECONDS-T0)) -lt 530 ] || { echo "skip $1"; return; }
  local dir=$3; [ "$dir" = - ] && dir=
  SPAC_PTX_DIR=$dir timeout $((585 - (SECONDS-T0))) bin/$2/gpu/spac spmv $4 --gpu -b $6 --precision fp32,fp64 \
    --kernels "$5" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
one c20-m1 m - $C spac-d16-own,spac-d16,cusparse-csr 16384
one c20-r1 r - $C spac-d16-own,spac-d16 16384
one c20-vA m bin/c111/vA $C spac-d16-own,spac-d16 16384
one c20-vRA r bin/c112/vRA $C spac-d16-own,spac-d16 16384
one c20-m2 m - $C spac-d16-own,spac-d16 16384
one c20-r2 r - $C spac-d16-own,spac-d16 16384
one c20-vB m bin/c111/vB $C spac-d16-own,spac-d16 16384
one c20-vC m bin/c111/vC $C spac-d16-own 16384
cd $OUT && tar -czf run21a.tgz run21a && rm -rf run21a
