#!/usr/bin/env bash
# issue 20, round 6 (2): GPU tests; csr-d16 against cuSPARSE's best path of all on more inputs, and on the SPAC order
T0=$SECONDS
tar -xzf bin/c21/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r6b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt)"
K=csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
C="--gpu -b 256,512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 -m default --kernels $K --format json"
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((560 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) $S spmv "$@" $C > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
run in-2004 90 gen:in-2004 --reorder spac --reorder-block-size 1024
run mac_econ_fwd500 30 gen:mac_econ_fwd500
run mc2depi 30 gen:mc2depi
run Ga41As41H72 60 gen:Ga41As41H72
run circuit5M 90 gen:circuit5M
run stencil200-random 240 gen:stencil3d:nx=200,ny=200,nz=200 --renumber random,spac --reorder-block-size 1024
cd $OUT && tar -czf r6b.tgz r6b && rm -rf r6b
