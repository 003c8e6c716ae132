#!/usr/bin/env bash
# stop 38, call d: the GPU tests with spac-d16-own, then spac-d16 and spac-d16-own at B=4096 and 16384 (csr-d16
# at 1024) against cuSPARSE's paths on the seven stand-ins; then in-2004 and the 200^3 mesh in a random order
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c70/b.tgz -C bin/x
D=$OUT/c70d; mkdir -p $D
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -E -m5 "_test.go:[0-9]+:" $D/tests.txt; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
K=spac-d16,spac-d16-own,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024,4096,16384 ITERS=50 JOBS=9 SPAC=bin/x/gpu/spac DEADLINE=$((250 - (SECONDS-T0))) GRACE=60 timeout $((330 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v '^partitioned' $D/suite/log.txt | tail -12
K2=spac-d16,spac-d16-own,csr-d16,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K2 BLOCKS=16384 ITERS=30 JOBS=2 SPAC=bin/x/gpu/spac SPMV_ARGS='--renumber random' DEADLINE=$((520 - (SECONDS-T0))) GRACE=30 timeout $((575 - (SECONDS-T0))) scripts/gpu-bench.sh $D/random gen:in-2004 gen:stencil3d:nx=200,ny=200,nz=200 > $D/random.out 2>&1
echo "random rc=$? +$((SECONDS-T0))s"; tail -6 $D/random/log.txt
cd $OUT && tar -czf c70d.tgz c70d && rm -rf c70d
