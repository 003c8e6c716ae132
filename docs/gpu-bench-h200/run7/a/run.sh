#!/usr/bin/env bash
# H200, stop 51, call a: R-MAT 24's and the 272^3 mesh's (numbered at random) SPAC schedules start in the
# background on the GPU machine's CPUs; meanwhile the mesh's kernels without a schedule and cuSPARSE's paths run on
# the GPU. Then it waits for the partitions until the call's end.
. docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r7a; mkdir -p $D
nproc; free -g | head -2; df -h /tmp | tail -1; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
bg r24 $R24
bg mesh $MESH "--renumber random"
sleep 3; pgrep -af "spac spmv" | cut -c1-160
gpu mesh-plain 100 400 $MESH csr-d16-rcm,csr-d16,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell "--renumber random"
waitfor 555 mesh r24
state mesh r24
cp /tmp/r7/*.time /tmp/r7/*.rc /tmp/r7/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
