#!/usr/bin/env bash
# stop 36, call c: csr-d16-hs (csr-d16-hot with the hottest x in shared memory): the GPU tests, then R-MAT 23 and in-2004 against csr-d16-hot and cuSPARSE
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c51/b.tgz -C bin/x
D=$OUT/c51a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt; cat $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)|gpu_cuda_test.go" $D/tests.txt | head -20; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
grep -q "^PASS" $D/tests.txt || { cd $OUT && tar -czf c51a.tgz c51a; exit 1; }
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((470 - (SECONDS-T0))); [ $l -lt 40 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/x/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
run rmat23 220 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16-hot,csr-d16-hs,cusparse-csr,cusparse-csr-alg2,cusparse-coo
run in-2004 80 gen:in-2004 --gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,csr-d16-hot,csr-d16-hs,cusparse-csr,cusparse-coo
run rmat24 200 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 --kernels csr-d16-hot,csr-d16-hs,cusparse-csr
cd $OUT && tar -czf c51a.tgz c51a && rm -rf c51a
