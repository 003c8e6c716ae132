#!/usr/bin/env bash
# stop 38, call a: the GPU tests with the d16 kernels at B=2048 and 4096, then spac-d16 and csr-d16
# at B=1024, 2048 and 4096 against cuSPARSE's paths on the seven stand-ins of 1M nonzeros or more
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024,2048,4096 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((440 - (SECONDS-T0))) GRACE=100 timeout $((570 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -14
cd $OUT && tar -czf c70a.tgz c70a && rm -rf c70a
