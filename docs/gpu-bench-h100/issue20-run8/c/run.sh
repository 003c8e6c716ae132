#!/usr/bin/env bash
# issue 20, round 8 (c): csr-d16 at more resident blocks (csr-d16-x: 16 blocks of 128 threads in fp32, 12 in fp64; throwaway build) against csr-d16, same run
T0=$SECONDS
tar -xzf bin/c32x/b.tgz -C bin
D=$OUT/r8c; mkdir -p $D
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((585 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/spac-x spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
K="--kernels csr-d16,csr-d16-x,cusparse-csr,cusparse-coo"
S="--gpu -b 512,1024 --precision fp32,fp64 --iters 21 --warmup 3 --cpu-iters 1 $K"
for in in in-2004 cant circuit5M mac_econ_fwd500; do run $in 60 gen:$in $S; done
run rmat23 150 gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 $K
run rmat24 250 gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 --iters 10 --warmup 2 --cpu-iters 1 $K
cd $OUT && tar -czf r8c.tgz r8c && rm -rf r8c
