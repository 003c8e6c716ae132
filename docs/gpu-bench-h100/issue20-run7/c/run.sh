#!/usr/bin/env bash
# issue 20, round 7 (c): csr-d16 made to run scattered matrices (SPAC_D16_ANY: the decline off; a throwaway build) against cuSPARSE on R-MAT as generated
T0=$SECONDS
tar -xzf bin/c31c/b.tgz -C bin
D=$OUT/r7c; mkdir -p $D
export SPAC_D16_ANY=1
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((570 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) bin/gpu/spac-any spmv "$@" --format json > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
L="--gpu -b 512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --budget 3 --kernels csr-d16,csr-vector,cusparse-csr,cusparse-coo"
run rmat21 100 gen:rmat:scale=21,ef=16 $L
run rmat23 300 gen:rmat:scale=23,ef=16 $L
cd $OUT && tar -czf r7c.tgz r7c && rm -rf r7c
