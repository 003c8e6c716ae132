#!/usr/bin/env bash
# stop 39, call a: R-MAT 23 with the SPAC kernels (the faster NE), B=1024, 4096, 16384, partitioned here; meanwhile
# the GPU tests on 4b46498
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c71/b.tgz -C bin/x
D=$OUT/c71a; mkdir -p $D
K=spac-seg8,spac-d16,spac-d16-own,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024,4096,16384 ITERS=20 JOBS=3 SPAC=bin/x/gpu/spac DEADLINE=530 GRACE=30 timeout 575 scripts/gpu-bench.sh $D/rmat gen:rmat:scale=23,ef=16 > $D/rmat.out 2>&1 &
BIG=$!
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
wait $BIG; echo "rmat rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/rmat/log.txt | tail -12; grep '^partitioned' $D/rmat/log.txt
cd $OUT && tar -czf c71a.tgz c71a && rm -rf c71a
