#!/usr/bin/env bash
# H200, stop 52, call c (right after b): R-MAT 24 with its SPAC schedule: every kernel timed; cuSPARSE's paths and
# csr-d16-hot also on R-MAT 24 in RCM's and in SPAC's order (the cached partition); with time left, the counters.
R=/tmp/r8; BUILD=c127; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r8c; mkdir -p $D
waitfor 300 r24; state r24
K=spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
gpu r24-orders 320 450 $R24 $K "--reorder rcm,spac --budget 4"
prof r24-ncu 420 $((585-(SECONDS-T0))) $R24 spac-d16-hot,spac-d16-ord,csr-d16-hot,cusparse-csr
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
