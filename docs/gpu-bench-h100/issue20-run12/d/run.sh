#!/usr/bin/env bash
# stop 36, call d: csr-d16-hs with predicated loads (no branch per slot) and, from a throwaway build, capped at 64 and 128 KiB of shared memory; the GPU tests (the committed-to-be build) first
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c52/b.tgz -C bin/x
D=$OUT/c52a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt; cat $D/gpu.txt
(cd apps/spmv && timeout 60 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((185 - (SECONDS-T0))); [ $l -lt 30 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/x/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
run rmat23 140 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16-hot,csr-d16-hs,csr-d16-hs128,csr-d16-hs64,cusparse-csr
run in-2004 40 gen:in-2004 --gpu -b 1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,csr-d16-hot,csr-d16-hs,csr-d16-hs64,cusparse-csr
cd $OUT && tar -czf c52a.tgz c52a && rm -rf c52a
