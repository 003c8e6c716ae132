#!/usr/bin/env bash
# stop 37, call d: the GPU tests with spac-d16, then spac-d16 against spac-seg8, csr-d16 and
# cuSPARSE's paths on the seven stand-ins of 1M nonzeros or more, B=512 and 1024
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c63/b.tgz -C bin/x
D=$OUT/c63d; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
grep -E 'spac-d16' $D/tests.txt | grep -iE 'fail|error|off' | head -5
K=spac-d16,spac-seg8,csr-d16,csr-scalar,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=512,1024 ITERS=30 JOBS=8 SPAC=bin/x/gpu/spac DEADLINE=$((440 - (SECONDS-T0))) GRACE=90 timeout $((565 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -12
cd $OUT && tar -czf c63d.tgz c63d && rm -rf c63d
