#!/usr/bin/env bash
# H200, stop 50, call d: bin/c124 = HEAD with the segmented warp scan that seg8_sums and seg8_stage shared written once
# (seg8_scan; the PTX holds the same instructions, a few in another order). (1) The GPU tests of all nine packages.
# (2) in-2004: csr-d16 (B=1024) and spac-d16-own (B=16384) against bin/c122 (aaba398), alternating, medians of 20.
# (3) Where csr-d16-rcm's time goes on the 200^3 mesh numbered at random: its launches under Nsight Compute.
T0=$SECONDS
for b in c122 c124; do mkdir -p bin/$b/m && tar -xJf bin/$b/b.txz -C bin/$b/m; done
D=$OUT/h200r6d; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
for t in gpu:gpu spmv:apps/spmv cg:apps/cg cfd:apps/cfd traversal:apps/traversal apsp:apps/apsp \
         particlefilter:apps/particlefilter btree:apps/btree gaussian:apps/gaussian; do
  name=${t%%:*}; dir=${t#*:}; l=$((250 - (SECONDS-T0))); [ $l -gt 120 ] && l=120
  [ $l -lt 5 ] && { echo "$name not run: out of time"; continue; }
  (cd $dir && timeout $l $OLDPWD/bin/c124/m/gpu/$name.test -test.count=1 -test.v > $D/tests-$name.txt 2>&1
   echo "$name rc=$? passed $(grep -c -- '--- PASS' $D/tests-$name.txt) failed $(grep -c -- '--- FAIL' $D/tests-$name.txt) skipped $(grep -c -- '--- SKIP' $D/tests-$name.txt) +$((SECONDS-T0))s")
done
grep -v -- '^    ' $D/tests-traversal.txt > $D/t && mv $D/t $D/tests-traversal-top.txt && rm -f $D/tests-traversal.txt
i=0
for b in c124 c122 c124 c122; do
  i=$((i+1)); l=$((360 - (SECONDS-T0))); [ $l -lt 20 ] && break
  timeout $l bin/$b/m/gpu/spac spmv gen:in-2004 --gpu -b 1024,16384 --precision fp32,fp64 --iters 20 --cpu-iters 1 \
    --kernels csr-d16,spac-d16-own --format csv > $D/in2004-$i-$b.csv 2> $D/in2004-$i-$b.err; echo "in-2004 $i $b rc=$? +$((SECONDS-T0))s"
done
l=$((445 - (SECONDS-T0)))
if [ $l -gt 40 ]; then
  timeout $l ncu --csv --page raw --print-units base \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum \
    --log-file $D/ncu-mesh-rcm.csv bin/c124/m/gpu/spac spmv gen:stencil3d:nx=200,ny=200,nz=200 --renumber random --gpu \
    -b 1024 --precision fp32,fp64 --iters 1 --warmup 0 --cpu-iters 1 --kernels csr-d16-rcm --format csv > $D/ncu-run.csv 2> $D/ncu-run.err
  echo "ncu rc=$? +$((SECONDS-T0))s"
fi
for f in $D/*.err; do tr '\r' '\n' < $f | grep -v '^\s*$' | tail -6 > $f.tail; mv $f.tail $f; done
cd $OUT && tar -czf h200r6d.tgz h200r6d && rm -rf h200r6d
