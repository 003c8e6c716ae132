#!/usr/bin/env bash
# issue 20, round 7 (d): csr-d16's wide blocks (new) against round 7's narrow-only build (old: HEAD before the change; on
# scattered matrices the throwaway build with the decline off, any) side by side; GPU tests; R-MAT 24
T0=$SECONDS
tar -xzf bin/c31d/b.tgz -C bin
D=$OUT/r7d; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt)"
run() { # name binary timeout args...
  local n=$1 s=$2 t=$3; shift 3
  local l=$((575 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/$s spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
S="--gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo,cusparse-sell"
for in in mac_econ_fwd500 cant in-2004; do
  run $in-old spac-old 40 gen:$in $S
  run $in-new spac 40 gen:$in $S
done
R="--gpu -b 512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo"
export SPAC_D16_ANY=1
run rmat21-any spac-any 60 gen:rmat:scale=21,ef=16 $R
run rmat21-new spac 60 gen:rmat:scale=21,ef=16 $R
run rmat23-any spac-any 130 gen:rmat:scale=23,ef=16 $R
run rmat23-new spac 130 gen:rmat:scale=23,ef=16 $R
run rmat24-new spac 200 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 --kernels csr-d16,cusparse-csr,cusparse-coo
cd $OUT && tar -czf r7d.tgz r7d && rm -rf r7d
