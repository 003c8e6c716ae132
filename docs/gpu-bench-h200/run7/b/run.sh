#!/usr/bin/env bash
# H200, stop 51, call b: checks that call a's background partitions outlived it; once the mesh's schedule is cached,
# every kernel on the 272^3 mesh numbered at random in one run; then waits for R-MAT 24's schedule and, with time
# left, times R-MAT 24.
. docs/gpu-bench-h200/run7/common.sh
D=$OUT/h200r7b; mkdir -p $D
state mesh r24
KM=spac-d16-ord,spac-d16-own,spac-d16,csr-d16-rcm,cusparse-csr,cusparse-csr-alg2,cusparse-coo,cusparse-sell
K24=spac-d16-hot,spac-d16-own,spac-d16-ord,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
if waitfor 300 mesh && [ "$(cat /tmp/r7/mesh.rc)" = 0 ]; then
  gpu mesh-all 400 $((570-(SECONDS-T0))) $MESH $KM "--renumber random --budget 4"
fi
waitfor 330 r24
state mesh r24
if [ "$(cat /tmp/r7/r24.rc 2>/dev/null)" = 0 ]; then
  gpu r24-all 340 $((575-(SECONDS-T0))) $R24 $K24 "--budget 4"
else
  waitfor 560 r24; state r24
fi
cp /tmp/r7/*.time /tmp/r7/*.rc /tmp/r7/*.csv $D/ 2>/dev/null
echo "done +$((SECONDS-T0))s"
