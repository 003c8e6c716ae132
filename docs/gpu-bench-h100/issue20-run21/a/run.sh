#!/usr/bin/env bash
# Prepared at stop 44, not yet run. Round 20 landed the list's first two entries loaded before x in fp32 only: in fp64
# the same change was 21% slower (742.3 against 614.7 us, the 20M-row circuit, spac-d16-own B=16384). Read on this VM
# (ptxas 11.8 for sm_90, cuobjdump): with the early loads, ptxas moves the fp64 kernel's second meta load (m2) from
# the start to after the warp scan, one more memory latency before the gathers; main's fp32 kernel has it late too.
# Variants of main's apps/spmv/kernels/spmv.cu (the same kernel arguments, so through $SPAC_PTX_DIR):
#   v1: the early loads in fp64 too, and the meta loads as asm volatile (ptxas still puts m2 late: likely no help);
#   v2: main, meta loads as asm volatile only;
#   v3: the early loads in fp64 too (round 20's fp64, without the row0 move);
#   v4: v3, and each thread loads the two words of m2 it uses (flags, its warp's offset), not the int4: both come
#       before the scan; ptxas then gives spac-d16 fp64 56 registers (9 blocks an SM), and csr-d16 40 (fp64) and
#       32 (fp32) instead of 48 and 40, which touches csr-d16 too.
# Setup here: scripts/gpu-build.sh; pack stripped bin/gpu/{spac,spmv.test,lib} into bin/cNN/b.tgz; for each vN,
# patch a copy of spmv.cu with vN.patch, scripts/gen-ptx.sh on it, its spmv.ptx into bin/cNN/vN/; carry bin/cNN.
T0=$SECONDS
B=${B:-bin/c110}
mkdir -p bin/new && tar -xzf $B/b.tgz -C bin/new
S=bin/new/gpu/spac
D=$OUT/run21a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label variant input kernels block
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  local dir=; [ "$2" = base ] || dir=$B/$2
  SPAC_PTX_DIR=$dir timeout $((590 - (SECONDS-T0))) $S spmv $3 --gpu -b $5 --precision fp32,fp64 \
    --kernels "$4" --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
}
C=gen:circuit:n=20000000,deg=5
one c20-base1 base $C spac-d16-own,spac-d16,cusparse-csr 16384
for v in v3 v4 v1 v2; do one c20-$v $v $C spac-d16-own,spac-d16 16384; done
one c20-base2 base $C spac-d16-own,spac-d16 16384
one c20-csr-base base $C csr-d16 1024
one c20-csr-v4 v4 $C csr-d16 1024
for v in base v4 v3; do one c5-$v $v gen:circuit5M spac-d16-own,csr-d16 1024; done
cd $OUT && tar -czf run21a.tgz run21a && rm -rf run21a
