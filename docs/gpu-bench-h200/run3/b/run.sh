#!/usr/bin/env bash
# H200, stop 48 variants, call b: apps/spmv's GPU tests with lean256 (the variant call a found faster everywhere),
# then one more alternating round of plain medians on in-2004 and circuit5M (main, lean256, lean128), ncu on
# lean128 (S=128 rows staged: 640 and 1216 bytes of shared memory a block in fp32 and fp64, against lean256's 1152
# and 2240; and thread 0's carries without branches), and the GPU tests with lean128 if time is left. The tests are
# HEAD's apps/spmv tests built here with the PTX embedded as in main and one line added to TestMain,
# gpu.SetPTXDir($SPAC_PTX_DIR), so that the variant's PTX is loaded (bin/r3-test/spmv.test; the spac command does
# that itself). Every command stops by 295 s (the session's device time is short).
T0=$SECONDS
R=$PWD
mkdir -p bin/m && tar -xzf bin/c117s/b.tgz -C bin/m
D=$OUT/r3b; mkdir -p $D
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=48GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64:$R/bin/m/gpu/lib
S=bin/m/gpu/spac
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,launch__registers_per_thread
M+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__sass_inst_executed_op_local_ld.sum
M+=,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__t_sector_hit_rate.pct
M+=,launch__shared_mem_config_size
left() { echo $((295-(SECONDS-T0))); }
ptx() { [ "$1" = main ] && echo "" || echo "$R/bin/r3-$1"; }
plain() { # label deadline build input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  local t=$SECONDS
  SPAC_PTX_DIR=$(ptx $3) timeout $(left) $S spmv $4 --gpu -b $5 --precision fp32,fp64 --kernels $6 \
    --iters 20 --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "plain $1 rc=$? $((SECONDS-t))s +$((SECONDS-T0))s"
}
prof() { # label deadline build input blocks kernels
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return; }
  local t=$SECONDS
  SPAC_PTX_DIR=$(ptx $3) timeout $(left) ncu --clock-control none --csv --page raw --print-units base \
    --metrics "$M" --log-file $D/$1.ncu.csv $S spmv $4 --gpu -b $5 --precision fp32,fp64 --kernels $6 --iters 1 \
    --warmup 0 --cpu-iters 1 --quiet --format csv > $D/$1.csv 2> $D/$1.err
  echo "ncu $1 rc=$? $((SECONDS-t))s +$((SECONDS-T0))s ($(grep -c '^"[0-9]' $D/$1.ncu.csv) launches)"
}
tests() { # build deadline limit
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip tests-$1 (past $2 s)"; return; }
  local t=$SECONDS l=$(left); [ $3 -lt $l ] && l=$3
  (cd apps/spmv && SPAC_PTX_DIR=$(ptx $1) timeout $l $R/bin/r3-test/spmv.test -test.count=1 -test.v > $D/tests-$1.txt 2>&1
   echo "tests-$1 rc=$? passed $(grep -c -- '--- PASS' $D/tests-$1.txt) failed $(grep -c -- '--- FAIL' $D/tests-$1.txt) skipped $(grep -c -- '--- SKIP' $D/tests-$1.txt) $((SECONDS-t))s +$((SECONDS-T0))s")
  grep -m1 "kernels from" $D/tests-$1.txt; grep -- '--- FAIL' $D/tests-$1.txt | head -5
}
( timeout 250 $S spmv gen:circuit5M -b 16384 --precision fp64 --cpu-iters 1 --quiet --format csv > /dev/null 2> $D/c5-part.err
  echo "partitioned circuit5M B=16384 rc=$? +$((SECONDS-T0))s" ) &
PART=$!
tests lean256 10 110
round() { # input-label input deadline
  for b in main lean256 lean128; do
    k=csr-d16; [ $b = main ] && k+=,cusparse-csr
    plain $1-plain1k-$b-3 $3 $b $2 1024 $k
    k=spac-d16-own; [ $b = main ] && k+=,cusparse-csr
    plain $1-plain16k-$b-3 $3 $b $2 16384 $k
  done
}
round in gen:in-2004 170
wait $PART
round c5 gen:circuit5M 230
prof in-ncu1k-lean128 250 lean128 gen:in-2004 1024 csr-d16
prof in-ncu16k-lean128 255 lean128 gen:in-2004 16384 spac-d16-own
prof c5-ncu1k-lean128 262 lean128 gen:circuit5M 1024 csr-d16
prof c5-ncu16k-lean128 270 lean128 gen:circuit5M 16384 spac-d16-own
tests lean128 260 110
echo "done +$((SECONDS-T0))s"
cd $OUT && tar -czf r3b.tgz r3b && rm -rf r3b
