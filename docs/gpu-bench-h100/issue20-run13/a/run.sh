#!/usr/bin/env bash
# stop 37, call a: the GPU tests at HEAD, then R-MAT 23 and 24 through the suite script (beyond the L2)
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c60/b.tgz -C bin/x
D=$OUT/c60a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; cat $D/gpu.txt; nproc
(cd apps/spmv && timeout 150 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
(timeout 60 bin/x/gpu/gpu.test -test.count=1 > $D/gputests.txt 2>&1; echo "gpu tests rc=$? +$((SECONDS-T0))s"; tail -2 $D/gputests.txt)
K=csr-d16,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=256,512,1024 ITERS=15 SPAC=bin/x/gpu/spac DEADLINE=$((470 - (SECONDS-T0))) GRACE=40 timeout $((565 - (SECONDS-T0))) scripts/gpu-bench.sh $D/beyond gen:rmat:scale=23,ef=16 gen:rmat:scale=24,ef=16 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; tail -15 $D/beyond/log.txt
cd $OUT && tar -czf c60a.tgz c60a && rm -rf c60a
