#!/usr/bin/env bash
# issue 20, round 10 (c): Nsight Compute counters of round 10's csr-d16-tiled (throwaway build of run b) against csr-d16 and cuSPARSE's CSR on R-MAT 23, one product each, caches flushed
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c42/b.tgz -C bin/x
D=$OUT/r10c; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
command -v ncu || { echo no ncu; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__thread_inst_executed.sum
m+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
m+=,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
timeout 540 ncu --clock-control none --csv --page raw --print-units base --metrics "$m" -k 'regex:^(?!spmv_spin)' --log-file $D/rmat23.csv \
    bin/x/gpu/spac spmv gen:rmat:scale=23,ef=16 --gpu -b 1024 --precision fp32,fp64 --kernels csr-d16,csr-d16-tiled,cusparse-csr --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json > $D/rmat23.jsonl 2> $D/rmat23.err
echo "rc=$? +$((SECONDS-T0))s"
cd $OUT && tar -czf r10c.tgz r10c && rm -rf r10c
