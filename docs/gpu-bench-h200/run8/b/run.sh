#!/usr/bin/env bash
# H200, stop 52, call b (right after a): R-MAT 23 with its SPAC schedule, every kernel timed, then one product each
# under Nsight Compute (every launch, the gathers apart); then waits for R-MAT 24's schedule.
R=/tmp/r8; BUILD=c127; . docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r8b; mkdir -p $D
state r23 r24
K=spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
if waitfor 200 r23 && [ "$(cat $R/r23.rc)" = 0 ]; then
  gpu r23-all 250 250 $R23 $K "--budget 4"
  prof r23-ncu 420 $((560-(SECONDS-T0))) $R23 spac-d16-hot,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-coo
fi
waitfor 570 r24; state r23 r24
cp $R/*.time $R/*.rc $R/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
