#!/usr/bin/env bash
# issue 19 item 4 on the device's 16 cores: the circuit5M stand-in partitioned by two builds, alternating, twice each.
# Usage: run.sh DIR A B, where bin/DIR/b.tgz holds gpu/spac-A, gpu/spac-B (built with -Wl,-rpath,$ORIGIN/lib) and gpu/lib/libmetis.so.5.
# Stop 33: "run.sh c35 base new" (8d470e8 against 23f18d1), "run.sh c37 d2 d4" (rbDepth 2 against 4).
set -u
dir=$1 a=$2 b=$3
T0=$SECONDS
mkdir -p /tmp/b && tar -xzf bin/$dir/b.tgz -C /tmp/b
B=/tmp/b/gpu; D=$OUT/$dir; mkdir -p $D
nproc > $D/cpu.txt; lscpu | grep -E "Model name|^CPU\(s\)" >> $D/cpu.txt
$B/spac-$a gen circuit5M -o /tmp/c5.mtx > $D/gen.txt 2>&1; echo "gen rc=$? +$((SECONDS-T0))s"
for i in 1 2; do
  for v in $a $b; do
    l=$((570 - (SECONDS-T0))); [ $l -lt 60 ] && { echo "$v $i skipped"; continue; }
    if command -v script >/dev/null && [ -x /usr/bin/time ]; then
      ( /usr/bin/time -f "TIME %e s %U user %S sys %M KB" script -qc "$B/spac-$v partition /tmp/c5.mtx -o /dev/null" /dev/null ) > $D/$v-$i.txt 2>&1
    else
      ( TIMEFORMAT="TIME %R s %U user %S sys"; time $B/spac-$v partition /tmp/c5.mtx --quiet -o /dev/null ) > $D/$v-$i.txt 2>&1
    fi
    echo "$v $i rc=$? +$((SECONDS-T0))s: $(grep -a -E 'copies|partition time|TIME' $D/$v-$i.txt | tr -d '\r' | tr '\n' ' ')"
  done
done
