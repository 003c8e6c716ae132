#!/usr/bin/env bash
# stop 37, call b: circuit5M at B=512 through the suite (its schedule partitioned in the
# background first), and the 20.1M-row mesh in a random order through the suite (beyond the L2)
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c61/b.tgz -C bin/x
D=$OUT/c61b; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
mkdir -p $SPAC_CACHE_DIR
( t=$SECONDS; bin/x/gpu/spac spmv gen:circuit5M -b 512 --precision fp64 --cpu-iters 1 --quiet --format csv > /dev/null 2> $D/c5-part.err; echo "c5 partition rc=$? in $((SECONDS-t)) s" > $D/c5-part.txt ) &
PART=$!
K=csr-d16,csr-d16-hot,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024 ITERS=15 SPMV_ARGS='--renumber random' SPAC=bin/x/gpu/spac DEADLINE=240 GRACE=60 timeout 320 scripts/gpu-bench.sh $D/mesh gen:stencil3d:nx=272,ny=272,nz=272 > $D/mesh.out 2>&1
echo "mesh rc=$? +$((SECONDS-T0))s"; grep -v ncu $D/mesh/log.txt | tail -4
wait $PART; cat $D/c5-part.txt; echo "+$((SECONDS-T0))s"
SKIP_PARTITION=1 BLOCKS=512 SPAC=bin/x/gpu/spac DEADLINE=10 GRACE=$((550 - (SECONDS-T0))) timeout $((565 - (SECONDS-T0))) scripts/gpu-bench.sh $D/c5 gen:circuit5M > $D/c5.out 2>&1
echo "c5 rc=$? +$((SECONDS-T0))s"; tail -4 $D/c5/log.txt
cd $OUT && tar -czf c61b.tgz c61b && rm -rf c61b
