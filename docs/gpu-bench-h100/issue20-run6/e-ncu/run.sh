#!/usr/bin/env bash
# issue 20, round 6 (5): Nsight Compute counters of csr-d16 against cuSPARSE's CSR and COO kernels, B=1024, one product each, caches flushed
T0=$SECONDS
tar -xzf bin/c21/b.tgz -C bin
S=bin/gpu/spac
D=$OUT/r6e; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader > $D/gpu.txt; nproc >> $D/gpu.txt
command -v ncu || { echo no ncu; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
m+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,launch__registers_per_thread
for job in "in-2004 gen:in-2004 fp32" "in-2004 gen:in-2004 fp64" "circuit5M gen:circuit5M fp64" "circuit5M gen:circuit5M fp32"; do
  set -- $job
  l=$((400 - (SECONDS-T0))); [ $l -lt 20 ] && { echo "$1 $3 skipped"; continue; }
  timeout $l ncu --clock-control none --csv --page raw --print-units base --metrics "$m" -k 'regex:^(?!spmv_spin)' --log-file $D/$1-$3.csv \
    $S spmv $2 --gpu -b 1024 --precision $3 -m default --kernels csr-d16,cusparse-csr,cusparse-coo --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json > $D/$1-$3.jsonl 2> $D/$1-$3.err
  echo "$1 $3 rc=$? +$((SECONDS-T0))s"
done
cd $OUT && tar -czf r6e.tgz r6e && rm -rf r6e
