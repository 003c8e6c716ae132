#!/usr/bin/env bash
# Round 18, call d: main's build at 17e9f6e (bin/c95: y gathered back) at B=16384 on R-MAT 23 and the 20M-row
# circuit, partitioned side by side (JOBS=2): spac-d16-ord (its y now gathered) and spac-d16-own against
# cuSPARSE's CSR (the best path of both inputs in report.md).
mkdir -p bin/new && tar -xzf bin/c95/b.tgz -C bin/new
D=$OUT/run18d; mkdir -p $D
SPAC=bin/new/gpu/spac KERNELS=spac-d16-ord,spac-d16-own,cusparse-csr BLOCKS=16384 ITERS=20 JOBS=2 DEADLINE=520 \
  timeout 585 scripts/gpu-bench.sh $D/big gen:rmat:scale=23,ef=16 gen:circuit:n=20000000,deg=5 > $D/big.out 2>&1
echo "rc=$? +${SECONDS}s"
cd $OUT && tar -czf run18d.tgz run18d && rm -rf run18d
