#!/usr/bin/env bash
# H200, stop 50, call c: spac-d16-ord (and spac-d16-hot) on the SPAC order of 'spac reorder' (order.ByParts:
# shared vertices grouped by the part they face, in RCM's sweep; bin/c123) against its earlier block order (partsNear;
# bin/c122 = aaba398), side by side on the same schedules (one cache), alternating which build runs first; csr-d16-rcm
# and cuSPARSE's best path of each input beside them. Medians of 20, B=1024, inputs numbered at random.
T0=$SECONDS
for b in c122 c123; do mkdir -p bin/$b/m && tar -xJf bin/$b/b.txz -C bin/$b/m; done
D=$OUT/h200r6c; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
one() { # build input name kernels deadline
  timeout $(($5 - (SECONDS-T0))) bin/$1/m/gpu/spac spmv $2 --renumber random --gpu -b 1024 --precision fp32,fp64 --iters 20 \
    --cpu-iters 1 --kernels $4 --format csv > $D/$3-$1.csv 2> $D/$3-$1.err; echo "$3 $1 rc=$? +$((SECONDS-T0))s"
}
MESH=gen:stencil3d:nx=200,ny=200,nz=200
CIRC=gen:circuit:n=7000000,deg=5
one c122 $MESH mesh spac-d16-ord,csr-d16-rcm,cusparse-sell 250
one c123 $MESH mesh spac-d16-ord,csr-d16-rcm,cusparse-sell 330
one c123 $CIRC circuit7M spac-d16-ord,spac-d16-hot,spac-d16-own,csr-d16,cusparse-csr,cusparse-coo 470
one c122 $CIRC circuit7M spac-d16-ord,spac-d16-hot,spac-d16-own,csr-d16,cusparse-csr,cusparse-coo 560
for f in $D/*.err; do tr '\r' '\n' < $f | grep -v '^\s*$' | tail -6 > $f.tail; mv $f.tail $f; done
cd $OUT && tar -czf h200r6c.tgz h200r6c && rm -rf h200r6c
