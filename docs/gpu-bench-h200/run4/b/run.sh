#!/usr/bin/env bash
# H200, call b (stop 48): the suite's inputs below the L2 again with lean256 (the stand-ins but circuit5M, which call b ran, and the
# shared matrices, carried in bin/mat), at B=1024 and 16384, the kernels that led somewhere in the H100 report and
# every cuSPARSE path, 20 products each. The build of call a (bin/c118).
mkdir -p bin/m && tar -xzf bin/c118/b.tgz -C bin/m
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
K=spac-d16-own,spac-d16,spac-seg8,spac-ldg,spac-smem,csr-d16,csr-scalar,csr-vector
K=$K,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
KERNELS=$K BLOCKS=1024,16384 ITERS=20 JOBS=8 DEADLINE=380 SPAC=bin/m/gpu/spac MATRICES=bin/mat NCU=0 \
  timeout 480 scripts/gpu-bench.sh $OUT/h200r4b gen:in-2004 gen:Ga41As41H72 gen:cant gen:cop20k_A gen:mc2depi \
  gen:mac_econ_fwd500 gen:scircuit bin/mat/*.gz
echo "bench rc=$?"
cd $OUT && tar -czf h200r4b.tgz h200r4b && rm -rf h200r4b
