#!/usr/bin/env bash
# issue 20, round 6 (3): csr-d16 with the hand-off instead of the clearing launch: GPU tests, then every input of rounds 6a/6b but the stencil
T0=$SECONDS
tar -xzf bin/c21/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r6c; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/gpu/spmv.test -test.count=1 -test.v 2>&1) > $D/tests.txt; echo "tests rc=$? +$((SECONDS-T0))s"
grep -E "^(--- FAIL|FAIL|ok|PASS)|D16|handoff" $D/tests.txt | head -20; echo "passed: $(grep -c '^--- PASS' $D/tests.txt)"
K=csr-d16,csr-scalar,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell,cusparse-bsr
C="--gpu -b 256,512,1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 -m default --kernels $K --format json"
run() { # name timeout args...
  local n=$1 t=$2; shift 2
  local l=$((500 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$n skipped +$((SECONDS-T0))s"; return; }
  timeout $(( t < l ? t : l )) $S spmv "$@" $C > $D/$n.jsonl 2> $D/$n.err; echo "$n rc=$? +$((SECONDS-T0))s"
}
run mac_econ_fwd500 30 gen:mac_econ_fwd500
run mc2depi 30 gen:mc2depi
run cant 30 gen:cant
run cop20k_A 30 gen:cop20k_A
run in-2004 60 gen:in-2004
run circuit7M 90 gen:circuit:n=7000000,deg=5
run Ga41As41H72 60 gen:Ga41As41H72
run circuit5M 150 gen:circuit5M
cd $OUT && tar -czf r6c.tgz r6c && rm -rf r6c
