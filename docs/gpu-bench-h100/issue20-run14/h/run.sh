#!/usr/bin/env bash
# stop 38, call h: counters (Nsight Compute, fp64, B=4096) of spac-d16-own against cuSPARSE's CSR on in-2004 and
# circuit5M; partitions and counters only
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70h; mkdir -p $D
NCU_ONLY=1 NCU=1 NCU_INPUTS="gen:in-2004 gen:circuit5M" NCU_BLOCK=4096 NCU_GROUPS="spac-d16-own cusparse-csr" \
KERNELS=spac-d16-own,cusparse-csr BLOCKS=4096 JOBS=2 SPAC=bin/x/gpu/spac timeout 400 scripts/gpu-bench.sh $D/suite gen:in-2004 gen:circuit5M > $D/bench.out 2>&1
echo "rc=$? +$((SECONDS-T0))s"; tail -6 $D/suite/log.txt
cd $OUT && tar -czf c70h.tgz c70h && rm -rf c70h
