#!/usr/bin/env bash
# Prepared at stop 42 on branch exp/xmap, not yet run. The 20M-row circuit with a schedule started from its own order
# (--starts default; issue20.md round 18: spac-d16-own's format then is csr-d16's but for the row list), the row list
# in 32 bits (main's) and in 16 ($SPAC_ROWS16=1: the spac_d16_r16 kernels, encodeRows16: 0.80 -> 0.41 B/nnz there),
# alternating; the schedules are made in the first run and read from the cache after. Build as a/run.sh says.
T0=$SECONDS
B=${B:-bin/c97}
tar -xzf $B/src.tgz   # the branch's apps/spmv, so that the tests read the sources the binary was built from
mkdir -p bin/x && tar -xzf $B/b.tgz -C bin/x
D=$OUT/run19b; mkdir -p $D
run() { # label switches input kernels blocks [more spmv args]
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  env $2 SPAC=bin/x/gpu/spac KERNELS=$4 BLOCKS=$5 ITERS=20 JOBS=1 SPMV_ARGS="$6" \
    timeout $((585 - (SECONDS-T0))) scripts/gpu-bench.sh $D/$1 "$3" > $D/$1.out 2>&1
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
run c20-own SPAC_ROWS16= $C spac-d16-own,spac-d16,csr-d16,cusparse-csr 1024,16384 "--starts default"
run c20-own-r16 SPAC_ROWS16=1 $C spac-d16-own,spac-d16 1024,16384 "--starts default"
run c20-own2 SPAC_ROWS16= $C spac-d16-own,spac-d16 1024,16384 "--starts default"
cd $OUT && tar -czf run19b.tgz run19b && rm -rf run19b
