#!/usr/bin/env bash
# stop 40, call d (round 16): the final build (L2 hints in spac-d16's entries only): the GPU tests of spmv and cg;
# then the 20M-row circuit at B=16384, spac-d16-own new against HEAD's PTX (SPAC_PTX_DIR), alternating.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c83/b.tgz -C bin/x
D=$OUT/c83d; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB
C='gen:circuit:n=20000000,deg=5'
KERNELS=spac-d16-own BLOCKS=16384 ITERS=3 JOBS=1 SPAC=bin/x/gpu/spac SPAC_CACHE_DIR=/tmp/cbig timeout 300 scripts/gpu-bench.sh $D/p-big "$C" > $D/p-big.out 2>&1 &
BIG=$!
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/spmv-tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
(cd apps/cg && timeout 200 ../../bin/x/gpu/cg.test -test.count=1 -test.v > $D/cg-tests.txt 2>&1; echo "cg tests rc=$? +$((SECONDS-T0))s")
for t in spmv cg; do grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/$t-tests.txt | head -3; echo "$t passed: $(grep -c '^--- PASS' $D/$t-tests.txt) skipped: $(grep -c '^--- SKIP' $D/$t-tests.txt) failed: $(grep -c '^--- FAIL' $D/$t-tests.txt)"; done
wait $BIG; echo "partition rc=$? +$((SECONDS-T0))s"; grep partitioned $D/p-big/log.txt
i=0
for v in new old new old; do i=$((i+1))
  [ $((SECONDS-T0)) -lt 500 ] || break
  P=""; [ $v = old ] && P=bin/c83/old
  SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,cusparse-csr,cusparse-coo BLOCKS=16384 ITERS=20 JOBS=1 SPAC=bin/x/gpu/spac SPAC_CACHE_DIR=/tmp/cbig timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/ab-$i-$v-big "$C" > $D/ab-$i-$v.out 2>&1
  echo "ab $i $v rc=$? +$((SECONDS-T0))s"
done
cd $OUT && tar -czf c83d.tgz c83d && rm -rf c83d
