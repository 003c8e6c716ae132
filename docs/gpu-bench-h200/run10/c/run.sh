#!/usr/bin/env bash
# Call c, right after b (R-MAT 24's schedule cached): R-MAT 24 in SPAC's order, which stop 52 could not finish.
R=/tmp/r10; BUILD=${BUILD:-c128}; . docs/gpu-bench-h200/run7/common.sh
D=$R/out-c; mkdir -p $D
waitfor 120 r24; state r24
K=csr-d16,csr-d16-hot,spac-d16-hot,cusparse-csr,cusparse-coo
[ "$(cat $R/r24.rc 2>/dev/null)" = 0 ] && gpu r24-spac 130 440 $R24 $K "--reorder spac --budget 4"
cp $R/*.time $R/*.rc $D/ 2>/dev/null; pack c
echo "done +$((SECONDS-T0))s"
