#!/usr/bin/env bash
# stop 39, call c (4b46498's binary): counters (Nsight Compute, fp64) of spac-d16-own against cuSPARSE's CSR on
# R-MAT 23 at B=16384, partitioned here; meanwhile spac-d16-own at B=1024 on in-2004 in a random order
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c73/spac.tgz -C bin/x && tar -xzf bin/c73/lib.tgz -C bin/x
D=$OUT/c73c; mkdir -p $D
NCU_ONLY=1 NCU=1 NCU_INPUTS="gen:rmat:scale=23,ef=16" NCU_BLOCK=16384 NCU_GROUPS="spac-d16-own cusparse-csr" \
KERNELS=spac-d16-own,cusparse-csr BLOCKS=16384 JOBS=1 SPAC=bin/x/gpu/spac SPAC_CACHE_DIR=/tmp/cache-rmat timeout 575 scripts/gpu-bench.sh $D/rmat gen:rmat:scale=23,ef=16 > $D/rmat.out 2>&1 &
BIG=$!
K=spac-d16-own,spac-d16,spac-seg8,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024 ITERS=30 JOBS=2 SPAC=bin/x/gpu/spac SPMV_ARGS='--renumber random' SPAC_CACHE_DIR=/tmp/cache-rand DEADLINE=200 GRACE=20 timeout 240 scripts/gpu-bench.sh $D/random gen:in-2004 > $D/random.out 2>&1
echo "random rc=$? +$((SECONDS-T0))s"; tail -4 $D/random/log.txt
wait $BIG; echo "rmat rc=$? +$((SECONDS-T0))s"; tail -8 $D/rmat/log.txt
cd $OUT && tar -czf c73c.tgz c73c && rm -rf c73c
