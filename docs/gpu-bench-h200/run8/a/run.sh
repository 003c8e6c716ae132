#!/usr/bin/env bash
# H200, stop 52, call a (bin/c127: main at 69ab7c3, the ordered kernels gathering only the columns with entries):
# R-MAT 24's, R-MAT 23's and the 272^3 mesh's (numbered at random) SPAC schedules start in the background; apps/spmv's
# GPU tests run meanwhile; once the mesh's schedule is cached, cuSPARSE's paths on the mesh as it comes, in RCM's order
# and in SPAC's order, next to spac-d16-ord and csr-d16-rcm.
R=/tmp/r8; BUILD=c127; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r8a; mkdir -p $D
nproc; free -g | head -2; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
bg r24 $R24
bg r23 $R23
bg mesh $MESH "--renumber random"
(cd apps/spmv && timeout 200 $G/spmv.test -test.count=1 -test.v > $D/tests-spmv.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
echo "passed $(grep -c -- '--- PASS' $D/tests-spmv.txt) failed $(grep -c -- '--- FAIL' $D/tests-spmv.txt) skipped $(grep -c -- '--- SKIP' $D/tests-spmv.txt)"
waitfor 330 mesh; state mesh
KM=spac-d16-ord,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
[ "$(cat $R/mesh.rc 2>/dev/null)" = 0 ] && gpu mesh-orders 340 $((585-(SECONDS-T0))) $MESH $KM "--renumber random --reorder rcm,spac --budget 4"
state r23 r24
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
