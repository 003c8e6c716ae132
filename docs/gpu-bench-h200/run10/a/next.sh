#!/usr/bin/env bash
# Right after a/run.sh (the schedule cached): one product of each kernel under Nsight Compute, as given and in SPAC's
# order, the DRAM bytes and L2 sectors a nonzero that stop 53 lost.
R=/tmp/r10; BUILD=${BUILD:-c128}; . docs/gpu-bench-h200/run7/common.sh
D=$R/out-b; mkdir -p $D
prof r23-spac-ncu 10 400 $R23 csr-d16,csr-d16-hot,cusparse-csr,cusparse-coo "--reorder spac"
pack b; echo "done +$((SECONDS-T0))s"
