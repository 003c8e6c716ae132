#!/usr/bin/env bash
# stop 37, call e: the GPU tests with spac-d16-x, then spac-d16 and spac-d16-x against spac-seg8,
# csr-d16 and cuSPARSE's paths on the seven stand-ins of 1M nonzeros or more, B=256, 512 and 1024
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c64/b.tgz -C bin/x
D=$OUT/c64e; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,spac-d16-x,spac-seg8,csr-d16,csr-scalar,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=256,512,1024 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((430 - (SECONDS-T0))) GRACE=100 timeout $((565 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -14
cd $OUT && tar -czf c64e.tgz c64e && rm -rf c64e
