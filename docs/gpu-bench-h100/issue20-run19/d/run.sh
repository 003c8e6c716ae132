#!/usr/bin/env bash
# Round 19, call d: spac-d16-hot (spac-d16-ord with the columns grouped by degree, hottest first) against
# spac-d16-ord and cuSPARSE's CSR on R-MAT 23 at B=16384 (main's build, bin/c98), partitioned here.
T0=$SECONDS
mkdir -p bin/new && tar -xzf bin/c98/b.tgz -C bin/new
D=$OUT/run19d; mkdir -p $D
SPAC=bin/new/gpu/spac KERNELS=cusparse-csr,spac-d16-hot,spac-d16-ord BLOCKS=16384 ITERS=20 JOBS=1 DEADLINE=560 \
  timeout 590 scripts/gpu-bench.sh $D/rmat23 gen:rmat:scale=23,ef=16 > $D/rmat23.out 2>&1
echo "run rmat23 rc=$? +$((SECONDS-T0))s"
cd $OUT && tar -czf run19d.tgz run19d && rm -rf run19d
