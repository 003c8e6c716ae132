#!/usr/bin/env bash
# issue 20, round 9 (a): Nsight Compute counters on R-MAT 24 with the committed csr-d16 (wide blocks' columns in 24 bits, 3755c1a) against cuSPARSE's CSR, one product each, caches flushed
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c36/b.tgz -C bin/x
D=$OUT/r9a; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
command -v ncu || { echo no ncu; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
m+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,launch__registers_per_thread
m+=,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
timeout 560 ncu --clock-control none --csv --page raw --print-units base --metrics "$m" -k 'regex:^(?!spmv_spin)' --log-file $D/rmat24.csv \
    bin/x/gpu/spac spmv gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp32,fp64 -m default --kernels csr-d16,cusparse-csr --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json > $D/rmat24.jsonl 2> $D/rmat24.err
echo "rc=$? +$((SECONDS-T0))s"
cd $OUT && tar -czf r9a.tgz r9a && rm -rf r9a
