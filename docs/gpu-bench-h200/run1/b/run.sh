#!/usr/bin/env bash
# H200, call b. On the H200 (60 MiB L2 against the H100's 50) a quarter of x marked evict-last may be too little:
# PTX variants keep50 and keep75 (keep50.patch, keep75.patch: the fraction of x's lines loaded evict-last by
# spac-d16, spac-d16-own and the early kernel), alternating with main's build (bin/c117, c68ba90), on the 20M-row
# circuit at B=16384 and circuit5M at B=4096 and 16384, both precisions, cuSPARSE's CSR and COO in every run.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/h200b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # label ptx-dir input blocks
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  SPAC_PTX_DIR=$2 timeout $((580 - (SECONDS-T0))) bin/m/gpu/spac spmv $3 --gpu -b $4 --precision fp32,fp64 \
    --kernels spac-d16-own,spac-d16,cusparse-csr,cusparse-coo --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s"
  grep -E 'spac-d16|cusparse' $D/$1.csv | awk -F, '{printf "  %s %s %s %s\n", $8, $6, $11, $7}'
}
C20=gen:circuit:n=20000000,deg=5
one c20-m1 "" $C20 16384
one c20-k50a bin/c117s/keep50 $C20 16384
one c20-k75a bin/c117s/keep75 $C20 16384
one c20-m2 "" $C20 16384
one c20-k50b bin/c117s/keep50 $C20 16384
one c20-k75b bin/c117s/keep75 $C20 16384
one c5-m1 "" gen:circuit5M 4096,16384
one c5-k50 bin/c117s/keep50 gen:circuit5M 4096,16384
one c5-m2 "" gen:circuit5M 4096,16384
cd $OUT && tar -czf h200b.tgz h200b && rm -rf h200b
