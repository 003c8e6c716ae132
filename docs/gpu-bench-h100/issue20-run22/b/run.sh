#!/usr/bin/env bash
# Round 22, call b. The host now loads spac-d16's row list early only for a narrow format (d16EarlyRows' new
# wide argument; the wide early kernel removed, every other kernel's PTX unchanged). Build N (bin/c115) against the
# committed build O (bin/c114): the GPU tests of apps/spmv on N, then the 200^3 mesh in a random order (wide: O picks
# the early form there, N the stores'), fp32, B=1024, alternating; then the 20M-row circuit (narrow: both early).
T0=$SECONDS
mkdir -p bin/n bin/o && tar -xzf bin/c115/b.tgz -C bin/n && tar -xzf bin/c114/b.tgz -C bin/o
D=$OUT/run22b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
(cd apps/spmv && timeout 150 ../../bin/n/gpu/spmv.test -test.count=1 -test.v > $D/tests-n.txt 2>&1
 echo "tests (N) rc=$? passed $(grep -c -- '--- PASS' $D/tests-n.txt) failed $(grep -c -- '--- FAIL' $D/tests-n.txt) skipped $(grep -c -- '--- SKIP' $D/tests-n.txt) +$((SECONDS-T0))s")
one() { # label build input block kernels [flags]
  [ $((SECONDS-T0)) -lt 520 ] || { echo "skip $1"; return; }
  timeout $((590 - (SECONDS-T0))) bin/$2/gpu/spac spmv $3 $6 --gpu -b $4 --precision fp32 --kernels $5 \
    --iters 20 --cpu-iters 1 --format csv > $D/$1.csv 2> $D/$1.err
  echo "run $1 rc=$? +$((SECONDS-T0))s $(grep -h -E 'spac-d16|cusparse-csr' $D/$1.csv | awk -F, '{printf "%s %s  ", $8, $11}')"
}
M=gen:stencil3d:nx=200,ny=200,nz=200
one mesh-n1 n $M 1024 spac-d16-own,spac-d16,cusparse-csr "--renumber random"
one mesh-o1 o $M 1024 spac-d16-own,spac-d16 "--renumber random"
one mesh-n2 n $M 1024 spac-d16-own,spac-d16 "--renumber random"
one mesh-o2 o $M 1024 spac-d16-own,spac-d16,cusparse-csr "--renumber random"
one c20-n n gen:circuit:n=20000000,deg=5 16384 spac-d16-own,cusparse-csr
cd $OUT && tar -czf run22b.tgz run22b && rm -rf run22b
