# Sourced by run7/*/run.sh on the GPU machine (repository root): the bundle, the cache, the background partitions.
# R (default /tmp/r7) holds the build and the background partitions' files; BUILD (default c125) names the build.
# Set them as statements before sourcing this file: bash keeps an assignment put before '.' only while the file is
# read, which left R empty in stop 52 and sent the partitions' files to $HOME.
T0=$SECONDS
R=${R:-/tmp/r7} BUILD=${BUILD:-c125}
G=$R/gpu   # the build, unpacked outside the tree so that every call of the session finds it
[ -x $G/spac ] || { mkdir -p $R && tar -xJf bin/$BUILD/b.txz -C $R; }
export SPAC_CACHE_DIR=/tmp/spac-bench-cache SPAC_CACHE_MAX_SIZE=60GiB LD_LIBRARY_PATH=/usr/local/cuda/lib64
# bg LABEL INPUT [EXTRA]: build and cache INPUT's SPAC schedule at B=1024 (spac spmv on the CPU caches the schedule
# its GPU run loads) in a process of its own session, so that it may outlive the call; its stage lines go through
# script(1) to $R/LABEL.log, its exit status to LABEL.rc, time and peak memory to LABEL.time.
bg() {
  local cmd="$G/spac spmv $2 -b 1024 --kernels spac-d16-own --cpu-iters 1 --format csv $3 > $1.csv"
  if command -v script > /dev/null; then cmd="script -qfec \"$cmd\" $1.log"; else cmd="$cmd 2> $1.log"; fi
  # The outer redirection too: the backgrounded 'cd && setsid' list is a shell of its own that lives as long as the
  # partition, and with the caller's output it held a pipe open (stop 52: 'run.sh | tail' ran out the call).
  (cd $R && setsid nohup bash -c "/usr/bin/time -f '%e s %M KB' -o $1.time $cmd > /dev/null 2>&1; echo \$? > $1.rc" \
    > /dev/null 2>&1 < /dev/null &) > /dev/null 2>&1 < /dev/null
}
# state LABEL...: how each background partition stands (its stage lines so far, rc once done)
state() {
  for l in "$@"; do
    echo "== $l +$((SECONDS-T0))s rc=$(cat $R/$l.rc 2>/dev/null || echo running) $(cat $R/$l.time 2>/dev/null)"
    tr '\r' '\n' < $R/$l.log 2>/dev/null | grep -a '^  spac ' | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' | tail -30
  done
  pgrep -af "spac spmv" | cut -c1-160; free -g | head -2
}
# waitfor DEADLINE LABEL...: sleep until every LABEL.rc exists or the call has run DEADLINE seconds
waitfor() {
  local d=$1; shift
  while [ $((SECONDS-T0)) -lt $d ]; do
    local all=1; for l in "$@"; do [ -e $R/$l.rc ] || all=0; done
    [ $all = 1 ] && return 0; sleep 5
  done
  return 1
}
# pack NAME: everything in $D as one file, $OUT/NAME.tgz. A call brings back at most 8 files from $OUT, and the next
# call's $OUT is a new folder: stop 53 lost call c's files, written beside copies of the same (over the count).
pack() { tar -czf $OUT/$1.tgz -C $D . && echo "packed $(tar -tzf $OUT/$1.tgz | grep -vc '/$') files into $1.tgz"; }
# spac stops at its next check on the TERM of timeout(1); a METIS call does not check (stop 53: nested dissection on
# R-MAT 23 and the 272^3 mesh ran past the call's end), so the KILL after it ends what the TERM does not.
# gpu LABEL DEADLINE LIMIT INPUT KERNELS [EXTRA]: medians of 20 products, B=1024, both precisions
gpu() {
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return 1; }
  /usr/bin/time -f '%e s %M KB' -o $D/$1.time timeout -k 10 $3 $G/spac spmv $4 --gpu -b 1024 --precision fp32,fp64 \
    --kernels $5 --iters 20 --cpu-iters 1 --format csv $6 > $D/$1.csv 2> $D/$1.err
  local rc=$?; echo "gpu $1 rc=$rc +$((SECONDS-T0))s $(cat $D/$1.time)"; tail -3 $D/$1.err; return $rc
}
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum
M+=,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,launch__registers_per_thread
M+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
# prof LABEL DEADLINE LIMIT INPUT KERNELS [EXTRA]: one product each under Nsight Compute (caches flushed), both precisions
prof() {
  [ $((SECONDS-T0)) -lt $2 ] || { echo "skip $1 (past $2 s)"; return 1; }
  timeout -k 10 $3 ncu --clock-control none --csv --page raw --print-units base --metrics "$M" \
    --log-file $D/$1.ncu.csv $G/spac spmv $4 --gpu -b 1024 --precision fp32,fp64 --kernels $5 --iters 1 --warmup 0 \
    --cpu-iters 1 --quiet --format csv $6 > $D/$1.csv 2> $D/$1.err
  local rc=$?; echo "ncu $1 rc=$rc +$((SECONDS-T0))s ($(grep -c '^"[0-9]' $D/$1.ncu.csv) launches)"; tail -3 $D/$1.err; return $rc
}
MESH=gen:stencil3d:nx=272,ny=272,nz=272
R24=gen:rmat:scale=24,ef=16
R23=gen:rmat:scale=23,ef=16
R22=gen:rmat:scale=22,ef=16
