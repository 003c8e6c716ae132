#!/usr/bin/env bash
# issue 19 item 4 on the device's 16 cores: the circuit5M stand-in partitioned by the rbDepth 2 (committed) and 4, alternating
T0=$SECONDS
mkdir -p /tmp/b && tar -xzf bin/c37/b.tgz -C /tmp/b
B=/tmp/b/gpu; D=$OUT/c37; mkdir -p $D
nproc > $D/cpu.txt; lscpu | grep -E "Model name|^CPU\(s\)" >> $D/cpu.txt
$B/spac-d2 gen circuit5M -o /tmp/c5.mtx > $D/gen.txt 2>&1; echo "gen rc=$? +$((SECONDS-T0))s"
for i in 1 2; do
  for v in d2 d4; do
    l=$((570 - (SECONDS-T0))); [ $l -lt 60 ] && { echo "$v $i skipped"; continue; }
    if command -v script >/dev/null && [ -x /usr/bin/time ]; then
      ( /usr/bin/time -f "TIME %e s %U user %S sys %M KB" script -qc "$B/spac-$v partition /tmp/c5.mtx -o /dev/null" /dev/null ) > $D/$v-$i.txt 2>&1
    else
      ( TIMEFORMAT="TIME %R s %U user %S sys"; time $B/spac-$v partition /tmp/c5.mtx --quiet -o /dev/null ) > $D/$v-$i.txt 2>&1
    fi
    echo "$v $i rc=$? +$((SECONDS-T0))s: $(grep -a -E 'copies|partition time|TIME' $D/$v-$i.txt | tr -d '\r' | tr '\n' ' ')"
  done
done
