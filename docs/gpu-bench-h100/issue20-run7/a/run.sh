#!/usr/bin/env bash
# issue 20, round 7 (a): GPU tests; csr-d16 with row-aligned blocks (new) against the committed layout (old), side by side; beyond the L2: a 20M-row circuit, R-MAT 23
T0=$SECONDS
tar -xzf bin/c31/b.tgz -C bin
D=$OUT/r7a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt)"
K=csr-d16,csr-scalar,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
run() { # name binary timeout args...
  local n=$1 s=$2 t=$3; shift 3
  local l=$((570 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/$s spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
S="--gpu -b 256,512,1024 --precision fp32,fp64 --iters 31 --warmup 5 --cpu-iters 1 -m default --kernels $K"
for in in mac_econ_fwd500 mc2depi cant cop20k_A; do
  run $in-old spac-old 40 gen:$in $S
  run $in-new spac 40 gen:$in $S
done
L="--gpu -b 512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 -m default --budget 3"
run circuit20M spac 150 gen:circuit:n=20000000,deg=5 $L --kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
run rmat23 spac 200 gen:rmat:scale=23,ef=16 $L --kernels csr-d16,csr-scalar,csr-vector,cusparse-csr,cusparse-csr-alg2,cusparse-coo
cd $OUT && tar -czf r7a.tgz r7a && rm -rf r7a
