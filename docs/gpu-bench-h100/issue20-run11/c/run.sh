#!/usr/bin/env bash
# issue 20, round 11 (c): csr-d16-rcm (x gathered into the reverse Cuthill-McKee order, csr-d16 on the renumbered matrix, y scattered back, every product) on the 3-D mesh of 20.1M rows given in a random order, against csr-d16 and cuSPARSE's paths; the GPU tests first
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c45/b.tgz -C bin/x
D=$OUT/r11c; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt
(cd apps/spmv && timeout 100 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
timeout $((330 - SECONDS + T0)) bin/x/gpu/spac spmv gen:stencil3d:nx=272,ny=272,nz=272 --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --budget 3 --kernels csr-d16,csr-d16-rcm,cusparse-csr,cusparse-sell --format json > $D/mesh272-random.jsonl 2> $D/mesh272-random.err
echo "mesh rc=$? +$((SECONDS-T0))s"; tail -3 $D/mesh272-random.err
cd $OUT && tar -czf r11c.tgz r11c && rm -rf r11c
