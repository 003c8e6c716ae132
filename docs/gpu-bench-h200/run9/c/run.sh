#!/usr/bin/env bash
# H200, stop 53, call c (right after b): R-MAT 23's SPAC kernels at B=4096; one product of each kernel under Nsight
# Compute, on R-MAT 23 as it comes and (cuSPARSE's CSR and COO) in SPAC's and RCM's orders (nested dissection left out:
# in calls a and b it outlived its timeout inside METIS). Ran under "timeout -k 5 460".
R=/tmp/r9; BUILD=c128; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r9c; mkdir -p $D
waitfor 100 r23b4; state r23b4
[ "$(cat $R/r23b4.rc 2>/dev/null)" = 0 ] && gpu r23b4-all 110 150 $R23 spac-d16-hot,spac-d16-own,spac-d16-ord,cusparse-csr "--budget 4 -b 4096"
prof r23-ncu 300 150 $R23 spac-d16-hot,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-coo
prof r23-orders-ncu 450 $((440-(SECONDS-T0))) $R23 cusparse-csr,cusparse-coo "--reorder spac,rcm"
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
