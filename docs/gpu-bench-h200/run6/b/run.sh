#!/usr/bin/env bash
# H200, stop 50, call b: the reworked SPAC order on the circuit of 7M rows; then apps/spmv's GPU tests.
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c122/b.txz -C bin/m
S=bin/m/gpu/spac
D=$OUT/h200r6b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
CIRC=gen:circuit:n=7000000,deg=5
K=cusparse-csr,cusparse-coo
timeout $((300 - (SECONDS-T0))) $S spmv $CIRC --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 20 --cpu-iters 1 \
  --reorder rcm,nd,spac --kernels $K --format csv > $D/circuit7M.csv 2> $D/circuit7M.err; echo "circuit7M rc=$? +$((SECONDS-T0))s"
l=$((480 - (SECONDS-T0)))
if [ $l -gt 60 ]; then
  timeout $l ncu --csv --page raw --print-units base \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum \
    --log-file $D/ncu-circuit7M-fp64.csv $S spmv $CIRC --renumber random --gpu -b 1024 --precision fp64 --iters 1 \
    --warmup 0 --cpu-iters 1 --reorder rcm,nd,spac --kernels $K --format csv > $D/ncu-run.csv 2> $D/ncu-run.err
  echo "ncu rc=$? +$((SECONDS-T0))s"
fi
l=$((575 - (SECONDS-T0)))
[ $l -gt 20 ] && (cd apps/spmv && timeout $l $OLDPWD/bin/m/gpu/spmv.test -test.count=1 -test.v > $D/tests-spmv.txt 2>&1
  echo "spmv rc=$? passed $(grep -c -- '--- PASS' $D/tests-spmv.txt) failed $(grep -c -- '--- FAIL' $D/tests-spmv.txt) skipped $(grep -c -- '--- SKIP' $D/tests-spmv.txt) +$((SECONDS-T0))s")
for f in $D/*.err; do tr '\r' '\n' < $f | grep -v '^\s*$' | tail -14 > $f.tail; mv $f.tail $f; done
cat $D/circuit7M.err
cd $OUT && tar -czf h200r6b.tgz h200r6b && rm -rf h200r6b
