#!/usr/bin/env bash
# stop 38, call c: the GPU tests (spac-d16 on schedules of B=4096 and 16384, run as blocks of 1024 slots), then
# spac-d16 at B=4096, 8192 and 16384 against csr-d16 and cuSPARSE's paths on the seven stand-ins of 1M nonzeros
# or more (csr-d16 runs B=1024 only)
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70c; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024,4096,8192,16384 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((400 - (SECONDS-T0))) GRACE=100 timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -18
cd $OUT && tar -czf c70c.tgz c70c && rm -rf c70c
