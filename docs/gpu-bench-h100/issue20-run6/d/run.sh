#!/usr/bin/env bash
# issue 20, round 6 (4): csr-d16 with the last finisher (no clearing launch) against the clearing launch (975b16b), same run, alternating
# bin/gpu/spac was the last-finisher build (rows in *-last-finisher.jsonl), bin/gpu/spac-clear the committed csr-d16, 975b16b (rows in *-csr-d16.jsonl)
T0=$SECONDS
tar -xzf bin/c21/b.tgz -C bin
D=$OUT/r6d; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
(cd apps/spmv && timeout 100 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)|D16" $D/tests.txt | head -20; echo "passed: $(grep -c '^--- PASS' $D/tests.txt)"
K=csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
C="--gpu -b 256,512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 -m default --kernels $K --format json"
for in in mac_econ_fwd500 mc2depi cant cop20k_A in-2004 circuit:n=7000000,deg=5; do
  n=${in%%:*}; [ "$n" = circuit ] && n=circuit7M
  for b in spac spac-clear; do
    l=$((330 - (SECONDS-T0))); [ $l -lt 15 ] && { echo "$n $b skipped"; continue; }
    timeout $l bin/gpu/$b spmv gen:$in $C > $D/$n-$b.jsonl 2> $D/$n-$b.err; echo "$n $b rc=$? +$((SECONDS-T0))s"
  done
done
cd $OUT && tar -czf r6d.tgz r6d && rm -rf r6d
