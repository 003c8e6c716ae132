#!/usr/bin/env bash
# stop 36, call b: the full suite's circuit5M and the smaller inputs (the cache now holds every schedule), then counters of csr-d16-hot on R-MAT 24
T0=$SECONDS
mkdir -p bin/x && tar -xzf bin/c50/b.tgz -C bin/x
D=$OUT/c50b; mkdir -p $D
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $D/gpu.txt; cat $D/gpu.txt
M=bin/c50/matrices
SPAC=bin/x/gpu/spac NCU=0 DEADLINE=330 GRACE=60 JOBS=9 ITERS=50 timeout 420 scripts/gpu-bench.sh $D/suite gen:circuit5M gen:cop20k_A gen:cant gen:mc2depi gen:mac_econ_fwd500 gen:scircuit $M/4elt.graph.gz $M/bayer10.mtx.gz $M/bcsstk13.mtx.gz $M/CA-CondMat_tab-sep.edgelist.gz $M/copter2.graph.gz $M/facebook_combined.txt.gz $M/Groebner_id2003_aug.mtx.gz $M/lund_a.mtx.gz $M/pores_1.mtx.gz $M/rajat01.mtx.gz $M/wiki-Vote.txt.gz > $D/bench.out 2>&1
echo "bench rc=$? +$((SECONDS-T0))s"; grep -v "^partitioned" $D/suite/log.txt | tail -25
left=$((580 - (SECONDS-T0)))
if [ $left -ge 120 ] && command -v ncu >/dev/null; then
  m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__thread_inst_executed.sum
  m+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
  m+=,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
  timeout $((left - 10)) ncu --clock-control none --csv --page raw --print-units base --metrics "$m" -k 'regex:^(?!spmv_spin)' --log-file $D/rmat24.ncu.csv \
    bin/x/gpu/spac spmv gen:rmat:scale=24,ef=16 --gpu -b 1024 --precision fp64,fp32 --kernels csr-d16-hot,cusparse-csr,csr-d16 --iters 1 --warmup 0 --cpu-iters 1 --quiet --format json > $D/rmat24.jsonl 2> $D/rmat24.err
  echo "ncu rmat24 rc=$? +$((SECONDS-T0))s"
else echo "ncu skipped, $left s left"; fi
cd $OUT && tar -czf c50b.tgz c50b && rm -rf c50b
