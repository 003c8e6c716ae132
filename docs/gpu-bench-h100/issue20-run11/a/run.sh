#!/usr/bin/env bash
# issue 20, round 11 (a): csr-d16-hot (columns renumbered hottest first, x gathered into that order each product) against csr-d16 and cuSPARSE's paths; the GPU tests first
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c43/b.tgz -C bin/x
D=$OUT/r11a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((575 - (SECONDS-T0))); [ $l -lt 30 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/x/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
K="--kernels csr-d16,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo"
run rmat23 150 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
run in-2004 60 gen:in-2004 --gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,csr-d16-hot,cusparse-csr,cusparse-coo,cusparse-sell
run rmat24 260 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 $K
run circuit5M 120 gen:circuit5M --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16,csr-d16-hot,cusparse-csr,cusparse-coo
cd $OUT && tar -czf r11a.tgz r11a && rm -rf r11a
