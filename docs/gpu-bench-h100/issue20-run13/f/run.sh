#!/usr/bin/env bash
# stop 37, call f: spac-d16 and spac-d16-x on inputs given in a random order (the 200^3 mesh,
# beyond the L2, and in-2004), against spac-seg8, csr-d16, csr-d16-rcm and cuSPARSE's paths
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c65/b.tgz -C bin/x
D=$OUT/c65f; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
K=spac-d16,spac-d16-x,spac-seg8,csr-d16,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
KERNELS=$K BLOCKS=1024 ITERS=30 JOBS=2 SPMV_ARGS='--renumber random' SPAC=bin/x/gpu/spac DEADLINE=300 GRACE=80 timeout 390 scripts/gpu-bench.sh $D/random gen:stencil3d:nx=200,ny=200,nz=200 gen:in-2004 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; tail -8 $D/random/log.txt
cd $OUT && tar -czf c65f.tgz c65f && rm -rf c65f
