#!/usr/bin/env bash
# H200, stop 53, call b (right after a): R-MAT 23 with its SPAC schedule (B=1024), every kernel timed; then cuSPARSE's
# paths and csr-d16-hot on R-MAT 23 in SPAC's, RCM's and nested dissection's orders.
R=/tmp/r9; BUILD=c128; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r9b; mkdir -p $D
waitfor 250 r23; state r23 r23b4
K=spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
[ "$(cat $R/r23.rc 2>/dev/null)" = 0 ] && gpu r23-all 260 200 $R23 $K "--budget 4"
gpu r23-orders 300 $((585-(SECONDS-T0))) $R23 cusparse-csr,cusparse-csr-alg2,cusparse-coo,csr-d16-hot "--reorder spac,rcm,nd --budget 4"
state r23b4
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
