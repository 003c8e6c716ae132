#!/usr/bin/env bash
# H200, stop 53, call a (bin/c128: main at 4438e0b, the faster orders and ordered-kernel setup of stop 52, never run
# on the device before): R-MAT 23's SPAC schedules at B=1024 and 4096 and the 272^3 mesh's (numbered at random) start
# in the background; apps/spmv's GPU tests run meanwhile; once the mesh's schedule is cached, cuSPARSE's paths on the
# mesh as it comes and in SPAC's, RCM's and nested dissection's orders.
R=/tmp/r9; BUILD=c128; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r9a; mkdir -p $D
nproc; free -g | head -2; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
bg r23 $R23
bg r23b4 $R23 "-b 4096"
bg mesh $MESH "--renumber random"
(cd apps/spmv && timeout 200 $G/spmv.test -test.count=1 -test.v > $D/tests-spmv.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
echo "passed $(grep -c -- '--- PASS' $D/tests-spmv.txt) failed $(grep -c -- '--- FAIL' $D/tests-spmv.txt) skipped $(grep -c -- '--- SKIP' $D/tests-spmv.txt)"
waitfor 330 mesh; state mesh
KM=cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,csr-d16-hot,spac-d16-ord
[ "$(cat $R/mesh.rc 2>/dev/null)" = 0 ] && gpu mesh-orders 340 $((585-(SECONDS-T0))) $MESH $KM "--renumber random --reorder spac,rcm,nd --budget 4"
state r23 r23b4
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
