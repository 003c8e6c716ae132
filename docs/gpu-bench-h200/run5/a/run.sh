#!/usr/bin/env bash
# H200, stop 49, call a: the build of ab82d78 (bin/c120: scripts/gpu-build.sh, stripped: spac and every package's
# GPU tests). (1) The GPU tests of all nine packages with kernels. (2) The suite below the L2 (run4/b's inputs) at
# block sizes 256 and 512, which stop 48 did not run: the kernels that take those sizes and every cuSPARSE path.
T0=$SECONDS
mkdir -p bin/m && tar -xJf bin/c120/b.txz -C bin/m
D=$OUT/h200r5a; mkdir -p $D
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
for t in gpu:gpu spmv:apps/spmv cg:apps/cg cfd:apps/cfd traversal:apps/traversal apsp:apps/apsp \
         particlefilter:apps/particlefilter btree:apps/btree gaussian:apps/gaussian; do
  name=${t%%:*}; dir=${t#*:}
  (cd $dir && timeout 120 $OLDPWD/bin/m/gpu/$name.test -test.count=1 -test.v > $D/tests-$name.txt 2>&1
   echo "$name rc=$? passed $(grep -c -- '--- PASS' $D/tests-$name.txt) failed $(grep -c -- '--- FAIL' $D/tests-$name.txt) skipped $(grep -c -- '--- SKIP' $D/tests-$name.txt) +$((SECONDS-T0))s")
done
K=spac-d16-own,spac-d16,spac-seg8,csr-d16,csr-scalar,csr-vector
K=$K,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
left=$((560 - (SECONDS-T0)))
KERNELS=$K BLOCKS=256,512 ITERS=20 JOBS=8 DEADLINE=$((left - 90)) SPAC=bin/m/gpu/spac MATRICES=bin/mat NCU=0 \
  timeout $left scripts/gpu-bench.sh $D/suite gen:in-2004 gen:Ga41As41H72 gen:cant gen:cop20k_A gen:mc2depi \
  gen:mac_econ_fwd500 gen:scircuit bin/mat/*.gz > $D/suite.log 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; tail -3 $D/suite.log
cd $OUT && tar -czf h200r5a.tgz h200r5a && rm -rf h200r5a
