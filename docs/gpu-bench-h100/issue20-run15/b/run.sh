#!/usr/bin/env bash
# stop 39, call b: the row map's first two entries of each thread loaded beside the gathers (new) against
# 4b46498 (old), same schedules, alternating old/new/old/new on the seven stand-ins; the GPU tests on new
T0=$SECONDS
mkdir -p bin/x bin/y && tar -xzf bin/c72/b.tgz -C bin/y && tar -xzf bin/c72/b.tgz -C bin/x && tar -xzf bin/c72/old.tgz -C bin/x
D=$OUT/c72b; mkdir -p $D
(cd apps/spmv && timeout 200 ../../bin/y/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,spac-d16-own,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
IN="gen:mac_econ_fwd500 gen:mc2depi gen:cant gen:cop20k_A gen:Ga41As41H72 gen:in-2004 gen:circuit5M"
i=0
for b in x y x y; do
  i=$((i+1)); left=$((560 - (SECONDS-T0))); [ $left -gt 40 ] || break
  KERNELS=$K BLOCKS=1024,4096,16384 ITERS=50 JOBS=9 SPAC=bin/$b/gpu/spac DEADLINE=$((left-20)) GRACE=15 timeout $left scripts/gpu-bench.sh $D/r$i-$b $IN > $D/r$i-$b.out 2>&1
  echo "run $i ($b) rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/r$i-$b/log.txt | tail -3
done
cd $OUT && tar -czf c72b.tgz c72b && rm -rf c72b
