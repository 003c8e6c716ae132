#!/usr/bin/env bash
# stop 40, call c (round 16): the L2 hints committed (x evict-last a quarter, y stored evict-first): the GPU tests,
# then the d16 kernels and every cuSPARSE path on the seven stand-ins at B=1024, 4096 and 16384; then the committed
# kernels of before (HEAD's PTX through SPAC_PTX_DIR) against the new on the same schedules, alternating.
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c82/b.tgz -C bin/x
D=$OUT/c82c; mkdir -p $D
export SPAC_CACHE_MAX_SIZE=48GiB
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,spac-d16-own,csr-d16,csr-d16-hot,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024,4096,16384 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((330 - (SECONDS-T0))) GRACE=60 timeout $((420 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -12
i=0
for v in old new old new; do i=$((i+1))
  P=""; [ $v = old ] && P=bin/c82/old
  for in in circuit5M in-2004; do
    [ $((SECONDS-T0)) -lt 540 ] || break 2
    SPAC_PTX_DIR=$P SKIP_PARTITION=1 KERNELS=spac-d16-own,csr-d16,cusparse-csr BLOCKS=1024,16384 ITERS=30 JOBS=1 SPAC=bin/x/gpu/spac timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/ab-$i-$v-$in gen:$in > $D/ab-$i-$v-$in.out 2>&1
    echo "ab $i $v $in rc=$? +$((SECONDS-T0))s"
  done
done
cd $OUT && tar -czf c82c.tgz c82c && rm -rf c82c
