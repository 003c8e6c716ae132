#!/usr/bin/env bash
# stop 36, call a: the GPU tests at c1839c9, then the full suite's large stand-ins
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c50/b.tgz -C bin/x
D=$OUT/c50a; mkdir -p $D
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; cat $D/gpu.txt
(cd apps/spmv && timeout 150 ../../bin/x/gpu/spmv.test -test.count=1 -test.v > $D/tests.txt 2>&1; echo "spmv tests rc=$? +$((SECONDS-T0))s")
grep -E "^(--- FAIL|FAIL|ok|PASS)" $D/tests.txt | head; echo "passed: $(grep -c '^--- PASS' $D/tests.txt) skipped: $(grep -c '^--- SKIP' $D/tests.txt)"
(timeout 60 bin/x/gpu/gpu.test -test.count=1 > $D/gputests.txt 2>&1; echo "gpu tests rc=$? +$((SECONDS-T0))s")
SPAC=bin/x/gpu/spac DEADLINE=$((440 - (SECONDS-T0))) GRACE=60 JOBS=9 ITERS=50 timeout $((560 - (SECONDS-T0))) scripts/gpu-bench.sh $D/suite gen:circuit5M gen:Ga41As41H72 gen:in-2004 > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; tail -15 $D/suite/log.txt
cd $OUT && tar -czf c50a.tgz c50a && rm -rf c50a
