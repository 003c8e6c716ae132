#!/usr/bin/env bash
# issue 20, round 8 (d): csr-d16's wide blocks with 24-bit columns (new) against the committed 32-bit ones (old, 6fd43b7), side by side; GPU tests
T0=$SECONDS
tar -xzf bin/c33/b.tgz -C bin
D=$OUT/r8d; mkdir -p $D
(cd apps/spmv && timeout 100 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
run() { # name binary timeout args...
  local n=$1 s=$2 t=$3; shift 3
  local l=$((560 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/$s spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
S="--gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo"
run in-2004-old spac-old 40 gen:in-2004 $S
run in-2004-new spac 40 gen:in-2004 $S
R="--gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo"
run rmat23-old spac-old 110 gen:rmat:scale=23,ef=16 $R
run rmat23-new spac 110 gen:rmat:scale=23,ef=16 $R
run rmat24-new spac 250 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo
cd $OUT && tar -czf r8d.tgz r8d && rm -rf r8d
