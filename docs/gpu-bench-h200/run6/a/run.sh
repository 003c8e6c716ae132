#!/usr/bin/env bash
# H200, stop 50, call a: the reworked SPAC order (f92ed9e/aaba398, order.ByParts) on the GPU for the first time.
# The 200^3 mesh numbered at random: cuSPARSE's CSR and sliced ELL on the matrix as given and renumbered by RCM,
# METIS's nested dissection and SPAC (B=1024), medians of 20; then DRAM bytes of each order's sliced ELL and CSR
# products (fp64, one product each, Nsight Compute, caches flushed before each launch). bin/c122 = aaba398's build.
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c122/b.txz -C bin/m
S=bin/m/gpu/spac
D=$OUT/h200r6a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
MESH=gen:stencil3d:nx=200,ny=200,nz=200
timeout $((330 - (SECONDS-T0))) $S spmv $MESH --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 20 --cpu-iters 1 \
  --reorder rcm,nd,spac --kernels cusparse-csr,cusparse-sell --format csv > $D/mesh.csv 2> $D/mesh.err; echo "mesh rc=$? +$((SECONDS-T0))s"
l=$((560 - (SECONDS-T0)))
if [ $l -gt 60 ]; then
  timeout $l ncu --csv --page raw --print-units base \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex.sum \
    --log-file $D/ncu-mesh-fp64.csv $S spmv $MESH --renumber random --gpu -b 1024 --precision fp64 --iters 1 \
    --warmup 0 --cpu-iters 1 --reorder rcm,nd,spac --kernels cusparse-csr,cusparse-sell --format csv > $D/ncu-run.csv 2> $D/ncu-run.err
  echo "ncu rc=$? +$((SECONDS-T0))s"
fi
for f in $D/*.err; do tr '\r' '\n' < $f | grep -v '^\s*$' | tail -14 > $f.tail; mv $f.tail $f; done
cat $D/mesh.err
cd $OUT && tar -czf h200r6a.tgz h200r6a && rm -rf h200r6a
