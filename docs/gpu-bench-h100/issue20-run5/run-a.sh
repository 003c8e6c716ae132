#!/usr/bin/env bash
# issue 20, round 5: cuSPARSE on the SPAC, RCM and ND orders (time, then DRAM bytes), in-2004 and circuit7M (beyond the L2)
T0=$SECONDS
tar -xzf bin/c20x/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r5; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spmv-cache SPAC_CACHE_MAX_SIZE=40GiB
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
mkdir -p $SPAC_CACHE_DIR
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
K=cusparse-csr,cusparse-csr-alg2,cusparse-coo,spac-seg8,spac-seg8-pf
timeout 120 $S spmv gen:in-2004 --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --reorder spac --kernels $K --format json > $D/in-2004.jsonl 2> $D/in-2004.err; echo "in-2004 rc=$? +$((SECONDS-T0))s"
CIRC=gen:circuit:n=7000000,deg=5
timeout $((470 - (SECONDS-T0))) $S spmv $CIRC --gpu -b 1024 --precision fp32,fp64 --iters 15 --warmup 3 --cpu-iters 1 --reorder rcm,nd,spac --kernels $K --format json > $D/circuit7M.jsonl 2> $D/circuit7M.err; echo "circuit7M rc=$? +$((SECONDS-T0))s"
l=$((560 - (SECONDS-T0)))
if [ $l -gt 40 ] && command -v ncu >/dev/null; then
  timeout $l ncu --csv --page raw --print-units base --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct -k regex:csrmv --log-file $D/ncu-circuit7M-fp64.csv \
    $S spmv $CIRC --gpu -b 1024 --precision fp64 --iters 1 --warmup 0 --cpu-iters 1 --reorder rcm,spac --kernels cusparse-csr --format json > $D/ncu-run.jsonl 2> $D/ncu-run.err; echo "ncu rc=$? +$((SECONDS-T0))s"
fi
cd $OUT && tar -czf r5.tgz r5 && rm -rf r5
