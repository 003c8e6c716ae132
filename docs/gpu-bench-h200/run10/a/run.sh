#!/usr/bin/env bash
# H200, planned after stop 53 (not run yet; bin/c128 has main's kernels), call a of three, one right after the other
# (the machine goes back 30 s after a call): our CSR kernels in SPAC's order. Stop 53 found cuSPARSE's CSR in SPAC's
# order (1003.0 us fp64 on R-MAT 23) faster than every kernel of ours on the input as given, and csr-d16-hot there
# (1075.8) losing the order to its renumbering by degree; csr-d16 keeps it. R-MAT 24's and R-MAT 23's schedules start
# in the background (about 1,000 s and 400 s); once R-MAT 23's is cached, the kernels in SPAC's order.
R=/tmp/r10; BUILD=${BUILD:-c128}; . docs/gpu-bench-h200/run7/common.sh
D=$R/out-a; mkdir -p $D
bg r24 $R24
bg r23 $R23
waitfor 450 r23; state r23
K=csr-d16,csr-d16-hot,cusparse-csr,cusparse-csr-alg2,cusparse-coo
[ "$(cat $R/r23.rc 2>/dev/null)" = 0 ] && gpu r23-spac 460 130 $R23 $K "--reorder spac --budget 4"
cp $R/*.time $R/*.rc $D/ 2>/dev/null; pack a
echo "done +$((SECONDS-T0))s"
