#!/usr/bin/env bash
# stop 38, call e (the binary of call d): spac-d16 and spac-d16-own beyond the L2 at B=16384 (R-MAT 23, the
# 20M-row circuit), partitioned here; meanwhile mac_econ_fwd500 at B=2048 and 8192
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70e; mkdir -p $D
K=spac-d16,spac-d16-own,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=16384 ITERS=20 JOBS=2 SPAC=bin/x/gpu/spac DEADLINE=490 GRACE=30 timeout 560 scripts/gpu-bench.sh $D/big 'gen:circuit:n=20000000,deg=5' gen:rmat:scale=23,ef=16 > $D/big.out 2>&1 &
BIG=$!
K2=spac-d16,spac-d16-own,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K2 BLOCKS=2048,8192 ITERS=50 JOBS=2 SPAC=bin/x/gpu/spac timeout 120 scripts/gpu-bench.sh $D/small gen:mac_econ_fwd500 > $D/small.out 2>&1
echo "small rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/small/log.txt | tail -3
wait $BIG; echo "big rc=$? +$((SECONDS-T0))s"; tail -8 $D/big/log.txt
cd $OUT && tar -czf c70e.tgz c70e && rm -rf c70e
