#!/usr/bin/env bash
# H200, stop 49, call c: issue 20's item 4 on the H200 (the H100's round 5 again, bin/c120 = ab82d78's build):
# cuSPARSE on the matrix as given and renumbered by RCM, METIS's nested dissection and SPAC (B=1024), on two inputs
# numbered at random (beyond the L2 in fp64 at least): the circuit of 7M rows and the 200^3 mesh. Then DRAM bytes of
# cuSPARSE's csrmv (fp64) on each order of the circuit, Nsight Compute.
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c120/b.txz -C bin/m
S=bin/m/gpu/spac
D=$OUT/h200r5c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
K=cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
CIRC=gen:circuit:n=7000000,deg=5
MESH=gen:stencil3d:nx=200,ny=200,nz=200
timeout $((300 - (SECONDS-T0))) $S spmv $CIRC --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 20 --cpu-iters 1 \
  --reorder rcm,nd,spac --kernels $K --format csv > $D/circuit7M.csv 2> $D/circuit7M.err; echo "circuit7M rc=$? +$((SECONDS-T0))s"
timeout $((500 - (SECONDS-T0))) $S spmv $MESH --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 20 --cpu-iters 1 \
  --reorder rcm,nd,spac --kernels $K --format csv > $D/mesh.csv 2> $D/mesh.err; echo "mesh rc=$? +$((SECONDS-T0))s"
l=$((575 - (SECONDS-T0)))
if [ $l -gt 40 ]; then
  timeout $l ncu --csv --page raw --print-units base --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    -k regex:csrmv --log-file $D/ncu-circuit7M-fp64.csv $S spmv $CIRC --renumber random --gpu -b 1024 --precision fp64 --iters 1 \
    --warmup 0 --cpu-iters 1 --reorder rcm,nd,spac --kernels cusparse-csr --format csv > $D/ncu-run.csv 2> $D/ncu-run.err
  echo "ncu rc=$? +$((SECONDS-T0))s"
fi
for f in $D/*.err; do tr '\r' '\n' < $f | grep -v '^\s*$' | grep -v '^\[' | tail -4 > $f.tail; mv $f.tail $f; done
cd $OUT && tar -czf h200r5c.tgz h200r5c && rm -rf h200r5c
