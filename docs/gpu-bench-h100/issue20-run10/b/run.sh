#!/usr/bin/env bash
# issue 20, round 10 (b): csr-d16-tiled over the rows with entries in each tile (y cleared, every tile adding) on R-MAT 23 and 24 against csr-d16 and cuSPARSE's paths; the GPU tests first
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c41/b.tgz -C bin/x
D=$OUT/r10b; mkdir -p $D
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv > $D/gpu.txt 2>&1
(cd apps/spmv && timeout 240 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; grep -c "^--- PASS" $D/tests.txt
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((570 - (SECONDS-T0))); [ $l -lt 30 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/x/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
K="--kernels csr-d16,csr-d16-tiled,cusparse-csr,cusparse-csr-alg2,cusparse-coo"
run rmat24 260 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 $K
run rmat23 150 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
run rmat23-12m 120 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --kernels csr-d16-tiled,cusparse-csr --tile-size 12MiB
cd $OUT && tar -czf r10b.tgz r10b && rm -rf r10b
