#!/usr/bin/env bash
# H200, call a: the first call on the new machine (the GPU machine was an H100 until stop 46). The committed build
# (bin/c117, c68ba90): the machine, every package's GPU tests, then the 20M-row circuit at B=16384 against every
# cuSPARSE path, both precisions, with csr-d16 beside the SPAC kernels.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117/b.tgz -C bin/m
D=$OUT/h200a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $D/smi.txt 2>&1
cat $D/smi.txt; nproc
for t in gpu:gpu spmv:apps/spmv cg:apps/cg cfd:apps/cfd traversal:apps/traversal apsp:apps/apsp btree:apps/btree \
         gaussian:apps/gaussian particlefilter:apps/particlefilter; do
  name=${t%%:*}; dir=${t#*:}
  [ $((SECONDS-T0)) -lt 300 ] || { echo "$name not run: past 300 s"; continue; }
  (cd $dir && timeout 120 $OLDPWD/bin/m/gpu/$name.test -test.count=1 -test.v > $D/tests-$name.txt 2>&1
   echo "$name rc=$? passed $(grep -c -- '--- PASS' $D/tests-$name.txt) failed $(grep -c -- '--- FAIL' $D/tests-$name.txt) skipped $(grep -c -- '--- SKIP' $D/tests-$name.txt) +$((SECONDS-T0))s")
done
timeout $((570 - (SECONDS-T0))) bin/m/gpu/spac spmv gen:circuit:n=20000000,deg=5 --gpu -b 16384 --precision fp32,fp64 \
  --kernels spac-d16-own,spac-d16,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo --iters 20 --cpu-iters 1 \
  --format json > $D/c20.json 2> $D/c20.err
echo "c20 rc=$? +$((SECONDS-T0))s"
grep -v '^{' $D/c20.err | tail -30
cd $OUT && tar -czf h200a.tgz h200a && rm -rf h200a
