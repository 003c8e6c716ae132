#!/usr/bin/env bash
# H200, stop 48, call a: Nsight Compute counters (issue 20: instructions and DRAM bytes per nonzero) on in-2004 and
# circuit5M, main's build (bin/c117s, c68ba90). spac-d16-own at B=16384, csr-d16 at B=1024, cuSPARSE's CSR and COO;
# fp32 and fp64; one product per kernel under ncu (--iters 1 --warmup 0: the check, then gpu_spin and the timed
# product; caches flushed before each launch, ncu's default; clocks not locked). Beside each, the plain medians of 20
# products from the same binary. circuit5M's B=16384 schedule is partitioned in the background from the start.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/s48a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
S=bin/m/gpu/spac
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; nproc; command -v ncu; ncu --version; } > $D/machine.txt 2>&1
cat $D/machine.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,launch__registers_per_thread
M+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
plain() { # label deadline input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  timeout $((565-(SECONDS-T0))) $S spmv $3 --gpu -b $4 --precision fp32,fp64 --kernels $5 --iters 20 --cpu-iters 1 \
    --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "plain $1 rc=$? +$((SECONDS-T0))s"
}
prof() { # label deadline input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  timeout $((565-(SECONDS-T0))) ncu --clock-control none --csv --page raw --print-units base --metrics "$M" \
    --log-file $D/$1.ncu.csv $S spmv $3 --gpu -b $4 --precision fp32,fp64 --kernels $5 --iters 1 --warmup 0 \
    --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "ncu $1 rc=$? +$((SECONDS-T0))s ($(grep -c '^"[0-9]' $D/$1.ncu.csv) launches)"
}
# circuit5M's partition (CPU only; the schedule goes into the cache), in the background
( timeout 420 $S spmv gen:circuit5M -b 16384 --precision fp64 --cpu-iters 1 --quiet --format csv > /dev/null 2> $D/c5-part.err
  echo "partitioned circuit5M B=16384 rc=$? +$((SECONDS-T0))s" ) &
PART=$!
I=gen:in-2004
plain in-plain16k 200 $I 16384 spac-d16-own,cusparse-csr,cusparse-coo
plain in-plain1k 220 $I 1024 csr-d16,cusparse-csr,cusparse-coo
prof in-ncu16k 260 $I 16384 spac-d16-own,cusparse-csr,cusparse-coo
prof in-ncu1k 280 $I 1024 csr-d16
wait $PART
C=gen:circuit5M
plain c5-plain16k 430 $C 16384 spac-d16-own,cusparse-csr,cusparse-coo
prof c5-ncu16k 460 $C 16384 spac-d16-own,cusparse-csr,cusparse-coo
plain c5-plain1k 500 $C 1024 csr-d16,cusparse-csr,cusparse-coo
prof c5-ncu1k 510 $C 1024 csr-d16
echo "done +$((SECONDS-T0))s"
cd $OUT && tar -czf s48a.tgz s48a && rm -rf s48a
