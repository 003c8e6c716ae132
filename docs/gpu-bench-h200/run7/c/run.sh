#!/usr/bin/env bash
# H200, stop 51, call c: R-MAT 24 with its cached SPAC schedule: every kernel timed (unless call b did), then the
# counters of the SPAC kernels, csr-d16-hot and cuSPARSE's CSR and COO, one product each under Nsight Compute.
. docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r7c; mkdir -p $D
waitfor 300 r24; state r24
K24=spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
[ -n "${SKIP_PLAIN:-}" ] || gpu r24-all 320 300 $R24 $K24 "--budget 4"
prof r24-ncu 450 $((580-(SECONDS-T0))) $R24 spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-coo
echo "done +$((SECONDS-T0))s"
