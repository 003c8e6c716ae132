#!/usr/bin/env bash
# stop 37, call c: the 20M-row circuit-like matrix through the suite (beyond the L2)
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c61/b.tgz -C bin/x
D=$OUT/c62c; mkdir -p $D
K=csr-d16,csr-d16-hot,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024 ITERS=15 SPAC=bin/x/gpu/spac DEADLINE=300 GRACE=200 timeout 560 scripts/gpu-bench.sh $D/circuit20M gen:circuit:n=20000000,deg=5 > $D/c20.out 2>&1
echo "c20 rc=$? +$((SECONDS-T0))s"; tail -4 $D/circuit20M/log.txt
cd $OUT && tar -czf c62c.tgz c62c && rm -rf c62c
