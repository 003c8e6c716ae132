#!/usr/bin/env bash
# H200, stop 51, call d: spac-d16-ord and spac-d16-hot gathering only the columns with entries (bin/c126) against
# c125's, which gathered every column, on R-MAT 22 (fp64 x and y beyond the L2) with its SPAC schedule, alternating
# builds on the same cached schedule; apps/spmv's GPU tests with c126 while the schedule is partitioned.
. docs/gpu-bench-h200/run7/common.sh
OLD=$G NEW=/tmp/r7n/gpu
[ -x $NEW/spac ] || { mkdir -p /tmp/r7n && tar -xJf bin/c126/b.txz -C /tmp/r7n; }
D=$OUT/h200r7d; mkdir -p $D
R22=gen:rmat:scale=22,ef=16
G=$NEW bg r22 $R22
(cd apps/spmv && timeout 200 $NEW/spmv.test -test.count=1 -test.v > $D/tests-spmv.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
echo "passed $(grep -c -- '--- PASS' $D/tests-spmv.txt) failed $(grep -c -- '--- FAIL' $D/tests-spmv.txt) skipped $(grep -c -- '--- SKIP' $D/tests-spmv.txt)"
waitfor 200 r22; state r22
K=spac-d16-hot,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-coo
for i in 1 2; do
  G=$OLD gpu r22-old$i 250 50 $R22 $K
  G=$NEW gpu r22-new$i 270 50 $R22 $K
done
echo "done +$((SECONDS-T0))s"
