#!/usr/bin/env bash
# H200, stop 49, call b: R-MAT 23 with a SPAC schedule (B=1024; the partition, NE's start and the refinement, runs
# here on the GPU machine's CPUs and is cached in /tmp for a second call should this one run out): spac-d16-hot,
# spac-d16-ord and spac-d16-own against csr-d16-hot (no schedule) and cuSPARSE's paths, 20 products each.
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c120/b.txz -C bin/m
D=$OUT/h200r5b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
K=cusparse-csr,cusparse-csr-alg2,cusparse-coo,csr-d16-hot,spac-d16-hot,spac-d16-ord,spac-d16-own
/usr/bin/time -f '%e s %M KB' -o $D/time.txt timeout $((585 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:rmat:scale=23,ef=16 \
  --gpu -b 1024 --precision fp32,fp64 --kernels $K --iters 20 --cpu-iters 1 --format csv > $D/r23.csv 2> $D/r23.err
echo "r23 rc=$? +$((SECONDS-T0))s"; cat $D/time.txt; tail -5 $D/r23.err
cut -d, -f5-7,10,15-17 $D/r23.csv
cd $OUT && tar -czf h200r5b.tgz h200r5b && rm -rf h200r5b
