#!/usr/bin/env bash
# stop 38, call g: spac-d16(-own) with the block's row-map entries prefetched into the L1 (SPAC_D16_PF=1,
# a throwaway entry) against without, alternating A B A, at B=4096 and 16384 on five stand-ins
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70g; mkdir -p $D
K=spac-d16,spac-d16-own,cusparse-csr,cusparse-coo,cusparse-sell
I="gen:circuit5M gen:in-2004 gen:cant gen:mc2depi gen:mac_econ_fwd500"
n=0
for pf in 0 1 0; do
  n=$((n+1))
  SPAC_D16_PF=$pf KERNELS=$K BLOCKS=4096,16384 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((480 - (SECONDS-T0))) GRACE=30 timeout $((560 - (SECONDS-T0))) scripts/gpu-bench.sh $D/run$n-pf$pf $I > $D/run$n.out 2>&1
  echo "run $n pf=$pf rc=$? +$((SECONDS-T0))s"; grep -c '"ok":false' $D/run$n-pf$pf/csv/*.jsonl | grep -v ':0$'
done
cd $OUT && tar -czf c70g.tgz c70g && rm -rf c70g
