#!/usr/bin/env bash
# H200, stop 48 variants, call a: csr_d16 with its row sums staged in shared memory (seg8_stage) against main, on
# in-2004 and circuit5M. main's build (bin/c117s, c68ba90) runs every product; the variants replace its PTX at run
# time (SPAC_PTX_DIR=bin/r3-<variant>: lean1k, every narrow block staged in 1024 rows of shared memory; lean256,
# blocks of at most 256 rows staged, the rest by seg8_sums as before). Per input: plain medians of 20 products
# (csr-d16 at B=1024, spac-d16-own at B=16384; main's runs with cusparse-csr beside), two runs each, builds
# alternating; then ncu on one product per kernel and build (run2's metrics, plus local and shared instructions, the
# L1 hit rate and the shared-memory carveout); then ncu's SourceCounters on csr-d16 in fp32 on
# in-2004 (main and lean1k), exported per SASS instruction. Each step is skipped past its deadline and every command
# stops at 390 s (the session's device time is short). circuit5M's B=16384 schedule is partitioned in the background
# from the start.
T0=$SECONDS
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/r3a; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
S=bin/m/gpu/spac
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; nproc; ncu --version; } > $D/machine.txt 2>&1
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,launch__registers_per_thread
M+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__sass_inst_executed_op_local_ld.sum
M+=,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__t_sector_hit_rate.pct
M+=,launch__shared_mem_config_size
ptx() { [ "$1" = main ] && echo "" || echo "bin/r3-$1"; }
plain() { # label deadline build input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  local t=$SECONDS
  SPAC_PTX_DIR=$(ptx $3) timeout $((390-(SECONDS-T0))) $S spmv $4 --gpu -b $5 --precision fp32,fp64 --kernels $6 \
    --iters 20 --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "plain $1 rc=$? $((SECONDS-t))s +$((SECONDS-T0))s"
}
prof() { # label deadline build input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  local t=$SECONDS
  SPAC_PTX_DIR=$(ptx $3) timeout $((390-(SECONDS-T0))) ncu --clock-control none --csv --page raw --print-units base \
    --metrics "$M" --log-file $D/$1.ncu.csv $S spmv $4 --gpu -b $5 --precision fp32,fp64 --kernels $6 --iters 1 \
    --warmup 0 --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "ncu $1 rc=$? $((SECONDS-t))s +$((SECONDS-T0))s ($(grep -c '^"[0-9]' $D/$1.ncu.csv) launches)"
}
src() { # label deadline build blocks kernel regex
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  local t=$SECONDS
  SPAC_PTX_DIR=$(ptx $3) timeout $((390-(SECONDS-T0))) ncu --clock-control none --section SourceCounters \
    -k regex:$6 -c 1 -o $D/$1 $S spmv gen:in-2004 --gpu -b $4 --precision fp32 --kernels $5 --iters 1 --warmup 0 \
    --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  ncu -i $D/$1.ncu-rep --page source --csv --print-source sass > $D/$1.sass.csv 2>> $D/$1.err
  ncu -i $D/$1.ncu-rep --page details --print-details all > $D/$1.details.txt 2>> $D/$1.err
  echo "src $1 rc=$? $((SECONDS-t))s +$((SECONDS-T0))s ($(wc -l < $D/$1.sass.csv) lines)"
}
( timeout 300 $S spmv gen:circuit5M -b 16384 --precision fp64 --cpu-iters 1 --quiet --format csv > /dev/null 2> $D/c5-part.err
  echo "partitioned circuit5M B=16384 rc=$? +$((SECONDS-T0))s" ) &
PART=$!
I=gen:in-2004
round() { # input-label input deadline round
  for b in main lean1k lean256; do
    k=csr-d16; [ $b = main ] && k+=,cusparse-csr
    plain $1-plain1k-$b-$4 $3 $b $2 1024 $k
    k=spac-d16-own; [ $b = main ] && k+=,cusparse-csr
    plain $1-plain16k-$b-$4 $3 $b $2 16384 $k
  done
}
profs() { # input-label input deadline
  for b in main lean1k lean256; do
    prof $1-ncu1k-$b $3 $b $2 1024 csr-d16
    prof $1-ncu16k-$b $3 $b $2 16384 spac-d16-own
  done
}
round in $I 90 1
profs in $I 150
round in $I 170 2
wait $PART
C=gen:circuit5M
round c5 $C 260 1
profs c5 $C 320
round c5 $C 355 2
src sc-csr-main 365 main 1024 csr-d16 spmv_csr_d16
src sc-csr-lean1k 375 lean1k 1024 csr-d16 spmv_csr_d16
echo "done +$((SECONDS-T0))s"
cd $OUT && tar -czf r3a.tgz r3a && rm -rf r3a
