#!/usr/bin/env bash
# issue 20, round 8 (e): R-MAT 23 and 24 at every csr-d16 block size, the committed kernel (24-bit wide blocks)
T0=$SECONDS
tar -xzf bin/c34/b.tgz -C bin
D=$OUT/r8e; mkdir -p $D
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((560 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/spac spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
K="--kernels csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo"
run rmat23 150 gen:rmat:scale=23,ef=16 --gpu -b 256,512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
run rmat24 330 gen:rmat:scale=24,ef=16 --gpu -b 256,512,1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 $K
cd $OUT && tar -czf r8e.tgz r8e && rm -rf r8e
