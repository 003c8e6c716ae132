#!/usr/bin/env bash
# H200, stop 48, call b: Nsight Compute counters on the scale-24 R-MAT graph (gen:rmat:scale=24,ef=16, 263M
# nonzeros; no partition): csr-d16-hot at B=1024 (x gathered into the degree order, then csr-d16) against cuSPARSE's
# CSR and COO, fp32 and fp64, one product each under ncu as in call a; then the plain medians of 20 products. If the
# scale-24 run under ncu fails early, scale 23 instead.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/s48b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
S=bin/m/gpu/spac
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,launch__registers_per_thread
M+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
plain() { # label deadline input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return 1; }
  timeout $((570-(SECONDS-T0))) $S spmv $3 --gpu -b $4 --precision fp32,fp64 --kernels $5 --iters 20 --cpu-iters 1 \
    --quiet --format csv > $D/$1.csv 2> $D/$1.err
  local rc=$?; echo "plain $1 rc=$rc +$((SECONDS-T0))s"; return $rc
}
prof() { # label deadline limit input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return 1; }
  timeout $3 ncu --clock-control none --csv --page raw --print-units base --metrics "$M" \
    --log-file $D/$1.ncu.csv $S spmv $4 --gpu -b $5 --precision fp32,fp64 --kernels $6 --iters 1 --warmup 0 \
    --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  local rc=$?; echo "ncu $1 rc=$rc +$((SECONDS-T0))s ($(grep -c '^"[0-9]' $D/$1.ncu.csv) launches)"; return $rc
}
K=csr-d16-hot,cusparse-csr,cusparse-coo
if prof r24-ncu 10 360 gen:rmat:scale=24,ef=16 1024 $K; then
  plain r24-plain 450 gen:rmat:scale=24,ef=16 1024 $K
else
  tail -5 $D/r24-ncu.err
  prof r23-ncu 240 200 gen:rmat:scale=23,ef=16 1024 $K && plain r23-plain 470 gen:rmat:scale=23,ef=16 1024 $K
fi
echo "done +$((SECONDS-T0))s"
cd $OUT && tar -czf s48b.tgz s48b && rm -rf s48b
