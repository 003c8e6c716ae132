#!/usr/bin/env bash
# issue 20, round 11 (b): csr-d16-hot with L1 hints (x's first 128 KB evict-last, the rest no-allocate) against the same without hints (ZZ_NOHINT, throwaway switch) on R-MAT 23; R-MAT 24 with hints; the GPU tests first
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c44/b.tgz -C bin/x
D=$OUT/r11b; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 200 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((575 - (SECONDS-T0))); [ $l -lt 30 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/x/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
K="--kernels csr-d16,csr-d16-hot,cusparse-csr"
run rmat23-hint 130 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
ZZ_NOHINT=1 run rmat23-nohint 130 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
run rmat24-hint 260 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 $K
cd $OUT && tar -czf r11b.tgz r11b && rm -rf r11b
