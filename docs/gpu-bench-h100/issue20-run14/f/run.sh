#!/usr/bin/env bash
# stop 38, call f (the binary of call d): the R-MAT generator's time at scale 22 on 1 and 16 cores; then
# spac-d16 and spac-d16-own beyond the L2 at B=16384 on the 20M-row circuit, partitioned here
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70f; mkdir -p $D
for p in 1 16 1 16; do
  GOMAXPROCS=$p bin/x/gpu/spac spmv gen:rmat:scale=22,ef=16 --gpu --kernels cusparse-csr --precision fp32 --iters 1 --warmup 0 --cpu-iters 1 --format json --quiet 2>/dev/null | grep '"result"' | python3 -c "import sys,json; r=json.loads(sys.stdin.read()); print('GOMAXPROCS=$p input_s', round(r['input_s'],2))" | tee -a $D/rmat-gen.txt
done
echo "gen +$((SECONDS-T0))s"
K=spac-d16,spac-d16-own,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=16384 ITERS=20 JOBS=1 SPAC=bin/x/gpu/spac DEADLINE=$((480 - (SECONDS-T0))) GRACE=30 timeout $((560 - (SECONDS-T0))) scripts/gpu-bench.sh $D/big 'gen:circuit:n=20000000,deg=5' > $D/big.out 2>&1
echo "big rc=$? +$((SECONDS-T0))s"; tail -5 $D/big/log.txt
cd $OUT && tar -czf c70f.tgz c70f && rm -rf c70f
