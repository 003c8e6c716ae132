#!/usr/bin/env bash
# Round 22, call c: occupancy. spac-d16's narrow kernels take 40 registers (fp32) and 48 (fp64) under
# __launch_bounds__(128): 12 and 10 resident blocks of 128 threads an SM. PTX variants of build N (bin/c115) through
# $SPAC_PTX_DIR, the same kernel arguments:
#   occ16: the early fp32 kernel asks for 16 blocks (__launch_bounds__(128, 16)): 32 registers, no spills (ptxas 11.8);
#   occn:  occ16, and spac-d16's stores' form 16 blocks in fp32 (32 registers, 16 bytes spilled) and 12 in fp64 (40, 32);
#   occc:  occn, and csr-d16's narrow kernels likewise (fp32 32 registers, 20 bytes spilled; fp64 40, 32).
T0=$SECONDS
mkdir -p bin/n && tar -xzf bin/c115/b.tgz -C bin/n
D=$OUT/run22c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir input block kernels
  [ $((SECONDS-T0)) -lt 540 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((590 - (SECONDS-T0))) bin/n/gpu/spac spmv $3 --gpu -b $4 --precision fp32,fp64 \
    --kernels $5 --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s $(python3 -c "
import csv,sys
print(' '.join(r['kernel']+'/'+r['precision']+' '+str(round(float(r['time_us']),1))+('' if r['ok']=='true' else ' WRONG') for r in csv.DictReader(open('$D/$1.csv')) if r['device']=='gpu'))")"
}
C=gen:circuit:n=20000000,deg=5
one c20-n1 "" $C 16384 spac-d16-own,cusparse-csr
one c20-occ16 bin/c115/occ16 $C 16384 spac-d16-own
one c20-occn bin/c115/occn $C 16384 spac-d16-own
one c20-n2 "" $C 16384 spac-d16-own,cusparse-csr
one c20-occ16b bin/c115/occ16 $C 16384 spac-d16-own
one c20-occnb bin/c115/occn $C 16384 spac-d16-own
one c5-n1 "" gen:circuit5M 1024 spac-d16-own,spac-d16,csr-d16,cusparse-csr
one c5-occc bin/c115/occc gen:circuit5M 1024 spac-d16-own,spac-d16,csr-d16
one c5-n2 "" gen:circuit5M 1024 spac-d16-own,spac-d16,csr-d16
one c5-occcb bin/c115/occc gen:circuit5M 1024 spac-d16-own,spac-d16,csr-d16
cd $OUT && tar -czf run22c.tgz run22c && rm -rf run22c
