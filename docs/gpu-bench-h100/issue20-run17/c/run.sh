#!/usr/bin/env bash
# stop 41, call c (round 17): R-MAT 23 (131M nonzeros, beyond the L2) with the committed SPAC kernels: spac-d16-own
# (with round 16's L2 hints, not run there) and spac-d16-ord (never run on it), B=16384, partitioned on this machine,
# against csr-d16-hot and cuSPARSE's CSR (its best path on R-MAT 23 in rounds 11-15).
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c92/b.tgz -C bin/x
D=$OUT/c92c; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB SPAC_CACHE_DIR=/tmp/cache
SPAC=bin/x/gpu/spac KERNELS=cusparse-csr,spac-d16-own,spac-d16-ord,csr-d16-hot BLOCKS=16384 ITERS=20 JOBS=1 timeout 540 scripts/gpu-bench.sh $D/rmat23 gen:rmat:scale=23,ef=16 > $D/rmat23.out 2>&1
echo "run rc=$? +$((SECONDS-T0))s"
grep -h partitioned $D/rmat23/log.txt
cd $OUT && tar -czf c92c.tgz c92c && rm -rf c92c
