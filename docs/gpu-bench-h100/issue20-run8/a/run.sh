#!/usr/bin/env bash
# issue 20, round 8 (a): the committed build on the GPU: tests; narrow inputs against f014417 side by side; R-MAT 24
T0=$SECONDS
tar -xzf bin/c32/b.tgz -C bin
D=$OUT/r8a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
run() { # name binary timeout args...
  local n=$1 s=$2 t=$3; shift 3
  local l=$((580 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/$s spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
S="--gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo,cusparse-sell"
for in in mac_econ_fwd500 cant in-2004; do
  run $in-old spac-old 40 gen:$in $S
  run $in-new spac 40 gen:$in $S
done
run rmat24 spac 300 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 --budget 3 --kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo
cd $OUT && tar -czf r8a.tgz r8a && rm -rf r8a
