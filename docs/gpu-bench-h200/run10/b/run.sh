#!/usr/bin/env bash
# Call b, right after a: one product of each kernel under Nsight Compute, on R-MAT 23 as given and in SPAC's order
# (the DRAM bytes and L2 sectors a nonzero that stop 53 lost); then waits for R-MAT 24's schedule.
R=/tmp/r10; BUILD=${BUILD:-c128}; . docs/gpu-bench-h200/run7/common.sh
D=$R/out-b; mkdir -p $D
prof r23-spac-ncu 10 300 $R23 csr-d16,csr-d16-hot,cusparse-csr,cusparse-coo "--reorder spac"
waitfor 570 r24; state r24
cp $R/*.time $R/*.rc $D/ 2>/dev/null; pack b
echo "done +$((SECONDS-T0))s"
